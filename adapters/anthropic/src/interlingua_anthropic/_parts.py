"""Content blocks: one Anthropic block <-> one core part.

    block                                       part
    text                                        TextPart
    image: base64 jpeg/png/gif/webp, url, file  FilePart
    document: base64 PDF, text (text/plain),    FilePart (the `title` is its filename)
      url, file
    thinking                                    ReasoningPart(text, signature, provider="anthropic")
    redacted_thinking                           ReasoningPart(redacted_data, provider="anthropic")
    tool_use                                    ToolCallPart (`input` as JSON text)
    tool_result                                 ToolResultPart
    anything else (server_tool_use,             OpaquePart(provider="anthropic"), the block whole
      web_search_tool_result, unknown types,
      any other source or media type)

A `file` source's part has `provider="anthropic"`: the id points into
Anthropic's file store.

Invariant: `encode_part(decode_block(block)) == block` for every block Anthropic
sends. The part holds the fields the core models; its provider data's `fields`
hold the rest verbatim (`cache_control`, `citations`, `caller`, a null the API
echoed), found with `leftover` against the block the part's own fields give.
A tool result whose content was a one-text-block list has the form
`content: "blocks"`, since a lone plain text goes as a string by default. A
block inside a tool result that the core does not model (a `search_result`,
say) is an OpaquePart of its content.

Encoding is where a part from any provider meets Anthropic's rules (`_rules`):
what Anthropic cannot take is left out (or changed) on the wire and reported
with the part's path. What a block may hold depends on where it goes
(`BlockRole`).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Collection, Mapping, Sequence
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
    ProviderEntry,
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
)
from interlingua_anthropic._rules import (
    IMAGE_MEDIA_TYPES,
    REFUSAL_AS_TEXT,
    TOOL_ID_CHARACTERS,
    empty_text,
    file_changed,
    file_left_out,
    opaque_left_out,
    reasoning_left_out,
    unsent_file_fields,
)
from interlingua_anthropic._wire import (
    DIRECT_CALLER,
    PROVIDER,
    BlockRole,
    DocumentBlock,
    ImageBlock,
    KeptData,
    RedactedThinkingBlock,
    Source,
    TextBlock,
    ThinkingBlock,
    ToolCallForms,
    ToolResultBlock,
    ToolResultForms,
    ToolUseBlock,
    WireDict,
)

__all__ = ["decode_block", "encode_part", "plain_text", "said_caller"]

# A file given by URL or file id carries no media type on the wire.
URL_IMAGE_MEDIA_TYPE = "image/*"
URL_DOCUMENT_MEDIA_TYPE = "application/pdf"

_reader = WireReader(PROVIDER)

Decoder = Callable[[WireDict, str], "ContentPart | None"]


# --- decoding ---


def decode_block(
    raw: Any, path: str, *, role: BlockRole, names: Mapping[str, str] | None = None
) -> ContentPart:
    """The part for one block of a `role` turn, of the system prompt, or of a tool
    result's content (`role="tool_result"`); `names` names the tools of the calls
    a user turn's results answer (the wire does not)."""
    block = _reader.object(raw, path)
    kind = _reader.field(block, "type", path, str)
    if kind == "tool_result" and role == "user":
        return _tool_result(block, path, names or {})
    decoder = _DECODERS[role].get(kind)
    part = decoder(block, path) if decoder is not None else None
    return OpaquePart(provider=PROVIDER, data=block) if part is None else part


def _kept(
    block: WireDict, modeled: Collection[str], forms: Mapping[str, Any] | None = None
) -> KeptData:
    """The block's fields beside the `modeled` ones (all of them strings, whose
    own fields nothing keeps), and its `forms`, as the part's provider data:
    `leftover` of the block the part gives, without building that block."""
    if len(block) == len(modeled):  # the modeled keys are all there: nothing else is
        return {"provider_data": keep(PROVIDER, forms=forms)} if forms else {}
    return {"provider_data": keep(PROVIDER, fields=other_fields(block, modeled), forms=forms)}


