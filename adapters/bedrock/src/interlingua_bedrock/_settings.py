"""Request settings: the body's fields other than `messages`, `system` and
`toolConfig.tools` <-> the `ChatRequest` fields of the same meaning.

    wire                                        core
    inferenceConfig maxTokens, temperature,     max_tokens, temperature, top_p, stop
      topP, stopSequences
    toolConfig.toolChoice auto / any / tool     ToolChoice auto / required / tool
    additionalModelRequestFields (the model's own fields):
      thinking enabled + budget_tokens          ReasoningConfig(budget_tokens=...)   Claude
               adaptive / disabled              ReasoningConfig() / (enabled=False)
        with output_config.effort               ReasoningConfig.effort
      reasoningConfig {type,                    ReasoningConfig(effort=...)          Nova
        maxReasoningEffort}
      reasoning_effort, reasoning_config        ReasoningConfig(effort=...)          gpt-oss, Qwen
      top_k; Nova's inferenceConfig.topK        top_k
    outputConfig.textFormat json_schema         ResponseFormat(type="json_schema"): the
      (`structure.jsonSchema.schema` a JSON     schema parsed, its name and description
      string)

The reasoning setting is a field of the model's own: a request writes the
one its model id names (`REASONING_FIELDS`), or none where the family has
none, reported; for a model none names, the one it came in (a decoded
request's form `reasoning`), else Claude's.

`encode_settings` is pure but for the report, so `decode_request` finds what
to keep in `provider_options` by comparing the body with the encoding of what
it decoded (`leftover`): `guardrailConfig`, `performanceConfig`,
`promptVariables`, `requestMetadata`, an object sent empty, the model's other
fields.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from interlingua import ChatRequest, ReasoningConfig, ResponseFormat, ToolChoice, TranslationReport
from interlingua.codec import WireReader, effort_for_budget, format_field_level
from interlingua_bedrock._wire import (
    PROVIDER,
    InferenceConfig,
    ReasoningForm,
    RequestForms,
    WireDict,
)

__all__ = ["decode_settings", "encode_settings"]

_reader = WireReader(PROVIDER)

_CHOICE_MODES: dict[str, Literal["auto", "required", "tool"]] = {
    "auto": "auto",
    "any": "required",
    "tool": "tool",
}
_CHOICE_MEMBERS = {mode: member for member, mode in _CHOICE_MODES.items()}
_EXTRA = "additionalModelRequestFields"
_EFFORTS = frozenset({"low", "medium", "high"})

# The reasoning field each model family takes, by its id (a cross-region `us.`
# prefix or an ARN around it); Claude's `thinking` for a model none names (the
# request's model unset among them); none for the families that have no such field.
REASONING_FIELDS: tuple[tuple[re.Pattern[str], ReasoningForm | None], ...] = (
    (re.compile(r"anthropic\.claude"), "thinking"),
    (re.compile(r"amazon\.nova"), "reasoningConfig"),
    (re.compile(r"openai\.gpt-oss"), "reasoning_effort"),
    (re.compile(r"qwen\."), "reasoning_config"),
    (re.compile(r"meta\.llama|mistral\.|amazon\.titan|cohere\.|ai21\.|deepseek\.|writer\."), None),
)
_NOVA = re.compile(r"amazon\.nova")


# --- decoding ---


def decode_settings(body: WireDict, forms: RequestForms) -> dict[str, Any]:
    """The `ChatRequest` fields the body's settings give; what it finds of their
    forms goes in `forms`."""
    inference = _reader.field(body, "inferenceConfig", "", dict, None) or {}
    extra = _reader.field(body, _EXTRA, "", dict, None) or {}
    tool_config = _reader.field(body, "toolConfig", "", dict, None) or {}
    where = "inferenceConfig"
    return {
        "max_tokens": _reader.field(inference, "maxTokens", where, int, None),
        "temperature": _reader.field(inference, "temperature", where, float, None),
        "top_p": _reader.field(inference, "topP", where, float, None),
        "stop": tuple(_reader.field(inference, "stopSequences", where, list, None) or ()),
        "top_k": _decode_top_k(extra, forms),
        "tool_choice": _decode_tool_choice(tool_config.get("toolChoice")),
        "reasoning": _decode_reasoning(extra, forms),
        "response_format": _decode_format(body.get("outputConfig"), forms),
    }


def _decode_top_k(extra: WireDict, forms: RequestForms) -> int | None:
    if isinstance(top_k := extra.get("top_k"), int) and not isinstance(top_k, bool):
        return top_k
    nova = extra.get("inferenceConfig")
    top_k = nova.get("topK") if isinstance(nova, dict) else None
    if isinstance(top_k, int) and not isinstance(top_k, bool):
        forms["top_k"] = "inferenceConfig"
        return top_k
    return None


def _decode_tool_choice(value: Any) -> ToolChoice | None:
    if value is None:
        return None
    choice = _reader.object(value, "toolConfig.toolChoice")
    if len(choice) != 1 or (mode := _CHOICE_MODES.get(next(iter(choice)))) is None:
        return None  # a choice the core does not know stays on the wire as it is
    member = _reader.object(choice[_CHOICE_MEMBERS[mode]], "toolConfig.toolChoice")
    if mode != "tool":
        return ToolChoice(mode=mode) if not member else None
    return ToolChoice(
        mode="tool", name=_reader.field(member, "name", "toolConfig.toolChoice.tool", str)
    )


def _decode_reasoning(extra: WireDict, forms: RequestForms) -> ReasoningConfig | None:
    if isinstance(thinking := extra.get("thinking"), dict):
        forms["reasoning"] = "thinking"
        return _decode_thinking(thinking, extra.get("output_config"))
    if isinstance(config := extra.get("reasoningConfig"), dict):
        forms["reasoning"] = "reasoningConfig"
        if config.get("type") == "disabled":
            return ReasoningConfig(enabled=False)
        effort = config.get("maxReasoningEffort")
        return ReasoningConfig(effort=effort if isinstance(effort, str) else None)
    names: tuple[ReasoningForm, ...] = ("reasoning_effort", "reasoning_config")
    for name in names:
        if isinstance(effort := extra.get(name), str):
            forms["reasoning"] = name
            return ReasoningConfig(effort=effort)
    return None


def _decode_thinking(thinking: WireDict, output_config: Any) -> ReasoningConfig | None:
    """Claude's thinking, with the effort that goes with it (as Anthropic's API takes them)."""
    match thinking.get("type"):
        case "enabled":
            budget = _reader.field(thinking, "budget_tokens", f"{_EXTRA}.thinking", int, None)
            reasoning = ReasoningConfig(budget_tokens=budget)
        case "adaptive":
            reasoning = ReasoningConfig()
        case "disabled":
            return ReasoningConfig(enabled=False)
        case _:
            return None
    effort = output_config.get("effort") if isinstance(output_config, dict) else None
    return reasoning.model_copy(update={"effort": effort}) if isinstance(effort, str) else reasoning


def _decode_format(value: Any, forms: RequestForms) -> ResponseFormat | None:
    match value:
        case {"textFormat": {"type": "json_schema", "structure": {"jsonSchema": dict() as wire}}}:
            text = wire.get("schema")
            if not isinstance(text, str):
                return None
            try:
                schema = json.loads(text)
            except ValueError:
                return None  # not JSON: kept as it came
            if not isinstance(schema, dict):
                return None
            if json.dumps(schema) != text:
                forms["schema_text"] = text
            return ResponseFormat(
                type="json_schema",
                json_schema=schema,
                name=wire.get("name") if isinstance(wire.get("name"), str) else None,
                description=wire.get("description")
                if isinstance(wire.get("description"), str)
                else None,
            )
        case _:
            return None


# --- encoding ---


def encode_settings(
    request: ChatRequest, forms: RequestForms, report: TranslationReport
) -> WireDict:
    """The body's settings for `request` (`toolConfig` holds its tool choice
    alone); what Converse has no field for is reported."""
    body: WireDict = {}
    inference = InferenceConfig()
    if request.max_tokens is not None:
        inference["maxTokens"] = request.max_tokens
    if request.temperature is not None:
        inference["temperature"] = request.temperature
    if request.top_p is not None:
        inference["topP"] = request.top_p
    if request.stop:
        inference["stopSequences"] = list(request.stop)
    if inference:
        body["inferenceConfig"] = inference
    if request.tool_choice is not None and (choice := _encode_tool_choice(request.tool_choice)):
        body["toolConfig"] = {"toolChoice": choice}
    extra = _encode_reasoning(request, forms, report)
    if request.top_k is not None:
        if forms.get("top_k") == "inferenceConfig" or _NOVA.search(request.model):
            extra["inferenceConfig"] = {"topK": request.top_k}
        else:
            extra["top_k"] = request.top_k
    if extra:
        body[_EXTRA] = extra
    if request.response_format is not None and (
        text_format := _encode_format(request, forms, report)
    ):
        body["outputConfig"] = {"textFormat": text_format}
    _report_unsent(request, report)
    return body


def _encode_tool_choice(choice: ToolChoice) -> WireDict | None:
    """Converse's choice; none for `none`, which it has not (reported beside tools,
    where it meant something: `_request._report_tool_settings`)."""
    if choice.mode == "none":
        return None
    member: WireDict = {"name": choice.name} if choice.mode == "tool" else {}
    return {_CHOICE_MEMBERS[choice.mode]: member}


def _reasoning_field(request: ChatRequest, forms: RequestForms) -> ReasoningForm | None:
    """The field the model's family takes; for a model none names, the one the
    body came with, else Claude's."""
    for model, name in REASONING_FIELDS:
        if model.search(request.model):
            return name
    return forms.get("reasoning", "thinking")


