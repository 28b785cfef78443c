"""OpenRouter's reasoning, to and from `ReasoningPart`s: the message's
`reasoning` text and its `reasoning_details` entries (`_wire`), in answers,
requests and streams alike.

    reasoning_details entry                   core part (provider "openrouter")
    reasoning.text {text, signature}          ReasoningPart(text, signature)
    reasoning.summary {summary}               ReasoningPart(text=summary)
    reasoning.encrypted {data}                ReasoningPart(redacted_data=data)
    any other entry                           ReasoningPart(""), the entry kept whole
    `reasoning` alone (no details)            ReasoningPart(text)

Each entry goes back to OpenRouter in its place, as it came (its `format`,
`index` and `id` are the part's `fields`): a signature another model made
reaches that model again through OpenRouter. The `reasoning` text is written
again from the parts (their texts joined), and kept verbatim where it says
something else (null beside encrypted details, say). To any other provider
these parts go by the core's rules: a signature or encrypted data never, the
text as that provider's encoder decides, each loss reported.

In a stream, each delta's `reasoning_details` are pieces of entries, told
apart by their `index` and `type`: a text entry's pieces are `ReasoningDelta`s
and `ReasoningSignature`s of one part, an encrypted entry a whole part; the
delta's `reasoning` repeats their text and says nothing more. A stream
written for OpenRouter (a gateway's) sends each piece back as a piece of its
entry (`encode_piece`), its text in `reasoning` too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua import (
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    StreamEvent,
)
from interlingua.codec import (
    ProviderData,
    WireReader,
    copy_json,
    keep,
    kept,
    other_fields,
    overlay,
)
from interlingua_openrouter._wire import DETAIL_TYPES, ReasoningForms

__all__ = [
    "REASONING_KEYS",
    "DetailsStream",
    "decode_reasoning",
    "encode_piece",
    "encode_reasoning",
]

REASONING_KEYS = frozenset({"reasoning", "reasoning_details"})
# The stream's part indexes of the entries, in the order they start (below the
# Chat Completions codec's own, which stop at -100 and the opaque items under it).
_DETAIL_INDEX = -10_000


def decode_detail(entry: Any, path: str, read: WireReader) -> ReasoningPart:
    """One `reasoning_details` entry as a part."""
    entry = read.object(entry, path)
    kind = read.field(entry, "type", path, str)
    field = DETAIL_TYPES.get(kind)
    forms = ReasoningForms(detail=kind)
    values: dict[str, Any] = {}
    modelled = {"type"}
    if field is not None and isinstance(entry.get(field), str):
        modelled.add(field)
        values["redacted_data" if field == "data" else "text"] = entry[field]
    elif field == "text":
        forms["text"] = "absent"
    if kind == "reasoning.text" and isinstance(entry.get("signature"), str):
        modelled.add("signature")
        values["signature"] = entry["signature"]
    data = keep(read.provider, fields=other_fields(entry, modelled), forms=forms)
    return ReasoningPart(**values, provider=read.provider, provider_data=data)


def decode_reasoning(
    message: Mapping[str, Any], path: str, read: WireReader
) -> tuple[list[ReasoningPart], frozenset[str]]:
    """The reasoning parts of a message, and the fields they give back."""
    details = message.get("reasoning_details")
    text = message.get("reasoning")
    if isinstance(details, list) and details:
        where = f"{path}.reasoning_details"
        parts = [decode_detail(entry, f"{where}[{i}]", read) for i, entry in enumerate(details)]
        said = {"reasoning_details"}
        if isinstance(text, str) and text and text == _joined(parts):
            said.add("reasoning")
        return parts, frozenset(said)
    if text is None:
        return [], frozenset()
    text = read.field(message, "reasoning", path, str)
    return [ReasoningPart(text=text, provider=read.provider)], frozenset({"reasoning"})


def encode_detail(part: ReasoningPart, provider: str) -> dict[str, Any] | None:
    """A part's `reasoning_details` entry, None for a part of the `reasoning` text alone."""
    entry = kept(part, provider)
    forms = entry.get("forms", {})
    kind = forms.get("detail")
    if kind is None:
        return None
    detail: dict[str, Any] = {"type": kind}
    field = DETAIL_TYPES.get(kind)
    if field == "data" and part.redacted_data is not None:
        detail["data"] = part.redacted_data
    elif field is not None and field != "data" and forms.get("text") != "absent":
        detail[field] = part.text
    if part.signature is not None:
        detail["signature"] = part.signature
    fields = entry.get("fields")
    return overlay(detail, copy_json(fields)) if fields else detail


