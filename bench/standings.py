"""The peers' table: interlingua and each peer on every path, timed in turn,
and interlingua's ratio to the fastest peer of each row.

A `Standing` is one row: interlingua's figure, each peer's figure or why it
has none (not installed, left out, failed, or no such path), and the floor's
figure where the path has one. The ratio is the median, over the rounds, of
interlingua's sample over the fastest peer's sample of the same round (the
fastest by median; imports are timed in fresh processes, one of each in
turn, round by round too); for memory, which does not vary by round, of the
medians.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, TextIO

from bench import contests
from bench.contests import Contest, ImportContest, Inputs, build_inputs
from bench.peers import load_peers
from bench.timing import Figure, Settings, import_figures, measure_all, retained_bytes

__all__ = [
    "TITLE",
    "Peers",
    "Standing",
    "left_out",
    "load",
    "measure_standings",
    "print_standings",
    "standing_json",
]

Step = Callable[[], object]
Progress = Callable[[str], None]

TITLE = "interlingua beside its peers (ratio: interlingua / the fastest peer, same rounds)"


@dataclass(frozen=True)
class Standing:
    """One path: interlingua's figure, each peer's (or why none), the floor's."""

    path: str
    size: int | None  # messages, or stream chunks
    ours: Figure
    peers: Mapping[str, Figure | str]  # by peer: a figure, or why there is none
    floor: tuple[str, Figure] | None = None
    unit: str = "time"  # or "bytes"
    notes: tuple[str, ...] = ()
    paired: bool = True  # samples taken round by round with the peers'

    @property
    def fastest(self) -> str | None:
        timed = {peer: f for peer, f in self.peers.items() if isinstance(f, Figure)}
        return min(timed, key=lambda peer: timed[peer].median) if timed else None

    def ratios(self, other: Figure) -> list[float]:
        if self.paired and len(other.samples) == len(self.ours.samples):
            return [a / b for a, b in zip(self.ours.samples, other.samples, strict=True)]
        return [self.ours.median / other.median]

    @property
    def ratio(self) -> float | None:
        fastest = self.fastest
        if fastest is None:
            return None
        figure = self.peers[fastest]
        assert isinstance(figure, Figure)
        return statistics.median(self.ratios(figure))

    @property
    def ratio_quartiles(self) -> tuple[float, float] | None:
        fastest = self.fastest
        if fastest is None:
            return None
        figure = self.peers[fastest]
        assert isinstance(figure, Figure)
        return Figure(tuple(self.ratios(figure))).quartiles

    @property
    def floor_ratio(self) -> float | None:
        return None if self.floor is None else statistics.median(self.ratios(self.floor[1]))


# --- measuring -----------------------------------------------------------------


@dataclass(frozen=True)
class Peers:
    """What `bench.peers.load_peers` found: entries by peer, then by path."""

    entries: Mapping[str, Mapping[str, contests.Entry]]
    missing: Mapping[str, str]  # by peer: why it is left out
    memory: Mapping[str, Callable[[Inputs], Step]]


def _cell(peers: Peers, peer: str, path: str) -> str | None:
    """Why `peer` has no figure on `path`, or None if it has an entry."""
    if peer in peers.missing:
        return peers.missing[peer]
    return None if path in peers.entries.get(peer, {}) else "no such path"


def _standing(contest: Contest, inputs: Inputs, peers: Peers, settings: Settings) -> Standing:
    steps: list[Step] = [contest.ours(inputs)]
    timed: list[str] = []
    cells: dict[str, Figure | str] = {}
    notes = [contest.note] if contest.note else []
    for peer in contests.PEERS:
        reason = _cell(peers, peer, contest.path)
        if reason is not None:
            cells[peer] = reason
            continue
        entry = peers.entries[peer][contest.path]
        steps.append(entry.make(inputs))
        timed.append(peer)
        notes.append(f"{peer}: {entry.note}")
    if contest.floor is not None:
        steps.append(contest.floor[1](inputs))
    figures = measure_all(steps, settings)
    cells.update(zip(timed, figures[1 : 1 + len(timed)], strict=True))
    floor = (contest.floor[0], figures[-1]) if contest.floor is not None else None
    size = {"messages": inputs.size, "chunks": len(inputs.streams["chat"].payloads)}
    return Standing(
        contest.path, size.get(contest.scale), figures[0], cells, floor, notes=tuple(notes)
    )


