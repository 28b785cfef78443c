"""Responses API request bodies to and from `ChatRequest`.

The `input` list is flat; the core groups it into turns: a user or system
item is a message, consecutive model-side items (reasoning, an assistant
message, function calls, built-in tool items) are one assistant message (a
second message item starts a new one), consecutive function outputs are one
tool message. `instructions` is a system message first in line, and only a
first system message goes back as `instructions`.

Invariants: `encode_request(decode_request(body)) == body` for any body the
API takes; a history the API would reject (a call without its output, an
output without its call unless the request continues a stored response) raises
`InvalidDataError` first (`_rules`), but for a call the conversation went on
without answering, sent with an error `function_call_output` after it (the
core's `missing_results`, reported at the call); encoding never changes the
request, and what the wire cannot take is reported: reasoning made by another
provider (encrypted reasoning goes back to the Responses API only), other
providers' opaque parts, files from the model, audio in a message, a file in
another provider's file store, the error flag of a tool output, settings it
lacks or cannot hold (`_settings`), a system message flagged as `instructions`
that is not the first message (sent as a system message in the input), and
tool-call ids that break OpenAI's rules (rewritten).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from typing_extensions import assert_never

from interlingua import (
    ChatRequest,
    Message,
    TextPart,
    ToolResultPart,
    ToolSpec,
    TranslationReport,
)
from interlingua.codec import (
    MissingResults,
    WireReader,
    copy_json,
    depth_checked,
    keep,
    kept,
    other_fields,
    report_other_providers,
    resolve_report,
    sent_messages,
    sent_tools,
    wire_model,
)
from interlingua_chat_completions._rules import part_path
from interlingua_openai.responses._parts import PartDecoder, PartEncoder, default_content_form
from interlingua_openai.responses._rules import check_tool_pairs, fit_call_id
from interlingua_openai.responses._settings import (
    MODELLED,
    SHARED,
    decode_settings,
    encode_settings,
)
from interlingua_openai.responses._tools import ToolsEncoder, decode_tool_list, decode_tools
from interlingua_openai.responses._wire import (
    PROVIDER,
    RESULT_ITEMS,
    TOOLS_ITEM,
    MessageForms,
    RequestForms,
    ToolResultForms,
)

__all__ = ["decode_request", "encode_request"]

_API = "the Responses API"
# The fields of an input item the core models; the others are kept beside.
_CONTENT = frozenset({"content"})
_RESULT_MODELLED = frozenset({"type", "call_id", "output"})


def encode_request(
    request: ChatRequest, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Responses API body for `request`; losses go to `report`."""
    return _Encoder(resolve_report(report, PROVIDER)).request(request)


def decode_request(body: Any) -> ChatRequest:
    """The `ChatRequest` a Responses API body describes."""
    decoder = _Decoder()
    with depth_checked(body, PROVIDER):
        return decoder.request(decoder.read.body(body))


def _forms(owner: Any) -> dict[str, Any]:
    return kept(owner, PROVIDER).get("forms", {})


# --- encoding ---


