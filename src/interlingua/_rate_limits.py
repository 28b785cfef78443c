"""The rate limits an answer reported in its headers, in neutral form, and the
same facts in the header names of each family of APIs.

Two families name them (each provider's rate-limits page):

    OpenAI, Groq, ...   x-ratelimit-limit-requests        x-ratelimit-limit-tokens
                        x-ratelimit-remaining-requests    x-ratelimit-remaining-tokens
                        x-ratelimit-reset-requests        x-ratelimit-reset-tokens
                        (the time until the limit resets, a duration: `6m0s`, `1s`, `20ms`)
    Anthropic           anthropic-ratelimit-requests-limit, -remaining, -reset
                        anthropic-ratelimit-tokens-*, -input-tokens-*, -output-tokens-*
                        (the time the limit resets, in RFC 3339: `2026-03-02T10:14:07Z`)

`RateLimits` holds each limit an answer named, whichever family named it: how
many its window allows, how many are left, and when it is whole again (an
aware UTC time; a duration is read as from the moment it is read). Written in
a family's names (`encode_rate_limits`), what that family has no name for
(Anthropic's separate input and output token limits, to OpenAI's) is left
out; what a header holds that is no count or time (`-1`, where a limit is not
known) is left out when read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Literal

__all__ = [
    "RateLimit",
    "RateLimitFamily",
    "RateLimits",
    "decode_rate_limits",
    "encode_rate_limits",
]

RateLimitFamily = Literal["openai", "anthropic"]
Bucket = Literal["requests", "tokens", "input_tokens", "output_tokens"]


@dataclass(frozen=True, slots=True)
class RateLimit:
    """One limit: what its window allows, what is left of it, when it is whole again."""

    limit: int | None = None
    remaining: int | None = None
    reset_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The limits an answer reported: on requests, on tokens (input and output
    together), and on input and output tokens apart (Anthropic's)."""

    requests: RateLimit | None = None
    tokens: RateLimit | None = None
    input_tokens: RateLimit | None = None
    output_tokens: RateLimit | None = None


def _openai(name: str) -> tuple[str, str, str]:
    return f"x-ratelimit-limit-{name}", f"x-ratelimit-remaining-{name}", f"x-ratelimit-reset-{name}"


def _anthropic(name: str) -> tuple[str, str, str]:
    prefix = f"anthropic-ratelimit-{name}"
    return f"{prefix}-limit", f"{prefix}-remaining", f"{prefix}-reset"


# Each family's headers for each limit it names: its limit, remaining, reset.
_NAMES: dict[RateLimitFamily, dict[Bucket, tuple[str, str, str]]] = {
    "openai": {"requests": _openai("requests"), "tokens": _openai("tokens")},
    "anthropic": {
        "requests": _anthropic("requests"),
        "tokens": _anthropic("tokens"),
        "input_tokens": _anthropic("input-tokens"),
        "output_tokens": _anthropic("output-tokens"),
    },
}

# A Go duration, as OpenAI and Groq write one: `1h2m3.5s`, `6m0s`, `20ms`.
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)")
_UNIT_SECONDS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}


def decode_rate_limits(
    headers: Mapping[str, str], *, now: datetime | None = None
) -> RateLimits | None:
    """The rate limits an answer's headers report, in either family's names;
    None where they report none."""
    now = now or datetime.now(timezone.utc)
    found: dict[Bucket, RateLimit] = {}
    for family, names in _NAMES.items():
        for bucket, (limit, remaining, reset) in names.items():
            read = RateLimit(
                _count(headers.get(limit)),
                _count(headers.get(remaining)),
                _reset_at(family, headers.get(reset), now),
            )
            if bucket not in found and read != RateLimit():
                found[bucket] = read
    return RateLimits(**found) if found else None


def encode_rate_limits(
    limits: RateLimits | None, family: RateLimitFamily, *, now: datetime | None = None
) -> dict[str, str]:
    """The headers that say `limits` in `family`'s names."""
    if limits is None:
        return {}
    now = now or datetime.now(timezone.utc)
    headers: dict[str, str] = {}
    for bucket, (limit, remaining, reset) in _NAMES[family].items():
        given: RateLimit | None = getattr(limits, bucket)
        if given is None:
            continue
        if given.limit is not None:
            headers[limit] = str(given.limit)
        if given.remaining is not None:
            headers[remaining] = str(given.remaining)
        if given.reset_at is not None:
            headers[reset] = _reset_text(family, given.reset_at, now)
    return headers


def _count(value: str | None) -> int | None:
    text = (value or "").strip()
    return int(text) if text.isascii() and text.isdigit() else None


def _reset_at(family: RateLimitFamily, value: str | None, now: datetime) -> datetime | None:
    if value is None:
        return None
    if family == "openai":
        seconds = _duration_seconds(value.strip())
        return None if seconds is None else now + timedelta(seconds=seconds)
    text = value.strip()
    try:  # Python 3.10's `fromisoformat` does not read a `Z`
        when = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        return None
    return when.astimezone(timezone.utc) if when.tzinfo is not None else None


def _duration_seconds(text: str) -> float | None:
    parts = _DURATION.findall(text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        return None
    return sum(float(number) * _UNIT_SECONDS[unit] for number, unit in parts)


def _reset_text(family: RateLimitFamily, when: datetime, now: datetime) -> str:
    if family == "openai":
        return _duration_text(max(0.0, (when - now).total_seconds()))
    # Whole seconds, as Anthropic writes them; rounded up, so that no client comes back early.
    whole = when.astimezone(timezone.utc)
    if whole.microsecond:
        whole = whole.replace(microsecond=0) + timedelta(seconds=1)
    return whole.strftime("%Y-%m-%dT%H:%M:%SZ")


def _duration_text(seconds: float) -> str:
    """A duration as Go writes one (`6m0s`, `1.5s`, `20ms`), to the millisecond, rounded up."""
    millis = math.ceil(round(seconds * 1000, 6))
    if millis < 1000:
        return f"{millis}ms" if millis else "0s"
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    text = f"{rest / 1000:.3f}".rstrip("0").rstrip(".") + "s"
    if hours or minutes:
        text = f"{minutes}m{text}"
    return f"{hours}h{text}" if hours else text
