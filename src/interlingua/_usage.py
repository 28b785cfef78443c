"""Token usage, counted the same way for every provider.

`input_tokens` counts every input token, cached or not: cache reads and cache
writes are parts of it, told apart by `cache_read_tokens` and
`cache_write_tokens`. `reasoning_tokens` is part of `output_tokens`. Usages
add up across turns (`a + b`, and `sum(usages)`); so do the numeric `details`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import model_validator

from interlingua._base import CoreModel, empty_field

__all__ = ["TokenUsage", "usage_numbers"]

_COUNTS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
)


class TokenUsage(CoreModel):
    """Tokens one or more calls used. `total_tokens` defaults to input + output."""

    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    details: dict[str, int | float] = empty_field()

    @model_validator(mode="after")
    def _default_total(self) -> TokenUsage:
        if "total_tokens" not in self.model_fields_set:
            object.__setattr__(self, "total_tokens", self.input_tokens + self.output_tokens)
        return self

    @property
    def uncached_input_tokens(self) -> int:
        """Input tokens neither read from nor written to a cache."""
        return self.input_tokens - self.cache_read_tokens - self.cache_write_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        if not isinstance(other, TokenUsage):
            return NotImplemented
        details = dict(self.details)
        for key, value in other.details.items():
            details[key] = details.get(key, 0) + value
        counts = {name: getattr(self, name) + getattr(other, name) for name in _COUNTS}
        return TokenUsage(**counts, details=details)

    def __radd__(self, other: object) -> TokenUsage:
        # `sum()` starts from 0.
        if other == 0:
            return self
        return NotImplemented


def usage_numbers(
    value: Mapping[str, Any], prefix: str = "", *, skip: frozenset[str] = frozenset()
) -> Iterator[tuple[str, int | float]]:
    """The numbers in a wire usage object, each under its dotted path (those of
    `skip` left out): what `TokenUsage.details` keeps of a provider's counts."""
    for key, item in value.items():
        if key in skip:
            continue
        if isinstance(item, Mapping):
            yield from usage_numbers(item, f"{prefix}{key}.")
        elif isinstance(item, int | float) and not isinstance(item, bool):
            yield f"{prefix}{key}", item
