"""Responses API items and content parts to and from core parts.

    wire item                                   core part
    message (assistant): output_text, refusal   TextPart, RefusalPart (the item in `echo.item`)
    message (user, system): input_text,         TextPart, FilePart (the message: `_request`)
      input_image, input_file
    reasoning                                   ReasoningPart (`_reasoning`)
    function_call, custom_tool_call             ToolCallPart, named `<namespace>--<name>` in a
                                                namespace, a custom call as the freeform tool's
                                                call (`ToolName`): arguments `{"input": ...}`
    any other item                              OpaquePart (back to this API only)

Requests (input items) and responses (output items) share these: the API
takes its output items back as input (tool outputs are the request's,
`_request`). Encoding groups consecutive parts of one message item back into
it. Invariant: `encode_*(decode_*(x)) == x` for every item the API sends or takes.
Empty assistant text made elsewhere is left out of a request (`_rules`).

A message item's content entry the core does not model becomes an opaque part
holding the item with that entry alone, beside the parts of the entries it
does model; encoding merges it back into its item. So a stream, which gives
the text as it comes, accumulates to the same parts as the finished item.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    ToolName,
    ToolResultPart,
    TranslationReport,
)
from interlingua.codec import ProviderEntry, WireReader, copy_json, keep, kept, other_fields
from interlingua_chat_completions._parts import (
    inline_data,
    inline_url,
    opaque_item,
    split_data_url,
    with_fields,
)
from interlingua_chat_completions._rules import OPENAI_FILE_STORE, guess_media_type, takes_file
from interlingua_openai.responses._calls import CallEncoder, decode_call
from interlingua_openai.responses._reasoning import decode_reasoning, encode_reasoning
from interlingua_openai.responses._rules import (
    ASSISTANT_CONTENT,
    FILE_FIELDS,
    empty_text_left_out,
    takes_in_message,
)
from interlingua_openai.responses._wire import (
    PROVIDER,
    FileForms,
    OutputTextEcho,
    OutputTextForms,
)

__all__ = ["PartDecoder", "PartEncoder", "default_content_form"]

# The keys of each file content type the codec models (`_file_entry` writes them).
_FILE_KEYS = {
    "input_image": frozenset({"type", "image_url", "file_id", "detail"}),
    "input_file": frozenset({"type", "file_data", "file_id", "file_url", "filename", "detail"}),
}
_FileValues = tuple[dict[str, Any], FileForms]


def default_file_type(media_type: str) -> str:
    """The content type a file of `media_type` goes in, unless told otherwise."""
    return "input_image" if media_type.split("/", 1)[0] == "image" else "input_file"


def default_content_form(parts: Sequence[Any]) -> str:
    """`string` for one plain text part, else `list`."""
    lone = len(parts) == 1 and isinstance(parts[0], TextPart) and not kept(parts[0], PROVIDER)
    return "string" if lone else "list"


def _message_piece(part: OpaquePart) -> tuple[dict[str, Any], list[Any]] | None:
    """The item fields and content of an opaque message item (one this codec split
    off for a content entry it does not model), None for any other opaque part."""
    data = part.data
    content = data.get("content")
    is_message = data.get("type", "message") == "message" and "role" in data
    if part.provider != PROVIDER or not is_message or not isinstance(content, list) or not content:
        return None
    return other_fields(data, ("content",)), content


# --- the wire form of a file, None when the Responses API cannot take it ---


def _file_entry(part: FilePart, kind: str, forms: Mapping[str, Any]) -> dict[str, Any] | None:
    if not takes_in_message(part):
        return None
    wire: dict[str, Any] = {"type": kind}
    if part.file_id is not None:
        wire["file_id"] = part.file_id
    elif kind == "input_image":
        wire["image_url"] = inline_url(part)
    elif part.url is not None:
        wire["file_url"] = part.url
    else:
        wire["file_data"] = inline_data(part, raw=bool(forms.get("raw_file_data")))
    if part.filename is not None and kind == "input_file":
        wire["filename"] = part.filename
    if part.detail is not None:
        wire["detail"] = part.detail
    return wire


class PartDecoder:
    """Wire items and content parts to core parts."""

    def __init__(self) -> None:
        self.read = WireReader(PROVIDER)

    # --- assistant-side items ---

    def assistant_item(self, item: dict[str, Any], path: str) -> list[ContentPart]:
        match item.get("type", "message"):
            case "message":
                return self.message_parts(item, path)
            case "reasoning":
                return [self.reasoning(item, path)]
            case "function_call" | "custom_tool_call":
                return [self.tool_call(item, path)]
        return [OpaquePart(provider=PROVIDER, data=item)]

    def message_parts(self, item: dict[str, Any], path: str) -> list[ContentPart]:
        fields = other_fields(item, ("content",))
        content = item.get("content")
        if isinstance(content, str):
            echo = OutputTextEcho(item=fields) if fields else None
            data = keep(PROVIDER, forms=OutputTextForms(content="string"), echo=echo)
            return [TextPart(text=content, provider_data=data)]
        entries = self.read.field(item, "content", path, list)
        if not entries:
            # Nothing to hang the item on: kept whole.
            return [OpaquePart(provider=PROVIDER, data=item)]
        parts = []
        for index, entry in enumerate(entries):
            where = f"{path}.content[{index}]"
            parts.append(self.output_part(self.read.object(entry, where), fields, where))
        return parts

    def output_part(self, entry: dict[str, Any], item: dict[str, Any], path: str) -> ContentPart:
        """One content entry of an assistant message item; `item` is the item's other fields."""
        kind = entry.get("type")
        if kind not in ASSISTANT_CONTENT:
            return OpaquePart(provider=PROVIDER, data={**item, "content": [entry]})
        key = "text" if kind == "output_text" else "refusal"
        text = self.read.field(entry, key, path, str)
        fields = other_fields(entry, ("type", key))
        data = keep(PROVIDER, fields=fields, echo=OutputTextEcho(item=item) if item else None)
        if kind == "refusal":
            return RefusalPart(text=text, provider_data=data)
        return TextPart(text=text, provider_data=data)

    def reasoning(self, item: Mapping[str, Any], path: str) -> ReasoningPart:
        return decode_reasoning(self.read, item, path)

    def tool_call(self, item: Mapping[str, Any], path: str) -> ToolCallPart:
        return decode_call(self.read, item, path)

    # --- content parts of input messages ---

    def content_part(self, entry: Any, path: str) -> TextPart | FilePart | OpaquePart:
        entry = self.read.object(entry, path)
        kind = self.read.field(entry, "type", path, str)
        match kind:
            case "input_text":
                text = self.read.field(entry, "text", path, str)
                fields = other_fields(entry, ("type", "text"))
                return TextPart(text=text, provider_data=keep(PROVIDER, fields=fields))
            case "input_image":
                return self.file(entry, kind, self.image(entry, path))
            case "input_file":
                return self.file(entry, kind, self.document(entry, path))
        return OpaquePart(provider=PROVIDER, data=entry)

    def file(self, entry: Mapping[str, Any], kind: str, read: _FileValues) -> FilePart:
        values, forms = read
        if default_file_type(values["media_type"]) != kind:
            forms["type"] = kind
        # Beside the fields the part gives, a null is kept: encoding leaves it out.
        modelled = _FILE_KEYS[kind]
        fields = {
            key: value for key, value in entry.items() if key not in modelled or value is None
        }
        return FilePart(**values, provider_data=keep(PROVIDER, fields=fields, forms=forms))

    def image(self, entry: Mapping[str, Any], path: str) -> _FileValues:
        fields: dict[str, Any] = {"detail": self.read.field(entry, "detail", path, str, None)}
        url = self.read.field(entry, "image_url", path, str, None)
        file_id = self.read.field(entry, "file_id", path, str, None)
        if (url is None) == (file_id is None):
            raise self.read.error(path, "an input_image needs one of image_url and file_id")
        if file_id is not None:
            fields.update(file_id=file_id, provider=OPENAI_FILE_STORE, media_type="image/*")
        elif (inline := split_data_url(url or "")) is not None:
            fields["media_type"], fields["data"] = inline
        else:
            fields.update(url=url, media_type=guess_media_type(url, kind="image"))
        return fields, {}

    def document(self, entry: Mapping[str, Any], path: str) -> _FileValues:
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
        fields: dict[str, Any] = {
            "filename": filename,
            "detail": self.read.field(entry, "detail", path, str, None),
        }
        source, value = given[0], sources[given[0]]
        guessed = guess_media_type(
            filename or (value if source == "file_url" else None), kind="application"
        )
        match source:
            case "file_id":
                fields.update(file_id=value, provider=OPENAI_FILE_STORE, media_type=guessed)
            case "file_url":
                fields.update(url=value, media_type=guessed)
            case _ if (inline := split_data_url(value or "")) is not None:
                fields["media_type"], fields["data"] = inline
            case _:
                # Quirk: bare base64 with a filename, no data URL.
                fields.update(data=value, media_type=guessed)
                return fields, {"raw_file_data": True}
        return fields, {}


