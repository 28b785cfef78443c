"""Responses API request bodies to and from `ChatRequest`.

The `input` list is flat; the core groups it into turns: a user or system
item is a message, consecutive model-side items (reasoning, an assistant
message, function calls, built-in tool items) are one assistant message (a
second message item starts a new one), consecutive function outputs are one
tool message. `instructions` is a system message first in line.

Invariants: `encode_request(decode_request(body)) == body` for any body the
API takes; a history the API would reject (a call without its output, an
output without its call unless the request continues a stored response)
raises `InvalidDataError` first (`_rules`); encoding never changes the
request, and what the wire cannot take
is reported: reasoning made by another provider (encrypted reasoning goes
back to the Responses API only), other providers' opaque parts, files from
the model, the error flag of a tool output, settings it lacks (`stop`,
`seed`, `top_k`), and tool-call ids that break OpenAI's rules (rewritten).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from interlingua import (
    ChatRequest,
    Message,
    ReasoningConfig,
    ResponseFormat,
    TextPart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
    TranslationReport,
)
from interlingua.codec import WireReader, as_wire_dict, copy_json, resolve_report
from interlingua_openai._common import rest
from interlingua_openai._rules import check_tool_pairs
from interlingua_openai.responses._items import (
    ItemDecoder,
    ItemEncoder,
    default_content_form,
    is_assistant_item,
)
from interlingua_openai.responses._wire import PROVIDER, RESULT_ITEMS

__all__ = ["decode_request", "encode_request"]

_MODELLED = frozenset(
    {
        "model",
        "input",
        "instructions",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "max_output_tokens",
        "temperature",
        "top_p",
        "reasoning",
        "text",
        "stream",
    }
)
_CHOICE_MODES = ("auto", "none", "required")


def encode_request(
    request: ChatRequest, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Responses API body for `request`; losses go to `report`."""
    return copy_json(_Encoder(resolve_report(report, PROVIDER)).request(request))


def decode_request(body: Any) -> ChatRequest:
    """The `ChatRequest` a Responses API body describes."""
    return _Decoder().request(as_wire_dict(body))


def _data(owner: Any) -> dict[str, Any]:
    provider_data: dict[str, dict[str, Any]] = owner.provider_data
    return provider_data.get(PROVIDER, {})


# --- encoding ---


