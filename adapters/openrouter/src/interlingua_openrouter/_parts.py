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
again from the parts (their texts joined) where it repeated them; where it
did not (absent, null, or another text: a client sends a signed entry back
alone), the entries' parts say so (the form `in_reasoning`), no `reasoning`
is written from them, and the message's own goes back as it came. To any
other provider these parts go by the core's rules: a signature or encrypted
data never, the text as that provider's encoder decides, each loss reported.

In a stream, each delta's `reasoning_details` are pieces of entries, told
apart by their `index` and `type`: a text entry's pieces are `ReasoningDelta`s
and `ReasoningSignature`s of one part, an encrypted entry a whole part; the
delta's `reasoning` repeats their text and says nothing more (where it does
not, the part says so as for a message). A stream written for OpenRouter (a
gateway's) sends each piece back as a piece of its entry (`encode_piece`), its
text in `reasoning` too where it came so.
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
    ProviderEntry,
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


def decode_detail(entry: Any, path: str, read: WireReader, *, repeated: bool) -> ReasoningPart:
    """One `reasoning_details` entry as a part; `repeated`: whether the message's
    `reasoning` repeated the entries' text."""
    entry = read.object(entry, path)
    kind = read.field(entry, "type", path, str)
    field = DETAIL_TYPES.get(kind)
    forms = ReasoningForms(detail=kind)
    values: dict[str, Any] = {}
    modelled = {"type"}
    if field is not None and isinstance(entry.get(field), str):
        modelled.add(field)
        values["redacted_data" if field == "data" else "text"] = entry[field]
        if not repeated and field != "data" and entry[field]:
            forms["in_reasoning"] = False
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
        # A client may send the entries back without the `reasoning` that repeated
        # them (the signed entry alone): then none is written from them.
        repeated = bool(text) and text == _entries_text(details)
        where = f"{path}.reasoning_details"
        parts = [
            decode_detail(entry, f"{where}[{i}]", read, repeated=repeated)
            for i, entry in enumerate(details)
        ]
        return parts, REASONING_KEYS if repeated else frozenset({"reasoning_details"})
    if text is None:
        return [], frozenset()
    text = read.field(message, "reasoning", path, str)
    return [ReasoningPart(text=text, provider=read.provider)], frozenset({"reasoning"})


def encode_detail(part: ReasoningPart, entry: ProviderEntry) -> dict[str, Any] | None:
    """A part's `reasoning_details` entry (`entry`: what the part keeps), None for
    a part of the `reasoning` text alone."""
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
    """A message's `reasoning` text and its `reasoning_details`, from its parts in
    order; the text of an entry that came without it is not written there."""
    texts: list[str] = []
    details: list[dict[str, Any]] = []
    for part in parts:
        entry = kept(part, provider)
        if (detail := encode_detail(part, entry)) is not None:
            details.append(detail)
        if not part.redacted and entry.get("forms", {}).get("in_reasoning") is not False:
            texts.append(part.text)
    if text := "".join(texts):
        wire["reasoning"] = text
    if details:
        wire["reasoning_details"] = details


def encode_piece(
    data: ProviderData | None, text: str, signature: str | None, provider: str
) -> dict[str, Any] | None:
    """The delta of a streamed piece of an entry's text or signature, the entry's
    fields with it; None for reasoning that is no entry, or an empty piece."""
    entry = (data or {}).get(provider, {})
    forms = entry.get("forms", {})
    kind = forms.get("detail")
    field = DETAIL_TYPES.get(kind or "")
    if kind is None or field == "data" or not (text or signature):
        return None
    piece: dict[str, Any] = {"type": kind}
    if text and field is not None:
        piece[field] = text
    if signature:
        piece["signature"] = signature
    piece.update(copy_json(entry.get("fields", {})))
    repeated = text and forms.get("in_reasoning") is not False
    delta: dict[str, Any] = {"reasoning": text} if repeated else {}
    return {**delta, "reasoning_details": [piece]}


def _entries_text(details: Sequence[Any]) -> str:
    """The readable text of `reasoning_details` entries (or of one delta's pieces),
    joined, read from the wire: what a `reasoning` beside them repeats."""
    texts: list[str] = []
    for entry in details:
        kind = entry.get("type") if isinstance(entry, Mapping) else None
        field = DETAIL_TYPES.get(kind) if isinstance(kind, str) else None
        if field is not None and field != "data" and isinstance(entry.get(field), str):
            texts.append(entry[field])
    return "".join(texts)


class DetailsStream:
    """One choice's streamed reasoning: `reasoning_details` pieces by entry, or
    the `reasoning` text alone where a delta has no details."""

    keys = REASONING_KEYS

    def __init__(self, provider: str, plain_index: int) -> None:
        self.provider = provider
        self.plain_index = plain_index  # the part of the `reasoning` text alone
        self.entries: dict[tuple[Any, str], int] = {}  # (index, type) -> part index
        self.sent: dict[int, dict[str, Any]] = {}  # the fields each part was given
        self.apart: set[int] = set()  # the parts said to be without `reasoning`

    def feed(self, delta: Mapping[str, Any], path: str, read: WireReader) -> list[StreamEvent]:
        details = read.field(delta, "reasoning_details", path, list, None) or []
        if not details:
            text = read.field(delta, "reasoning", path, str, None)
            plain = ReasoningDelta(index=self.plain_index, text=text or "", provider=self.provider)
            return [plain] if text else []
        pieces = _entries_text(details)
        repeated = not pieces or delta.get("reasoning") == pieces
        events: list[StreamEvent] = []
        for i, entry in enumerate(details):
            where = f"{path}.reasoning_details[{i}]"
            events += self.piece(decode_detail(entry, where, read, repeated=repeated))
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
        if entry.get("forms", {}).get("in_reasoning") is False and index not in self.apart:
            # Said once, before its text: the deltas do not repeat it in `reasoning`.
            self.apart.add(index)
            said = keep(self.provider, forms=ReasoningForms(in_reasoning=False))[self.provider]
            events.append(PartDataEvent(index=index, provider=self.provider, data=said))
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