class PartEncoder:
    """Core parts to wire items and content parts. `output` builds output items
    (a response body) rather than input items (a request)."""

    def __init__(
        self,
        report: TranslationReport,
        *,
        output: bool,
        tools: Mapping[str, ToolName] | None = None,
    ) -> None:
        self.report = report
        self.output = output
        self.calls = CallEncoder(report, output=output, tools=tools)

    def assistant_items(self, parts: Sequence[ContentPart], path: str) -> list[dict[str, Any]]:
        """The items of the parts of the message at `path`."""
        items: list[dict[str, Any]] = []
        group: _Group | None = None
        for position, part in enumerate(parts):
            where = f"{path}.parts[{position}]"
            if not self.output and empty_text_left_out(part, where, self.report):
                continue
            if isinstance(part, TextPart | RefusalPart):
                group = self.add_text(items, group, part)
            elif isinstance(part, OpaquePart) and (piece := _message_piece(part)) is not None:
                group = self.add_piece(items, group, *piece)
            else:
                group = None
                if (item := self.assistant_item(part, path, position)) is not None:
                    items.append(item)
        return items

    def add_text(
        self, items: list[dict[str, Any]], group: _Group | None, part: TextPart | RefusalPart
    ) -> _Group | None:
        """Adds a text or refusal part to the message item it came from (the open
        one, when they match); the group left open for the next part."""
        kept_data = kept(part, PROVIDER)
        fields = kept_data.get("echo", {}).get("item")
        if kept_data.get("forms", {}).get("content") == "string":
            items.append({**copy_json(fields or {"role": "assistant"}), "content": part.text})
            return None
        entry = self.output_part(part, kept_data)
        if group is not None and group.fields == fields:
            group.item["content"].append(entry)
            return group
        if fields is None and not self.output:
            # Text made elsewhere goes back as a plain assistant message; a refusal as
            # `refusal` content, which an assistant input message takes (`_rules`).
            content: Any = part.text if isinstance(part, TextPart) else [entry]
            items.append({"role": "assistant", "content": content})
            return None
        item = self.new_message() if fields is None else copy_json(fields)
        item["content"] = [entry]
        items.append(item)
        return _Group(fields, item)

    def add_piece(
        self,
        items: list[dict[str, Any]],
        group: _Group | None,
        fields: dict[str, Any],
        content: list[Any],
    ) -> _Group:
        """Merges content entries split off a message item (copies) back into it."""
        if group is not None and group.fields == fields:
            group.item["content"].extend(copy_json(content))
            return group
        item = {**copy_json(fields), "content": copy_json(content)}
        items.append(item)
        return _Group(fields, item)

    def new_message(self) -> dict[str, Any]:
        """A message item for text made elsewhere; its id is given by its place
        (`_response.with_ids`)."""
        return {"type": "message", "status": "completed", "role": "assistant"}

    def output_part(self, part: TextPart | RefusalPart, entry: ProviderEntry) -> dict[str, Any]:
        if isinstance(part, RefusalPart):
            return with_fields({"type": "refusal", "refusal": part.text}, entry)
        text: dict[str, Any] = {"type": "output_text", "text": part.text}
        if "fields" in entry:
            return with_fields(text, entry)
        if self.output and "item" not in entry.get("echo", {}):
            text["annotations"] = []  # an output_text of a response always carries them
        return text

    def assistant_item(self, part: ContentPart, path: str, position: int) -> dict[str, Any] | None:
        """The item of part `position` of the message at `path`."""
        match part:
            case ReasoningPart() if part.provider == PROVIDER:
                return self.reasoning(part)
            case ReasoningPart():
                made_by = f"made by {part.provider}" if part.provider else "of unknown origin"
                reason = f"the Responses API takes back only its own reasoning ({made_by})"
                self.report.dropped(f"{path}.parts[{position}]", reason, "setting")
            case ToolCallPart():
                return self.tool_call(part, f"{path}.parts[{position}].id")
            case OpaquePart():
                return opaque_item(part, PROVIDER, f"{path}.parts[{position}]", self.report)
            case TextPart() | RefusalPart() | FilePart() | ToolResultPart():
                reason = f"the Responses API takes no {part.type} from the model"
                self.report.dropped(f"{path}.parts[{position}]", reason, "content")
            case _:
                assert_never(part)
        return None

    def reasoning(self, part: ReasoningPart) -> dict[str, Any]:
        return encode_reasoning(part)

    def tool_call(self, part: ToolCallPart, id_path: str) -> dict[str, Any]:
        return self.calls.encode(part, id_path)

    def content_part(self, part: ContentPart, path: str) -> dict[str, Any] | None:
        match part:
            case TextPart():
                return with_fields({"type": "input_text", "text": part.text}, kept(part, PROVIDER))
            case FilePart():
                return self.file(part, path)
            case OpaquePart():
                return opaque_item(part, PROVIDER, path, self.report)
            case ReasoningPart() | ToolCallPart() | ToolResultPart() | RefusalPart():
                # A user or system message holds none (`Message` checks); kept out all the same.
                self.report.dropped(
                    path, f"a Responses API message takes no {part.type}", "content"
                )
            case _:
                assert_never(part)
        return None

    def file(self, part: FilePart, path: str) -> dict[str, Any] | None:
        if not takes_file(part, OPENAI_FILE_STORE, path, self.report):
            return None
        entry = kept(part, PROVIDER)
        forms = entry.get("forms", {})
        kind = forms.get("type") or default_file_type(part.media_type)
        wire = _file_entry(part, kind, forms)
        if wire is None:
            self.report.dropped(
                path, f"the Responses API takes no {part.media_type} in a message", "content"
            )
            return None
        FILE_FIELDS.report_unsent(part, kind, path, self.report)
        return with_fields(wire, entry)


class _Group:
    """The message item text parts are being added to, and the fields it came with."""

    __slots__ = ("fields", "item")

    def __init__(self, fields: dict[str, Any] | None, item: dict[str, Any]) -> None:
        self.fields = fields
        self.item = item
