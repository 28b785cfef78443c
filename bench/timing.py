"""Measurement: paired timings, import times in fresh processes, retained memory.

Timings are paired: each sample runs interlingua's step, then the baseline's
(ABAB...), or each of several steps doing the same work in turn (ABCABC...:
interlingua and its peers), so all see the same noise on a shared machine.
Before each timed run `gc.collect()` clears the garbage of the previous one; the collector stays
enabled while it runs, since its cost is part of the real cost. What existed
before a measurement began (the input bodies, the harness, imported modules:
a peer's import alone leaves half a million objects) is frozen out of the
collector's way (`gc.freeze`), so a step pays for collecting what it
allocates, not for walking the harness's heap. A step too quick for the
clock runs in a loop long enough to time, and each sample is the time of one
call. A figure is the median of its samples; its spread is the interquartile
range (the middle half of the samples).
"""

from __future__ import annotations

import gc
import json
import math
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "SDK_MODULES",
    "Figure",
    "Pair",
    "Settings",
    "import_figures",
    "import_times",
    "measure",
    "measure_all",
    "retained_bytes",
]

# Provider SDKs: importing a codec must load none of them. httpx and httpx2
# (their HTTP clients) are reported apart. `google` is google-genai's top level;
# `boto3` and `botocore` are AWS's SDK (Bedrock's).
SDK_MODULES = ("anthropic", "openai", "mistralai", "groq", "google", "boto3", "botocore")
HTTP_MODULES = ("httpx", "httpx2")


@dataclass(frozen=True)
class Settings:
    """How hard to measure: samples per figure and the time budget of one."""

    min_samples: int
    max_samples: int
    budget_ns: int  # per pair of figures, spent on samples
    min_sample_ns: int  # a step quicker than this is looped
    import_runs: int
    memory_runs: int
    warmups: int = 2
    import_warmup: bool = True  # a first, untimed pair of imports warms the bytecode caches


@dataclass(frozen=True)
class Figure:
    """Samples of one step, in nanoseconds per call."""

    samples: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def quartiles(self) -> tuple[float, float]:
        return _quartiles(self.samples)


@dataclass(frozen=True)
class Pair:
    """interlingua's figure and its baseline's, sampled in turn."""

    ours: Figure
    base: Figure

    @property
    def ratios(self) -> list[float]:
        """Sample by sample: each pair was taken back to back, under the same noise."""
        return [a / b for a, b in zip(self.ours.samples, self.base.samples, strict=True)]

    @property
    def ratio(self) -> float:
        """The median of the sample-by-sample ratios."""
        return statistics.median(self.ratios)

    @property
    def ratio_quartiles(self) -> tuple[float, float]:
        return _quartiles(self.ratios)


