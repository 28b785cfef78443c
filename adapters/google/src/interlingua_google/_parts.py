"""Parts: one Gemini part <-> one core part.

    part                                        core part
    text                                        TextPart
    text + thought: true                        ReasoningPart(text, signature=thoughtSignature,
                                                provider="google")
    inlineData {mimeType, data}                 FilePart(media_type, data)
    fileData {mimeType, fileUri}                FilePart(media_type, url)
    functionCall {name, args, id}               ToolCallPart (`args` as JSON text; an id
                                                made here when Gemini sent none)
    functionResponse {name, response, id,       ToolResultPart: `{"output": text}` its text,
      parts}                                    `{"error": text}` its text with is_error,
                                                any other object its JSON text; the
                                                media of `parts` FileParts after it
    anything else (executableCode,              OpaquePart(provider="google"), the part whole
      codeExecutionResult, toolCall,
      toolResponse, a part of a kind the
      core does not model)

A part's other fields are its provider data's `fields`, verbatim: a
`thoughtSignature` on a text or call part goes back on that part, in place,
as Gemini requires. Field names written in snake_case are its `snake_case`
form (`_wire.spelled`).

Tool-call ids: Gemini may send calls without an `id`, and then matches each
`functionResponse` to its call by name and order. A call without one gets
an id made from where it is (`CallIds`: the same body gives the same ids),
with the form `id: "made"`; a result without one takes the id of the first
unanswered call of its name. Made ids never go back to Google (`CallBook`).

Invariant: `encode_part(decode_part(part)) == part` for every part Google
sends or takes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, cast

from typing_extensions import assert_never

from interlingua import (
    ContentPart,
    FilePart,
    InvalidDataError,
    Message,
    OpaquePart,
    ReasoningPart,
    TextPart,
    ToolArgumentsError,
    ToolCallPart,
    ToolResultContent,
    ToolResultPart,
    TranslationReport,
)
from interlingua.codec import (
    WireReader,
    copy_json,
    dump_arguments,
    file_field_level,
    keep,
    kept,
    overlay,
)
from interlingua_google._rules import (
    RESULT_TEXT_FIRST,
    file_left_out,
    opaque_left_out,
    reasoning_left_out,
    unsent_file_fields,
)
from interlingua_google._wire import (
    PROVIDER,
    ToolCallForms,
    ToolResultForms,
    WireDict,
    respelled,
    snake,
    spelled,
)

__all__ = [
    "CallBook",
    "CallIds",
    "PartPath",
    "PartRole",
    "decode_part",
    "encode_part",
    "made_id",
    "part_path",
]

# Where a part is: a content of either role, the system instruction, or a
# function response's `parts`.
PartRole = Literal["user", "model", "system", "tool_result"]
# Where a part is, for a report: the path of its list and its position there
# (`("messages[2].parts", 0)`), written out (`part_path`) only for a loss, as
# most parts report none.
PartPath = tuple[str, int]

_KINDS = frozenset(
    {"text", "thought", "inlineData", "fileData", "functionCall", "functionResponse"}
)
_SIGNATURE = "thoughtSignature"
_INLINE_KEYS = frozenset({"mimeType", "data"})
_FILE_KEYS = frozenset({"mimeType", "fileUri"})
_CALL_KEYS = frozenset({"name", "args", "id"})
_RESULT_KEYS = frozenset({"name", "response", "id", "parts"})
# The kinds each place takes; any other part there is kept whole.
_TAKES: dict[PartRole, frozenset[str]] = {
    "user": frozenset({"text", "inlineData", "fileData", "functionResponse"}),
    "model": frozenset({"text", "inlineData", "fileData", "functionCall"}),
    "system": frozenset({"text"}),
    "tool_result": frozenset({"inlineData", "fileData"}),
}

_reader = WireReader(PROVIDER)


def made_id(seed: str, path: str, name: str) -> str:
    """A tool-call id for a call Gemini sent without one: the same each time."""
    digest = hashlib.sha256(f"{seed}\x00{path}\x00{name}".encode()).hexdigest()
    return f"call_{digest[:24]}"


@dataclass
class CallIds:
    """The ids of one body's calls, in order: made where Gemini gave none, and
    matched to the results that answer them (by id, else by name and order)."""

    seed: str = ""
    unanswered: list[tuple[str, str]] = field(default_factory=list)  # (name, id)

    def call(self, wire_id: str | None, name: str, path: str) -> str:
        call_id = wire_id if wire_id is not None else made_id(self.seed, path, name)
        self.unanswered.append((name, call_id))
        return call_id

    def result(self, wire_id: str | None, name: str, path: str) -> str:
        for k, (called, call_id) in enumerate(self.unanswered):
            if call_id == wire_id or (wire_id is None and called == name):
                del self.unanswered[k]
                return call_id
        return wire_id if wire_id is not None else made_id(self.seed, path, name)


# --- decoding ---


def decode_part(raw: Any, path: str, *, role: PartRole, ids: CallIds) -> ContentPart:
    """The core part for one Gemini part in `role`'s place."""
    wire = _reader.object(raw, path)
    values, others, snaked = spelled(wire, _KINDS)
    if "thought" in values and (values["thought"] is not True or role != "model"):
        others["thought"] = values.pop("thought")  # no reasoning: a field of the part
    kinds = set(values) - {"thought"}
    kind = next(iter(kinds)) if len(kinds) == 1 else None
    if kind is None or kind not in _TAKES[role]:
        return OpaquePart(provider=PROVIDER, data=wire)
    match kind:
        case "text" if "thought" in values:
            return _reasoning(values, others, snaked, path)
        case "text":
            text = _reader.field(values, "text", path, str)
            return TextPart(text=text, provider_data=_data(others, snaked))
        case "inlineData" | "fileData":
            part = _file(kind, values[kind], others, snaked, f"{path}.{kind}")
            return OpaquePart(provider=PROVIDER, data=wire) if part is None else part
        case "functionCall":
            return _call(values[kind], others, snaked, f"{path}.functionCall", ids)
        case _:
            return _result(values[kind], others, snaked, f"{path}.functionResponse", ids)


