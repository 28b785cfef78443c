"""Streams: ConverseStream's events -> interlingua `StreamEvent`s.

The events are what a boto3 client's `converse_stream(...)["stream"]`
yields, or `read_event_stream` reads from the bytes: one dict per event, its
one member the event's kind.

    event                                   stream events
    messageStart                            StreamStart
    contentBlockDelta  text                 TextDelta
                       toolUse.input        ToolCallDelta
                       reasoningContent     ReasoningDelta (text), ReasoningSignature
                                            (signature); redactedContent held, then
                                            PartEvent (a redacted ReasoningPart)
                       citation             PartDataEvent (the block's citations so far)
    contentBlockStart  toolUse              ToolCallStart (its `type` a field); a
                                            server tool's call held, its input parsed
                       toolResult, image,   held, with their deltas
                       any other
    contentBlockStop                        the held block's PartEvent, if any: the
                                            part `_parts` decodes the block to (a
                                            server tool's call and result OpaqueParts)
    messageStop                             FinishEvent (`additionalModelResponseFields`
                                            a field of the response)
    metadata                                UsageEvent (see `_usage`; `metrics`,
                                            `trace` and the rest fields of the response)
    an exception member                     ErrorEvent, typed by `decode_error`:
      (throttlingException, ...)            `accumulate` raises StreamError whose
                                            `partial` keeps what had arrived

Text and reasoning blocks get no contentBlockStart: their first delta begins
them. Each event's index is the block's `contentBlockIndex`. A redacted
reasoning block's content is bytes as boto3 gives it (a base64 string where
the events are JSON): the part holds it as base64, as a response body writes
it. A cited text's citations come in `citation` deltas beside its text; its
form is `block: "citationsContent"`, as a response writes such a text.
Events of a kind this module does not know are skipped, as boto3 skips
what its model does not have.

Invariant: `accumulate(decode_stream(events))` equals `decode_response` of
the answer the events describe, tool arguments aside: they stay as the model
streamed them, where an answer's `input` is written compactly. A held call's
input that is no JSON is kept as its text, and flagged (`PartEvent.malformed`).
`accumulate(decode_stream(encode_stream(decode_stream(events))))` equals
`accumulate(decode_stream(events))`, and `encode_stream` gives the recorded
events back (`_stream_encoder`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypedDict

from interlingua import (
    ContentPart,
    ErrorEvent,
    FinishEvent,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningSignature,
    ResponseDataEvent,
    StreamEvent,
    StreamStart,
    TextDelta,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    UsageEvent,
)
from interlingua.codec import (
    ProviderEntry,
    WireReader,
    copy_json,
    decode_events,
    keep,
    other_fields,
)
from interlingua_bedrock._errors import STREAM_EXCEPTIONS, decode_error
from interlingua_bedrock._finish import finish_reason
from interlingua_bedrock._parts import decode_blocks
from interlingua_bedrock._usage import decode_usage, usage_fields, usage_forms
from interlingua_bedrock._wire import PROVIDER, WireDict

__all__ = [
    "CITED_TEXT",
    "HELD_START_KEYS",
    "BedrockStreamDecoder",
    "ContentBlockDeltaEvent",
    "ContentBlockStartEvent",
    "ContentBlockStopEvent",
    "MessageStartEvent",
    "MessageStopEvent",
    "MetadataEvent",
    "decode_stream",
    "redacted_bytes",
]


class MessageStartEvent(TypedDict):
    role: str


class ContentBlockStartEvent(TypedDict):
    contentBlockIndex: int
    # One member: `toolUse` {toolUseId, name[, type]}, `toolResult` {toolUseId,
    # type, status}, `image` {format}.
    start: WireDict


class ContentBlockDeltaEvent(TypedDict):
    contentBlockIndex: int
    # One member: `text`, `toolUse` {input}, `reasoningContent` {text | signature
    # | redactedContent}, `citation`, `toolResult` [{text | json}], `image`.
    delta: WireDict


class ContentBlockStopEvent(TypedDict):
    contentBlockIndex: int


class MessageStopEvent(TypedDict, total=False):
    stopReason: str
    additionalModelResponseFields: Any


class MetadataEvent(TypedDict, total=False):
    usage: WireDict
    metrics: WireDict
    trace: WireDict
    performanceConfig: WireDict
    serviceTier: WireDict


# The fields of a held block that its contentBlockStart gives; its deltas give the rest.
HELD_START_KEYS: dict[str, frozenset[str]] = {
    "toolResult": frozenset({"toolUseId", "type", "status"}),
    "image": frozenset({"format"}),
}
# The form of a text with citations: a response's `citationsContent` block.
CITED_TEXT: ProviderEntry = {"forms": {"block": "citationsContent"}}

_reader = WireReader(PROVIDER)


def decode_stream(events: Iterable[Any]) -> Iterator[StreamEvent]:
    """The stream events for ConverseStream's events, as boto3 yields them."""
    return decode_events(BedrockStreamDecoder(), events)


