"""Request settings: `generationConfig` and `toolConfig` <-> the `ChatRequest`
fields of the same meaning.

    generationConfig                          core
    temperature, topP, topK (an integer)      temperature, top_p, top_k
    maxOutputTokens, stopSequences, seed      max_tokens, stop, seed
    thinkingConfig.thinkingBudget             ReasoningConfig: 0 disabled (as each model
                                              takes it: `_rules`), -1 (dynamic) enabled,
                                              else budget_tokens
    thinkingConfig.thinkingLevel              ReasoningConfig.effort (lower case)
    responseMimeType application/json         ResponseFormat json_object, or json_schema
      + responseJsonSchema                    with the schema
      + responseSchema (OpenAPI subset)       with the JSON Schema it means (`_schema`); the
                                              schema as it came is the request's form
    toolConfig.functionCallingConfig.mode     ToolChoice AUTO auto, ANY required (with one
      (+ allowedFunctionNames)                allowed name: that tool), NONE none

Every other field (`candidateCount`, the penalties, `responseModalities`,
`includeThoughts`, `logprobs`, `VALIDATED` mode, several allowed names, a
schema beside another MIME type, ...) stays on the wire as it came, in the
request's options.
Names come in camelCase (`_request` reads both spellings). Gemini has no
parallel-tool-calls switch and no end-user field: an end user's id is
reported, and one call at a time asked beside tools (parallel calls are its
way already).
"""

from __future__ import annotations

from typing import Any, Literal, cast

from interlingua import ChatRequest, ReasoningConfig, ResponseFormat, ToolChoice, TranslationReport
from interlingua.codec import (
    ReasoningOff,
    WireReader,
    copy_json,
    format_field_level,
    kept,
    report_other_providers,
    sent_off,
    wire_model,
)
from interlingua_google._rules import LEAST_THINKING, OFF, STRICT_ALWAYS
from interlingua_google._schema import json_schema
from interlingua_google._wire import PROVIDER, RequestForms, WireDict

__all__ = ["GENERATION_KEYS", "decode_settings", "encode_settings"]

# The generationConfig fields the core models (others are kept as they came).
GENERATION_KEYS = frozenset(
    {"temperature", "topP", "topK", "maxOutputTokens", "stopSequences", "seed", "thinkingConfig"}
)
_JSON = "application/json"
_CHOICE_MODES: dict[str, Literal["auto", "required", "none"]] = {
    "AUTO": "auto",
    "ANY": "required",
    "NONE": "none",
}
_MODES = {"auto": "AUTO", "required": "ANY", "tool": "ANY", "none": "NONE"}
_LEVELS = frozenset({"MINIMAL", "LOW", "MEDIUM", "HIGH"})

_reader = WireReader(PROVIDER)


# --- decoding: each takes the camelCase object and takes out what it models ---


def decode_settings(
    generation: WireDict, tool_config: WireDict, forms: RequestForms
) -> dict[str, Any]:
    """The `ChatRequest` fields of `generationConfig` and `toolConfig`; what
    is decoded is taken out of both (what stays is kept as it came), the form
    it was written in put in `forms`."""
    path = "generationConfig"
    settings: dict[str, Any] = {
        "temperature": _take(generation, "temperature", path, float),
        "top_p": _take(generation, "topP", path, float),
        "max_tokens": _take(generation, "maxOutputTokens", path, int),
        "seed": _take(generation, "seed", path, int),
        "stop": tuple(_strings(_take(generation, "stopSequences", path, list) or [], path)),
        "reasoning": _decode_reasoning(generation),
        "response_format": _decode_format(generation, forms),
        "tool_choice": _decode_choice(tool_config),
    }
    if type(generation.get("topK")) is int:
        settings["top_k"] = generation.pop("topK")
    return settings


def _take(body: WireDict, key: str, path: str, kind: type[Any]) -> Any:
    value = _reader.field(body, key, path, kind, None)
    if value is not None:
        del body[key]
    return value


def _strings(values: list[Any], path: str) -> list[str]:
    for k, value in enumerate(values):
        if not isinstance(value, str):
            raise _reader.error(f"{path}.stopSequences[{k}]", "expected a string")
    return values


def _decode_reasoning(generation: WireDict) -> ReasoningConfig | None:
    config = generation.get("thinkingConfig")
    if not isinstance(config, dict):
        return None
    budget = config.get("thinkingBudget")
    level = config.get("thinkingLevel")
    if budget is not None and type(budget) is not int:
        return None
    if level is not None and level not in _LEVELS:
        return None
    if (budget is None and level is None) or (budget == 0 and level is not None):
        return None  # nothing, or a level with thinking off (Gemini refuses both): kept
    config.pop("thinkingBudget", None)
    config.pop("thinkingLevel", None)
    if not config:
        del generation["thinkingConfig"]
    effort = level.lower() if isinstance(level, str) else None
    if budget == 0:
        return ReasoningConfig(enabled=False)
    return ReasoningConfig(budget_tokens=None if budget in (None, -1) else budget, effort=effort)


