"""Usage: Anthropic's usage object <-> `TokenUsage`.

    usage                                     TokenUsage
    input_tokens (uncached)                   input_tokens = the three input counts added
      + cache_creation_input_tokens           cache_write_tokens
      + cache_read_input_tokens               cache_read_tokens
    output_tokens                             output_tokens
    output_tokens_details.thinking_tokens     reasoning_tokens (and in details)
    every other number (the `cache_creation`  details, under its dotted path
      breakdown, `server_tool_use` counts)

A count that is absent or null reads as 0. What is not a number (the usage's
`service_tier`) is the response's to keep, as a field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import TokenUsage, TranslationReport
from interlingua.codec import WireReader, overlay, usage_numbers
from interlingua_anthropic._wire import PROVIDER, Usage, WireDict

__all__ = [
    "CACHE_LIFETIMES",
    "COUNTS",
    "PRICED_DETAILS",
    "THINKING_TOKENS",
    "decode_usage",
    "encode_usage",
]

COUNTS = (
    "input_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "output_tokens",
)
THINKING_TOKENS = "output_tokens_details.thinking_tokens"

# The details genai-prices prices apart (`interlingua.PriceSource.details`): the
# cache writes by lifetime (an hour's cost more than five minutes'), inside
# `cache_write_tokens`; on Anthropic's own API, the web searches too.
CACHE_LIFETIMES: dict[str, tuple[str, ...]] = {
    "cache_creation.ephemeral_5m_input_tokens": ("cache_write_5m_tokens",),
    "cache_creation.ephemeral_1h_input_tokens": ("cache_write_1h_tokens",),
}
PRICED_DETAILS: dict[str, tuple[str, ...]] = {
    **CACHE_LIFETIMES,
    "server_tool_use.web_search_requests": ("web_searches",),
}

_reader = WireReader(PROVIDER)


def decode_usage(raw: Any, path: str) -> TokenUsage:
    """The core usage of an Anthropic usage object (absent: nothing used)."""
    if raw is None:
        return TokenUsage()
    usage = _reader.object(raw, path)
    counts = {key: _reader.field(usage, key, path, int, 0) or 0 for key in COUNTS}
    details = dict(usage_numbers(usage, skip=frozenset(COUNTS)))
    written, read = counts["cache_creation_input_tokens"], counts["cache_read_input_tokens"]
    thinking = details.get(THINKING_TOKENS)
    return TokenUsage(
        input_tokens=counts["input_tokens"] + written + read,
        output_tokens=counts["output_tokens"],
        cache_read_tokens=read,
        cache_write_tokens=written,
        reasoning_tokens=thinking if isinstance(thinking, int) else 0,
        details=details,
    )


def encode_usage(usage: TokenUsage, *, own: bool, report: TranslationReport) -> WireDict:
    """Anthropic's usage object. `details` are Anthropic's own only when `own`;
    another provider's are left out."""
    counts = Usage(
        input_tokens=usage.uncached_input_tokens,
        cache_creation_input_tokens=usage.cache_write_tokens,
        cache_read_input_tokens=usage.cache_read_tokens,
        output_tokens=usage.output_tokens,
    )
    details = dict(usage.details) if own else {}
    if usage.details and not own:
        report.dropped("usage.details", "another provider's usage breakdown", "hint")
    if usage.reasoning_tokens and THINKING_TOKENS not in details:
        details[THINKING_TOKENS] = usage.reasoning_tokens
    return overlay(counts, _nested(details))


def _nested(flat: Mapping[str, int | float]) -> WireDict:
    """`{"a.b": 1}` -> `{"a": {"b": 1}}`."""
    nested: WireDict = {}
    for dotted, value in flat.items():
        *parents, last = dotted.split(".")
        target = nested
        for key in parents:
            target = target.setdefault(key, {})
        target[last] = value
    return nested