def _data(fields: WireDict, snaked: list[str], **forms: Any) -> Any:
    return keep(PROVIDER, fields=fields, forms={"snake_case": snaked or None, **forms})


def _reasoning(values: WireDict, others: WireDict, snaked: list[str], path: str) -> ReasoningPart:
    signature_key = next((k for k in (_SIGNATURE, snake(_SIGNATURE)) if k in others), None)
    signature = None
    if signature_key is not None:
        signature = _reader.field(others, signature_key, path, str)
        del others[signature_key]
        if signature_key != _SIGNATURE:
            snaked = [*snaked, _SIGNATURE]
    return ReasoningPart(
        text=_reader.field(values, "text", path, str),
        signature=signature,
        provider=PROVIDER,
        provider_data=_data(others, snaked),
    )


def _inner(
    raw: Any, path: str, kind: str, modeled: frozenset[str], others: WireDict, snaked: list[str]
) -> WireDict:
    """A part's nested object read in both spellings: its fields beside the
    modeled ones go under its name in the part's fields."""
    values, rest, inner_snaked = spelled(_reader.object(raw, path), modeled)
    if rest:
        others[kind] = rest  # laid over the object built, then spelled as it came
    snaked += [f"{kind}.{name}" for name in inner_snaked]
    return values


def _file(kind: str, raw: Any, others: WireDict, snaked: list[str], path: str) -> FilePart | None:
    modeled = _INLINE_KEYS if kind == "inlineData" else _FILE_KEYS
    values = _inner(raw, path, kind, modeled, others, snaked)
    media_type = values.get("mimeType")
    source = values.get("data" if kind == "inlineData" else "fileUri")
    if not isinstance(media_type, str) or not isinstance(source, str) or len(values) != 2:
        return None  # a file the core has no form for (no media type): kept whole
    data = _data(others, snaked)
    if kind == "inlineData":
        return FilePart(media_type=media_type, data=source, provider_data=data)
    return FilePart(media_type=media_type, url=source, provider_data=data)


