"""Streams: Anthropic's server-sent events -> interlingua `StreamEvent`s.

    event                                   stream events
    message_start                           StreamStart (id, model, provider data), UsageEvent
    content_block_start  text               TextDelta (+ PartDataEvent for its other fields)
                         thinking           ReasoningDelta, ReasoningSignature
                         tool_use           ToolCallStart
                         any other block    held, then PartEvent at its content_block_stop
    content_block_delta  text_delta         TextDelta
                         input_json_delta   ToolCallDelta
                         thinking_delta     ReasoningDelta
                         signature_delta    ReasoningSignature
                         citations_delta    PartDataEvent (the block's citations so far)
    message_delta                           UsageEvent (cumulative), FinishEvent
    error                                   ErrorEvent: `accumulate` raises StreamError
                                            whose `partial` keeps what had arrived
    ping, message_stop                      nothing

Invariant: `accumulate(decode_stream(events))` equals `decode_response` of
the message the events describe, tool arguments aside: they stay as the model
streamed them (its whitespace included), where a response body's `input` is
written compactly. Arguments that are not valid JSON are kept as they came,
and the accumulated response's `warnings` flag them.

The usage of `message_delta` is cumulative and may repeat the fields of
`message_start`; each field it gives replaces the one before. A server-tool
block's `input_json_delta`s are joined and parsed at its stop (text that is
not JSON is kept as a string). Event and delta types this module does not know
are skipped, as Anthropic's streaming guide asks of clients ("handle unknown
event types gracefully").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from interlingua import (
    ChatResponse,
    ContentPart,
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
from interlingua.codec import WireReader, as_wire_dict
from interlingua_anthropic._blocks import decode_block
from interlingua_anthropic._response import decode_response
from interlingua_anthropic._wire import PROVIDER, WireDict

__all__ = ["StreamDecoder", "decode_stream"]

_reader = WireReader(PROVIDER)

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
    decoder = StreamDecoder()
    for event in events:
        yield from decoder.feed(event)
    yield from decoder.finish()


class StreamDecoder:
    """Decodes one stream an event at a time, keeping what later events need."""

    def __init__(self) -> None:
        self._message: WireDict = {"content": []}
        self._held: dict[int, WireDict] = {}
        self._json: dict[int, list[str]] = {}
        self._citations: dict[int, list[Any]] = {}
        self._count = 0

    def feed(self, raw: Any) -> list[StreamEvent]:
        """The stream events for one Anthropic event."""
        path = f"events[{self._count}]"
        self._count += 1
        event = _reader.object(as_wire_dict(raw), path)
        match _reader.field(event, "type", path, str):
            case "message_start":
                return self._start(_reader.field(event, "message", path, dict), path)
            case "content_block_start":
                return self._block_start(event, path)
            case "content_block_delta":
                return self._block_delta(event, path)
            case "content_block_stop":
                return self._block_stop(_reader.field(event, "index", path, int), path)
            case "message_delta":
                return self._message_delta(event, path)
            case "error":
                return [*self.finish(), _error(event, path)]
            case _:
                return []

    def finish(self) -> list[StreamEvent]:
        """The blocks still held when the stream ends: what arrived of them is kept."""
        return [self._release(index, "<end>") for index in list(self._held)]

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
        self._message = {
            **self._message,
            **delta,
            "usage": {**self._message.get("usage", {}), **usage},
        }
        response = _decoded(self._message, path)
        data = response.provider_data
        if response.finish_reason is None:
            return [UsageEvent(usage=response.usage), StreamStart(provider_data=data)]
        finish = FinishEvent(
            reason=response.finish_reason, raw_reason=response.raw_finish_reason, provider_data=data
        )
        return [UsageEvent(usage=response.usage), finish]

    def _block_start(self, event: WireDict, path: str) -> list[StreamEvent]:
        index = _reader.field(event, "index", path, int)
        block = _reader.field(event, "content_block", path, dict)
        kind = _reader.field(block, "type", f"{path}.content_block", str)
        if kind not in _STREAMED:
            self._held[index] = dict(block)
            return []
        block = {**_STREAMED[kind], **block}
        if isinstance(block.get("citations"), list):
            self._citations[index] = list(block["citations"])
        part = decode_block(block, f"{path}.content_block", role="assistant")
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
                data = {"citations": list(citations)}
                return [PartDataEvent(index=index, provider=PROVIDER, data=data)]
            case _:
                return []

    def _hold_delta(self, index: int, kind: str, delta: WireDict, path: str) -> None:
        """Applies a delta to a held block, as the block would read once complete."""
        block = self._held[index]
        match kind:
            case "input_json_delta":
                self._json.setdefault(index, []).append(
                    _reader.field(delta, "partial_json", path, str)
                )
            case "text_delta":
                block["text"] = block.get("text", "") + _reader.field(delta, "text", path, str)
            case "citations_delta":
                citation = _reader.field(delta, "citation", path, dict)
                block["citations"] = [*(block.get("citations") or []), citation]

    def _block_stop(self, index: int, path: str) -> list[StreamEvent]:
        return [self._release(index, path)] if index in self._held else []

    def _release(self, index: int, path: str) -> PartEvent:
        block = self._held.pop(index)
        if chunks := self._json.pop(index, None):
            block["input"] = _parsed("".join(chunks))
        part = decode_block(block, f"{path}.content_block", role="assistant")
        return PartEvent(index=index, part=part)


def _started(index: int, part: ContentPart, *, empty_input: bool) -> list[StreamEvent]:
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
                ReasoningDelta(index=index, text=part.text, provider=PROVIDER),
                ReasoningSignature(index=index, signature=part.signature or "", provider=PROVIDER),
            ]
        case TextPart():
            events = [TextDelta(index=index, text=part.text)]
        case _:
            raise AssertionError(f"not a streamed part: {part!r}")
    if data := part.provider_data.get(PROVIDER):
        events.append(PartDataEvent(index=index, provider=PROVIDER, data=data))
    return events


def _decoded(message: WireDict, path: str) -> ChatResponse:
    """The message as far as the stream told it, with errors named in the stream."""
    try:
        return decode_response(message)
    except DecodeError as exc:
        raise _reader.error(f"{path}.{exc.path}", exc.problems[0][1]) from None


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _error(event: WireDict, path: str) -> ErrorEvent:
    error = _reader.field(event, "error", path, dict, None) or {}
    return ErrorEvent(
        message=str(error.get("message") or "the stream reported an error"),
        error_type=error.get("type") if isinstance(error.get("type"), str) else None,
        provider=PROVIDER,
        body=event,
    )
