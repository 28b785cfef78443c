"""Responses API request bodies to and from `ChatRequest`.

The `input` list is flat; the core groups it into turns: a user or system
item is a message, consecutive model-side items (reasoning, an assistant
message, function calls, built-in tool items) are one assistant message (a
second message item starts a new one), consecutive function outputs are one
tool message. `instructions` is a system message first in line, and only a
first system message goes back as `instructions`.

Invariants: `encode_request(decode_request(body)) == body` for any body the
API takes; a history the API would reject (a call without its output, an
output without its call unless the request continues a stored response)
raises `InvalidDataError` first (`_rules`), and so does a token limit below
its minimum; encoding never changes the request, and what the wire cannot take
is reported: reasoning made by another provider (encrypted reasoning goes
back to the Responses API only), other providers' opaque parts, files from
the model, audio in a message, a file in another provider's file store, the
error flag of a tool output, settings it lacks (`stop`, `seed`, `top_k`) or
cannot hold (see `interlingua_openai._settings`), a system message flagged as
`instructions` that is not the first message (sent as a system message in
the input), and tool-call ids that break OpenAI's rules (rewritten).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from interlingua import (
    ChatRequest,
    InvalidDataError,
    Message,
    ReasoningConfig,
    ResponseFormat,
    TextPart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
    TranslationReport,
)
from interlingua.codec import WireReader, copy_json, resolve_report, wire_model
from interlingua_openai._common import (
    assert_never,
    encode_context,
    entry,
    report_other_providers,
    rest,
)
from interlingua_openai._rules import check_tool_pairs
from interlingua_openai._settings import (
    SettingsReader,
    decode_effort,
    decode_schema,
    encode_effort,
    encode_format,
    encode_tool_settings,
)
from interlingua_openai._tools import decode_function, function_fields, merge_recorded
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
# The API answers 400 below it: "Invalid 'max_output_tokens': integer below minimum
# value. Expected a value >= 16, but got 5 instead." (reported). Raised rather than
# raised to 16: an answer longer than the caller allowed changes what was asked.
MIN_OUTPUT_TOKENS = 16
_API = "the Responses API"


def encode_request(
    request: ChatRequest, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Responses API body for `request`; losses go to `report`."""
    return copy_json(_Encoder(resolve_report(report, PROVIDER)).request(request))


def decode_request(body: Any) -> ChatRequest:
    """The `ChatRequest` a Responses API body describes."""
    decoder = _Decoder()
    return decoder.request(decoder.read.body(body))


def _data(owner: Any) -> dict[str, Any]:
    return entry(owner, PROVIDER)


def _encode_tool_choice(choice: ToolChoice) -> Any:
    return {"type": "function", "name": choice.name} if choice.mode == "tool" else choice.mode


def _named_function(wire: Any) -> str | None:
    """The name in `{"type": "function", "name": ...}`, if that is all there is."""
    match wire:
        case {"type": "function", "name": str(name)} if len(wire) == 2:
            return name
    return None


def _response_format(wire: Any) -> ResponseFormat | None:
    """The core form of `text.format`, or None when the core cannot hold it exactly."""
    match wire:
        case {"type": "text" | "json_object" as kind} if len(wire) == 1:
            return ResponseFormat(type=kind)
        case {"type": "json_schema"}:
            return decode_schema(wire, frozenset({"type"}))
    return None


# --- encoding ---