@dataclass(slots=True)
class _Held:
    """A block kept until its stop: its kind, what it holds so far, where it
    began in the stream, and the pieces of its input or redacted content."""

    kind: str
    block: WireDict
    path: str
    pieces: list[Any] = field(default_factory=list)


class BedrockStreamDecoder:
    """Decodes one stream an event at a time, keeping what later events need."""

    provider = PROVIDER

    def __init__(self) -> None:
        self._held: dict[int, _Held] = {}
        self._citations: dict[int, list[Any]] = {}
        self._count = 0

    def feed(self, raw: Any) -> list[StreamEvent]:
        """The stream events for one ConverseStream event."""
        path = f"events[{self._count}]"
        self._count += 1
        event = _reader.body(raw, path)
        if len(event) != 1:
            raise _reader.error(path, f"expected one event member, got {len(event)}")
        ((kind, payload),) = event.items()
        if kind in STREAM_EXCEPTIONS:
            return [*self.finish(), ErrorEvent.from_error(decode_error(None, event))]
        where = f"{path}.{kind}"
        match kind:
            case "messageStart":
                _reader.object(payload, where)
                return [StreamStart(provider=PROVIDER)]
            case "contentBlockStart":
                return self._block_start(_reader.object(payload, where), where)
            case "contentBlockDelta":
                return self._block_delta(_reader.object(payload, where), where)
            case "contentBlockStop":
                index = _reader.field(
                    _reader.object(payload, where), "contentBlockIndex", where, int
                )
                return self._release(index)
            case "messageStop":
                return [_finish(_reader.object(payload, where), where)]
            case "metadata":
                return _metadata(_reader.object(payload, where), where)
            case _:
                return []

    def finish(self) -> list[StreamEvent]:
        """The blocks still held when the stream ends: what arrived of them is kept."""
        return [event for index in list(self._held) for event in self._release(index)]

    def _block_start(self, event: WireDict, path: str) -> list[StreamEvent]:
        index = _reader.field(event, "contentBlockIndex", path, int)
        kind, start = _member(_reader.field(event, "start", path, dict), f"{path}.start")
        where = f"{path}.start.{kind}"
        block = copy_json(_reader.object(start, where))
        call = _decoded(kind, {**block, "input": {}}, where) if kind == "toolUse" else None
        if not isinstance(call, ToolCallPart):  # not a call the client runs: held whole
            self._held[index] = _Held(kind, block, where)
            return []
        start_event = ToolCallStart(
            index=index, id=call.id, name=call.name, provider_data=call.provider_data
        )
        return [start_event]

    def _block_delta(self, event: WireDict, path: str) -> list[StreamEvent]:
        index = _reader.field(event, "contentBlockIndex", path, int)
        kind, delta = _member(_reader.field(event, "delta", path, dict), f"{path}.delta")
        where = f"{path}.delta.{kind}"
        if (held := self._held.get(index)) is not None:
            _hold(held, kind, delta, where)
            return []
        # Quirk: a text or reasoning block has no contentBlockStart: its first delta
        # begins it (every recorded ConverseStream).
        match kind:
            case "text":
                return [TextDelta(index=index, text=_text(delta, where))]
            case "toolUse":
                tool_input = _reader.field(_reader.object(delta, where), "input", where, str)
                return [ToolCallDelta(index=index, arguments=tool_input)]
            case "reasoningContent":
                return self._reasoning(index, _reader.object(delta, where), where)
            case "citation":
                citations = self._citations.setdefault(index, [])
                citations.append(_reader.object(delta, where))
                data: ProviderEntry = {**CITED_TEXT, "fields": {"citations": list(citations)}}
                return [PartDataEvent(index=index, provider=PROVIDER, data=data)]
            case _:  # a block that had no start (toolResult, image): held whole
                self._held[index] = held = _Held(kind, {}, where)
                _hold(held, kind, delta, where)
                return []

    def _reasoning(self, index: int, delta: WireDict, path: str) -> list[StreamEvent]:
        if "redactedContent" in delta:
            held = self._held[index] = _Held("reasoningContent", {}, path)
            _hold(held, "reasoningContent", delta, path)
            return []
        if (signature := _reader.field(delta, "signature", path, str, None)) is not None:
            return [ReasoningSignature(index=index, signature=signature, provider=PROVIDER)]
        text = _reader.field(delta, "text", path, str, None) or ""
        return [ReasoningDelta(index=index, text=text, provider=PROVIDER)]

    def _release(self, index: int) -> list[StreamEvent]:
        held = self._held.pop(index, None)
        if held is None:
            return []
        malformed = None
        if held.kind == "reasoningContent":
            held.block["redactedContent"] = b"".join(held.pieces)
        elif held.kind == "toolUse" and (text := "".join(held.pieces)):
            try:
                held.block["input"] = json.loads(text)
            except ValueError as exc:
                held.block["input"] = text
                malformed = f"the streamed input is not JSON ({exc}); kept as text"
        part = _decoded(held.kind, held.block, held.path)
        return [PartEvent(index=index, part=part, malformed=malformed)]