def _import_standings(peers: Peers, settings: Settings, *, quick: bool) -> list[Standing]:
    """Every import contest; each statement is timed once, all in turn (a peer's
    import, in several rows, takes seconds)."""
    cells: list[dict[str, Sequence[str] | str]] = []
    statements: dict[tuple[str, ...], None] = {}
    for contest in contests.IMPORT_CONTESTS:
        row: dict[str, Sequence[str] | str] = {}
        for peer in contests.PEERS:
            if peer in peers.missing:
                row[peer] = peers.missing[peer]
            elif peer not in contest.peers:
                row[peer] = "no such path"
            elif quick:
                row[peer] = "left out (--quick)"
            else:
                row[peer] = contest.peers[peer]
                statements[contest.peers[peer]] = None
        statements.update({contest.ours: None, contest.floor: None})
        cells.append(row)
    timed = dict(zip(statements, import_figures(list(statements), settings), strict=True))
    return [
        _import_standing(contest, row, timed)
        for contest, row in zip(contests.IMPORT_CONTESTS, cells, strict=True)
    ]


def _import_standing(
    contest: ImportContest,
    row: dict[str, Sequence[str] | str],
    timed: dict[tuple[str, ...], tuple[Figure, tuple[str, ...]]],
) -> Standing:
    figures: dict[str, Figure | str] = {
        peer: cell if isinstance(cell, str) else timed[tuple(cell)][0] for peer, cell in row.items()
    }
    imported = [("interlingua", contest.ours)]
    imported += [(peer, tuple(cell)) for peer, cell in row.items() if not isinstance(cell, str)]
    notes = tuple(
        f"{name}: import {', '.join(modules)}"
        f" (provider SDKs loaded: {', '.join(timed[modules][1]) or 'none'})"
        for name, modules in imported
    )
    floor = ("pydantic", timed[contest.floor][0])
    return Standing(contest.path, None, timed[contest.ours][0], figures, floor, notes=notes)


def _memory_standing(inputs: Inputs, peers: Peers, settings: Settings) -> Standing:
    def allocated(make: Step) -> Figure:
        return Figure(tuple(float(n) for n in retained_bytes(make, settings.memory_runs)))

    text, decode = inputs.history.texts["chat"], contests.CODECS["chat"].decode_request
    cells: dict[str, Figure | str] = {}
    for peer in contests.PEERS:
        if peer in peers.missing:
            cells[peer] = peers.missing[peer]
        elif peer in peers.memory:
            cells[peer] = allocated(peers.memory[peer](inputs))
        else:
            cells[peer] = "no such path"
    ours = allocated(lambda: decode(json.loads(text)))
    floor = ("parsed JSON", allocated(lambda: json.loads(text)))
    notes = (
        "interlingua: the ChatRequest a Chat Completions body decodes to",
        "litellm: its history is the OpenAI-format dicts, the parsed body",
        "pydantic-ai: its ModelRequest and ModelResponse objects, images as bytes",
    )
    return Standing(
        contests.MEMORY_PATH, inputs.size, ours, cells, floor, "bytes", notes, paired=False
    )


def measure_standings(
    peers: Peers, sizes: Sequence[int], memory_size: int, chunks: int,
    settings: Settings, progress: Progress, *, quick: bool = False,
) -> list[Standing]:  # fmt: skip
    """Every contest: the history paths at each of `sizes`, the others once;
    `quick` leaves the peers' imports out."""
    rows: list[Standing] = []
    for index, size in enumerate(sizes):
        progress(f"peers: {size:,} messages")
        inputs = build_inputs(size, chunks)
        for contest in contests.CONTESTS:
            if contest.scale == "messages" or index == 0:
                rows.append(_standing(contest, inputs, peers, settings))
    progress("peers: imports")
    rows += _import_standings(peers, settings, quick=quick)
    progress(f"peers: memory, {memory_size:,} messages")
    rows.append(_memory_standing(build_inputs(memory_size, chunks), peers, settings))
    order = {path: n for n, path in enumerate(contests.contest_names())}
    return sorted(rows, key=lambda row: (order[row.path], row.size or 0))


