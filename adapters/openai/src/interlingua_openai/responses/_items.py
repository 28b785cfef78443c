"""Responses API items and content parts to and from core parts.

Requests (input items) and responses (output items) share these: the API
takes its output items back as input. Decoding an assistant-side item gives
parts whose `provider_data` keeps the item's other fields; encoding groups
consecutive text parts of one item back into it. Invariant:
`encode_*(decode_*(x)) == x` for every item the API sends or takes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua import (
    FilePart,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    TranslationReport,
)
from interlingua.codec import WireReader
from interlingua_openai._common import (
    fit_call_id,
    format_data_url,
    guess_media_type,
    rest,
    split_data_url,
)
from interlingua_openai._wire import AUDIO_FORMATS, AUDIO_MEDIA_TYPES
from interlingua_openai.responses._wire import CALL_ID_MAX_LENGTH, PROVIDER

__all__ = ["ItemDecoder", "ItemEncoder", "is_assistant_item"]

_ARGUMENTS = {"function_call": "arguments", "custom_tool_call": "input"}


def _pd(**data: Any) -> dict[str, dict[str, Any]]:
    """`provider_data` with the entries of `data` that say something."""
    kept = {key: value for key, value in data.items() if value is not None and value != {}}
    return {PROVIDER: kept} if kept else {}


def _data(owner: Any) -> dict[str, Any]:
    provider_data: dict[str, dict[str, Any]] = owner.provider_data
    return provider_data.get(PROVIDER, {})


def is_assistant_item(item: Mapping[str, Any]) -> bool:
    """Whether an input item belongs to the model's side of the conversation."""
    if "role" in item and item.get("type", "message") == "message":
        return bool(item["role"] == "assistant")
    return item.get("type") not in ("function_call_output", "custom_tool_call_output")


def summary_of(text: str) -> list[dict[str, Any]]:
    """The reasoning summary a part's text stands for."""
    return [{"type": "summary_text", "text": text}] if text else []


def default_file_type(part: FilePart) -> str:
    if part.kind == "image":
        return "input_image"
    if part.kind == "audio" and part.data is not None:
        return "input_audio"
    return "input_file"


def default_content_form(parts: Sequence[Any]) -> str:
    """`string` for one plain text part, else `list`."""
    lone = len(parts) == 1 and isinstance(parts[0], TextPart) and not _data(parts[0])
    return "string" if lone else "list"


