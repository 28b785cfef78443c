"""The Anthropic stream encoder: any API's stream events -> Anthropic's
server-sent events, as a gateway answers an Anthropic client.

- Every recorded Anthropic stream, decoded and encoded again, is the recording
  (its pings aside, and a server tool's input in one JSON delta), with the
  same event names, and accumulates to the same response; its SSE bytes read
  back to the same events.
- A stream of another API goes out in Anthropic's event order, readable by the
  anthropic SDK, and holds the same text, tool calls and usage.
- An error mid-stream is Anthropic's `error` event, the stream's last; a typed
  error is the status and body Anthropic answers with.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest
from anthropic.types import ErrorResponse, RawMessageStreamEvent
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from conftest import (
    FIXTURES,
    MissingCorpus,
    answer_fields,
    corpus_id,
    corpus_params,
    from_corpus,
)
from interlingua import (
    AuthenticationError,
    BadRequestError,
    ChatResponse,
    ErrorEvent,
    FilePart,
    FinishEvent,
    FinishReason,
    GatewayAdapter,
    NotFoundError,
    OverloadedError,
    PartDataEvent,
    PartEvent,
    PermissionDeniedError,
    ProviderConnectionError,
    ProviderError,
    RateLimitError,
    ReasoningDelta,
    RefusalDelta,
    RefusalPart,
    ServerError,
    StreamError,
    StreamEvent,
    StreamStart,
    TextDelta,
    TextPart,
    TokenUsage,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    TranslationReport,
    UsageEvent,
    WireEvent,
    accumulate,
    format_sse,
    get_adapter,
    translate_stream,
)
from interlingua.codec import fit_tool_call_id
from interlingua.testing import Cassette, Interaction, load_cassette, parse_sse
from interlingua_anthropic import (
    AnthropicStreamEncoder,
    decode_error,
    decode_stream,
    encode_error,
    encode_stream,
)
from interlingua_anthropic._rules import TOOL_ID_CHARACTERS

# The anthropic SDK's models of what a stream holds, to check each event against.
STREAM_EVENTS: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)
ERROR_EVENT: TypeAdapter[Any] = TypeAdapter(ErrorResponse)
THINKING_STREAM = FIXTURES / "anthropic" / "stream_thinking_tool_use.json"


@functools.cache
def cassette(path: Path) -> Cassette:
    return load_cassette(path)


def calls(path: Path, provider: str, endpoint: str) -> list[Interaction]:
    return [
        call
        for call in cassette(path).for_provider(provider)
        if call.path == endpoint and call.response.status < 400
    ]


def streams(
    path: Path, provider: str = "anthropic", endpoint: str = "/v1/messages"
) -> list[Interaction]:
    return [call for call in calls(path, provider, endpoint) if call.is_stream]


def streams_of(param: Path | MissingCorpus) -> list[Interaction]:
    found = streams(from_corpus(param))
    assert found, "a file with no stream to check"
    return found


ANTHROPIC_STREAMS = [
    *corpus_params("anthropic", keep=lambda path: bool(streams(path)), holding="streams"),
    *(path for path in sorted((FIXTURES / "anthropic").glob("*.json")) if streams(path)),
]


def file_id(param: object) -> str | None:
    return corpus_id(param) or (param.name if isinstance(param, Path) else None)


def recorded_events(call: Interaction) -> list[tuple[str | None, Any]]:
    assert call.response.events is not None
    return [(event.event, event.json()) for event in call.response.events]


def as_json(wire: Iterable[WireEvent]) -> list[tuple[str | None, Any]]:
    """Each event's name and its data as JSON text reads it."""
    return [(event.event, json.loads(json.dumps(event.data))) for event in wire]


# The blocks whose content the decoder streams; it holds every other block whole.
STREAMED = {"text", "thinking", "tool_use"}


