"""Streams through the real SDK clients, served by a mock transport whose body
comes in pieces: each provider's recorded stream gives the same response
however its bytes are split; a stream cut off anywhere raises `StreamError`
whose `partial` holds the events that had wholly arrived, its `error` a
retryable `ProviderConnectionError`; an error event inside the stream raises
`StreamError` with the provider's typed error.

What the clients give is compared with the recording decoded without any SDK
(the endpoint's own stream decoder over the recorded payloads). The recordings
are the project's fixtures, shaped like real traffic. A short recording per
provider is split at every byte boundary; long ones at seeded random places.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import anthropic
import groq
import httpx
import httpx2
import openai
import pytest
from mistralai.client import Mistral

import interlingua_anthropic
import interlingua_groq
import interlingua_mistral
import interlingua_openai
import interlingua_openai.responses
from conftest import fake_key, recorded
from interlingua import (
    BadRequestError,
    ChatRequest,
    ChatResponse,
    DecodeError,
    OverloadedError,
    ProviderConnectionError,
    ProviderError,
    ServerError,
    StreamError,
    accumulate,
    accumulate_async,
)
from interlingua.client import AsyncChatClient, ChatClient, Endpoint
from interlingua.codec import decode_events
from interlingua.testing import Interaction
from interlingua_anthropic import AnthropicClient, AsyncAnthropicClient
from interlingua_groq import AsyncGroqClient, GroqClient
from interlingua_mistral import AsyncMistralClient, MistralClient
from interlingua_openai import AsyncOpenAIClient, OpenAIClient
from interlingua_openai.responses import AsyncOpenAIResponsesClient, OpenAIResponsesClient

KEY = fake_key("sk-test-", "0000000000")


class Server:
    """Answers every request with `body`, in the pieces `cuts` makes of it
    (an iterator of byte strings, as a socket gives them), and keeps the JSON
    body of each request."""

    def __init__(self, interaction: Interaction, http: Any) -> None:
        self.headers = interaction.response.replay_headers()
        self.http = http
        self.pieces: list[bytes] = [interaction.response.body]
        self.sent: list[Any] = []

    def serve(self, body: bytes, cuts: Sequence[int] = ()) -> None:
        points = [0, *sorted(set(cuts)), len(body)]
        self.pieces = [body[a:b] for a, b in itertools.pairwise(points)]

    def __call__(self, request: Any) -> Any:
        self.sent.append(json.loads(request.content))
        return self.http.Response(200, headers=self.headers, content=iter(list(self.pieces)))

    async def answer(self, request: Any) -> Any:
        self.sent.append(json.loads(await request.aread()))
        pieces = list(self.pieces)

        async def body() -> AsyncIterator[bytes]:
            for piece in pieces:
                yield piece

        return self.http.Response(200, headers=self.headers, content=body())


def _anthropic(server: Server) -> ChatClient:
    http = httpx2.Client(transport=httpx2.MockTransport(server))
    return AnthropicClient(anthropic.Anthropic(api_key=KEY, max_retries=0, http_client=http))


def _anthropic_async(server: Server) -> AsyncChatClient:
    http = httpx2.AsyncClient(transport=httpx2.MockTransport(server.answer))
    sdk = anthropic.AsyncAnthropic(api_key=KEY, max_retries=0, http_client=http)
    return AsyncAnthropicClient(sdk)


def _openai(cls: type[ChatClient]) -> Callable[[Server], ChatClient]:
    def build(server: Server) -> ChatClient:
        http = httpx2.Client(transport=httpx2.MockTransport(server))
        return cls(openai.OpenAI(api_key=KEY, max_retries=0, http_client=http))  # type: ignore[call-arg]

    return build


def _openai_async(cls: type[AsyncChatClient]) -> Callable[[Server], AsyncChatClient]:
    def build(server: Server) -> AsyncChatClient:
        http = httpx2.AsyncClient(transport=httpx2.MockTransport(server.answer))
        sdk = openai.AsyncOpenAI(api_key=KEY, max_retries=0, http_client=http)
        return cls(sdk)  # type: ignore[call-arg]

    return build


def _groq(server: Server) -> ChatClient:
    http = httpx.Client(transport=httpx.MockTransport(server))
    return GroqClient(groq.Groq(api_key=KEY, max_retries=0, http_client=http))


def _groq_async(server: Server) -> AsyncChatClient:
    http = httpx.AsyncClient(transport=httpx.MockTransport(server.answer))
    return AsyncGroqClient(groq.AsyncGroq(api_key=KEY, max_retries=0, http_client=http))


def _mistral(server: Server) -> ChatClient:
    return MistralClient(
        Mistral(api_key=KEY, client=httpx2.Client(transport=httpx2.MockTransport(server)))
    )


def _mistral_async(server: Server) -> AsyncChatClient:
    http = httpx2.AsyncClient(transport=httpx2.MockTransport(server.answer))
    return AsyncMistralClient(Mistral(api_key=KEY, async_client=http))


@dataclass(frozen=True)
class Provider:
    """An API, its clients over a `Server`, and whether its SDK reads a last
    event that no blank line ended (interlingua's own SSE reader does, when
    its data is whole; the SDKs' readers drop it)."""

    name: str
    decode_request: Callable[[Any], ChatRequest]
    client: Callable[[Server], ChatClient]
    async_client: Callable[[Server], AsyncChatClient]
    http: Any = httpx2
    reads_unended_last_event: bool = False


ANTHROPIC = Provider(
    "anthropic", interlingua_anthropic.decode_request, _anthropic, _anthropic_async
)
OPENAI = Provider(
    "openai", interlingua_openai.decode_request, _openai(OpenAIClient),
    _openai_async(AsyncOpenAIClient),
)  # fmt: skip
RESPONSES = Provider(
    "openai-responses",
    interlingua_openai.responses.decode_request,
    _openai(OpenAIResponsesClient),
    _openai_async(AsyncOpenAIResponsesClient),
)
GROQ = Provider("groq", interlingua_groq.decode_request, _groq, _groq_async, http=httpx)
MISTRAL = Provider(
    "mistral", interlingua_mistral.decode_request, _mistral, _mistral_async,
    reads_unended_last_event=True,
)  # fmt: skip

# Whole streams, each ending as its API ends one (`[DONE]`, `message_stop`, `response.completed`).
WHOLE = [
    pytest.param(ANTHROPIC, "anthropic/stream_thinking_tool_use.json", id="anthropic"),
    pytest.param(OPENAI, "openai/chat_stream_parallel_tool_calls.json", id="openai"),
    pytest.param(RESPONSES, "openai/responses_stream_reasoning.json", id="openai-responses"),
    pytest.param(GROQ, "groq/stream_reasoning_usage.json", id="groq"),
    pytest.param(MISTRAL, "mistral/stream_parallel_tool_calls.json", id="mistral"),
]
# Streams with an error event after some text: the provider's class for it, and its message.
FAILING = [
    pytest.param(
        ANTHROPIC, "anthropic/stream_overloaded.json", OverloadedError, "Overloaded",
        id="anthropic error event",
    ),
    pytest.param(
        OPENAI, "openai/chat_stream_error.json", ServerError,
        "The server had an error while processing your request. Sorry about that!",
        id="openai error chunk",
    ),
    pytest.param(
        RESPONSES, "openai/failed_responses_stream.json", ServerError,
        "An error occurred while processing your request.",
        id="openai-responses response.failed",
    ),
    pytest.param(
        GROQ, "groq/stream_error.json", BadRequestError,
        "Failed to call a function. Please adjust your prompt.",
        id="groq error chunk",
    ),
    pytest.param(
        MISTRAL, "mistral/stream_error.json", ServerError, "Internal server error",
        id="mistral error chunk",
    ),
]  # fmt: skip


def one(name: str) -> Interaction:
    (interaction,) = recorded(name)
    return interaction


Outcome = tuple[ChatResponse | None, tuple[Any, ...] | None]


def outcome(read: Callable[[], ChatResponse]) -> Outcome:
    """The response `read` gives, or the partial response and the error of the
    `StreamError` it raises, the error as its class and fields."""
    try:
        return read(), None
    except StreamError as exc:
        error = exc.error
        if error is None:
            return exc.partial, ("no provider error", str(exc))
        fields = (error.provider, error.status, error.type, error.code, error.message, error.body)
        return exc.partial, (type(error), *fields, error.retryable)


async def async_outcome(client: AsyncChatClient, request: ChatRequest) -> Outcome:
    try:
        return await accumulate_async(await client.stream(request)), None
    except StreamError as exc:
        return outcome(_raiser(exc))


def _raiser(exc: StreamError) -> Callable[[], ChatResponse]:
    def read() -> ChatResponse:
        raise exc

    return read


def endpoint(client: ChatClient | AsyncChatClient) -> Endpoint:
    return client.endpoint


def decoded(endpoint: Endpoint, payloads: list[Any], *, cut: bool = False) -> Outcome:
    """What the recorded `payloads` give without any SDK: through the endpoint's
    decoder, then, when `cut`, the error of a stream cut off there."""

    def events() -> Iterator[Any]:
        yield from decode_events(endpoint.stream_decoder(), payloads)
        if cut:
            raise ProviderConnectionError("cut off", provider=endpoint.provider)

    partial, error = outcome(lambda: accumulate(events()))
    if cut:
        assert error is not None
        return partial, (ProviderConnectionError, endpoint.provider)
    return partial, error


def cut_off(result: Outcome) -> Outcome:
    """`result` with the error of a cut-off stream reduced to its class and provider,
    its message checked."""
    partial, error = result
    assert error is not None, "the cut-off stream gave a response"
    assert error[0] is ProviderConnectionError
    assert "the stream was cut off" in error[5]
    assert error[-1] is True  # retryable
    return partial, (error[0], error[1])


def stream_request(provider: Provider, interaction: Interaction) -> ChatRequest:
    assert interaction.request is not None
    return provider.decode_request(interaction.request.json)


class Served:
    """A recording served through a provider's real clients: the `server`
    answering with its body, a client of each kind over it (built when first
    used) and the request it recorded."""

    def __init__(self, provider: Provider, name: str, server: type[Server] = Server) -> None:
        self.provider = provider
        self.interaction = one(name)
        self.body = self.interaction.response.body
        self.server = server(self.interaction, provider.http)
        self.request = stream_request(provider, self.interaction)

    @functools.cached_property
    def client(self) -> ChatClient:
        return self.provider.client(self.server)

    @functools.cached_property
    def async_client(self) -> AsyncChatClient:
        return self.provider.async_client(self.server)

    def recorded(self) -> Outcome:
        """What the recorded payloads give without any SDK."""
        return decoded(endpoint(self.client), self.interaction.response.stream_payloads())

    def streamed(self) -> Outcome:
        """What the client's stream gives, as the server answers now."""
        return outcome(lambda: accumulate(self.client.stream(self.request)))

    async def streamed_async(self) -> Outcome:
        return await async_outcome(self.async_client, self.request)

    def assert_sent(self, times: int) -> None:
        """The server was sent the recorded body, `times` times."""
        assert self.interaction.request is not None
        assert self.server.sent == [self.interaction.request.json] * times


@dataclass(frozen=True)
class Event:
    """One server-sent event of a body: where its data line ends and where
    the blank line after it ends, and its data."""

    data_end: int
    end: int
    data: str


def events_of(body: bytes) -> list[Event]:
    events, start = [], 0
    while start < len(body):
        end = body.index(b"\n\n", start) + 2
        block = body[start:end].decode()
        data_at = block.index("data: ")
        data_end = (
            start + len(block[:data_at].encode()) + len(block[data_at:].split("\n")[0].encode())
        )
        events.append(Event(data_end, end, block[data_at:].split("\n")[0].removeprefix("data: ")))
        start = end
    return events


def cut_points(events: list[Event]) -> list[int]:
    """Places to cut a body: its start, and in and around every event."""
    points = {0}
    start = 0
    for event in events:
        points |= {start + 1, start + 6, (start + event.data_end) // 2}
        points |= {event.data_end - 1, event.data_end, event.data_end + 1, event.end}
        start = event.end
    return sorted(point for point in points if point < events[-1].end)


def expected_at(provider: Provider, client: ChatClient, events: list[Event], cut: int) -> Outcome:
    """What a stream cut after `cut` bytes gives: the whole response once the
    event that ends the stream arrived, else what the events that wholly
    arrived give, and the cut-off error."""
    arrived = [
        event
        for event in events
        if event.end <= cut or (provider.reads_unended_last_event and event.data_end <= cut)
    ]
    payloads = [json.loads(event.data) for event in arrived if event.data != "[DONE]"]
    last = endpoint(client).last_payload
    ended = any(
        event.data == "[DONE]" if last is None else last(json.loads(event.data))
        for event in arrived
    )
    return decoded(endpoint(client), payloads, cut=not ended)


# --- whole streams, split anywhere ---


@pytest.mark.parametrize(("provider", "name"), WHOLE)
def test_a_stream_split_at_random_places_gives_the_same_response(
    provider: Provider, name: str
) -> None:
    served = Served(provider, name)
    body = served.body
    whole = served.recorded()
    assert whole[1] is None
    assert whole[0] is not None
    assert whole[0].message.parts

    shuffled = random.Random(f"{name} splits")
    for round_ in range(12):
        served.server.serve(body, [shuffled.randrange(1, len(body)) for _ in range(1 + round_ * 3)])
        assert served.streamed() == whole
    served.server.serve(body, list(range(1, len(body))))  # a byte at a time
    assert served.streamed() == whole
    served.assert_sent(13)


SHORT = [
    pytest.param(ANTHROPIC, "anthropic/stream_overloaded.json", id="anthropic error event"),
    pytest.param(OPENAI, "openai/chat_stream_error.json", id="openai error chunk"),
    pytest.param(GROQ, "groq/stream_error.json", id="groq error chunk"),
]


@pytest.mark.parametrize(("provider", "name"), SHORT)
def test_a_short_stream_split_in_two_at_every_byte_gives_the_same_outcome(
    provider: Provider, name: str
) -> None:
    served = Served(provider, name)
    body = served.body
    expected = served.recorded()
    assert expected[0] is not None
    assert expected[0].message.parts

    for cut in range(1, len(body)):
        served.server.serve(body, [cut])
        assert served.streamed() == expected, cut
    served.assert_sent(len(body) - 1)


@pytest.mark.anyio
@pytest.mark.parametrize(("provider", "name"), WHOLE)
async def test_an_async_stream_split_at_random_places_gives_the_same_response(
    provider: Provider, name: str
) -> None:
    served = Served(provider, name)
    body = served.body
    whole = served.recorded()

    shuffled = random.Random(f"{name} async splits")
    for _ in range(4):
        served.server.serve(body, [shuffled.randrange(1, len(body)) for _ in range(20)])
        assert await served.streamed_async() == whole
    served.assert_sent(4)


# --- streams cut off ---


@pytest.mark.parametrize(("provider", "name"), WHOLE)
def test_a_stream_cut_off_anywhere_raises_a_stream_error_with_what_arrived(
    provider: Provider, name: str
) -> None:
    served = Served(provider, name)
    body = served.body
    events = events_of(body)
    assert events[-1].end == len(body)

    for cut in cut_points(events):
        served.server.serve(body[:cut])
        got = served.streamed()
        expected = expected_at(provider, served.client, events, cut)
        assert (cut_off(got) if expected[1] else got) == expected, cut
    # Cut inside its last event, the stream was whole but for that event.
    served.server.serve(body[: events[-1].data_end - 1])
    partial, error = cut_off(served.streamed())
    assert error == (ProviderConnectionError, provider.name)
    assert partial is not None
    assert partial.message.parts


@pytest.mark.anyio
@pytest.mark.parametrize(("provider", "name"), WHOLE)
async def test_an_async_stream_cut_off_raises_a_stream_error_with_what_arrived(
    provider: Provider, name: str
) -> None:
    served = Served(provider, name)
    body = served.body
    events = events_of(body)
    for event in (events[0], events[len(events) // 2], events[-1]):
        cut = event.data_end - 1
        served.server.serve(body[:cut], [cut // 2])
        expected = expected_at(provider, served.client, events, cut)
        assert cut_off(await served.streamed_async()) == expected


def test_an_empty_stream_is_cut_off_with_an_empty_partial() -> None:
    interaction = one("openai/chat_stream_parallel_tool_calls.json")
    server = Server(interaction, httpx2)
    server.serve(b"")
    with pytest.raises(StreamError, match=r"broke off: .*cut off") as caught:
        accumulate(OPENAI.client(server).stream(stream_request(OPENAI, interaction)))
    assert caught.value.partial is not None
    assert caught.value.partial.message.parts == ()
    assert isinstance(caught.value.error, ProviderConnectionError)


def test_events_read_by_hand_end_in_the_cut_off_error() -> None:
    interaction = one("anthropic/stream_thinking_tool_use.json")
    server = Server(interaction, httpx2)
    body = interaction.response.body
    server.serve(body[: body.index(b"event: message_stop")])
    events = ANTHROPIC.client(server).stream(stream_request(ANTHROPIC, interaction))
    read = []
    with pytest.raises(ProviderConnectionError, match="ended before its last event") as caught:
        read.extend(events)
    assert caught.value.provider == "anthropic"
    assert caught.value.retryable
    assert read[-1].type == "finish"  # every event but the end arrived


def _not_json_at(body: bytes, index: int) -> bytes:
    """`body` with the data of its event `index` broken off mid-JSON."""
    event = events_of(body)[index]
    start = event.data_end - len(event.data.encode())
    return body[:start] + event.data.encode()[:2] + body[event.data_end :]


@pytest.mark.parametrize(("provider", "name"), WHOLE)
def test_a_payload_that_is_not_json_is_a_decode_error_at_its_place(
    provider: Provider, name: str
) -> None:
    """The stream counts the payloads it read (`received`), and names the one
    that is not JSON by its place among them."""
    interaction = one(name)
    server = Server(interaction, provider.http)
    server.serve(_not_json_at(interaction.response.body, 1))
    events = provider.client(server).stream(stream_request(provider, interaction))
    read = []
    with pytest.raises(DecodeError) as caught:
        read.extend(events)
    assert (caught.value.provider, caught.value.path) == (provider.name, "events[1]")
    assert "the payload is not JSON" in str(caught.value)
    assert events.received == 1
    decoder = endpoint(provider.client(server)).stream_decoder()
    assert read == decoder.feed(interaction.response.stream_payloads()[0])  # came before


# --- error events inside a stream ---


@pytest.mark.parametrize(("provider", "name", "cls", "message"), FAILING)
def test_an_error_event_raises_the_typed_error_with_the_partial_response(
    provider: Provider, name: str, cls: type[ProviderError], message: str
) -> None:
    served = Served(provider, name)

    with pytest.raises(StreamError, match="the stream ended in an error") as caught:
        accumulate(served.client.stream(served.request))
    error = caught.value.error
    assert type(error) is cls
    assert error.provider == provider.name
    assert error.status is None
    assert error.message.startswith(message)
    assert caught.value.partial is not None
    assert caught.value.partial.text == "Grey breath on the bay" or (
        provider is GROQ and caught.value.partial.text.endswith("the weather in Lisbon.")
    )
    assert outcome(_raiser(caught.value)) == served.recorded()
    served.assert_sent(1)


@pytest.mark.anyio
@pytest.mark.parametrize(("provider", "name", "cls", "message"), FAILING)
async def test_an_error_event_in_an_async_stream_raises_the_same(
    provider: Provider, name: str, cls: type[ProviderError], message: str
) -> None:
    served = Served(provider, name)
    expected = served.recorded()
    body = served.body
    served.server.serve(body, list(range(7, len(body), 97)))
    got = await served.streamed_async()
    assert got == expected
    assert got[1] is not None
    assert got[1][0] is cls


class Dropping(Server):
    """Answers with the first two events of the body, then loses the connection
    (the transport's `ReadError`, as a socket reset mid-stream raises it)."""

    def __call__(self, request: Any) -> Any:
        self.sent.append(json.loads(request.content))
        head = b"\n\n".join(self.pieces[0].split(b"\n\n")[:2]) + b"\n\n"
        error = self.http.ReadError("connection reset by peer")

        def body() -> Iterator[bytes]:
            yield head
            raise error

        return self.http.Response(200, headers=self.headers, content=body())


@pytest.mark.parametrize(("provider", "name"), WHOLE)
def test_a_connection_lost_mid_stream_is_a_retryable_connection_error(
    provider: Provider, name: str
) -> None:
    served = Served(provider, name, Dropping)
    with pytest.raises(StreamError) as caught:
        accumulate(served.client.stream(served.request))
    served.assert_sent(1)
    lost = caught.value.error
    assert isinstance(lost, ProviderConnectionError), type(lost)
    assert lost.retryable
    assert lost.provider == endpoint(served.client).provider
    assert caught.value.partial is not None
