"""Usage: a response's `usageMetadata` <-> `TokenUsage`.

    usageMetadata                       TokenUsage
    promptTokenCount                    input_tokens = the two prompt counts added
      + toolUsePromptTokenCount         (and in details)
    cachedContentTokenCount             cache_read_tokens (part of promptTokenCount)
    candidatesTokenCount                output_tokens = the two output counts added
      + thoughtsTokenCount              reasoning_tokens
    totalTokenCount                     total_tokens
    the per-modality lists              details, `<list>.<modality>` (the lists
      (promptTokensDetails, ...)        themselves are the response's fields)

Google's own words: `promptTokenCount` "when cachedContent is set, ... still
the total effective prompt size meaning this includes the number of tokens
in the cached content"; `thoughtsTokenCount` is counted apart from
`candidatesTokenCount`, and `totalTokenCount` adds them all. A count that is
absent reads as 0, and its absence is a form of the response (`ResponseForms`).
What is no count (`serviceTier`, `trafficType`, the modality lists) is the
response's to keep, as a field.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from interlingua import TokenUsage, TranslationReport
from interlingua.codec import WireReader
from interlingua_google._wire import PROVIDER, WireDict

__all__ = ["COUNTS", "PRICED_DETAILS", "USAGE", "decode_usage", "encode_usage", "usage_fields"]

USAGE = "usageMetadata"
COUNTS = (
    "promptTokenCount",
    "cachedContentTokenCount",
    "candidatesTokenCount",
    "toolUsePromptTokenCount",
    "thoughtsTokenCount",
    "totalTokenCount",
)
_TOOL_USE = "toolUsePromptTokenCount"
# Counts written for a usage made elsewhere even when they are 0.
_ALWAYS = ("promptTokenCount", "candidatesTokenCount", "totalTokenCount")

# The modalities of the per-modality lists, as genai-prices names them (it
# prices a document's tokens as an image's).
_MODALITIES = {
    "TEXT": "text",
    "AUDIO": "audio",
    "IMAGE": "image",
    "DOCUMENT": "image",
    "VIDEO": "video",
}
# The details genai-prices prices apart (`interlingua.PriceSource.details`): each
# modality's share of the prompt, the cache reads and the answer, and the tool-use
# prompt (inside `input_tokens`), each share of it being the modality's input too.
PRICED_DETAILS: dict[str, tuple[str, ...]] = {
    _TOOL_USE: ("input_tool_tokens",),
    **{f"promptTokensDetails.{m}": (f"input_{k}_tokens",) for m, k in _MODALITIES.items()},
    **{f"cacheTokensDetails.{m}": (f"cache_{k}_read_tokens",) for m, k in _MODALITIES.items()},
    **{f"candidatesTokensDetails.{m}": (f"output_{k}_tokens",) for m, k in _MODALITIES.items()},
    **{
        f"toolUsePromptTokensDetails.{m}": (f"input_{k}_tokens", f"input_{k}_tool_tokens")
        for m, k in _MODALITIES.items()
    },
}

_reader = WireReader(PROVIDER)


def decode_usage(raw: Any, path: str) -> TokenUsage:
    """The core usage of a `usageMetadata` object (absent: nothing used)."""
    if raw is None:
        return TokenUsage()
    usage = _reader.object(raw, path)
    counts = {key: _reader.field(usage, key, path, int, 0) or 0 for key in COUNTS}
    details: dict[str, int | float] = dict(_modalities(usage))
    if _TOOL_USE in usage:
        details[_TOOL_USE] = counts[_TOOL_USE]
    thoughts = counts["thoughtsTokenCount"]
    return TokenUsage(
        input_tokens=counts["promptTokenCount"] + counts[_TOOL_USE],
        output_tokens=counts["candidatesTokenCount"] + thoughts,
        total_tokens=counts["totalTokenCount"],
        cache_read_tokens=counts["cachedContentTokenCount"],
        reasoning_tokens=thoughts,
        details=details,
    )


def _modalities(usage: Mapping[str, Any]) -> Iterator[tuple[str, int]]:
    """`promptTokensDetails: [{"modality": "TEXT", "tokenCount": 12}]` ->
    `("promptTokensDetails.TEXT", 12)`."""
    for key, value in usage.items():
        if not isinstance(value, list):
            continue
        for item in value:
            if not isinstance(item, dict):
                continue
            modality, count = item.get("modality"), item.get("tokenCount")
            if isinstance(modality, str) and isinstance(count, int) and not isinstance(count, bool):
                yield f"{key}.{modality}", count


def usage_fields(usage: Mapping[str, Any]) -> WireDict:
    """What of a usage object is no count: kept as the response's fields."""
    return {key: value for key, value in usage.items() if key not in COUNTS}


def encode_usage(
    usage: TokenUsage, *, own: bool, absent: frozenset[str], report: TranslationReport
) -> WireDict:
    """The `usageMetadata` object; `absent` names the counts Google's own
    response left out (each written only if it is no longer 0)."""
    tool_use = usage.details.get(_TOOL_USE, 0) if own else 0
    if usage.details and not own:
        report.dropped("usage.details", "another provider's usage breakdown", "hint")
    counts = {
        "promptTokenCount": usage.input_tokens - int(tool_use),
        "cachedContentTokenCount": usage.cache_read_tokens,
        "candidatesTokenCount": usage.output_tokens - usage.reasoning_tokens,
        _TOOL_USE: int(tool_use),
        "thoughtsTokenCount": usage.reasoning_tokens,
        "totalTokenCount": usage.total_tokens,
    }
    if usage.cache_write_tokens:
        report.dropped("usage.cache_write_tokens", "Gemini counts no cache writes", "hint")
    if own:
        return {key: n for key, n in counts.items() if n or key not in absent}
    return {key: n for key, n in counts.items() if n or key in _ALWAYS}
