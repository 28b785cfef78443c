"""What Converse accepts: every rule, with the API's own words, in one place.

Parts (`blank_text`, `reasoning_left_out`, `file_left_out`, `opaque_left_out`,
`unsent_file_fields`, `TOOL_ID_CHARACTERS`, `fit_document_name`): what
Converse cannot take is left out (or changed) on the wire and reported.

Media travel by a `format` of Converse's own, not a media type: the tables
below give both ways (`IMAGE_FORMATS`, `DOCUMENT_FORMATS`, `VIDEO_FORMATS`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

from interlingua import (
    FilePart,
    Message,
    OpaquePart,
    ReasoningPart,
    ToolCallPart,
    ToolResultPart,
    ToolSpec,
    TranslationReport,
)
from interlingua.codec import signed_by_claude
from interlingua_bedrock._wire import PROVIDER

__all__ = [
    "DOCUMENT_FORMATS",
    "EMPTY_ERROR",
    "IMAGE_FORMATS",
    "TOOLS_DECLARED",
    "TOOL_ID_CHARACTERS",
    "TOOL_ID_MAX_LENGTH",
    "VIDEO_FORMATS",
    "blank_text",
    "called_tools",
    "file_format",
    "file_left_out",
    "fit_document_name",
    "fit_thinking_settings",
    "media_type",
    "moved_out_of_result",
    "opaque_left_out",
    "reasoning_left_out",
    "unsent_file_fields",
]

# Quirk: a toolUseId is 1 to 64 of [a-zA-Z0-9_.:-] (the API reference's `ToolUseBlock`;
# Kimi's `functions.get_temperature:0` went back and was taken).
TOOL_ID_CHARACTERS = "a-zA-Z0-9_.:-"
TOOL_ID_MAX_LENGTH = 64

# `ImageBlock.format`: "png | jpeg | gif | webp".
IMAGE_FORMATS: Mapping[str, str] = {
    "png": "image/png",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
}
# `DocumentBlock.format`: "pdf | csv | doc | docx | xls | xlsx | html | txt | md".
DOCUMENT_FORMATS: Mapping[str, str] = {
    "pdf": "application/pdf",
    "csv": "text/csv",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "html": "text/html",
    "txt": "text/plain",
    "md": "text/markdown",
}
# `VideoBlock.format`: "mkv | mov | mp4 | webm | flv | mpeg | mpg | wmv | three_gp".
VIDEO_FORMATS: Mapping[str, str] = {
    "mkv": "video/x-matroska",
    "mov": "video/quicktime",
    "mp4": "video/mp4",
    "webm": "video/webm",
    "flv": "video/x-flv",
    "mpeg": "video/mpeg",
    "mpg": "video/mpg",
    "wmv": "video/x-ms-wmv",
    "three_gp": "video/3gpp",
}
FORMATS: Mapping[str, Mapping[str, str]] = {
    "image": IMAGE_FORMATS,
    "document": DOCUMENT_FORMATS,
    "video": VIDEO_FORMATS,
}
_BY_MEDIA_TYPE: Mapping[str, tuple[str, str]] = {
    media: (block, format) for block, table in FORMATS.items() for format, media in table.items()
}

# Quirk: a document's `name` "can only contain ... alphanumeric characters, whitespace
# characters (no more than one in a row), hyphens, parentheses, square brackets", 1 to 200
# of them (the API reference's `DocumentBlock`).
_NAME_REFUSED = re.compile(r"[^A-Za-z0-9\s\-()\[\]]+")
_NAME_MAX_LENGTH = 200

_CLAUDE = re.compile(r"anthropic\.claude")
_NOVA = re.compile(r"amazon\.nova")


def media_type(block: str, format: str) -> str | None:
    """The media type of a `block` (`image`, `document`, `video`) of `format`."""
    return FORMATS[block].get(format)


def file_format(part: FilePart) -> tuple[str, str] | None:
    """The block and `format` a file goes as, or None when Converse has none."""
    return _BY_MEDIA_TYPE.get(part.media_type)


def blank_text(text: str) -> str | None:
    """Why a text block of a request cannot go, or None."""
    # Quirk: Converse rejects an empty text ("The text field in the ContentBlock object at
    # messages.N.content.M is blank. Add text to the text field, and try again."), as users
    # report; a text of a newline alone was taken (recorded: 200).
    if text:
        return None
    return (
        "empty text; Converse rejects it ('The text field in the ContentBlock object ... is blank')"
    )


def reasoning_left_out(part: ReasoningPart, model: str = "") -> str | None:
    """Why `part` cannot go to `model` (none where it can): reasoning goes back
    where it was made, and Claude's signed thinking to Claude on any platform."""
    if part.provider == PROVIDER:
        return None
    if signed_by_claude(part) and _CLAUDE.search(model):
        return None
    made_by = part.provider or "an unknown provider"
    return f"reasoning made by {made_by} goes back to {made_by} only"


def opaque_left_out(part: OpaquePart) -> str | None:
    if part.provider == PROVIDER:
        return None
    kind = part.block_type or next(iter(part.data), "block")
    return f"a {part.provider} block ({kind}) goes back to {part.provider} only"


def file_left_out(part: FilePart, model: str, *, in_result: bool) -> str | None:
    """Why a file cannot go to `model` (its id as sent, or empty) in a turn or
    in a tool result (`in_result`), or None."""
    if part.url is not None:
        return "Converse takes media as bytes or an s3Location, not by URL"
    if part.file_id is not None and part.provider != PROVIDER:
        made_by = part.provider or "another provider"
        return f"a file id of {made_by}'s file store, which Bedrock cannot resolve"
    if (block := file_format(part)) is None:
        return f"Converse has no image, document or video format for {part.media_type}"
    if part.file_id is not None and _CLAUDE.search(model):
        return _claude_s3(block[0], model, in_result=in_result)
    return None