class _Encoder:
    def __init__(self, report: TranslationReport) -> None:
        self.report = report
        self.items = ItemEncoder(report, output=False)

    def request(self, request: ChatRequest) -> dict[str, Any]:
        options = dict(request.options_for(PROVIDER))
        continued = bool(options.get("previous_response_id") or options.get("conversation"))
        check_tool_pairs(request.messages, PROVIDER, adjacent=False, continued=continued)
        body: dict[str, Any] = {"model": request.model}
        self.input(body, request.messages)
        self.tools(body, request.tools, options)
        if request.tool_choice is not None:
            choice = request.tool_choice
            body["tool_choice"] = (
                {"type": "function", "name": choice.name} if choice.mode == "tool" else choice.mode
            )
        if request.parallel_tool_calls is not None:
            body["parallel_tool_calls"] = request.parallel_tool_calls
        self.sampling(body, request)
        self.reasoning(body, request.reasoning, options)
        self.text(body, request.response_format, options)
        explicit, sent = "stream" in options, options.pop("stream", None)
        if request.stream or explicit:
            body["stream"] = True if request.stream else sent
        self.context(options, request)
        for key, value in options.items():
            body.setdefault(key, value)
        for provider, settings in request.provider_options.items():
            for key in settings if provider != PROVIDER else ():
                self.report.dropped(f"provider_options.{provider}.{key}", f"a {provider} setting")
        return body

    def sampling(self, body: dict[str, Any], request: ChatRequest) -> None:
        if request.max_tokens is not None:
            body["max_output_tokens"] = request.max_tokens
        for name in ("temperature", "top_p"):
            if (value := getattr(request, name)) is not None:
                body[name] = value
        for name, value in (
            ("top_k", request.top_k),
            ("seed", request.seed),
            ("stop", request.stop),
        ):
            if value:
                self.report.dropped(name, f"the Responses API has no {name}")

    def reasoning(
        self, body: dict[str, Any], config: ReasoningConfig | None, options: dict[str, Any]
    ) -> None:
        # What the core does not model (a null, other keys) was kept in options.
        present, recorded = "reasoning" in options, options.pop("reasoning", None)
        reasoning = dict(recorded or {})
        if config is not None:
            if config.effort is not None:
                reasoning["effort"] = config.effort
            elif config.budget_tokens is not None:
                self.report.dropped(
                    "reasoning.budget_tokens",
                    "the Responses API takes an effort, not a token budget",
                )
            if config.summary is not None:
                reasoning["summary"] = config.summary
        if reasoning or present:
            body["reasoning"] = reasoning if reasoning or recorded is not None else None

    def text(
        self, body: dict[str, Any], format: ResponseFormat | None, options: dict[str, Any]
    ) -> None:
        present, recorded = "text" in options, options.pop("text", None)
        text = dict(recorded or {})
        if format is not None:
            text["format"] = _format(format)
        if text or present:
            body["text"] = text if text or recorded is not None else None

    def context(self, options: dict[str, Any], request: ChatRequest) -> None:
        context = request.context
        if context is None:
            return
        if context.user_id is not None and not {"user", "safety_identifier"} & options.keys():
            options["safety_identifier"] = context.user_id
        if context.session_id is not None:
            options.setdefault("prompt_cache_key", context.session_id)

    def tools(
        self, body: dict[str, Any], tools: Sequence[ToolSpec], options: dict[str, Any]
    ) -> None:
        functions = [self.tool(spec) for spec in tools]
        recorded = options.pop("tools", None)
        if isinstance(recorded, list):
            # Built-in tools the core does not model, in their places while the
            # function tools are still the request's.
            kept = [t for t in recorded if isinstance(t, dict) and t.get("type") == "function"]
            others = [t for t in recorded if t not in kept]
            body["tools"] = recorded if kept == functions else functions + others
        elif functions:
            body["tools"] = functions

    def tool(self, spec: ToolSpec) -> dict[str, Any]:
        data = _data(spec)
        tool: dict[str, Any] = {"type": "function", "name": spec.name}
        if spec.description is not None:
            tool["description"] = spec.description
        if data.get("parameters") != "absent":
            tool["parameters"] = spec.parameters
        if spec.strict is not None:
            tool["strict"] = spec.strict
        return {**tool, **data.get("fields", {})}

    # --- input ---

    def input(self, body: dict[str, Any], messages: Sequence[Message]) -> None:
        items: list[dict[str, Any]] = []
        for index, message in enumerate(messages):
            data = _data(message)
            if message.role == "system" and data.get("instructions"):
                body["instructions"] = message.text
                continue
            items.extend(self.message(message, f"messages[{index}]"))
        lone = [m for m in messages if not _data(m).get("instructions")]
        if (
            len(lone) == 1
            and _data(lone[0]).get("input") == "string"
            and isinstance(items[0].get("content"), str)
        ):
            body["input"] = items[0]["content"]
        elif items or messages:
            body["input"] = items

    def message(self, message: Message, path: str) -> list[dict[str, Any]]:
        match message.role:
            case "assistant":
                return self.items.assistant_items(message.parts, path)
            case "tool":
                return [
                    self.items.tool_result(part, f"{path}.parts[{index}]")
                    for index, part in enumerate(message.parts)
                    if isinstance(part, ToolResultPart)
                ]
        return [self.role_message(message, path)]

    def role_message(self, message: Message, path: str) -> dict[str, Any]:
        data = _data(message)
        entries = [
            self.items.content_part(part, f"{path}.parts[{i}]")
            for i, part in enumerate(message.parts)
        ]
        content: list[dict[str, Any]] = [entry for entry in entries if entry is not None]
        form = data.get("content") or default_content_form(message.parts)
        item = dict(data.get("item", {"role": message.role}))
        item["content"] = content[0]["text"] if form == "string" and content else content
        return item


def _named_function(wire: Any) -> str | None:
    """The name in `{"type": "function", "name": ...}`, if that is all there is."""
    if isinstance(wire, dict) and set(wire) == {"type", "name"} and wire["type"] == "function":
        name = wire["name"]
        return name if isinstance(name, str) else None
    return None


