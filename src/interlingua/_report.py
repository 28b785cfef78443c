"""The record of what a translation could not carry over.

Encoding never changes the core history; what a target cannot take is left
out or transformed on the wire only, and each such loss is recorded here with
the path of the part it concerns and its level: `content` (what the model
reads or must produce: text, media, tools, calls, results, instructions, the
output schema), `setting` (what changes how it answers: limits, sampling,
reasoning, tool choice, stop sequences) or `hint` (what changes neither: cache
hints, storage, metadata, ids, service tier, transport options). Each report
call gives its level; nothing is reported that changes no meaning (a field
sent empty or at its default, or whose meaning arrives another way).

In strict mode a loss raises `TranslationError` instead: `strict=True` at any
loss, `strict="setting"` at a setting or content loss, `strict="content"` at a
content loss alone; the losses below the level are recorded as usual.
`sanitize` records in the same report what it drops from a history or repairs
in it.
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass, field
from typing import Literal

from interlingua._errors import TranslationError

__all__ = [
    "LossKind",
    "LossLevel",
    "Strictness",
    "TranslationLoss",
    "TranslationReport",
    "TranslationWarning",
    "refuses",
]

LossKind = Literal["dropped", "transformed", "malformed"]
LossLevel = Literal["hint", "setting", "content"]
# `True`: any loss raises; a level: a loss of that level or above; `False`: none.
Strictness = bool | Literal["setting", "content"]

_RANK: dict[str, int] = {"hint": 0, "setting": 1, "content": 2}


def refuses(strict: Strictness, level: LossLevel) -> bool:
    """Whether strict mode `strict` refuses a loss of `level` (hint < setting < content)."""
    if isinstance(strict, bool):
        return strict
    return _RANK[level] >= _RANK[strict]


class TranslationWarning(UserWarning):
    """Emitted for a loss when the caller passed no report to collect it."""


@dataclass(frozen=True, slots=True)
class TranslationLoss:
    """One part left out (`dropped`) or changed (`transformed`) on the wire,
    or kept as it came although it is not valid (`malformed`)."""

    path: str
    kind: LossKind
    reason: str
    level: LossLevel = "content"

    def __str__(self) -> str:
        return f"{self.path}: {self.kind}: {self.reason}"

    def described(self) -> str:
        """The loss on one line with its level, as the command line, the gateway's
        log line and a warning give it: `<path>: <kind> (<level>): <reason>`."""
        return f"{self.path}: {self.kind} ({self.level}): {self.reason}"


@dataclass(slots=True)
class TranslationReport:
    """Collects the losses of one encoding. `strict` raises on the first loss it
    refuses: `True` any, `"setting"` a setting or content loss, `"content"` a
    content loss (`refuses`)."""

    target: str = ""
    strict: Strictness = False
    losses: list[TranslationLoss] = field(default_factory=list)

    def dropped(self, path: str, reason: str, level: LossLevel = "content") -> None:
        """`path` left out on the wire. Every call gives its `level`; a loss no
        one classified counts as content, the level strict mode never lets by."""
        self._add(TranslationLoss(path, "dropped", reason, level))

    def transformed(self, path: str, reason: str, level: LossLevel = "content") -> None:
        """`path` changed on the wire (`dropped` says of `level`)."""
        self._add(TranslationLoss(path, "transformed", reason, level))

    def _add(self, loss: TranslationLoss) -> None:
        if refuses(self.strict, loss.level):
            raise TranslationError(
                loss.path, loss.kind, loss.reason, target=self.target, level=loss.level
            )
        self.losses.append(loss)

    def __bool__(self) -> bool:
        return bool(self.losses)

    def __len__(self) -> int:
        return len(self.losses)


def resolve_report(report: TranslationReport | None, target: str) -> TranslationReport:
    """The report an encoder fills: the caller's, or one whose losses are warned about."""
    if report is not None:
        report.target = report.target or target
        return report
    return _WarningReport(target=target)


class _WarningReport(TranslationReport):
    """Stands in when no report was passed: every loss becomes a warning, never silence."""

    __slots__ = ()

    def _add(self, loss: TranslationLoss) -> None:
        message = f"{self.target}: {loss.described()}"
        warnings.warn(message, TranslationWarning, stacklevel=_caller_level())


def _caller_level() -> int:
    """The `stacklevel` of the first frame outside interlingua's packages, so the
    warning names the caller's line and can be filtered by the caller's module."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("interlingua"):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level
