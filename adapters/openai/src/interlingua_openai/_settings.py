"""Request settings: the body's fields other than `messages` and `tools`, to and
from the `ChatRequest` fields of the same meaning.

    wire                                        core
    model                                       model
    max_completion_tokens | max_tokens          max_tokens (the name used is kept)
    temperature, top_p, seed                    temperature, top_p, seed
    stop (a string or a list)                   stop (a lone string is kept as one)
    reasoning_effort                            ReasoningConfig(effort=...)
    response_format text / json_object          ResponseFormat(type=...)
                    json_schema                 ResponseFormat(json_schema=...)
    tool_choice auto / none / required          ToolChoice auto / none / required
                {"type": "function", ...}       ToolChoice.tool(name)
    parallel_tool_calls                         parallel_tool_calls
    stream                                      stream (an explicit false is kept)
    safety_identifier, prompt_cache_key         context.user_id, context.session_id (encoding)

Every other field, and any value the core cannot hold exactly (a null, an
`allowed_tools` choice, a schema without a name), stays in
`provider_options[<provider>]` verbatim. Three forms of fields the core does
model are kept as hints in the request's `provider_data[<provider>]`, used
when it goes back to that provider and no loss anywhere else: `max_tokens_field`
(which of the two limit names was used), `stop: "string"` (a lone string), and
`stream: False` (an explicit false).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ChatRequest, ReasoningConfig, ResponseFormat, ToolChoice, TranslationReport
from interlingua.codec import WireReader
from interlingua_openai._dialect import ChatCompletionsDialect

__all__ = ["MODELLED", "decode_settings", "encode_settings", "report_other_providers"]

# The body fields the core models (directly, or through `_request` and `_tools`).
MODELLED = frozenset(
    {
        "model",
        "messages",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "max_tokens",
        "max_completion_tokens",
        "temperature",
        "top_p",
        "stop",
        "seed",
        "reasoning_effort",
        "response_format",
        "stream",
    }
)
_CHOICE_MODES = ("auto", "none", "required")


def encode_settings(
    request: ChatRequest,
    options: dict[str, Any],
    dialect: ChatCompletionsDialect,
    report: TranslationReport,
) -> dict[str, Any]:
    """The settings' body fields, in the forms the request's hints ask for."""
    hints = request.provider_data.get(dialect.provider, {})
    body: dict[str, Any] = {}
    if request.tool_choice is not None:
        body["tool_choice"] = _encode_tool_choice(request.tool_choice)
    if request.parallel_tool_calls is not None:
        body["parallel_tool_calls"] = request.parallel_tool_calls
    _encode_sampling(body, request, hints, dialect, report)
    if request.reasoning is not None:
        _encode_reasoning(body, request.reasoning, report)
    if request.response_format is not None:
        body["response_format"] = _encode_response_format(request.response_format)
    if request.stream:
        body["stream"] = True
    elif hints.get("stream") is False:
        body["stream"] = False
    _encode_context(options, request)
    return body


def report_other_providers(request: ChatRequest, provider: str, report: TranslationReport) -> None:
    for name, settings in request.provider_options.items():
        for key in settings if name != provider else ():
            report.dropped(f"provider_options.{name}.{key}", f"a {name} setting")


def _encode_sampling(
    body: dict[str, Any],
    request: ChatRequest,
    hints: Mapping[str, Any],
    dialect: ChatCompletionsDialect,
    report: TranslationReport,
) -> None:
    if request.max_tokens is not None:
        # The name the request was written with, else the dialect's.
        body[hints.get("max_tokens_field", dialect.max_tokens_field)] = request.max_tokens
    for name in ("temperature", "top_p", "seed"):
        if (value := getattr(request, name)) is not None:
            body[name] = value
    if request.top_k is not None:
        report.dropped("top_k", "Chat Completions has no top_k")
    if request.stop:
        lone = len(request.stop) == 1 and hints.get("stop") == "string"
        body["stop"] = request.stop[0] if lone else list(request.stop)


def _encode_reasoning(
    body: dict[str, Any], config: ReasoningConfig, report: TranslationReport
) -> None:
    if config.effort is not None:
        body["reasoning_effort"] = config.effort
    elif config.budget_tokens is not None:
        report.dropped(
            "reasoning.budget_tokens", "Chat Completions takes an effort, not a token budget"
        )
    elif not config.enabled:
        report.dropped("reasoning.enabled", "Chat Completions has no switch to turn reasoning off")
    if config.summary is not None:
        report.dropped("reasoning.summary", "Chat Completions returns no reasoning")


def _encode_context(options: dict[str, Any], request: ChatRequest) -> None:
    """The context's user and session, where the request does not name them itself."""
    context = request.context
    if context is None:
        return
    if context.user_id is not None and not {"user", "safety_identifier"} & options.keys():
        options["safety_identifier"] = context.user_id
    if context.session_id is not None:
        options.setdefault("prompt_cache_key", context.session_id)


def _encode_tool_choice(choice: ToolChoice) -> Any:
    if choice.mode == "tool":
        return {"type": "function", "function": {"name": choice.name}}
    return choice.mode


def _encode_response_format(format: ResponseFormat) -> dict[str, Any]:
    if format.type != "json_schema":
        return {"type": format.type}
    schema: dict[str, Any] = {"name": format.name or "response", "schema": format.json_schema}
    if format.description is not None:
        schema["description"] = format.description
    if format.strict is not None:
        schema["strict"] = format.strict
    return {"type": "json_schema", "json_schema": schema}