def _claude_s3(block: str, model: str, *, in_result: bool) -> str | None:
    # Quirk: Claude on Bedrock takes an s3Location document inside a toolResult (recorded:
    # 200) but not in a turn ("messages.2.content.2.document.source.type: Field required"),
    # nor an s3Location image ("This model doesn't support the s3Uri field. Remove s3Uri
    # and try again."), both recorded 400s.
    if block == "image":
        return f"{model} takes no s3Location image ('This model doesn't support the s3Uri field')"
    if block == "document" and not in_result:
        return (
            f"{model} takes an s3Location document inside a toolResult only "
            "('document.source.type: Field required')"
        )
    return None


def moved_out_of_result(part: FilePart, model: str) -> str | None:
    """Why a file of a tool result goes after it, in the same turn, or None."""
    # Quirk: Nova refuses a video inside a toolResult (recorded 400: "Malformed input
    # request: #/messages/2/content/0: extraneous key [toolResult] is not permitted") and
    # takes it in the turn (recorded: 200).
    if part.kind == "video" and _NOVA.search(model):
        return (
            f"{model} takes no video inside a toolResult ('extraneous key [toolResult] is not "
            "permitted'); sent after the result, in the same turn"
        )
    return None


def unsent_file_fields(part: FilePart) -> Iterator[tuple[str, str]]:
    """The fields of a file that go with it but have no Converse field."""
    block = file_format(part)
    if part.filename is not None and block is not None and block[0] != "document":
        yield "filename", f"Converse's {block[0]} blocks have no name (documents have one)"
    if part.detail is not None:
        yield "detail", "Converse has no image detail setting"


def fit_document_name(part: FilePart, path: str, report: TranslationReport) -> str:
    """The `name` a document goes with: its file name where Converse takes it,
    else one made of its allowed characters or of its content, reported."""
    if part.filename is None:
        # The name is required: one made of the content names the same file alike.
        digest = hashlib.sha256((part.data or part.file_id or "").encode()).hexdigest()[:12]
        name = f"Document {digest}"
        report.transformed(
            f"{path}.filename", f"Converse requires a document name; {name!r} sent", "hint"
        )
        return name
    fitted = (
        " ".join(_NAME_REFUSED.sub(" ", part.filename).split())[:_NAME_MAX_LENGTH] or "Document"
    )
    if fitted != part.filename:
        report.transformed(
            f"{path}.filename",
            "Converse takes letters, digits, single spaces, hyphens, parentheses and square "
            f"brackets in a document name; sent as {fitted!r}",
            "hint",
        )
    return fitted


# Quirk: an error result needs content ("The content field at messages.N.content.0.toolResult
# cannot be empty when status value is error", as users report): one with none goes with this text.
EMPTY_ERROR = "error"

# Quirk: a history with toolUse or toolResult blocks needs `toolConfig` ("The toolConfig
# field must be defined when using toolUse and toolResult content blocks", as users report).
TOOLS_DECLARED = (
    "Converse wants toolConfig wherever the history holds tool calls or results ('The "
    "toolConfig field must be defined when using toolUse and toolResult content blocks'): "
    "declared with an open schema"
)


def called_tools(messages: Sequence[Message]) -> tuple[ToolSpec, ...]:
    """A tool of an open schema for each name the history's calls and results
    give, in order: what a request that offers no tools declares (`TOOLS_DECLARED`)."""
    names: dict[str, None] = {}
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart) or (isinstance(part, ToolResultPart) and part.name):
                names[cast(str, part.name)] = None
    return tuple(ToolSpec(name=name, parameters={"type": "object"}) for name in names)


# --- Claude's thinking on Converse ---

_FORCED = frozenset({"any", "tool"})
_MIN_THINKING_TOP_P = 0.95


def fit_thinking_settings(body: dict[str, Any], report: TranslationReport) -> None:
    """Meets, in a Converse `body`, what Claude refuses beside its thinking (Bedrock's
    extended-thinking guide, as Anthropic's: "Thinking isn't compatible with temperature,
    top_p, or top_k modifications as well as forced tool use"): a sampling setting is left
    out, and a forced tool choice is sent with thinking off (the tool must be called), each
    reported as transformed."""
    extra = body.get("additionalModelRequestFields")
    thinking = extra.get("thinking") if isinstance(extra, dict) else None
    if not isinstance(thinking, dict) or thinking.get("type") not in ("enabled", "adaptive"):
        return
    assert isinstance(extra, dict)
    tool_config = body.get("toolConfig")
    choice = tool_config.get("toolChoice") if isinstance(tool_config, dict) else None
    if isinstance(choice, dict) and choice.keys() & _FORCED:
        del extra["thinking"]
        extra.pop("output_config", None)
        if not extra:
            del body["additionalModelRequestFields"]
        said = "Claude refuses a forced tool choice with thinking on, and the tool must be called"
        report.transformed("reasoning", f"sent with thinking off: {said}", "setting")
        return
    inference = body.get("inferenceConfig")
    inference = inference if isinstance(inference, dict) else {}
    for path, field, owner, allowed in (
        ("temperature", "temperature", inference, lambda value: value == 1),
        ("top_p", "topP", inference, lambda value: value >= _MIN_THINKING_TOP_P),
        ("top_k", "top_k", extra, lambda value: False),
    ):
        if field in owner and not allowed(owner[field]):
            value = owner.pop(field)
            said = f"Claude takes no {path} {value} with thinking on"
            report.transformed(path, f"{path} left out: {said}", "setting")
