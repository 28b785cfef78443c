"""interlingua.client: the SDK clients every adapter shares, driven here through
the real anthropic SDK over a mock transport (and, for a body sent as it is,
the mistralai and google-genai SDKs, whose transports are their own)."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator

import anthropic
import httpx2
import pytest
from google import genai
from google.genai import types
from mistralai.client import Mistral

from conftest import recorded
from interlingua import ChatRequest, DecodeError, Message, ProviderConnectionError, accumulate
from interlingua.client import ChatClient, sdk_client
from interlingua.testing import Interaction
from interlingua_anthropic import AnthropicClient
from interlingua_google import GoogleClient
from interlingua_mistral import MistralClient

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


# --- a body already in the endpoint's API, sent as it is ---


class _Seen:
    """The requests a mock transport was sent, each answered with `answer`."""

    def __init__(self, answer: Interaction) -> None:
        self.answer = answer
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        self.requests.append(request)
        response = self.answer.response
        return httpx2.Response(
            response.status, headers=response.replay_headers(), content=response.body
        )

    @property
    def client(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self))


def _anthropic(seen: _Seen) -> ChatClient:
    return AnthropicClient(anthropic.Anthropic(api_key="sk-test", http_client=seen.client))


def _mistral(seen: _Seen) -> ChatClient:
    return MistralClient(Mistral(api_key="test-key", client=seen.client))


def _google(seen: _Seen) -> ChatClient:
    options = types.HttpOptions(httpx_client=seen.client, api_version="v1beta")  # the recordings'
    return GoogleClient(genai.Client(api_key="test-key", http_options=options))


# Each SDK's way of posting: a Stainless SDK's generic `post`, mistralai's hooks,
# google-genai's API client.
AS_IS = [
    pytest.param(_anthropic, "anthropic/tool_round_trip_with_thinking.json", id="anthropic"),
    pytest.param(_mistral, "mistral/tool_round_trip_with_thinking.json", id="mistral"),
    pytest.param(_google, "google/tool_round_trip_with_thinking.json", id="google"),
]


@pytest.mark.parametrize(("client_for", "name"), AS_IS)
def test_a_body_is_sent_as_it_is_with_the_headers_given(
    client_for: Callable[[_Seen], ChatClient], name: str
) -> None:
    asked, answered = recorded(name)[:2]
    # The recorded body with a field no codec knows, in an order of its own.
    body = {"x_client_field": {"kept": True}, **answered.request.json}
    seen = _Seen(answered)
    client = client_for(seen)
    path = client.endpoint.path_for(
        ChatRequest(model="gemini-3-flash-preview", messages=(Message.user("Hi"),)), stream=False
    )
    response = client.complete_body(body, path, {"x-trace": "as given"})

    (sent,) = seen.requests
    assert sent.url.path == asked.path
    assert json.dumps(json.loads(sent.content)) == json.dumps(body)
    assert sent.headers["x-trace"] == "as given"
    assert response == client.endpoint.decode_response(answered.response.json)


def test_a_body_asking_for_a_stream_is_streamed_as_it_is() -> None:
    body = {**STREAM.request.json, "x_client_field": 1}
    seen = _Seen(STREAM)
    client = _anthropic(seen)
    events = client.stream_body(body, "/v1/messages", {"anthropic-beta": "a-beta,another"})
    answer = accumulate(events)

    (sent,) = seen.requests
    assert json.loads(sent.content) == body
    assert sent.headers["anthropic-beta"] == "a-beta,another"
    assert answer.message.tool_calls
