"""What Groq accepts, checked before anything is sent: each rule with Groq's
own words (its 400 texts, as users have reported them).

Groq rejects fields it does not know ("property 'reasoning_content' is
unsupported"), so the encoder sends none: no `refusal` (a refusal goes as
text), reasoning only in the `reasoning` field of a model that takes it. Each
left out is reported.

A tool message's `name` Groq takes (a body with `"name": "add"` beside its
`tool_call_id` is answered 200; its tool-use guide writes one, and users
report it accepted), and a name Groq was sent goes back with it. A result's
name from elsewhere is not sent: Groq's API reference has none on a tool
message (the `groq` SDK's `ChatCompletionToolMessageParam`, generated from
it: `content`, `role`, `tool_call_id`), its parallel tool-use example sends
none, and the call the result answers, in the same request, names the tool.
"""

from __future__ import annotations

from interlingua import ChatRequest, InvalidDataError
from interlingua.codec import ModelRules, ReasoningOff
from interlingua_groq._wire import PROVIDER

__all__ = [
    "LEAST_REASONING",
    "REASONING_MODELS",
    "check_reasoning_settings",
    "takes_reasoning_field",
]

# "messages[1].reasoning: reasoning is not supported with this model": the
# models whose assistant messages take their reasoning back, by name.
REASONING_MODELS = ("gpt-oss", "qwen3", "deepseek-r1", "compound", "kimi-k2-thinking")


def takes_reasoning_field(model: str) -> bool:
    """Whether `model`'s assistant messages take a `reasoning` field."""
    name = model.lower()
    return any(family in name for family in REASONING_MODELS)


def check_reasoning_settings(request: ChatRequest) -> None:
    """`reasoning_format` and `include_reasoning` never together: Groq's reasoning
    documentation offers them as two ways to say one thing, and refuses both."""
    options = request.options_for(PROVIDER)
    if "reasoning_format" in options and "include_reasoning" in options:
        problem = "Groq takes reasoning_format or include_reasoning, not both"
        raise InvalidDataError(
            [(f"provider_options.{PROVIDER}.include_reasoning", problem)],
            subject=f"request for {PROVIDER}",
        )


# What Groq's models take for reasoning turned off (the `groq` SDK's `reasoning_effort`:
# "qwen3 models support `none` to disable reasoning"; "openai/gpt-oss-20b and
# openai/gpt-oss-120b support 'low', 'medium', or 'high'"). Its other models do not
# reason ("reasoning_effort is not supported with this model"): no field.
LEAST_REASONING: ModelRules = (
    (r"qwen3.*", ReasoningOff("none")),
    (r"gpt-oss-.*", ReasoningOff("low", "Groq's gpt-oss models cannot turn reasoning off")),
    (r"(llama|kimi-k2-instruct|gemma|mistral-saba|allam).*", ReasoningOff()),
)