def _call(raw: Any, others: WireDict, snaked: list[str], path: str, ids: CallIds) -> ToolCallPart:
    values = _inner(raw, path, "functionCall", _CALL_KEYS, others, snaked)
    name = _reader.field(values, "name", path, str)
    wire_id = _reader.field(values, "id", path, str, None)
    args = _reader.field(values, "args", path, dict, None)
    forms = ToolCallForms()
    if wire_id is None:
        forms["id"] = "made"
    if "args" not in values:
        forms["args"] = "absent"
    if _SIGNATURE not in others and snake(_SIGNATURE) not in others:
        forms["signature"] = "absent"
    return ToolCallPart(
        id=ids.call(wire_id, name, path),
        name=name,
        arguments=dump_arguments(args or {}),
        provider_data=_data(others, snaked, **forms),
    )


def _result(
    raw: Any, others: WireDict, snaked: list[str], path: str, ids: CallIds
) -> ToolResultPart:
    values = _inner(raw, path, "functionResponse", _RESULT_KEYS, others, snaked)
    name = _reader.field(values, "name", path, str)
    wire_id = _reader.field(values, "id", path, str, None)
    forms = ToolResultForms()
    if wire_id is None:
        forms["id"] = "made"
    content: list[ToolResultContent] = []
    response = values.get("response")
    match response:
        case None:
            forms["response"] = "absent"
        case {"output": str() as text} if len(response) == 1:
            content.append(TextPart(text=text))
        case {"error": str() as text} if len(response) == 1:
            content.append(TextPart(text=text))
            forms["response"] = "error"
        case dict():
            content.append(TextPart(text=dump_arguments(response)))
            forms["response"] = "object"
        case _:
            raise _reader.error(f"{path}.response", "expected an object")
    media = _reader.field(values, "parts", path, list, None) or []
    for k, item in enumerate(media):
        inner = decode_part(item, f"{path}.parts[{k}]", role="tool_result", ids=ids)
        content.append(cast(ToolResultContent, inner))
    return ToolResultPart(
        tool_call_id=ids.result(wire_id, name, path),
        name=name,
        content=tuple(content),
        is_error=forms.get("response") == "error",
        provider_data=_data(others, snaked, **forms),
    )


# --- encoding ---


@dataclass(frozen=True)
class CallBook:
    """What encoding a call or a result needs to know of the calls of its
    history: the name of each call by id, and the ids made here, which never go
    to Google. Read from the messages when first asked: the parts of a history
    from Gemini say it themselves, so encoding one never asks."""

    messages: Sequence[Message] = ()

    @property
    def names(self) -> Mapping[str, str]:
        return self._calls[0]

    @property
    def made(self) -> frozenset[str]:
        return self._calls[1]

    @cached_property
    def _calls(self) -> tuple[dict[str, str], frozenset[str]]:
        names: dict[str, str] = {}
        made: set[str] = set()
        for message in self.messages:
            if message.role != "assistant":
                continue  # calls are in assistant messages only (`Message` checks)
            for part in message.parts:
                if isinstance(part, ToolCallPart):
                    names[part.id] = part.name
                    if kept(part, PROVIDER).get("forms", _NO_FORMS).get("id") == "made":
                        made.add(part.id)
        return names, frozenset(made)


_NO_FORMS: Mapping[str, Any] = {}


def part_path(at: PartPath) -> str:
    """The path a loss is reported at: `messages[2].parts[0]`."""
    parts, position = at
    return f"{parts}[{position}]"