def _encode_reasoning(
    request: ChatRequest, forms: RequestForms, report: TranslationReport
) -> WireDict:
    reasoning = request.reasoning
    if reasoning is None:
        return {}
    field = _reasoning_field(request, forms)
    effort = reasoning.effort
    if effort is None and reasoning.budget_tokens is not None:
        effort = effort_for_budget(reasoning.budget_tokens)
    match field:
        case "thinking":
            return _encode_thinking(reasoning, report)
        case "reasoningConfig" if not reasoning.enabled:
            return {"reasoningConfig": {"type": "disabled"}}
        case "reasoningConfig":
            config: WireDict = {"type": "enabled"}
            if effort is not None:
                config["maxReasoningEffort"] = effort
            return {"reasoningConfig": config}
        case "reasoning_effort" | "reasoning_config" if reasoning.enabled and effort is not None:
            return {field: effort}
        case _:
            model = request.model or "a model not named"
            report.dropped(
                "reasoning", f"Bedrock knows no reasoning field of {model}'s for it", "setting"
            )
            return {}


def _encode_thinking(reasoning: ReasoningConfig, report: TranslationReport) -> WireDict:
    if not reasoning.enabled:
        return {"thinking": {"type": "disabled"}}
    if reasoning.budget_tokens is not None:
        extra: WireDict = {
            "thinking": {"type": "enabled", "budget_tokens": reasoning.budget_tokens}
        }
    else:
        extra = {"thinking": {"type": "adaptive"}}
    if reasoning.effort is not None:
        extra["output_config"] = {"effort": reasoning.effort}
    return extra


