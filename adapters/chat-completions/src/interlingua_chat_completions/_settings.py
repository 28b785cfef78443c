"""Request settings: the body's fields other than `messages` and `tools`, to and
from the `ChatRequest` fields of the same meaning. The first half is shared
with the Responses API (`SettingsReader`, the tool, reasoning and schema
settings); the rest is Chat Completions'.

    wire                                        core
    model                                       model
    max_completion_tokens | max_tokens          max_tokens (the name used is kept)
    temperature, top_p, seed (the dialect's name)   temperature, top_p, seed
    stop (a string or a list)                   stop (a lone string is kept as one)
    reasoning_effort                            ReasoningConfig(effort=...)
      or the dialect's `reasoning_setting()`    (OpenRouter's `reasoning` object)
    response_format text / json_object          ResponseFormat(type=...)
                    json_schema                 ResponseFormat(json_schema=...)
    tool_choice auto / none / required (any)    ToolChoice auto / none / required
                {"type": "function", ...}       ToolChoice.tool(name) (a left-out type kept)
    parallel_tool_calls                         parallel_tool_calls
    stream                                      stream (an explicit false is kept)
    safety_identifier | user (the dialect's)    context.user_id (the name used is kept;
                                                at most 64 characters, else a digest)
    prompt_cache_key                            context.session_id (encoding; the same)

Every other field, and any value the core cannot hold exactly (a null, an
`allowed_tools` choice, a schema without a name), stays in
`provider_options[<provider>]` verbatim. The forms the modelled fields came in
(`_wire.RequestForms`: which of two names, a lone stop string, an explicit
`stream: false`, tool settings without tools) are kept for that provider alone.

What the wire cannot hold is reported: a token budget, reasoning the model
cannot turn off (its least, `least_reasoning`, is sent), a plain format's schema
fields, stop sequences past the limit, tool settings without tools, an id too
long (`_rules`), other providers' options but those `shared_settings` names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from interlingua import (
    ChatRequest,
    InvocationContext,
    ReasoningConfig,
    ResponseFormat,
    ToolChoice,
    TranslationReport,
)
from interlingua.codec import (
    ModelRules,
    ReasoningOff,
    WireReader,
    copy_json,
    effort_for_budget,
    format_field_level,
    kept,
    sent_off,
    wire_model,
)
from interlingua_chat_completions._dialect import ChatCompletionsDialect, ReasoningSetting
from interlingua_chat_completions._rules import (
    came_without_tools,
    encode_context,
    fit_stop,
    schema_name,
    take_shared,
    tool_settings,
)
from interlingua_chat_completions._tools import encode_tool_choice, named_function
from interlingua_chat_completions._wire import RequestForms

__all__ = [
    "MODELLED",
    "SettingsReader",
    "decode_schema",
    "decode_settings",
    "encode_effort",
    "encode_format",
    "encode_settings",
    "encode_tool_settings",
    "modelled",
]

# The body fields the core models (directly, or through `_request` and `_tools`).
MODELLED = frozenset({
    "model", "messages", "tools", "tool_choice", "parallel_tool_calls", "max_tokens",
    "max_completion_tokens", "temperature", "top_p", "stop", "seed", "reasoning_effort",
    "response_format", "stream",
})  # fmt: skip
_CHOICE_MODES = ("auto", "none", "required")


def modelled(dialect: ChatCompletionsDialect) -> frozenset[str]:
    """The body fields the core models for `dialect` (its seed's, its reasoning's)."""
    setting = dialect.reasoning_setting()
    own = {dialect.seed_field} | (set() if setting is None else {setting.field})
    return MODELLED if own == {"seed"} else (MODELLED - {"seed"}) | own


_SCHEMA_FIELDS = frozenset({"name", "schema", "description", "strict"})
_PLAIN_FORMAT_EXTRAS = ("name", "description", "json_schema", "strict")


# --- shared with the Responses API ---


class SettingsReader:
    """Reads the settings of one body; a null, or a value the core cannot hold,
    goes to `options` verbatim."""

    def __init__(self, body: Mapping[str, Any], options: dict[str, Any], read: WireReader) -> None:
        self.body, self.options, self.read = body, options, read
        self.required_form: str | None = None

    def scalar(self, key: str, kind: type[Any]) -> Any:
        if self.body.get(key) is None:
            if key in self.body:
                self.options[key] = None  # an explicit null, kept as sent
            return None
        return self.read.field(self.body, key, "", kind)

    def number(self, key: str) -> int | float | None:
        value = self.scalar(key, float)
        return value if isinstance(value, int | float) else None

    def tool_choice(
        self, named: Callable[[Any], str | None], required: tuple[str, ...] = ("required",)
    ) -> ToolChoice | None:
        """The choice; `named` reads the API's form of one named function, and
        `required` are the words for "call a tool" (another than the first is
        kept in `options`' place: `self.required_form`)."""
        wire = self.body.get("tool_choice")
        if wire in required:
            if wire != required[0]:
                self.required_form = wire
            return ToolChoice(mode="required")
        if wire in _CHOICE_MODES:
            return ToolChoice(mode=wire)
        if (name := named(wire)) is not None:
            return ToolChoice.tool(name)
        if "tool_choice" in self.body:
            self.options["tool_choice"] = wire
        return None

    def end_user(self, names: tuple[str, ...]) -> tuple[InvocationContext | None, str | None]:
        """The end user's id, from the one field of `names` the body sets to a
        string, and that field's name; two at once, or another value, stay in
        `options` as sent."""
        given = [name for name in names if name in self.body]
        if len(given) != 1 or not isinstance(self.body[given[0]], str):
            return None, None
        self.options.pop(given[0])
        return InvocationContext(user_id=self.body[given[0]]), given[0]

    def object(self, key: str) -> dict[str, Any] | None:
        """An object setting; a null is kept in `options`."""
        wire = self.body.get(key)
        if wire is None:
            if key in self.body:
                self.options[key] = None
            return None
        return self.read.object(wire, key)


def decode_effort(effort: str | None, summary: str | None = None) -> ReasoningConfig:
    return ReasoningConfig(enabled=effort != "none", effort=effort, summary=summary)


def decode_schema(spec: Mapping[str, Any], allowed: frozenset[str]) -> ResponseFormat | None:
    """A JSON-schema format from its `name`, `schema`, `description`, `strict`;
    None when `spec` holds anything else (beside `allowed`) or a null."""
    match spec:
        case {"name": str(name), "schema": dict(schema)} if (
            not set(spec) - allowed - _SCHEMA_FIELDS
        ):
            description, strict = spec.get("description"), spec.get("strict")
            if ("description" in spec and not isinstance(description, str)) or (
                "strict" in spec and not isinstance(strict, bool)
            ):
                return None
            return ResponseFormat(
                type="json_schema",
                name=name,
                description=description,
                json_schema=schema,
                strict=strict,
            )
    return None


def encode_tool_settings(
    request: ChatRequest,
    report: TranslationReport,
    choice: Callable[[ToolChoice], Any],
    *,
    has_tools: bool,
) -> dict[str, Any]:
    """`tool_choice` and `parallel_tool_calls`, when there are tools to choose from."""
    settings: dict[str, Any] = {}
    if request.tool_choice is not None:
        settings["tool_choice"] = choice(request.tool_choice)
    if request.parallel_tool_calls is not None:
        settings["parallel_tool_calls"] = request.parallel_tool_calls
    return tool_settings(settings, report, has_tools=has_tools, choice=request.tool_choice)


def encode_effort(
    config: ReasoningConfig, report: TranslationReport, api: str, model: str, rules: ModelRules
) -> Any:
    """The effort to send (or, where `model` turns reasoning off with fields of
    its own, those fields: a dict); each other thing the config says is
    reported. A token budget alone goes as the effort it means
    (`codec.effort_for_budget`); reasoning turned off, as the least `model`
    has (`rules`, the first pattern matching its name)."""
    if not config.enabled:
        # A model `rules` do not know: "none" goes as the request said it (the
        # provider judges); without it, what would turn reasoning off is not known.
        unknown = f"{api} has no switch known to turn reasoning off for {model!r}"
        off = ReasoningOff(config.effort, None if config.effort else unknown)
        return sent_off(model, rules, report, off)
    reason = f"{api} takes an effort, not a token budget"
    if config.budget_tokens is not None and config.effort is None:
        effort = effort_for_budget(config.budget_tokens)
        report.transformed("reasoning.budget_tokens", f"{reason}: {effort!r} sent", "setting")
        return effort
    if config.budget_tokens is not None:
        report.dropped("reasoning.budget_tokens", reason, "setting")
    return config.effort


def encode_format(format: ResponseFormat, report: TranslationReport) -> tuple[str, dict[str, Any]]:
    """The format's type and, for a JSON schema, its `name`, `schema`,
    `description` and `strict`; the schema fields of a plain format are reported."""
    if format.type != "json_schema":
        for name in _PLAIN_FORMAT_EXTRAS:
            if getattr(format, name) is not None:
                reason = f"a {format.type} format takes no {name}"
                report.dropped(f"response_format.{name}", reason, format_field_level(name))
        return format.type, {}
    fields: dict[str, Any] = {"name": schema_name(format.name, report)}
    fields["schema"] = copy_json(format.json_schema)
    if format.description is not None:
        fields["description"] = format.description
    if format.strict is not None:
        fields["strict"] = format.strict
    return "json_schema", fields


# --- Chat Completions ---


def encode_settings(
    request: ChatRequest,
    options: dict[str, Any],
    dialect: ChatCompletionsDialect,
    report: TranslationReport,
    has_tools: bool,
) -> dict[str, Any]:
    """The settings' body fields, in the forms the request keeps."""
    forms = kept(request, dialect.provider).get("forms", {})
    required = forms.get("tool_choice", dialect.required_tool_choice[0])

    def encode_choice(choice: ToolChoice) -> Any:
        if choice.mode == "required":
            return required
        return encode_tool_choice(choice, typed=forms.get("tool_choice_typed", True))

    alone = forms.get("tool_settings") == "without_tools"  # as the body came
    body = encode_tool_settings(request, report, encode_choice, has_tools=has_tools or alone)
    _encode_sampling(body, request, forms, dialect, report)
    if request.reasoning is not None:
        model = wire_model(request.model, dialect.provider)
        body.update(_encode_reasoning(request.reasoning, model, options, forms, dialect, report))
    if request.response_format is not None:
        kind, schema = encode_format(request.response_format, report)
        body["response_format"] = (
            {"type": kind, "json_schema": schema} if schema else {"type": kind}
        )
    if request.stream:
        body["stream"] = True
    elif forms.get("stream") is False:
        body["stream"] = False
    take_shared(options, request, dialect.shared_settings)
    user_field = forms.get("user_field", dialect.user_field)
    encode_context(options, request, user_field=user_field, report=report)
    return body


def _encode_reasoning(
    config: ReasoningConfig,
    model: str,
    options: dict[str, Any],
    forms: Mapping[str, Any],
    dialect: ChatCompletionsDialect,
    report: TranslationReport,
) -> dict[str, Any]:
    """The dialect's reasoning setting (`options`' own laid over), else `reasoning_effort`."""
    setting = dialect.reasoning_setting()
    if setting is not None and forms.get("reasoning_field") != "reasoning_effort":
        wire = setting.encode(config, forms, report)
        if isinstance(options.get(setting.field), dict):
            wire.update(copy_json(options.pop(setting.field)))
        return {setting.field: wire}
    effort = encode_effort(config, report, "Chat Completions", model, dialect.least_reasoning)
    if config.summary is not None:
        report.dropped("reasoning.summary", "Chat Completions returns no reasoning", "hint")
    if isinstance(effort, dict):
        return copy_json(effort)  # the fields that turn the model's reasoning off
    return {} if effort is None else {"reasoning_effort": effort}


def _encode_sampling(
    body: dict[str, Any],
    request: ChatRequest,
    forms: Mapping[str, Any],
    dialect: ChatCompletionsDialect,
    report: TranslationReport,
) -> None:
    if request.max_tokens is not None:
        # The name the request was written with, else the dialect's.
        body[forms.get("max_tokens_field", dialect.max_tokens_field)] = request.max_tokens
    for name, field in (
        ("temperature", "temperature"),
        ("top_p", "top_p"),
        ("seed", dialect.seed_field),
    ):
        if (value := getattr(request, name)) is not None:
            body[field] = value
    if request.top_k is not None:
        report.dropped("top_k", "Chat Completions has no top_k", "setting")
    if request.stop:
        sent = fit_stop(request.stop, dialect.max_stop_sequences, report)
        lone = len(sent) == 1 and forms.get("stop") == "string"
        body["stop"] = sent[0] if lone else list(sent)


def decode_settings(
    body: Mapping[str, Any],
    options: dict[str, Any],
    forms: RequestForms,
    dialect: ChatCompletionsDialect,
) -> dict[str, Any]:
    """The `ChatRequest` fields the settings give; what they cannot hold goes to
    `options`, the forms they were written in to `forms`."""
    settings = _ChatSettings(body, options, WireReader(dialect.provider), forms)
    tool_choice = settings.tool_choice(named_function, dialect.required_tool_choice)
    if settings.required_form is not None:
        forms["tool_choice"] = settings.required_form
    if tool_choice is not None and tool_choice.mode == "tool" and "type" not in body["tool_choice"]:
        forms["tool_choice_typed"] = False
    names = () if dialect.user_field is None else tuple(dict.fromkeys((dialect.user_field, "user")))
    context, user_field = settings.end_user(names)
    if user_field is not None and user_field != dialect.user_field:
        forms["user_field"] = user_field
    parallel = settings.scalar("parallel_tool_calls", bool)
    if came_without_tools(body, tool_choice, parallel):
        forms["tool_settings"] = "without_tools"
    return {
        "context": context,
        "tool_choice": tool_choice,
        "parallel_tool_calls": parallel,
        "max_tokens": settings.max_tokens(dialect.max_tokens_field),
        "temperature": settings.number("temperature"),
        "top_p": settings.number("top_p"),
        "stop": settings.stop(),
        "seed": settings.scalar(dialect.seed_field, int),
        "reasoning": settings.reasoning(dialect.reasoning_setting()),
        "response_format": settings.response_format(),
        "stream": settings.stream(),
    }


class _ChatSettings(SettingsReader):
    """Chat Completions' own settings; the forms they were written in go to `forms`."""

    def __init__(
        self,
        body: Mapping[str, Any],
        options: dict[str, Any],
        read: WireReader,
        forms: RequestForms,
    ) -> None:
        super().__init__(body, options, read)
        self.forms = forms

    def max_tokens(self, default: str) -> int | None:
        other: Literal["max_tokens", "max_completion_tokens"] = (
            "max_tokens" if default == "max_completion_tokens" else "max_completion_tokens"
        )
        if default in self.body and other in self.body:
            # Both names at once: kept as sent, the core holds neither.
            self.options.update({default: self.body[default], other: self.body[other]})
            return None
        if other in self.body:
            value = self.scalar(other, int)
            if value is not None:
                self.forms["max_tokens_field"] = other
            return value  # type: ignore[no-any-return]
        return self.scalar(default, int)  # type: ignore[no-any-return]

    def stop(self) -> tuple[str, ...]:
        value = self.body.get("stop")
        if isinstance(value, str):
            self.forms["stop"] = "string"
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
            self.forms["stream"] = False
        return bool(value)

    def reasoning(self, setting: ReasoningSetting | None) -> ReasoningConfig | None:
        """From `reasoning_effort` or the dialect's own setting (both: kept as sent)."""
        if setting is not None and setting.field in self.body:
            if "reasoning_effort" in self.body:
                self.options.update({k: self.body[k] for k in ("reasoning_effort", setting.field)})
                return None
            wire = self.object(setting.field)
            return None if wire is None else setting.decode(wire, self.options, self.forms)
        effort = self.scalar("reasoning_effort", str)
        if effort is not None and setting is not None:
            self.forms["reasoning_field"] = "reasoning_effort"
        return None if effort is None else decode_effort(effort)

    def response_format(self) -> ResponseFormat | None:
        wire = self.object("response_format")
        if wire is None:
            return None
        format = _decode_response_format(wire)
        if format is None:
            self.options["response_format"] = wire
        return format


def _decode_response_format(wire: Mapping[str, Any]) -> ResponseFormat | None:
    """The core form of a `response_format`, or None when the core cannot hold it exactly."""
    match wire:
        case {"type": "text" | "json_object" as kind} if len(wire) == 1:
            return ResponseFormat(type=kind)
        case {"type": "json_schema", "json_schema": dict(spec)} if len(wire) == 2:
            return decode_schema(spec, frozenset())
    return None
