"""Streams: Anthropic's server-sent events -> interlingua `StreamEvent`s.

    event                                   stream events
    message_start                           StreamStart (id, model, provider data), UsageEvent
    content_block_start  text               TextDelta (+ PartDataEvent for its other fields)
                         thinking           ReasoningDelta (+ ReasoningSignature if it has one)
                         tool_use           ToolCallStart
                         any other block    held, then PartEvent at its content_block_stop
    content_block_delta  text_delta         TextDelta
                         input_json_delta   ToolCallDelta
                         thinking_delta     ReasoningDelta
                         signature_delta    ReasoningSignature
                         citations_delta    PartDataEvent (the block's citations so far)
    message_delta                           UsageEvent (cumulative), and with a stop
                                            reason FinishEvent (with the message's
                                            provider data so far)
    error                                   ErrorEvent, typed by `decode_error`:
                                            `accumulate` raises StreamError whose
                                            `partial` keeps what had arrived
    ping, message_stop                      nothing

Invariant: `accumulate(decode_stream(events))` equals `decode_response` of
the message the events describe, tool arguments aside: they stay as the model
streamed them (its whitespace included), where a response body's `input` is
written compactly. Arguments that are not valid JSON are kept as they came,
and the accumulated response's `warnings` flag them.

The usage of `message_delta` is cumulative and may repeat the fields of
`message_start`; each field it gives replaces the one before, but for a null,
which keeps it. The fields of `message_delta` beside `delta` and `usage`
(`context_management`, from the beta API) are the message's, as in a
response body. A server-tool block's `input_json_delta`s are joined and
parsed at its stop (no text at all leaves the input its start gave; text
that is not JSON is kept as a string, which no stream event can yet flag in
the response's `warnings`). A thinking block cut off before its
signature has none. Event and delta types this module does not know are
skipped, as Anthropic's streaming guide asks of clients ("handle unknown
event types gracefully").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from typing_extensions import assert_never

from interlingua import (
    ChatResponse,
    DecodeError,
    ErrorEvent,
    FinishEvent,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    StreamEvent,
    StreamStart,
    TextDelta,
    TextPart,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    UsageEvent,
)
from interlingua.codec import ProviderEntry, WireReader, decode_events
from interlingua_anthropic._errors import decode_error
from interlingua_anthropic._parts import decode_block
from interlingua_anthropic._response import decode_response
from interlingua_anthropic._wire import PROVIDER, WireDict

__all__ = ["AnthropicStreamDecoder", "decode_stream"]

_reader = WireReader(PROVIDER)

# A message_delta's own fields; any other is a field of the message (`context_management`).
_MESSAGE_DELTA = frozenset({"type", "delta", "usage"})

# Blocks whose content is streamed in deltas; every other block is held until its stop.
# Their start may leave out what the deltas fill in.
_STREAMED: dict[str, WireDict] = {
    "text": {"text": ""},
    "thinking": {"thinking": "", "signature": ""},
    "tool_use": {"input": {}},
}


def decode_stream(events: Iterable[Any]) -> Iterator[StreamEvent]:
    """The stream events for Anthropic's events: the parsed `data` payloads in
    order, or the SDK's event objects."""
    return decode_events(AnthropicStreamDecoder(), events)


