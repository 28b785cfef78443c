"""What a target caps, met on the wire: the least reasoning a model has where
a request turns reasoning off, the length of a string field, and the most
output tokens a body written in an API's own format asks for
(`interlingua.codec` re-exports these).

The rules themselves are each target's, in its `_rules.py` with the
provider's words: a table of model names to what turns reasoning off there
(`ReasoningOff`), and the length each capped field takes. These helpers apply
them the same way in every adapter, and report what is not as the request
said: the least reasoning of a model that cannot turn it off (transformed),
none sent to a model that always reasons (dropped), a value too long sent as
a digest of itself (transformed).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from interlingua._report import TranslationReport

__all__ = ["ModelRules", "OutputLimits", "ReasoningOff", "fitted_length", "sent_off"]

# A sha256 digest in hex: what stands in for a value too long (its first `limit` characters).
_DIGEST_LENGTH = 64


@dataclass(frozen=True, slots=True)
class ReasoningOff:
    """What a model is sent for reasoning turned off.

    `setting` is the target's value that turns reasoning off, or that gives the
    least the model has (None: no field at all, for a model without a
    reasoning setting). `said` is why that is not off, in the provider's words
    (None: it is off, or the model does not reason), reported.
    """

    setting: Any = None
    said: str | None = None


# (pattern, what turns reasoning off): the first pattern matching the whole model name wins.
ModelRules = Sequence[tuple[str, ReasoningOff]]


def sent_off(
    model: str, rules: ModelRules, report: TranslationReport, unknown: ReasoningOff
) -> Any:
    """The setting that turns reasoning off for `model`, from the first of
    `rules` whose pattern matches its whole name (in lower case, without an
    organisation or `models/` before a slash), else `unknown`; what is not off
    is reported at `reasoning.enabled`: the least reasoning sent as
    transformed, no field as dropped."""
    name = model.rsplit("/", 1)[-1].lower()
    off = next((off for pattern, off in rules if _pattern(pattern).fullmatch(name)), unknown)
    if off.said is not None and off.setting is not None:
        report.transformed(
            "reasoning.enabled", f"{off.said}; its least, {off.setting!r}, sent", "setting"
        )
    elif off.said is not None:
        report.dropped("reasoning.enabled", f"{off.said}; the model's default applies", "setting")
    return off.setting


def fitted_length(value: str, limit: int, path: str, report: TranslationReport, said: str) -> str:
    """`value` when it has at most `limit` characters, else the first `limit`
    (at most 64) hex characters of its sha256 digest: the same value gives the
    same stand-in at every call, and two values do not meet. `said` is the
    provider's rule, reported at `path` as transformed, a hint: what it fits
    are ids and keys (an end user's id, a prompt cache key), read by no model."""
    if len(value) <= limit:
        return value
    # surrogatepass: a string decoded from JSON may hold a lone surrogate.
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    fitted = digest[: min(limit, _DIGEST_LENGTH)]
    report.transformed(
        path,
        f"{len(value)} characters, where {said}; sent as its sha256 digest, {fitted!r}",
        "hint",
    )
    return fitted


@functools.cache
def _pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@dataclass(frozen=True, slots=True)
class OutputLimits:
    """Where a request body of one API asks for output tokens, as dotted paths
    (`thinking.budget_tokens`), every spelling the API takes: its max-tokens
    fields (`tokens`), and the fields of a reasoning budget (`budget`), which
    is part of the output (Anthropic refuses one not below `max_tokens`).

    Each API's are next to its codec (the adapter's `_wire.py`): its
    `Endpoint.limits`, which caps a body its client wrote for it as the
    gateway caps a request (`capped`)."""

    tokens: tuple[str, ...]
    budget: tuple[str, ...] = ()

    def requested(self, body: Mapping[str, Any]) -> int | None:
        """The output tokens `body` asks for (its first max-tokens field set), or None."""
        for path in self.tokens:
            value: Any = body
            for key in path.split("."):
                value = value.get(key) if isinstance(value, Mapping) else None
            if type(value) is int:
                return value
        return None

    def capped(self, body: dict[str, Any], most: int) -> dict[str, Any]:
        """`body` asking for at most `most` tokens, and for a reasoning budget below
        them, where a max-tokens field asks for more; else `body` itself. Only the
        objects on a path changed are copied: the rest is shared with `body`."""
        if not any(_above(body, path.split("."), most) for path in self.tokens):
            return body
        for path in self.tokens:
            body = _lowered(body, path.split("."), most)
        for path in self.budget:
            body = _lowered(body, path.split("."), most - 1)
        return body


def _above(wire: dict[str, Any], keys: list[str], most: int) -> bool:
    """Whether the integer at `keys` in `wire` is above `most`."""
    value: Any = wire
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return type(value) is int and value > most


def _lowered(wire: dict[str, Any], keys: list[str], most: int) -> dict[str, Any]:
    """`wire` with the integer at `keys` lowered to `most` where it is above."""
    key, *inner = keys
    value = wire.get(key)
    if inner:
        lowered = _lowered(value, inner, most) if isinstance(value, dict) else value
        return wire if lowered is value else {**wire, key: lowered}
    return {**wire, key: most} if type(value) is int and value > most else wire
