"""Groq's usage object: Chat Completions' names, with its timings.

    wire                                       TokenUsage
    prompt_tokens, completion_tokens, total    input, output, total
    prompt_tokens_details.cached_tokens        cache_read_tokens
    completion_tokens_details.reasoning_tokens reasoning_tokens
    queue_time, prompt_time,                   details["queue_time"], ... (seconds)
    completion_time, total_time

In a stream the usage comes in the last chunk's `x_groq.usage`
(`_dialect.GroqDialect.stream_usage`), with no option asked. A detail group
of another provider's answer (Anthropic's cache writes) is written with the
count Groq's SDK requires in it (`cached_tokens`, `reasoning_tokens`), zero
where the answer has none.
"""

from __future__ import annotations

from dataclasses import replace

from interlingua_chat_completions._usage import CHAT_USAGE

__all__ = ["GROQ_USAGE"]

GROQ_USAGE = replace(
    CHAT_USAGE,
    extra_counts=("queue_time", "prompt_time", "completion_time", "total_time"),
    # The groq SDK's `PromptTokensDetails` and `CompletionTokensDetails` require these.
    required=("prompt_tokens_details.cached_tokens", "completion_tokens_details.reasoning_tokens"),
)