def as_anthropic_sends(events: list[tuple[str | None, Any]]) -> list[tuple[str | None, Any]]:
    """The events without pings, the input JSON of each block that is no text,
    thinking or tool_use (a server tool's, which the decoder keeps whole) joined
    into one delta and parsed."""
    held: set[int] = set()
    json_text: dict[int, str] = {}
    kept: list[tuple[str | None, Any]] = []
    for name, data in events:
        index = data.get("index")
        match data["type"]:
            case "ping":
                continue
            case "content_block_start" if data["content_block"]["type"] not in STREAMED:
                held.add(index)
            case "content_block_delta" if index in held:
                json_text[index] = json_text.get(index, "") + data["delta"]["partial_json"]
                continue
            case "content_block_stop" if json_text.get(index):
                joined = {"type": "input_json_delta", "partial_json": json.loads(json_text[index])}
                delta = {"type": "content_block_delta", "index": index, "delta": joined}
                kept.append(("content_block_delta", delta))
        kept.append((name, data))
    return kept


@dataclass(frozen=True)
class Broken:
    """What a stream that ended in an error left, and what its error said."""

    partial: ChatResponse | None
    error_class: type[Exception]
    error_type: str | None
    message: str


def outcome(events: Iterable[StreamEvent]) -> ChatResponse | Broken:
    """The response a stream accumulates to, or how it broke."""
    try:
        return accumulate(events)
    except StreamError as exc:
        error = exc.error
        if error is None:
            raise
        return Broken(exc.partial, type(error), error.type, error.message)


def encoded(payloads: list[Any]) -> list[WireEvent]:
    """Anthropic's events decoded and encoded again, with nothing lost."""
    return list(encode_stream(decode_stream(payloads), report=TranslationReport(strict=True)))


# --- Anthropic's own streams, out again ---


@pytest.mark.parametrize("path", ANTHROPIC_STREAMS, ids=file_id)
def test_every_recorded_stream_accumulates_to_the_same_response(path: Path | MissingCorpus) -> None:
    for call in streams_of(path):
        payloads = call.response.stream_payloads()

        again = [data for _, data in as_json(encoded(payloads))]

        assert outcome(decode_stream(again)) == outcome(decode_stream(payloads))


@pytest.mark.parametrize("path", ANTHROPIC_STREAMS, ids=file_id)
def test_every_recorded_stream_is_written_as_anthropic_sent_it(path: Path | MissingCorpus) -> None:
    for call in streams_of(path):
        wire = encoded(call.response.stream_payloads())

        assert as_anthropic_sends(as_json(wire)) == as_anthropic_sends(recorded_events(call))


@pytest.mark.parametrize("path", ANTHROPIC_STREAMS, ids=file_id)
def test_the_sse_bytes_read_back_to_the_same_events(path: Path | MissingCorpus) -> None:
    for call in streams_of(path):
        wire = encoded(call.response.stream_payloads())

        text = b"".join(format_sse(wire)).decode()

        assert [(event.event, event.json()) for event in parse_sse(text)] == as_json(wire)


def test_encoding_is_lazy() -> None:
    pulled: list[StreamEvent] = []

    def events() -> Iterator[StreamEvent]:
        for event in decode_stream(
            cassette(THINKING_STREAM).interactions[0].response.stream_payloads()
        ):
            pulled.append(event)
            yield event

    wire = encode_stream(events())
    assert pulled == []

    first = next(wire)

    assert first == WireEvent(first.data, "message_start")
    assert 0 < len(pulled) < 5
    assert [event.event for event in wire][-1] == "message_stop"


def test_the_adapter_serves_gateways() -> None:
    assert isinstance(get_adapter("anthropic"), GatewayAdapter)


# --- other APIs' streams, out as Anthropic's ---

# adapter -> corpus folder, cassette provider, endpoint
OTHER_APIS = {
    "openai": ("openai-chat", "openai", "/v1/chat/completions"),
    "openai-responses": ("openai-responses", "openai", "/v1/responses"),
    "groq": ("groq", "groq", "/openai/v1/chat/completions"),
    "mistral": ("mistral", "mistral", "/v1/chat/completions"),
}
OTHER_STREAMS = [
    pytest.param(name, path, id=f"{name}:{file_id(path)}")
    for name, (folder, provider, endpoint) in OTHER_APIS.items()
    for path in corpus_params(
        folder,
        keep=lambda path, p=provider, e=endpoint: bool(streams(path, p, e)),
        holding="streams",
    )
]


