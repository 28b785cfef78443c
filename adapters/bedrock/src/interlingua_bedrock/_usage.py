"""Usage: Converse's `usage` object <-> `TokenUsage`.

    usage                                     TokenUsage
    inputTokens (uncached)                    input_tokens = the three input counts added
      + cacheWriteInputTokens                 cache_write_tokens
      + cacheReadInputTokens                  cache_read_tokens
    outputTokens                              output_tokens
    totalTokens                               total_tokens
    cacheDetails [{inputTokens, ttl}]         details, `cacheDetails.<ttl>`
    every other number (`serverToolUsage`'s)  details, under its dotted path

As Anthropic's `input_tokens`, Converse's `inputTokens` leaves out the tokens
read from and written to the cache, and `totalTokens` adds all four counts
(recorded: `inputTokens` 2, `cacheWriteInputTokens` 1322, `outputTokens` 5,
`totalTokens` 1329), so one Claude answer has the same counts through either
API. Newer answers give each cache count twice, as `cache*InputTokens` and
the older `cache*InputTokenCount`; the newer spelling is read where both are.

A count that is absent reads as 0; which counts the usage object had is its
form (`usage_forms`), so that it is written back with the same ones. What is
no number (the `cacheDetails` list, an empty `serverToolUsage`) is the
response's to keep, as its fields (`usage_fields`), laid over the usage
written.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypedDict

from interlingua import TokenUsage, TranslationReport
from interlingua.codec import WireReader, usage_numbers
from interlingua_bedrock._wire import PROVIDER

__all__ = [
    "CACHE_COUNTS",
    "COUNTS",
    "PRICED_DETAILS",
    "Usage",
    "decode_usage",
    "encode_usage",
    "usage_fields",
    "usage_forms",
]


class Usage(TypedDict, total=False):
    """Converse's `TokenUsage`."""

    inputTokens: int
    outputTokens: int
    totalTokens: int
    cacheReadInputTokens: int
    cacheWriteInputTokens: int
    cacheReadInputTokenCount: int
    cacheWriteInputTokenCount: int
    cacheDetails: list[dict[str, Any]]
    serverToolUsage: dict[str, Any]


# Each cache count's names, the newer first.
CACHE_COUNTS: dict[str, tuple[str, str]] = {
    "read": ("cacheReadInputTokens", "cacheReadInputTokenCount"),
    "write": ("cacheWriteInputTokens", "cacheWriteInputTokenCount"),
}
COUNTS = (
    "inputTokens",
    "outputTokens",
    "totalTokens",
    *(name for names in CACHE_COUNTS.values() for name in names),
)
CACHE_DETAILS = "cacheDetails"
# The details genai-prices prices apart (`interlingua.PriceSource.details`): the
# cache writes by lifetime, inside `cache_write_tokens`.
PRICED_DETAILS: dict[str, tuple[str, ...]] = {
    f"{CACHE_DETAILS}.5m": ("cache_write_5m_tokens",),
    f"{CACHE_DETAILS}.1h": ("cache_write_1h_tokens",),
}
# Counts written for a usage made elsewhere, whatever they are.
_ALWAYS = ("inputTokens", "outputTokens", "totalTokens")

_reader = WireReader(PROVIDER)


def decode_usage(raw: Any, path: str = "usage") -> TokenUsage:
    """The core usage of a Converse `usage` object (absent: nothing used)."""
    if raw is None:
        return TokenUsage()
    usage = _reader.object(raw, path)
    counts = {key: _reader.field(usage, key, path, int, None) for key in COUNTS}
    read, written = (_cache_count(counts, names) for names in CACHE_COUNTS.values())
    details = dict(usage_numbers(usage, skip=frozenset((*COUNTS, CACHE_DETAILS))))
    details.update(_cache_details(usage.get(CACHE_DETAILS)))
    total = counts["totalTokens"]
    return TokenUsage(
        input_tokens=(counts["inputTokens"] or 0) + read + written,
        output_tokens=counts["outputTokens"] or 0,
        cache_read_tokens=read,
        cache_write_tokens=written,
        details=details,
        **({} if total is None else {"total_tokens": total}),
    )


def _cache_count(counts: Mapping[str, int | None], names: tuple[str, str]) -> int:
    newer, older = (counts[name] for name in names)
    # Quirk: newer Converse answers give each cache count twice, `cacheReadInputTokens`
    # and the older `cacheReadInputTokenCount`, alike (recorded); the newer is read.
    return newer if newer is not None else older or 0


def _cache_details(value: Any) -> Iterator[tuple[str, int]]:
    """`cacheDetails: [{"inputTokens": 1712, "ttl": "5m"}]` -> `("cacheDetails.5m", 1712)`."""
    for item in value if isinstance(value, list) else ():
        if not isinstance(item, dict):
            continue
        ttl, count = item.get("ttl"), item.get("inputTokens")
        if isinstance(ttl, str) and isinstance(count, int) and not isinstance(count, bool):
            yield f"{CACHE_DETAILS}.{ttl}", count


def usage_forms(usage: Mapping[str, Any]) -> list[str]:
    """The counts a usage object had, in `COUNTS` order: it is written back with these."""
    return [key for key in COUNTS if usage.get(key) is not None]


def usage_fields(usage: Mapping[str, Any]) -> dict[str, Any]:
    """What of a usage object is no number, verbatim: an object without a number
    in it is kept whole, as encoding writes none of it."""
    unmodeled: dict[str, Any] = {}
    for key, value in usage.items():
        if key == CACHE_DETAILS or (isinstance(value, dict) and not value):
            unmodeled[key] = value
        elif isinstance(value, dict):
            if inner := usage_fields(value):
                unmodeled[key] = inner
        elif key not in COUNTS and not _is_number(value):
            unmodeled[key] = value
    return unmodeled


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def encode_usage(
    usage: TokenUsage,
    *,
    own: bool,
    report: TranslationReport,
    counts: list[str] | None = None,
) -> dict[str, Any]:
    """Converse's `usage` object (`Usage`). `counts` names the counts Bedrock's
    own object had (`usage_forms`), each written with its value; without it,
    the three counts and each cache count that is not 0. `details` are
    Bedrock's own only when `own`; another provider's are left out."""
    values = {
        "inputTokens": usage.uncached_input_tokens,
        "outputTokens": usage.output_tokens,
        "totalTokens": usage.total_tokens,
    }
    for kind, names in CACHE_COUNTS.items():
        cached = usage.cache_read_tokens if kind == "read" else usage.cache_write_tokens
        values.update(dict.fromkeys(names, cached))
    if counts is not None:
        written = {key: values[key] for key in counts if key in values}
    else:
        written = {key: n for key, n in values.items() if key in _ALWAYS or n}
        written = {key: n for key, n in written.items() if not key.endswith("Count")}
    if usage.details and not own:
        report.dropped("usage.details", "another provider's usage breakdown", "hint")
    if usage.reasoning_tokens and not own:
        report.dropped("usage.reasoning_tokens", "Converse counts no reasoning apart", "hint")
    details = usage.details if own else {}
    return {**written, **_nested(details)}


def _nested(flat: Mapping[str, int | float]) -> dict[str, Any]:
    """`{"a.b": 1}` -> `{"a": {"b": 1}}`; the `cacheDetails` numbers are the
    list's, which the response keeps whole."""
    nested: dict[str, Any] = {}
    for dotted, value in flat.items():
        *parents, last = dotted.split(".")
        if parents[:1] == [CACHE_DETAILS]:
            continue
        target = nested
        for key in parents:
            target = target.setdefault(key, {})
        target[last] = value
    return nested
