"""Streams: `streamGenerateContent` chunks -> interlingua `StreamEvent`s.

Every chunk is a whole `GenerateContentResponse` holding the parts that are
new since the last (`?alt=sse`: one server-sent event each; without it, the
items of one JSON array: both are the same payloads here).

    chunk                                stream events
    the first chunk's responseId,        StreamStart
      modelVersion
    a text part                          TextDelta, to the open text part, or a new one
    a thought part                       ReasoningDelta, likewise
    a thoughtSignature                   ReasoningSignature on a thought part, the
                                         field on a text part (PartDataEvent); either
                                         closes the part: the signature comes on the
                                         last chunk of a part
    a functionCall part (always whole)   ToolCallStart with the whole arguments
    any other part                       PartEvent
    usageMetadata (cumulative)           UsageEvent
    finishReason (on the last chunk)     FinishEvent
    the candidate's other fields, the    ResponseDataEvent: the candidate echo, the
      chunk's, the counts left out       fields and forms so far
    {"error": {...}}                     ErrorEvent, typed by `decode_error`

Most chunks are one text (or thought) part and the same `usageMetadata` as
the chunk before: such a part becomes its delta directly (what `decode_part`
would read, without building the part), the usage is read again only when
it changed, and the provider data is built again only when something it
holds changed (a `ResponseDataEvent` says only a change in any case).

Invariant: `accumulate(decode_stream(chunks))` equals `decode_response` of
the response the chunks describe: the last chunk's fields over the
earlier's, the first candidate's fields likewise, and its parts in order,
each text (or thought) part joined with the ones after it until one carries
a signature or a part of another kind begins.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from interlingua import (
    ErrorEvent,
    FinishEvent,
    FinishReason,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    ResponseDataEvent,
    StreamEvent,
    StreamStart,
    TextDelta,
    TextPart,
    TokenUsage,
    ToolCallPart,
    ToolCallStart,
    UsageEvent,
)
from interlingua.codec import ProviderData, WireReader, decode_events, kept
from interlingua_google._errors import decode_error
from interlingua_google._finish import decode_finish_reason
from interlingua_google._parts import CallIds, decode_part
from interlingua_google._usage import COUNTS, USAGE, decode_usage, usage_fields
from interlingua_google._wire import PROVIDER, WireDict

__all__ = ["GoogleStreamDecoder", "decode_stream"]

_SIGNATURE = "thoughtSignature"
_MODELED = frozenset({"candidates", USAGE, "modelVersion", "responseId"})
_CANDIDATE = frozenset({"content", "finishReason"})
_CONTENT = ("role", "parts")  # the content's fields whose absence is a form

_reader = WireReader(PROVIDER)


def decode_stream(chunks: Iterable[Any]) -> Iterator[StreamEvent]:
    """The stream events for Gemini's chunks: the parsed payloads in order."""
    return decode_events(GoogleStreamDecoder(), chunks)


