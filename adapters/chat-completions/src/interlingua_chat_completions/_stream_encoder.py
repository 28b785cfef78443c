"""`StreamEvent`s to Chat Completions chunks: the stream a server of the dialect sends for
the same answer.

`encode_stream` takes the core's events (any adapter's `decode_stream` gives them) and
yields `WireEvent`s lazily; `ChatStreamEncoder` takes them one at a time (`feed`, `finish`),
each as a delta in the chunks `_stream_chunks` frames.

    StreamStart       the role chunk, `delta: {"role": "assistant", "content": ""}`
                      (and `refusal: null` where the dialect has the field)
    TextDelta         `delta.content`
    RefusalDelta      `delta.refusal`; as text where the dialect has no `refusal_field` (reported)
    ReasoningDelta    the dialect's content item (Mistral's thinking chunk) or its
                      `reasoning_piece` (OpenRouter's details), else its `reasoning_field`
                      (Groq's `reasoning`), else left out (reported); a signature only in an
                      item or a piece. The dialect's own reasoning that came in `<think>` tags
                      (`think_tags`; its part says so as it opens, `_think`) goes back in
                      `delta.content`, inside the tags as it came
    ToolCallStart     `delta.tool_calls[0]`: `index` (0, 1, ... in order), `id`, `type`, name,
    ToolCallDelta     then argument pieces under the same `index`; where the dialect streams calls
                      whole (`whole_calls`, `_stream_calls`), each on the finish chunk, no `index`
    PartEvent         the part as `encode_response` writes it (an audio answer, an
                      opaque item); what an answer cannot hold is left out (reported)
    FinishEvent       `finish_reason` on the last choice chunk
    UsageEvent        where the dialect puts it (`usage_chunk`, `stream_usage_fields`), for
                      a request the server sends it for (`streams_usage`): unasked, or asked
                      (`stream_options.include_usage`); with no request, always
    AlternativeEvent  another choice: its role, a chunk a part, its finish, under its `index`
    ErrorEvent        the dialect's error chunk (its `encode_error` body), the last
    PartDataEvent     another provider's fields (a part's, or the response's): left out

Invariants:

- `accumulate(decode_stream(encode_stream(events)))` is `accumulate(events)` for the events
  of the dialect's own stream (written for no request, or one its usage is sent for),
  provider data included: every chunk repeats the response's
  `id`, `model` and `RESPONSE_FIELDS`, the first one carries its other fields, the next one
  those that come later, and the finish chunk the choice's and the message's. A stream from
  another API accumulates to the parts the wire holds (its text in one part, its tool calls
  numbered from 0) and the same usage counts; every chunk's `created` is the upstream's
  time, else the time the stream started. Part data the chunks have no place for (a content
  item's own fields; the `<think>` form of reasoning whose text went in the reasoning field
  already) is not sent.
- Lazy: an event's chunks leave when it arrives; only the finish chunk waits for the last
  event (its usage, calls streamed whole); `[DONE]` ends the stream, or an error chunk does.
- Each loss is reported once, at `message.parts[i]` of the response the events describe
  (another provider's response fields at `provider_data.<provider>.fields.<name>`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from interlingua import (
    AlternativeEvent,
    ChatRequest,
    ContentPart,
    ErrorEvent,
    FinishEvent,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    RefusalDelta,
    RefusalPart,
    ResponseDataEvent,
    StreamEvent,
    StreamStart,
    TextDelta,
    ToolCallDelta,
    ToolCallStart,
    TranslationReport,
    UsageEvent,
    WireEvent,
)
from interlingua.codec import (
    ProviderData,
    copy_json,
    encode_events,
    kept,
    merge_provider_data,
    report_other_data,
    report_other_response_data,
    resolve_report,
)
from interlingua_chat_completions._dialect import ChatCompletionsDialect
from interlingua_chat_completions._response import Answer, ResponseEncoder
from interlingua_chat_completions._stream import TEXT_INDEX
from interlingua_chat_completions._stream_chunks import ChunkWriter
from interlingua_chat_completions._think import think_form

__all__ = ["DONE", "ChatStreamEncoder", "encode_stream"]

DONE = WireEvent(data="[DONE]")  # the sentinel after the last chunk
_ITEM = "content item"  # the route of reasoning written as a content item (no field's name)
_FUNCTION_CALL = "function_call"  # the route of the deprecated `function_call`
_THINK = "think"  # the route of reasoning written inside `<think>` tags in the content


def encode_stream(
    events: Iterable[StreamEvent],
    dialect: ChatCompletionsDialect,
    report: TranslationReport | None = None,
    request: ChatRequest | None = None,
) -> Iterator[WireEvent]:
    """The chunks of `dialect`'s stream for `events`, lazily; losses go to `report`.
    The usage goes where the server sends it for `request` (`streams_usage`)."""
    encoder = ChatStreamEncoder(dialect, resolve_report(report, dialect.provider), request)
    return encode_events(encoder, events)


@dataclass(slots=True)
class _Part:
    """A part of the answer as it streams: its path, and where its text goes (None: nowhere)."""

    path: str
    route: str | None
    provider: str | None = None
    written: bool = False  # reasoning text sent in its route
    data: ProviderData | None = None  # the dialect's own data of a reasoning part, as it came
    tags: tuple[str, str] = ("", "")  # of its `<think>` form, the opening and closing sent


class ChatStreamEncoder(ChunkWriter):
    """Turns events into `dialect`'s chunks one at a time; `finish()` after the last."""

    def __init__(
        self,
        dialect: ChatCompletionsDialect,
        report: TranslationReport,
        request: ChatRequest | None = None,
    ) -> None:
        super().__init__(dialect, report, usage=dialect.streams_usage(request))
        self.answer = ResponseEncoder(dialect, report)
        self.ended = False
        self.parts: dict[tuple[int, str], _Part] = {}
        self.count = 0  # parts seen

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        if self.ended:
            return []
        match event:
            case StreamStart():
                return self.start(event)
            case TextDelta():
                self.part((event.index, "text"), lambda path: "content")  # whatever the dialect
                return self.emit({"content": event.text}) if event.text else []
            case RefusalDelta():
                route = self.part((event.index, "refusal"), self.refusal_route).route
                return self.emit({route or "refusal": event.text}) if event.text else []
            case ReasoningDelta() | ReasoningSignature():
                return self.reasoning(event)
            case ToolCallStart():
                return self.tool_call(event)
            case ToolCallDelta():
                return self.arguments(event)
            case PartEvent():
                return self.whole(event)
            case AlternativeEvent():
                return self.alternative(event)
            case PartDataEvent() if (tags := self.think_tags(event)) is not None:
                return self.think(event.index, tags)
            case PartDataEvent() if event.provider == self.provider and (
                part := self.parts.get((event.index, "reasoning"))
            ):
                part.data = merge_provider_data(part.data or {}, {event.provider: event.data})
                return []
            case ErrorEvent():
                error = self.dialect.encode_error(event.to_error(self.source))[1]
                events = [*self.closing(), WireEvent(data=error)]
                self.ended = True
                return events
            case _:
                self.keep(event)
                return []

    def finish(self) -> list[WireEvent]:
        """The finish chunk and the usage, held to the end, then `[DONE]`."""
        if self.ended:
            return []
        self.ended = True
        return [*self.closing(), DONE]

    def keep(self, event: PartDataEvent | ResponseDataEvent | UsageEvent | FinishEvent) -> None:
        """What the last chunks say: the answer's data, usage and finish reason."""
        if isinstance(event, ResponseDataEvent | FinishEvent):
            report_other_response_data(event.provider_data, self.provider, self.report, self.seen)
        match event:
            case PartDataEvent() if event.provider == self.provider and event.index == TEXT_INDEX:
                # The annotations of the text (the only part data a delta carries).
                echo = event.data.get("echo", {})
                if "annotations" in echo:
                    self.annotations = copy_json(echo["annotations"])
            case PartDataEvent() if event.provider != self.provider:
                self.other_data(event)
            case ResponseDataEvent():
                fields = copy_json(kept(event, self.provider).get("fields", {}))
                self.fields.update(fields)
                self.pending.update(fields)
            case UsageEvent():
                self.keep_usage(event)
            case FinishEvent():
                self.finish_event = event
                self.finish_data = merge_provider_data(self.finish_data, event.provider_data)

    def other_data(self, event: PartDataEvent) -> None:
        """Another provider's fields of a part sent (its reasoning's are its own
        part's to report), each reported once by name."""
        sent = (
            p for (i, kind), p in self.parts.items() if i == event.index and kind != "reasoning"
        )
        if (part := next(sent, None)) is not None:
            data = {event.provider: event.data}
            report_other_data(data, part.path, self.provider, self.report, self.seen)

    # --- parts ---

    def part(self, key: tuple[int, str], route: Callable[[str], str | None]) -> _Part:
        """The part `key` (its index and kind); the first time, its path and its
        `route`, which reports what the wire cannot take."""
        if (part := self.parts.get(key)) is None:
            path = f"message.parts[{self.count}]"
            self.count += 1
            part = self.parts[key] = _Part(path, route(path))
        return part

    def refusal_route(self, path: str) -> str:
        as_text = self.answer.parts.refusal_as_text(RefusalPart(text=""), path)
        return "refusal" if as_text is None else "content"

    def reasoning_route(self, provider: str | None, path: str) -> str | None:
        if self.answer.parts.reasoning_item(ReasoningPart(text="", provider=provider)):
            return _ITEM
        if self.dialect.reasoning_field is not None:
            return self.dialect.reasoning_field
        if self.dialect.think_tags and provider == self.provider:
            return _THINK  # its `<think>` form comes as it opens (`_think`)
        made_by = f" (made by {provider})" if provider else ""
        self.report.dropped(path, f"{self.provider}'s stream has no reasoning{made_by}", "setting")
        return None

    def reasoning(self, event: ReasoningDelta | ReasoningSignature) -> list[WireEvent]:
        part = self.part(
            (event.index, "reasoning"), lambda path: self.reasoning_route(event.provider, path)
        )
        part.provider = part.provider or event.provider
        text = event.text if isinstance(event, ReasoningDelta) else ""
        signature = event.signature if isinstance(event, ReasoningSignature) else None
        route = part.route
        if route == _ITEM:
            piece = ReasoningPart(text=text, signature=signature, provider=part.provider)
            item = self.answer.parts.reasoning_item(piece)
            return self.emit({"content": [item]}) if item and (text or signature) else []
        if route is not None and (
            delta := self.dialect.reasoning_piece(part.data, text, signature)
        ):
            part.written = True
            return self.emit(delta)
        if route is not None and signature is not None:
            self.report.dropped(part.path, f"{self.provider} takes no reasoning signature", "hint")
        if route is None or not text:
            return []
        if route == _THINK:
            return self.emit({"content": text})
        part.written = True
        return self.emit({route: text})

    def think_tags(self, event: PartDataEvent) -> tuple[str, str] | None:
        """The `<think>` form of this dialect's own reasoning part, as far as it is known."""
        if not self.dialect.think_tags or event.provider != self.provider:
            return None
        part = self.parts.get((event.index, "reasoning"))
        if part is None or part.written:
            return None  # not reasoning, or its text went in the reasoning field already
        return think_form(event.data)

    def think(self, index: int, tags: tuple[str, str]) -> list[WireEvent]:
        """The `<think>` opening and closing not sent yet, into the content as they came."""
        part = self.parts[(index, "reasoning")]
        part.route = _THINK
        (sent_opening, sent_closing), (opening, closing) = part.tags, tags
        part.tags = tags
        text = opening[len(sent_opening) :] + closing[len(sent_closing) :]
        return self.emit({"content": text}) if text else []

    def tool_call(self, event: ToolCallStart) -> list[WireEvent]:
        part = self.part((event.index, "tool_call"), lambda path: None)
        report_other_data(event.provider_data, part.path, self.provider, self.report, self.seen)
        entry = kept(event, self.provider)
        if entry.get("forms", {}).get("function_call"):
            part.route = _FUNCTION_CALL
            return self.emit({_FUNCTION_CALL: {"name": event.name, "arguments": event.arguments}})
        delta = self.calls.start(event)
        return self.begin() if delta is None else self.emit(delta)

    def arguments(self, event: ToolCallDelta) -> list[WireEvent]:
        part = self.parts.get((event.index, "tool_call"))
        arguments = event.arguments
        if part is None:  # a piece of a call that never started
            return self.tool_call(
                ToolCallStart(index=event.index, id="", name="", arguments=arguments)
            )
        if not arguments:
            return []
        if part.route == _FUNCTION_CALL:
            return self.emit({_FUNCTION_CALL: {"arguments": arguments}})
        delta = self.calls.more(event.index, arguments)
        return [] if delta is None else self.emit(delta)

    def part_delta(self, part: ContentPart, path: str) -> dict[str, Any]:
        """A part that came whole, as one delta, written as an answer's body holds it."""
        answer = Answer(listed=False)
        delta: dict[str, Any] = {}
        self.answer.part(answer, delta, part, path)
        return self.answer.fill(delta, answer)

    def whole(self, event: PartEvent) -> list[WireEvent]:
        delta = self.part_delta(event.part, f"message.parts[{self.count}]")
        self.count += 1
        delta = self.calls.hold(delta)
        return self.emit(delta) if delta else self.begin()

    def alternative(self, event: AlternativeEvent) -> list[WireEvent]:
        """Another choice, whole: its role, a delta a part in their order (its
        tool calls numbered from 0), then its finish."""
        response, index = event.response, event.index
        where = f"alternatives[{index - 1}]."
        parts = enumerate(response.message.parts)
        numbers = itertools.count()
        deltas = [
            self.calls.numbered(self.part_delta(part, f"{where}message.parts[{i}]"), numbers)
            for i, part in parts
        ]
        listed = any(isinstance(delta.get("content"), list) for delta in deltas)
        finish = (response.finish_reason, response.raw_finish_reason, response.provider)
        echo = kept(response, self.provider).get("echo", {})
        choices = [self.choice(d, index=index) for d in [{"role": "assistant"}, *deltas] if d]
        choices.append(self.last_choice(index, finish, echo, listed=listed, where=where))
        return [self.chunk([choice]) for choice in choices]
