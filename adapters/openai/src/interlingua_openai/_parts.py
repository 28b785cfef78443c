"""Content parts of Chat Completions messages to and from core parts: text,
images, audio and files, opaque items, tool calls, and the form `content`
takes. The request and response codecs share these.

Invariant: decoding then encoding a part gives it back (what the core does not
model, explicit nulls included, is the `leftover` of the item kept in the
part's `provider_data`, and `overlay`ed when it goes back); a part type the
wire has no name for stays an `OpaquePart` that goes back to this provider only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from interlingua import FilePart, OpaquePart, TextPart, ToolCallPart, TranslationReport
from interlingua.codec import WireReader, leftover, overlay
from interlingua_openai._common import (
    FileFields,
    entry,
    guess_media_type,
    inline_data,
    inline_url,
    provider_data,
    split_data_url,
    takes_file,
)
from interlingua_openai._dialect import ChatCompletionsDialect

__all__ = [
    "ABSENT",
    "PartDecoder",
    "PartEncoder",
    "content_form",
    "decode_tool_call",
    "default_file_type",
    "encode_tool_call",
    "wire_content",
]

# `content` left out of a message altogether.
ABSENT: Any = object()

# The content-part type a file goes in by its kind, unless told otherwise.
_FILE_TYPES = {"image": "image_url", "audio": "input_audio"}
# What each content-part type can say of a file beside its bytes.
_FILE_FIELDS = FileFields(
    {
        "image_url": frozenset({"detail"}),
        "file": frozenset({"filename"}),
        "input_audio": frozenset(),
    },
    "Chat Completions",
)


def content_form(items: Sequence[Mapping[str, Any]], *, has_other: bool) -> str:
    """The form `content` takes by default: `string` for one plain text part, `list`
    for several parts, and without parts `null` beside tool calls or a refusal
    (an assistant turn), else an empty string."""
    if len(items) == 1 and set(items[0]) == {"type", "text"} and items[0]["type"] == "text":
        return "string"
    if items:
        return "list"
    return "null" if has_other else "empty"


def wire_content(items: list[dict[str, Any]], form: str | None, *, has_other: bool) -> Any:
    """`content` in the recorded form (`form`), or else in the default one."""
    if form == "list":
        return items
    if not items and form == "null":
        return None
    if not items and form == "absent":
        return ABSENT
    match content_form(items, has_other=has_other):
        case "string":
            return items[0]["text"]
        case "list":
            return items
        case "null":
            return None
    return ""


def default_file_type(part: FilePart) -> str:
    """The content-part type a file goes in unless told otherwise."""
    return "file" if part.file_id is not None else _FILE_TYPES.get(part.kind, "file")


# --- the wire form of one file part, None when the wire cannot say it ---


def _image(part: FilePart, dialect: ChatCompletionsDialect, raw: bool) -> dict[str, Any] | None:
    if part.file_id is not None:
        return None
    image: dict[str, Any] = {"url": inline_url(part)}
    if part.detail is not None:
        image["detail"] = part.detail
    return image


def _audio(part: FilePart, dialect: ChatCompletionsDialect, raw: bool) -> dict[str, Any] | None:
    format = dialect.audio_formats.get(part.media_type)
    if part.data is None or format is None:
        return None
    return {"data": part.data, "format": format}


def _document(part: FilePart, dialect: ChatCompletionsDialect, raw: bool) -> dict[str, Any] | None:
    if part.url is not None:
        return None
    document: dict[str, Any] = {}
    if part.file_id is not None:
        document["file_id"] = part.file_id
    else:
        document["file_data"] = inline_data(part, raw=raw)
    if part.filename is not None:
        document["filename"] = part.filename
    return document


_FILE_ENCODERS: dict[
    str, Callable[[FilePart, ChatCompletionsDialect, bool], dict[str, Any] | None]
] = {"image_url": _image, "input_audio": _audio, "file": _document}


def _file_item(
    part: FilePart, kind: str, marks: Mapping[str, Any], dialect: ChatCompletionsDialect
) -> dict[str, Any] | None:
    inner = _FILE_ENCODERS[kind](part, dialect, bool(marks.get("raw_file_data")))
    return None if inner is None else {"type": kind, kind: inner}


def _unsendable(part: FilePart, kind: str, dialect: ChatCompletionsDialect) -> str:
    """Why a file cannot go in a Chat Completions content part."""
    if kind == "input_audio" and part.data is not None:
        # Quirk: `input_audio.format` "currently supports "wav" and "mp3"" (the SDK's
        # `ChatCompletionContentPartInputAudioParam`).
        taken = " and ".join(sorted(set(dialect.audio_formats.values())))
        return f"Chat Completions takes audio as {taken} only, not {part.media_type}"
    source = "a URL" if part.url is not None else "a file id"
    return f"Chat Completions takes no {part.media_type} file by {source}"


class PartEncoder:
    """Core parts to the wire's content parts; what cannot go is reported."""

    def __init__(self, dialect: ChatCompletionsDialect, report: TranslationReport) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.report = report

    def text(self, part: TextPart) -> dict[str, Any]:
        return overlay(
            {"type": "text", "text": part.text}, entry(part, self.provider).get("fields", {})
        )

    def opaque(self, part: OpaquePart, path: str) -> dict[str, Any] | None:
        if part.provider == self.provider:
            return dict(part.data)
        self.report.dropped(path, f"a {part.provider} block goes back to {part.provider} only")
        return None

    def file(self, part: FilePart, path: str) -> dict[str, Any] | None:
        if not takes_file(part, self.provider, path, self.report):
            return None
        data = entry(part, self.provider)
        kind = data.get("type") or default_file_type(part)
        item = _file_item(part, kind, data, self.dialect)
        if item is None:
            self.report.dropped(path, _unsendable(part, kind, self.dialect))
            return None
        _FILE_FIELDS.report_unsent(part, kind, path, self.report)
        return overlay(item, data.get("fields", {}))