def check_anthropic_order(wire: list[WireEvent]) -> None:
    """Named after their type, each a valid event of the SDK's: message_start,
    then each block's start, deltas and stop, one block at a time, numbered from 0,
    then message_delta and message_stop."""
    for event in wire:
        data: Any = event.data
        assert event.event == data["type"]
        STREAM_EVENTS.validate_python(data)
    names = [event.event for event in wire]
    assert names[0] == "message_start"
    assert names[-2:] == ["message_delta", "message_stop"]
    open_block, begun = None, 0
    for event in wire[1:-2]:
        data = event.data
        match event.event:
            case "content_block_start":
                assert open_block is None
                assert data["index"] == begun
                open_block, begun = begun, begun + 1
            case "content_block_delta":
                assert data["index"] == open_block
            case "content_block_stop":
                assert data["index"] == open_block
                open_block = None
            case other:
                pytest.fail(f"{other} inside the message")
    assert open_block is None


def visible(response: ChatResponse) -> str:
    parts = response.message.parts
    return "".join(part.text for part in parts if isinstance(part, TextPart | RefusalPart))


def calls_made(response: ChatResponse, *, fitted: bool = False) -> list[tuple[str, str, Any]]:
    """Each tool call's id (as Anthropic's alphabet makes it, when `fitted`),
    name and arguments."""
    return [
        (
            fit_tool_call_id(call.id, allowed=TOOL_ID_CHARACTERS) if fitted else call.id,
            call.name,
            call.parsed_arguments(),
        )
        for call in response.message.tool_calls
    ]


def counts(response: ChatResponse) -> tuple[int, ...]:
    usage = response.usage
    return (
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
        usage.reasoning_tokens,
    )


def sse_client(wire: list[WireEvent]) -> anthropic.Anthropic:
    """The anthropic SDK, answered with `wire` as SSE bytes."""
    body = b"".join(format_sse(wire))

    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    http = httpx2.Client(transport=httpx2.MockTransport(answer))
    return anthropic.Anthropic(api_key="test-key", max_retries=0, http_client=http)


def read_by_sdk(wire: list[WireEvent]) -> anthropic.types.Message:
    """The message the anthropic SDK's stream helper makes of `wire`."""
    with sse_client(wire).messages.stream(
        model="claude-haiku-4-5", max_tokens=100, messages=[{"role": "user", "content": "Hi"}]
    ) as stream:
        return stream.get_final_message()


@pytest.mark.parametrize(("name", "path"), OTHER_STREAMS)
def test_another_apis_stream_goes_out_as_anthropics(name: str, path: Path | MissingCorpus) -> None:
    _, provider, endpoint = OTHER_APIS[name]
    decode_other = get_adapter(name).decode_stream
    found = streams(from_corpus(path), provider, endpoint)
    assert found
    for call in found:
        payloads = call.response.stream_payloads()
        report = TranslationReport()

        wire = list(encode_stream(decode_other(payloads), report=report))

        expected = outcome(decode_other(payloads))
        got = outcome(decode_stream(data for _, data in as_json(wire)))
        if isinstance(expected, Broken):
            assert isinstance(got, Broken)
            assert wire[-1].event == "error"
            assert (got.error_class, got.message) == (expected.error_class, expected.message)
            continue
        assert isinstance(got, ChatResponse)
        check_anthropic_order(wire)
        assert visible(got) == visible(expected)
        assert calls_made(got) == calls_made(expected, fitted=True)
        assert counts(got) == counts(expected)
        assert got.finish_reason in (expected.finish_reason, FinishReason.STOP)
        message = read_by_sdk(wire)
        assert "".join(getattr(block, "text", "") for block in message.content) == visible(got)
        answer = {loss.path for loss in report.losses if loss.path.startswith("provider_data.")}
        assert answer == answer_fields(expected)  # the other API's own fields, by name
        for loss in report.losses:
            assert loss.path.startswith(
                ("message.parts[", "usage", "finish_reason", "provider_data.")
            ), loss


def test_translate_stream_answers_in_anthropics_format() -> None:
    recording = FIXTURES / "openai" / "chat_stream_parallel_tool_calls.json"
    payloads = streams(recording, "openai", "/v1/chat/completions")[0].response.stream_payloads()

    wire = list(translate_stream(payloads, source="openai", target="anthropic"))

    events = get_adapter("openai").decode_stream(payloads)
    assert wire == list(encode_stream(events, report=TranslationReport()))
    check_anthropic_order(wire)
    assert [event.event for event in wire].count("content_block_start") == 2


