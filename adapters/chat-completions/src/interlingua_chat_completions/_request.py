"""Chat Completions request bodies to and from `ChatRequest`.

Invariants:

- `encode_request(decode_request(body)) == body` for any body the API takes:
  every form the wire can take (a string or a one-part list, `null` or absent
  content, `system` or `developer`, `max_tokens` or `max_completion_tokens`)
  is kept in `provider_data`/`provider_options` (see `_wire`).
- A history the server would reject (an unanswered tool call, `check_request`)
  raises `InvalidDataError` before anything is built (`_rules`); a call the
  conversation went on without answering goes with an error result after it.
- Encoding never changes the request. What the wire cannot take is left out
  and reported: reasoning the dialect does not take back (as marked text by
  the request's `foreign_reasoning`), other providers' opaque parts, options
  and fields, assistant files, files `_rules` refuses, the error flag of a
  tool result, settings it cannot hold (`_settings`). Reported as transformed:
  a tool-call id that breaks the dialect's rules, files in a tool result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from typing_extensions import assert_never

from interlingua import (
    ChatRequest,
    ContentPart,
    FilePart,
    Message,
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
    copy_json,
    keep,
    kept,
    other_fields,
    report_other_providers,
    resolve_report,
    sent_messages,
    sent_tools,
    wire_model,
)
from interlingua_chat_completions._calls import (
    custom_tool_names,
    decode_tool_calls,
    decode_tool_message,
    encode_tool_call,
)
from interlingua_chat_completions._data import MessageData, message_data
from interlingua_chat_completions._dialect import ChatCompletionsDialect
from interlingua_chat_completions._parts import (
    ABSENT,
    content_marker,
    opaque_item,
    part_decoder,
    part_encoder,
    wire_content,
    with_fields,
)
from interlingua_chat_completions._rules import (
    bridge_tool_turn,
    check_tool_pairs,
    joined_text,
    part_path,
    says_something,
)
from interlingua_chat_completions._settings import decode_settings, encode_settings, modelled
from interlingua_chat_completions._think import with_think
from interlingua_chat_completions._tools import decode_tools, encode_tools
from interlingua_chat_completions._wire import (
    AudioReference,
    MessageEcho,
    MessageForms,
    RequestForms,
)

__all__ = ["decode_request", "encode_request"]

# Sent as a tool message's text when all of a result went to the next user message.
FILES_MOVED_NOTE = "(the result is in the next message)"

# The message fields the codec models, by kind of message; the others are kept.
_ROLE_CONTENT = frozenset({"role", "content"})
_ASSISTANT_MODELLED = _ROLE_CONTENT | {"refusal", "tool_calls", "function_call", "audio"}


def encode_request(
    request: ChatRequest, dialect: ChatCompletionsDialect, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Chat Completions body for `request`; losses go to `report`."""
    return _Encoder(dialect, resolve_report(report, dialect.provider)).request(request)


def decode_request(body: Any, dialect: ChatCompletionsDialect) -> ChatRequest:
    """The `ChatRequest` a Chat Completions body describes."""
    decoder = _Decoder(dialect)
    return decoder.request(decoder.read.body(body))


# --- encoding ---

_FILE_MOVED = "a tool message takes text only; the file goes in a user message after the results"