def encode_reasoning(parts: Sequence[ReasoningPart], wire: dict[str, Any], provider: str) -> None:
    """A message's `reasoning` text and its `reasoning_details`, from its parts in order."""
    details = [detail for part in parts if (detail := encode_detail(part, provider)) is not None]
    if text := _joined(parts):
        wire["reasoning"] = text
    if details:
        wire["reasoning_details"] = details


def encode_piece(
    data: ProviderData | None, text: str, signature: str | None, provider: str
) -> dict[str, Any] | None:
    """The delta of a streamed piece of an entry's text or signature, the entry's
    fields with it; None for reasoning that is no entry, or an empty piece."""
    entry = (data or {}).get(provider, {})
    kind = entry.get("forms", {}).get("detail")
    field = DETAIL_TYPES.get(kind or "")
    if kind is None or field == "data" or not (text or signature):
        return None
    piece: dict[str, Any] = {"type": kind}
    if text and field is not None:
        piece[field] = text
    if signature:
        piece["signature"] = signature
    piece.update(copy_json(entry.get("fields", {})))
    delta: dict[str, Any] = {"reasoning": text} if text else {}
    return {**delta, "reasoning_details": [piece]}


def _joined(parts: Sequence[ReasoningPart]) -> str:
    return "".join(part.text for part in parts if not part.redacted)


class DetailsStream:
    """One choice's streamed reasoning: `reasoning_details` pieces by entry, or
    the `reasoning` text alone where a delta has no details."""

    keys = REASONING_KEYS

    def __init__(self, provider: str, plain_index: int) -> None:
        self.provider = provider
        self.plain_index = plain_index  # the part of the `reasoning` text alone
        self.entries: dict[tuple[Any, str], int] = {}  # (index, type) -> part index
        self.sent: dict[int, dict[str, Any]] = {}  # the fields each part was given

    def feed(self, delta: Mapping[str, Any], path: str, read: WireReader) -> list[StreamEvent]:
        details = read.field(delta, "reasoning_details", path, list, None) or []
        if not details:
            text = read.field(delta, "reasoning", path, str, None)
            plain = ReasoningDelta(index=self.plain_index, text=text or "", provider=self.provider)
            return [plain] if text else []
        events: list[StreamEvent] = []
        for i, entry in enumerate(details):
            events += self.piece(decode_detail(entry, f"{path}.reasoning_details[{i}]", read))
        return events

    def piece(self, part: ReasoningPart) -> list[StreamEvent]:
        """The events of one entry's piece: a new entry opens a part of its own."""
        entry = kept(part, self.provider)
        fields = entry.get("fields", {})
        key = (fields.get("index"), entry.get("forms", {}).get("detail", ""))
        if part.redacted:
            index = self.entries[key] = _DETAIL_INDEX - len(self.entries)
            return [PartEvent(index=index, part=part)]
        events: list[StreamEvent] = []
        known = self.entries.get(key)
        if known is None:
            # The part opens, then says what entry it is, before its text (a
            # stream encoder writes each piece as a piece of that entry).
            index = self.entries[key] = _DETAIL_INDEX - len(self.entries)
            events.append(ReasoningDelta(index=index, text="", provider=self.provider))
            forms = ReasoningForms(detail=key[1])
            data = keep(self.provider, fields=fields, forms=forms)[self.provider]
            events.append(PartDataEvent(index=index, provider=self.provider, data=data))
            self.sent[index] = dict(fields)
        else:
            index = known
        if part.text:
            events.append(ReasoningDelta(index=index, text=part.text, provider=self.provider))
        if part.signature:
            events.append(
                ReasoningSignature(index=index, signature=part.signature, provider=self.provider)
            )
        if new := {k: v for k, v in fields.items() if k not in self.sent[index]}:
            self.sent[index].update(new)
            events.append(PartDataEvent(index=index, provider=self.provider, data={"fields": new}))
        return events
