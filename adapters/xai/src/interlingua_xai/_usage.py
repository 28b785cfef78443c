"""xAI's usage object: Chat Completions' names, with its own counts.

    wire                                        TokenUsage
    prompt_tokens, completion_tokens, total     input, output, total
    prompt_tokens_details.cached_tokens         cache_read_tokens
    completion_tokens_details.reasoning_tokens  reasoning_tokens
    num_sources_used (Live Search sources)      details["num_sources_used"]
    cost_in_usd_ticks (the call's cost)         details["cost_in_usd_ticks"]

The other detail counts (`text_tokens`, `image_tokens`, ...) are kept in
`details` under their dotted paths, as for every Chat Completions server.
"""

from __future__ import annotations

from dataclasses import replace

from interlingua_chat_completions._usage import CHAT_USAGE

__all__ = ["XAI_USAGE"]

XAI_USAGE = replace(CHAT_USAGE, extra_counts=("num_sources_used", "cost_in_usd_ticks"))
