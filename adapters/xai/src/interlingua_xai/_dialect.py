"""xAI's dialect of Chat Completions, and the codec bound to it.

What xAI does its own way: the reasoning of its reasoning models
(`grok-3-mini`) in the assistant's `reasoning_content` field (streamed as
`delta.reasoning_content`), a `ReasoningPart` of provider `xai`; usage with
the sources Live Search used and the call's cost (`_usage`); and error bodies
whose `error` is a string, a bad key answered 400 (`_errors`).

Reasoning does not go back: xAI's chat completions take no reasoning in an
assistant message (its documentation gives reasoning back only through the
Responses API's encrypted reasoning items), so it is left out of requests and
reported, as it is for OpenAI. Reasoning turned off goes as each model
takes it (`_rules`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interlingua import ProviderError, ReasoningPart
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_xai._errors import decode_error
from interlingua_xai._rules import LEAST_REASONING
from interlingua_xai._usage import XAI_USAGE
from interlingua_xai._wire import PROVIDER

__all__ = ["CODEC", "XAI", "XAIDialect"]


@dataclass(frozen=True, eq=False)
class XAIDialect(ChatCompletionsDialect):
    """Chat Completions as xAI speaks it; see the module doc."""

    def takes_reasoning(self, part: ReasoningPart, model: str) -> bool:
        return False

    def decode_error(self, status: int | None, body: Any) -> ProviderError:
        return decode_error(status, body)


XAI = XAIDialect(
    provider=PROVIDER,
    reasoning_field="reasoning_content",
    usage=XAI_USAGE,
    message_defaults={"refusal": None},
    least_reasoning=LEAST_REASONING,
)
CODEC = ChatCompletionsCodec(XAI)