def left_out(reason: str) -> Peers:
    """No peer measured: each says why."""
    return Peers({}, dict.fromkeys(contests.PEERS, reason), {})


# --- the table -----------------------------------------------------------------


def _amount(value: float, unit: str) -> str:
    if unit == "bytes":
        return f"{value / 1e6:.2f} MB" if value >= 1e5 else f"{value / 1e3:.1f} kB"
    for scale, name in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
        if value >= scale:
            return f"{value / scale:.3g} {name}"
    return f"{value:.0f} ns"


def _figure(figure: Figure | str, unit: str) -> str:
    if isinstance(figure, str):  # why there is no figure, shortly
        return figure.split(" (")[0].split(":")[0]
    q1, q3 = figure.quartiles
    return f"{_amount(figure.median, unit)} ±{(q3 - q1) / 2 / figure.median:.0%}"


_COLUMNS = ("interlingua", *contests.PEERS)
_HEADER = (
    f"{'path':<42} {'size':>6}  "
    + "  ".join(f"{name:<16}" for name in _COLUMNS)
    + f"  {'fastest peer':<12} {'ratio':>6}  {'ratio IQR':<12} floor"
)

_LEGEND = """\
Each cell is a median per call with its spread (±: half the interquartile range, as a share
of the median); interlingua and each peer are timed in turn, round by round, so a round's
samples saw the same noise. ratio is interlingua over the fastest peer of the row: the median
of the round-by-round ratios (memory: of the medians), below 1.00x ahead; floor is
interlingua over the work's own floor in the same rounds (a dialect's: the Chat Completions
encoder it is built on). A peer without a figure says why:
not installed, left out, failed, or no such path (it has no way through that work)."""


def _line(row: Standing) -> str:
    cells = [_figure(row.ours, row.unit)]
    cells += [_figure(row.peers[peer], row.unit) for peer in contests.PEERS]
    ratio, quartiles = row.ratio, row.ratio_quartiles
    judged = "-" if ratio is None else f"{ratio:.2f}x"
    spread = "" if quartiles is None else f"{quartiles[0]:.2f}..{quartiles[1]:.2f}x"
    floor = "" if row.floor is None else f"{row.floor_ratio:.2f}x {row.floor[0]}"
    size = "" if row.size is None else f"{row.size:,}"
    return (
        f"{row.path:<42} {size:>6}  "
        + "  ".join(f"{cell:<16}" for cell in cells)
        + f"  {row.fastest or '-':<12} {judged:>6}  {spread:<12} {floor}"
    )


def print_standings(
    rows: Sequence[Standing], missing: Mapping[str, str], out: TextIO = sys.stdout
) -> None:
    print(f"\n## {TITLE}\n{_LEGEND}\n{_HEADER}", file=out)
    for row in rows:
        print(_line(row), file=out)
    print("\nwhat each measures:", file=out)
    for path in dict.fromkeys(row.path for row in rows):
        notes = next(row.notes for row in rows if row.path == path)
        print(f"  {path}: {'; '.join(notes)}", file=out)
    for peer, reason in missing.items():
        print(f"note: {peer} left out: {reason}", file=out)


def standing_json(row: Standing) -> dict[str, Any]:
    def figure(value: Figure | str) -> dict[str, Any]:
        if isinstance(value, str):
            return {"missing": value}
        return {"median": value.median, "samples": list(value.samples)}

    return {
        "path": row.path,
        "size": row.size,
        "unit": "ns" if row.unit == "time" else "bytes",
        "interlingua": figure(row.ours),
        "peers": {peer: figure(value) for peer, value in row.peers.items()},
        "fastest_peer": row.fastest,
        "ratio": row.ratio,
        "ratio_iqr": row.ratio_quartiles,
        "floor": None if row.floor is None else {"kind": row.floor[0], **figure(row.floor[1])},
        "floor_ratio": row.floor_ratio,
        "notes": list(row.notes),
    }


def load(stack: ExitStack, check: Inputs) -> Peers:
    """The peers, each run once on `check`; what they hold open closes with `stack`."""
    entries, missing, memory = load_peers(stack, check)
    return Peers(entries, missing, memory)
