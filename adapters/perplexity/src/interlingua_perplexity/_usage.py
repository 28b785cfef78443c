"""Perplexity's usage object: Chat Completions' names, with its search
counts and its cost.

    wire                                        TokenUsage
    prompt_tokens, completion_tokens, total     input, output, total
    completion_tokens + reasoning_tokens        output_tokens
    reasoning_tokens (top level)                reasoning_tokens
    citation_tokens, num_search_queries         details["citation_tokens"], ...
    cost.input_tokens_cost, .output_tokens_cost,
    .request_cost, .total_cost (US dollars)     details["cost.<name>"]

`search_context_size` (`low`, `medium`, `high`: how much of the web was
read) is no count and is kept verbatim beside the usage.

Quirk: Perplexity counts the reasoning apart from the completion
(`total_tokens` is the prompt's and the completion's; "Reasoning tokens are
priced at $3/1M tokens", docs.perplexity.ai/guides/pricing), where the core's
`output_tokens` holds it: the reasoning is added on decoding and taken off
again on encoding.
"""

from __future__ import annotations

from dataclasses import replace

from interlingua_chat_completions._usage import CHAT_USAGE

__all__ = ["PERPLEXITY_USAGE", "PRICED_DETAILS"]

PERPLEXITY_USAGE = replace(
    CHAT_USAGE,
    groups=(*CHAT_USAGE.groups, "cost"),
    reasoning="reasoning_tokens",
    reasoning_apart=True,
    extra_counts=("reasoning_tokens", "citation_tokens", "num_search_queries"),
)

# The details genai-prices prices apart (`interlingua.PriceSource.details`): the
# citations read and the searches run.
PRICED_DETAILS: dict[str, tuple[str, ...]] = {
    # Quirk: Perplexity counts the citations apart from the completion, as its
    # reasoning (which `output_tokens` holds): output to price, beside the completion's.
    "citation_tokens": ("output_tokens", "output_citation_tokens"),
    "num_search_queries": ("web_searches",),
}