def _format(format: ResponseFormat) -> dict[str, Any]:
    if format.type != "json_schema":
        return {"type": format.type}
    wire: dict[str, Any] = {
        "type": "json_schema",
        "name": format.name or "response",
        "schema": format.json_schema,
    }
    if format.description is not None:
        wire["description"] = format.description
    if format.strict is not None:
        wire["strict"] = format.strict
    return wire


# --- decoding ---


class _Decoder:
    def __init__(self) -> None:
        self.read = WireReader(PROVIDER)
        self.items = ItemDecoder()

    def request(self, body: dict[str, Any]) -> ChatRequest:
        read = self.read
        options = rest(body, _MODELLED)
        fields: dict[str, Any] = {
            "model": read.field(body, "model", "", str),
            "messages": self.messages(body, options),
            "tools": self.tools(body.get("tools"), options),
            "tool_choice": self.tool_choice(body, options),
            "parallel_tool_calls": self.scalar(body, "parallel_tool_calls", bool, options),
            "max_tokens": self.scalar(body, "max_output_tokens", int, options),
            "temperature": self.number(body, "temperature", options),
            "top_p": self.number(body, "top_p", options),
            "reasoning": self.reasoning(body, options),
            "response_format": self.text(body, options),
            "stream": bool(self.scalar(body, "stream", bool, options)),
        }
        if body.get("stream") is False:
            options["stream"] = False
        if options:
            fields["provider_options"] = {PROVIDER: options}
        return ChatRequest(**fields)

    def scalar(
        self, body: Mapping[str, Any], key: str, kind: type[Any], options: dict[str, Any]
    ) -> Any:
        if body.get(key) is None:
            if key in body:
                options[key] = None
            return None
        return self.read.field(body, key, "", kind)

    def number(self, body: Mapping[str, Any], key: str, options: dict[str, Any]) -> Any:
        value = body.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value
        return self.scalar(body, key, float, options)

    def reasoning(self, body: Mapping[str, Any], options: dict[str, Any]) -> ReasoningConfig | None:
        wire = body.get("reasoning")
        if wire is None:
            if "reasoning" in body:
                options["reasoning"] = None
            return None
        wire = self.read.object(wire, "reasoning")
        effort, summary = wire.get("effort"), wire.get("summary")
        modelled = {key for key in ("effort", "summary") if isinstance(wire.get(key), str)}
        leftover = rest(wire, modelled)
        if leftover or not modelled:
            options["reasoning"] = leftover
        if not modelled:
            return None
        effort = effort if isinstance(effort, str) else None
        return ReasoningConfig(
            enabled=effort != "none",
            effort=effort,
            summary=summary if isinstance(summary, str) else None,
        )

    def text(self, body: Mapping[str, Any], options: dict[str, Any]) -> ResponseFormat | None:
        wire = body.get("text")
        if wire is None:
            if "text" in body:
                options["text"] = None
            return None
        wire = self.read.object(wire, "text")
        format = _response_format(wire.get("format"))
        leftover = rest(wire, {"format"} if format is not None else set())
        if leftover or format is None:
            options["text"] = leftover
        return format

    def tool_choice(self, body: Mapping[str, Any], options: dict[str, Any]) -> ToolChoice | None:
        wire = body.get("tool_choice")
        if wire in _CHOICE_MODES:
            return ToolChoice(mode=wire)
        if (name := _named_function(wire)) is not None:
            return ToolChoice.tool(name)
        if "tool_choice" in body:
            options["tool_choice"] = wire
        return None

    def tools(self, wire: Any, options: dict[str, Any]) -> tuple[ToolSpec, ...]:
        if wire is None:
            return ()
        items = self.read.array(wire, "tools")
        specs = []
        for index, item in enumerate(items):
            tool = self.read.object(item, f"tools[{index}]")
            if tool.get("type") == "function":
                specs.append(self.tool(tool, f"tools[{index}]"))
        if len(specs) < len(items):
            options["tools"] = items
        return tuple(specs)

    def tool(self, tool: Mapping[str, Any], path: str) -> ToolSpec:
        known = {"type", "name"}
        fields: dict[str, Any] = {"name": self.read.field(tool, "name", path, str)}
        for key, kind in (("description", str), ("parameters", dict), ("strict", bool)):
            if tool.get(key) is not None:
                fields[key] = self.read.field(tool, key, path, kind)
                known.add(key)
        data: dict[str, Any] = {}
        if "parameters" not in tool:
            data["parameters"] = "absent"
        if extra := rest(tool, known):
            data["fields"] = extra
        return ToolSpec(**fields, provider_data={PROVIDER: data} if data else {})

    # --- input ---

    def messages(self, body: Mapping[str, Any], options: dict[str, Any]) -> tuple[Message, ...]:
        messages: list[Message] = []
        instructions = body.get("instructions")
        if isinstance(instructions, str):
            data: dict[str, dict[str, Any]] = {PROVIDER: {"instructions": True}}
            messages.append(
                Message(role="system", parts=(TextPart(text=instructions),), provider_data=data)
            )
        elif "instructions" in body:
            options["instructions"] = instructions
        wire = body.get("input")
        if isinstance(wire, str):
            data = {PROVIDER: {"input": "string"}}
            messages.append(Message(role="user", parts=(TextPart(text=wire),), provider_data=data))
        elif wire:
            messages.extend(_Turns(self).build(self.read.array(wire, "input")))
        elif "input" in body:
            options["input"] = wire  # null or an empty list, as sent
        return tuple(messages)

    def role_message(self, item: Mapping[str, Any], path: str) -> Message:
        role = self.read.field(item, "role", path, str)
        if role not in ("user", "system", "developer"):
            raise self.read.error(f"{path}.role", f"unknown role {role!r}")
        content = item.get("content")
        data: dict[str, Any] = {"item": rest(item, {"content"})}
        if isinstance(content, str):
            parts: list[Any] = [TextPart(text=content)]
        else:
            entries = self.read.array(
                self.read.field(item, "content", path, list), f"{path}.content"
            )
            parts = [
                self.items.content_part(entry, f"{path}.content[{i}]")
                for i, entry in enumerate(entries)
            ]
            if default_content_form(parts) != "list":
                data["content"] = "list"
        core_role: Literal["user", "system"] = "user" if role == "user" else "system"
        return Message(role=core_role, parts=tuple(parts), provider_data={PROVIDER: data})


