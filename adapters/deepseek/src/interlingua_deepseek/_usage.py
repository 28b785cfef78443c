"""DeepSeek's usage object: Chat Completions' names, with its context cache.

    wire                                        TokenUsage
    prompt_tokens (cache hits included)         input_tokens
    completion_tokens                           output_tokens
    total_tokens                                total_tokens
    prompt_cache_hit_tokens                     cache_read_tokens
    prompt_tokens_details.cached_tokens         cache_read_tokens (the same count)
    prompt_cache_miss_tokens                    details["prompt_cache_miss_tokens"]
    completion_tokens_details.reasoning_tokens  reasoning_tokens

`prompt_cache_hit_tokens + prompt_cache_miss_tokens == prompt_tokens`: DeepSeek's
cache is read, never written by a call, so no count is a cache write.
"""

from __future__ import annotations

from dataclasses import replace

from interlingua_chat_completions._usage import CHAT_USAGE

__all__ = ["DEEPSEEK_USAGE"]

DEEPSEEK_USAGE = replace(
    CHAT_USAGE,
    extra_counts=("prompt_cache_hit_tokens", "prompt_cache_miss_tokens"),
    cache_read="prompt_cache_hit_tokens",
    cache_read_also=("prompt_tokens_details.cached_tokens",),
)
