"""Content parts of Chat Completions messages to and from core parts, for
requests and responses alike, and the form `content` takes; the Responses API
shares the data-URL helpers.

    wire item                                   core part
    {"type": "text", "text"}                    TextPart
    {"type": "image_url", "image_url": {url}}   FilePart (a data URL: its data)
    {"type": "input_audio", ...} (wav, mp3)     FilePart (audio)
    {"type": "file", "file": {file_data|file_id, filename}}   FilePart (`document_urls`: by URL too)
    any other item                              OpaquePart (back to this provider only)
    tool calls                                  ToolCallPart (`_tools`)

Invariant: decoding then encoding a part gives it back (what the core does not
model, explicit nulls included, is kept in the part's `fields`: the item's
fields beside the ones modelled, a file's `leftover`; `overlay`ed going back).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from typing_extensions import assert_never

from interlingua import (
    ContentPart,
    FilePart,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    TranslationReport,
)
from interlingua.codec import (
    ProviderEntry,
    WireReader,
    copy_json,
    keep,
    kept,
    leftover,
    other_fields,
    overlay,
)
from interlingua_chat_completions._data import PartData, text_data
from interlingua_chat_completions._dialect import ChatCompletionsDialect
from interlingua_chat_completions._rules import FILE_FIELDS, guess_media_type, part_path, takes_file
from interlingua_chat_completions._think import split_think, think_prefix
from interlingua_chat_completions._wire import (
    ABSENT,
    ContentForm,
    FileForms,
    RefusalForms,
)

__all__ = [
    "ABSENT",
    "PartDecoder",
    "PartEncoder",
    "content_marker",
    "inline_data",
    "inline_url",
    "opaque_item",
    "part_decoder",
    "part_encoder",
    "split_data_url",
    "wire_content",
    "with_fields",
]


# Only the canonical form `data:<type>;base64,<data>` is split; any other data
# URL (parameters, no base64) stays a URL so that it goes back unchanged.
_DATA_URL = re.compile(r"data:([\w.+-]+/[\w.+*-]+);base64,(.*)", re.DOTALL)

_TEXT_ITEM = frozenset({"type", "text"})  # a plain text item's keys
_FILE_TYPES = {"image": "image_url", "audio": "input_audio"}  # a file's default type, by kind
_WEB_URLS = ("https://", "http://")  # a `file_data` that is a URL (`document_urls`)


# --- files, for both APIs ---


def split_data_url(url: str) -> tuple[str, str] | None:
    """`(media_type, base64 data)` of a canonical base64 data URL, else None."""
    match = _DATA_URL.fullmatch(url)
    return (match.group(1), match.group(2)) if match else None


def inline_url(part: FilePart) -> str:
    """The part's URL, or its inline data as a data URL."""
    return part.url if part.url is not None else inline_data(part, raw=False)


def inline_data(part: FilePart, *, raw: bool) -> str:
    """The part's inline data as a data URL, or bare (`raw`) as it came."""
    return (part.data or "") if raw else f"data:{part.media_type};base64,{part.data or ''}"


def opaque_item(
    part: OpaquePart, provider: str, path: str, report: TranslationReport
) -> dict[str, Any] | None:
    """An opaque part's item, back to the provider that made it only (else reported)."""
    if part.provider == provider:
        return copy_json(part.data)
    report.dropped(path, f"a {part.provider} block goes back to {part.provider} only", "content")
    return None


def with_fields(built: dict[str, Any], entry: ProviderEntry) -> dict[str, Any]:
    """`built` with copies of the `fields` a value keeps (its `entry`) laid over it."""
    fields = entry.get("fields")
    return overlay(built, copy_json(fields)) if fields else built


# --- the form of `content` ---


def _content_form(items: Sequence[Mapping[str, Any]], *, has_other: bool) -> str:
    """The form `content` takes by default: `string` for one plain text part, `list`
    for several parts, and without parts `null` beside tool calls or a refusal
    (an assistant turn), else an empty string."""
    if len(items) == 1 and items[0].keys() == _TEXT_ITEM and items[0]["type"] == "text":
        return "string"
    if items:
        return "list"
    return "null" if has_other else "empty"


def content_marker(
    wire: Mapping[str, Any], items: list[dict[str, Any]], *, has_other: bool
) -> ContentForm | None:
    """The form a message's `content` came in, to keep (None: the default form)."""
    if "content" not in wire:
        return "absent"
    content = wire["content"]
    if content is None:
        return None if has_other else "null"
    if isinstance(content, list) and _content_form(items, has_other=has_other) != "list":
        return "list"
    return None


def wire_content(items: list[dict[str, Any]], form: str | None, *, has_other: bool) -> Any:
    """`content` in the recorded form (`form`), or else in the default one."""
    if form == "list":
        return items
    if not items and form == "null":
        return None
    if not items and form == "absent":
        return ABSENT
    match _content_form(items, has_other=has_other):
        case "string":
            return items[0]["text"]
        case "list":
            return items
        case "null":
            return None
    return ""


# --- the wire form of one file part, None when the wire cannot say it ---