def encode_part(
    part: ContentPart, at: PartPath, report: TranslationReport, *, book: CallBook
) -> WireDict | None:
    """The Gemini part for `part`, or None when it is left out (and reported)."""
    entry = kept(part, PROVIDER)
    forms = entry.get("forms", _NO_FORMS)
    # Dispatched on the type tag: an isinstance check that fails costs a Python
    # call (ABCMeta's), and most parts would fail several.
    match part.type:
        case "text":
            wire: WireDict = {"text": part.text}
        case "reasoning":
            if (reason := reasoning_left_out(part)) is not None:
                report.dropped(part_path(at), reason, "setting")
                return None
            wire = {"text": part.text, "thought": True}
            if part.signature is not None:
                wire[_SIGNATURE] = part.signature
        case "tool_call":
            wire = _call_part(part, forms, at, report, book)
        case "tool_result":
            wire = _result_part(part, forms, at, report, book)
        case "file":
            if (reason := file_left_out(part)) is not None:
                report.dropped(part_path(at), reason, "content")
                return None
            if part.provider_data.get(PROVIDER) is None:
                for name, why in unsent_file_fields(part):
                    report.dropped(f"{part_path(at)}.{name}", why, file_field_level(name))
            wire = _file_part(part)
        case "refusal":
            report.transformed(part_path(at), "Gemini has no refusal part; sent as text", "content")
            wire = {"text": part.text}
        case "opaque":
            if (reason := opaque_left_out(part)) is not None:
                report.dropped(part_path(at), reason, "content")
                return None
            return copy_json(part.data)
        case _:
            assert_never(part)
    if fields := entry.get("fields"):
        wire = overlay(wire, copy_json(fields))
    if snaked := forms.get("snake_case"):
        wire = respelled(wire, snaked)
    return wire


def _file_part(part: FilePart) -> WireDict:
    if part.url is not None:
        return {"fileData": {"mimeType": part.media_type, "fileUri": part.url}}
    return {"inlineData": {"mimeType": part.media_type, "data": part.data or ""}}


def _call_part(
    part: ToolCallPart,
    forms: Mapping[str, Any],
    at: PartPath,
    report: TranslationReport,
    book: CallBook,
) -> WireDict:
    try:
        args = part.parsed_arguments()
    except ToolArgumentsError as exc:
        report.transformed(part_path(at), f"{exc}; sent with args {{}}", "content")
        args = {}
    call: WireDict = {"name": part.name}
    if args or forms.get("args") != "absent":
        call["args"] = args
    if forms.get("id") != "made" and part.id not in book.made:
        call["id"] = part.id
    return {"functionCall": call}


def _result_part(
    part: ToolResultPart,
    forms: Mapping[str, Any],
    at: PartPath,
    report: TranslationReport,
    book: CallBook,
) -> WireDict:
    name = part.name or book.names.get(part.tool_call_id)
    if name is None:
        problem = f"Gemini needs the function's name; no call has the id {part.tool_call_id!r}"
        raise InvalidDataError([(f"{part_path(at)}.name", problem)])
    result: WireDict = {"name": name}
    texts: list[str] = []
    media: list[ToolResultContent] = []
    moved = False  # a text came after a file
    for item in part.content:
        if isinstance(item, TextPart):
            texts.append(item.text)
            moved = moved or bool(media)
        else:
            media.append(item)
    if moved:
        report.transformed(f"{part_path(at)}.content", RESULT_TEXT_FIRST, "content")
    if (response := _response("\n\n".join(texts), part, forms.get("response"))) is not None:
        result["response"] = response
    if forms.get("id") != "made" and part.tool_call_id not in book.made:
        result["id"] = part.tool_call_id
    if media:
        content_path = f"{part_path(at)}.content"
        sent = (
            encode_part(item, (content_path, k), report, book=book) for k, item in enumerate(media)
        )
        result["parts"] = [wire for wire in sent if wire is not None]
    return {"functionResponse": result}


def _response(text: str, part: ToolResultPart, form: str | None) -> WireDict | None:
    """Google's way: "Use 'output' key to specify function output and 'error'
    key to specify error details", the rest of the object as the tool wrote it."""
    if form == "absent" and not text:
        return None
    if form == "object":
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if isinstance(value, dict):
            return value
    return {"error" if part.is_error else "output": text}
