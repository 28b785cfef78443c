"""No API key in a `repr`, an error or a log line: each provider's client is
built with a recognisable (fake) key, then called over a mock transport whose
answers echo the key back, as a provider or a proxy may (an error message
quoting the `Authorization` header, an HTTP client's error naming it). What
interlingua raises shows the key masked, and so does the SDK exception chained
under it; the log records of a whole exchange, the SDKs' and HTTP clients'
included, at DEBUG, hold no key. The fixtures hold none either
(`tests/test_secrets.py`).
"""

from __future__ import annotations

import json
import logging
import traceback
from collections.abc import Callable
from typing import Any

import httpx
import httpx2
import pytest
from google import genai
from mistralai.client import Mistral

from conftest import fake_key, recorded
from interlingua import ChatRequest, Message, ProviderConnectionError, ProviderError, accumulate
from interlingua._sdk_errors import MASK
from interlingua.client import AsyncChatClient, ChatClient
from interlingua_anthropic import AnthropicClient, AsyncAnthropicClient
from interlingua_google import AsyncGoogleClient, GoogleClient
from interlingua_groq import AsyncGroqClient, GroqClient
from interlingua_mistral import AsyncMistralClient, MistralClient
from interlingua_openai import AsyncOpenAIClient, OpenAIClient
from interlingua_openai.responses import AsyncOpenAIResponsesClient, OpenAIResponsesClient

KEY = fake_key("sk-test-SECRET-", "4f9a2c7e1b8d3f6a0c5e")
# Google's keys have a shape of their own (`AIza...`), which the secret check knows.
GOOGLE_KEY = fake_key("AIzaSyTEST", "4f9a2c7e1b8d3f6a0c5e")
REQUEST = ChatRequest(model="m", max_tokens=16, messages=(Message.user("Hi"),))
Handler = Callable[[Any], Any]


def _httpx2(handler: Handler) -> httpx2.Client:
    return httpx2.Client(transport=httpx2.MockTransport(handler))


CLIENTS: dict[str, Callable[[Handler], ChatClient]] = {
    "anthropic": lambda h: AnthropicClient(api_key=KEY, max_retries=0, http_client=_httpx2(h)),
    "openai": lambda h: OpenAIClient(api_key=KEY, max_retries=0, http_client=_httpx2(h)),
    "openai-responses": lambda h: OpenAIResponsesClient(
        api_key=KEY, max_retries=0, http_client=_httpx2(h)
    ),
    "groq": lambda h: GroqClient(
        api_key=KEY, max_retries=0, http_client=httpx.Client(transport=httpx.MockTransport(h))
    ),
    # mistralai's option for its HTTP client is `client`, which names the SDK client here.
    "mistral": lambda h: MistralClient(Mistral(api_key=KEY, client=_httpx2(h))),
    # google-genai takes an HTTP client of its own in its `http_options`.
    "google": lambda h: GoogleClient(
        genai.Client(api_key=GOOGLE_KEY, http_options={"httpx_client": _httpx2(h)})
    ),
}
# Where each SDK's stream answer comes from, for the logged exchange.
STREAMS = {
    "anthropic": "anthropic/stream_thinking_tool_use.json",
    "openai": "openai/chat_stream_parallel_tool_calls.json",
    "openai-responses": "openai/responses_stream_reasoning.json",
    "groq": "groq/stream_reasoning_usage.json",
    "mistral": "mistral/stream_parallel_tool_calls.json",
    "google": "google/stream_parallel_tool_calls.json",
}


def http_of(provider: str) -> Any:
    return httpx if provider == "groq" else httpx2


# The request id as each provider names it (Mistral: its correlation id).
REQUEST_IDS = {"x-request-id": "req_1", "request-id": "req_1", "mistral-correlation-id": "req_1"}


def key_of(provider: str) -> str:
    return GOOGLE_KEY if provider == "google" else KEY


def credential(request: Any) -> str | None:
    """The credential header a request carried."""
    headers = request.headers
    return headers.get("authorization") or headers.get("x-api-key") or headers.get("x-goog-api-key")


def echoing(provider: str, status: int = 401) -> Callable[[Any], Any]:
    """An answer whose error message quotes the request's credential header back."""

    def answer(request: Any) -> Any:
        message = f"invalid credentials in header: {credential(request)}"
        body: dict[str, Any] = {
            "type": "error",
            "error": {"type": "authentication_error", "message": message},
        }
        if provider == "google":
            body = {"error": {"code": status, "message": message, "status": "UNAUTHENTICATED"}}
        elif provider != "anthropic":
            body = {"error": {"message": message, "type": "invalid_request_error", "code": None}}
        return http_of(provider).Response(status, json=body, headers=REQUEST_IDS)

    return answer