_TEXT_KEYS = frozenset({"type", "text"})
_THINKING_KEYS = frozenset({"type", "thinking", "signature"})
_REDACTED_KEYS = frozenset({"type", "data"})
# `input` is an object, but the one the part gives back has the same keys: no
# field of it is ever kept apart.
_TOOL_USE_KEYS = frozenset({"type", "id", "name", "input"})
_DIRECT_CALL = ToolCallForms(caller="direct")


def _text(block: WireDict, path: str) -> TextPart:
    text = _reader.field(block, "text", path, str)
    return TextPart(text=text, **_kept(block, _TEXT_KEYS))


def _thinking(block: WireDict, path: str) -> ReasoningPart:
    return ReasoningPart(
        text=_reader.field(block, "thinking", path, str),
        signature=_reader.field(block, "signature", path, str),
        provider=PROVIDER,
        **_kept(block, _THINKING_KEYS),
    )


def _redacted_thinking(block: WireDict, path: str) -> ReasoningPart:
    return ReasoningPart(
        redacted_data=_reader.field(block, "data", path, str),
        provider=PROVIDER,
        **_kept(block, _REDACTED_KEYS),
    )


def _tool_use(block: WireDict, path: str) -> ToolCallPart:
    data = _kept(block, _TOOL_USE_KEYS)
    if block.get("caller") == DIRECT_CALLER:
        # The one kind of call the core holds, said outright: a form, no field of its own.
        fields = other_fields(block, _TOOL_USE_KEYS | {"caller"})
        data = {"provider_data": keep(PROVIDER, fields=fields, forms=_DIRECT_CALL)}
    return ToolCallPart(
        id=_reader.field(block, "id", path, str),
        name=_reader.field(block, "name", path, str),
        arguments=dump_arguments(_reader.field(block, "input", path, dict)),
        **data,
    )


def _image(block: WireDict, path: str) -> FilePart | None:
    return _with_leftover(block, _file(block, path, "image", filename=None))


def _document(block: WireDict, path: str) -> FilePart | None:
    title = _reader.field(block, "title", path, str, None)
    return _with_leftover(block, _file(block, path, "document", filename=title))


def _with_leftover(block: WireDict, part: FilePart | None) -> FilePart | None:
    """A file part with the fields of its block that its own block does not give
    (a source's nested fields are compared field by field)."""
    if part is None or not (fields := leftover(block, _file_block(part))):
        return part
    return part.model_copy(update={"provider_data": keep(PROVIDER, fields=fields)})


FileBlock = Literal["image", "document"]

# The inline media types a FilePart stands for in each block. A base64 source of
# any other type (a `text/plain` document in base64, say) is kept whole: its
# FilePart would go back as another block, or not at all.
_INLINE: dict[FileBlock, frozenset[str]] = {
    "image": IMAGE_MEDIA_TYPES,
    "document": frozenset({"application/pdf"}),
}

# The media type of a file given by URL or file id, which the wire does not say.
_BY_REFERENCE: dict[FileBlock, str] = {
    "image": URL_IMAGE_MEDIA_TYPE,
    "document": URL_DOCUMENT_MEDIA_TYPE,
}


def _file(block: WireDict, path: str, kind: FileBlock, *, filename: str | None) -> FilePart | None:
    """A file from the block's `source`; None for a source the core has no form for."""
    where = f"{path}.source"
    source = _reader.field(block, "source", path, dict)
    match _reader.field(source, "type", where, str):
        case "base64":
            media_type = _reader.field(source, "media_type", where, str)
            data = _reader.field(source, "data", where, str)
            if media_type not in _INLINE[kind]:
                return None
            return FilePart(media_type=media_type, data=data, filename=filename)
        case "text" if kind == "document":
            return _text_document(source, where, filename)
        case "url":
            url = _reader.field(source, "url", where, str)
            return FilePart(media_type=_BY_REFERENCE[kind], url=url, filename=filename)
        case "file":
            file_id = _reader.field(source, "file_id", where, str)
            return FilePart(
                media_type=_BY_REFERENCE[kind],
                file_id=file_id,
                provider=PROVIDER,
                filename=filename,
            )
        case _:
            return None


