"""Content parts of Chat Completions messages to and from core parts: text,
images, audio and files, opaque items, tool calls, and the form `content`
takes. The request and response codecs share these.

Invariant: decoding then encoding a part gives it back; a part type the wire
has no name for stays an `OpaquePart` that goes back to this provider only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua import FilePart, OpaquePart, TextPart, ToolCallPart, TranslationReport
from interlingua.codec import WireReader
from interlingua_openai._common import format_data_url, guess_media_type, rest, split_data_url
from interlingua_openai._wire import AUDIO_FORMATS, AUDIO_MEDIA_TYPES

__all__ = [
    "ABSENT",
    "PartDecoder",
    "PartEncoder",
    "content_form",
    "decode_tool_call",
    "default_file_type",
    "wire_content",
]

# `content` left out of a message altogether.
ABSENT: Any = object()


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
    if part.file_id is not None:
        return "file"
    if part.kind == "image":
        return "image_url"
    if part.kind == "audio" and part.data is not None:
        return "input_audio"
    return "file"


class PartEncoder:
    """Core parts to the wire's content parts; what cannot go is reported."""

    def __init__(self, provider: str, report: TranslationReport) -> None:
        self.provider = provider
        self.report = report

    def data(self, owner: Any) -> dict[str, Any]:
        provider_data: dict[str, dict[str, Any]] = owner.provider_data
        return provider_data.get(self.provider, {})

    def text(self, part: TextPart) -> dict[str, Any]:
        return {"type": "text", "text": part.text, **self.data(part).get("fields", {})}

    def opaque(self, part: OpaquePart, path: str) -> dict[str, Any] | None:
        if part.provider == self.provider:
            return dict(part.data)
        self.report.dropped(path, f"a {part.provider} block goes back to {part.provider} only")
        return None

    def file(self, part: FilePart, path: str) -> dict[str, Any] | None:
        data = self.data(part)
        kind = data.get("type") or default_file_type(part)
        inner: dict[str, Any] | None
        match kind:
            case "image_url":
                inner = self.image(part)
            case "input_audio":
                inner = self.audio(part)
            case _:
                kind = "file"
                inner = self.document(part, data)
        if inner is None:
            source = "a URL" if part.url is not None else "a file id"
            self.report.dropped(
                path, f"Chat Completions takes no {part.media_type} file by {source}"
            )
            return None
        inner.update(data.get("inner", {}))
        return {"type": kind, kind: inner, **data.get("fields", {})}

    def image(self, part: FilePart) -> dict[str, Any] | None:
        if part.file_id is not None:
            return None
        url = (
            part.url if part.url is not None else format_data_url(part.media_type, part.data or "")
        )
        image: dict[str, Any] = {"url": url}
        if part.detail is not None:
            image["detail"] = part.detail
        return image

    def audio(self, part: FilePart) -> dict[str, Any] | None:
        if part.data is None:
            return None
        format = AUDIO_FORMATS.get(part.media_type, part.media_type.rpartition("/")[2])
        return {"data": part.data, "format": format}

    def document(self, part: FilePart, data: Mapping[str, Any]) -> dict[str, Any] | None:
        if part.url is not None:
            return None
        document: dict[str, Any] = {}
        if part.file_id is not None:
            document["file_id"] = part.file_id
        elif data.get("raw_file_data"):
            document["file_data"] = part.data
        else:
            document["file_data"] = format_data_url(part.media_type, part.data or "")
        if part.filename is not None:
            document["filename"] = part.filename
        return document


