"""Chat Completions request bodies to and from `ChatRequest`.

Invariants:

- `encode_request(decode_request(body)) == body` for any body the API takes:
  every form the wire can take (a string or a one-part list, `null` or absent
  content, `system` or `developer`, `max_tokens` or `max_completion_tokens`)
  is kept in `provider_data`/`provider_options` (see `_wire`).
- A history OpenAI would reject (a tool call left unanswered, a result
  answering none) raises `InvalidDataError` before anything is built (`_rules`).
- Encoding never changes the request. What the wire cannot take is left out
  of the body and reported: reasoning made elsewhere (Chat Completions takes
  none back), opaque parts of other providers, assistant files, a file in
  another provider's file store, audio in a format it does not take, a file's
  `detail` or `filename` where its content part has none, the error flag of a
  tool result, other providers' options, and settings it cannot hold (see
  `_settings`). What must change shape is reported as transformed: a tool-call
  id that breaks OpenAI's rules, files in a tool result (moved to a user
  message after the tool messages).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
from interlingua.codec import WireReader, copy_json, resolve_report, wire_model
from interlingua_openai._common import (
    assert_never,
    entry,
    fit_call_id,
    report_other_providers,
    rest,
)
from interlingua_openai._dialect import OPENAI, ChatCompletionsDialect
from interlingua_openai._parts import (
    ABSENT,
    PartDecoder,
    PartEncoder,
    content_form,
    decode_tool_call,
    encode_tool_call,
    wire_content,
)
from interlingua_openai._rules import check_tool_pairs
from interlingua_openai._settings import MODELLED, decode_settings, encode_settings
from interlingua_openai._tools import decode_tools, encode_tools

__all__ = ["decode_request", "encode_request"]

# Sent as a tool message's text when all of a result went to the next user message.
FILES_MOVED_NOTE = "(the result is in the next message)"


def encode_request(
    request: ChatRequest,
    *,
    report: TranslationReport | None = None,
    dialect: ChatCompletionsDialect = OPENAI,
) -> dict[str, Any]:
    """The Chat Completions body for `request`; losses go to `report`."""
    return copy_json(_Encoder(dialect, resolve_report(report, dialect.provider)).request(request))


def decode_request(body: Any, *, dialect: ChatCompletionsDialect = OPENAI) -> ChatRequest:
    """The `ChatRequest` a Chat Completions body describes."""
    decoder = _Decoder(dialect)
    return decoder.request(decoder.read.body(body))


# --- encoding ---


class _Encoder:
    def __init__(self, dialect: ChatCompletionsDialect, report: TranslationReport) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.report = report
        self.parts = PartEncoder(dialect, report)
        # Ids of the calls last sent as a deprecated `function_call`: their results
        # go as `function` messages, matched by name (a `tool` message would answer
        # no `tool_calls` and be refused).
        self.legacy_calls: dict[str, str] = {}

    def data(self, owner: Any) -> dict[str, Any]:
        return entry(owner, self.provider)

    def request(self, request: ChatRequest) -> dict[str, Any]:
        check_tool_pairs(request.messages, self.provider, adjacent=True)
        options = dict(request.options_for(self.provider))
        body: dict[str, Any] = {
            "model": wire_model(request.model, self.provider),
            "messages": self.messages(request.messages),
        }
        tools = encode_tools(request.tools, options.pop("tools", None), self.provider)
        if tools is not None:
            body["tools"] = tools
        settings = encode_settings(
            request, options, self.dialect, self.report, has_tools=bool(tools)
        )
        body.update(settings)
        for key, value in options.items():
            body.setdefault(key, value)
        report_other_providers(request, self.provider, self.report)
        return body

    # --- messages ---

    def messages(self, messages: Sequence[Message]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        moved: list[dict[str, Any]] = []
        for index, message in enumerate(messages):
            if message.role != "tool" and moved:
                out.append({"role": "user", "content": moved})
                moved = []
            match message.role:
                case "system":
                    out.append(self.system(message))
                case "user":
                    out.append(self.user(message, index))
                case "assistant":
                    self.legacy_calls = {}
                    out.append(self.assistant(message, index))
                case "tool":
                    out.extend(self.tool_results(message, index, moved))
                case _:
                    assert_never(message.role)
        if moved:
            out.append({"role": "user", "content": moved})
        return out

    def finish(self, wire: dict[str, Any], content: Any, data: Mapping[str, Any]) -> dict[str, Any]:
        if content is not ABSENT:
            wire["content"] = content
        if "name" in data:
            wire["name"] = data["name"]
        for key, value in data.get("fields", {}).items():
            wire.setdefault(key, value)
        return wire

    def system(self, message: Message) -> dict[str, Any]:
        data = self.data(message)
        role = "developer" if data.get("role") == "developer" else "system"
        items = [self.parts.text(part) for part in message.parts if isinstance(part, TextPart)]
        content = wire_content(items, data.get("content"), has_other=False)
        return self.finish({"role": role}, content, data)

    def user(self, message: Message, index: int) -> dict[str, Any]:
        data = self.data(message)
        items: list[dict[str, Any]] = []
        for position, part in enumerate(message.parts):
            path = f"messages[{index}].parts[{position}]"
            match part:
                case TextPart():
                    items.append(self.parts.text(part))
                case FilePart():
                    if (item := self.parts.file(part, path)) is not None:
                        items.append(item)
                case OpaquePart():
                    if (item := self.parts.opaque(part, path)) is not None:
                        items.append(item)
                case ReasoningPart() | ToolCallPart() | ToolResultPart() | RefusalPart():
                    # A user message holds none (`Message` checks); kept out all the same.
                    self.report.dropped(path, f"a user message takes no {part.type}")
                case _:
                    assert_never(part)
        content = wire_content(items, data.get("content"), has_other=False)
        return self.finish({"role": "user"}, content, data)

    def assistant(self, message: Message, index: int) -> dict[str, Any]:
        data = self.data(message)
        turn = _AssistantTurn(audio=data.get("audio"))
        for position, part in enumerate(message.parts):
            self.assistant_part(turn, part, f"messages[{index}].parts[{position}]")
        wire: dict[str, Any] = {"role": "assistant"}
        has_other = bool(turn.tool_calls or turn.function_call or turn.refusals or turn.audio)
        content = wire_content(turn.items, data.get("content"), has_other=has_other)
        if isinstance(content, list) and not self.dialect.assistant_content_parts:
            content = self.joined(content, index)
        if turn.reasoning and self.dialect.reasoning_field is not None:
            wire[self.dialect.reasoning_field] = "".join(turn.reasoning)
        if turn.refusals:
            wire["refusal"] = "".join(turn.refusals)
        if turn.tool_calls:
            wire["tool_calls"] = turn.tool_calls
        if turn.function_call is not None:
            wire["function_call"] = turn.function_call
        if turn.audio is not None:
            wire["audio"] = turn.audio
        return self.finish(wire, content, data)

    def joined(self, items: list[dict[str, Any]], index: int) -> str:
        # A dialect whose assistant content is a string only.
        self.report.transformed(
            f"messages[{index}]",
            f"{self.provider} takes an assistant turn's text as one string; parts joined",
        )
        return "\n\n".join(str(item.get("text", item.get("refusal", ""))) for item in items)

    def assistant_part(self, turn: _AssistantTurn, part: ContentPart, path: str) -> None:
        match part:
            case TextPart():
                turn.items.append(self.parts.text(part))
            case RefusalPart() if self.data(part).get("in_content"):
                turn.items.append({"type": "refusal", "refusal": part.text})
            case RefusalPart():
                turn.refusals.append(part.text)
            case ToolCallPart():
                self.tool_call(turn, part, path)
            case ReasoningPart():
                self.reasoning_part(turn, part, path)
            case FilePart() if "audio" in self.data(part):
                # An audio answer goes back as the reference to it.
                turn.audio = {"id": self.data(part)["audio"]["id"]}
            case FilePart():
                self.report.dropped(path, "a Chat Completions assistant turn takes no files")
            case OpaquePart():
                if (item := self.parts.opaque(part, path)) is not None:
                    turn.items.append(item)
            case ToolResultPart():
                # An assistant message holds none (`Message` checks); kept out all the same.
                self.report.dropped(path, "an assistant message takes no tool result")
            case _:
                assert_never(part)

    def reasoning_part(self, turn: _AssistantTurn, part: ReasoningPart, path: str) -> None:
        if self.dialect.takes_reasoning(part):
            turn.reasoning.append(part.text)
            return
        made_by = f"made by {part.provider}" if part.provider else "of unknown origin"
        self.report.dropped(path, f"{self.provider} takes no reasoning back ({made_by})")

    def tool_call(self, turn: _AssistantTurn, part: ToolCallPart, path: str) -> None:
        data = self.data(part)
        if data.get("function_call"):
            turn.function_call = {"name": part.name, "arguments": part.arguments}
            self.legacy_calls[part.id] = part.name
            return
        if "tool_call" in data:
            turn.tool_calls.append(dict(data["tool_call"]))
            return
        call_id = self.call_id(part.id, f"{path}.id")
        turn.tool_calls.append(encode_tool_call(part, call_id, self.provider))

    def call_id(self, tool_call_id: str, path: str) -> str:
        return fit_call_id(
            tool_call_id,
            path,
            self.report,
            allowed=self.dialect.tool_call_id_characters,
            max_length=self.dialect.tool_call_id_max_length,
        )

    def tool_results(
        self, message: Message, index: int, moved: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        out = []
        for position, part in enumerate(message.parts):
            if isinstance(part, ToolResultPart):
                path = f"messages[{index}].parts[{position}]"
                out.append(self.tool_result(part, self.data(message), path, moved))
        return out

    def tool_result(
        self,
        part: ToolResultPart,
        message_data: Mapping[str, Any],
        path: str,
        moved: list[dict[str, Any]],
    ) -> dict[str, Any]:
        data = self.data(part)
        wire = self.tool_message(part, data, path)
        items: list[dict[str, Any]] = []
        files = 0
        for position, item in enumerate(part.content):
            where = f"{path}.content[{position}]"
            match item:
                case TextPart():
                    items.append(self.parts.text(item))
                case OpaquePart():
                    if (entry := self.parts.opaque(item, where)) is not None:
                        items.append(entry)
                case FilePart():
                    if (file := self.parts.file(item, where)) is not None:
                        # Quirk: a tool message takes text only; its files follow
                        # the tool messages in a user message.
                        self.report.transformed(
                            where,
                            "a Chat Completions tool message takes text only; "
                            "the file is sent in a user message after the tool results",
                        )
                        moved.append(file)
                        files += 1
                case _:
                    assert_never(item)
        if part.is_error:
            self.report.dropped(
                f"{path}.is_error", "a Chat Completions tool message has no error flag"
            )
        content = wire_content(items, data.get("content"), has_other=False)
        if content == "" and files:
            content = FILES_MOVED_NOTE
        return self.finish(wire, content, {"fields": message_data.get("fields", {})})

    def tool_message(
        self, part: ToolResultPart, data: Mapping[str, Any], path: str
    ) -> dict[str, Any]:
        if data.get("role") == "function" or part.tool_call_id in self.legacy_calls:
            name = part.name or self.legacy_calls.get(part.tool_call_id, "")
            return {"role": "function", "name": name}
        wire = {
            "role": "tool",
            "tool_call_id": self.call_id(part.tool_call_id, f"{path}.tool_call_id"),
        }
        if "name" in data and self.dialect.tool_message_name:
            wire["name"] = data["name"]
        return wire


class _AssistantTurn:
    """What an assistant message's parts add up to on the wire."""

    __slots__ = ("audio", "function_call", "items", "reasoning", "refusals", "tool_calls")

    def __init__(self, *, audio: dict[str, Any] | None) -> None:
        self.items: list[dict[str, Any]] = []
        self.refusals: list[str] = []
        self.reasoning: list[str] = []
        self.tool_calls: list[dict[str, Any]] = []
        self.function_call: dict[str, Any] | None = None
        self.audio = audio