class PartDecoder:
    """The wire's content parts to core parts."""

    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.read = WireReader(dialect.provider)

    def pd(self, **data: Any) -> dict[str, dict[str, Any]]:
        return provider_data(self.provider, **data)

    def text(self, item: Mapping[str, Any], path: str) -> TextPart:
        text = self.read.field(item, "text", path, str)
        fields = leftover(item, {"type": "text", "text": text})
        return TextPart(text=text, provider_data=self.pd(fields=fields))

    def user_part(self, item: Any, path: str) -> TextPart | FilePart | OpaquePart:
        item = self.read.object(item, path)
        kind = self.read.field(item, "type", path, str)
        match kind:
            case "text":
                return self.text(item, path)
            case "image_url" | "file":
                return self.file(item, kind, path)
            case "input_audio" if self.takes_audio(item, path):
                return self.file(item, kind, path)
        return OpaquePart(provider=self.provider, data=item)

    def takes_audio(self, item: Mapping[str, Any], path: str) -> bool:
        """Whether the audio's format is one this server takes (else it stays opaque)."""
        audio = self.read.field(item, "input_audio", path, dict)
        format = self.read.field(audio, "format", f"{path}.input_audio", str)
        return self.dialect.audio_media_type(format) is not None

    def file(self, item: Mapping[str, Any], kind: str, path: str) -> FilePart:
        inner = self.read.field(item, kind, path, dict)
        readers = {"image_url": self.image, "input_audio": self.audio, "file": self.document}
        fields, marks = readers[kind](inner, f"{path}.{kind}")
        part = FilePart(**fields)
        if default_file_type(part) != kind:
            marks["type"] = kind
        marks["fields"] = leftover(item, _file_item(part, kind, marks, self.dialect) or {})
        return part.model_copy(update={"provider_data": self.pd(**marks)})

    def image(self, image: Mapping[str, Any], path: str) -> tuple[dict[str, Any], dict[str, Any]]:
        url = self.read.field(image, "url", path, str)
        fields: dict[str, Any] = {"detail": self.read.field(image, "detail", path, str, None)}
        if (inline := split_data_url(url)) is not None:
            fields["media_type"], fields["data"] = inline
        else:
            fields.update(url=url, media_type=guess_media_type(url, kind="image"))
        return fields, {}

    def audio(self, audio: Mapping[str, Any], path: str) -> tuple[dict[str, Any], dict[str, Any]]:
        format = self.read.field(audio, "format", path, str)
        media_type = self.dialect.audio_media_type(format) or f"audio/{format}"
        return {"data": self.read.field(audio, "data", path, str), "media_type": media_type}, {}

    def document(
        self, document: Mapping[str, Any], path: str
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        filename = self.read.field(document, "filename", path, str, None)
        file_id = self.read.field(document, "file_id", path, str, None)
        file_data = self.read.field(document, "file_data", path, str, None)
        if (file_id is None) == (file_data is None):
            raise self.read.error(path, "a file part needs one of file_data and file_id")
        fields: dict[str, Any] = {"filename": filename}
        guessed = guess_media_type(filename, kind="application")
        if file_id is not None:
            fields.update(file_id=file_id, provider=self.provider, media_type=guessed)
        elif (inline := split_data_url(file_data or "")) is not None:
            fields["media_type"], fields["data"] = inline
        else:
            # Quirk: some clients send bare base64 with a filename, no data URL.
            fields.update(data=file_data, media_type=guessed)
            return fields, {"raw_file_data": True}
        return fields, {}


# --- tool calls, in requests and responses alike ---


def encode_tool_call(part: ToolCallPart, call_id: str, provider: str) -> dict[str, Any]:
    """One entry of `tool_calls` (a custom tool's call, a call of another kind kept whole)."""
    data = entry(part, provider)
    if "tool_call" in data:
        return dict(data["tool_call"])
    if data.get("type") == "custom":
        call = {
            "id": call_id,
            "type": "custom",
            "custom": {"name": part.name, "input": part.arguments},
        }
    else:
        function = {"name": part.name, "arguments": part.arguments}
        call = {"id": call_id, "type": "function", "function": function}
    return overlay(call, data.get("fields", {}))


def decode_tool_call(item: Any, path: str, read: WireReader) -> ToolCallPart:
    """One entry of `tool_calls`: a function call, a custom tool's call, or
    another kind kept whole."""
    item = read.object(item, path)
    call_id = read.field(item, "id", path, str)
    kind = read.field(item, "type", path, str, None) or "function"
    provider = read.provider
    if kind not in ("function", "custom"):
        body = item.get(kind)
        name = body.get("name") if isinstance(body, dict) else None
        return ToolCallPart(
            id=call_id,
            name=name if isinstance(name, str) else kind,
            provider_data={provider: {"tool_call": item}},
        )
    inner = read.field(item, kind, path, dict)
    arguments = "arguments" if kind == "function" else "input"
    part = ToolCallPart(
        id=call_id,
        name=read.field(inner, "name", f"{path}.{kind}", str),
        arguments=read.field(inner, arguments, f"{path}.{kind}", str),
        provider_data=provider_data(provider, type="custom" if kind == "custom" else None),
    )
    fields = leftover(item, encode_tool_call(part, call_id, provider))
    return part.model_copy(
        update={"provider_data": provider_data(provider, **entry(part, provider), fields=fields)}
    )
