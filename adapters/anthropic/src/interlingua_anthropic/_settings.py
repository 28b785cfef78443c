"""Request settings: the body's fields other than `system`, `messages` and
`tools` <-> the `ChatRequest` fields of the same meaning.

    wire                                        core
    model, max_tokens                           model (less an `anthropic:` prefix), max_tokens
    temperature, top_p, top_k, stop_sequences   temperature, top_p, top_k, stop
    stream: true                                stream
    tool_choice auto / any / tool / none        ToolChoice auto / required / tool / none
      disable_parallel_tool_use                 parallel_tool_calls, negated
    thinking enabled + budget_tokens            ReasoningConfig(budget_tokens=...)
             adaptive / disabled                ReasoningConfig() / ReasoningConfig(enabled=False)
    output_config.effort (with thinking on)     ReasoningConfig.effort
    output_config.format json_schema            ResponseFormat(type="json_schema")
    metadata.user_id                            context.user_id (at most 256 characters,
                                                else a digest: `_rules`)

`encode_settings` is pure but for the report, so `decode_request` finds what
to keep in `provider_options` by comparing a body with the encoding of what
it decoded (`leftover`): `thinking.display`, the rest of `metadata`, an
effort sent without thinking or with thinking disabled (Claude Code's title
calls send `"effort": "high"` beside `"thinking": {"type": "disabled"}`: how
long its answer may be, not how hard to think), `"stream": false`,
`"stop_sequences": []`.

An unset `max_tokens`, which the API requires, is `DEFAULT_MAX_TOKENS` plus
any thinking budget (the budget is spent out of `max_tokens`), reported as
transformed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from typing_extensions import assert_never

from interlingua import (
    ChatRequest,
    InvocationContext,
    ReasoningConfig,
    ResponseFormat,
    ToolChoice,
    TranslationReport,
)
from interlingua.codec import WireReader, copy_json, format_field_level, wire_model
from interlingua_anthropic._rules import EFFORTS, fit_user_id
from interlingua_anthropic._wire import DEFAULT_MAX_TOKENS, PROVIDER, Thinking, WireDict
from interlingua_anthropic._wire import ToolChoice as WireToolChoice

__all__ = ["decode_settings", "encode_settings"]

_reader = WireReader(PROVIDER)

_CHOICE_MODES: dict[str, Literal["auto", "required", "tool", "none"]] = {
    "auto": "auto",
    "any": "required",
    "tool": "tool",
    "none": "none",
}
_CHOICE_TYPES: dict[str, Literal["auto", "any", "tool", "none"]] = {
    "auto": "auto",
    "required": "any",
    "tool": "tool",
    "none": "none",
}


# --- decoding ---


def decode_settings(body: WireDict) -> dict[str, Any]:
    """The `ChatRequest` fields the body's settings give."""
    choice, parallel = _decode_tool_choice(body.get("tool_choice"))
    return {
        "model": _reader.field(body, "model", "", str),
        "max_tokens": _reader.field(body, "max_tokens", "", int),
        "temperature": _reader.field(body, "temperature", "", float, None),
        "top_p": _reader.field(body, "top_p", "", float, None),
        "top_k": _reader.field(body, "top_k", "", int, None),
        "stop": _strings(body, "stop_sequences"),
        "stream": _reader.field(body, "stream", "", bool, False),
        "tool_choice": choice,
        "parallel_tool_calls": parallel,
        "reasoning": _decode_reasoning(body.get("thinking"), body.get("output_config")),
        "response_format": _decode_response_format(body.get("output_config")),
        "context": _decode_context(body.get("metadata")),
    }


def _strings(body: WireDict, key: str) -> tuple[str, ...]:
    values = _reader.field(body, key, "", list, None) or []
    for k, value in enumerate(values):
        if not isinstance(value, str):
            raise _reader.error(f"{key}[{k}]", "expected a string")
    return tuple(values)


def _decode_tool_choice(value: Any) -> tuple[ToolChoice | None, bool | None]:
    if value is None:
        return None, None
    choice = _reader.object(value, "tool_choice")
    mode = _CHOICE_MODES.get(_reader.field(choice, "type", "tool_choice", str))
    if mode is None:
        return None, None  # a choice the core does not know stays on the wire as it is
    name = _reader.field(choice, "name", "tool_choice", str) if mode == "tool" else None
    disable = _reader.field(choice, "disable_parallel_tool_use", "tool_choice", bool, None)
    return ToolChoice(mode=mode, name=name), (None if disable is None else not disable)


def _decode_reasoning(thinking: Any, output_config: Any) -> ReasoningConfig | None:
    """Thinking, with the effort that goes with it. An effort sent without
    thinking, or with thinking disabled, is not reasoning in the core's sense
    and stays on the wire."""
    if thinking is None:
        return None
    config = _reader.object(thinking, "thinking")
    match _reader.field(config, "type", "thinking", str):
        case "enabled":
            budget = _reader.field(config, "budget_tokens", "thinking", int, None)
            reasoning = ReasoningConfig(budget_tokens=budget)
        case "adaptive":
            reasoning = ReasoningConfig()
        case "disabled":
            return ReasoningConfig(enabled=False)
        case _:
            return None
    effort = output_config.get("effort") if isinstance(output_config, dict) else None
    return reasoning.model_copy(update={"effort": effort}) if isinstance(effort, str) else reasoning


