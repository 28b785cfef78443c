"""Streams out: interlingua `StreamEvent`s (any adapter's) -> ConverseStream's
events, as boto3 yields them (`{"messageStart": {"role": "assistant"}}`), for
a gateway that answers a Bedrock client from any provider.

    stream events                         events
    StreamStart, or the first part        messageStart
    TextDelta (RefusalDelta: as text)     contentBlockDelta text
    ReasoningDelta (Bedrock's)            contentBlockDelta reasoningContent.text
    ReasoningSignature (Bedrock's)        contentBlockDelta reasoningContent.signature
    ToolCallStart, ToolCallDelta          contentBlockStart toolUse, contentBlockDelta
                                          toolUse.input
    PartEvent                             its block as `_parts` writes it in an answer,
                                          streamed: a redacted reasoning's
                                          redactedContent, a cited text's text and
                                          citation deltas, a server tool's call or
                                          result as its start and one delta; then
                                          contentBlockStop
    PartDataEvent (Bedrock's)             its citations as citation deltas
    FinishEvent                           contentBlockStop of the open block,
                                          messageStop (stopReason,
                                          additionalModelResponseFields)
    UsageEvent and the response's data    metadata, at the end (usage, metrics, trace...)
    ErrorEvent                            the exception member, which ends the stream

Each part is one content block, numbered from 0 in the order parts begin,
and closed when the next begins, as Bedrock streams them. Text and reasoning
blocks get no contentBlockStart. Each event is a `WireEvent` whose `data` is
the dict boto3 yields and whose `event` is its member's name, the
`:event-type` of its frame. botocore reads AWS event streams but has no
writer of them: framing the events for the wire is left to a serializer that
has one.

Losses are reported with the path of the part in the accumulated response
(`message.parts[k]`), as `encode_response` reports them: another provider's
reasoning is left out, a refusal goes as text, a tool-call id Converse cannot
take is rewritten (`_rules`), a part that continues after another began goes
on in a block of its own, and a block no stream carries (a file) is left out;
each field of another provider's answer is reported once, as it arrives.

Invariant: for the events of a ConverseStream, `encode_stream` gives the
events back; so `accumulate(decode_stream(encode_stream(events)))` equals
`accumulate(events)`. A server tool's input goes in one delta, compact (the
decoder keeps such blocks whole).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from interlingua import (
    AlternativeEvent,
    ChatRequest,
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
    ToolCallPart,
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
    json_or_text,
    kept,
    merge_provider_data,
    overlay,
    report_other_data,
    report_other_response_data,
    resolve_report,
)
from interlingua_bedrock._errors import error_event
from interlingua_bedrock._finish import stop_reason
from interlingua_bedrock._parts import encode_part
from interlingua_bedrock._rules import TOOL_ID_CHARACTERS, TOOL_ID_MAX_LENGTH, reasoning_left_out
from interlingua_bedrock._stream import HELD_START_KEYS
from interlingua_bedrock._usage import encode_usage
from interlingua_bedrock._wire import CACHE_POINT, PROVIDER, WireDict

__all__ = ["BedrockStreamEncoder", "encode_stream", "stream_encoder"]

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
# The response's fields that go in messageStop; every other goes in metadata.
_STOP_FIELDS = ("additionalModelResponseFields",)
_REFUSAL_AS_TEXT = "a refusal is sent as text; Converse has none"
_ONE_AT_A_TIME = "Converse streams one block at a time"
_RESUMED = f"it went on after another part began; {_ONE_AT_A_TIME}, so the rest goes apart"


def encode_stream(
    events: Iterable[StreamEvent],
    *,
    report: TranslationReport | None = None,
    request: ChatRequest | None = None,
) -> Iterator[WireEvent]:
    """ConverseStream's events for a stream's events, lazily. `request`, the one
    the stream answers, changes nothing: the stream's metadata gives the usage
    whatever the request."""
    return encode_events(BedrockStreamEncoder(report), events)


def stream_encoder(
    *, report: TranslationReport | None = None, request: ChatRequest | None = None
) -> BedrockStreamEncoder:
    """An encoder fed one event at a time, for a gateway whose events arrive one by
    one (`encode_stream` is it over an iterable)."""
    return BedrockStreamEncoder(report)


@dataclass(slots=True)
class _Block:
    """A part of the stream: its path in the response, the content block it goes
    in (None while it goes in none), and the citations sent."""

    path: str
    index: int | None = None
    cited: int = 0


class BedrockStreamEncoder:
    """Encodes one stream an event at a time, keeping what later events need."""

    def __init__(self, report: TranslationReport | None = None) -> None:
        self._report = resolve_report(report, PROVIDER)
        self._start = StreamStart()
        self._data: ProviderData = {}
        self._usage: TokenUsage | None = None
        self._begun = False
        self._ended = False
        self._parts: dict[tuple[int, str], _Block] = {}
        self._latest: dict[int, _Block] = {}  # by the events' index: what PartDataEvent means
        self._seen: set[str] = set()  # the other providers' fields reported
        self._count = 0  # the parts begun
        self._blocks = 0  # the content blocks begun
        self._open: _Block | None = None

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        """ConverseStream's events for one stream event."""
        if self._ended:
            return []
        match event:
            case StreamStart():
                self._start = event.over(self._start)
                self._merge(event.provider_data)
                return self._begin()
            case ResponseDataEvent():
                self._merge(event.provider_data)
            case UsageEvent():
                self._usage = event.usage
                self._merge(event.provider_data)
            case FinishEvent():
                self._merge(event.provider_data)
                return [*self._begin(), *self._close(), self._message_stop(event)]
            case AlternativeEvent():
                reason = "Converse answers with one message; the others are left out"
                self._report.dropped(f"alternatives[{event.index}]", reason, "content")
            case ErrorEvent():
                self._ended = True
                error = error_event(event.to_error(self._start.provider))
                return [*self._begin(), _event(error)]
            case PartDataEvent():
                return self._part_data(event)
            case PartEvent():
                return [*self._begin(), *self._whole(event)]
            case _:
                return [*self._begin(), *self._delta(event)]
        return []

    def finish(self) -> list[WireEvent]:
        """The events that end the stream: the open block's stop, and the
        metadata (the usage, the response's fields) where there is any."""
        if self._ended:
            return []
        self._ended = True
        out = [*self._begin(), *self._close()]
        if metadata := self._metadata():
            out.append(_event({"metadata": metadata}))
        return out

    # --- the message ---

    @property
    def _own(self) -> bool:
        return self._start.provider == PROVIDER

    def _merge(self, data: ProviderData) -> None:
        if data:
            report_other_response_data(data, PROVIDER, self._report, self._seen)
            self._data = merge_provider_data(self._data, data)

    def _begin(self) -> list[WireEvent]:
        """messageStart, before anything else."""
        if self._begun:
            return []
        self._begun = True
        return [_event({"messageStart": {"role": "assistant"}})]

    def _message_stop(self, event: FinishEvent) -> WireEvent:
        raw = stop_reason(
            event.finish_reason,
            event.raw_finish_reason,
            provider=self._start.provider,
            report=self._report,
        )
        fields = self._data.get(PROVIDER, {}).get("fields", {})
        stop = {key: copy_json(fields[key]) for key in _STOP_FIELDS if key in fields}
        return _event({"messageStop": {"stopReason": raw, **stop}})

    def _metadata(self) -> WireDict:
        """The usage and the response's fields that go in metadata."""
        entry = self._data.get(PROVIDER, {})
        fields = {
            key: value for key, value in entry.get("fields", {}).items() if key not in _STOP_FIELDS
        }
        usage_kept = fields.pop("usage", {})
        metadata: WireDict = {}
        if self._usage is not None:
            counts = entry.get("forms", {}).get("usage") if self._own else None
            usage = encode_usage(self._usage, own=self._own, report=self._report, counts=counts)
            metadata["usage"] = overlay(usage, usage_kept)
        return {**metadata, **copy_json(fields)}

    # --- blocks ---

    def _new_part(self, index: int) -> _Block:
        block = self._latest[index] = _Block(f"message.parts[{self._count}]")
        self._count += 1
        return block

    def _open_block(self, block: _Block) -> list[WireEvent]:
        """Begins `block`'s content block, after the stop of the one before."""
        out = self._close()
        block.index, self._open = self._blocks, block
        self._blocks += 1
        return out

    def _close(self) -> list[WireEvent]:
        """The open block's stop."""
        block, self._open = self._open, None
        if block is None or block.index is None:
            return []
        return [_event({"contentBlockStop": {"contentBlockIndex": block.index}})]

    # --- parts ---

    def _delta(self, event: Delta) -> list[WireEvent]:
        key = (event.index, _KINDS[event.type])
        block = self._parts.get(key)
        out: list[WireEvent] = []
        if block is None:
            block = self._parts[key] = self._new_part(event.index)
            out = self._first(block, event)
        elif block.index is not None and block is not self._open:
            out = self._resumed(block, event)
        if block.index is None or block is not self._open:
            return out
        return [*out, *self._deltas(block, event)]

    def _first(self, block: _Block, event: Delta) -> list[WireEvent]:
        """The start of a part's block, or the report of why it has none."""
        match event:
            case RefusalDelta():
                self._report.transformed(block.path, _REFUSAL_AS_TEXT, "content")
            case ReasoningDelta() | ReasoningSignature():
                made = ReasoningPart(text="", provider=event.provider)
                if (reason := reasoning_left_out(made)) is not None:
                    self._report.dropped(block.path, reason, "setting")
                    return []
            case ToolCallDelta():
                reason = "tool-call arguments of a call that never began"
                self._report.dropped(block.path, reason, "content")
                return []
            case ToolCallStart():
                tool = self._tool_use(block, event)
                return [
                    *self._open_block(block),
                    _block_event("contentBlockStart", block, "start", tool),
                ]
        return self._open_block(block)

    def _tool_use(self, block: _Block, event: ToolCallStart) -> WireDict:
        report_other_data(event.provider_data, block.path, PROVIDER, self._report, self._seen)
        tool_use_id = fitted_tool_call_id(
            event.id,
            f"{block.path}.id",
            self._report,
            allowed=TOOL_ID_CHARACTERS,
            max_length=TOOL_ID_MAX_LENGTH,
        )
        fields = copy_json(kept(event, PROVIDER).get("fields", {}))
        return {"toolUse": {"toolUseId": tool_use_id, "name": event.name, **fields}}

    def _resumed(self, block: _Block, event: Delta) -> list[WireEvent]:
        """A part that goes on after another began: text and reasoning go on in a
        block of their own; the rest of a tool call or a signature cannot."""
        if isinstance(event, TextDelta | RefusalDelta | ReasoningDelta):
            self._report.transformed(block.path, _RESUMED, "content")
            return self._open_block(block)
        reason = f"a {event.type} after the part's block closed; {_ONE_AT_A_TIME}"
        self._report.dropped(block.path, reason, "content")
        return []

    def _deltas(self, block: _Block, event: Delta) -> list[WireEvent]:
        """The contentBlockDelta of one event of the open block."""
        match event:
            case TextDelta() | RefusalDelta():
                delta: WireDict = {"text": event.text}
            case ReasoningDelta():
                delta = {"reasoningContent": {"text": event.text}}
            case ReasoningSignature():
                delta = {"reasoningContent": {"signature": event.signature}}
            case ToolCallStart():
                if not event.arguments:
                    return []
                delta = {"toolUse": {"input": event.arguments}}
            case ToolCallDelta():
                delta = {"toolUse": {"input": event.arguments}}
        return [_block_event("contentBlockDelta", block, "delta", delta)]

    def _whole(self, event: PartEvent) -> list[WireEvent]:
        """A part that came whole: its block as `_parts` writes it in an answer,
        streamed as its start, deltas and stop."""
        block = self._new_part(event.index)
        part, out = event.part, []
        # A call's input goes as the text it came as, unless that is no JSON object.
        arguments = part.arguments if isinstance(part, ToolCallPart) else None
        if arguments is not None and not isinstance(json_or_text(arguments), dict):
            arguments = None
        for wire in encode_part(part, block.path, self._report, in_request=False):
            if CACHE_POINT in wire:
                reason = "a cache point after the part; a stream has no place for one"
                self._report.dropped(f"{block.path}.cachePoint", reason, "hint")
                continue
            if (pieces := _streamed(wire, arguments)) is None:
                reason = f"a {next(iter(wire))} block, which no stream carries"
                self._report.dropped(block.path, reason, "content")
                continue
            start, deltas = pieces
            out += self._open_block(block)
            if start is not None:
                out.append(_block_event("contentBlockStart", block, "start", start))
            out += [_block_event("contentBlockDelta", block, "delta", delta) for delta in deltas]
            out += self._close()
        return out

    def _part_data(self, event: PartDataEvent) -> list[WireEvent]:
        """A part's citations as citation deltas; its other fields, and what
        comes after its block closed, are reported."""
        block = self._latest.get(event.index)
        if block is None or block.index is None:
            return []
        if event.provider != PROVIDER:
            data = {event.provider: event.data}
            report_other_data(data, block.path, PROVIDER, self._report, self._seen)
            return []
        fields = dict(event.data.get("fields", {}))
        citations = fields.pop("citations", None)
        if fields:
            self._report.dropped(
                block.path, f"fields {sorted(fields)} a streamed block cannot carry", "content"
            )
        if not isinstance(citations, list):
            return []
        new, block.cited = citations[block.cited :], len(citations)
        if block is not self._open:
            if new:
                self._report.dropped(
                    block.path, "citations that came after the block closed", "content"
                )
            return []
        return [
            _block_event("contentBlockDelta", block, "delta", {"citation": copy_json(item)})
            for item in new
        ]


