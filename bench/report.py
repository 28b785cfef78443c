"""Rows of results, their targets, and the table (or JSON) they are shown as.

A `Row` holds interlingua's figure and its baseline's, and the ratio that is
judged against the row's target (PASS when the ratio is at most the target).
A `Growth` row compares the cost per message at the two largest sizes of a
path ("cost linear in size": at most 1.2 times as much per message).
"""

from __future__ import annotations

import json
import platform
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from bench.timing import Figure, Pair

__all__ = ["GROWTH_TARGET", "Growth", "Row", "growth_rows", "print_table", "write_json"]

GROWTH_TARGET = 1.2


@dataclass(frozen=True)
class Row:
    """One measured path: `pair.ours` is interlingua's (or a peer's) figure."""

    path: str
    size: int | None  # messages, or stream chunks
    pair: Pair
    baseline: str
    target: float | None = None  # the most the ratio may be
    unit: str = "time"  # or "bytes"
    checks: tuple[tuple[str, bool], ...] = ()  # further conditions, named
    notes: tuple[str, ...] = field(default=())

    @property
    def ratio(self) -> float:
        return self.pair.ratio

    @property
    def verdict(self) -> str:
        if self.target is None and not self.checks:
            return ""
        passed = all(ok for _, ok in self.checks)
        if self.target is not None:
            passed = passed and self.ratio <= self.target
        return "PASS" if passed else "MISS"


@dataclass(frozen=True)
class Growth:
    """Cost per message at `size` over that at `smaller`, for one path."""

    path: str
    smaller: int
    size: int
    ours: float
    ours_range: tuple[float, float]
    base: float

    @property
    def verdict(self) -> str:
        return "PASS" if self.ours <= GROWTH_TARGET else "MISS"


def growth_rows(rows: Sequence[Row]) -> list[Growth]:
    """For every timed path measured at two sizes or more, its growth between the
    two largest."""
    by_path: dict[str, list[Row]] = {}
    for row in rows:
        if row.unit == "time" and row.size is not None:
            by_path.setdefault(row.path, []).append(row)
    growths = []
    for path, measured in by_path.items():
        if len({row.size for row in measured}) < 2:
            continue
        small, big = sorted(measured, key=lambda row: row.size or 0)[-2:]
        growths.append(_growth(path, small, big))
    return growths


def _growth(path: str, small: Row, big: Row) -> Growth:
    assert small.size is not None
    assert big.size is not None
    scale = small.size / big.size
    (small_q1, small_q3), (big_q1, big_q3) = small.pair.ours.quartiles, big.pair.ours.quartiles
    return Growth(
        path=path,
        smaller=small.size,
        size=big.size,
        ours=big.pair.ours.median / small.pair.ours.median * scale,
        ours_range=(big_q1 / small_q3 * scale, big_q3 / small_q1 * scale),
        base=big.pair.base.median / small.pair.base.median * scale,
    )


# --- the table -----------------------------------------------------------------


def _amount(value: float, unit: str) -> str:
    if unit == "bytes":
        return f"{value / 1e6:.2f} MB" if value >= 1e5 else f"{value / 1e3:.1f} kB"
    for scale, name in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
        if value >= scale:
            return f"{value / scale:.3g} {name}"
    return f"{value:.0f} ns"


def _spread(figure: Figure) -> str:
    """The interquartile range as a share of the median, e.g. `±4%`."""
    q1, q3 = figure.quartiles
    return f"±{(q3 - q1) / 2 / figure.median:.0%}"


def _target(row: Row) -> str:
    parts = [f"<= {row.target:g}x"] if row.target is not None else []
    parts += [name for name, _ in row.checks]
    return ", ".join(parts) or "-"


_LEGEND = """\
Times are medians per call, sizes in messages (streams: chunks; limits: kB or messages);
IQR is the interquartile range (q1..q3) as a share of the median. interlingua and its
baseline are sampled in turn, so each pair of samples saw the same noise: ratio is the
median of the sample-by-sample ratios (interlingua / baseline) and 'ratio IQR' their
interquartile range. A verdict is PASS when the ratio is at most the target."""

