"""Request settings: the Responses API body's fields other than `input`,
`instructions` and `tools`, to and from the `ChatRequest` fields of the same
meaning (read with the Chat Completions `SettingsReader`).

    wire                                        core
    max_output_tokens                           max_tokens (raised to 16 if below: `_rules`)
    temperature, top_p                          temperature, top_p
    reasoning.effort, reasoning.summary         ReasoningConfig(effort=..., summary=...)
    text.format text / json_object              ResponseFormat(type=...)
                json_schema (flat)              ResponseFormat(json_schema=...)
    tool_choice auto / none / required          ToolChoice auto / none / required
                {"type": "function", "name"}    ToolChoice.tool(name)
    parallel_tool_calls                         parallel_tool_calls
    stream                                      stream (an explicit false is kept)
    safety_identifier | user                    context.user_id (the name used is kept;
                                                at most 64 characters, else a digest)
    prompt_cache_key                            context.session_id (encoding; the same)

Every other field, what `reasoning` and `text` hold beside the effort, summary
and format, and any value the core cannot hold exactly stay in
`provider_options["openai-responses"]` verbatim. Reported: `stop`, `seed`,
`top_k` (the API has none), a token budget, reasoning turned off where the
model cannot turn it off (its least effort is sent: OpenAI's models, as in
Chat Completions), an end user's id or session too long, tool settings
without tools (a stored `prompt` may bring its own tools), unless this API's
own body came so (`RequestForms.tool_settings`): it goes back as it came. The
settings of the same name a Chat Completions request for OpenAI has (`SHARED`:
`prompt_cache_key`, `prompt_cache_retention`, ...) are sent as they came.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ChatRequest, ReasoningConfig, ResponseFormat, ToolChoice, TranslationReport
from interlingua.codec import WireReader, copy_json, kept, other_fields, wire_model
from interlingua_chat_completions._rules import (
    OPENAI_LEAST_REASONING,
    OPENAI_SHARED_SETTINGS,
    came_without_tools,
    encode_context,
    take_shared,
)
from interlingua_chat_completions._settings import (
    SettingsReader,
    decode_effort,
    decode_schema,
    encode_effort,
    encode_format,
    encode_tool_settings,
)
from interlingua_openai._wire import PROVIDER as CHAT_COMPLETIONS
from interlingua_openai.responses._rules import fit_max_output_tokens
from interlingua_openai.responses._wire import PROVIDER, RequestForms

__all__ = ["MODELLED", "SHARED", "decode_settings", "encode_settings"]

# The body fields the core models (directly, or through `_request` and `_tools`).
MODELLED = frozenset(
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
_API = "the Responses API"
# The settings a Chat Completions request for OpenAI has that this API takes as they came.
SHARED = {CHAT_COMPLETIONS: OPENAI_SHARED_SETTINGS}


def encode_settings(
    request: ChatRequest, options: dict[str, Any], report: TranslationReport, has_tools: bool
) -> dict[str, Any]:
    """The settings' body fields; what `options` keeps of them is taken out of it."""
    forms = kept(request, PROVIDER).get("forms", {})
    alone = forms.get("tool_settings") == "without_tools"  # as the body came
    body = encode_tool_settings(request, report, _encode_tool_choice, has_tools=has_tools or alone)
    if (limit := request.max_tokens) is not None:
        body["max_output_tokens"] = fit_max_output_tokens(limit, report)
    for name in ("temperature", "top_p"):
        if (value := getattr(request, name)) is not None:
            body[name] = value
    for name, value in (("top_k", request.top_k), ("seed", request.seed)):
        if value is not None:
            report.dropped(name, f"{_API} has no {name}", "setting")
    if request.stop:
        report.dropped("stop", f"{_API} has no stop sequences", "setting")
    _encode_reasoning(body, request, options, report)
    _encode_text(body, request.response_format, options, report)
    explicit, sent = "stream" in options, options.pop("stream", None)
    if request.stream or explicit:
        body["stream"] = True if request.stream else sent
    take_shared(options, request, SHARED)
    user_field = forms.get("user_field", "safety_identifier")
    encode_context(options, request, user_field=user_field, report=report)
    return body


