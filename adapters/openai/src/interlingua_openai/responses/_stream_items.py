"""The output items a Responses API stream writes, each from its
`response.output_item.added` event to its `response.output_item.done`
(`_stream_encoder` decides which part goes in which item, and when).

    Message     one content part per text or refusal part:
                response.content_part.added, response.output_text.delta ... .done
                (response.refusal.*), response.content_part.done
    Reasoning   this API's own reasoning, its summary as one summary part:
                response.reasoning_summary_part.added,
                response.reasoning_summary_text.delta ... .done,
                response.reasoning_summary_part.done; or, where its text is
                the item's content, one `reasoning_text` content part:
                response.content_part.added, response.reasoning_text.delta
                ... .done, response.content_part.done
    Call        response.function_call_arguments.delta ... .done
                (response.custom_tool_call_input.*); calls started together,
                before any has arguments, stream side by side (by `output_index`)
    Whole       an item that came whole (a built-in tool's call): added, done

An item begins as the part codec (`PartEncoder`) writes its first part so far,
and is done as it writes the parts accumulated, so the item done is the one
`encode_response` puts in the response. An item carries its own id from its
`added` event on (this API's stream gives it there); one made elsewhere gets
an id derived from the response's and its call id or place (`with_id`), the
same in every event of the item and in the final response.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interlingua import (
    ContentPart,
    PartEvent,
    ReasoningDelta,
    ReasoningPart,
    RefusalDelta,
    RefusalPart,
    StreamAccumulator,
    StreamEvent,
    TextDelta,
    TextPart,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    TranslationReport,
    WireEvent,
)
from interlingua.codec import FreeformText, copy_json, kept
from interlingua_openai.responses._parts import PartEncoder
from interlingua_openai.responses._response import with_id
from interlingua_openai.responses._wire import PROVIDER

__all__ = [
    "CONTENT_KINDS",
    "Call",
    "Item",
    "Message",
    "Part",
    "Wire",
    "item_for",
]

# A content part of a message, by the kind of part: the events that stream it,
# its text field, and how it opens.
_CONTENT: dict[str, tuple[str, str, dict[str, Any]]] = {
    "text": (
        "response.output_text",
        "text",
        {"type": "output_text", "annotations": [], "logprobs": [], "text": ""},
    ),
    "refusal": ("response.refusal", "refusal", {"type": "refusal", "refusal": ""}),
}
CONTENT_KINDS = frozenset(_CONTENT)
# A call item's events and arguments field, by item type.
_CALLS = {
    "function_call": ("response.function_call_arguments", "arguments"),
    "custom_tool_call": ("response.custom_tool_call_input", "input"),
}


class Wire:
    """What a stream's items write with: the part codec, the sequence numbers,
    the output indexes, and the id of the response (set as the stream starts),
    which the ids of items made elsewhere derive from."""

    def __init__(self, encoder: PartEncoder) -> None:
        self.encoder = encoder
        # A call's item as it begins, from its arguments so far: what it loses is
        # reported when it is done, from the whole call.
        self.opening = PartEncoder(TranslationReport(), output=True)
        self.sequence = 0
        self.outputs = 0
        self.response_id = ""

    def emit(self, kind: str, **fields: Any) -> WireEvent:
        payload = {"type": kind, **fields, "sequence_number": self.sequence}
        self.sequence += 1
        return WireEvent(payload, event=kind)


@dataclass(eq=False, slots=True)
class Part:
    """One part as its events come (`kind` as the accumulator keys it, or
    `whole`), where it stands in the response, and the item it went in (None
    while it waits, or when the wire leaves it out)."""

    position: int
    kind: str
    events: StreamAccumulator = field(default_factory=StreamAccumulator)
    placed: bool = False
    item: Item | None = None
    done: bool = False
    late: bool = False

    def built(self) -> ContentPart:
        return self.events.response().message.parts[0]


def text_of(event: StreamEvent) -> str:
    """The text (or arguments) an event adds to its part."""
    match event:
        case TextDelta() | RefusalDelta() | ReasoningDelta():
            return event.text
        case ToolCallStart() | ToolCallDelta():
            return event.arguments
        case PartEvent():
            return _part_text(event.part)
    return ""


def _part_text(part: ContentPart) -> str:
    match part:
        case TextPart() | RefusalPart() | ReasoningPart():
            return part.text
        case ToolCallPart():
            return part.arguments
    return ""


class Item:
    """An output item on the wire; `item` is the item as it begins."""

    def __init__(self, wire: Wire, item: dict[str, Any]) -> None:
        self.wire = wire
        self.parts: list[Part] = []
        self.output_index = wire.outputs
        wire.outputs += 1
        self.item = with_id(item, self.output_index, wire.response_id)
        self.id: str = self.item.get("id", "")

    def open(self, part: Part) -> list[WireEvent]:
        """The `added` event, the item holding its first part."""
        self.take(part)
        return [self.added()]

    def added(self) -> WireEvent:
        return self.wire.emit(
            "response.output_item.added", item=self.item, output_index=self.output_index
        )

    def take(self, part: Part) -> None:
        part.item = self
        self.parts.append(part)

    def event(self, kind: str, **fields: Any) -> WireEvent:
        """An event of this item."""
        return self.wire.emit(kind, item_id=self.id, output_index=self.output_index, **fields)

    def delta(self, part: Part, event: StreamEvent) -> list[WireEvent]:
        return []

    def close(self) -> list[WireEvent]:
        """The item's last events: what it ends with, then the item as encoded."""
        part = self.parts[0]
        part.done = True
        item = self.wire.encoder.assistant_item(part.built(), "message", part.position)
        if item is None:
            return []
        if self.id:
            item = {"id": self.id, **item}  # its own id, where it has one, is the same
        return [*self.ending(item), self.done(item)]

    def ending(self, item: dict[str, Any]) -> list[WireEvent]:
        return []

    def done(self, item: dict[str, Any]) -> WireEvent:
        return self.wire.emit(
            "response.output_item.done", item=item, output_index=self.output_index
        )


