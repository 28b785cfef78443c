"""The record of what a translation could not carry over.

Encoding never changes the core history; what a target cannot take is left
out or transformed on the wire only, and each such loss is recorded here with
the path of the part it concerns. In strict mode the first loss raises
`TranslationError` instead. `sanitize` records in the same report what it drops
from a history or repairs in it.
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass, field
from typing import Literal

from interlingua._errors import TranslationError

__all__ = ["LossKind", "TranslationLoss", "TranslationReport", "TranslationWarning"]

LossKind = Literal["dropped", "transformed", "malformed"]


class TranslationWarning(UserWarning):
    """Emitted for a loss when the caller passed no report to collect it."""


@dataclass(frozen=True, slots=True)
class TranslationLoss:
    """One part left out (`dropped`) or changed (`transformed`) on the wire,
    or kept as it came although it is not valid (`malformed`)."""

    path: str
    kind: LossKind
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.kind}: {self.reason}"


@dataclass(slots=True)
class TranslationReport:
    """Collects the losses of one encoding. `strict=True` raises on the first."""

    target: str = ""
    strict: bool = False
    losses: list[TranslationLoss] = field(default_factory=list)

    def dropped(self, path: str, reason: str) -> None:
        self._add(TranslationLoss(path, "dropped", reason))

    def transformed(self, path: str, reason: str) -> None:
        self._add(TranslationLoss(path, "transformed", reason))

    def _add(self, loss: TranslationLoss) -> None:
        if self.strict:
            raise TranslationError(loss.path, loss.kind, loss.reason, target=self.target)
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
        warnings.warn(f"{self.target}: {loss}", TranslationWarning, stacklevel=_caller_level())


def _caller_level() -> int:
    """The `stacklevel` of the first frame outside interlingua's packages, so the
    warning names the caller's line and can be filtered by the caller's module."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("interlingua"):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level