def test_a_chat_completions_error_mid_stream_is_translated_to_anthropics_error_event() -> None:
    recording = FIXTURES / "openai" / "chat_stream_error.json"
    payloads = streams(recording, "openai", "/v1/chat/completions")[0].response.stream_payloads()

    wire = list(translate_stream(payloads, source="openai", target="anthropic"))

    assert wire[-1].event == "error"
    ERROR_EVENT.validate_python(wire[-1].data)
    expected = outcome(get_adapter("openai").decode_stream(payloads))
    got = outcome(decode_stream(data for _, data in as_json(wire)))
    assert isinstance(expected, Broken)
    assert isinstance(got, Broken)
    assert (got.error_class, got.message) == (expected.error_class, expected.message)
    assert got.partial is not None
    assert expected.partial is not None
    assert visible(got.partial) == visible(expected.partial)


def test_the_anthropic_sdk_reads_a_chat_completions_stream_written_as_anthropics() -> None:
    events = [
        StreamStart(id="chatcmpl-1", model="gpt-4o", provider="openai"),
        TextDelta(index=-2, text="Checking "),
        TextDelta(index=-2, text="the weather."),
        ToolCallStart(index=0, id="call_1", name="get_weather"),
        ToolCallDelta(index=0, arguments='{"city": '),
        ToolCallDelta(index=0, arguments='"Oslo"}'),
        FinishEvent(finish_reason=FinishReason.TOOL_CALLS, raw_finish_reason="tool_calls"),
        UsageEvent(usage=TokenUsage(input_tokens=20, output_tokens=9)),
    ]
    wire = list(encode_stream(events, report=TranslationReport(strict=True)))

    message = read_by_sdk(wire)

    assert (message.id, message.model, message.stop_reason) == ("chatcmpl-1", "gpt-4o", "tool_use")
    text, call = message.content
    assert (text.type, getattr(text, "text", None)) == ("text", "Checking the weather.")
    assert (call.type, getattr(call, "name", None)) == ("tool_use", "get_weather")
    assert getattr(call, "input", None) == {"city": "Oslo"}
    assert (message.usage.input_tokens, message.usage.output_tokens) == (20, 9)


# Parts another API streams one after another: text, or a tool call, each in chunks.
CHUNKS = st.lists(st.text(max_size=8), min_size=1, max_size=4)
PARTS = st.lists(
    st.one_of(
        st.tuples(st.just("text"), CHUNKS),
        st.tuples(
            st.just("tool_call"), st.from_regex(r"[a-zA-Z0-9_-]{1,12}", fullmatch=True), CHUNKS
        ),
    ),
    max_size=5,
)


def streamed(parts: list[Any]) -> list[StreamEvent]:
    """A Chat Completions-like stream of `parts`, its usage after its finish reason."""
    events: list[StreamEvent] = [StreamStart(id="chatcmpl-1", model="gpt", provider="openai")]
    for index, (kind, *rest) in enumerate(parts):
        if kind == "text":
            events += [TextDelta(index=index, text=chunk) for chunk in rest[0]]
        else:
            call_id, chunks = rest
            events.append(ToolCallStart(index=index, id=call_id, name="f", arguments=chunks[0]))
            events += [ToolCallDelta(index=index, arguments=chunk) for chunk in chunks[1:]]
    usage = TokenUsage(input_tokens=7, output_tokens=3, cache_read_tokens=2)
    return [*events, FinishEvent(finish_reason=FinishReason.STOP), UsageEvent(usage=usage)]


@settings(max_examples=80, deadline=None)
@given(parts=PARTS)
def test_any_sequence_of_streamed_parts_comes_back_whole(parts: list[Any]) -> None:
    events = streamed(parts)

    wire = list(encode_stream(events, report=TranslationReport(strict=True)))

    check_anthropic_order(wire)
    got, expected = accumulate(decode_stream(data for _, data in as_json(wire))), accumulate(events)
    assert got.message == expected.message
    assert counts(got) == counts(expected)


# --- what Anthropic cannot take ---


