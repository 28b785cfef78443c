"""OpenRouter's usage object: Chat Completions' names, with its costs.

    wire                                          TokenUsage
    prompt_tokens, completion_tokens, total       input, output, total
    prompt_tokens_details.cached_tokens           cache_read_tokens
    prompt_tokens_details.cache_write_tokens      cache_write_tokens
    completion_tokens_details.reasoning_tokens    reasoning_tokens
    cost (credits)                                details["cost"]
    cost_details.upstream_inference_*_cost        details["cost_details.<name>"]
    server_tool_use_details.web_search_requests   details["server_tool_use_details.<name>"]

What is no count (`is_byok`, a null `upstream_inference_cost`) is kept
verbatim beside the usage, so that the body goes back as it came. A stream
gives the usage in its last chunk, unasked (`usage: {include: true}` and
`stream_options` are of no effect there any more).
"""

from __future__ import annotations

from dataclasses import replace

from interlingua_chat_completions._usage import CHAT_USAGE

__all__ = ["OPENROUTER_USAGE"]

OPENROUTER_USAGE = replace(
    CHAT_USAGE,
    groups=(*CHAT_USAGE.groups, "cost_details", "server_tool_use_details"),
    extra_counts=("cost",),
)
