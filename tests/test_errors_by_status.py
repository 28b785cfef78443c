"""Every adapter's `decode_error`: the HTTP status names the class of an error
whose type is generic, and a type or code that names a condition decides over
the status (the core's `ErrorTypes`).

A generic type says only the broad kind of error (`api_error`, `server_error`,
Google's `INTERNAL`): Ollama's OpenAI-compatible layer gives `api_error` to
every status but 400 and 404, a bad key included. It picks the class only
inside a stream, where there is no status. Each body is written in the
adapter's own error shape; the Chat Completions servers whose own shape has no
type (xAI, OpenRouter) are given OpenAI's, which their decoders read too.

The answer's headers, given as `decode_error(status, body, headers=...)`,
change no class: they add the request id (where the body has none), the wait
asked for and the rate limits, their names in any case.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

from interlingua import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderError,
    RateLimit,
    RateLimitError,
    RateLimits,
    ServerError,
    get_adapter,
)


def chat_body(status: int | None, kind: str, message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def bare_body(status: int | None, kind: str, message: str) -> dict[str, Any]:  # Cerebras'
    return {"message": message, "type": kind, "param": None, "code": None}


def mistral_body(status: int | None, kind: str, message: str) -> dict[str, Any]:
    return {"object": "error", "message": message, "type": kind, "param": None, "code": None}


def anthropic_body(status: int | None, kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def google_body(status: int | None, kind: str, message: str) -> dict[str, Any]:
    return {"error": {"code": status or 500, "message": message, "status": kind}}


Shape = Callable[[int | None, str, str], dict[str, Any]]
CHAT_TYPES = ("api_error", "server_error")
# adapter -> its error body's shape, and the generic types it is checked with
ADAPTERS: dict[str, tuple[Shape, tuple[str, ...]]] = {
    "openai": (chat_body, CHAT_TYPES),
    "openai-responses": (chat_body, CHAT_TYPES),
    "groq": (chat_body, CHAT_TYPES),
    "deepseek": (chat_body, CHAT_TYPES),
    "ollama": (chat_body, CHAT_TYPES),
    "openai-compatible": (chat_body, CHAT_TYPES),
    "perplexity": (chat_body, CHAT_TYPES),
    "openrouter": (chat_body, CHAT_TYPES),
    "xai": (chat_body, CHAT_TYPES),
    "cerebras": (bare_body, CHAT_TYPES),
    "mistral": (mistral_body, (*CHAT_TYPES, "invalid_request_error")),
    "anthropic": (anthropic_body, ("api_error", "invalid_request_error")),
    "google": (google_body, ("INTERNAL", "UNKNOWN")),
}
STATUSES: dict[int, type[ProviderError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    422: BadRequestError,
    429: RateLimitError,
    500: ServerError,
    502: ServerError,
    503: ServerError,
    529: OverloadedError,
}
# The class a generic type stands for inside a stream.
IN_STREAM: dict[str, type[ProviderError]] = {
    "api_error": ServerError,
    "server_error": ServerError,
    "invalid_request_error": BadRequestError,
    "INTERNAL": ServerError,
    "UNKNOWN": ServerError,
}

CASES = [
    pytest.param(name, kind, status, id=f"{name}:{status}:{kind}")
    for name, (_, kinds) in ADAPTERS.items()
    for kind in kinds
    for status in STATUSES
]


@pytest.mark.parametrize(("name", "kind", "status"), CASES)
def test_the_status_names_the_class_of_an_error_with_a_generic_type(
    name: str, kind: str, status: int
) -> None:
    shape, _ = ADAPTERS[name]
    body = shape(status, kind, "Unauthorized")

    error = get_adapter(name).decode_error(status, body)

    assert type(error) is STATUSES[status]
    assert (error.provider, error.status, error.type, error.message) == (
        name,
        status,
        kind,
        "Unauthorized",
    )
    assert error.body == body
    assert error.retryable is (status == 429 or status >= 500)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        pytest.param(name, kind, id=f"{name}:{kind}")
        for name, (_, kinds) in ADAPTERS.items()
        for kind in kinds
    ],
)
def test_a_generic_type_names_the_class_inside_a_stream(name: str, kind: str) -> None:
    shape, _ = ADAPTERS[name]

    error = get_adapter(name).decode_error(None, shape(None, kind, "It broke."))

    assert type(error) is IN_STREAM[kind]
    assert (error.status, error.type, error.message) == (None, kind, "It broke.")


# A type or code that names a condition, with the status it comes with, and the
# class it stands for there and inside a stream alike: (adapter, status, body, class).
SPECIFIC = [
    pytest.param(
        "anthropic", 529, anthropic_body(529, "overloaded_error", "Overloaded"), OverloadedError,
        id="anthropic:529:overloaded_error",
    ),
    pytest.param(  # one request over the tokens-per-minute limit: no wait mends it
        "groq", 413,
        {"error": {"message": "Request too large for model `llama-3.3-70b-versatile` in "
                   "organization `org_01` service tier `on_demand` on tokens per minute (TPM): "
                   "Limit 12000, Requested 18211, please reduce your message size and try again.",
                   "type": "tokens", "code": "rate_limit_exceeded"}},
        RateLimitError, id="groq:413:rate_limit_exceeded",
    ),
    pytest.param(
        "groq", 401,
        {"error": {"message": "Invalid API Key", "type": "invalid_request_error",
                   "code": "invalid_api_key"}},
        AuthenticationError, id="groq:401:invalid_api_key",
    ),
    pytest.param(
        "openai", 429,
        {"error": {"message": "You exceeded your current quota, please check your plan and "
                   "billing details.", "type": "insufficient_quota", "param": None,
                   "code": "insufficient_quota"}},
        RateLimitError, id="openai:429:insufficient_quota",
    ),
    pytest.param(
        "google", 400,
        {"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.",
                   "status": "INVALID_ARGUMENT",
                   "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                                "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]}},
        AuthenticationError, id="google:400:API_KEY_INVALID",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("name", "status", "body", "cls"), SPECIFIC)
def test_a_specific_type_or_code_decides_with_a_status_or_without(
    name: str, status: int, body: dict[str, Any], cls: type[ProviderError]
) -> None:
    error = get_adapter(name).decode_error(status, body)
    in_stream = get_adapter(name).decode_error(None, body)

    assert (type(error), error.status) == (cls, status)
    assert (type(in_stream), in_stream.status) == (cls, None)


# A 429's headers as OpenAI and the Chat Completions servers send them, and as
# Anthropic does; names in the case an HTTP/1.1 server may write them.
OPENAI_HEADERS = {
    "X-Request-Id": "req_5c0d2f3a9b8e",
    "Retry-After": "7",
    "X-RateLimit-Limit-Requests": "500",
    "X-RateLimit-Remaining-Requests": "0",
    "X-RateLimit-Reset-Requests": "7s",
    "X-RateLimit-Limit-Tokens": "30000",
    "X-RateLimit-Remaining-Tokens": "29000",
    "X-RateLimit-Reset-Tokens": "2ms",
}
ANTHROPIC_HEADERS = {
    "Request-Id": "req_011CY3aBcD",
    "Retry-After": "7",
    "Anthropic-Ratelimit-Requests-Limit": "500",
    "Anthropic-Ratelimit-Requests-Remaining": "0",
    "Anthropic-Ratelimit-Requests-Reset": "2026-03-02T10:14:07Z",
}


def headers_of(name: str) -> dict[str, str]:
    return ANTHROPIC_HEADERS if name == "anthropic" else OPENAI_HEADERS


@pytest.mark.parametrize("name", sorted(ADAPTERS))
@pytest.mark.parametrize("status", [429, 503, None])
def test_the_headers_add_their_facts_and_change_no_class(name: str, status: int | None) -> None:
    shape, kinds = ADAPTERS[name]
    body = shape(status, kinds[0], "Slow down.")
    headers = headers_of(name)
    adapter = get_adapter(name)

    before = datetime.now(timezone.utc)
    error = adapter.decode_error(status, body, headers=headers)
    after = datetime.now(timezone.utc)
    bare = adapter.decode_error(status, body)

    assert (type(error), error.status, error.type, error.code, error.message) == (
        type(bare), bare.status, bare.type, bare.code, bare.message,
    )  # fmt: skip
    assert error.body == bare.body == body
    assert (bare.request_id, bare.retry_after, bare.rate_limits) == (None, None, None)
    assert error.request_id == headers.get("X-Request-Id", headers.get("Request-Id"))
    assert error.retry_after == 7.0
    limits = error.rate_limits
    assert limits is not None
    assert limits.requests is not None
    assert (limits.requests.limit, limits.requests.remaining) == (500, 0)
    if name == "anthropic":
        reset = datetime(2026, 3, 2, 10, 14, 7, tzinfo=timezone.utc)
        assert limits == RateLimits(requests=RateLimit(500, 0, reset))
    else:
        reset = limits.requests.reset_at
        assert reset is not None
        assert before + timedelta(seconds=7) <= reset <= after + timedelta(seconds=7)
        assert limits.tokens is not None
        assert (limits.tokens.limit, limits.tokens.remaining) == (30000, 29000)


@pytest.mark.parametrize(
    "headers",
    [
        {"retry-after-ms": "1500", "x-request-id": "req_1"},
        {"RETRY-AFTER-MS": "1500", "X-REQUEST-ID": "req_1"},
        httpx.Headers({"Retry-After-Ms": "1500", "X-Request-ID": "req_1"}),
    ],
    ids=["lower", "upper", "httpx"],
)
def test_header_names_are_read_in_any_case(headers: Any) -> None:
    body = chat_body(429, "requests", "Rate limit reached.")

    error = get_adapter("openai").decode_error(429, body, headers=headers)

    assert (type(error), error.request_id, error.retry_after) == (RateLimitError, "req_1", 1.5)


def test_the_body_s_request_id_comes_before_the_header_s() -> None:
    body = {**anthropic_body(429, "rate_limit_error", "Slow down."), "request_id": "req_body"}

    error = get_adapter("anthropic").decode_error(429, body, headers={"request-id": "req_header"})

    assert error.request_id == "req_body"


GOOGLE_429 = {
    "error": {
        "code": 429,
        "message": "You exceeded your current quota, please check your plan and billing details.",
        "status": "RESOURCE_EXHAUSTED",
        "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "19s"}],
    }
}


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [(None, 19.0), ({}, 19.0), ({"Retry-After": "30"}, 30.0), ({"Retry-After": "soon"}, 19.0)],
)
def test_a_retry_after_header_comes_before_the_body_s_retry_info(
    headers: dict[str, str] | None, seconds: float
) -> None:
    error = get_adapter("google").decode_error(429, GOOGLE_429, headers=headers)

    assert (type(error), error.retry_after) == (RateLimitError, seconds)


@pytest.mark.parametrize(
    ("headers", "request_id"),
    [
        ({"mistral-correlation-id": "019a7c5e-6b4b", "x-kong-request-id": "5e8f"}, "019a7c5e-6b4b"),
        ({"X-Kong-Request-Id": "5e8f", "x-request-id": "req_x"}, "5e8f"),
        ({"x-request-id": "req_x"}, "req_x"),
        ({}, None),
    ],
)
def test_mistral_s_request_id_is_in_its_own_headers(
    headers: dict[str, str], request_id: str | None
) -> None:
    body = mistral_body(429, "rate_limited", "Requests rate limit exceeded")

    error = get_adapter("mistral").decode_error(429, body, headers=headers)

    assert (type(error), error.request_id) == (RateLimitError, request_id)