class GoogleStreamDecoder:
    """Decodes one stream a chunk at a time, keeping what later chunks need."""

    provider = PROVIDER

    def __init__(self) -> None:
        self._count = 0
        self._started = False
        self._parts = 0  # the parts begun
        self._open: str | None = None  # the kind of the last part while it goes on
        self._ids = CallIds()
        self._has_calls = False
        self._candidates = False
        self._content: set[str] = set()  # the content's fields seen: role, parts
        self._candidate: WireDict = {}
        self._fields: WireDict = {}
        self._said: ProviderData = {}
        self._changed = False  # since the provider data last said: fields, echo, content
        self._last: WireDict | None = None  # the last chunk's usageMetadata (a copy)
        self._usage = UsageEvent(usage=TokenUsage())  # its reading (a value: said again)

    def feed(self, raw: Any) -> list[StreamEvent]:
        """The stream events for one chunk."""
        path = f"events[{self._count}]"
        self._count += 1
        chunk = _reader.body(raw, path)
        if isinstance(chunk.get("error"), dict):
            return [ErrorEvent.from_error(decode_error(None, chunk))]
        events: list[StreamEvent] = []
        if not self._started:
            self._started = True
            self._ids.seed = _reader.field(chunk, "responseId", path, str, None) or ""
            events.append(
                StreamStart(
                    id=_reader.field(chunk, "responseId", path, str, None),
                    model=_reader.field(chunk, "modelVersion", path, str, None),
                    provider=PROVIDER,
                )
            )
        candidates = _reader.field(chunk, "candidates", path, list, None)
        reason = None
        if candidates:
            self._changed |= not self._candidates
            self._candidates = True
            where = f"{path}.candidates[0]"
            candidate = _reader.object(candidates[0], where)
            events += self._candidate_parts(candidate, where)
            reason = _reader.field(candidate, "finishReason", where, str, None)
            self._changed |= _merged(self._candidate, candidate, _CANDIDATE)
        self._changed |= _merged(self._fields, chunk, _MODELED)
        usage = chunk.get(USAGE)
        usage = usage if isinstance(usage, dict) else None
        if usage is not None:
            events.append(self._read_usage(usage, path))
        if self._changed or usage != self._last:
            events += self._data(usage)
        self._changed, self._last = False, None if usage is None else dict(usage)
        if reason is not None or "promptFeedback" in chunk:
            events += self._finish(reason, chunk, candidates)
        return events

    def _read_usage(self, usage: WireDict, path: str) -> UsageEvent:
        """The usage so far: read again only when it changed (Gemini repeats
        the same counts on every chunk until the last)."""
        if usage != self._last:
            self._usage = UsageEvent(usage=decode_usage(usage, f"{path}.{USAGE}"))
        return self._usage

    def finish(self) -> list[StreamEvent]:
        return []

    def _finish(self, reason: str | None, chunk: WireDict, candidates: Any) -> list[StreamEvent]:
        if reason is not None:
            finish = decode_finish_reason(reason, has_calls=self._has_calls)
            assert finish is not None
            return [FinishEvent(finish_reason=finish, raw_finish_reason=reason)]
        feedback = chunk.get("promptFeedback")
        blocked = feedback.get("blockReason") if isinstance(feedback, dict) else None
        if not candidates and isinstance(blocked, str):
            return [
                FinishEvent(finish_reason=FinishReason.CONTENT_FILTER, raw_finish_reason=blocked)
            ]
        return []

    def _data(self, usage: WireDict | None) -> list[StreamEvent]:
        """The response's provider data so far, when it changed: the fields,
        the candidate echo and the forms, each whole (a later one replaces it)."""
        fields = dict(self._fields)
        if usage is not None and (kept_usage := usage_fields(usage)):
            fields[USAGE] = kept_usage
        absent = [] if self._candidates else ["candidates"]
        if usage is not None:
            absent += [key for key in COUNTS if key not in usage]
        if self._candidates and not self._content:
            absent.append("content")
        elif self._candidates:
            absent += [f"content.{key}" for key in _CONTENT if key not in self._content]
        entry: Any = {"forms": {"absent": absent}}
        if fields:
            entry["fields"] = fields
        if self._candidate:
            entry["echo"] = {"candidate": dict(self._candidate)}
        if entry == self._said.get(PROVIDER):
            return []
        self._said = {PROVIDER: entry}
        return [ResponseDataEvent(provider_data=self._said)]

    def _candidate_parts(self, candidate: WireDict, path: str) -> list[StreamEvent]:
        content = _reader.field(candidate, "content", path, dict, None)
        if content is None:
            return []
        if len(self._content) <= len(_CONTENT):  # "content" and its fields not all seen
            seen = {"content", *(key for key in _CONTENT if key in content)}
            self._changed |= not seen <= self._content
            self._content |= seen
        events: list[StreamEvent] = []
        raw_parts = _reader.field(content, "parts", f"{path}.content", list, None) or []
        for k, raw in enumerate(raw_parts):
            if (kind := _plain(raw)) is not None:  # most chunks' only part: a delta
                events.append(_delta(kind, self._place(kind), raw["text"]))
            else:
                events += self._part(raw, f"{path}.content.parts[{k}]")
        return events

    def _place(self, kind: str) -> int:
        """The index of a part of `kind` that comes next: the open part's when
        it joins it (text after text, a thought after a thought), else a new one's."""
        joined = kind in ("text", "reasoning") and self._open == kind
        index = self._parts - 1 if joined else self._parts
        if not joined:
            self._parts += 1
        self._open = kind
        return index

    def _part(self, raw: Any, path: str) -> list[StreamEvent]:
        where = f"candidates[0].content.parts[{self._parts}]"
        part = decode_part(raw, path, role="model", ids=_Placed(self._ids, where))
        index = self._place(part.type)
        match part:
            case TextPart():
                events: list[StreamEvent] = [TextDelta(index=index, text=part.text)]
                if fields := kept(part, PROVIDER).get("fields"):
                    events.append(
                        PartDataEvent(index=index, provider=PROVIDER, data={"fields": fields})
                    )
                    if _SIGNATURE in fields:
                        self._open = None
                return events
            case ReasoningPart():
                events = [ReasoningDelta(index=index, text=part.text, provider=PROVIDER)]
                if part.signature is not None:
                    events.append(
                        ReasoningSignature(index=index, signature=part.signature, provider=PROVIDER)
                    )
                    self._open = None
                if entry := part.provider_data.get(PROVIDER):
                    events.append(PartDataEvent(index=index, provider=PROVIDER, data=entry))
                return events
            case ToolCallPart():
                self._open, self._has_calls = None, True
                start = ToolCallStart(
                    index=index,
                    id=part.id,
                    name=part.name,
                    arguments=part.arguments,
                    provider_data=part.provider_data,
                )
                return [start]
            case _:
                self._open = None
                return [PartEvent(index=index, part=part)]


def _plain(raw: Any) -> str | None:
    """The kind of a part that is text alone (`"text"`) or a thought's text
    alone (`"reasoning"`), read here as `decode_part` reads it; None for any other."""
    if type(raw) is not dict or type(raw.get("text")) is not str:
        return None
    if len(raw) == 1:
        return "text"
    return "reasoning" if len(raw) == 2 and raw.get("thought") is True else None


def _delta(kind: str, index: int, text: str) -> StreamEvent:
    if kind == "text":
        return TextDelta(index=index, text=text)
    return ReasoningDelta(index=index, text=text, provider=PROVIDER)


def _merged(kept_so_far: WireDict, wire: WireDict, modeled: frozenset[str]) -> bool:
    """`wire`'s fields outside `modeled` laid over those kept so far; whether any changed."""
    changed = False
    for key, value in wire.items():
        if key not in modeled and (key not in kept_so_far or kept_so_far[key] != value):
            kept_so_far[key] = value
            changed = True
    return changed


class _Placed(CallIds):
    """The stream's call ids, each made from the place its part takes in the
    response the stream describes (not its place in the chunk)."""

    def __init__(self, ids: CallIds, where: str) -> None:
        super().__init__(ids.seed, ids.unanswered)
        self._where = where

    def call(self, wire_id: str | None, name: str, path: str) -> str:
        return super().call(wire_id, name, f"{self._where}.functionCall")
