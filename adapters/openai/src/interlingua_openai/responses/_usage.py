"""Responses API usage objects to `TokenUsage` and back, with the Chat
Completions `UsageShape` (see `interlingua_chat_completions._usage`) under other names.

    wire                                        core
    input_tokens (cached ones included)         input_tokens
    output_tokens                               output_tokens
    total_tokens                                total_tokens (their sum when absent)
    input_tokens_details.cached_tokens          cache_read_tokens
    input_tokens_details.cache_write_tokens     cache_write_tokens
    output_tokens_details.reasoning_tokens      reasoning_tokens

Every other count of the detail groups is kept in `TokenUsage.details`; what
`TokenUsage` cannot hold comes back from `decode_kept` to keep beside it. The
usage of an answer made elsewhere has both groups and the three counts above
in them, zero where the answer has none, as the API writes every usage.
"""

from __future__ import annotations

from interlingua_chat_completions._usage import UsageShape

__all__ = ["RESPONSES_USAGE"]

RESPONSES_USAGE = UsageShape(
    input="input_tokens",
    output="output_tokens",
    groups=("input_tokens_details", "output_tokens_details"),
    cache_read="input_tokens_details.cached_tokens",
    cache_write="input_tokens_details.cache_write_tokens",
    reasoning="output_tokens_details.reasoning_tokens",
    # The SDK's `ResponseUsage` requires both groups and these counts in them.
    required=(
        "input_tokens_details.cached_tokens",
        "input_tokens_details.cache_write_tokens",
        "output_tokens_details.reasoning_tokens",
    ),
    groups_required=True,
)
