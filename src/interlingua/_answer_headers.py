"""What an error answer's headers say beside its body, read in one place for
every adapter's `decode_error(status, body, headers=...)`:

- the request id: `request-id` (Anthropic's), else `x-request-id` (OpenAI's, Groq's);
- the wait it asks for: `retry-after-ms` (OpenAI's), else `retry-after`, in
  seconds or as an HTTP date;
- the rate limits it reports (`x-ratelimit-*`, `anthropic-ratelimit-*`:
  `interlingua._rate_limits`).

Header names are case-insensitive (`Retry-After`, `retry-after`), whatever
mapping holds them. Nothing is read without headers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone

from interlingua._rate_limits import RateLimits, decode_rate_limits

__all__ = ["AnswerHeaders", "error_facts", "header_value", "read_answer_headers", "retry_after"]


@dataclass(frozen=True, slots=True)
class AnswerHeaders:
    """The facts of a typed error that an answer's headers carry."""

    request_id: str | None = None
    retry_after: float | None = None
    rate_limits: RateLimits | None = None


_NOTHING = AnswerHeaders()


def read_answer_headers(
    headers: Mapping[str, str] | None, *, now: datetime | None = None
) -> AnswerHeaders:
    """The request id, the wait and the rate limits `headers` give (none without headers)."""
    if not headers:
        return _NOTHING
    named = {name.lower(): value for name, value in headers.items()}
    return AnswerHeaders(
        request_id=named.get("request-id") or named.get("x-request-id") or None,
        retry_after=retry_after(named, now=now),
        rate_limits=decode_rate_limits(named, now=now),
    )


def error_facts(
    headers: Mapping[str, str] | None,
    request_id: str | None,
    retry_after: float | None,
    rate_limits: RateLimits | None,
) -> tuple[str | None, float | None, RateLimits | None]:
    """A typed error's request id, wait and rate limits: those its body gave
    (the arguments) with the answer's `headers` read: the body's request id
    first, the header's wait first (it is the HTTP answer's own; a body's, as
    Google's `RetryInfo`, comes after), the headers' rate limits where none
    were given."""
    told = read_answer_headers(headers)
    return (
        request_id or told.request_id,
        told.retry_after if told.retry_after is not None else retry_after,
        rate_limits if rate_limits is not None else told.rate_limits,
    )


def header_value(headers: Mapping[str, str] | None, *names: str) -> str | None:
    """The value of the first of `names` (lower case) that `headers` hold, the
    headers' names in any case; None where they hold none, or only empty ones."""
    if not headers:
        return None
    named = {name.lower(): value for name, value in headers.items()}
    return next((named[name] for name in names if named.get(name)), None)


def retry_after(headers: Mapping[str, str], *, now: datetime | None = None) -> float | None:
    """The seconds an answer asks to wait before the next request: its
    `retry-after-ms` (OpenAI's), else its `retry-after`, a number of seconds or
    an HTTP date; None without one, or with one that is neither. The names are
    looked up in lower case."""
    milliseconds = _number(headers.get("retry-after-ms"))
    if milliseconds is not None:
        return milliseconds / 1000
    value = headers.get("retry-after")
    if value is None:
        return None
    seconds = _number(value)
    if seconds is not None:
        return seconds
    from email.utils import parsedate_to_datetime  # only for a date: its import costs

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - (now or datetime.now(timezone.utc))).total_seconds())


def _number(value: str | None) -> float | None:
    try:
        number = float(value) if value is not None else None
    except ValueError:
        return None
    return number if number is not None and number >= 0 and number != float("inf") else None
