"""Content blocks: one Converse block <-> one core part.

    block (its one member)                      part
    text                                        TextPart
    guardContent {text: {text, qualifiers}}     TextPart (form `block: "guardContent"`)
    citationsContent {content: [{text}],        TextPart (form `block: "citationsContent"`,
      citations}                                the citations its field)
    image, document, video {format, source}     FilePart: `bytes` its base64 `data`,
                                                `s3Location.uri` its `file_id` (provider
                                                "bedrock"); a document's `name` its filename
    reasoningContent {reasoningText}            ReasoningPart(text, signature, provider="bedrock")
    reasoningContent {redactedContent}          ReasoningPart(redacted_data, provider="bedrock")
    toolUse                                     ToolCallPart (`input` as JSON text)
    toolResult (in a user turn)                 ToolResultPart: `status: "error"` is is_error;
                                                its `json` content a TextPart of that JSON
                                                (form `block: "json"`)
    cachePoint after a block                    that part's field `cachePoint`
    anything else (a server tool's toolUse      OpaquePart(provider="bedrock"), the block whole
      and toolResult, searchResult, a document
      given as text, a cachePoint first in its
      list, unknown members)

Invariant: `encode_part(decode_block(block)) == block` for every block
Converse sends or takes. A part's provider data `fields` hold its member
object's other fields verbatim, and `cachePoint`, the cache point sent as a
block of its own right after it (Converse's form of Anthropic's
`cache_control` on the block).

Encoding is where a part from any provider meets Converse's rules (`_rules`):
what Converse cannot take is left out (or changed) on the wire and reported
with the part's path.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping
from typing import Any, Literal, cast

from typing_extensions import assert_never

from interlingua import (
    ContentPart,
    FilePart,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
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
    fitted_tool_call_id,
    keep,
    kept,
    leftover,
    other_fields,
    overlay,
    standard_base64,
)
from interlingua_bedrock._rules import (
    EMPTY_ERROR,
    TOOL_ID_CHARACTERS,
    TOOL_ID_MAX_LENGTH,
    blank_text,
    file_format,
    file_left_out,
    fit_document_name,
    media_type,
    moved_out_of_result,
    opaque_left_out,
    reasoning_left_out,
    unsent_file_fields,
)
from interlingua_bedrock._wire import (
    CACHE_POINT,
    PROVIDER,
    PartForms,
    ToolResultForms,
    WireDict,
)

__all__ = ["BlockRole", "decode_blocks", "encode_part", "is_cache_point"]

# Where a block goes: a turn, the system prompt, or a tool result's content.
BlockRole = Literal["system", "user", "assistant", "tool_result"]

_reader = WireReader(PROVIDER)

Decoder = Callable[[Any, WireDict, str], "ContentPart | None"]

_SERVER_CALL = "server_tool_use"
_TOOL_USE_KEYS = frozenset({"toolUseId", "name", "input"})
_TOOL_RESULT_KEYS = frozenset({"toolUseId", "content", "status"})
_REASONING_KEYS = frozenset({"text", "signature"})


def is_cache_point(block: Any) -> bool:
    return isinstance(block, dict) and len(block) == 1 and CACHE_POINT in block


# --- decoding ---


def decode_blocks(
    blocks: list[Any], path: str, *, role: BlockRole, names: Mapping[str, str] | None = None
) -> list[ContentPart]:
    """The parts of a list of blocks; a cache point goes with the part before
    it. `names` names the tools of the calls a user turn's results answer."""
    parts: list[ContentPart] = []
    skip = False
    for k, raw in enumerate(blocks):
        if skip:
            skip = False
            continue
        following: Any = blocks[k + 1] if k + 1 < len(blocks) else None
        point = following.get(CACHE_POINT) if is_cache_point(following) else None
        block = _reader.object(raw, f"{path}[{k}]")
        part = _decode_block(block, f"{path}[{k}]", role, names or {}, point)
        skip = point is not None and part.type != "opaque"
        parts.append(part)
    return parts