class _Encoder:
    def __init__(self, dialect: ChatCompletionsDialect, report: TranslationReport) -> None:
        self.parts = part_encoder(dialect, report)
        self.dialect, self.provider, self.report = dialect, dialect.provider, report
        # Ids of the calls last sent as a deprecated `function_call`: their results go
        # as `function` messages, matched by name (a `tool` message would be refused).
        self.legacy_calls: dict[str, str] = {}
        self.custom_tools: frozenset[str] = frozenset()  # the names sent as custom tools

    def request(self, request: ChatRequest) -> dict[str, Any]:
        self.missing = check_tool_pairs(request.messages, self.provider, self.report, adjacent=True)
        self.dialect.check_request(request)
        self.model = request.model
        self.custom_tools = custom_tool_names(request.tools, self.provider)
        options = dict(request.options_for(self.provider))
        body: dict[str, Any] = {
            "model": wire_model(request.model, self.provider),
            "messages": self.messages(sent_messages(request, self.provider, self.report)),
        }
        specs = sent_tools(request, self.provider)
        tools = encode_tools(specs, options.pop("tools", None), self.provider)
        if tools is not None:
            body["tools"] = tools
        body.update(encode_settings(request, options, self.dialect, self.report, bool(tools)))
        for key, value in options.items():
            if key not in body:
                body[key] = copy_json(value)
        report_other_providers(request, self.provider, self.report, self.dialect.shared_settings)
        return body

    # --- messages ---

    def messages(self, messages: Sequence[Message]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        moved: list[dict[str, Any]] = []
        for index, message in enumerate(messages):
            if message.role != "tool" and moved:
                self.after_tool(out, index - 1)  # for the files of tool message `index - 1`
                out.append({"role": "user", "content": moved})
                moved = []
            entry = kept(message, self.provider)
            match message.role:
                case "system":
                    out.append(self.system(message, entry))
                case "user":
                    self.after_tool(out, index)
                    out.append(self.user(message, entry, index))
                case "assistant":
                    self.legacy_calls = {}
                    wire = self.assistant(message, entry, index)
                    if index == len(messages) - 1 and (prefill := self.dialect.prefill_field):
                        wire.setdefault(prefill, True)  # unless the message keeps its own
                    if self.dialect.empty_assistant or says_something(wire, index, self.report):
                        out.append(wire)
                case "tool":
                    out.extend(self.tool_results(message, entry, index, moved))
                case _:
                    assert_never(message.role)
            if index in self.missing.sent_after:
                quiet = _Encoder(self.dialect, TranslationReport())  # the calls' report says it
                quiet.legacy_calls = self.legacy_calls
                results = self.missing.after(index, self.report)
                out.extend(quiet.tool_results(results, {}, index, []))
        if moved:
            self.after_tool(out, len(messages) - 1)
            out.append({"role": "user", "content": moved})
        return out

    def after_tool(self, out: list[dict[str, Any]], index: int) -> None:
        """Before a user message (message `index`'s, or the files of tool message `index`)."""
        bridge_tool_turn(out, self.dialect.tool_user_bridge, f"messages[{index}]", self.report)

    def system(self, message: Message, entry: ProviderEntry) -> dict[str, Any]:
        forms = entry.get("forms", {})
        role = "developer" if forms.get("role") == "developer" else "system"
        items = [self.parts.text(part) for part in message.parts if isinstance(part, TextPart)]
        content = wire_content(items, forms.get("content"), has_other=False)
        return _finished({"role": role}, content, entry)

    def user(self, message: Message, entry: ProviderEntry, index: int) -> dict[str, Any]:
        items = [
            item
            for position, part in enumerate(message.parts)
            if (item := self.parts.user_item(part, index, position))
        ]
        content = wire_content(items, entry.get("forms", {}).get("content"), has_other=False)
        return _finished({"role": "user"}, content, entry)

    def assistant(self, message: Message, entry: ProviderEntry, index: int) -> dict[str, Any]:
        turn = _AssistantTurn(entry.get("echo", {}).get("audio"))
        for position, part in enumerate(message.parts):
            self.assistant_part(turn, part, index, position)
        wire: dict[str, Any] = {"role": "assistant"}
        has_other = bool(turn.tool_calls or turn.function_call or turn.refusals or turn.audio)
        form = entry.get("forms", {}).get("content")
        content = wire_content(turn.items, form, has_other=has_other)
        if turn.think is not None:
            content = with_think(turn.think, content)
        if isinstance(content, list) and not self.dialect.assistant_content_parts:
            content = joined_text(content, f"messages[{index}]", self.provider, self.report)
        self.dialect.encode_reasoning(turn.reasoning, wire)
        if turn.refusals:
            wire["refusal"] = "".join(turn.refusals)
        if turn.tool_calls:
            wire["tool_calls"] = turn.tool_calls
        if turn.function_call is not None:
            wire["function_call"] = turn.function_call
        if turn.audio is not None:
            wire["audio"] = turn.audio
        return _finished(wire, content, entry)

    def assistant_part(
        self, turn: _AssistantTurn, part: ContentPart, index: int, position: int
    ) -> None:
        match part:
            case TextPart():
                turn.items.append(self.parts.text(part))
            case RefusalPart() if (
                item := self.parts.refusal_as_text(part, part_path(index, position))
            ) is not None:
                turn.items.append(item)
            case RefusalPart() if kept(part, self.provider).get("forms", {}).get("in_content"):
                turn.items.append({"type": "refusal", "refusal": part.text})
            case RefusalPart():
                turn.refusals.append(part.text)
            case ToolCallPart():
                self.tool_call(turn, part, index, position)
            case ReasoningPart():
                self.reasoning_part(turn, part, part_path(index, position))
            case FilePart() if "audio" in (echo := kept(part, self.provider).get("echo", {})):
                # An audio answer goes back as the reference to it.
                turn.audio = {"id": echo["audio"]["id"]}
            case FilePart():
                reason = "a Chat Completions assistant turn takes no files"
                self.report.dropped(part_path(index, position), reason, "content")
            case OpaquePart():
                path = part_path(index, position)
                if (item := opaque_item(part, self.provider, path, self.report)) is not None:
                    turn.items.append(item)
            case ToolResultPart():
                # An assistant message holds none (`Message` checks); kept out all the same.
                reason = "an assistant message takes no tool result"
                self.report.dropped(part_path(index, position), reason, "content")
            case _:
                assert_never(part)

    def reasoning_part(self, turn: _AssistantTurn, part: ReasoningPart, path: str) -> None:
        match self.parts.reasoning(part, path, self.model):
            case "item", item:
                turn.items.append(item)
            case "think", prefix:
                turn.think = prefix
            case "field", kept_part:
                turn.reasoning.append(kept_part)

    def tool_call(
        self, turn: _AssistantTurn, part: ToolCallPart, index: int, position: int
    ) -> None:
        entry = kept(part, self.provider)
        if entry.get("forms", {}).get("function_call"):
            turn.function_call = {"name": part.name, "arguments": part.arguments}
            self.legacy_calls[part.id] = part.name
            return
        # A call kept whole goes back as it came, its id too.
        whole = "tool_call" in entry.get("echo", {})
        path = part_path(index, position, "id")
        call_id = part.id if whole else self.dialect.fit_call_id(part.id, path, self.report)
        turn.tool_calls.append(encode_tool_call(part, call_id, entry, self.custom_tools))

    def tool_results(
        self, message: Message, entry: ProviderEntry, index: int, moved: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """One tool message per result, each with the fields the message keeps."""
        return [
            with_fields(self.tool_result(part, index, position, moved), entry)
            for position, part in enumerate(message.parts)
            if isinstance(part, ToolResultPart)
        ]

    def tool_result(
        self, part: ToolResultPart, index: int, position: int, moved: list[dict[str, Any]]
    ) -> dict[str, Any]:
        forms = kept(part, self.provider).get("forms", {})
        wire = self.tool_message(part, forms, part_path(index, position, "tool_call_id"))
        items: list[dict[str, Any]] = []
        files_before = len(moved)
        for k, item in enumerate(part.content):
            match item:
                case TextPart():
                    items.append(self.parts.text(item))
                case OpaquePart():
                    where = part_path(index, position, f"content[{k}]")
                    if (opaque := opaque_item(item, self.provider, where, self.report)) is not None:
                        items.append(opaque)
                case FilePart():
                    where = part_path(index, position, f"content[{k}]")
                    if (file := self.parts.file(item, where)) is not None:
                        # Quirk: a tool message takes text only; its files follow
                        # the tool messages in a user message.
                        self.report.transformed(where, _FILE_MOVED, "content")
                        moved.append(file)
                case _:
                    assert_never(item)
        if part.is_error:
            reason = "a Chat Completions tool message has no error flag"
            self.report.dropped(part_path(index, position, "is_error"), reason, "content")
        content = wire_content(items, forms.get("content"), has_other=False)
        if content is not ABSENT:
            moved_all = content == "" and len(moved) > files_before
            wire["content"] = FILES_MOVED_NOTE if moved_all else content
        return wire

    def tool_message(
        self, part: ToolResultPart, forms: Mapping[str, Any], id_path: str
    ) -> dict[str, Any]:
        if forms.get("role") == "function" or part.tool_call_id in self.legacy_calls:
            name = part.name or self.legacy_calls.get(part.tool_call_id, "")
            return {"role": "function", "name": name}
        call_id = self.dialect.fit_call_id(part.tool_call_id, id_path, self.report)
        wire = {"role": "tool", "tool_call_id": call_id}
        # Quirk: OpenAI's and Groq's references have no tool message `name` (both take one).
        if forms.get("name") and part.name is not None:
            wire["name"] = part.name
        return wire


def _finished(wire: dict[str, Any], content: Any, entry: ProviderEntry) -> dict[str, Any]:
    """A message's `wire` with its `content`, and the fields it keeps laid over."""
    if content is not ABSENT:
        wire["content"] = content
    return with_fields(wire, entry)


@dataclass(slots=True)
class _AssistantTurn:
    """What an assistant message's parts add up to on the wire."""

    audio: dict[str, Any] | None
    items: list[dict[str, Any]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    reasoning: list[ReasoningPart] = field(default_factory=list)
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    function_call: dict[str, Any] | None = None
    think: str | None = None  # the reasoning the content opens with (`_think`)


# --- decoding ---


class _Decoder:
    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.parts = part_decoder(dialect)
        self.dialect, self.provider, self.read = dialect, dialect.provider, self.parts.read
        self.assistant_modelled = _ASSISTANT_MODELLED.union(dialect.reasoning_keys)
        prefill = () if dialect.prefill_field is None else (dialect.prefill_field,)
        self.last_modelled = self.assistant_modelled.union(prefill)
        self.modelled = modelled(dialect)

    def request(self, body: dict[str, Any]) -> ChatRequest:
        read = self.read
        options = other_fields(body, self.modelled)
        forms: RequestForms = {}
        messages = read.field(body, "messages", "", list)
        fields: dict[str, Any] = {
            "model": read.field(body, "model", "", str),
            "messages": tuple(
                [self.message(item, i, i == len(messages) - 1) for i, item in enumerate(messages)]
            ),
            "tools": decode_tools(body.get("tools"), read, options),
            **decode_settings(body, options, forms, self.dialect),
        }
        if options:
            fields["provider_options"] = {self.provider: options}
        if data := keep(self.provider, forms=forms):
            fields["provider_data"] = data
        return ChatRequest(**fields)

    # --- messages ---

    def message(self, wire: Any, index: int, last: bool) -> MessageData:
        path = f"messages[{index}]"
        wire = self.read.object(wire, path)
        role = self.read.field(wire, "role", path, str)
        match role:
            case "system" | "developer" | "user":
                return self.role_message(wire, role, path)
            case "assistant":
                return self.assistant(wire, path, last)
            case "tool" | "function":
                return decode_tool_message(wire, role, path, self.parts)
        raise self.read.error(f"{path}.role", f"unknown role {role!r}")

    def role_message(self, wire: Mapping[str, Any], role: str, path: str) -> MessageData:
        """A system (or developer) or a user message."""
        user = role == "user"
        parts, items = self.parts.content(
            wire, path, self.parts.user_part if user else self.parts.system_item
        )
        forms: MessageForms = {}
        if role == "developer":
            forms["role"] = "developer"
        if form := content_marker(wire, items, has_other=False):
            forms["content"] = form
        fields = None if wire.keys() <= _ROLE_CONTENT else other_fields(wire, _ROLE_CONTENT)
        data = keep(self.provider, fields=fields, forms=forms)
        return message_data("user" if user else "system", parts, data)

    def assistant(self, wire: Mapping[str, Any], path: str, last: bool) -> MessageData:
        read = self.read
        reasoning, said = self.dialect.decode_reasoning(wire, path, read)
        parts: list[Any] = list(reasoning)
        content, items = self.parts.assistant_content(wire, path)
        parts.extend(content)
        refusal = read.field(wire, "refusal", path, str, None)
        if refusal is not None:
            parts.append(RefusalPart(text=refusal))
        calls = decode_tool_calls(wire, path, self.read)
        parts.extend(calls)
        audio = read.field(wire, "audio", path, dict, None)
        # Besides the fields the parts do not say, one sent as null (or an empty
        # list, or a last message's `prefix: false`) is kept as sent.
        modelled = self.last_modelled if last else self.assistant_modelled
        modelled = modelled - (self.dialect.reasoning_keys - said)
        fields = {
            key: value
            for key, value in wire.items()
            if key not in modelled or not (value or key in _ROLE_CONTENT)
        }
        forms: MessageForms = {}
        has_other = bool(calls or refusal is not None or audio)
        if form := content_marker(wire, items, has_other=has_other):
            forms["content"] = form
        echo = MessageEcho(audio=cast("AudioReference", audio)) if audio else None
        data = keep(self.provider, fields=fields, forms=forms, echo=echo)
        return message_data("assistant", parts, data)