class _Encoder:
    parts: PartEncoder  # made once the request's tools are placed
    missing: MissingResults  # the calls answered on the wire alone (`check_tool_pairs`)

    def __init__(self, report: TranslationReport) -> None:
        self.report = report
        self.items: dict[int, list[dict[str, Any]]] = {}  # tools items, by their place

    def request(self, request: ChatRequest) -> dict[str, Any]:
        options = dict(request.options_for(PROVIDER))
        continued = bool(options.get("previous_response_id") or options.get("conversation"))
        self.missing = check_tool_pairs(request.messages, self.report, continued=continued)
        body: dict[str, Any] = {"model": wire_model(request.model, PROVIDER)}
        placing = ToolsEncoder(sent_tools(request, PROVIDER))
        self.place_items(placing.items(options.pop(TOOLS_ITEM, None)), _forms(request))
        tools = placing.tools(options.pop("tools", None))
        self.parts = PartEncoder(self.report, output=False, tools=placing.placed)
        self.input(body, sent_messages(request, PROVIDER, self.report))
        if tools is not None:
            body["tools"] = tools
        # A stored prompt (`prompt`) may bring its own tools.
        has_tools = bool(tools) or "prompt" in options
        body.update(encode_settings(request, options, self.report, has_tools))
        for key, value in options.items():
            if key not in body:
                body[key] = copy_json(value)
        report_other_providers(request, PROVIDER, self.report, SHARED)
        return body

    # --- input ---

    def place_items(self, items: list[dict[str, Any]], forms: Mapping[str, Any]) -> None:
        """Each `additional_tools` item at its place (after the messages, where none is said)."""
        places = forms.get("additional_tools", [])
        for number, item in enumerate(items):
            place = places[number] if number < len(places) else -1
            self.items.setdefault(place, []).append(item)

    def input(self, body: dict[str, Any], messages: Sequence[Message]) -> None:
        items: list[dict[str, Any]] = []
        sent: list[Message] = []
        for index, message in enumerate(messages):
            items.extend(self.items.pop(index, ()))
            flagged = message.role == "system" and _forms(message).get("instructions")
            if flagged and index == 0:
                body["instructions"] = message.text
                continue
            if flagged:
                # `instructions` come before all input: a later system message, or a
                # second one, would move (or overwrite the first) if sent there.
                self.report.transformed(
                    f"messages[{index}]",
                    f"only a first system message is {_API}'s instructions; "
                    "sent as a system message in its place",
                    "hint",
                )
            sent.append(message)
            items.extend(self.message(message, index))
            if index in self.missing.sent_after:
                # Built as any output is (a custom call's as one); what that
                # changes is the calls' report.
                quiet = _Encoder(TranslationReport())
                quiet.parts = self.parts
                items.extend(quiet.message(self.missing.after(index, self.report), index))
        for place in sorted(self.items):  # after the last message
            items.extend(self.items[place])
        if (
            len(sent) == 1
            and _forms(sent[0]).get("input") == "string"
            and items
            and isinstance(items[0].get("content"), str)
        ):
            body["input"] = items[0]["content"]
        elif items or messages:
            body["input"] = items

    def message(self, message: Message, index: int) -> list[dict[str, Any]]:
        match message.role:
            case "assistant":
                return self.parts.assistant_items(message.parts, f"messages[{index}]")
            case "tool":
                return [
                    self.tool_result(part, index, position)
                    for position, part in enumerate(message.parts)
                    if isinstance(part, ToolResultPart)
                ]
            case "user" | "system":
                return [self.role_message(message, index)]
            case _:
                return assert_never(message.role)

    def tool_result(self, part: ToolResultPart, index: int, position: int) -> dict[str, Any]:
        entry = kept(part, PROVIDER)
        forms = entry.get("forms", {})
        if part.is_error:
            reason = "a Responses API tool output has no error flag"
            self.report.dropped(part_path(index, position, "is_error"), reason, "content")
        path = part_path(index, position, "tool_call_id")
        # The output of a call made elsewhere is of its call's kind.
        custom = part.tool_call_id in self.parts.calls.custom
        kind = "custom_tool_call_output" if custom else "function_call_output"
        item: dict[str, Any] = {
            "type": forms.get("type", kind),
            "call_id": fit_call_id(part.tool_call_id, path, self.report),
        }
        if default_content_form(part.content) == "string" and forms.get("content") != "list":
            item["output"] = part.content[0].text  # type: ignore[union-attr]
        else:
            entries = [
                self.parts.content_part(c, part_path(index, position, f"content[{i}]"))
                for i, c in enumerate(part.content)
            ]
            item["output"] = [wire for wire in entries if wire is not None]
        return {**item, **copy_json(entry.get("fields", {}))}

    def role_message(self, message: Message, index: int) -> dict[str, Any]:
        entry = kept(message, PROVIDER)
        entries = [
            self.parts.content_part(part, part_path(index, position))
            for position, part in enumerate(message.parts)
        ]
        content: list[dict[str, Any]] = [wire for wire in entries if wire is not None]
        form = entry.get("forms", {}).get("content") or default_content_form(message.parts)
        item: dict[str, Any] = (
            copy_json(entry["fields"]) if "fields" in entry else {"role": message.role}
        )
        item["content"] = content[0]["text"] if form == "string" and content else content
        return item


# --- decoding ---