def _text_document(source: WireDict, where: str, filename: str | None) -> FilePart | None:
    """A plain-text document (its text in `data`, not base64); None for another
    media type, or text that is no Unicode (a lone surrogate), which base64 cannot hold."""
    media_type = _reader.field(source, "media_type", where, str)
    text = _reader.field(source, "data", where, str)
    if media_type != "text/plain":
        return None
    try:
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    except UnicodeEncodeError:
        return None
    return FilePart(media_type=media_type, data=data, filename=filename)


def _tool_result(block: WireDict, path: str, names: Mapping[str, str]) -> ToolResultPart:
    """A `tool_result` block, named after the call it answers."""
    content = block.get("content")
    match content:
        case None:
            parts: tuple[ToolResultContent, ...] = ()
        case str():
            parts = (TextPart(text=content),)
        case list():
            parts = tuple(
                _result_content(item, f"{path}.content[{k}]") for k, item in enumerate(content)
            )
        case _:
            raise _reader.error(f"{path}.content", "expected a string or an array")
    tool_call_id = _reader.field(block, "tool_use_id", path, str)
    is_error = _reader.field(block, "is_error", path, bool, False) is True
    # What the part's block gives: an empty content and `is_error: false` are not written.
    modeled = {"type", "tool_use_id", *(("content",) if parts else ()), *(("is_error",) * is_error)}
    listed = isinstance(content, list) and plain_text(content) is not None
    forms = ToolResultForms(content="blocks") if listed else None
    return ToolResultPart(
        tool_call_id=tool_call_id,
        name=names.get(tool_call_id),
        content=parts,
        is_error=is_error,
        **_kept(block, modeled, forms),
    )


def _result_content(raw: Any, path: str) -> ToolResultContent:
    part = decode_block(raw, path, role="tool_result")
    assert isinstance(part, TextPart | FilePart | OpaquePart)  # the decoders for "tool_result"
    return part


_CONTENT_DECODERS: dict[str, Decoder] = {"text": _text, "image": _image, "document": _document}

_DECODERS: dict[BlockRole, dict[str, Decoder]] = {
    "system": {"text": _text},
    "user": _CONTENT_DECODERS,
    "assistant": {
        "text": _text,
        "thinking": _thinking,
        "redacted_thinking": _redacted_thinking,
        "tool_use": _tool_use,
    },
    "tool_result": _CONTENT_DECODERS,
}


# --- the block a part's own fields give ---


def plain_text(blocks: Sequence[Mapping[str, Any]]) -> str | None:
    """The text of a list holding one text block and nothing else, which goes as a string."""
    if len(blocks) != 1:
        return None
    block = blocks[0]
    if block.get("type") != "text" or len(block) != 2 or "text" not in block:
        return None
    text = block["text"]
    return text if isinstance(text, str) else None


def _file_block(part: FilePart) -> ImageBlock | DocumentBlock:
    if part.kind == "image":
        return {"type": "image", "source": _source(part)}
    block: DocumentBlock = {"type": "document", "source": _source(part)}
    if part.filename is not None:
        block["title"] = part.filename
    return block


def _source(part: FilePart) -> Source:
    if part.url is not None:
        return {"type": "url", "url": part.url}
    if part.file_id is not None:
        return {"type": "file", "file_id": part.file_id}
    if part.kind == "text":
        # Quirk: Anthropic takes a plain-text document as the text itself, not base64.
        text = part.content().decode("utf-8")
        return {"type": "text", "media_type": "text/plain", "data": text}
    return {"type": "base64", "media_type": part.media_type, "data": part.data or ""}