class ItemDecoder:
    """Wire items and content parts to core parts."""

    def __init__(self) -> None:
        self.read = WireReader(PROVIDER)

    # --- assistant-side items ---

    def assistant_item(self, item: Mapping[str, Any], path: str) -> list[Any]:
        match item.get("type", "message"):
            case "message":
                return self.message_parts(item, path)
            case "reasoning":
                return [self.reasoning(item, path)]
            case "function_call" | "custom_tool_call":
                return [self.tool_call(item, path)]
        return [OpaquePart(provider=PROVIDER, data=dict(item))]

    def message_parts(self, item: Mapping[str, Any], path: str) -> list[Any]:
        fields = rest(item, {"content"})
        content = item.get("content")
        if isinstance(content, str):
            return [TextPart(text=content, provider_data=_pd(item=fields, content="string"))]
        items = self.read.array(self.read.field(item, "content", path, list), f"{path}.content")
        known = [
            entry
            for entry in items
            if isinstance(entry, dict) and entry.get("type") in ("output_text", "refusal")
        ]
        if not items or len(known) < len(items):
            # Nothing to hang the item on, or parts the core does not model: kept whole.
            return [OpaquePart(provider=PROVIDER, data=dict(item))]
        return [
            self.output_part(entry, fields, f"{path}.content[{i}]") for i, entry in enumerate(items)
        ]

    def output_part(self, entry: Mapping[str, Any], item: dict[str, Any], path: str) -> Any:
        if entry["type"] == "refusal":
            text = self.read.field(entry, "refusal", path, str)
            return RefusalPart(
                text=text, provider_data=_pd(item=item, part=rest(entry, {"type", "refusal"}))
            )
        text = self.read.field(entry, "text", path, str)
        return TextPart(text=text, provider_data=_pd(item=item, part=rest(entry, {"type", "text"})))

    def reasoning(self, item: Mapping[str, Any], path: str) -> ReasoningPart:
        summary = self.read.field(item, "summary", path, list)
        texts = [
            entry["text"]
            for entry in summary
            if isinstance(entry, dict)
            and entry.get("type") == "summary_text"
            and isinstance(entry.get("text"), str)
        ]
        text = "\n\n".join(texts)
        encrypted = item.get("encrypted_content")
        fields = rest(item, {"type", "summary", "encrypted_content"})
        if "encrypted_content" in item and not isinstance(encrypted, str):
            fields["encrypted_content"] = encrypted  # null, kept as sent
        return ReasoningPart(
            text=text,
            signature=encrypted if isinstance(encrypted, str) else None,
            provider=PROVIDER,
            provider_data=_pd(
                item=fields, summary=None if summary == summary_of(text) else summary
            ),
        )

    def tool_call(self, item: Mapping[str, Any], path: str) -> ToolCallPart:
        kind = item.get("type", "function_call")
        arguments = _ARGUMENTS[kind]
        return ToolCallPart(
            id=self.read.field(item, "call_id", path, str),
            name=self.read.field(item, "name", path, str),
            arguments=self.read.field(item, arguments, path, str),
            provider_data=_pd(
                item=rest(item, {"type", "call_id", "name", arguments}),
                type=kind if kind != "function_call" else None,
            ),
        )

    # --- tool results ---

    def tool_result(self, item: Mapping[str, Any], path: str) -> ToolResultPart:
        kind = self.read.field(item, "type", path, str)
        output = item.get("output")
        data: dict[str, Any] = {
            "item": rest(item, {"type", "call_id", "output"}),
            "type": kind if kind != "function_call_output" else None,
        }
        content: list[Any] = []
        if isinstance(output, str):
            content = [TextPart(text=output)]
        else:
            entries = self.read.array(self.read.field(item, "output", path, list), f"{path}.output")
            content = [
                self.content_part(entry, f"{path}.output[{i}]") for i, entry in enumerate(entries)
            ]
            if default_content_form(content) != "list":
                data["content"] = "list"
        return ToolResultPart(
            tool_call_id=self.read.field(item, "call_id", path, str),
            content=tuple(content),
            provider_data=_pd(**data),
        )

    # --- content parts of input messages ---

    def content_part(self, entry: Any, path: str) -> Any:
        entry = self.read.object(entry, path)
        kind = self.read.field(entry, "type", path, str)
        match kind:
            case "input_text":
                text = self.read.field(entry, "text", path, str)
                return TextPart(text=text, provider_data=_pd(part=rest(entry, {"type", "text"})))
            case "input_image":
                return self.file(
                    entry, kind, self.image(entry, path), {"image_url", "file_id", "detail"}
                )
            case "input_file":
                return self.file(
                    entry,
                    kind,
                    self.document(entry, path),
                    {"file_data", "file_id", "file_url", "filename"},
                )
            case "input_audio":
                return self.file(entry, kind, self.audio(entry, path), {"input_audio"})
        return OpaquePart(provider=PROVIDER, data=entry)

    def file(
        self, entry: Mapping[str, Any], kind: str, fields: dict[str, Any], known: set[str]
    ) -> FilePart:
        data = fields.pop("provider_data", {})
        part = FilePart(**fields)
        if default_file_type(part) != kind:
            data["type"] = kind
        return part.model_copy(
            update={"provider_data": _pd(part=rest(entry, {"type", *known}), **data)}
        )

    def image(self, entry: Mapping[str, Any], path: str) -> dict[str, Any]:
        fields: dict[str, Any] = {"detail": self.read.field(entry, "detail", path, str, None)}
        url = self.read.field(entry, "image_url", path, str, None)
        file_id = self.read.field(entry, "file_id", path, str, None)
        if (url is None) == (file_id is None):
            raise self.read.error(path, "an input_image needs one of image_url and file_id")
        if file_id is not None:
            fields.update(file_id=file_id, media_type="image/*")
        elif (inline := split_data_url(url or "")) is not None:
            fields["media_type"], fields["data"] = inline
        else:
            fields.update(url=url, media_type=guess_media_type(url, kind="image"))
        return fields

    def document(self, entry: Mapping[str, Any], path: str) -> dict[str, Any]:
        filename = self.read.field(entry, "filename", path, str, None)
        sources = {
            key: self.read.field(entry, key, path, str, None)
            for key in ("file_data", "file_id", "file_url")
        }
        given = [key for key, value in sources.items() if value is not None]
        if len(given) != 1:
            raise self.read.error(
                path, "an input_file needs one of file_data, file_id and file_url"
            )
        fields: dict[str, Any] = {"filename": filename}
        source, value = given[0], sources[given[0]]
        guessed = guess_media_type(
            filename or (value if source == "file_url" else None), kind="application"
        )
        match source:
            case "file_id":
                fields.update(file_id=value, media_type=guessed)
            case "file_url":
                fields.update(url=value, media_type=guessed)
            case _ if (inline := split_data_url(value or "")) is not None:
                fields["media_type"], fields["data"] = inline
            case _:
                # Quirk: bare base64 with a filename, no data URL.
                fields.update(data=value, media_type=guessed, provider_data={"raw_file_data": True})
        return fields

    def audio(self, entry: Mapping[str, Any], path: str) -> dict[str, Any]:
        audio = self.read.field(entry, "input_audio", path, dict)
        format = self.read.field(audio, "format", f"{path}.input_audio", str)
        return {
            "data": self.read.field(audio, "data", f"{path}.input_audio", str),
            "media_type": AUDIO_MEDIA_TYPES.get(format, f"audio/{format}"),
        }


