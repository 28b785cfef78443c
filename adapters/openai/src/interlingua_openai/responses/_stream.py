"""Responses API stream events to `StreamEvent`s.

`decode_stream` takes the parsed `data:` payloads in order (each carries its
`type`) or the SDK's event objects; `ResponsesStreamDecoder` does the same one
event at a time.

Invariants:

- `accumulate(decode_stream(events))` equals `decode_response` of the
  response that `response.completed` (or `.incomplete`, `.failed`) carries:
  deltas build the parts as they come, and when an output item is done its
  final fields (ids, status, annotations, logprobs, the encrypted reasoning)
  are added to the parts it made, computed the way `decode_response` does.
  What an item says of itself when it is added (a message's fields, a
  reasoning item's or a call's `id`, a custom call's form) is given to its
  part at once, so an encoder can write the same item before it is done; and
  `response.created`'s fields (`created_at`, the settings echoed) are the
  stream start's, which the final response's replace.
- Each content part, reasoning item and call has its own part index, in
  output order, so parts never mix.
- A message item's content entry the codec does not model is an opaque part
  of its own (see `_parts`), so the text streamed before it is not repeated.
- `error` events, and a `failed` response's `error`, are typed by
  `decode_error` (by their `code`) and become its `ErrorEvent`s; events this
  codec has no use for (`response.in_progress`, built-in tool progress,
  annotation-added) are skipped: what they say arrives again in the done item.
  An event that is not what the wire promises raises
  `DecodeError` naming its path (`events[3].item.call_id`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from typing_extensions import assert_never

from interlingua import (
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
    StreamEvent,
    StreamStart,
    TextDelta,
    TextPart,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    UsageEvent,
)
from interlingua.codec import WireReader, decode_events, freeform_piece, keep, other_fields
from interlingua_openai.responses._calls import call_identity
from interlingua_openai.responses._errors import decode_error
from interlingua_openai.responses._finish import decode_finish
from interlingua_openai.responses._parts import PartDecoder
from interlingua_openai.responses._reasoning import JOINER
from interlingua_openai.responses._response import kept_response
from interlingua_openai.responses._wire import (
    PROVIDER,
    OutputTextEcho,
    ReasoningForms,
    ResponseEcho,
)

__all__ = ["ResponsesStreamDecoder", "decode_stream"]

# The parts deltas build; any other arrives whole.
_Streamed = (TextPart, RefusalPart, ToolCallPart, ReasoningPart)
_FINISHED = ("response.completed", "response.incomplete", "response.failed")
# The created response's fields the stream start does not keep: the core's, and
# `usage` (null until the final response counts it).
_CREATED_MODELLED = ("id", "model", "output", "usage")


def decode_stream(events: Iterable[Any]) -> Iterator[StreamEvent]:
    """The stream events of a Responses API stream."""
    return decode_events(ResponsesStreamDecoder(), events)


class ResponsesStreamDecoder:
    """Turns Responses API events into stream events, one at a time."""

    provider = PROVIDER

    def __init__(self) -> None:
        self.read = WireReader(PROVIDER)
        self.parts = PartDecoder()
        self.count = 0
        self.slots: dict[tuple[int, int], int] = {}
        self.built: dict[int, str] = {}  # the text (or arguments) each slot has so far
        self.messages: dict[int, dict[str, Any]] = {}  # a message item's fields, by output index
        self.custom: set[int] = set()  # the slots of custom calls

    def finish(self) -> list[StreamEvent]:
        """Nothing waits for the end: `response.completed` said it all."""
        return []

    def slot(self, output_index: int, content_index: int = -1) -> int:
        """The part index of an item (or of a content part of a message item)."""
        return self.slots.setdefault((output_index, content_index), len(self.slots))

    def feed(self, event: Any) -> list[StreamEvent]:
        path = f"events[{self.count}]"
        self.count += 1
        event = self.read.body(event, path)
        kind = self.read.field(event, "type", path, str)
        match kind:
            case "response.created":
                return [self.start(self.read.field(event, "response", path, dict))]
            case "response.output_item.added":
                return self.item_added(event, path)
            case "response.content_part.added":
                return self.content_added(event, path)
            case "response.output_text.delta" | "response.refusal.delta":
                return self.text_delta(event, kind, path)
            case "response.function_call_arguments.delta" | "response.custom_tool_call_input.delta":
                return self.arguments_delta(event, path)
            case "response.reasoning_summary_part.added":
                return self.summary_added(event, path)
            case "response.reasoning_summary_text.delta" | "response.reasoning_text.delta":
                return self.summary_delta(event, path)
            case "response.output_item.done":
                return self.item_done(event, path)
            case "error":
                return [ErrorEvent.from_error(decode_error(None, event))]
        if kind in _FINISHED:
            return self.finished(self.read.field(event, "response", path, dict))
        return []

    def start(self, response: Mapping[str, Any]) -> StreamStart:
        """The response's identity, and its fields as created (`created_at`, the
        settings echoed), which the final response's fields replace."""
        fields = other_fields(response, _CREATED_MODELLED)
        return StreamStart(
            id=self.read.field(response, "id", "response", str, None),
            model=self.read.field(response, "model", "response", str, None),
            provider=PROVIDER,
            provider_data=keep(PROVIDER, fields=fields),
        )

    def indexes(self, event: Mapping[str, Any], path: str, *, content: bool = False) -> int:
        output_index = self.read.field(event, "output_index", path, int)
        if not content:
            return self.slot(output_index)
        return self.slot(output_index, self.read.field(event, "content_index", path, int))

    def grow(self, slot: int, text: str) -> None:
        self.built[slot] = self.built.get(slot, "") + text

    def item_added(self, event: Mapping[str, Any], path: str) -> list[StreamEvent]:
        item = self.read.field(event, "item", path, dict)
        output_index = self.read.field(event, "output_index", path, int)
        slot = self.slot(output_index)
        where = f"{path}.item"
        match item.get("type"):
            case "function_call" | "custom_tool_call":
                return [self.call_added(item, slot, where)]
            case "reasoning":
                # Opens the part in its place, with its id; its summary, if any, follows.
                self.grow(slot, "")
                events: list[StreamEvent] = [ReasoningDelta(index=slot, text="", provider=PROVIDER)]
                if isinstance(item_id := item.get("id"), str):
                    data = keep(PROVIDER, fields={"id": item_id})[PROVIDER]
                    events.append(PartDataEvent(index=slot, provider=PROVIDER, data=data))
                return events
            case "message":
                self.messages[output_index] = other_fields(item, ("content",))
        return []

    def call_added(self, item: Mapping[str, Any], slot: int, path: str) -> ToolCallStart:
        """A call as it begins: its name and forms as `decode_response` gives them, a
        custom call's input as the arguments `{"input": ...}` it decodes to."""
        with_name = {**item, "name": item.get("name") or ""}
        name, key, forms = call_identity(self.read, with_name, path)
        arguments = self.read.field(item, key, path, str, None) or ""
        if key == "input":
            arguments = freeform_piece(arguments, first=True)
            self.custom.add(slot)
        self.grow(slot, arguments)
        # The item's own id, so that an encoder writes it from the start.
        item_id = self.read.field(item, "id", path, str, None)
        fields = None if item_id is None else {"id": item_id}
        return ToolCallStart(
            index=slot,
            id=self.read.field(item, "call_id", path, str, None) or "",
            name=name,
            arguments=arguments,
            provider_data=keep(PROVIDER, fields=fields, forms=forms),
        )

    def content_added(self, event: Mapping[str, Any], path: str) -> list[StreamEvent]:
        output_index = self.read.field(event, "output_index", path, int)
        slot = self.slot(output_index, self.read.field(event, "content_index", path, int))
        part = self.read.field(event, "part", path, dict)
        where = f"{path}.part"
        opened: StreamEvent
        match part.get("type"):
            case "reasoning_text":
                return self.reasoning_text_added(event, path)
            case "refusal":
                text = self.read.field(part, "refusal", where, str, None) or ""
                opened = RefusalDelta(index=slot, text=text)
            case "output_text":
                text = self.read.field(part, "text", where, str, None) or ""
                opened = TextDelta(index=slot, text=text)
            case _:
                return []
        self.grow(slot, text)
        fields = self.messages.get(output_index)
        if not fields:
            return [opened]
        # The item the part belongs to, as added; its done item replaces it.
        data = keep(PROVIDER, echo=OutputTextEcho(item=fields))[PROVIDER]
        return [opened, PartDataEvent(index=slot, provider=PROVIDER, data=data)]

    def text_delta(self, event: Mapping[str, Any], kind: str, path: str) -> list[StreamEvent]:
        slot = self.indexes(event, path, content=True)
        text = self.read.field(event, "delta", path, str)
        self.grow(slot, text)
        if kind == "response.refusal.delta":
            return [RefusalDelta(index=slot, text=text)]
        return [TextDelta(index=slot, text=text)]

    def arguments_delta(self, event: Mapping[str, Any], path: str) -> list[StreamEvent]:
        slot = self.indexes(event, path)
        text = self.read.field(event, "delta", path, str)
        if slot in self.custom:
            text = freeform_piece(text)  # escaped: the item done closes it
        self.grow(slot, text)
        return [ToolCallDelta(index=slot, arguments=text)]

    def summary_added(self, event: Mapping[str, Any], path: str) -> list[StreamEvent]:
        slot = self.indexes(event, path)
        if self.read.field(event, "summary_index", path, int) == 0:
            return []
        # Summary parts are joined by a blank line, as `decode_response` joins them.
        self.grow(slot, JOINER)
        return [ReasoningDelta(index=slot, text=JOINER, provider=PROVIDER)]

    def reasoning_text_added(self, event: Mapping[str, Any], path: str) -> list[StreamEvent]:
        """A `reasoning_text` entry (the chain of thought, no summary): joined as summary parts."""
        slot = self.indexes(event, path)
        data = keep(PROVIDER, forms=ReasoningForms(text="content"))[PROVIDER]
        events: list[StreamEvent] = [PartDataEvent(index=slot, provider=PROVIDER, data=data)]
        if self.read.field(event, "content_index", path, int) > 0:
            self.grow(slot, JOINER)
            events.append(ReasoningDelta(index=slot, text=JOINER, provider=PROVIDER))
        return events

    def summary_delta(self, event: Mapping[str, Any], path: str) -> list[StreamEvent]:
        slot = self.indexes(event, path)
        text = self.read.field(event, "delta", path, str)
        self.grow(slot, text)
        return [ReasoningDelta(index=slot, text=text, provider=PROVIDER)]

    def item_done(self, event: Mapping[str, Any], path: str) -> list[StreamEvent]:
        """The item's final parts: what the deltas missed, and their provider data."""
        item = self.read.field(event, "item", path, dict)
        output_index = self.read.field(event, "output_index", path, int)
        parts = self.parts.assistant_item(item, f"{path}.item")
        events: list[StreamEvent] = []
        for position, part in enumerate(parts):
            content_index = position if item.get("type", "message") == "message" else -1
            slot = self.slot(output_index, content_index)
            events.extend(self.completed_part(slot, part))
        return events

    def completed_part(self, slot: int, part: ContentPart) -> list[StreamEvent]:
        seen = self.built.get(slot)
        if seen is None or not isinstance(part, _Streamed):
            # No delta opened it (a built-in tool's item, say): it arrives whole.
            self.built[slot] = ""
            return [PartEvent(index=slot, part=part)]
        events = self.rest_of(slot, part, seen)
        if isinstance(part, ReasoningPart) and part.signature is not None:
            events.append(
                ReasoningSignature(index=slot, signature=part.signature, provider=PROVIDER)
            )
        if data := part.provider_data.get(PROVIDER):
            events.append(PartDataEvent(index=slot, provider=PROVIDER, data=data))
        return events

    def rest_of(
        self, slot: int, part: TextPart | RefusalPart | ToolCallPart | ReasoningPart, seen: str
    ) -> list[StreamEvent]:
        """A delta for what the final part holds beyond what the deltas gave."""
        final = part.arguments if isinstance(part, ToolCallPart) else part.text
        missing = final[len(seen) :] if final.startswith(seen) else ""
        if not missing:
            return []
        self.grow(slot, missing)
        match part:
            case ToolCallPart():
                return [ToolCallDelta(index=slot, arguments=missing)]
            case RefusalPart():
                return [RefusalDelta(index=slot, text=missing)]
            case TextPart():
                return [TextDelta(index=slot, text=missing)]
            case ReasoningPart():
                return [ReasoningDelta(index=slot, text=missing, provider=PROVIDER)]
            case _:
                return assert_never(part)

    def finished(self, response: Mapping[str, Any]) -> list[StreamEvent]:
        """The final response's usage, finish and error, kept as `decode_response` keeps them."""
        kept = kept_response(response, "response", self.read)
        events: list[StreamEvent] = []
        if kept.usage is not None:
            echo = ResponseEcho(usage=kept.usage_kept) if kept.usage_kept else None
            usage_data = keep(PROVIDER, echo=echo)
            events.append(UsageEvent(usage=kept.usage, provider_data=usage_data))
        reason, raw = decode_finish(response)
        if reason is not None:
            data = keep(PROVIDER, fields=kept.fields, forms=kept.forms)
            events.append(
                FinishEvent(finish_reason=reason, raw_finish_reason=raw, provider_data=data)
            )
        if isinstance(error := response.get("error"), dict):
            events.append(ErrorEvent.from_error(decode_error(None, error)))
        return events
