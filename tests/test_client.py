"""interlingua.client: the SDK clients every adapter shares, driven here through
the real anthropic SDK over a mock transport."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator

import anthropic
import httpx2
import pytest

from conftest import recorded
from interlingua import ChatRequest, DecodeError, Message, ProviderConnectionError, accumulate
from interlingua.client import sdk_client
from interlingua_anthropic import AnthropicClient

(STREAM,) = recorded("anthropic/stream_thinking_tool_use.json")
REQUEST = ChatRequest(model="claude-sonnet-4-5", max_tokens=64, messages=(Message.user("Hi"),))


class _Recorded(httpx2.SyncByteStream):
    """A recorded stream body that notes when it is closed."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        yield self.body

    def close(self) -> None:
        self.closed = True


def client_answered_by(handler: Callable[[httpx2.Request], httpx2.Response]) -> AnthropicClient:
    http = httpx2.Client(transport=httpx2.MockTransport(handler))
    return AnthropicClient(
        anthropic.Anthropic(api_key="sk-secret", max_retries=0, http_client=http)
    )


def stream_client(stream: _Recorded) -> AnthropicClient:
    headers = STREAM.response.replay_headers()
    return client_answered_by(lambda request: httpx2.Response(200, headers=headers, stream=stream))


def recorded_stream() -> _Recorded:
    return _Recorded(STREAM.response.body)


def test_a_stream_read_to_the_end_closes_its_response() -> None:
    body = recorded_stream()
    response = accumulate(stream_client(body).stream(REQUEST))
    assert response.message.tool_calls
    assert body.closed


def test_a_stream_never_read_is_closed_when_dropped() -> None:
    body = recorded_stream()
    events = stream_client(body).stream(REQUEST)
    assert not body.closed
    del events
    gc.collect()
    assert body.closed


def test_a_stream_left_early_is_closed_by_its_with_block() -> None:
    body = recorded_stream()
    with stream_client(body).stream(REQUEST) as events:
        first = next(events)
    assert first.type == "start"
    assert body.closed


def test_a_connection_that_fails_is_a_retryable_provider_error() -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ConnectError("no route to host")

    with pytest.raises(ProviderConnectionError) as caught:
        client_answered_by(handler).complete(REQUEST)
    assert caught.value.retryable
    assert caught.value.provider == "anthropic"
    assert isinstance(caught.value.__cause__, anthropic.APIConnectionError)
    assert "sk-secret" not in str(caught.value)


def test_a_client_or_its_options_not_both() -> None:
    with pytest.raises(TypeError, match="not both"):
        sdk_client(object(), {"api_key": "k"}, anthropic.Anthropic)
    built = sdk_client(None, {"api_key": "k", "max_retries": 0}, anthropic.Anthropic)
    assert isinstance(built, anthropic.Anthropic)
    assert built.max_retries == 0


def test_a_200_that_is_not_json_is_a_decode_error() -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(
            200, headers={"content-type": "application/json"}, content=b"<html>oops"
        )

    with pytest.raises(DecodeError, match="the answer is not JSON"):
        client_answered_by(handler).complete(REQUEST)