def _decode_response_format(output_config: Any) -> ResponseFormat | None:
    if not isinstance(output_config, dict):
        return None
    match output_config.get("format"):
        case {"type": "json_schema", "schema": dict() as schema}:
            return ResponseFormat(type="json_schema", json_schema=schema)
        case _:
            return None


def _decode_context(metadata: Any) -> InvocationContext | None:
    if metadata is None:
        return None
    user_id = _reader.field(_reader.object(metadata, "metadata"), "user_id", "metadata", str, None)
    return None if user_id is None else InvocationContext(user_id=user_id)


# --- encoding ---


def encode_settings(request: ChatRequest, report: TranslationReport) -> WireDict:
    """The body's settings for `request`; what Anthropic has no field for is reported."""
    body: WireDict = {
        "model": wire_model(request.model, PROVIDER),
        "max_tokens": _max_tokens(request, report),
    }
    scalars = {"temperature": request.temperature, "top_p": request.top_p, "top_k": request.top_k}
    body.update((key, value) for key, value in scalars.items() if value is not None)
    if request.stop:
        body["stop_sequences"] = list(request.stop)
    if request.stream:
        body["stream"] = True
    if (choice := _encode_tool_choice(request)) is not None:
        body["tool_choice"] = choice
    if (thinking := _encode_thinking(request.reasoning)) is not None:
        body["thinking"] = thinking
    if output_config := _encode_output_config(request, report):
        body["output_config"] = output_config
    if request.context is not None and request.context.user_id is not None:
        body["metadata"] = {"user_id": fit_user_id(request.context.user_id, report)}
    _report_unsent(request, report)
    return body


def _max_tokens(request: ChatRequest, report: TranslationReport) -> int:
    if request.max_tokens is not None:
        return request.max_tokens
    budget = request.reasoning.budget_tokens if request.reasoning else None
    filled = DEFAULT_MAX_TOKENS + (budget or 0)
    report.transformed("max_tokens", f"Anthropic requires max_tokens; {filled} sent", "setting")
    return filled


def _encode_tool_choice(request: ChatRequest) -> WireToolChoice | None:
    if request.tool_choice is None and request.parallel_tool_calls is None:
        return None
    mode = request.tool_choice.mode if request.tool_choice else "auto"
    choice = WireToolChoice(type=_CHOICE_TYPES[mode])
    if request.tool_choice is not None and request.tool_choice.name is not None:
        choice["name"] = request.tool_choice.name
    if request.parallel_tool_calls is not None:
        choice["disable_parallel_tool_use"] = not request.parallel_tool_calls
    return choice


def _encode_thinking(reasoning: ReasoningConfig | None) -> Thinking | None:
    if reasoning is None:
        return None
    if not reasoning.enabled:
        return Thinking(type="disabled")
    if reasoning.budget_tokens is not None:
        return Thinking(type="enabled", budget_tokens=reasoning.budget_tokens)
    return Thinking(type="adaptive")


def _encode_output_config(request: ChatRequest, report: TranslationReport) -> WireDict:
    config: WireDict = {}
    # Reasoning turned off says no effort: its "none" is said by `thinking` alone.
    reasoning = request.reasoning
    effort = reasoning.effort if reasoning is not None and reasoning.enabled else None
    if effort in EFFORTS:
        config["effort"] = effort
    elif effort is not None:
        report.dropped("reasoning.effort", f"Anthropic has no effort {effort!r}", "setting")
    response_format = request.response_format
    if response_format and (output_format := _encode_format(response_format, report)):
        config["format"] = output_format
    return config


def _encode_format(response_format: ResponseFormat, report: TranslationReport) -> WireDict | None:
    """`output_config.format`: a JSON schema alone, always followed strictly."""
    match response_format.type:
        case "text":
            return None
        case "json_object":
            report.dropped(
                "response_format", "Anthropic has no JSON mode without a schema", "content"
            )
            return None
        case "json_schema":
            for name, reason in _unsent_format_fields(response_format):
                report.dropped(f"response_format.{name}", reason, format_field_level(name))
            return {"type": "json_schema", "schema": copy_json(response_format.json_schema)}
        case _:
            assert_never(response_format.type)


def _unsent_format_fields(response_format: ResponseFormat) -> Iterator[tuple[str, str]]:
    if response_format.name:
        yield "name", "Anthropic takes a schema only, without a name"
    if response_format.description:
        yield "description", "Anthropic takes a schema only, without a description"
    if response_format.strict is False:
        # Anthropic always holds the output to the schema: only strict=False is lost.
        yield "strict", "Anthropic always holds the output to the schema"


def _report_unsent(request: ChatRequest, report: TranslationReport) -> None:
    if request.seed is not None:
        report.dropped("seed", "Anthropic has no seed", "setting")
    if request.reasoning is not None and request.reasoning.summary is not None:
        report.dropped("reasoning.summary", "Anthropic has no reasoning summary setting", "hint")
