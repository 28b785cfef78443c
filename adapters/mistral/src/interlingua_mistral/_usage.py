"""Mistral's usage object: Chat Completions' names, with its own extras.

    wire                                    TokenUsage
    prompt_tokens                           input_tokens (cache reads included)
    completion_tokens                       output_tokens
    total_tokens                            total_tokens
    prompt_tokens_details.cached_tokens     cache_read_tokens
    num_cached_tokens (an older form)       cache_read_tokens
    prompt_audio_seconds                    details["prompt_audio_seconds"]
    prompt_tokens_details.audio_tokens      details["prompt_tokens_details.audio_tokens"]

`TokenUsage` has no audio count: an answer about audio keeps its seconds and
its audio tokens in `details`, as OpenAI's audio tokens are kept.

Every other count is kept in `details`, and what is no count (`service_tier`)
beside the usage, as for any Chat Completions server.
"""

from __future__ import annotations

from dataclasses import replace

from interlingua_chat_completions._usage import CHAT_USAGE

__all__ = ["MISTRAL_USAGE"]

MISTRAL_USAGE = replace(
    CHAT_USAGE,
    extra_counts=("num_cached_tokens", "prompt_audio_seconds"),
    cache_read_also=("num_cached_tokens",),
)
