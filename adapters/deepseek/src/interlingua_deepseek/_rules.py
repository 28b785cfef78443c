"""What DeepSeek accepts that the Chat Completions codec does not already
write: the reasoning its thinking mode needs back.

DeepSeek's thinking-mode guide: between two user messages, "if the model
performed a tool call, the intermediate assistant's reasoning_content must
participate in the context concatenation and must be passed back to the API
in all subsequent user interaction rounds"; a request without it is refused
(400, "The reasoning_content in the thinking mode must be passed back to the
API"). Thinking mode is on unless the request turns it off (`thinking:
{"type": "disabled"}`, which reasoning turned off is sent as) or names the
non-thinking model `deepseek-chat`.

An assistant message of such a turn with no reasoning of DeepSeek's (a
history made elsewhere, or reasoning left out) is sent with an empty
`reasoning_content`, which DeepSeek takes (the recorded tool loops send one
for a call the client made itself), and reported as transformed.
"""

from __future__ import annotations

from collections.abc import Sequence

from interlingua import ChatRequest, Message, ReasoningPart, TranslationReport
from interlingua.codec import ModelRules, ReasoningOff
from interlingua_deepseek._wire import NON_THINKING_MODELS, PROVIDER

__all__ = ["LEAST_REASONING", "TOOL_TURN_REASONING", "thinking_on", "with_tool_turn_reasoning"]

# Reasoning turned off: DeepSeek's thinking-mode guide, "Thinking Mode Toggle":
# `{"thinking": {"type": "enabled/disabled"}}` ("Thinking mode is enabled by
# default"), and no `reasoning_effort` beside it ("thinking options type cannot be
# disabled when reasoning_effort is set", 400, as users report it).
LEAST_REASONING: ModelRules = ((r".*", ReasoningOff({"thinking": {"type": "disabled"}})),)

TOOL_TURN_REASONING = (
    "DeepSeek's thinking mode needs reasoning_content back on every assistant message "
    "of a tool-call turn; none of DeepSeek's here, so it goes empty"
)


def thinking_on(request: ChatRequest) -> bool:
    """Whether `request` runs in DeepSeek's thinking mode (its default): not when
    it sends `thinking` disabled, or turns reasoning off (`LEAST_REASONING`)."""
    thinking = request.options_for(PROVIDER).get("thinking")
    disabled = isinstance(thinking, dict) and thinking.get("type") == "disabled"
    off = thinking is None and request.reasoning is not None and not request.reasoning.enabled
    return not (disabled or off) and request.model not in NON_THINKING_MODELS


def with_tool_turn_reasoning(request: ChatRequest, report: TranslationReport) -> ChatRequest:
    """`request` with an empty DeepSeek reasoning on each assistant message of a
    tool-call turn that has none of DeepSeek's (each reported), in thinking mode."""
    needing = _needing_reasoning(request.messages) if thinking_on(request) else []
    if not needing:
        return request
    messages = list(request.messages)
    empty = ReasoningPart(text="", provider=PROVIDER)
    for index in needing:
        # Put last, so that the paths of the message's own parts stay theirs in the report.
        messages[index] = messages[index].model_copy(
            update={"parts": (*messages[index].parts, empty)}
        )
        report.transformed(f"messages[{index}]", TOOL_TURN_REASONING, "hint")
    return request.model_copy(update={"messages": tuple(messages)})


def _needing_reasoning(messages: Sequence[Message]) -> list[int]:
    """The assistant messages of turns with a tool call that hold no DeepSeek reasoning."""
    found: list[int] = []
    turn: list[int] = []
    called = False
    for index, message in enumerate([*messages, Message.user("")]):
        if message.role == "user":
            if called:
                found += [i for i in turn if not _has_own_reasoning(messages[i])]
            turn, called = [], False
        elif message.role == "assistant":
            turn.append(index)
            called = called or bool(message.tool_calls)
    return found


def _has_own_reasoning(message: Message) -> bool:
    return any(part.provider == PROVIDER for part in message.reasoning)