def _decoded(kind: str, member: Any, path: str) -> ContentPart:
    """The part of an answer's block, as `_parts` decodes it."""
    (part,) = decode_blocks([{kind: member}], path, role="assistant")
    return part


def _hold(held: _Held, kind: str, delta: Any, path: str) -> None:
    """Applies a delta to a held block, as the block would read once complete:
    a call's input and a redacted reasoning's content are joined at the stop,
    a tool result's content items added to its `content`, an object's fields
    laid over the block's."""
    if kind == "reasoningContent" and held.kind == kind:
        content = _reader.object(delta, path).get("redactedContent")
        if content is not None:
            held.pieces.append(redacted_bytes(content, f"{path}.redactedContent"))
    elif kind == "toolUse" and held.kind == kind:
        held.pieces.append(_reader.field(_reader.object(delta, path), "input", path, str))
    elif isinstance(delta, list):
        held.block.setdefault("content", []).extend(copy_json(delta))
    elif isinstance(delta, dict):
        held.block.update(copy_json(delta))
    else:
        raise _reader.error(path, "expected an object or an array")


def redacted_bytes(value: Any, path: str) -> bytes:
    """A `redactedContent` blob: bytes from boto3, a base64 string in JSON."""
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except ValueError:
            raise _reader.error(path, "expected base64 text") from None
    raise _reader.error(path, "expected bytes or base64 text")


def _member(union: WireDict, path: str) -> tuple[str, Any]:
    """The one member of a union object, and its value."""
    if len(union) != 1:
        raise _reader.error(path, f"expected one member, got {len(union)}")
    ((kind, value),) = union.items()
    return kind, value


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _reader.error(path, "expected a string")
    return value


def _finish(event: WireDict, path: str) -> FinishEvent:
    raw = _reader.field(event, "stopReason", path, str)
    reason = finish_reason(raw)
    assert reason is not None  # a stop reason was given
    fields = other_fields(event, ("stopReason",))
    return FinishEvent(
        finish_reason=reason, raw_finish_reason=raw, provider_data=keep(PROVIDER, fields=fields)
    )


def _metadata(event: WireDict, path: str) -> list[StreamEvent]:
    """The usage, and the response's fields the metadata carries beside it."""
    fields = other_fields(event, ("usage",))
    usage = _reader.field(event, "usage", path, dict, None)
    if usage is None:
        return [ResponseDataEvent(provider_data=keep(PROVIDER, fields=fields))] if fields else []
    if unmodeled := usage_fields(usage):
        fields["usage"] = unmodeled
    data = keep(PROVIDER, fields=fields, forms={"usage": usage_forms(usage)})
    return [UsageEvent(usage=decode_usage(usage, f"{path}.usage"), provider_data=data)]
