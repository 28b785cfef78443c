"""OpenAI usage objects to `TokenUsage` and back: a `UsageShape` names the
fields of one (`CHAT_USAGE` here, the Responses API's in its package).

    wire                                        core
    prompt_tokens (cached ones included)        input_tokens
    completion_tokens                           output_tokens
    total_tokens                                total_tokens (their sum when absent)
    prompt_tokens_details.cached_tokens         cache_read_tokens
    prompt_tokens_details.cache_write_tokens    cache_write_tokens
    completion_tokens_details.reasoning_tokens  reasoning_tokens
    a dialect's extra counts (Groq's queue_time) details

Every other numeric leaf of the detail groups is kept in `TokenUsage.details`
under its dotted path (`prompt_tokens_details.audio_tokens`); the modelled
details are mirrored there too, so that a detail object that was sent (even
with zeros) is sent back: the core fields win when the two disagree.

An answer made elsewhere is written with every count the API's SDK requires
(`required`: Groq's `cached_tokens` beside any other prompt detail), zero
where its usage has none.

Invariant: for a usage object `u`, `(usage, extra) = shape.decode_kept(u, ...)`
gives `overlay(shape.encode(usage), extra) == u`: `extra` is what `TokenUsage`
cannot hold (a null group, a non-count detail, an unknown key such as a
router's `cost`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import TokenUsage, TranslationReport
from interlingua.codec import WireReader, leftover

__all__ = ["CHAT_PRICED_DETAILS", "CHAT_USAGE", "UsageShape"]


# The details every shape mirrors a modelled count in (its cache reads and
# writes, its reasoning): written by any shape as that count, never lost.
_MIRRORS: set[str] = set()


@dataclass(frozen=True, slots=True)
class UsageShape:
    """The names one OpenAI usage object uses."""

    input: str
    output: str
    groups: tuple[str, ...]
    cache_read: str
    cache_write: str
    reasoning: str
    extra_counts: tuple[str, ...] = ()
    # Other names of the cache reads (an older or a second form of the same count).
    cache_read_also: tuple[str, ...] = ()
    # The detail counts the API's SDK requires in their group (Groq's `cached_tokens`):
    # an answer made elsewhere is written with each in each group written, zero where
    # its usage has none, and with every group of them where `groups_required`.
    required: tuple[str, ...] = ()
    groups_required: bool = False
    # The reasoning counted apart from `output` (xAI's, Perplexity's): added to the
    # core's `output_tokens`, which holds it, on decoding, and taken off on encoding.
    reasoning_apart: bool = False

    def __post_init__(self) -> None:
        _MIRRORS.update((self.cache_read, self.cache_write, self.reasoning, *self.cache_read_also))

    def decode(self, usage: Mapping[str, Any], path: str, read: WireReader) -> TokenUsage:
        details: dict[str, int | float] = {}
        for group in self.groups:
            values = read.field(usage, group, path, dict, None) or {}
            details.update({f"{group}.{k}": v for k, v in values.items() if _is_count(v)})
        details.update({key: usage[key] for key in self.extra_counts if _is_count(usage.get(key))})
        input_tokens = read.field(usage, self.input, path, int, None) or 0
        output_tokens = read.field(usage, self.output, path, int, None) or 0
        total = read.field(usage, "total_tokens", path, int, None)
        reasoning = int(details.get(self.reasoning, 0))
        if self.reasoning_apart:
            output_tokens += reasoning
        return TokenUsage(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            total_tokens=input_tokens + output_tokens if total is None else total,
            cache_read_tokens=int(self._cache_reads(details)),
            cache_write_tokens=int(details.get(self.cache_write, 0)),
            reasoning_tokens=reasoning,
            details=details,
        )

    def _cache_reads(self, details: Mapping[str, int | float]) -> int | float:
        for key in (self.cache_read, *self.cache_read_also):
            if key in details:
                return details[key]
        return 0

    def decode_kept(
        self, usage: Mapping[str, Any], path: str, read: WireReader
    ) -> tuple[TokenUsage, dict[str, Any]]:
        """The usage, and what it cannot hold of `usage` (for `overlay` onto `encode`)."""
        decoded = self.decode(usage, path, read)
        if self.holds(usage):
            return decoded, {}
        return decoded, leftover(usage, self.encode(decoded))

    def holds(self, usage: Mapping[str, Any]) -> bool:
        """Whether `TokenUsage` holds all of `usage`: its counts, and detail groups
        of counts only (then `encode` gives it all back)."""
        for key, value in usage.items():
            if key in self.groups:
                if not (isinstance(value, dict) and value and all(map(_is_count, value.values()))):
                    return False
            elif key in self.extra_counts:
                if not _is_count(value):
                    return False
            elif key not in (self.input, self.output, "total_tokens"):
                return False
        return True

    def encode(
        self, usage: TokenUsage, report: TranslationReport | None = None, *, elsewhere: bool = False
    ) -> dict[str, Any]:
        """The usage object; each detail it has no place for (another provider's
        breakdown: Anthropic's cache lifetimes, Perplexity's cost), unless a
        zero, is reported to `report` as dropped. `elsewhere`: the usage of an
        answer made elsewhere, written with the counts the SDK requires."""
        details: dict[str, Any] = dict(usage.details)
        counts = [
            (self.cache_write, usage.cache_write_tokens),
            (self.reasoning, usage.reasoning_tokens),
        ]
        # The cache reads go under their first name, unless another name holds them.
        if not any(key in details for key in self.cache_read_also):
            counts.append((self.cache_read, usage.cache_read_tokens))
        for key, value in counts:
            if value or key in details:
                details[key] = value
        output = usage.output_tokens - (usage.reasoning_tokens if self.reasoning_apart else 0)
        out: dict[str, Any] = {
            self.input: usage.input_tokens,
            self.output: output,
            "total_tokens": usage.total_tokens,
        }
        for key, value in details.items():
            group, _, leaf = key.partition(".")
            if leaf and group in self.groups:
                out.setdefault(group, {})[leaf] = value
            elif not leaf and key in self.extra_counts:
                out[key] = value
            elif report is not None and value and key not in _MIRRORS:
                report.dropped(f"usage.details.{key}", "another provider's usage breakdown", "hint")
        if elsewhere:
            for key in self.required:
                group, _, leaf = key.partition(".")
                if self.groups_required or group in out:
                    out.setdefault(group, {}).setdefault(leaf, 0)
        return out


def _is_count(value: object) -> bool:
    # A JSON number: a bool is an int in Python, and never a count; nor are NaN and
    # infinity, which Python's `json` reads (and no count can be).
    return type(value) is int or (type(value) is float and math.isfinite(value))


CHAT_USAGE = UsageShape(
    input="prompt_tokens",
    output="completion_tokens",
    groups=("prompt_tokens_details", "completion_tokens_details"),
    cache_read="prompt_tokens_details.cached_tokens",
    cache_write="prompt_tokens_details.cache_write_tokens",
    reasoning="completion_tokens_details.reasoning_tokens",
)

# The details of a Chat Completions usage that genai-prices prices apart, to its
# usage keys (`interlingua.PriceSource.details`): the audio inside the prompt and
# the completion.
CHAT_PRICED_DETAILS: dict[str, tuple[str, ...]] = {
    "prompt_tokens_details.audio_tokens": ("input_audio_tokens",),
    "completion_tokens_details.audio_tokens": ("output_audio_tokens",),
}