def losses_of(events: list[StreamEvent]) -> tuple[list[Any], list[tuple[str, str]]]:
    report = TranslationReport()
    wire = list(encode_stream(events, report=report))
    return [data for _, data in as_json(wire)], [(loss.path, loss.kind) for loss in report.losses]


START = StreamStart(id="resp_1", model="m", provider="groq")
FINISH = FinishEvent(finish_reason=FinishReason.STOP, raw_finish_reason="stop")


def test_another_providers_reasoning_is_left_out_and_reported() -> None:
    payloads, losses = losses_of(
        [START, ReasoningDelta(text="Hmm.", provider="groq"), TextDelta(text="Hi."), FINISH]
    )

    assert [
        p.get("content_block", {}).get("type")
        for p in payloads
        if p["type"] == "content_block_start"
    ] == ["text"]
    assert losses == [("message.parts[0]", "dropped")]
    assert visible(accumulate(decode_stream(payloads))) == "Hi."


def test_a_refusal_goes_as_text_and_is_reported() -> None:
    payloads, losses = losses_of([START, RefusalDelta(text="I can't help."), FINISH])

    assert visible(accumulate(decode_stream(payloads))) == "I can't help."
    assert losses == [("message.parts[0]", "transformed")]


def test_a_part_that_goes_on_after_another_began_goes_on_in_a_block_of_its_own() -> None:
    payloads, losses = losses_of(
        [
            START,
            TextDelta(text="Let me "),
            ToolCallStart(id="call_1", name="f", arguments="{}"),
            TextDelta(text="check."),
            FINISH,
        ]
    )

    response = accumulate(decode_stream(payloads))
    assert [type(part) for part in response.message.parts] == [TextPart, ToolCallPart, TextPart]
    assert visible(response) == "Let me check."
    assert losses == [("message.parts[0]", "transformed")]


def test_a_whole_part_anthropic_cannot_take_is_left_out_and_reported() -> None:
    image = FilePart(media_type="image/png", data="iVBORw0KGgo=")
    payloads, losses = losses_of(
        [START, PartEvent(part=image), TextDelta(index=1, text="A square."), FINISH]
    )

    assert visible(accumulate(decode_stream(payloads))) == "A square."
    assert losses == [("message.parts[0]", "dropped")]


def test_citations_go_as_citations_deltas_after_the_blocks_start() -> None:
    citation = {"type": "char_location", "cited_text": "Fog.", "document_index": 0}
    events: list[StreamEvent] = [
        StreamStart(id="msg_1", model="claude", provider="anthropic"),
        TextDelta(text=""),
        PartDataEvent(provider="anthropic", data={"fields": {"citations": []}}),
        TextDelta(text="Fog"),
        PartDataEvent(provider="anthropic", data={"fields": {"citations": [citation]}}),
        FINISH,
    ]

    payloads, losses = losses_of(events)

    assert payloads[1]["content_block"] == {"type": "text", "text": "", "citations": []}
    assert payloads[3]["delta"] == {"type": "citations_delta", "citation": citation}
    assert accumulate(decode_stream(payloads)).message == accumulate(events).message
    assert losses == []


def test_a_stream_without_a_finish_reason_ends_without_message_stop() -> None:
    payloads, _ = losses_of([START, TextDelta(text="Fo")])

    assert [payload["type"] for payload in payloads][-2:] == ["content_block_stop", "message_delta"]
    assert accumulate(decode_stream(payloads)).finish_reason is None


# --- errors ---

# Errors of each class, from Anthropic and others, and the Anthropic type each goes as.
MID_STREAM_ERRORS = [
    (
        OverloadedError("Overloaded", provider="anthropic", type="overloaded_error"),
        "overloaded_error",
    ),
    (
        RateLimitError("Too many tokens", provider="openai", type="rate_limit_exceeded"),
        "rate_limit_error",
    ),
    (
        BadRequestError("Bad schema", provider="groq", status=400, type="invalid_request_error"),
        "invalid_request_error",
    ),
    (AuthenticationError("Key revoked", provider="mistral", status=401), "authentication_error"),
    (PermissionDeniedError("Not allowed", provider="openai", status=403), "permission_error"),
    (NotFoundError("No such model", provider="openai", status=404), "not_found_error"),
    (ServerError("Upstream broke", provider="mistral", status=502), "api_error"),
]