def _decode_format(generation: WireDict, forms: RequestForms) -> ResponseFormat | None:
    if generation.get("responseMimeType") != _JSON:
        return None
    key = "responseJsonSchema" if "responseJsonSchema" in generation else "responseSchema"
    schema = generation.get(key)
    if schema is not None and not isinstance(schema, dict):
        return None
    del generation["responseMimeType"]
    if schema is None:
        return ResponseFormat(type="json_object")  # a null schema stays as it came
    del generation[key]
    if key == "responseSchema":
        forms["response_schema"] = schema
        schema = json_schema(schema)
    return ResponseFormat(type="json_schema", json_schema=schema)


def _decode_choice(tool_config: WireDict) -> ToolChoice | None:
    config = tool_config.get("functionCallingConfig")
    if not isinstance(config, dict) or set(config) - {"mode", "allowedFunctionNames"}:
        return None
    mode = _CHOICE_MODES.get(config.get("mode", ""))
    allowed = config.get("allowedFunctionNames")
    if mode is None:
        return None
    if allowed is not None and (mode != "required" or not _one_name(allowed)):
        return None
    del tool_config["functionCallingConfig"]
    if allowed is not None:
        return ToolChoice(mode="tool", name=allowed[0])
    return ToolChoice(mode=mode)


def _one_name(allowed: Any) -> bool:
    return isinstance(allowed, list) and len(allowed) == 1 and isinstance(allowed[0], str)


# --- encoding ---


def encode_settings(request: ChatRequest, report: TranslationReport) -> tuple[WireDict, WireDict]:
    """`generationConfig` and `toolConfig` for `request` (camelCase; empty: none)."""
    generation: WireDict = {}
    scalars = {
        "temperature": request.temperature,
        "topP": request.top_p,
        "topK": request.top_k,
        "maxOutputTokens": request.max_tokens,
        "seed": request.seed,
    }
    generation.update((key, value) for key, value in scalars.items() if value is not None)
    if request.stop:
        generation["stopSequences"] = list(request.stop)
    if (thinking := _encode_thinking(request.reasoning, request.model, report)) is not None:
        generation["thinkingConfig"] = thinking
    if request.response_format is not None:
        forms = cast(RequestForms, kept(request, PROVIDER).get("forms", {}))
        generation.update(
            _encode_format(request.response_format, forms.get("response_schema"), report)
        )
    tool_config: WireDict = {}
    if request.tool_choice is not None:
        tool_config["functionCallingConfig"] = _encode_choice(request.tool_choice)
    _report_unsent(request, report)
    return generation, tool_config


def _encode_thinking(
    reasoning: ReasoningConfig | None, model: str, report: TranslationReport
) -> WireDict | None:
    if reasoning is None:
        return None
    if reasoning.summary is not None:
        report.dropped(
            "reasoning.summary", "Gemini has no summary setting (includeThoughts)", "hint"
        )
    if not reasoning.enabled:
        off = sent_off(wire_model(model, PROVIDER), LEAST_THINKING, report, ReasoningOff(OFF))
        return None if off is None else dict(off)
    config: WireDict = {}
    if reasoning.effort is not None and reasoning.effort.upper() in _LEVELS:
        config["thinkingLevel"] = reasoning.effort.upper()
    elif reasoning.effort is not None:
        report.dropped(
            "reasoning.effort", f"Gemini has no thinking level {reasoning.effort!r}", "setting"
        )
    if reasoning.budget_tokens is not None:
        config["thinkingBudget"] = reasoning.budget_tokens
    elif "thinkingLevel" not in config:
        config["thinkingBudget"] = -1  # Google's "dynamic thinking": the model decides
    return config


def _encode_format(
    response_format: ResponseFormat, original: WireDict | None, report: TranslationReport
) -> WireDict:
    """The format's fields: a JSON Schema as `responseJsonSchema`, or as the
    `responseSchema` it was read from, while it is still that schema's."""
    match response_format.type:
        case "text":
            return {}
        case "json_object":
            return {"responseMimeType": _JSON}
        case _:
            for name in ("name", "description"):
                if getattr(response_format, name):
                    report.dropped(
                        f"response_format.{name}",
                        "Gemini takes the schema alone",
                        format_field_level(name),
                    )
            if response_format.strict is False:
                report.dropped("response_format.strict", STRICT_ALWAYS, "setting")
            schema = response_format.json_schema
            if original is not None and json_schema(original) == schema:
                return {"responseMimeType": _JSON, "responseSchema": copy_json(original)}
            return {"responseMimeType": _JSON, "responseJsonSchema": copy_json(schema)}


def _encode_choice(choice: ToolChoice) -> WireDict:
    config: WireDict = {"mode": _MODES[choice.mode]}
    if choice.name is not None:
        config["allowedFunctionNames"] = [choice.name]
    return config


def _report_unsent(request: ChatRequest, report: TranslationReport) -> None:
    # Gemini calls tools in parallel as it sees fit: only one call at a time, asked
    # beside tools, is a setting it cannot keep.
    if request.parallel_tool_calls is False and request.tools:
        report.dropped(
            "parallel_tool_calls", "Gemini has no parallel tool calls setting", "setting"
        )
    if request.context is not None and request.context.user_id is not None:
        report.dropped("context.user_id", "Gemini has no end-user field", "hint")
    report_other_providers(request, PROVIDER, report)
