"""Provider errors through the real SDK clients: each SDK's exception for an
error answer, a failed connection or a timeout comes out as the one hierarchy,
with the provider, the HTTP status, the provider's error type, code and
message, the request id and the retry-after the answer gave, and whether a
retry can help.

The answers are the project's fixtures (`fixtures/*/error_*.json`) and, below,
error bodies shaped as each provider documents them (its errors page, or as
users' logs show them), served by a mock transport. An error body that is
plain text or an HTML page keeps its text, trimmed, as the message. The body
each call sent is checked too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anthropic
import groq
import httpx
import httpx2
import openai
import pytest
from mistralai.client import Mistral

from conftest import fake_key, recorded
from interlingua import (
    AuthenticationError,
    BadRequestError,
    ChatRequest,
    Message,
    NotFoundError,
    OverloadedError,
    ProviderConnectionError,
    ProviderError,
    RateLimitError,
    ServerError,
)
from interlingua._answer_headers import retry_after
from interlingua.client import AsyncChatClient, ChatClient
from interlingua_anthropic import AnthropicClient, AsyncAnthropicClient
from interlingua_groq import AsyncGroqClient, GroqClient
from interlingua_mistral import AsyncMistralClient, MistralClient
from interlingua_openai import AsyncOpenAIClient, OpenAIClient
from interlingua_openai.responses import AsyncOpenAIResponsesClient, OpenAIResponsesClient

KEY = fake_key("sk-test-", "0000000000")
REQUEST = ChatRequest(model="m", max_tokens=64, messages=(Message.user("Hi"),))
HI = [{"role": "user", "content": "Hi"}]
# The body each API is sent for REQUEST, not streamed.
SENT: dict[str, dict[str, Any]] = {
    "anthropic": {"model": "m", "max_tokens": 64, "messages": HI},
    "openai": {"model": "m", "messages": HI, "max_completion_tokens": 64},
    "openai-responses": {"model": "m", "input": HI, "max_output_tokens": 64},
    "groq": {"model": "m", "messages": HI, "max_completion_tokens": 64},
    "mistral": {"model": "m", "messages": HI, "max_tokens": 64},
}
Handler = Callable[[Any], Any]


class Answer:
    """Answers each request with one status, headers and body (or raises
    `failure`); keeps the JSON body of each request."""

    def __init__(
        self,
        http: Any,
        status: int = 200,
        headers: Any = None,
        body: bytes = b"",
        failure: Any = None,
    ) -> None:
        self.http, self.status, self.headers, self.body = http, status, headers or {}, body
        self.failure = failure
        self.sent: list[Any] = []

    def __call__(self, request: Any) -> Any:
        self.sent.append(json.loads(request.read()))
        if self.failure is not None:
            raise self.failure("the failure", request=request)
        return self.http.Response(self.status, headers=self.headers, content=self.body)


def _httpx2(handler: Handler) -> httpx2.Client:
    return httpx2.Client(transport=httpx2.MockTransport(handler))


CLIENTS: dict[str, Callable[[Handler], ChatClient]] = {
    "anthropic": lambda h: AnthropicClient(
        anthropic.Anthropic(api_key=KEY, max_retries=0, http_client=_httpx2(h))
    ),
    "openai": lambda h: OpenAIClient(
        openai.OpenAI(api_key=KEY, max_retries=0, http_client=_httpx2(h))
    ),
    "openai-responses": lambda h: OpenAIResponsesClient(
        openai.OpenAI(api_key=KEY, max_retries=0, http_client=_httpx2(h))
    ),
    "groq": lambda h: GroqClient(
        groq.Groq(
            api_key=KEY, max_retries=0, http_client=httpx.Client(transport=httpx.MockTransport(h))
        )
    ),
    "mistral": lambda h: MistralClient(Mistral(api_key=KEY, client=_httpx2(h))),
}
ASYNC_CLIENTS: dict[str, Callable[[Handler], AsyncChatClient]] = {
    "anthropic": lambda h: AsyncAnthropicClient(
        anthropic.AsyncAnthropic(
            api_key=KEY,
            max_retries=0,
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(h)),
        )
    ),
    "openai": lambda h: AsyncOpenAIClient(
        openai.AsyncOpenAI(
            api_key=KEY,
            max_retries=0,
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(h)),
        )
    ),
    "openai-responses": lambda h: AsyncOpenAIResponsesClient(
        openai.AsyncOpenAI(
            api_key=KEY,
            max_retries=0,
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(h)),
        )
    ),
    "groq": lambda h: AsyncGroqClient(
        groq.AsyncGroq(
            api_key=KEY,
            max_retries=0,
            http_client=httpx.AsyncClient(transport=httpx.MockTransport(h)),
        )
    ),
    "mistral": lambda h: AsyncMistralClient(
        Mistral(api_key=KEY, async_client=httpx2.AsyncClient(transport=httpx2.MockTransport(h)))
    ),
}


def http_of(provider: str) -> Any:
    return httpx if provider == "groq" else httpx2


@dataclass(frozen=True)
class Case:
    """An error answer and the typed error it must give."""

    status: int
    body: Any  # JSON, or the text of the body
    error: type[ProviderError]
    type: str | None
    code: str | None
    message: str
    headers: dict[str, str] = field(default_factory=dict)
    request_id: str | None = None
    retry_after: float | None = None
    retryable: bool = False
    # Each rate limit the headers reported: its limit and what remained.
    limits: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)

    def wire(self) -> tuple[dict[str, str], bytes]:
        if isinstance(self.body, str):
            return {"content-type": "text/plain", **self.headers}, self.body.encode()
        return {"content-type": "application/json", **self.headers}, json.dumps(self.body).encode()


def from_fixture(name: str, **expected: Any) -> Case:
    """The case of the one error answer of `fixtures/<name>`."""
    (interaction,) = recorded(name)
    answer = interaction.response
    headers = {key: values[0] for key, values in answer.headers.items()}
    return Case(answer.status, answer.json, headers=headers, **expected)


OPENAI_RATE_LIMIT = {
    "error": {
        "message": "Rate limit reached for gpt-4o-mini in organization org-abc123 on tokens per "
        "min (TPM): Limit 200000, Used 199843, Requested 1024. Please try again in 260ms.",
        "type": "tokens",
        "param": None,
        "code": "rate_limit_exceeded",
    }
}
OPENAI_CONTEXT = {
    "error": {
        "message": "This model's maximum context length is 128000 tokens. However, your messages "
        "resulted in 130412 tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded",
    }
}


def openai_cases() -> list[Case]:
    """The errors of both OpenAI APIs (the Responses API answers the same bodies)."""
    return [
        Case(
            429, OPENAI_RATE_LIMIT, RateLimitError, "tokens", "rate_limit_exceeded",
            OPENAI_RATE_LIMIT["error"]["message"],
            headers={"x-request-id": "req_7f1c", "retry-after-ms": "260", "retry-after": "1"},
            request_id="req_7f1c", retry_after=0.26, retryable=True,
        ),
        Case(
            400, OPENAI_CONTEXT, BadRequestError, "invalid_request_error",
            "context_length_exceeded", OPENAI_CONTEXT["error"]["message"],
            headers={"x-request-id": "req_9a2b"}, request_id="req_9a2b",
        ),
        Case(
            401,
            {"error": {"message": "Incorrect API key provided: sk-test-****0000.",
                       "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}},
            AuthenticationError, "invalid_request_error", "invalid_api_key",
            "Incorrect API key provided: sk-test-****0000.",
        ),
        Case(
            503,
            {"error": {"message": "The engine is currently overloaded, please try again later",
                       "type": "server_error", "param": None, "code": None}},
            ServerError, "server_error", None,
            "The engine is currently overloaded, please try again later",
            headers={"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, retry_after=0.0,
            retryable=True,
        ),
    ]  # fmt: skip


def anthropic_error(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


ANTHROPIC_RATE_LIMIT = (
    "This request would exceed the rate limit for your organization of 50,000 input tokens "
    "per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits."
)
ANTHROPIC_INPUT_LIMIT = (
    "This request would exceed the rate limit for your organization "
    "(5f0c2a8e-0000-4000-8000-000000000000) of 50,000 input tokens per minute. For details, "
    "refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers "
    "for current usage. Please reduce the prompt length or the maximum tokens requested, or "
    "try again later. You may also contact sales at https://www.anthropic.com/contact-sales "
    "to discuss your options for a rate limit increase."
)
GROQ_TOKENS_LIMIT = (
    "Rate limit reached for model `llama-3.3-70b-versatile` in organization "
    "`org_01hx0000000000000000000000` service tier `on_demand` on tokens per minute (TPM): "
    "Limit 12000, Used 11861, Requested 1208. Please try again in 5.345s. Need more tokens? "
    "Upgrade to Dev Tier today at https://console.groq.com/settings/billing"
)
CASES: dict[str, list[Case]] = {
    "anthropic": [
        from_fixture(
            "anthropic/error_invalid_request.json", error=BadRequestError,
            type="invalid_request_error", code=None, message="temperature: range: 0..1",
            request_id="req_011CXd8Kpw2Hn6Ts4Qm9Lz7F",
        ),
        Case(
            429,
            anthropic_error("rate_limit_error", ANTHROPIC_RATE_LIMIT),
            RateLimitError, "rate_limit_error", None, ANTHROPIC_RATE_LIMIT,
            headers={"request-id": "req_011CY2", "retry-after": "12"},
            request_id="req_011CY2", retry_after=12.0, retryable=True,
        ),
        Case(
            529,
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"},
             "request_id": "req_011CY3"},
            OverloadedError, "overloaded_error", None, "Overloaded", request_id="req_011CY3",
            retryable=True,
        ),
        Case(
            400,
            anthropic_error(
                "invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum"
            ),
            BadRequestError, "invalid_request_error", None,
            "prompt is too long: 208310 tokens > 200000 maximum",
        ),
        Case(
            401,
            anthropic_error("authentication_error", "invalid x-api-key"),
            AuthenticationError, "authentication_error", None, "invalid x-api-key",
        ),
        from_fixture(
            "anthropic/error_rate_limited.json", error=RateLimitError, type="rate_limit_error",
            code=None, message=ANTHROPIC_INPUT_LIMIT, request_id="req_011CYq4Jm8Vt2Hb6Wx9Nd3Ks",
            retry_after=12.0, retryable=True,
            limits={"requests": (50, 49), "tokens": (60000, 10000),
                    "input_tokens": (50000, 0), "output_tokens": (10000, 10000)},
        ),
    ],
    "openai": [
        from_fixture(
            "openai/chat_error_400.json", error=BadRequestError, type="invalid_request_error",
            code="unsupported_parameter",
            message="Unsupported parameter: 'reasoning_effort' is not supported with this model.",
            request_id="req_0e1d2c3b4a5948678695a4b3c2d1e0f9",
        ),
        *openai_cases(),
    ],
    "openai-responses": [
        from_fixture(
            "openai/responses_error_model_not_found.json", error=NotFoundError,
            type="invalid_request_error", code="model_not_found",
            message="The model `gpt-4-does-not-exist` does not exist or you do not have access "
            "to it.",
            request_id="req_5b0c4e1f9a2d4e7c8b3a6f1d2e9c0b47",
        ),
        *openai_cases(),
    ],
    "groq": [
        from_fixture(
            "groq/error_invalid_api_key.json", error=AuthenticationError,
            type="invalid_request_error", code="invalid_api_key", message="Invalid API Key",
        ),
        from_fixture(
            "groq/error_rate_limited.json", error=RateLimitError, type="tokens",
            code="rate_limit_exceeded", message=GROQ_TOKENS_LIMIT,
            request_id="req_01k5q8w3hvf2mbx7t0e9c4ydna", retry_after=6.0, retryable=True,
            limits={"requests": (1000, 987), "tokens": (12000, 139)},
        ),
        Case(
            429,
            {"error": {"message": "Rate limit reached for model `llama-3.3-70b-versatile` on "
                       "tokens per minute (TPM): Limit 12000, Used 11650, Requested 1200. Please "
                       "try again in 4.25s.", "type": "tokens", "code": "rate_limit_exceeded"}},
            RateLimitError, "tokens", "rate_limit_exceeded",
            "Rate limit reached for model `llama-3.3-70b-versatile` on tokens per minute (TPM): "
            "Limit 12000, Used 11650, Requested 1200. Please try again in 4.25s.",
            headers={"x-request-id": "req_01k2", "retry-after": "5"},
            request_id="req_01k2", retry_after=5.0, retryable=True,
        ),
        Case(
            498,
            {"error": {"message": "Flex tier capacity exceeded. This is a known issue and we are "
                       "working on it.", "type": "internal_server_error",
                       "code": "capacity_exceeded"}},
            OverloadedError, "internal_server_error", "capacity_exceeded",
            "Flex tier capacity exceeded. This is a known issue and we are working on it.",
            retryable=True,
        ),
        Case(
            400,
            {"error": {"message": "Please reduce the length of the messages or completion.",
                       "type": "invalid_request_error", "param": "messages",
                       "code": "context_length_exceeded"}},
            BadRequestError, "invalid_request_error", "context_length_exceeded",
            "Please reduce the length of the messages or completion.",
        ),
    ],
    "mistral": [
        from_fixture(
            "mistral/error_rate_limited.json", error=RateLimitError, type="rate_limited",
            code="1300", message="Rate limit exceeded",
            request_id="019c4f34-1c5a-7d93-8b2e-3f9a6c0e5d17", retryable=True,
        ),
        from_fixture(
            "mistral/error_extra_forbidden.json", error=BadRequestError,
            type="invalid_request_error", code=None,
            message="body.safe_mode: Extra inputs are not permitted",
            request_id="019c4f33-4b8e-7f61-a2d9-6e0c3b7f1d52",
        ),
        Case(
            400,
            {"object": "error", "message": "Prompt contains 33012 tokens and 0 draft tokens, too "
             "large for model with 32768 maximum context length", "type": "invalid_request_error",
             "param": None, "code": "3051"},
            BadRequestError, "invalid_request_error", "3051",
            "Prompt contains 33012 tokens and 0 draft tokens, too large for model with 32768 "
            "maximum context length",
            headers={"mistral-correlation-id": "019c4f40"}, request_id="019c4f40",
        ),
        Case(
            401, {"detail": "Unauthorized"}, AuthenticationError, None, None, "Unauthorized",
        ),
        Case(
            429, {"object": "error", "message": "Requests rate limit exceeded",
                  "type": "rate_limited", "param": None, "code": "1300"},
            RateLimitError, "rate_limited", "1300", "Requests rate limit exceeded",
            headers={"retry-after": "3"}, retry_after=3.0, retryable=True,
        ),
    ],
}  # fmt: skip

PARAMS = [
    pytest.param(provider, case, id=f"{provider}:{case.status}:{case.code or case.type}")
    for provider, cases in CASES.items()
    for case in cases
]


def assert_typed(error: ProviderError, provider: str, case: Case) -> None:
    assert type(error) is case.error
    assert (error.provider, error.status, error.type, error.code) == (
        provider,
        case.status,
        case.type,
        case.code,
    )
    assert error.message == case.message
    assert error.request_id == case.request_id
    assert error.retry_after == case.retry_after
    assert error.retryable is case.retryable
    reported = {
        bucket: (limit.limit, limit.remaining)
        for bucket in ("requests", "tokens", "input_tokens", "output_tokens")
        if (limit := getattr(error.rate_limits, bucket, None)) is not None
    }
    assert reported == case.limits
    assert str(error).startswith(f"{provider} {case.status}")


@pytest.mark.parametrize(("provider", "case"), PARAMS)
def test_an_error_answer_raises_the_typed_error(provider: str, case: Case) -> None:
    headers, body = case.wire()
    answer = Answer(http_of(provider), case.status, headers, body)
    with pytest.raises(ProviderError) as caught:
        CLIENTS[provider](answer).complete(REQUEST)
    assert_typed(caught.value, provider, case)
    assert caught.value.body == case.body
    assert caught.value.__cause__ is not None  # the SDK's own exception
    assert answer.sent == [SENT[provider]]


@pytest.mark.parametrize(("provider", "case"), PARAMS)
def test_an_error_answer_to_a_stream_raises_the_typed_error_before_any_event(
    provider: str, case: Case
) -> None:
    headers, body = case.wire()
    answer = Answer(http_of(provider), case.status, headers, body)
    with pytest.raises(ProviderError) as caught:
        CLIENTS[provider](answer).stream(REQUEST)
    assert_typed(caught.value, provider, case)
    assert answer.sent[0]["stream"] is True


@pytest.mark.anyio
@pytest.mark.parametrize("provider", list(CASES))
async def test_an_error_answer_to_an_async_call_raises_the_typed_error(provider: str) -> None:
    case = CASES[provider][-1]
    headers, body = case.wire()
    answer = Answer(http_of(provider), case.status, headers, body)
    with pytest.raises(ProviderError) as caught:
        await ASYNC_CLIENTS[provider](answer).complete(REQUEST)
    assert_typed(caught.value, provider, case)
    assert answer.sent == [SENT[provider]]


PAGE = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n"
    "</body>\r\n</html>\r\n"
)
TEXT_BODIES = [
    pytest.param(502, "text/html", PAGE, ServerError, "502 Bad Gateway", id="an HTML page"),
    pytest.param(
        400, "text/plain", "  upstream connect error or disconnect/reset before headers\n",
        BadRequestError, "upstream connect error or disconnect/reset before headers",
        id="plain text",
    ),
    pytest.param(503, "text/plain", "503", ServerError, "503", id="a bare number"),
    pytest.param(
        500, "text/html", "<p>" + "An internal error &amp; more. " * 40 + "</p>", ServerError,
        ("An internal error & more. " * 40)[:299].rstrip() + "…", id="a long page",
    ),
    pytest.param(500, "text/plain", " \n", ServerError, "HTTP 500", id="nothing but white space"),
]  # fmt: skip


@pytest.mark.parametrize("provider", list(CLIENTS))
@pytest.mark.parametrize(("status", "media_type", "text", "cls", "message"), TEXT_BODIES)
def test_an_error_body_of_text_keeps_its_text_as_the_message(
    provider: str, status: int, media_type: str, text: str, cls: type, message: str
) -> None:
    answer = Answer(http_of(provider), status, {"content-type": media_type}, text.encode())
    with pytest.raises(ProviderError) as caught:
        CLIENTS[provider](answer).complete(REQUEST)
    error = caught.value
    assert type(error) is cls
    assert (error.provider, error.status, error.message) == (provider, status, message)
    assert error.retryable is (status >= 500)
    assert answer.sent == [SENT[provider]]


FAILURES = [
    pytest.param("ConnectError", id="no connection"),
    pytest.param("ConnectTimeout", id="a connect timeout"),
    pytest.param("ReadTimeout", id="a read timeout"),
]


@pytest.mark.parametrize("provider", list(CLIENTS))
@pytest.mark.parametrize("failure", FAILURES)
def test_no_answer_is_a_retryable_connection_error(provider: str, failure: str) -> None:
    http = http_of(provider)
    answer = Answer(http, failure=getattr(http, failure))
    with pytest.raises(ProviderConnectionError) as caught:
        CLIENTS[provider](answer).complete(REQUEST)
    error = caught.value
    assert (error.provider, error.status, error.retryable) == (provider, None, True)
    assert error.message
    assert caught.value.__cause__ is not None
    assert answer.sent == [SENT[provider]]
    timeout = "Timeout" in failure
    sdk_timeout = (openai.APITimeoutError, anthropic.APITimeoutError, groq.APITimeoutError)
    if provider == "mistral":  # the SDK lets the HTTP client's exception through
        assert isinstance(caught.value.__cause__, getattr(httpx2, failure))
    else:
        assert isinstance(caught.value.__cause__, sdk_timeout) is timeout


@pytest.mark.anyio
@pytest.mark.parametrize("provider", list(CLIENTS))
async def test_no_answer_to_an_async_call_is_a_connection_error(provider: str) -> None:
    http = http_of(provider)

    async def fail(request: Any) -> Any:
        raise http.ConnectError("no route to host", request=request)

    with pytest.raises(ProviderConnectionError) as caught:
        await ASYNC_CLIENTS[provider](fail).complete(REQUEST)
    assert (caught.value.provider, caught.value.retryable) == (provider, True)


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after": "7"}, 7.0),
        ({"retry-after": "1.5"}, 1.5),
        ({"retry-after-ms": "250", "retry-after": "1"}, 0.25),
        ({"retry-after": "Fri, 01 Jan 2100 00:00:10 GMT"}, 10.0),
        ({"retry-after": "Fri, 01 Jan 2100 00:00:10"}, 10.0),
        ({"retry-after": "soon"}, None),
        ({"retry-after": "-3"}, None),
        ({}, None),
    ],
)
def test_retry_after_is_read_as_seconds(headers: dict[str, str], seconds: float | None) -> None:
    from datetime import datetime, timezone

    now = datetime(2100, 1, 1, tzinfo=timezone.utc)
    assert retry_after(headers, now=now) == seconds
