"""Streams out: interlingua `StreamEvent`s (any adapter's) -> Gemini's
`streamGenerateContent` chunks, for a gateway that answers a Gemini client
from any provider.

    stream events                       chunks (each a whole response object)
    TextDelta (RefusalDelta: as text)   a chunk with a text part
    ReasoningDelta (Google's)           a chunk with a thought part
    ReasoningSignature (Google's)       an empty thought part with the signature
    PartDataEvent (Google's fields)     an empty text part with them (a signature)
    ToolCallStart, ToolCallDelta        one functionCall part, whole, once the call
                                        is complete (Gemini sends calls whole)
    PartEvent                           a chunk with the part
    UsageEvent, FinishEvent, the end    the last chunk: finishReason, usageMetadata
    ErrorEvent                          `{"error": {...}}`, which ends the stream

Each chunk carries the response's id, model, the candidate's fields and the
usage known so far, as Gemini's do. Another provider's reasoning is left out
and reported; so is what `encode_response` leaves out of a whole part, and
each field of another provider's answer, once, as it arrives.

Invariant: `accumulate(decode_stream(encode_stream(decode_stream(chunks))))`
equals `accumulate(decode_stream(chunks))`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from interlingua import (
    ChatRequest,
    ChatResponse,
    ErrorEvent,
    FinishEvent,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
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
    encode_events,
    merge_provider_data,
    report_other_response_data,
    resolve_report,
)
from interlingua_google._errors import error_body
from interlingua_google._parts import CallBook, PartPath, encode_part, part_path
from interlingua_google._response import encode_response
from interlingua_google._wire import PROVIDER, WireDict

__all__ = ["GoogleStreamEncoder", "encode_stream", "stream_encoder"]


def encode_stream(
    events: Iterable[StreamEvent],
    *,
    report: TranslationReport | None = None,
    request: ChatRequest | None = None,
) -> Iterator[WireEvent]:
    """Gemini's chunks for a stream's events, lazily: each event's as it comes.
    `request`, the one the stream answers, changes nothing: Gemini's stream gives
    the usage whatever the request (`usageMetadata`)."""
    return encode_events(GoogleStreamEncoder(report), events)


def stream_encoder(
    *, report: TranslationReport | None = None, request: ChatRequest | None = None
) -> GoogleStreamEncoder:
    """An encoder fed one event at a time, for a gateway whose events arrive one by
    one (`encode_stream` is it over an iterable)."""
    return GoogleStreamEncoder(report)


_NO_BOOK = CallBook()


class GoogleStreamEncoder:
    """Encodes one stream an event at a time, keeping what later events need."""

    def __init__(self, report: TranslationReport | None = None) -> None:
        self._report = resolve_report(report, PROVIDER)
        self._start = StreamStart()
        self._data: ProviderData = {}
        self._usage: TokenUsage | None = None
        self._finish: FinishEvent | None = None
        self._call: ToolCallStart | None = None  # the call being streamed: Gemini sends it whole
        self._arguments: list[str] = []  # its arguments so far
        self._call_at: PartPath = ("message.parts", 0)
        self._positions: dict[int, int] = {}  # each part's place in the message, by event index
        self._ended = False
        self._dropped: set[int] = set()
        self._seen: set[str] = set()  # the other providers' answer fields reported

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        if self._ended:
            return []
        if isinstance(event, ToolCallDelta) and self._call is not None:
            self._arguments.append(event.arguments)
            return []
        out = self._flush_call()
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
            case ErrorEvent():
                self._ended = True
                body = error_body(event.to_error(self._start.provider))
                out.append(WireEvent(body))
            case _:
                out += self._part(event)
        return out

    def finish(self) -> list[WireEvent]:
        if self._ended:
            return []
        self._ended = True
        out = self._flush_call()
        response = self._response(self._finish)
        body = encode_response(response, report=self._report)
        return [*out, WireEvent(body)]

    def _merge(self, data: ProviderData) -> None:
        if data:
            report_other_response_data(data, PROVIDER, self._report, self._seen)
            self._data = merge_provider_data(self._data, data)

    def _response(self, finish: FinishEvent | None) -> ChatResponse:
        return ChatResponse(
            id=self._start.id,
            model=self._start.model,
            provider=self._start.provider,
            finish_reason=None if finish is None else finish.finish_reason,
            raw_finish_reason=None if finish is None else finish.raw_finish_reason,
            usage=self._usage or TokenUsage(),
            # Another provider's fields are reported once, as they arrive (`_merge`).
            provider_data={PROVIDER: self._data[PROVIDER]} if PROVIDER in self._data else {},
        )

    def _chunk(self, part: WireDict) -> WireEvent:
        """A chunk holding one part, with what is known of the response so far."""
        body = encode_response(self._response(None), report=TranslationReport())
        candidates = body.get("candidates") or [{}]
        candidate = candidates[0]
        content = candidate.setdefault("content", {})
        content["parts"] = [part]
        content.setdefault("role", "model")
        body["candidates"] = [candidate]
        if self._usage is None:
            body.pop("usageMetadata", None)
        return WireEvent(body)

    def _at(self, index: int) -> PartPath:
        return "message.parts", self._positions.setdefault(index, len(self._positions))

    def _part(self, event: Any) -> list[WireEvent]:
        match event:
            case TextDelta():
                return [self._chunk({"text": event.text})]
            case RefusalDelta():
                self._report.transformed(
                    part_path(self._at(event.index)), "Gemini has no refusal; as text", "content"
                )
                return [self._chunk({"text": event.text})]
            case ReasoningDelta() | ReasoningSignature() if event.provider != PROVIDER:
                if event.index not in self._dropped:
                    self._dropped.add(event.index)
                    made_by = event.provider or "an unknown provider"
                    self._report.dropped(
                        part_path(self._at(event.index)),
                        f"reasoning made by {made_by} goes back to {made_by} only",
                        "setting",
                    )
                return []
            case ReasoningDelta():
                return [self._chunk({"text": event.text, "thought": True})]
            case ReasoningSignature():
                part = {"text": "", "thought": True, "thoughtSignature": event.signature}
                return [self._chunk(part)]
            case PartDataEvent():
                fields = event.data.get("fields") if event.provider == PROVIDER else None
                return [self._chunk({"text": "", **copy_json(fields)})] if fields else []
            case ToolCallStart():
                self._call_at = self._at(event.index)
                self._call, self._arguments = event, [event.arguments]
                return []
            case PartEvent():
                wire = encode_part(event.part, self._at(event.index), self._report, book=_NO_BOOK)
                return [] if wire is None else [self._chunk(wire)]
            case _:
                return []

    def _flush_call(self) -> list[WireEvent]:
        start, self._call = self._call, None
        if start is None:
            return []
        call = ToolCallPart(
            id=start.id,
            name=start.name,
            arguments="".join(self._arguments),
            provider_data=start.provider_data,
        )
        wire = encode_part(call, self._call_at, self._report, book=_NO_BOOK)
        return [] if wire is None else [self._chunk(wire)]