@pytest.mark.parametrize(
    ("error", "kind"), MID_STREAM_ERRORS, ids=lambda value: type(value).__name__
)
def test_an_error_mid_stream_is_anthropics_error_event_and_ends_the_stream(
    error: ProviderError, kind: str
) -> None:
    events: list[StreamEvent] = [
        StreamStart(id="msg_1", model="m", provider=error.provider),
        TextDelta(text="Once upon"),
        ErrorEvent.from_error(error),
        TextDelta(text=" a time"),
        FINISH,
    ]

    wire = list(encode_stream(events, report=TranslationReport(strict=True)))

    assert wire[-1] == WireEvent(
        {"type": "error", "error": {"type": kind, "message": error.message}}, "error"
    )
    ERROR_EVENT.validate_python(wire[-1].data)
    with pytest.raises(StreamError) as raised:
        accumulate(decode_stream(data for _, data in as_json(wire)))
    decoded, partial = raised.value.error, raised.value.partial
    assert type(decoded) is type(error)
    assert decoded is not None
    assert (decoded.type, decoded.message) == (kind, error.message)
    assert partial is not None
    assert visible(partial) == "Once upon"


def error_answers(path: Path) -> list[Interaction]:
    return [
        call for call in cassette(path).for_provider("anthropic") if call.response.status >= 400
    ]


ERROR_FILES = [
    *corpus_params("anthropic", keep=lambda path: bool(error_answers(path)), holding="errors"),
    FIXTURES / "anthropic" / "error_invalid_request.json",
]


@pytest.mark.parametrize("path", ERROR_FILES, ids=file_id)
def test_every_recorded_error_is_encoded_back_as_anthropic_sent_it(
    path: Path | MissingCorpus,
) -> None:
    for call in error_answers(from_corpus(path)):
        error = decode_error(call.response.status, call.response.json)

        answer = encode_error(error)

        assert answer == (call.response.status, call.response.json)
        again = decode_error(*answer)
        assert type(again) is type(error)
        assert vars(again) == vars(error)


@pytest.mark.parametrize(
    ("error", "status", "kind"),
    [
        (
            RateLimitError(
                "Slow down", provider="openai", status=429, type="tokens", request_id="req_9"
            ),
            429,
            "rate_limit_error",
        ),
        (OverloadedError("Busy", provider="groq", status=498), 498, "overloaded_error"),
        (OverloadedError("Busy", provider="groq"), 529, "overloaded_error"),
        (BadRequestError("Bad", provider="mistral", status=422), 422, "invalid_request_error"),
        (ServerError("Broke", provider="openai", status=503), 503, "api_error"),
        (ProviderConnectionError("Timed out", provider="openai"), 500, "api_error"),
        (ProviderError("Pay up", provider="openai", status=402), 402, "billing_error"),
        (ProviderError("Busy", provider="openai", status=409), 409, "invalid_request_error"),
        (ProviderError("Odd", provider="openai"), 500, "api_error"),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, Exception) else str(value),
)
def test_another_providers_error_gets_anthropics_type(
    error: ProviderError, status: int, kind: str
) -> None:
    answer = encode_error(error)

    assert answer == (
        status,
        {
            "type": "error",
            "error": {"type": kind, "message": error.message},
            "request_id": error.request_id,
        },
    )
    assert decode_error(*answer).message == error.message


def test_an_anthropic_error_type_inside_a_stream_picks_its_class() -> None:
    error = decode_error(
        None, {"type": "error", "error": {"type": "invalid_request_error", "message": "no"}}
    )

    assert type(error) is BadRequestError
    assert error.status is None


def test_the_encoder_is_fed_one_event_at_a_time() -> None:
    encoder = AnthropicStreamEncoder(TranslationReport(strict=True))

    begun = encoder.feed(StreamStart(id="msg_1", model="m", provider="anthropic"))
    first = encoder.feed(TextDelta(text="Hi"))
    more = encoder.feed(TextDelta(text="!"))
    end = encoder.feed(FINISH) + encoder.finish()

    assert begun == []
    assert [event.event for event in first] == ["message_start"]
    assert [event.event for event in more] == [
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
    ]
    assert [event.event for event in end] == ["content_block_stop", "message_delta", "message_stop"]
    assert encoder.finish() == []