class PartDecoder:
    """The wire's content parts to core parts."""

    def __init__(self, provider: str) -> None:
        self.provider = provider
        self.read = WireReader(provider)

    def pd(self, **data: Any) -> dict[str, dict[str, Any]]:
        """`provider_data` holding the entries of `data` that say something."""
        kept = {key: value for key, value in data.items() if _says_something(value)}
        return {self.provider: kept} if kept else {}

    def text(self, item: Mapping[str, Any], path: str) -> TextPart:
        text = self.read.field(item, "text", path, str)
        return TextPart(text=text, provider_data=self.pd(fields=rest(item, {"type", "text"})))

    def user_part(self, item: Any, path: str) -> Any:
        item = self.read.object(item, path)
        kind = self.read.field(item, "type", path, str)
        match kind:
            case "text":
                return self.text(item, path)
            case "image_url" | "input_audio" | "file":
                return self.file(item, kind, path)
        return OpaquePart(provider=self.provider, data=item)

    def file(self, item: Mapping[str, Any], kind: str, path: str) -> FilePart:
        inner = self.read.field(item, kind, path, dict)
        where = f"{path}.{kind}"
        match kind:
            case "image_url":
                fields, known = self.image(inner, where), {"url", "detail"}
            case "input_audio":
                fields, known = self.audio(inner, where), {"data", "format"}
            case _:
                fields, known = self.document(inner, where), {"file_data", "file_id", "filename"}
        data = fields.pop("provider_data", {})
        part = FilePart(**fields)
        data.update(inner=rest(inner, known), fields=rest(item, {"type", kind}))
        if default_file_type(part) != kind:
            data["type"] = kind
        return part.model_copy(update={"provider_data": self.pd(**data)})

    def image(self, image: Mapping[str, Any], path: str) -> dict[str, Any]:
        url = self.read.field(image, "url", path, str)
        fields: dict[str, Any] = {"detail": self.read.field(image, "detail", path, str, None)}
        if (inline := split_data_url(url)) is not None:
            fields["media_type"], fields["data"] = inline
        else:
            fields.update(url=url, media_type=guess_media_type(url, kind="image"))
        return fields

    def audio(self, audio: Mapping[str, Any], path: str) -> dict[str, Any]:
        format = self.read.field(audio, "format", path, str)
        return {
            "data": self.read.field(audio, "data", path, str),
            "media_type": AUDIO_MEDIA_TYPES.get(format, f"audio/{format}"),
        }

    def document(self, document: Mapping[str, Any], path: str) -> dict[str, Any]:
        filename = self.read.field(document, "filename", path, str, None)
        file_id = self.read.field(document, "file_id", path, str, None)
        file_data = self.read.field(document, "file_data", path, str, None)
        if (file_id is None) == (file_data is None):
            raise self.read.error(path, "a file part needs one of file_data and file_id")
        fields: dict[str, Any] = {"filename": filename, "file_id": file_id}
        if file_data is None:
            fields["media_type"] = guess_media_type(filename, kind="application")
        elif (inline := split_data_url(file_data)) is not None:
            fields["media_type"], fields["data"] = inline
        else:
            # Quirk: some clients send bare base64 with a filename, no data URL.
            fields["data"] = file_data
            fields["media_type"] = guess_media_type(filename, kind="application")
            fields["provider_data"] = {"raw_file_data": True}
        return fields


def _says_something(value: Any) -> bool:
    return value is not None and value is not False and value != {}


def decode_tool_call(item: Any, path: str, read: WireReader) -> ToolCallPart:
    """One entry of `tool_calls`: a function call, a custom tool's call, or
    another kind kept whole."""
    item = read.object(item, path)
    call_id = read.field(item, "id", path, str)
    kind = read.field(item, "type", path, str, None) or "function"
    provider = read.provider
    match kind:
        case "function":
            function = read.field(item, "function", path, dict)
            where = f"{path}.function"
            fields = rest(item, {"id", "type", "function"})
            return ToolCallPart(
                id=call_id,
                name=read.field(function, "name", where, str),
                arguments=read.field(function, "arguments", where, str),
                provider_data={provider: {"fields": fields}} if fields else {},
            )
        case "custom":
            custom = read.field(item, "custom", path, dict)
            where = f"{path}.custom"
            return ToolCallPart(
                id=call_id,
                name=read.field(custom, "name", where, str),
                arguments=read.field(custom, "input", where, str),
                provider_data={provider: {"type": "custom"}},
            )
    body = item.get(kind)
    name = body.get("name") if isinstance(body, dict) else None
    return ToolCallPart(
        id=call_id,
        name=name if isinstance(name, str) else kind,
        provider_data={provider: {"tool_call": item}},
    )
