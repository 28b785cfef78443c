"""Mistral's usage object: Chat Completions' names, with its own extras.

    wire                                    TokenUsage
    prompt_tokens                           input_tokens (cache reads included)
    completion_tokens                       output_tokens
    total_tokens                            total_tokens
    prompt_tokens_details.cached_tokens     cache_read_tokens
    num_cached_tokens (an older form)       cache_read_tokens
    prompt_audio_seconds                    details["prompt_audio_seconds"]

Every other count is kept in `details`, and what is no count (`service_tier`)
beside the usage, as for any Chat Completions server.
"""

from __future__ import annotations

from interlingua_chat_completions._usage import CHAT_USAGE, UsageShape

__all__ = ["MISTRAL_USAGE"]

MISTRAL_USAGE = UsageShape(
    input=CHAT_USAGE.input,
    output=CHAT_USAGE.output,
    groups=CHAT_USAGE.groups,
    cache_read=CHAT_USAGE.cache_read,
    cache_write=CHAT_USAGE.cache_write,
    reasoning=CHAT_USAGE.reasoning,
    extra_counts=("num_cached_tokens", "prompt_audio_seconds"),
    cache_read_also=("num_cached_tokens",),
)