def _decode_block(
    block: WireDict, path: str, role: BlockRole, names: Mapping[str, str], point: Any
) -> ContentPart:
    part: ContentPart | None = None
    if len(block) == 1:
        (member, value), extra = next(iter(block.items())), ({CACHE_POINT: point} if point else {})
        decoder = _DECODERS[role].get(member)
        if member == "toolResult" and role == "user":
            part = _tool_result(value, f"{path}.toolResult", names, extra)
        elif decoder is not None:
            part = decoder(value, extra, f"{path}.{member}")
    return OpaquePart(provider=PROVIDER, data=block) if part is None else part


def _data(fields: Mapping[str, Any], forms: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The part's `provider_data` keyword, left out when nothing is kept."""
    return {"provider_data": keep(PROVIDER, fields=fields, forms=forms)} if fields or forms else {}


def _text(value: Any, extra: WireDict, path: str) -> TextPart | None:
    return TextPart(text=value, **_data(extra)) if isinstance(value, str) else None


def _guard(value: Any, extra: WireDict, path: str) -> TextPart | None:
    inner = value.get("text") if isinstance(value, dict) and len(value) == 1 else None
    if not isinstance(inner, dict) or not isinstance(inner.get("text"), str):
        return None  # a guarded image is kept whole
    fields = {**other_fields(inner, ("text",)), **extra}
    return TextPart(text=inner["text"], **_data(fields, PartForms(block="guardContent")))


def _cited(value: Any, extra: WireDict, path: str) -> TextPart | None:
    content = value.get("content") if isinstance(value, dict) else None
    if not isinstance(content, list) or len(content) != 1 or not _is_text(content[0]):
        return None
    fields = {**other_fields(value, ("content",)), **extra}
    return TextPart(text=content[0]["text"], **_data(fields, PartForms(block="citationsContent")))


def _is_text(block: Any) -> bool:
    return isinstance(block, dict) and len(block) == 1 and isinstance(block.get("text"), str)


def _file(kind: str) -> Decoder:
    def decode(value: Any, extra: WireDict, path: str) -> FilePart | None:
        wire = _reader.object(value, path)
        format, source = wire.get("format"), _reader.field(wire, "source", path, dict)
        name = wire.get("name") if kind == "document" else None
        if not isinstance(format, str) or (media := media_type(kind, format)) is None:
            return None
        if kind == "document" and not isinstance(name, str):
            return None
        if (data := _base64(source.get("bytes"))) is not None:
            given: dict[str, Any] = {"data": data}
            built: WireDict = {"bytes": data}
        elif isinstance(uri := _s3_uri(source.get("s3Location")), str):
            given = {"file_id": uri, "provider": PROVIDER}
            built = {"s3Location": {"uri": uri}}
        else:
            return None  # a document given as text or content blocks is kept whole
        member = {
            "format": format,
            "source": built,
            **({"name": name} if kind == "document" else {}),
        }
        fields = {**leftover(wire, member), **extra}
        return FilePart(media_type=media, filename=name, **given, **_data(fields))

    return decode


def _s3_uri(location: Any) -> Any:
    return location.get("uri") if isinstance(location, dict) else None


def _base64(value: Any) -> str | None:
    """A blob as the body writes it, base64; boto3 gives it decoded, as bytes."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value if isinstance(value, str) else None


def _reasoning(value: Any, extra: WireDict, path: str) -> ReasoningPart | None:
    wire = _reader.object(value, path)
    if len(wire) != 1:
        return None
    if (redacted := _base64(wire.get("redactedContent"))) is not None:
        return ReasoningPart(redacted_data=redacted, provider=PROVIDER, **_data(extra))
    text = wire.get("reasoningText")
    if not isinstance(text, dict) or not text.keys() <= _REASONING_KEYS:
        return None
    return ReasoningPart(
        text=_reader.field(text, "text", f"{path}.reasoningText", str),
        signature=_reader.field(text, "signature", f"{path}.reasoningText", str, None),
        provider=PROVIDER,
        **_data(extra),
    )


def _tool_use(value: Any, extra: WireDict, path: str) -> ToolCallPart | None:
    wire = _reader.object(value, path)
    if wire.get("type") == _SERVER_CALL:
        return None  # a call the server ran itself: kept whole, with its result
    return ToolCallPart(
        id=_reader.field(wire, "toolUseId", path, str),
        name=_reader.field(wire, "name", path, str),
        arguments=dump_arguments(wire.get("input")),
        **_data({**other_fields(wire, _TOOL_USE_KEYS), **extra}),
    )


def _tool_result(
    value: Any, path: str, names: Mapping[str, str], extra: WireDict
) -> ToolResultPart:
    wire = _reader.object(value, path)
    tool_call_id = _reader.field(wire, "toolUseId", path, str)
    content = _reader.field(wire, "content", path, list)
    status = _reader.field(wire, "status", path, str, None)
    parts = decode_blocks(content, f"{path}.content", role="tool_result")
    fields = {**other_fields(wire, _TOOL_RESULT_KEYS), **extra}
    if status not in (None, "success", "error"):
        fields["status"] = status
    forms = ToolResultForms(status="absent") if status is None else None
    return ToolResultPart(
        tool_call_id=tool_call_id,
        name=names.get(tool_call_id),
        content=tuple(cast(list[ToolResultContent], parts)),
        is_error=status == "error",
        **_data(fields, forms),
    )


def _json(value: Any, extra: WireDict, path: str) -> TextPart:
    return TextPart(text=dump_arguments(value), **_data(extra, PartForms(block="json")))


_MEDIA: dict[str, Decoder] = {
    "image": _file("image"),
    "document": _file("document"),
    "video": _file("video"),
}
_DECODERS: dict[BlockRole, dict[str, Decoder]] = {
    "system": {"text": _text, "guardContent": _guard},
    "user": {"text": _text, "guardContent": _guard, **_MEDIA},
    "assistant": {
        "text": _text,
        "reasoningContent": _reasoning,
        "toolUse": _tool_use,
        "citationsContent": _cited,
    },
    "tool_result": {"text": _text, "json": _json, **_MEDIA},
}


# --- encoding, with what Converse cannot take reported ---


def encode_part(
    part: ContentPart,
    path: str,
    report: TranslationReport,
    *,
    model: str = "",
    in_request: bool,
    in_result: bool = False,
) -> list[WireDict]:
    """The blocks for `part` (its own, and the cache point after it), or none
    when it is left out (and reported). `in_request` applies the rules the API
    holds requests to (no blank text); `model` is the model id sent to."""
    fields = kept(part, PROVIDER).get("fields", {}) if part.type != "opaque" else {}
    match part:
        case TextPart() | RefusalPart():
            if in_request and (reason := blank_text(part.text)) is not None:
                report.dropped(path, reason, "hint")
                return []
            if part.type == "refusal":
                report.transformed(path, "a refusal is sent as text; Converse has none", "content")
            block = _text_block(part, fields)
        case ReasoningPart():
            if (reason := reasoning_left_out(part, model)) is not None:
                report.dropped(path, reason, "setting")
                return []
            block = {"reasoningContent": _reasoning_member(part)}
        case ToolCallPart():
            block = {"toolUse": overlay(_tool_use_member(part, path, report), _own(fields))}
        case ToolResultPart():
            member, after = _tool_result_member(part, path, report, model, fields)
            return [{"toolResult": member}, *after]
        case FilePart():
            if (reason := file_left_out(part, model, in_result=in_result)) is not None:
                report.dropped(path, reason, "content")
                return []
            block = _file_block(part, path, report, fields)
        case OpaquePart():
            if (reason := opaque_left_out(part)) is not None:
                report.dropped(path, reason, "content")
                return []
            return [copy_json(part.data)]
        case _:
            assert_never(part)
    point = fields.get(CACHE_POINT)
    return [block] if point is None else [block, {CACHE_POINT: copy_json(point)}]


def _own(fields: Mapping[str, Any]) -> WireDict:
    """A copy of the member object's own kept fields (not the cache point after it)."""
    return {key: copy_json(value) for key, value in fields.items() if key != CACHE_POINT}


def _text_block(part: TextPart | RefusalPart, fields: Mapping[str, Any]) -> WireDict:
    match kept(part, PROVIDER).get("forms", {}).get("block"):
        case "guardContent":
            return {"guardContent": {"text": overlay({"text": part.text}, _own(fields))}}
        case "citationsContent":
            return {"citationsContent": overlay({"content": [{"text": part.text}]}, _own(fields))}
        case _:
            return {"text": part.text}


def _reasoning_member(part: ReasoningPart) -> WireDict:
    if part.redacted_data is not None:
        return {"redactedContent": part.redacted_data}
    text: WireDict = {"text": part.text}
    if part.signature is not None:
        text["signature"] = part.signature
    return {"reasoningText": text}


def _tool_use_member(part: ToolCallPart, path: str, report: TranslationReport) -> WireDict:
    try:
        arguments = part.parsed_arguments()
    except ToolArgumentsError as exc:
        report.transformed(path, f"{exc}; sent with input {{}}", "content")
        arguments = {}
    tool_use_id = fitted_tool_call_id(
        part.id, f"{path}.id", report, allowed=TOOL_ID_CHARACTERS, max_length=TOOL_ID_MAX_LENGTH
    )
    return {"toolUseId": tool_use_id, "name": part.name, "input": arguments}


def _tool_result_member(
    part: ToolResultPart,
    path: str,
    report: TranslationReport,
    model: str,
    fields: Mapping[str, Any],
) -> tuple[WireDict, list[WireDict]]:
    """The toolResult member, and the blocks that go after its block: its cache
    point, and files moved out of it."""
    tool_use_id = fitted_tool_call_id(
        part.tool_call_id,
        f"{path}.tool_call_id",
        report,
        allowed=TOOL_ID_CHARACTERS,
        max_length=TOOL_ID_MAX_LENGTH,
    )
    content: list[WireDict] = []
    after: list[WireDict] = []  # blocks moved out of the result, to go right after it
    for k, inner in enumerate(part.content):
        where = f"{path}.content[{k}]"
        if isinstance(inner, TextPart) and _forms(inner).get("block") == "json":
            content.append({"json": json.loads(inner.text)})
        elif isinstance(inner, FilePart) and (moved := moved_out_of_result(inner, model)):
            report.transformed(where, moved, "content")
            after += encode_part(inner, where, report, model=model, in_request=True)
        else:
            content += encode_part(
                inner, where, report, model=model, in_request=True, in_result=True
            )
    if part.is_error and not content:
        report.transformed(
            path, f"an error result with no content goes with {EMPTY_ERROR!r}", "hint"
        )
        content = [{"text": EMPTY_ERROR}]
    member: WireDict = {"toolUseId": tool_use_id, "content": content}
    if part.is_error or _forms(part).get("status") != "absent":
        member["status"] = "error" if part.is_error else "success"
    point = fields.get(CACHE_POINT)
    return overlay(member, _own(fields)), after if point is None else [
        {CACHE_POINT: copy_json(point)},
        *after,
    ]


def _forms(part: Any) -> Mapping[str, Any]:
    return cast(Mapping[str, Any], kept(part, PROVIDER).get("forms", {}))


def _file_member(part: FilePart, kind: str, format: str, name: str | None) -> WireDict:
    source: WireDict = (
        {"bytes": standard_base64(part.data)}
        if part.data is not None
        else {"s3Location": {"uri": part.file_id}}
    )
    if kind == "document":
        return {"format": format, "name": name, "source": source}
    return {"format": format, "source": source}


def _file_block(
    part: FilePart, path: str, report: TranslationReport, fields: Mapping[str, Any]
) -> WireDict:
    kind, format = cast(tuple[str, str], file_format(part))
    for field, reason in unsent_file_fields(part):
        report.dropped(f"{path}.{field}", reason, file_field_level(field))
    name = fit_document_name(part, path, report) if kind == "document" else None
    return {kind: overlay(_file_member(part, kind, format, name), _own(fields))}