def _encode_format(
    request: ChatRequest, forms: RequestForms, report: TranslationReport
) -> WireDict | None:
    response_format = request.response_format
    assert response_format is not None
    if response_format.type == "text":
        return None
    if response_format.type == "json_object":
        report.dropped("response_format", "Converse has no JSON mode without a schema", "content")
        return None
    if response_format.strict is False:
        report.dropped(
            "response_format.strict",
            "Converse always holds the output to the schema",
            format_field_level("strict"),
        )
    schema = response_format.json_schema or {}
    text = forms.get("schema_text")
    wire: WireDict = {"schema": text if text and json.loads(text) == schema else json.dumps(schema)}
    if response_format.name is not None:
        wire["name"] = response_format.name
    if response_format.description is not None:
        wire["description"] = response_format.description
    return {"type": "json_schema", "structure": {"jsonSchema": wire}}


def _report_unsent(request: ChatRequest, report: TranslationReport) -> None:
    if request.seed is not None:
        report.dropped("seed", "Converse has no seed", "setting")
    if request.reasoning is not None and request.reasoning.summary is not None:
        report.dropped("reasoning.summary", "Converse has no reasoning summary setting", "hint")
    if request.context is not None and request.context.user_id is not None:
        report.dropped("context.user_id", "Converse has no end-user field", "hint")