_HEADER = (
    f"{'path':<44} {'size':>6}  {'interlingua':>10} {'IQR':>5}  {'baseline':>10} {'IQR':>5}"
    f"  {'ratio':>7}  {'ratio IQR':<13} {'baseline is':<13} {'target':<22} verdict"
)


def _line(row: Row) -> str:
    ours, base = row.pair.ours, row.pair.base
    q1, q3 = row.pair.ratio_quartiles
    size = "" if row.size is None else f"{row.size:,}"
    return (
        f"{row.path:<44} {size:>6}  {_amount(ours.median, row.unit):>10} {_spread(ours):>5}"
        f"  {_amount(base.median, row.unit):>10} {_spread(base):>5}  {row.ratio:>6.2f}x"
        f"  {q1:.2f}..{q3:.2f}x{'':<2} {row.baseline:<13} {_target(row):<22} {row.verdict}"
    )


def _growth_line(growth: Growth) -> str:
    low, high = growth.ours_range
    sizes = f"{growth.size:,} vs {growth.smaller:,}"
    return (
        f"{growth.path:<44} {sizes:>16}  {growth.ours:>6.2f}x  {low:.2f}..{high:.2f}x"
        f"  {growth.base:>6.2f}x   <= {GROWTH_TARGET:g}x  {growth.verdict}"
    )


def print_table(
    sections: Iterable[tuple[str, Sequence[Row]]],
    growths: Sequence[Growth],
    notes: Sequence[str],
    out: TextIO = sys.stdout,
) -> None:
    print(_LEGEND, file=out)
    for title, rows in sections:
        if not rows:
            continue
        print(f"\n## {title}\n{_HEADER}", file=out)
        for row in rows:
            print(_line(row), file=out)
            for note in row.notes:
                print(f"    {note}", file=out)
    if growths:
        print(
            "\n## Cost per message (limits: per kB or message) at the largest size over the"
            " next (1.00x: linear)\n"
            f"{'path':<44} {'sizes':>16}  {'ours':>7}  {'range':<12}  {'floor':>7}"
            "   target   verdict",
            file=out,
        )
        for growth in growths:
            print(_growth_line(growth), file=out)
    _print_summary([row for _, rows in sections for row in rows], growths, out)
    for note in notes:
        print(f"note: {note}", file=out)


def _print_summary(rows: Sequence[Row], growths: Sequence[Growth], out: TextIO) -> None:
    verdicts = [row.verdict for row in rows if row.verdict] + [g.verdict for g in growths]
    missed = verdicts.count("MISS")
    print(
        f"\nTargets: {verdicts.count('PASS')} PASS, {missed} MISS of {len(verdicts)} judged rows.",
        file=out,
    )


# --- JSON ----------------------------------------------------------------------


def _row_json(row: Row) -> dict[str, Any]:
    q1, q3 = row.pair.ratio_quartiles
    return {
        "path": row.path,
        "size": row.size,
        "unit": "ns" if row.unit == "time" else "bytes",
        "interlingua": {"median": row.pair.ours.median, "samples": list(row.pair.ours.samples)},
        "baseline": {
            "kind": row.baseline,
            "median": row.pair.base.median,
            "samples": list(row.pair.base.samples),
        },
        "ratio": row.ratio,
        "ratio_iqr": [q1, q3],
        "target": row.target,
        "checks": dict(row.checks),
        "verdict": row.verdict or None,
        "notes": list(row.notes),
    }


def _growth_json(growth: Growth) -> dict[str, Any]:
    return {
        "path": growth.path,
        "sizes": [growth.smaller, growth.size],
        "per_message_growth": growth.ours,
        "range": list(growth.ours_range),
        "baseline_growth": growth.base,
        "target": GROWTH_TARGET,
        "verdict": growth.verdict,
    }


def write_json(
    path: str,
    sections: Iterable[tuple[str, Sequence[Row]]],
    growths: Sequence[Growth],
    notes: Sequence[str],
    extra: dict[str, Any] | None = None,
) -> None:
    document: dict[str, Any] = {
        "python": sys.version,
        "machine": platform.platform(),
        "sections": {title: [_row_json(row) for row in rows] for title, rows in sections},
        "growth": [_growth_json(growth) for growth in growths],
        "notes": list(notes),
        **(extra or {}),
    }
    text = json.dumps(document, indent=2, allow_nan=False)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text + "\n")
