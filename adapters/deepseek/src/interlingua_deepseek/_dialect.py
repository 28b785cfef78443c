"""DeepSeek's dialect of Chat Completions, and the codec bound to it.

What DeepSeek does its own way: its thinking mode's reasoning in the
assistant's `reasoning_content` (streamed as `delta.reasoning_content`), a
`ReasoningPart` of provider `deepseek` that goes back in the same field; its
context-cache counts in the usage (`_usage`); and, as data, `max_tokens`, no
user id field, no `refusal` or `annotations` in a message, no audio or
document parts, and the usage of a stream on the chunk that finishes it.

Reasoning going back follows DeepSeek's thinking-mode guide: an assistant
turn's `reasoning_content` is ignored when no tool was called between two user
messages, and must be sent back in every later request when one was ("If your
code does not correctly pass back reasoning_content, the API will return a 400
error"). DeepSeek's own reasoning is therefore always sent back as it came, as
the recorded tool loops do, and a tool-call turn without it gets an empty one
(`_rules`). Its `thinking` setting (`{"type": "enabled"}`) is
a provider option, kept as sent; reasoning turned off goes as `thinking:
{"type": "disabled"}`.
"""

from __future__ import annotations

from dataclasses import dataclass

from interlingua import ChatRequest, TranslationReport
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_deepseek._rules import LEAST_REASONING, with_tool_turn_reasoning
from interlingua_deepseek._usage import DEEPSEEK_USAGE
from interlingua_deepseek._wire import PROVIDER

__all__ = ["CODEC", "DEEPSEEK", "DeepSeekDialect"]


@dataclass(frozen=True, eq=False)
class DeepSeekDialect(ChatCompletionsDialect):
    """Chat Completions as DeepSeek speaks it; see the module doc."""

    def sent_request(self, request: ChatRequest, report: TranslationReport) -> ChatRequest:
        return with_tool_turn_reasoning(request, report)


DEEPSEEK = DeepSeekDialect(
    provider=PROVIDER,
    reasoning_field="reasoning_content",
    usage=DEEPSEEK_USAGE,
    max_tokens_field="max_tokens",
    user_field=None,
    message_defaults={},
    refusal_field=False,
    audio_formats={},
    document_parts=False,
    usage_chunk=False,
    least_reasoning=LEAST_REASONING,
)
CODEC = ChatCompletionsCodec(DEEPSEEK)
