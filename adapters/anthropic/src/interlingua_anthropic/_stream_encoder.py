"""Streams out: interlingua `StreamEvent`s (any adapter's) -> Anthropic's
server-sent events, as Anthropic streams the same answer, for a gateway that
answers an Anthropic client from any provider.

    stream events                         events (each with its `event:` name)
    StreamStart, and the usage and        message_start: the message with its id, model,
      data before the first part          empty content, stop fields and usage so far
    TextDelta (RefusalDelta: as text)     content_block_start text, text_delta
    ReasoningDelta (Anthropic's)          content_block_start thinking, thinking_delta
    ReasoningSignature (Anthropic's)      signature_delta
    ToolCallStart, ToolCallDelta          content_block_start tool_use, input_json_delta
    PartEvent                             content_block_start with the whole block,
                                          content_block_stop
    PartDataEvent (Anthropic's)           its fields in the block's start; its
                                          citations as citations_delta
    FinishEvent                           content_block_stop of the open block
    UsageEvent, FinishEvent, the end      message_delta (stop reason, stop_sequence,
                                          the message's changed fields, usage), message_stop
    ErrorEvent                            error, which ends the stream

Each part is one content block, numbered from 0 in the order parts begin,
and closed when the next begins: Anthropic streams one block at a time. The
start of a text or thinking block waits for the event after its first (the
fields its start carried, which come next). The message_delta waits for the
end of the stream, as some APIs send their usage after their finish reason
(Chat Completions); a stream that ends without a finish reason ends without
message_stop, so it reads as cut off.

Losses are reported with the path of the part in the accumulated response
(`message.parts[k]`): another provider's reasoning is left out, a refusal goes
as text, a part that continues after another began goes on in a block of its
own, and a whole part Anthropic cannot take is left out as `encode_response`
leaves it out; each field of another provider's answer is reported once, as
it arrives (`provider_data.<provider>.fields.<name>`).

Invariant: for the events of an Anthropic stream, `encode_stream` gives the
stream back, but for its pings and for the input of a server tool, whose JSON
goes in one delta (the decoder keeps such blocks whole); so
`accumulate(decode_stream(encode_stream(events)))` equals `accumulate(events)`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from typing_extensions import assert_never

from interlingua import (
    AlternativeEvent,
    ChatRequest,
    ChatResponse,
    ErrorEvent,
    FinishEvent,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    RefusalDelta,
    ResponseDataEvent,
    StreamEvent,
    StreamStart,
    TextDelta,
    TokenUsage,
    ToolCallDelta,
    ToolCallStart,
    TranslationReport,
    UsageEvent,
    WireEvent,
)
from interlingua.codec import (
    ProviderData,
    copy_json,
    dump_arguments,
    encode_events,
    fitted_tool_call_id,
    merge_provider_data,
    report_other_data,
    report_other_response_data,
    resolve_report,
)
from interlingua_anthropic._errors import error_event
from interlingua_anthropic._parts import encode_part, said_caller
from interlingua_anthropic._response import ID_PREFIX, encode_response, message_delta
from interlingua_anthropic._rules import REFUSAL_AS_TEXT, TOOL_ID_CHARACTERS, reasoning_left_out
from interlingua_anthropic._wire import PROVIDER, WireDict

__all__ = ["AnthropicStreamEncoder", "encode_stream", "stream_encoder"]

# The events that build a part a piece at a time, and the part each builds.
Delta = (
    TextDelta | RefusalDelta | ReasoningDelta | ReasoningSignature | ToolCallStart | ToolCallDelta
)
_KINDS: dict[str, str] = {
    "text_delta": "text",
    "refusal_delta": "refusal",
    "reasoning_delta": "reasoning",
    "reasoning_signature": "reasoning",
    "tool_call_start": "tool_call",
    "tool_call_delta": "tool_call",
}
# The start of a block whose content its deltas bring.
_EMPTY_TEXT: WireDict = {"type": "text", "text": ""}
_EMPTY_THINKING: WireDict = {"type": "thinking", "thinking": "", "signature": ""}


def encode_stream(
    events: Iterable[StreamEvent],
    *,
    report: TranslationReport | None = None,
    request: ChatRequest | None = None,
) -> Iterator[WireEvent]:
    """Anthropic's events for a stream's events, lazily: each event's as it comes.
    `request`, the one the stream answers, changes nothing: Anthropic's stream
    gives the usage whatever the request (`message_start`, `message_delta`)."""
    return encode_events(AnthropicStreamEncoder(report), events)


def stream_encoder(
    *, report: TranslationReport | None = None, request: ChatRequest | None = None
) -> AnthropicStreamEncoder:
    """An encoder fed one event at a time, for a gateway whose events arrive one by
    one (`encode_stream` is it over an iterable)."""
    return AnthropicStreamEncoder(report)


@dataclass(slots=True)
class _Block:
    """A part of the stream: its path in the response, the index of the content
    block it goes in (None while it goes in none), and the citations sent."""

    path: str
    index: int | None = None
    cited: int = 0


class AnthropicStreamEncoder:
    """Encodes one stream an event at a time, keeping what later events need."""

    def __init__(self, report: TranslationReport | None = None) -> None:
        self._report = resolve_report(report, PROVIDER)
        self._start = StreamStart()
        # A stream made with no id (Bedrock's Converse) gets one of this API's form.
        self._id = f"{ID_PREFIX}{secrets.token_hex(25)}"
        self._data: ProviderData = {}
        self._usage = TokenUsage()
        self._finish: FinishEvent | None = None
        self._message: WireDict | None = None  # as message_start gave it
        self._ended = False
        self._parts: dict[tuple[int, str], _Block] = {}
        self._latest: dict[int, _Block] = {}  # by the events' index: what PartDataEvent means
        self._seen: set[str] = set()  # the other providers' fields reported
        self._count = 0  # the parts begun, each a part of the response
        self._blocks = 0  # the content blocks begun
        self._open: _Block | None = None
        self._held: list[WireEvent] = []  # the start of the open block, and what follows it
        self._held_start: WireDict | None = None

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        """Anthropic's events for one stream event."""
        if self._ended:
            return []
        out = [] if self._fills_held(event) else self._release()
        match event:
            case StreamStart():
                self._start = event.over(self._start)
                self._merge(event.provider_data)
            case ResponseDataEvent():
                self._merge(event.provider_data)
            case UsageEvent():
                self._usage = event.usage
                self._merge(event.provider_data)
            case FinishEvent():
                self._finish = event
                self._merge(event.provider_data)
                out += self._close()
            case AlternativeEvent():
                reason = "Anthropic answers with one message; the others are left out"
                self._report.dropped(f"alternatives[{event.index}]", reason, "content")
            case ErrorEvent():
                self._ended = True
                error = error_event(event.to_error(self._start.provider))
                out += [*self._begin(), WireEvent(error, "error")]
            case PartDataEvent():
                out += self._part_data(event)
            case PartEvent():
                out += [*self._begin(), *self._whole(event)]
            case _:
                out += [*self._begin(), *self._delta(event)]
        return out

    def finish(self) -> list[WireEvent]:
        """The events that end the stream: the open block's stop, message_delta,
        and message_stop when the stream said why it stopped."""
        if self._ended:
            return []
        self._ended = True
        out = [*self._begin(), *self._close()]
        out.append(_event(message_delta(self._encoded(self._finish), self._message or {})))
        if self._finish is not None:
            out.append(_event({"type": "message_stop"}))
        return out

    # --- the message ---

    def _merge(self, data: ProviderData) -> None:
        if data:
            report_other_response_data(data, PROVIDER, self._report, self._seen)
            self._data = merge_provider_data(self._data, data)

    def _encoded(self, finish: FinishEvent | None) -> WireDict:
        """The message as far as the stream went, as a response body without content."""
        response = ChatResponse(
            id=self._id if self._start.id is None else self._start.id,
            model=self._start.model,
            provider=self._start.provider,
            finish_reason=None if finish is None else finish.finish_reason,
            raw_finish_reason=None if finish is None else finish.raw_finish_reason,
            usage=self._usage,
            # Another provider's fields are reported once, as they arrive (`_merge`).
            provider_data={PROVIDER: self._data[PROVIDER]} if PROVIDER in self._data else {},
        )
        return encode_response(response, report=self._report)

    def _begin(self) -> list[WireEvent]:
        """message_start, before the first part."""
        if self._message is not None:
            return []
        self._message = self._encoded(None)
        return [_event({"type": "message_start", "message": self._message})]

    # --- blocks ---

    def _new_part(self, index: int) -> _Block:
        block = self._latest[index] = _Block(f"message.parts[{self._count}]")
        self._count += 1
        return block

    def _open_block(self, block: _Block, content: WireDict, *, held: bool) -> list[WireEvent]:
        """content_block_start for `block`, after the stop of the block before;
        `held` keeps it back until the next event that is not the part's data."""
        out = self._close()
        block.index, self._open = self._blocks, block
        self._blocks += 1
        start = _event(
            {"type": "content_block_start", "index": block.index, "content_block": content}
        )
        if not held:
            return [*out, start]
        self._held, self._held_start = [start], content
        return out

    def _close(self) -> list[WireEvent]:
        """The open block's stop, after what is held of it."""
        out = self._release()
        if self._open is not None and self._open.index is not None:
            out.append(_event({"type": "content_block_stop", "index": self._open.index}))
        self._open = None
        return out

    def _release(self) -> list[WireEvent]:
        out, self._held, self._held_start = self._held, [], None
        return out

    def _fills_held(self, event: StreamEvent) -> bool:
        """Whether `event` is data of the part whose block start is held."""
        return (
            isinstance(event, PartDataEvent)
            and self._held_start is not None
            and self._latest.get(event.index) is self._open
        )

    def _send(self, block: _Block, deltas: list[WireDict]) -> list[WireEvent]:
        """content_block_delta events of the open block (held while its start is)."""
        assert block.index is not None
        wire = [
            _event({"type": "content_block_delta", "index": block.index, "delta": delta})
            for delta in deltas
        ]
        if self._held:
            self._held += wire
            return []
        return wire

    # --- parts ---

    def _delta(self, event: Delta) -> list[WireEvent]:
        key = (event.index, _KINDS[event.type])
        block = self._parts.get(key)
        first = block is None
        if block is None:
            block = self._parts[key] = self._new_part(event.index)
            out = self._first(block, event)
        elif block.index is not None and block is not self._open:
            out = self._resumed(block, event)
        else:
            out = []
        if block.index is None or block is not self._open:
            return out
        return [*out, *self._send(block, _deltas(event, first=first))]

    def _first(self, block: _Block, event: Delta) -> list[WireEvent]:
        """The start of a part's block, or the report of why it has none."""
        match event:
            case TextDelta():
                return self._open_block(block, dict(_EMPTY_TEXT), held=True)
            case RefusalDelta():
                self._report.transformed(block.path, REFUSAL_AS_TEXT, "content")
                return self._open_block(block, dict(_EMPTY_TEXT), held=True)
            case ReasoningDelta() | ReasoningSignature() if event.provider == PROVIDER:
                return self._open_block(block, dict(_EMPTY_THINKING), held=True)
            case ReasoningDelta() | ReasoningSignature():
                foreign = ReasoningPart(text="", provider=event.provider)
                reason = reasoning_left_out(foreign) or "reasoning another provider made"
                self._report.dropped(block.path, reason, "setting")
                return []
            case ToolCallStart():
                return self._open_block(block, self._tool_use(block, event), held=False)
            case ToolCallDelta():
                reason = "tool-call arguments of a call that never began"
                self._report.dropped(block.path, reason, "content")
                return []
            case _:
                assert_never(event)

    def _resumed(self, block: _Block, event: Delta) -> list[WireEvent]:
        """A part that goes on after another began: text and thinking go on in a
        block of their own; the rest of a tool call or a signature cannot."""
        if isinstance(event, TextDelta | RefusalDelta | ReasoningDelta):
            self._report.transformed(
                block.path,
                "it went on after another part began; Anthropic streams one block at a "
                "time, so the rest goes as a block of its own",
                "content",
            )
            content = _EMPTY_THINKING if isinstance(event, ReasoningDelta) else _EMPTY_TEXT
            return self._open_block(block, dict(content), held=False)
        self._report.dropped(
            block.path,
            f"a {event.type} after the part's block closed; Anthropic streams one block at a time",
            "content",
        )
        return []

    def _tool_use(self, block: _Block, event: ToolCallStart) -> WireDict:
        tool_use_id = fitted_tool_call_id(
            event.id, f"{block.path}.id", self._report, allowed=TOOL_ID_CHARACTERS
        )
        report_other_data(event.provider_data, block.path, PROVIDER, self._report, self._seen)
        entry = event.provider_data.get(PROVIDER, {})
        content: WireDict = {"type": "tool_use", "id": tool_use_id, "name": event.name, "input": {}}
        if (caller := said_caller(entry)) is not None:
            content["caller"] = caller
        return {**content, **copy_json(entry.get("fields", {}))}

    def _whole(self, event: PartEvent) -> list[WireEvent]:
        """A part that came whole, as one block; a tool's input goes as its
        input_json_delta, as Anthropic streams it (as text where it was no JSON)."""
        block = self._new_part(event.index)
        content = encode_part(
            event.part, block.path, self._report, role="assistant", in_request=False
        )
        if content is None:
            return []
        tool_input = content.get("input")
        if isinstance(tool_input, dict) and tool_input:
            tool_input = dump_arguments(tool_input)
        if isinstance(tool_input, str):
            content["input"] = {}
        out = self._open_block(block, content, held=False)
        if isinstance(tool_input, str):
            out += self._send(block, [_json_delta(tool_input)])
        return [*out, *self._close()]

    def _part_data(self, event: PartDataEvent) -> list[WireEvent]:
        """A part's fields into its held start, its citations as citations_delta;
        what comes too late for its block is reported."""
        block = self._latest.get(event.index)
        if block is None or block.index is None:
            return []
        if event.provider != PROVIDER:
            data = {event.provider: event.data}
            report_other_data(data, block.path, PROVIDER, self._report, self._seen)
            return []
        fields = dict(event.data.get("fields", {}))
        citations = fields.pop("citations", None)
        start = self._held_start if block is self._open else None
        if fields and start is not None:
            start.update(copy_json(fields))
        elif fields:
            self._report.dropped(
                block.path, f"fields {sorted(fields)} came after the part's block began", "content"
            )
        if not isinstance(citations, list):
            return []
        if start is not None:
            start.setdefault("citations", [])
        new, block.cited = citations[block.cited :], len(citations)
        if block is not self._open:
            if new:
                self._report.dropped(
                    block.path, "citations that came after the block closed", "content"
                )
            return []
        deltas = [{"type": "citations_delta", "citation": copy_json(item)} for item in new]
        return self._send(block, deltas)


def _deltas(event: Delta, *, first: bool) -> list[WireDict]:
    """The content_block_delta payloads of one event of the open block; the
    empty text of a part's first event is its block's start."""
    match event:
        case TextDelta() | RefusalDelta():
            return [] if first and not event.text else [{"type": "text_delta", "text": event.text}]
        case ReasoningDelta():
            if first and not event.text:
                return []
            return [{"type": "thinking_delta", "thinking": event.text}]
        case ReasoningSignature():
            return [{"type": "signature_delta", "signature": event.signature}]
        case ToolCallStart():
            return [_json_delta(event.arguments)] if event.arguments else []
        case ToolCallDelta():
            return [_json_delta(event.arguments)]
        case _:
            assert_never(event)


def _json_delta(text: str) -> WireDict:
    return {"type": "input_json_delta", "partial_json": text}


def _event(data: WireDict) -> WireEvent:
    """A server-sent event named, as Anthropic names each, after its `type`."""
    return WireEvent(data, data["type"])
