"""The rate limits an answer reports, read from either family's headers into
`RateLimits` and written in either's names: the counts as they came, a reset
moved between a duration (OpenAI's, Groq's) and a time (Anthropic's)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from conftest import recorded
from interlingua import RateLimit, RateLimits
from interlingua._rate_limits import decode_rate_limits, encode_rate_limits

NOW = datetime(2026, 3, 2, 10, 14, 7, tzinfo=timezone.utc)


def wire_headers(name: str) -> dict[str, str]:
    (interaction,) = recorded(name)
    return {key: values[0] for key, values in interaction.response.headers.items()}


def test_groq_s_limits_are_read_with_each_reset_from_now() -> None:
    wire = wire_headers("groq/error_rate_limited.json")
    assert decode_rate_limits(wire, now=NOW) == RateLimits(
        requests=RateLimit(1000, 987, NOW + timedelta(minutes=18, seconds=43.2)),
        tokens=RateLimit(12000, 139, NOW + timedelta(seconds=5.345)),
    )


def test_anthropic_s_limits_are_read_with_each_reset_as_it_came() -> None:
    wire = wire_headers("anthropic/error_rate_limited.json")
    limits = decode_rate_limits(wire, now=NOW)
    assert limits is not None
    assert limits.input_tokens == RateLimit(
        int(wire["anthropic-ratelimit-input-tokens-limit"]),
        int(wire["anthropic-ratelimit-input-tokens-remaining"]),
        datetime(2026, 3, 2, 10, 14, 19, tzinfo=timezone.utc),
    )
    assert encode_rate_limits(limits, "anthropic", now=NOW) == {
        name: value for name, value in wire.items() if name.startswith("anthropic-ratelimit-")
    }


def test_a_time_becomes_a_duration_and_back() -> None:
    limits = RateLimits(tokens=RateLimit(60000, 10000, NOW + timedelta(seconds=372.5)))
    openai_names = encode_rate_limits(limits, "openai", now=NOW)
    assert openai_names == {
        "x-ratelimit-limit-tokens": "60000",
        "x-ratelimit-remaining-tokens": "10000",
        "x-ratelimit-reset-tokens": "6m12.5s",
    }
    back = decode_rate_limits(openai_names, now=NOW)
    assert back == limits
    # Anthropic's times are whole seconds: rounded up, not to come back early.
    assert encode_rate_limits(back, "anthropic", now=NOW) == {
        "anthropic-ratelimit-tokens-limit": "60000",
        "anthropic-ratelimit-tokens-remaining": "10000",
        "anthropic-ratelimit-tokens-reset": "2026-03-02T10:20:20Z",
    }


def test_input_and_output_limits_have_no_openai_name() -> None:
    limits = RateLimits(input_tokens=RateLimit(50000, 0), output_tokens=RateLimit(10000, 10000))
    assert encode_rate_limits(limits, "openai", now=NOW) == {}


@pytest.mark.parametrize(
    ("duration", "seconds"),
    [("6m0s", 360.0), ("1s", 1.0), ("20ms", 0.02), ("0s", 0.0), ("1h2m3.5s", 3723.5)],
)
def test_go_durations_are_read_and_written_as_openai_writes_them(
    duration: str, seconds: float
) -> None:
    limits = decode_rate_limits({"x-ratelimit-reset-requests": duration}, now=NOW)
    assert limits == RateLimits(requests=RateLimit(reset_at=NOW + timedelta(seconds=seconds)))
    assert encode_rate_limits(limits, "openai", now=NOW) == {"x-ratelimit-reset-requests": duration}


@pytest.mark.parametrize(
    "headers",
    [
        {"x-ratelimit-limit-tokens": "-1", "x-ratelimit-remaining-tokens": "-1"},  # not known
        {"x-ratelimit-reset-tokens": "soon"},
        {"anthropic-ratelimit-requests-reset": "tomorrow"},
        {"anthropic-ratelimit-requests-reset": "2026-03-02T10:14:07"},  # no zone: no time
        {"x-ratelimit-limit-req-minute": "60"},  # Mistral's own names
        {},
    ],
)
def test_what_says_no_count_or_time_is_left_out(headers: dict[str, str]) -> None:
    assert decode_rate_limits(headers, now=NOW) is None