class _Decoder:
    def __init__(self) -> None:
        self.read = WireReader(PROVIDER)
        self.parts = PartDecoder()
        self.item_tools: list[ToolSpec] = []  # the specs of the `additional_tools` items

    def request(self, body: dict[str, Any]) -> ChatRequest:
        options = other_fields(body, MODELLED)
        forms: RequestForms = {}
        fields: dict[str, Any] = {
            "model": self.read.field(body, "model", "", str),
            "messages": self.messages(body, options, forms),
            "tools": (*decode_tools(body.get("tools"), self.read, options), *self.item_tools),
            **decode_settings(body, options, forms, self.read),
        }
        if options:
            fields["provider_options"] = {PROVIDER: options}
        if data := keep(PROVIDER, forms=forms):
            fields["provider_data"] = data
        return ChatRequest(**fields)

    # --- input ---

    def messages(
        self, body: Mapping[str, Any], options: dict[str, Any], forms: RequestForms
    ) -> tuple[Message, ...]:
        messages: list[Message] = []
        instructions = body.get("instructions")
        if isinstance(instructions, str):
            data = keep(PROVIDER, forms=MessageForms(instructions=True))
            messages.append(
                Message(role="system", parts=(TextPart(text=instructions),), provider_data=data)
            )
        elif "instructions" in body:
            options["instructions"] = instructions
        wire = body.get("input")
        if isinstance(wire, str):
            data = keep(PROVIDER, forms=MessageForms(input="string"))
            messages.append(Message(role="user", parts=(TextPart(text=wire),), provider_data=data))
        elif wire:
            turns = _Turns(self, len(messages))
            messages.extend(turns.build(self.read.array(wire, "input")))
            if turns.items:
                options[TOOLS_ITEM] = turns.items
                forms["additional_tools"] = turns.places
        elif "input" in body:
            options["input"] = wire  # null or an empty list, as sent
        return tuple(messages)

    def role_message(self, item: Mapping[str, Any], path: str) -> Message:
        role = self.read.field(item, "role", path, str)
        if role not in ("user", "system", "developer"):
            raise self.read.error(f"{path}.role", f"unknown role {role!r}")
        parts, listed = self.content(item, "content", path)
        forms: MessageForms = {"content": "list"} if listed else {}
        core_role: Literal["user", "system"] = "user" if role == "user" else "system"
        data = keep(PROVIDER, fields=other_fields(item, _CONTENT), forms=forms)
        return Message(role=core_role, parts=tuple(parts), provider_data=data)

    def content(self, item: Mapping[str, Any], key: str, path: str) -> tuple[list[Any], bool]:
        """The parts of an item's `key` (a string, or a list of content entries), and
        whether a list stands where a lone string was the default form."""
        value = item.get(key)
        if isinstance(value, str):
            return [TextPart(text=value)], False
        entries = self.read.field(item, key, path, list)
        parts = [
            self.parts.content_part(entry, f"{path}.{key}[{i}]") for i, entry in enumerate(entries)
        ]
        return parts, default_content_form(parts) != "list"

    def tools_item(self, item: dict[str, Any], path: str) -> dict[str, Any]:
        """An `additional_tools` item: its specs join the request's tools; it is kept
        with each spec as its name."""
        tools = self.read.field(item, "tools", path, list)
        specs, layout = decode_tool_list(tools, f"{path}.tools", self.read)
        self.item_tools += specs
        return {**item, "tools": layout}

    def tool_result(self, item: Mapping[str, Any], path: str) -> ToolResultPart:
        kind = self.read.field(item, "type", path, str)
        forms: ToolResultForms = {}
        if kind == "custom_tool_call_output":
            forms["type"] = "custom_tool_call_output"
        content, listed = self.content(item, "output", path)
        if listed:
            forms["content"] = "list"
        fields = other_fields(item, _RESULT_MODELLED)
        return ToolResultPart(
            tool_call_id=self.read.field(item, "call_id", path, str),
            content=tuple(content),
            provider_data=keep(PROVIDER, fields=fields, forms=forms),
        )


def _is_assistant_item(item: Mapping[str, Any]) -> bool:
    """Whether an input item belongs to the model's side of the conversation."""
    if "role" in item and item.get("type", "message") == "message":
        return bool(item["role"] == "assistant")
    return item.get("type") not in RESULT_ITEMS


class _Turns:
    """Groups the flat `input` list into core messages; `additional_tools` items
    are kept apart (`items`), with the message each came before (`places`)."""

    def __init__(self, decoder: _Decoder, before: int) -> None:
        self.decoder = decoder
        self.before = before  # the messages before the input's (the instructions)
        self.messages: list[Message] = []
        self.assistant: list[Any] = []
        self.has_text = False
        self.results: list[ToolResultPart] = []
        self.items: list[dict[str, Any]] = []
        self.places: list[int] = []

    def build(self, items: Sequence[Any]) -> list[Message]:
        read = self.decoder.read
        for index, raw in enumerate(items):
            path = f"input[{index}]"
            item = read.object(raw, path)
            if item.get("type") == TOOLS_ITEM:
                self.close_assistant()
                self.close_results()
                self.items.append(self.decoder.tools_item(item, path))
                self.places.append(self.before + len(self.messages))
            elif item.get("type") in RESULT_ITEMS:
                self.close_assistant()
                self.results.append(self.decoder.tool_result(item, path))
            elif _is_assistant_item(item):
                self.close_results()
                self.add_assistant(item, path)
            else:
                self.close_assistant()
                self.close_results()
                self.messages.append(self.decoder.role_message(item, path))
        self.close_assistant()
        self.close_results()
        return self.messages

    def add_assistant(self, item: dict[str, Any], path: str) -> None:
        is_message = item.get("type", "message") == "message"
        if is_message and self.has_text:
            self.close_assistant()
        self.assistant.extend(self.decoder.parts.assistant_item(item, path))
        self.has_text = self.has_text or is_message

    def close_assistant(self) -> None:
        if self.assistant:
            self.messages.append(Message(role="assistant", parts=tuple(self.assistant)))
            self.assistant, self.has_text = [], False

    def close_results(self) -> None:
        if self.results:
            self.messages.append(Message(role="tool", parts=tuple(self.results)))
            self.results = []
