"""The codecs hold no shared mutable state: run from many threads and asyncio
tasks at once, every adapter gives for each recorded body what it gives run
alone.

Each piece of work decodes one recorded body (a request, a response, a
stream, an error answer, or a broken request that must fail) and encodes a
decoded request to every other API as well, with its report of losses. The
serial results are computed first; then the same work, shuffled and
repeated, runs on 8 threads switching every few microseconds, as asyncio
tasks on threads, and as coroutines on one thread that interleave dozens of
streams event by event. Every result must equal the serial one.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from interlingua import InterlinguaError, TranslationReport, get_adapter
from test_fuzz_decoders import ADAPTERS, recorded

THREADS = 8
ROUNDS = 2


@dataclass(frozen=True)
class Work:
    name: str
    kind: str
    body: Any


def all_work() -> list[Work]:
    work = []
    for name in sorted(ADAPTERS):
        for kind, bodies in recorded(name).bodies.items():
            work += [Work(name, kind, body) for body in bodies]
        broken = dict(recorded(name).bodies["request"][0], model=7)
        work.append(Work(name, "request", broken))
    return work


def outcome(work: Work) -> Any:
    """What decoding (and, for a request, encoding to every API) gives, as data."""
    adapter = get_adapter(work.name)
    try:
        if work.kind == "request":
            request = adapter.decode_request(work.body)
            return request, {target: encoded(target, request) for target in sorted(ADAPTERS)}
        if work.kind == "response":
            response = adapter.decode_response(work.body)
            return response, adapter.encode_response(response, report=TranslationReport())
        if work.kind == "stream":
            return list(adapter.decode_stream(work.body))
        status, body = work.body
        error = adapter.decode_error(status, body)
        return type(error), str(error), error.status, error.type, error.code, error.body
    except InterlinguaError as error:
        return type(error), str(error)


def encoded(target: str, request: Any) -> tuple[dict[str, Any], list[Any]]:
    report = TranslationReport()
    return get_adapter(target).encode_request(request, report=report), report.losses


@contextmanager
def switching_often() -> Iterator[None]:
    """Threads switch every 5 microseconds, not every 5 milliseconds."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(5e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def shuffled(count: int) -> list[int]:
    order = list(range(count)) * ROUNDS
    random.Random(14).shuffle(order)
    return order


def mismatches(
    run: Callable[[Work], Any], work: Sequence[Work], expected: Sequence[Any]
) -> list[str]:
    """The work whose result, run from `THREADS` threads at once, differs from `expected`."""
    order = shuffled(len(work))
    with switching_often(), ThreadPoolExecutor(max_workers=THREADS) as pool:
        results = list(pool.map(lambda index: run(work[index]), order))
    return [
        f"{work[index].name} {work[index].kind} #{index}"
        for index, result in zip(order, results, strict=True)
        if result != expected[index]
    ]


@pytest.fixture(scope="module")
def serial() -> tuple[list[Work], list[Any]]:
    work = all_work()
    return work, [outcome(item) for item in work]


def test_the_work_covers_every_adapter_and_kind(serial: tuple[list[Work], list[Any]]) -> None:
    work, results = serial
    assert {(item.name, item.kind) for item in work} == {
        (name, kind) for name in ADAPTERS for kind in ("request", "response", "stream", "error")
    }
    failed = [result for result in results if isinstance(result, tuple) and len(result) == 2]
    assert any(isinstance(result[0], type) for result in failed), "no broken body failed"


def test_threads_give_the_serial_results(serial: tuple[list[Work], list[Any]]) -> None:
    work, expected = serial
    assert mismatches(outcome, work, expected) == []


def test_the_check_finds_a_codec_that_keeps_state(serial: tuple[list[Work], list[Any]]) -> None:
    """Shared state, here a counter read and written back with a pause between,
    shows as mismatches: the comparison above can fail."""
    work, _ = serial
    work = work[:40]
    seen = {"calls": 0}

    def counting(item: Work) -> Any:
        calls = seen["calls"]
        outcome(item)
        seen["calls"] = calls + 1
        return seen["calls"]

    expected = [counting(item) for item in work]
    seen["calls"] = 0
    assert mismatches(counting, work, expected)


def test_asyncio_tasks_give_the_serial_results(serial: tuple[list[Work], list[Any]]) -> None:
    work, expected = serial
    order = shuffled(len(work))

    async def run_all() -> list[Any]:
        return await asyncio.gather(*(asyncio.to_thread(outcome, work[i]) for i in order))

    with switching_often():
        results = asyncio.run(run_all())
    assert [i for i, r in zip(order, results, strict=True) if r != expected[i]] == []


def test_streams_read_side_by_side_give_the_serial_events(
    serial: tuple[list[Work], list[Any]],
) -> None:
    """Coroutines on one thread each read a stream, yielding between events,
    so every stream decoder is midway through its stream at once."""
    work, expected = serial
    streams = [index for index, item in enumerate(work) if item.kind == "stream"] * ROUNDS
    random.Random(14).shuffle(streams)

    async def read(index: int) -> list[Any]:
        item = work[index]
        events = []
        for event in get_adapter(item.name).decode_stream(item.body):
            events.append(event)
            await asyncio.sleep(0)
        return events

    async def read_all() -> list[list[Any]]:
        return await asyncio.gather(*(read(index) for index in streams))

    results = asyncio.run(read_all())
    assert len(streams) > 3 * len(ADAPTERS)
    assert [r == expected[i] for i, r in zip(streams, results, strict=True)] == [True] * len(
        streams
    )