def shown(error: BaseException) -> str:
    """Everything an error shows: its text, its repr, its fields, its traceback
    with the exceptions chained under it."""
    fields = {name: repr(value) for name, value in vars(error).items()}
    return "\n".join(
        [str(error), repr(error), json.dumps(fields), *traceback.format_exception(error)]
    )


@pytest.mark.parametrize("provider", list(CLIENTS))
def test_a_client_built_with_a_key_shows_none(provider: str) -> None:
    key = key_of(provider)
    client = CLIENTS[provider](echoing(provider))
    assert key not in repr(client)
    assert key not in str(client)
    assert key not in repr(client.sdk)
    assert key not in repr(vars(client))


@pytest.mark.parametrize(
    ("provider", "build"),
    [
        ("anthropic", lambda: AsyncAnthropicClient(api_key=KEY)),
        ("openai", lambda: AsyncOpenAIClient(api_key=KEY)),
        ("openai-responses", lambda: AsyncOpenAIResponsesClient(api_key=KEY)),
        ("groq", lambda: AsyncGroqClient(api_key=KEY)),
        ("mistral", lambda: AsyncMistralClient(api_key=KEY)),
        ("google", lambda: AsyncGoogleClient(api_key=GOOGLE_KEY)),
    ],
)
def test_an_async_client_built_with_a_key_shows_none(
    provider: str, build: Callable[[], AsyncChatClient]
) -> None:
    client = build()
    assert key_of(provider) not in repr(client)
    assert key_of(provider) not in repr(client.sdk)


@pytest.mark.parametrize("provider", list(CLIENTS))
@pytest.mark.parametrize("stream", [False, True], ids=["complete", "stream"])
def test_an_error_answer_that_echoes_the_key_shows_it_masked(provider: str, stream: bool) -> None:
    key = key_of(provider)
    client = CLIENTS[provider](echoing(provider))
    with pytest.raises(ProviderError) as caught:
        client.stream(REQUEST) if stream else client.complete(REQUEST)
    error = caught.value
    assert error.status == 401
    assert error.message == f"invalid credentials in header: {MASK}"  # "Bearer <key>" whole
    assert error.request_id == "req_1"
    assert key not in shown(error)
    assert key not in json.dumps(error.body)
    # The SDK's exception under it: its text, its text fields and the traceback.
    cause = error.__cause__
    assert cause is not None
    assert key not in str(cause)
    assert key not in "".join(traceback.format_exception(cause))
    assert not [name for name, value in vars(cause).items() if key in json.dumps(value, default=str)
                and isinstance(value, str | dict | list)]  # fmt: skip


@pytest.mark.parametrize("provider", list(CLIENTS))
def test_a_connection_error_that_names_the_key_shows_it_masked(provider: str) -> None:
    http = http_of(provider)

    def refuse(request: Any) -> Any:
        raise http.ConnectError(f"proxy refused {credential(request)}", request=request)

    with pytest.raises(ProviderConnectionError) as caught:
        CLIENTS[provider](refuse).complete(REQUEST)
    assert key_of(provider) not in shown(caught.value)
    assert MASK in shown(caught.value)


@pytest.mark.parametrize("provider", list(CLIENTS))
def test_no_log_line_of_an_exchange_holds_the_key(
    provider: str, caplog: pytest.LogCaptureFixture
) -> None:
    (interaction,) = recorded(STREAMS[provider])
    answer = interaction.response
    sent: list[Any] = []

    def serve(request: Any) -> Any:
        sent.append(credential(request))
        return http_of(provider).Response(200, headers=answer.replay_headers(), content=answer.body)

    caplog.set_level(logging.DEBUG)
    accumulate(CLIENTS[provider](serve).stream(REQUEST))
    with pytest.raises(ProviderError):
        CLIENTS[provider](echoing(provider)).complete(REQUEST)

    key = key_of(provider)
    assert key in sent[0]  # the key did go out, in its header
    assert caplog.records, "the SDKs log their requests at DEBUG"
    for record in caplog.records:
        assert key not in record.getMessage(), (record.name, record.getMessage())
        assert key not in repr(record.args)