class Call(Item):
    """A function (or custom tool) call; `streamed` once arguments have come. A
    custom call's pieces are of the arguments `{"input": ...}` the core holds:
    its input streams as they complete it (`FreeformText`), what they did not
    give in a last delta."""

    def __init__(self, wire: Wire, item: dict[str, Any]) -> None:
        self.prefix, self.field = _CALLS.get(item.get("type", ""), _CALLS["function_call"])
        super().__init__(wire, {**item, "status": "in_progress", self.field: ""})
        self.streamed = False
        self.input = FreeformText() if item.get("type") == "custom_tool_call" else None
        self.sent = ""

    def delta(self, part: Part, event: StreamEvent) -> list[WireEvent]:
        text = text_of(event)
        if not text:
            return []
        self.streamed = True
        if self.input is not None:
            text = self.input.feed(text)
            self.sent += text
        return [self.event(f"{self.prefix}.delta", delta=text)] if text else []

    def ending(self, item: dict[str, Any]) -> list[WireEvent]:
        text = item.get(self.field, "")
        rest = text[len(self.sent) :] if self.input and text.startswith(self.sent) else ""
        last = [self.event(f"{self.prefix}.delta", delta=rest)] if rest else []
        return [*last, self.event(f"{self.prefix}.done", **{self.field: text})]


# A reasoning item's text, by where it goes (`forms.text`): the events that
# stream it, the index field of its piece, and the piece as it opens.
_REASONING: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    "summary": (
        "response.reasoning_summary_part",
        "response.reasoning_summary_text",
        "summary_index",
        {"type": "summary_text", "text": ""},
    ),
    "content": (
        "response.content_part",
        "response.reasoning_text",
        "content_index",
        {"type": "reasoning_text", "text": ""},
    ),
}


