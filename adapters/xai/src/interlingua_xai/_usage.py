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

from dataclasses import replace

from interlingua_chat_completions._usage import CHAT_USAGE

__all__ = ["XAI_USAGE"]

XAI_USAGE = replace(
    CHAT_USAGE, reasoning_apart=True, extra_counts=("num_sources_used", "cost_in_usd_ticks")
)