def _quartiles(values: Sequence[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q3


def _timed(step: Callable[[], object], loops: int) -> float:
    """One sample: ns per call of `step`, over `loops` calls."""
    gc.collect()
    start = time.perf_counter_ns()
    for _ in range(loops):
        step()
    return (time.perf_counter_ns() - start) / loops


def _loops(step: Callable[[], object], settings: Settings) -> tuple[int, float]:
    """Warm `step` up; how many calls make one sample, and a call's time."""
    once = min(_timed(step, 1) for _ in range(settings.warmups))
    return max(1, math.ceil(settings.min_sample_ns / max(once, 1.0))), once


def measure(ours: Callable[[], object], base: Callable[[], object], settings: Settings) -> Pair:
    """interlingua's step and the baseline's, timed in turn."""
    figure, baseline = measure_all([ours, base], settings)
    return Pair(figure, baseline)


def measure_all(steps: Sequence[Callable[[], object]], settings: Settings) -> list[Figure]:
    """Steps doing the same work, timed in turn: the figure of each, in order;
    sample `i` of every figure comes from the same round."""
    gc.collect()
    gc.freeze()
    try:
        return _measure(steps, settings)
    finally:
        gc.unfreeze()


def _measure(steps: Sequence[Callable[[], object]], settings: Settings) -> list[Figure]:
    warmed = [_loops(step, settings) for step in steps]
    cost = sum(max(once, settings.min_sample_ns) for _, once in warmed)
    count = int(settings.budget_ns * (len(steps) / 2) // cost)  # the budget is per pair
    count = min(settings.max_samples, max(settings.min_samples, count))
    samples: list[list[float]] = [[] for _ in steps]
    for _ in range(count):
        for step, (loops, _), taken in zip(steps, warmed, samples, strict=True):
            taken.append(_timed(step, loops))
    return [Figure(tuple(taken)) for taken in samples]


# --- imports -------------------------------------------------------------------

# Run in a fresh interpreter: only `sys` and `time` (built in) are loaded before
# the import is timed; `json` after it, to answer.
_IMPORT_PROBE = """
import sys, time
start = time.perf_counter_ns()
for name in sys.argv[1:]:
    __import__(name)
elapsed = time.perf_counter_ns() - start
import json
roots = {name.split(".")[0] for name in sys.modules}
print(json.dumps({"ns": elapsed, "roots": sorted(roots)}))
"""


@dataclass(frozen=True)
class ImportResult:
    """Fresh-process import times of a module, and what it left loaded."""

    figure: Figure
    sdks: tuple[str, ...]  # provider SDKs found in sys.modules afterwards
    http: tuple[str, ...]  # HTTP client libraries found there
    packages: list[tuple[str, float]]  # self time (ns) by top-level package, largest first


def _probe(statement: Sequence[str]) -> tuple[float, set[str]]:
    command = [sys.executable, "-c", _IMPORT_PROBE, *statement]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    answer = json.loads(result.stdout)
    return float(answer["ns"]), set(answer["roots"])


def import_times(
    module: str, baseline: Sequence[str], settings: Settings
) -> tuple[ImportResult, Figure]:
    """`module`'s import time and the baseline's, in fresh processes taken in turn."""
    if settings.import_warmup:
        _probe([module])
        _probe(baseline)
    ours: list[float] = []
    base: list[float] = []
    roots: set[str] = set()
    for _ in range(settings.import_runs):
        elapsed, roots = _probe([module])
        ours.append(elapsed)
        base.append(_probe(baseline)[0])
    sdks = tuple(name for name in SDK_MODULES if name in roots)
    http = tuple(name for name in HTTP_MODULES if name in roots)
    result = ImportResult(Figure(tuple(ours)), sdks, http, import_breakdown(module))
    return result, Figure(tuple(base))


def import_figures(
    statements: Sequence[Sequence[str]], settings: Settings
) -> list[tuple[Figure, tuple[str, ...]]]:
    """Fresh-process import times of each statement (modules imported in
    order), taken in turn, one sample of each per round; and the provider SDKs
    each left loaded."""
    if settings.import_warmup:
        for statement in statements:
            _probe(statement)
    samples: list[list[float]] = [[] for _ in statements]
    roots: list[set[str]] = [set() for _ in statements]
    for _ in range(settings.import_runs):
        for n, statement in enumerate(statements):
            elapsed, roots[n] = _probe(statement)
            samples[n].append(elapsed)
    return [
        (Figure(tuple(taken)), tuple(name for name in SDK_MODULES if name in loaded))
        for taken, loaded in zip(samples, roots, strict=True)
    ]


def import_breakdown(module: str) -> list[tuple[str, float]]:
    """Where an import's time goes: `-X importtime`'s self times summed by
    top-level package, in ns, largest first."""
    command = [sys.executable, "-X", "importtime", "-c", f"import {module}"]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    totals: dict[str, float] = {}
    for line in result.stderr.splitlines():
        # import time: self [us] | cumulative | imported package
        head, _, rest = line.partition(":")
        fields = rest.split("|")
        if head != "import time" or len(fields) != 3 or not fields[0].strip().isdigit():
            continue
        package = fields[2].strip().split(".")[0]
        totals[package] = totals.get(package, 0.0) + int(fields[0]) * 1e3
    return sorted(totals.items(), key=lambda item: -item[1])


# --- memory --------------------------------------------------------------------


def retained_bytes(make: Callable[[], object], runs: int) -> list[int]:
    """Bytes still allocated, as tracemalloc counts them, once `make()` has
    returned and its garbage is collected: the size of what it made, `runs` times."""
    make()  # warm caches and lazy imports up, untraced
    sizes = []
    for _ in range(runs):
        gc.collect()
        tracemalloc.start()
        try:
            value = make()
            gc.collect()
            current, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        del value
        sizes.append(current)
    return sizes
