"""xAI's usage object: Chat Completions' names, with its own counts, and
its reasoning counted apart from the completion.

    wire                                        TokenUsage
    prompt_tokens                               input_tokens
    completion_tokens + reasoning_tokens        output_tokens
    total_tokens                                total_tokens
    prompt_tokens_details.cached_tokens         cache_read_tokens
    completion_tokens_details.reasoning_tokens  reasoning_tokens
    num_sources_used (Live Search sources)      details["num_sources_used"]
    cost_in_usd_ticks (the call's cost)         details["cost_in_usd_ticks"]

Quirk: xAI's `completion_tokens` leaves the reasoning out ("The reasoning
token count is outputted in the reasoning_tokens field, separated from the
completion_tokens": 663 prompt + 50 completion + 124 reasoning = 837 total),
where the core's `output_tokens` holds it, as OpenAI's does: the reasoning is
added on decoding and taken off again on encoding.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import TokenUsage, TranslationReport
from interlingua.codec import WireReader
from interlingua_chat_completions._usage import CHAT_USAGE, UsageShape

__all__ = ["XAI_USAGE", "XAIUsageShape"]


# No `slots`: a slotted subclass is a new class, which `super()` does not know.
@dataclass(frozen=True)
class XAIUsageShape(UsageShape):
    """Chat Completions' usage names, the reasoning outside `completion_tokens`."""

    def decode(self, usage: Mapping[str, Any], path: str, read: WireReader) -> TokenUsage:
        counted = super().decode(usage, path, read)
        output = counted.output_tokens + counted.reasoning_tokens
        return counted.model_copy(update={"output_tokens": output})

    def encode(
        self, usage: TokenUsage, report: TranslationReport | None = None, *, elsewhere: bool = False
    ) -> dict[str, Any]:
        out = super().encode(usage, report, elsewhere=elsewhere)
        out[self.output] = usage.output_tokens - usage.reasoning_tokens
        return out


XAI_USAGE = XAIUsageShape(
    input=CHAT_USAGE.input,
    output=CHAT_USAGE.output,
    groups=CHAT_USAGE.groups,
    cache_read=CHAT_USAGE.cache_read,
    cache_write=CHAT_USAGE.cache_write,
    reasoning=CHAT_USAGE.reasoning,
    extra_counts=("num_sources_used", "cost_in_usd_ticks"),
)