def _tool_result_block(
    part: ToolResultPart, path: str, report: TranslationReport, *, in_request: bool
) -> ToolResultBlock:
    tool_use_id = fitted_tool_call_id(
        part.tool_call_id, f"{path}.tool_call_id", report, allowed=TOOL_ID_CHARACTERS
    )
    block: ToolResultBlock = {"type": "tool_result", "tool_use_id": tool_use_id}
    forms = cast(ToolResultForms, kept(part, PROVIDER).get("forms", {}))
    if part.content:
        blocks = []
        for k, inner in enumerate(part.content):
            where = f"{path}.content[{k}]"
            encoded = encode_part(inner, where, report, role="tool_result", in_request=in_request)
            if encoded is not None:
                blocks.append(encoded)
        text = plain_text(blocks)
        if text is None or forms.get("content") == "blocks":
            block["content"] = blocks
        else:
            block["content"] = text
    if part.is_error:
        block["is_error"] = True
    return block


# --- encoding, with what Anthropic cannot take reported ---


def encode_part(
    part: ContentPart,
    path: str,
    report: TranslationReport,
    *,
    role: BlockRole,
    in_request: bool,
) -> WireDict | None:
    """The block for `part` in a `role` turn (or a tool result's content), or None
    when it is left out (and reported). `in_request` applies the rules the API
    holds requests to (no empty text)."""
    match part:
        case TextPart() | RefusalPart():
            if in_request and (reason := empty_text(part.text)) is not None:
                report.dropped(path, reason, "hint")
                return None
            if part.type == "refusal":  # the tag: no isinstance check per text part
                report.transformed(path, REFUSAL_AS_TEXT, "content")
            text: TextBlock = {"type": "text", "text": part.text}
            block: Mapping[str, Any] = text
        case ReasoningPart():
            if (reason := reasoning_left_out(part)) is not None:
                report.dropped(path, reason, "setting")
                return None
            block = _reasoning_block(part)
        case ToolCallPart():
            block = _tool_use_block(part, path, report)
        case ToolResultPart():
            block = _tool_result_block(part, path, report, in_request=in_request)
        case FilePart():
            if (reason := file_left_out(part, role)) is not None:
                report.dropped(path, reason, "content")
                return None
            _report_file_changes(part, path, report)
            block = _file_block(part)
        case OpaquePart():
            if (reason := opaque_left_out(part)) is not None:
                report.dropped(path, reason, "content")
                return None
            return copy_json(part.data)
        case _:
            assert_never(part)
    fields = kept(part, PROVIDER).get("fields")
    return overlay(block, copy_json(fields)) if fields else cast(WireDict, block)


def _reasoning_block(part: ReasoningPart) -> RedactedThinkingBlock | ThinkingBlock:
    if part.redacted_data is not None:
        return {"type": "redacted_thinking", "data": part.redacted_data}
    return {"type": "thinking", "thinking": part.text, "signature": part.signature or ""}


def _tool_use_block(part: ToolCallPart, path: str, report: TranslationReport) -> ToolUseBlock:
    try:
        arguments = part.parsed_arguments()
    except ToolArgumentsError as exc:
        report.transformed(path, f"{exc}; sent with input {{}}", "content")
        arguments = {}
    tool_use_id = fitted_tool_call_id(part.id, f"{path}.id", report, allowed=TOOL_ID_CHARACTERS)
    block: ToolUseBlock = {
        "type": "tool_use",
        "id": tool_use_id,
        "name": part.name,
        "input": arguments,
    }
    if (caller := said_caller(kept(part, PROVIDER))) is not None:
        block["caller"] = caller
    return block


def said_caller(entry: ProviderEntry) -> dict[str, str] | None:
    """The `caller` of a call's tool_use block, where its forms say it came outright."""
    return dict(DIRECT_CALLER) if entry.get("forms", {}).get("caller") == "direct" else None


def _report_file_changes(part: FilePart, path: str, report: TranslationReport) -> None:
    if (reason := file_changed(part)) is not None:
        report.transformed(path, reason, "content")
    for field, reason in unsent_file_fields(part):
        report.dropped(f"{path}.{field}", reason, file_field_level(field))