class _Encoder:
    def __init__(self, report: TranslationReport) -> None:
        self.report = report
        self.items = ItemEncoder(report, output=False)

    def request(self, request: ChatRequest) -> dict[str, Any]:
        options = dict(request.options_for(PROVIDER))
        continued = bool(options.get("previous_response_id") or options.get("conversation"))
        check_tool_pairs(request.messages, PROVIDER, adjacent=False, continued=continued)
        body: dict[str, Any] = {"model": wire_model(request.model, PROVIDER)}
        self.input(body, request.messages)
        functions = [
            {"type": "function", **function_fields(spec, PROVIDER, strict=False)}
            for spec in request.tools
        ]
        # Built-in tools the core does not model stay in their places.
        tools = merge_recorded(functions, options.pop("tools", None), lambda tool: tool)
        if tools is not None:
            body["tools"] = tools
        # A stored prompt (`prompt`) may bring its own tools.
        has_tools = bool(tools) or "prompt" in options
        body.update(
            encode_tool_settings(request, self.report, _encode_tool_choice, has_tools=has_tools)
        )
        self.sampling(body, request)
        self.reasoning(body, request.reasoning, options)
        self.text(body, request.response_format, options)
        explicit, sent = "stream" in options, options.pop("stream", None)
        if request.stream or explicit:
            body["stream"] = True if request.stream else sent
        encode_context(options, request)
        for key, value in options.items():
            body.setdefault(key, value)
        report_other_providers(request, PROVIDER, self.report)
        return body

    def sampling(self, body: dict[str, Any], request: ChatRequest) -> None:
        if (limit := request.max_tokens) is not None:
            if limit < MIN_OUTPUT_TOKENS:
                problem = f"{_API} takes at least {MIN_OUTPUT_TOKENS} output tokens, not {limit}"
                raise InvalidDataError([("max_tokens", problem)], subject=f"request for {PROVIDER}")
            body["max_output_tokens"] = limit
        for name in ("temperature", "top_p"):
            if (value := getattr(request, name)) is not None:
                body[name] = value
        for name, value in (("top_k", request.top_k), ("seed", request.seed)):
            if value is not None:
                self.report.dropped(name, f"{_API} has no {name}")
        if request.stop:
            self.report.dropped("stop", f"{_API} has no stop sequences")

    def reasoning(
        self, body: dict[str, Any], config: ReasoningConfig | None, options: dict[str, Any]
    ) -> None:
        # What the core does not model (a null, other keys) was kept in options.
        present, recorded = "reasoning" in options, options.pop("reasoning", None)
        reasoning = dict(recorded or {})
        if config is not None:
            if (effort := encode_effort(config, self.report, _API)) is not None:
                reasoning["effort"] = effort
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
            kind, schema = encode_format(format, self.report)
            text["format"] = {"type": kind, **schema}
        if text or present:
            body["text"] = text if text or recorded is not None else None

    # --- input ---

    def input(self, body: dict[str, Any], messages: Sequence[Message]) -> None:
        items: list[dict[str, Any]] = []
        sent: list[Message] = []
        for index, message in enumerate(messages):
            flagged = message.role == "system" and _data(message).get("instructions")
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
                )
            sent.append(message)
            items.extend(self.message(message, f"messages[{index}]"))
        if (
            len(sent) == 1
            and _data(sent[0]).get("input") == "string"
            and items
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
            case "user" | "system":
                return [self.role_message(message, path)]
            case _:
                return assert_never(message.role)

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


# --- decoding ---


class _Decoder:
    def __init__(self) -> None:
        self.read = WireReader(PROVIDER)
        self.items = ItemDecoder()

    def request(self, body: dict[str, Any]) -> ChatRequest:
        options = rest(body, _MODELLED)
        settings = SettingsReader(body, options, self.read)
        fields: dict[str, Any] = {
            "model": self.read.field(body, "model", "", str),
            "messages": self.messages(body, options),
            "tools": self.tools(body.get("tools"), options),
            "tool_choice": settings.tool_choice(_named_function),
            "parallel_tool_calls": settings.scalar("parallel_tool_calls", bool),
            "max_tokens": settings.scalar("max_output_tokens", int),
            "temperature": settings.number("temperature"),
            "top_p": settings.number("top_p"),
            "reasoning": self.reasoning(settings),
            "response_format": self.text(settings),
            "stream": bool(settings.scalar("stream", bool)),
        }
        if body.get("stream") is False:
            options["stream"] = False
        if options:
            fields["provider_options"] = {PROVIDER: options}
        return ChatRequest(**fields)

    def reasoning(self, settings: SettingsReader) -> ReasoningConfig | None:
        wire = settings.object("reasoning")
        if wire is None:
            return None
        effort, summary = wire.get("effort"), wire.get("summary")
        modelled = {key for key in ("effort", "summary") if isinstance(wire.get(key), str)}
        extra = rest(wire, modelled)
        if extra or not modelled:
            settings.options["reasoning"] = extra
        if not modelled:
            return None
        return decode_effort(
            effort if isinstance(effort, str) else None,
            summary if isinstance(summary, str) else None,
        )

    def text(self, settings: SettingsReader) -> ResponseFormat | None:
        wire = settings.object("text")
        if wire is None:
            return None
        format = _response_format(wire.get("format"))
        extra = rest(wire, {"format"} if format is not None else set())
        if extra or format is None:
            settings.options["text"] = extra
        return format

    def tools(self, wire: Any, options: dict[str, Any]) -> tuple[ToolSpec, ...]:
        if wire is None:
            return ()
        items = self.read.array(wire, "tools")
        specs = []
        for index, item in enumerate(items):
            tool = self.read.object(item, f"tools[{index}]")
            if tool.get("type") == "function":
                # Quirk: the API takes a `strict` left out as true; one sent so is kept so.
                spec = decode_function(
                    tool, f"tools[{index}]", self.read, framing={"type": "function"}, strict=False
                )
                specs.append(spec)
        if len(specs) < len(items):
            options["tools"] = items
        return tuple(specs)

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
