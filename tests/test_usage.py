"""Token usage adds up across turns."""

from __future__ import annotations

import pytest

from interlingua import TokenUsage


def test_total_defaults_to_input_plus_output() -> None:
    assert TokenUsage(input_tokens=10, output_tokens=5).total_tokens == 15
    assert TokenUsage(input_tokens=10, output_tokens=5, total_tokens=99).total_tokens == 99


def test_usages_add_field_by_field_with_their_details() -> None:
    a = TokenUsage(
        input_tokens=100,
        output_tokens=20,
        cache_read_tokens=80,
        cache_write_tokens=10,
        reasoning_tokens=5,
        details={"audio_tokens": 3, "queue_time": 0.25},
    )
    b = TokenUsage(input_tokens=50, output_tokens=10, details={"audio_tokens": 1, "web_search": 2})
    assert a + b == TokenUsage(
        input_tokens=150,
        output_tokens=30,
        total_tokens=180,
        cache_read_tokens=80,
        cache_write_tokens=10,
        reasoning_tokens=5,
        details={"audio_tokens": 4, "queue_time": 0.25, "web_search": 2},
    )


def test_sum_of_three_responses() -> None:
    usages = [TokenUsage(input_tokens=n, output_tokens=2 * n) for n in (1, 2, 3)]
    assert sum(usages) == TokenUsage(input_tokens=6, output_tokens=12, total_tokens=18)


def test_sum_starts_from_zero_and_adding_a_number_is_refused() -> None:
    one = TokenUsage(input_tokens=1)
    assert sum([one]) == one
    assert 0 + one == one
    with pytest.raises(TypeError):
        TokenUsage() + 1  # type: ignore[operator]


def test_uncached_input_is_what_no_cache_touched() -> None:
    usage = TokenUsage(input_tokens=100, cache_read_tokens=60, cache_write_tokens=30)
    assert usage.uncached_input_tokens == 10


def test_the_total_is_counted_after_the_counts_are_read() -> None:
    usage = TokenUsage.model_validate({"input_tokens": "10", "output_tokens": "2"})
    assert usage.total_tokens == 12
    assert TokenUsage.model_validate_json('{"input_tokens": 3}').total_tokens == 3


def test_a_count_that_is_not_a_number_names_its_field() -> None:
    from interlingua import InvalidDataError

    with pytest.raises(InvalidDataError, match="at input_tokens"):
        TokenUsage(input_tokens="many")  # type: ignore[arg-type]