def _default_file_type(part: FilePart) -> str:
    return "file" if part.file_id is not None else _FILE_TYPES.get(part.kind, "file")


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
    if part.url is not None and not dialect.document_urls:
        return None
    document: dict[str, Any] = {}
    if part.file_id is not None:
        document["file_id"] = part.file_id
    else:
        document["file_data"] = part.url or inline_data(part, raw=raw)
    if part.filename is not None:
        document["filename"] = part.filename
    return document


_FILE_ENCODERS: dict[
    str, Callable[[FilePart, ChatCompletionsDialect, bool], dict[str, Any] | None]
] = {"image_url": _image, "input_audio": _audio, "file": _document}


def _file_item(
    part: FilePart, kind: str, forms: Mapping[str, Any], dialect: ChatCompletionsDialect
) -> dict[str, Any] | None:
    if kind == "file" and not dialect.document_parts:
        return None
    inner = _FILE_ENCODERS[kind](part, dialect, bool(forms.get("raw_file_data")))
    return None if inner is None else {"type": kind, kind: inner}


def _unsendable(part: FilePart, kind: str, dialect: ChatCompletionsDialect) -> str:
    """Why a file cannot go in one of the dialect's content parts."""
    server = dialect.provider
    if kind == "input_audio" and not dialect.audio_formats:
        return f"{server} takes no audio in a message"
    if kind == "input_audio" and part.data is not None:
        taken = " and ".join(sorted(set(dialect.audio_formats.values())))
        return f"{server} takes audio as {taken} only, not {part.media_type}"
    if kind == "file" and not dialect.document_parts:
        return f"{server} takes no documents in a message"
    source = "a URL" if part.url is not None else "a file id" if part.file_id else "inline data"
    return f"{server} takes no {part.media_type} file by {source}"


class PartEncoder:
    """Core parts to the wire's content parts; what cannot go is reported."""

    def __init__(self, dialect: ChatCompletionsDialect, report: TranslationReport) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.report = report

    def text(self, part: TextPart) -> dict[str, Any]:
        return with_fields({"type": "text", "text": part.text}, kept(part, self.provider))

    def refusal_as_text(self, part: RefusalPart, path: str) -> dict[str, Any] | None:
        """A refusal as a text item, for a server with no `refusal` field (reported);
        None: it goes in the field."""
        if self.dialect.refusal_field:
            return None
        self.report.transformed(
            path, f"{self.provider} has no refusal field; sent as text", "content"
        )
        return {"type": "text", "text": part.text}

    def reasoning_item(self, part: ReasoningPart) -> dict[str, Any] | None:
        """Reasoning as an item of an assistant's `content`, for a server whose
        content carries it; None: it goes in the dialect's `reasoning_field`, or not."""
        return None

    def reasoning(self, part: ReasoningPart, path: str, model: str) -> tuple[str, Any]:
        """Where reasoning goes in a request to `model`: `("item", a content item)`,
        `("think", the text the content opens with)`, `("field", the part)` for the
        `reasoning_field` (the part, for the dialect's `encode_reasoning`), or
        `("none", None)`, left out and reported."""
        if (item := self.reasoning_item(part)) is not None:
            return "item", item
        if (prefix := think_prefix(part, self.provider)) is not None:
            return "think", prefix
        if self.dialect.takes_reasoning(part, model):
            return "field", part
        made_by = f"made by {part.provider}" if part.provider else "of unknown origin"
        if part.provider == self.provider:
            made_by = f"not to {model}"
        self.report.dropped(path, f"{self.provider} takes no reasoning back ({made_by})", "setting")
        return "none", None

    def user_item(self, part: ContentPart, index: int, position: int) -> dict[str, Any] | None:
        """Part `position` of user message `index` on the wire; None when it cannot go."""
        match part:
            case TextPart():
                return self.text(part)
            case FilePart():
                return self.file(part, part_path(index, position))
            case OpaquePart():
                return opaque_item(part, self.provider, part_path(index, position), self.report)
            case ReasoningPart() | ToolCallPart() | ToolResultPart() | RefusalPart():
                # A user message holds none (`Message` checks); kept out all the same.
                reason = f"a user message takes no {part.type}"
                self.report.dropped(part_path(index, position), reason, "content")
                return None
            case _:
                assert_never(part)

    def file(self, part: FilePart, path: str) -> dict[str, Any] | None:
        if not takes_file(part, self.provider, path, self.report):
            return None
        entry = kept(part, self.provider)
        forms = entry.get("forms", {})
        kind = forms.get("type") or _default_file_type(part)
        item = _file_item(part, kind, forms, self.dialect)
        if item is None:
            self.report.dropped(path, _unsendable(part, kind, self.dialect), "content")
            return None
        FILE_FIELDS.report_unsent(part, kind, path, self.report)
        return with_fields(item, entry)


_FileValues = tuple[dict[str, Any], FileForms]