def decode_settings(
    body: Mapping[str, Any],
    options: dict[str, Any],
    hints: dict[str, Any],
    dialect: ChatCompletionsDialect,
) -> dict[str, Any]:
    """The `ChatRequest` fields the settings give; what they cannot hold goes to
    `options`, the forms they were written in to `hints`."""
    settings = _Settings(body, options, hints, WireReader(dialect.provider))
    return {
        "tool_choice": settings.tool_choice(),
        "parallel_tool_calls": settings.scalar("parallel_tool_calls", bool),
        "max_tokens": settings.max_tokens(dialect.max_tokens_field),
        "temperature": settings.number("temperature"),
        "top_p": settings.number("top_p"),
        "stop": settings.stop(),
        "seed": settings.scalar("seed", int),
        "reasoning": settings.reasoning(),
        "response_format": settings.response_format(),
        "stream": settings.stream(),
    }


class _Settings:
    """Reads the settings of one body, keeping what the core cannot hold in `options`
    and the forms it was written in in `hints`."""

    def __init__(
        self,
        body: Mapping[str, Any],
        options: dict[str, Any],
        hints: dict[str, Any],
        read: WireReader,
    ) -> None:
        self.body = body
        self.options = options
        self.hints = hints
        self.read = read

    def scalar(self, key: str, kind: type[Any]) -> Any:
        if self.body.get(key) is None:
            if key in self.body:
                self.options[key] = None  # an explicit null, kept as sent
            return None
        return self.read.field(self.body, key, "", kind)

    def number(self, key: str) -> float | int | None:
        value = self.scalar(key, float)
        return value if isinstance(value, int | float) else None

    def max_tokens(self, default: str) -> int | None:
        other = _other_limit(default)
        if default in self.body and other in self.body:
            # Both names at once: kept as sent, the core holds neither.
            self.options.update({default: self.body[default], other: self.body[other]})
            return None
        if other in self.body:
            value = self.scalar(other, int)
            if value is not None:
                self.hints["max_tokens_field"] = other
            return value  # type: ignore[no-any-return]
        return self.scalar(default, int)  # type: ignore[no-any-return]

    def stop(self) -> tuple[str, ...]:
        value = self.body.get("stop")
        if isinstance(value, str):
            self.hints["stop"] = "string"
            return (value,)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return tuple(value)
        if "stop" in self.body:
            if value is not None and not isinstance(value, list):
                raise self.read.error("stop", "expected a string or an array of strings")
            self.options["stop"] = value
        return ()

    def stream(self) -> bool:
        value = self.scalar("stream", bool)
        if value is False:
            self.hints["stream"] = False
        return bool(value)

    def reasoning(self) -> ReasoningConfig | None:
        effort = self.scalar("reasoning_effort", str)
        if effort is None:
            return None
        return ReasoningConfig(enabled=effort != "none", effort=effort)

    def response_format(self) -> ResponseFormat | None:
        wire = self.body.get("response_format")
        if wire is None:
            if "response_format" in self.body:
                self.options["response_format"] = None
            return None
        format = _decode_response_format(self.read.object(wire, "response_format"))
        if format is None:
            self.options["response_format"] = wire
        return format

    def tool_choice(self) -> ToolChoice | None:
        wire = self.body.get("tool_choice")
        if wire in _CHOICE_MODES:
            return ToolChoice(mode=wire)
        if (name := _named_function(wire)) is not None:
            return ToolChoice.tool(name)
        if "tool_choice" in self.body:
            self.options["tool_choice"] = wire
        return None


def _other_limit(name: str) -> str:
    return "max_tokens" if name == "max_completion_tokens" else "max_completion_tokens"


def _named_function(wire: Any) -> str | None:
    """The name in `{"type": "function", "function": {"name": ...}}`, if that is all there is."""
    if not isinstance(wire, dict) or set(wire) != {"type", "function"}:
        return None
    function = wire["function"]
    if wire["type"] == "function" and isinstance(function, dict) and set(function) == {"name"}:
        name = function["name"]
        return name if isinstance(name, str) else None
    return None


def _decode_response_format(wire: Mapping[str, Any]) -> ResponseFormat | None:
    """The core form of a `response_format`, or None when the core cannot hold it exactly."""
    match wire:
        case {"type": "text" | "json_object" as kind} if len(wire) == 1:
            return ResponseFormat(type=kind)
        case {"type": "json_schema", "json_schema": {"name": str(name), "schema": dict(schema)}}:
            spec = wire["json_schema"]
            if len(wire) == 2 and _plain_schema_fields(spec):
                return ResponseFormat(
                    type="json_schema",
                    name=name,
                    description=spec.get("description"),
                    json_schema=schema,
                    strict=spec.get("strict"),
                )
    return None


def _plain_schema_fields(spec: Mapping[str, Any]) -> bool:
    """Whether `json_schema` holds only what `ResponseFormat` holds, none of it null."""
    if set(spec) - {"name", "schema", "description", "strict"}:
        return False
    return ("description" not in spec or isinstance(spec["description"], str)) and (
        "strict" not in spec or isinstance(spec["strict"], bool)
    )