class ItemEncoder:
    """Core parts to wire items and content parts. `output` builds output items
    (a response body) rather than input items (a request)."""

    def __init__(self, report: TranslationReport, *, output: bool) -> None:
        self.report = report
        self.output = output
        self.messages = 0

    def assistant_items(self, parts: Sequence[Any], path: str) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        group: _Group | None = None
        for index, part in enumerate(parts):
            if isinstance(part, TextPart | RefusalPart):
                group = self.add_text(items, group, part)
                continue
            group = None
            if (item := self.assistant_item(part, f"{path}.parts[{index}]")) is not None:
                items.append(item)
        return items

    def add_text(
        self, items: list[dict[str, Any]], group: _Group | None, part: TextPart | RefusalPart
    ) -> _Group | None:
        """Adds a text or refusal part to the message item it came from (the open
        one, when they match); the group left open for the next part."""
        data = _data(part)
        fields = data.get("item")
        if data.get("content") == "string":
            items.append({**(fields or {"role": "assistant"}), "content": part.text})
            return None
        entry = self.output_part(part, data)
        if group is not None and group.fields == fields:
            group.item["content"].append(entry)
            return group
        if fields is None and not self.output:
            # Text made elsewhere goes back as a plain assistant message.
            content: Any = part.text if isinstance(part, TextPart) else [entry]
            items.append({"role": "assistant", "content": content})
            return None
        item = {**(fields if fields is not None else self.new_message()), "content": [entry]}
        items.append(item)
        return _Group(fields, item)

    def new_message(self) -> dict[str, Any]:
        self.messages += 1
        return {
            "type": "message",
            "id": f"msg_{self.messages}",
            "status": "completed",
            "role": "assistant",
        }

    def output_part(self, part: TextPart | RefusalPart, data: Mapping[str, Any]) -> dict[str, Any]:
        if isinstance(part, RefusalPart):
            return {"type": "refusal", "refusal": part.text, **data.get("part", {})}
        # An output_text of a response always carries its annotations.
        extra = data.get("part", {"annotations": []} if self.output and "item" not in data else {})
        return {"type": "output_text", "text": part.text, **extra}

    def assistant_item(self, part: Any, path: str) -> dict[str, Any] | None:
        match part:
            case ReasoningPart():
                return self.reasoning(part, path)
            case ToolCallPart():
                return self.tool_call(part, path)
            case OpaquePart() if part.provider == PROVIDER:
                return dict(part.data)
            case OpaquePart():
                self.report.dropped(
                    path, f"a {part.provider} block goes back to {part.provider} only"
                )
            case _:
                self.report.dropped(path, f"the Responses API takes no {part.type} from the model")
        return None

    def reasoning(self, part: ReasoningPart, path: str) -> dict[str, Any] | None:
        if part.provider != PROVIDER:
            made_by = f"made by {part.provider}" if part.provider else "of unknown origin"
            reason = f"the Responses API takes back only its own reasoning ({made_by})"
            self.report.dropped(path, reason)
            return None
        data = _data(part)
        item: dict[str, Any] = {
            "type": "reasoning",
            "summary": data.get("summary", summary_of(part.text)),
            **data.get("item", {}),
        }
        if part.signature is not None:
            item["encrypted_content"] = part.signature
        return item

    def call_id(self, tool_call_id: str, path: str) -> str:
        return fit_call_id(tool_call_id, path, self.report, max_length=CALL_ID_MAX_LENGTH)

    def tool_call(self, part: ToolCallPart, path: str) -> dict[str, Any]:
        data = _data(part)
        kind = data.get("type", "function_call")
        item: dict[str, Any] = {
            "type": kind,
            "call_id": self.call_id(part.id, f"{path}.id"),
            "name": part.name,
            _ARGUMENTS.get(kind, "arguments"): part.arguments,
        }
        if "item" not in data and self.output:
            item["status"] = "completed"
        return {**item, **data.get("item", {})}

    def tool_result(self, part: ToolResultPart, path: str) -> dict[str, Any]:
        data = _data(part)
        if part.is_error:
            self.report.dropped(f"{path}.is_error", "a Responses API tool output has no error flag")
        item: dict[str, Any] = {
            "type": data.get("type", "function_call_output"),
            "call_id": self.call_id(part.tool_call_id, f"{path}.tool_call_id"),
        }
        if default_content_form(part.content) == "string" and data.get("content") != "list":
            item["output"] = part.content[0].text  # type: ignore[union-attr]
        else:
            entries = [
                self.content_part(c, f"{path}.content[{i}]") for i, c in enumerate(part.content)
            ]
            item["output"] = [entry for entry in entries if entry is not None]
        return {**item, **data.get("item", {})}

    def content_part(self, part: Any, path: str) -> dict[str, Any] | None:
        match part:
            case TextPart():
                return {"type": "input_text", "text": part.text, **_data(part).get("part", {})}
            case FilePart():
                return self.file(part, path)
            case OpaquePart() if part.provider == PROVIDER:
                return dict(part.data)
            case OpaquePart():
                self.report.dropped(
                    path, f"a {part.provider} block goes back to {part.provider} only"
                )
        return None

    def file(self, part: FilePart, path: str) -> dict[str, Any] | None:
        data = _data(part)
        kind = data.get("type") or default_file_type(part)
        match kind:
            case "input_image":
                entry = self.image(part)
            case "input_audio":
                entry = self.audio(part)
            case _:
                kind, entry = "input_file", self.document(part, data)
        if entry is None:
            self.report.dropped(
                path, f"the Responses API takes no {part.media_type} file given this way"
            )
            return None
        return {"type": kind, **entry, **data.get("part", {})}

    def image(self, part: FilePart) -> dict[str, Any] | None:
        entry: dict[str, Any] = {}
        if part.file_id is not None:
            entry["file_id"] = part.file_id
        else:
            entry["image_url"] = (
                part.url
                if part.url is not None
                else format_data_url(part.media_type, part.data or "")
            )
        if part.detail is not None:
            entry["detail"] = part.detail
        return entry

    def audio(self, part: FilePart) -> dict[str, Any] | None:
        if part.data is None:
            return None
        format = AUDIO_FORMATS.get(part.media_type, part.media_type.rpartition("/")[2])
        return {"input_audio": {"data": part.data, "format": format}}

    def document(self, part: FilePart, data: Mapping[str, Any]) -> dict[str, Any] | None:
        entry: dict[str, Any] = {}
        if part.file_id is not None:
            entry["file_id"] = part.file_id
        elif part.url is not None:
            entry["file_url"] = part.url
        elif data.get("raw_file_data"):
            entry["file_data"] = part.data
        else:
            entry["file_data"] = format_data_url(part.media_type, part.data or "")
        if part.filename is not None:
            entry["filename"] = part.filename
        return entry


class _Group:
    """The message item text parts are being added to, and the fields it came with."""

    __slots__ = ("fields", "item")

    def __init__(self, fields: dict[str, Any] | None, item: dict[str, Any]) -> None:
        self.fields = fields
        self.item = item