def _streamed(
    wire: WireDict, arguments: str | None
) -> tuple[WireDict | None, list[WireDict]] | None:
    """The start (None for text and reasoning) and the deltas that stream an
    answer's block, a call's input as `arguments` where given; None for a block
    no stream carries."""
    ((member, value),) = wire.items()
    match member:
        case "text":
            return None, [{"text": value}]
        case "citationsContent":
            citations = [{"citation": item} for item in value.get("citations", [])]
            return None, [{"text": value["content"][0]["text"]}, *citations]
        case "reasoningContent" if "redactedContent" in value:
            redacted = base64.b64decode(value["redactedContent"])
            return None, [{"reasoningContent": {"redactedContent": redacted}}]
        case "reasoningContent":
            reasoning = value["reasoningText"]
            deltas = [{"reasoningContent": {"text": reasoning["text"]}}]
            if "signature" in reasoning:
                deltas.append({"reasoningContent": {"signature": reasoning["signature"]}})
            return None, deltas
        case "toolUse":
            tool_input = value.get("input", {})
            if arguments is None:
                arguments = (
                    tool_input if isinstance(tool_input, str) else dump_arguments(tool_input)
                )
            start = {key: item for key, item in value.items() if key != "input"}
            return {"toolUse": start}, [{"toolUse": {"input": arguments}}]
        case _ if member in HELD_START_KEYS:
            starts = HELD_START_KEYS[member]
            start = {key: item for key, item in value.items() if key in starts}
            rest = {key: item for key, item in value.items() if key not in starts}
            delta = rest.get("content", []) if member == "toolResult" else rest
            return {member: start}, [{member: delta}]
    return None


def _block_event(kind: str, block: _Block, key: str, value: WireDict) -> WireEvent:
    assert block.index is not None
    return _event({kind: {key: value, "contentBlockIndex": block.index}})


def _event(data: WireDict) -> WireEvent:
    """An event named, as its frame's `:event-type`, after its one member."""
    return WireEvent(data, next(iter(data)))
