"""xAI's dialect of Chat Completions, and the codec bound to it.

What xAI does its own way: the reasoning of its reasoning models
(`grok-3-mini`) in the assistant's `reasoning_content` field (streamed as
`delta.reasoning_content`), a `ReasoningPart` of provider `xai`; usage with
the sources Live Search used and the call's cost (`_usage`); and error bodies
whose `error` is a string, a bad key answered 400 (`_errors`).

xAI's own reasoning goes back to it as it came, in the assistant message's
`reasoning_content`: its chat completions take it there (a client that sends
each earlier answer's `reasoning_content` back is answered 200, by grok-3-mini,
grok-code-fast-1 and grok-4-1-fast-non-reasoning alike). Reasoning made
elsewhere is left out (reported), or sent as marked text where the request
asks (`foreign_reasoning`), as for any provider: the chat completions have no
field for encrypted reasoning, which xAI takes back through its Responses API
only ("it has no field for the model's encrypted reasoning").
Reasoning turned off goes as each model takes it (`_rules`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import ProviderError
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_xai._errors import decode_error
from interlingua_xai._rules import LEAST_REASONING
from interlingua_xai._usage import XAI_USAGE
from interlingua_xai._wire import PROVIDER

__all__ = ["CODEC", "XAI", "XAIDialect"]


@dataclass(frozen=True, eq=False)
class XAIDialect(ChatCompletionsDialect):
    """Chat Completions as xAI speaks it; see the module doc."""

    def decode_error(
        self, status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
    ) -> ProviderError:
        return decode_error(status, body, headers=headers)


XAI = XAIDialect(
    provider=PROVIDER,
    reasoning_field="reasoning_content",
    usage=XAI_USAGE,
    message_defaults={"refusal": None},
    least_reasoning=LEAST_REASONING,
)
CODEC = ChatCompletionsCodec(XAI)