# --- decoding ---


class _Decoder:
    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.read = WireReader(dialect.provider)
        self.parts = PartDecoder(dialect)

    def pd(self, **data: Any) -> dict[str, dict[str, Any]]:
        return self.parts.pd(**data)

    def request(self, body: dict[str, Any]) -> ChatRequest:
        read = self.read
        options = rest(body, MODELLED)
        hints: dict[str, Any] = {}
        messages = read.array(read.field(body, "messages", "", list), "messages")
        fields: dict[str, Any] = {
            "model": read.field(body, "model", "", str),
            "messages": tuple(self.message(item, i) for i, item in enumerate(messages)),
            "tools": decode_tools(body.get("tools"), read, options),
            **decode_settings(body, options, hints, self.dialect),
        }
        if options:
            fields["provider_options"] = {self.provider: options}
        if hints:
            fields["provider_data"] = {self.provider: hints}
        return ChatRequest(**fields)

    # --- messages ---

    def message(self, wire: Any, index: int) -> Message:
        path = f"messages[{index}]"
        wire = self.read.object(wire, path)
        role = self.read.field(wire, "role", path, str)
        match role:
            case "system" | "developer":
                return self.system(wire, role, path)
            case "user":
                return self.user(wire, path)
            case "assistant":
                return self.assistant(wire, path)
            case "tool" | "function":
                return self.tool_result(wire, role, path)
        raise self.read.error(f"{path}.role", f"unknown role {role!r}")

    def common(self, wire: Mapping[str, Any], known: set[str], path: str) -> dict[str, Any]:
        """The `name` and the fields this codec does not model, of any message."""
        data: dict[str, Any] = {}
        if wire.get("name") is not None:
            data["name"] = self.read.field(wire, "name", path, str)
            known = known | {"name"}
        data["fields"] = rest(wire, known)
        return data

    def form(
        self, wire: Mapping[str, Any], items: list[dict[str, Any]], *, has_other: bool
    ) -> str | None:
        """The content marker: None when `content` has its default form."""
        if "content" not in wire:
            return "absent"
        content = wire["content"]
        default = content_form(items, has_other=has_other)
        if content is None:
            return None if default == "null" else "null"
        if isinstance(content, list):
            return None if default == "list" else "list"
        return None

    def system(self, wire: Mapping[str, Any], role: str, path: str) -> Message:
        parts, items = self.text_content(wire, path, "a system message")
        data = self.common(wire, {"role", "content"}, path)
        return Message(
            role="system",
            parts=tuple(parts),
            provider_data=self.pd(
                role="developer" if role == "developer" else None,
                content=self.form(wire, items, has_other=False),
                **data,
            ),
        )

    def text_content(
        self, wire: Mapping[str, Any], path: str, owner: str
    ) -> tuple[list[Any], list[dict[str, Any]]]:
        """Text parts of a system or tool message; a tool message keeps other
        items as opaque parts, a system message (text only in the core) refuses them."""
        content = wire.get("content")
        path = f"{path}.content"
        if content is None:
            return [], []
        if isinstance(content, str):
            return [TextPart(text=content)], [{"type": "text", "text": content}]
        items = self.read.array(content, path)
        parts: list[Any] = []
        for index, item in enumerate(items):
            item = self.read.object(item, f"{path}[{index}]")
            if item.get("type") == "text":
                parts.append(self.parts.text(item, f"{path}[{index}]"))
            elif owner == "a tool message":
                parts.append(OpaquePart(provider=self.provider, data=item))
            else:
                raise self.read.error(f"{path}[{index}].type", f"{owner} takes text parts only")
        return parts, items

    def user(self, wire: Mapping[str, Any], path: str) -> Message:
        content = wire.get("content")
        parts: list[Any] = []
        items: list[dict[str, Any]] = []
        if isinstance(content, str):
            parts, items = [TextPart(text=content)], [{"type": "text", "text": content}]
        elif content is not None:
            items = self.read.array(content, f"{path}.content")
            parts = [
                self.parts.user_part(item, f"{path}.content[{i}]") for i, item in enumerate(items)
            ]
        data = self.common(wire, {"role", "content"}, path)
        form = self.form(wire, items, has_other=False)
        return Message(role="user", parts=tuple(parts), provider_data=self.pd(content=form, **data))

    def assistant(self, wire: Mapping[str, Any], path: str) -> Message:
        parts: list[Any] = []
        known = {"role", "content", "refusal", "tool_calls", "function_call", "audio"}
        field = self.dialect.reasoning_field
        if field is not None:
            known.add(field)
            if wire.get(field) is not None:
                text = self.read.field(wire, field, path, str)
                parts.append(ReasoningPart(text=text, provider=self.provider))
        items = self.assistant_content(wire, path, parts)
        refusal = self.read.field(wire, "refusal", path, str, None)
        if refusal is not None:
            parts.append(RefusalPart(text=refusal))
        calls = self.tool_calls(wire, path)
        parts.extend(calls)
        audio = self.read.field(wire, "audio", path, dict, None)
        data = self.common(wire, known, path)
        # A field sent as null (or an empty list) is kept as sent.
        data["fields"].update(
            {key: wire[key] for key in known - {"role", "content"} if key in wire and not wire[key]}
        )
        has_other = bool(calls or refusal is not None or audio)
        form = self.form(wire, items, has_other=has_other)
        data = self.pd(content=form, audio=audio, **data)
        return Message(role="assistant", parts=tuple(parts), provider_data=data)

    def assistant_content(
        self, wire: Mapping[str, Any], path: str, parts: list[Any]
    ) -> list[dict[str, Any]]:
        content = wire.get("content")
        if content is None:
            return []
        if isinstance(content, str):
            parts.append(TextPart(text=content))
            return [{"type": "text", "text": content}]
        items = self.read.array(content, f"{path}.content")
        for index, item in enumerate(items):
            where = f"{path}.content[{index}]"
            item = self.read.object(item, where)
            match item.get("type"):
                case "text":
                    parts.append(self.parts.text(item, where))
                case "refusal":
                    refusal = self.read.field(item, "refusal", where, str)
                    parts.append(RefusalPart(text=refusal, provider_data=self.pd(in_content=True)))
                case _:
                    parts.append(OpaquePart(provider=self.provider, data=item))
        return items

    def tool_calls(self, wire: Mapping[str, Any], path: str) -> list[ToolCallPart]:
        calls = [
            decode_tool_call(item, f"{path}.tool_calls[{i}]", self.read)
            for i, item in enumerate(self.read.field(wire, "tool_calls", path, list, None) or [])
        ]
        function_call = self.read.field(wire, "function_call", path, dict, None)
        if function_call is not None:
            where = f"{path}.function_call"
            calls.append(
                ToolCallPart(
                    id="",
                    name=self.read.field(function_call, "name", where, str),
                    arguments=self.read.field(function_call, "arguments", where, str),
                    provider_data={self.provider: {"function_call": True}},
                )
            )
        return calls

    def tool_result(self, wire: Mapping[str, Any], role: str, path: str) -> Message:
        parts, items = self.text_content(wire, path, "a tool message")
        name = self.read.field(wire, "name", path, str, None)
        # An explicit `"name": null` stays among the message's fields, as sent.
        known = {"role", "content", "tool_call_id"} | ({"name"} if name is not None else set())
        form = self.form(wire, items, has_other=False)
        if role == "function":
            # The deprecated `functions` API: results are matched by name, not id.
            call_id, data = "", self.pd(role="function", content=form)
            name = self.read.field(wire, "name", path, str)
        else:
            call_id = self.read.field(wire, "tool_call_id", path, str)
            data = self.pd(name=name, content=form)
        result = ToolResultPart(
            tool_call_id=call_id, name=name, content=tuple(parts), provider_data=data
        )
        fields = self.pd(fields=rest(wire, known))
        return Message(role="tool", parts=(result,), provider_data=fields)