class _Turns:
    """Groups the flat `input` list into core messages."""

    def __init__(self, decoder: _Decoder) -> None:
        self.decoder = decoder
        self.messages: list[Message] = []
        self.assistant: list[Any] = []
        self.has_text = False
        self.results: list[ToolResultPart] = []

    def build(self, items: Sequence[Any]) -> list[Message]:
        read = self.decoder.read
        for index, raw in enumerate(items):
            path = f"input[{index}]"
            item = read.object(raw, path)
            if item.get("type") in RESULT_ITEMS:
                self.close_assistant()
                self.results.append(self.decoder.items.tool_result(item, path))
            elif is_assistant_item(item):
                self.close_results()
                self.add_assistant(item, path)
            else:
                self.close_assistant()
                self.close_results()
                self.messages.append(self.decoder.role_message(item, path))
        self.close_assistant()
        self.close_results()
        return self.messages

    def add_assistant(self, item: Mapping[str, Any], path: str) -> None:
        is_message = item.get("type", "message") == "message"
        if is_message and self.has_text:
            self.close_assistant()
        self.assistant.extend(self.decoder.items.assistant_item(item, path))
        self.has_text = self.has_text or is_message

    def close_assistant(self) -> None:
        if self.assistant:
            self.messages.append(Message(role="assistant", parts=tuple(self.assistant)))
        self.assistant, self.has_text = [], False

    def close_results(self) -> None:
        if self.results:
            self.messages.append(Message(role="tool", parts=tuple(self.results)))
        self.results = []


def _response_format(wire: Any) -> ResponseFormat | None:
    """The core form of `text.format`, or None when the core cannot hold it exactly."""
    match wire:
        case {"type": "text" | "json_object" as kind} if len(wire) == 1:
            return ResponseFormat(type=kind)
        case {"type": "json_schema", "name": str(name), "schema": dict(schema)}:
            extra = set(wire) - {"type", "name", "schema", "description", "strict"}
            description, strict = wire.get("description"), wire.get("strict")
            if (
                not extra
                and ("description" not in wire or isinstance(description, str))
                and ("strict" not in wire or isinstance(strict, bool))
            ):
                return ResponseFormat(
                    type="json_schema",
                    name=name,
                    description=description,
                    json_schema=schema,
                    strict=strict,
                )
    return None