class _Reasoning(Item):
    """Its text as one summary part, or as one `reasoning_text` content part where
    the part's text is the item's content; its `encrypted_content` (the part's
    signature) in the item done."""

    def __init__(self, wire: Wire, item: dict[str, Any]) -> None:
        super().__init__(wire, {**item, "summary": []})
        self.place: str | None = None

    def piece_event(self, kind: str, **fields: Any) -> WireEvent:
        assert self.place is not None
        return self.event(kind, **{_REASONING[self.place][2]: 0}, **fields)

    def delta(self, part: Part, event: StreamEvent) -> list[WireEvent]:
        text = text_of(event)
        if not text:
            return []
        out = []
        if self.place is None:
            forms = kept(part.built(), PROVIDER).get("forms", {})
            self.place = "content" if forms.get("text") == "content" else "summary"
            piece, _, _, opened = _REASONING[self.place]
            out.append(self.piece_event(f"{piece}.added", part=opened))
        text_events = _REASONING[self.place][1]
        return [*out, self.piece_event(f"{text_events}.delta", delta=text)]

    def ending(self, item: dict[str, Any]) -> list[WireEvent]:
        if self.place is None:
            return []
        piece, text_events, _, opened = _REASONING[self.place]
        text = _part_text(self.parts[0].built())
        return [
            self.piece_event(f"{text_events}.done", text=text),
            self.piece_event(f"{piece}.done", part={**opened, "text": text}),
        ]


def item_for(wire: Wire, part: Part, item: dict[str, Any]) -> Item:
    """The item a part that is not text begins, `item` being the part as encoded."""
    kinds: dict[str, type[Item]] = {"reasoning": _Reasoning, "tool_call": Call}
    return kinds.get(part.kind, Item)(wire, item)


class Message(Item):
    """A message item: one content part per text or refusal part."""

    def __init__(self, wire: Wire, part: Part) -> None:
        self.fields = _message_fields(part)
        # Text made elsewhere gets an id derived from its place (`with_id`).
        item = {
            "type": "message",
            "role": "assistant",
            **copy_json(self.fields or {}),
            "status": "in_progress",
            "content": [],
        }
        super().__init__(wire, item)

    def open(self, part: Part) -> list[WireEvent]:
        return [self.added(), *self.add(part)]

    def continued_by(self, part: Part) -> bool:
        """Whether `part` is text of this same item."""
        if part.kind not in _CONTENT:
            return False
        return (_message_fields(part) or {}).get("id") == (self.fields or {}).get("id")

    def add(self, part: Part) -> list[WireEvent]:
        """Opens the content part of `part`, once the one before it is done."""
        out = self.end_content() if self.parts else []
        self.take(part)
        _, _, opened = _CONTENT[part.kind]
        index = len(self.parts) - 1
        added = self.event(
            "response.content_part.added", content_index=index, part=copy_json(opened)
        )
        return [*out, added]

    def delta(self, part: Part, event: StreamEvent) -> list[WireEvent]:
        text = text_of(event)
        if not text:
            return []
        prefix, _, _ = _CONTENT[part.kind]
        fields: dict[str, Any] = {"content_index": self.parts.index(part), "delta": text}
        if part.kind == "text":
            fields["logprobs"] = []
        return [self.event(f"{prefix}.delta", **fields)]

    def end_content(self) -> list[WireEvent]:
        part = self.parts[-1]
        part.done = True
        built = part.built()
        assert isinstance(built, TextPart | RefusalPart)  # what text and refusal events build
        entry = self.wire.encoder.output_part(built, kept(built, PROVIDER))
        prefix, key, _ = _CONTENT[part.kind]
        index = len(self.parts) - 1
        done: dict[str, Any] = {"content_index": index, key: built.text}
        if part.kind == "text":
            done["logprobs"] = copy_json(entry.get("logprobs", []))
        return [
            self.event(f"{prefix}.done", **done),
            self.event("response.content_part.done", content_index=index, part=entry),
        ]

    def close(self) -> list[WireEvent]:
        out = self.end_content()
        parts = [part.built() for part in self.parts]
        first, *others = self.wire.encoder.assistant_items(parts, "message")
        for other in others:
            # Parts of one item whose kept fields differ (a stream cut off inside it).
            first["content"] = [*first["content"], *other["content"]]
        return [*out, self.done(with_id(first, self.output_index, self.wire.response_id))]


def _message_fields(part: Part) -> dict[str, Any] | None:
    """The fields of the message item a text part came from; None for text made elsewhere."""
    item: dict[str, Any] | None = kept(part.built(), PROVIDER).get("echo", {}).get("item")
    return item