class PartDecoder:
    """The wire's content parts to core parts (or their data, `PartData`)."""

    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.read = WireReader(dialect.provider)

    def text(self, item: Mapping[str, Any], path: str) -> PartData:
        text = self.read.field(item, "text", path, str)
        fields = other_fields(item, _TEXT_ITEM)
        return text_data(text, keep(self.provider, fields=fields))

    def user_part(self, item: Any, path: str) -> PartData | FilePart | OpaquePart:
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
        values, forms = readers[kind](inner, f"{path}.{kind}")
        part = FilePart(**values)
        if _default_file_type(part) != kind:
            forms["type"] = kind
        fields = leftover(item, _file_item(part, kind, forms, self.dialect) or {})
        data = keep(self.provider, fields=fields, forms=forms)
        # Built again, with what it keeps, only when it keeps something.
        return FilePart(**values, provider_data=data) if data else part

    def image(self, image: Mapping[str, Any], path: str) -> _FileValues:
        url = self.read.field(image, "url", path, str)
        values: dict[str, Any] = {"detail": self.read.field(image, "detail", path, str, None)}
        if (inline := split_data_url(url)) is not None:
            values["media_type"], values["data"] = inline
        else:
            values.update(url=url, media_type=guess_media_type(url, kind="image"))
        return values, {}

    def audio(self, audio: Mapping[str, Any], path: str) -> _FileValues:
        format = self.read.field(audio, "format", path, str)
        media_type = self.dialect.audio_media_type(format) or f"audio/{format}"
        return {"data": self.read.field(audio, "data", path, str), "media_type": media_type}, {}

    def document(self, document: Mapping[str, Any], path: str) -> _FileValues:
        filename = self.read.field(document, "filename", path, str, None)
        file_id = self.read.field(document, "file_id", path, str, None)
        file_data = self.read.field(document, "file_data", path, str, None)
        if (file_id is None) == (file_data is None):
            raise self.read.error(path, "a file part needs one of file_data and file_id")
        values: dict[str, Any] = {"filename": filename}
        guessed = guess_media_type(filename or file_data, kind="application")
        if file_id is not None:
            values.update(file_id=file_id, provider=self.provider, media_type=guessed)
        elif (inline := split_data_url(file_data or "")) is not None:
            values["media_type"], values["data"] = inline
        elif self.dialect.document_urls and (file_data or "").startswith(_WEB_URLS):
            values.update(url=file_data, media_type=guessed)
        else:
            # Quirk: some clients send bare base64 with a filename, no data URL.
            values.update(data=file_data, media_type=guessed)
            return values, {"raw_file_data": True}
        return values, {}

    def assistant_content(self, wire: Mapping[str, Any], path: str) -> tuple[list[Any], list[Any]]:
        """`content` of an assistant message; with the dialect's `think_tags`,
        the reasoning a string opens with split out (`_think`)."""
        parts, items = self.content(wire, path, self.assistant_item)
        content = wire.get("content")
        split = None
        if self.dialect.think_tags and isinstance(content, str):
            split = split_think(content, self.provider)
        if split is not None:
            reasoning, answer = split
            parts = [reasoning, text_data(answer)] if answer else [reasoning]
        return parts, items

    def content(
        self,
        wire: Mapping[str, Any],
        path: str,
        item_part: Callable[[Any, str], ContentPart | PartData],
    ) -> tuple[list[Any], list[Any]]:
        """The parts of a message's `content` (a string, null, or a list whose
        items `item_part` reads), and the items of a list."""
        content = wire.get("content")
        if content is None:
            return [], []
        if isinstance(content, str):
            return [text_data(content)], []
        items = self.read.array(content, f"{path}.content")
        return [item_part(item, f"{path}.content[{i}]") for i, item in enumerate(items)], items

    def system_item(self, item: Any, path: str) -> PartData:
        """A system message's item: text only (as the core's system message)."""
        item = self.read.object(item, path)
        if item.get("type") != "text":
            raise self.read.error(f"{path}.type", "a system message takes text parts only")
        return self.text(item, path)

    def tool_item(self, item: Any, path: str) -> PartData | OpaquePart:
        """A tool message's item: text, or an opaque item."""
        item = self.read.object(item, path)
        if item.get("type") == "text":
            return self.text(item, path)
        return OpaquePart(provider=self.provider, data=item)

    def assistant_item(
        self, item: Any, path: str
    ) -> PartData | RefusalPart | OpaquePart | ReasoningPart:
        """An assistant message's item: text, a refusal, or an opaque item (and
        reasoning, for a server whose content carries it)."""
        item = self.read.object(item, path)
        match item.get("type"):
            case "text":
                return self.text(item, path)
            case "refusal":
                refusal = self.read.field(item, "refusal", path, str)
                data = keep(self.provider, forms=RefusalForms(in_content=True))
                return RefusalPart(text=refusal, provider_data=data)
        return OpaquePart(provider=self.provider, data=item)


def part_decoder(dialect: ChatCompletionsDialect) -> PartDecoder:
    """The dialect's part decoder: its own, or the plain one."""
    return (dialect.part_decoder or PartDecoder)(dialect)


def part_encoder(dialect: ChatCompletionsDialect, report: TranslationReport) -> PartEncoder:
    """The dialect's part encoder: its own, or the plain one."""
    return (dialect.part_encoder or PartEncoder)(dialect, report)