class AnthropicStreamDecoder:
    """Decodes one stream an event at a time, keeping what later events need."""

    provider = PROVIDER

    def __init__(self) -> None:
        self._message: WireDict = {"content": []}
        self._held: dict[int, _Held] = {}
        self._citations: dict[int, list[Any]] = {}
        self._count = 0

    def feed(self, raw: Any) -> list[StreamEvent]:
        """The stream events for one Anthropic event."""
        path = f"events[{self._count}]"
        self._count += 1
        event = _reader.body(raw, path)
        match _reader.field(event, "type", path, str):
            case "message_start":
                return self._start(_reader.field(event, "message", path, dict), path)
            case "content_block_start":
                return self._block_start(event, path)
            case "content_block_delta":
                return self._block_delta(event, path)
            case "content_block_stop":
                return self._block_stop(_reader.field(event, "index", path, int))
            case "message_delta":
                return self._message_delta(event, path)
            case "error":
                return [*self.finish(), ErrorEvent.from_error(decode_error(None, event))]
            case _:
                return []

    def finish(self) -> list[StreamEvent]:
        """The blocks still held when the stream ends: what arrived of them is kept."""
        return [self._release(index) for index in list(self._held)]

    def _start(self, message: WireDict, path: str) -> list[StreamEvent]:
        self._message = {**message, "content": []}
        response = _decoded({"content": [], **message}, f"{path}.message")
        start = StreamStart(
            id=response.id,
            model=response.model,
            provider=PROVIDER,
            provider_data=response.provider_data,
        )
        parts = [PartEvent(index=k, part=part) for k, part in enumerate(response.message.parts)]
        return [start, *parts, UsageEvent(usage=response.usage)]

    def _message_delta(self, event: WireDict, path: str) -> list[StreamEvent]:
        delta = _reader.field(event, "delta", path, dict)
        usage = _reader.field(event, "usage", path, dict, None) or {}
        beside = {key: value for key, value in event.items() if key not in _MESSAGE_DELTA}
        self._message = {
            **self._message,
            **beside,
            **delta,
            "usage": _counted(self._message.get("usage"), usage),
        }
        response = _decoded(self._message, path)
        events: list[StreamEvent] = [UsageEvent(usage=response.usage)]
        if response.finish_reason is not None:
            # The provider data so far goes with the finish, the message's last word.
            finish = FinishEvent(
                finish_reason=response.finish_reason,
                raw_finish_reason=response.raw_finish_reason,
                provider_data=response.provider_data,
            )
            events.append(finish)
        return events

    def _block_start(self, event: WireDict, path: str) -> list[StreamEvent]:
        index = _reader.field(event, "index", path, int)
        block = _reader.field(event, "content_block", path, dict)
        kind = _reader.field(block, "type", f"{path}.content_block", str)
        if kind not in _STREAMED:
            self._held[index] = _Held(dict(block), f"{path}.content_block")
            return []
        block = {**_STREAMED[kind], **block}
        if isinstance(block.get("citations"), list):
            self._citations[index] = list(block["citations"])
        part = decode_block(block, f"{path}.content_block", role="assistant")
        assert isinstance(part, _StreamedPart)  # the decoders of the _STREAMED kinds
        return _started(index, part, empty_input=block.get("input") == {})

    def _block_delta(self, event: WireDict, path: str) -> list[StreamEvent]:
        index = _reader.field(event, "index", path, int)
        delta = _reader.field(event, "delta", path, dict)
        where = f"{path}.delta"
        kind = _reader.field(delta, "type", where, str)
        if index in self._held:
            self._hold_delta(index, kind, delta, where)
            return []
        match kind:
            case "text_delta":
                return [TextDelta(index=index, text=_reader.field(delta, "text", where, str))]
            case "input_json_delta":
                json_text = _reader.field(delta, "partial_json", where, str)
                return [ToolCallDelta(index=index, arguments=json_text)]
            case "thinking_delta":
                text = _reader.field(delta, "thinking", where, str)
                return [ReasoningDelta(index=index, text=text, provider=PROVIDER)]
            case "signature_delta":
                signature = _reader.field(delta, "signature", where, str)
                return [ReasoningSignature(index=index, signature=signature, provider=PROVIDER)]
            case "citations_delta":
                citations = self._citations.setdefault(index, [])
                citations.append(_reader.field(delta, "citation", where, dict))
                data: ProviderEntry = {"fields": {"citations": list(citations)}}
                return [PartDataEvent(index=index, provider=PROVIDER, data=data)]
            case _:
                return []

    def _hold_delta(self, index: int, kind: str, delta: WireDict, path: str) -> None:
        """Applies a delta to a held block, as the block would read once complete;
        a delta of another kind has nothing to change in such a block."""
        held = self._held[index]
        block = held.block
        match kind:
            case "input_json_delta":
                held.json.append(_reader.field(delta, "partial_json", path, str))
            case "text_delta":
                text = _reader.field(block, "text", held.path, str, None) or ""
                block["text"] = text + _reader.field(delta, "text", path, str)
            case "citations_delta":
                citation = _reader.field(delta, "citation", path, dict)
                cited = _reader.field(block, "citations", held.path, list, None)
                block["citations"] = [*(cited or []), citation]
            case _:
                pass

    def _block_stop(self, index: int) -> list[StreamEvent]:
        return [self._release(index)] if index in self._held else []

    def _release(self, index: int) -> PartEvent:
        held = self._held.pop(index)
        malformed = None
        if text := "".join(held.json):
            try:
                held.block["input"] = json.loads(text)
            except ValueError as exc:
                held.block["input"] = text
                malformed = f"the streamed input is not JSON ({exc}); kept as text"
        part = decode_block(held.block, held.path, role="assistant")
        return PartEvent(index=index, part=part, malformed=malformed)


@dataclass(slots=True)
class _Held:
    """A block kept until its stop: the block so far, the path of its start in
    the stream, and its `input_json_delta` text."""

    block: WireDict
    path: str
    json: list[str] = field(default_factory=list)


_StreamedPart = TextPart | ReasoningPart | ToolCallPart


def _started(index: int, part: _StreamedPart, *, empty_input: bool) -> list[StreamEvent]:
    """The events that begin a streamed part, with the fields its start carried."""
    match part:
        case ToolCallPart():
            arguments = "" if empty_input else part.arguments
            return [
                ToolCallStart(
                    index=index,
                    id=part.id,
                    name=part.name,
                    arguments=arguments,
                    provider_data=part.provider_data,
                )
            ]
        case ReasoningPart():
            events: list[StreamEvent] = [
                ReasoningDelta(index=index, text=part.text, provider=PROVIDER)
            ]
            if part.signature:  # else it comes in a signature_delta, or not at all
                events.append(
                    ReasoningSignature(index=index, signature=part.signature, provider=PROVIDER)
                )
        case TextPart():
            events = [TextDelta(index=index, text=part.text)]
        case _:
            assert_never(part)
    if data := part.provider_data.get(PROVIDER):
        events.append(PartDataEvent(index=index, provider=PROVIDER, data=data))
    return events


def _counted(usage: Any, update: WireDict) -> WireDict:
    """The usage so far with the counts of `update` laid over, but for its nulls."""
    current = usage if isinstance(usage, dict) else {}
    return {**current, **{key: value for key, value in update.items() if value is not None}}


def _decoded(message: WireDict, path: str) -> ChatResponse:
    """The message as far as the stream told it, with errors named in the stream."""
    try:
        return decode_response(message)
    except DecodeError as exc:
        raise _reader.error(f"{path}.{exc.path}", exc.problems[0][1]) from None