def _encode_tool_choice(choice: ToolChoice) -> Any:
    return {"type": "function", "name": choice.name} if choice.mode == "tool" else choice.mode


def _encode_reasoning(
    body: dict[str, Any],
    request: ChatRequest,
    options: dict[str, Any],
    report: TranslationReport,
) -> None:
    modelled: dict[str, Any] = {}
    if (config := request.reasoning) is not None:
        model = wire_model(request.model, PROVIDER)
        if (
            effort := encode_effort(config, report, _API, model, OPENAI_LEAST_REASONING)
        ) is not None:
            modelled["effort"] = effort
        if config.summary is not None:
            modelled["summary"] = config.summary
    _encode_object(body, "reasoning", options, modelled)


def _encode_text(
    body: dict[str, Any],
    format: ResponseFormat | None,
    options: dict[str, Any],
    report: TranslationReport,
) -> None:
    modelled: dict[str, Any] = {}
    if format is not None:
        kind, schema = encode_format(format, report)
        modelled["format"] = {"type": kind, **schema}
    _encode_object(body, "text", options, modelled)


def _encode_object(
    body: dict[str, Any], key: str, options: dict[str, Any], modelled: Mapping[str, Any]
) -> None:
    """`body[key]`: the object `options` kept (its other fields, or a null) with
    the `modelled` fields laid over it."""
    present, recorded = key in options, options.pop(key, None)
    merged = {**copy_json(recorded or {}), **modelled}
    if merged or present:
        body[key] = merged if merged or recorded is not None else None


def decode_settings(
    body: Mapping[str, Any], options: dict[str, Any], forms: RequestForms, read: WireReader
) -> dict[str, Any]:
    """The `ChatRequest` fields the settings give; what they cannot hold goes to
    `options`, the forms they were written in to `forms`."""
    settings = SettingsReader(body, options, read)
    if body.get("stream") is False:
        options["stream"] = False
    context, user_field = settings.end_user(("safety_identifier", "user"))
    if user_field == "user":
        forms["user_field"] = "user"
    tool_choice = settings.tool_choice(_named_function)
    parallel = settings.scalar("parallel_tool_calls", bool)
    if came_without_tools(body, tool_choice, parallel):
        forms["tool_settings"] = "without_tools"
    return {
        "context": context,
        "tool_choice": tool_choice,
        "parallel_tool_calls": parallel,
        "max_tokens": settings.scalar("max_output_tokens", int),
        "temperature": settings.number("temperature"),
        "top_p": settings.number("top_p"),
        "reasoning": _decode_reasoning(settings),
        "response_format": _decode_text(settings),
        "stream": bool(settings.scalar("stream", bool)),
    }


def _named_function(wire: Any) -> str | None:
    """The name in `{"type": "function", "name": ...}`, if that is all there is."""
    match wire:
        case {"type": "function", "name": str(name)} if len(wire) == 2:
            return name
    return None


def _decode_reasoning(settings: SettingsReader) -> ReasoningConfig | None:
    wire = settings.object("reasoning")
    if wire is None:
        return None
    effort, summary = wire.get("effort"), wire.get("summary")
    modelled = {key for key in ("effort", "summary") if isinstance(wire.get(key), str)}
    extra = other_fields(wire, modelled)
    if extra or not modelled:
        settings.options["reasoning"] = extra
    if not modelled:
        return None
    return decode_effort(
        effort if isinstance(effort, str) else None,
        summary if isinstance(summary, str) else None,
    )


def _decode_text(settings: SettingsReader) -> ResponseFormat | None:
    wire = settings.object("text")
    if wire is None:
        return None
    format = _response_format(wire.get("format"))
    extra = other_fields(wire, ("format",) if format is not None else ())
    if extra or format is None:
        settings.options["text"] = extra
    return format


def _response_format(wire: Any) -> ResponseFormat | None:
    """The core form of `text.format`, or None when the core cannot hold it exactly."""
    match wire:
        case {"type": "text" | "json_object" as kind} if len(wire) == 1:
            return ResponseFormat(type=kind)
        case {"type": "json_schema"}:
            return decode_schema(wire, frozenset({"type"}))
    return None
