"""The gateway's cost as a client sees it: one worker, against calling the upstream directly.

Run from the repository root:

    uv run python bench/gateway.py            # the full run: about a minute and a half
    uv run python bench/gateway.py --quick    # fewer requests: about 16 s
    uv run python bench/gateway.py --json results.json

A fake upstream (Starlette under uvicorn on 127.0.0.1, its own process) answers
every Chat Completions request at once with a recorded body
(`fixtures/openai/chat_tool_round_trip.json`), or streamed, with a recorded
stream (`fixtures/openai/chat_stream_parallel_tool_calls.json`). The gateway
(`interlingua gateway`, one worker, its own process) is configured with
`upstreams.openai.base_url` pointing at it. The client (httpx, async, in this
process) asks Anthropic's `POST /v1/messages` of the gateway, which translates
to Chat Completions and back, and, as the baseline, the fake upstream directly
with the same conversation as a Chat Completions body; the two are sampled in
turn, in the same run. For a small chat (one question) and a 200-message
history (`bench.histories`):

- the added latency: p50 and p99 of the whole answer through the gateway,
  less the same percentile direct, one request at a time;
- requests per second at saturation (a fixed number in flight), through the
  gateway against direct;
- the time to the first streamed byte, through the gateway against direct;
- the memory per open stream: the gateway's RSS with a number of streams held
  open (the fake upstream pauses after its first frames) less its RSS before,
  per stream, against the fake upstream's own growth for the same streams.

Every loop is bounded in count and in time, all traffic goes to 127.0.0.1,
and both servers are stopped at the end. The machine may be shared and noisy:
the ratios, measured in the same run, are the figures that count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK = "127.0.0.1"
GATEWAY_KEY = "gk-bench"
UPSTREAM_KEY_VARIABLE = "INTERLINGUA_BENCH_UPSTREAM_KEY"
MODEL = "gpt-4.1-mini"
HOLD_MODEL = "hold"  # the fake upstream pauses such a stream after its first frames
HELD_AFTER = 5  # frames a held stream writes first: a role, a tool call's start and arguments
HOLD_BOUND = 20.0  # seconds a held stream waits for its release at most
START_BOUND = 30.0  # seconds a server may take to start
TARGET_P50_MS = 1.0
TARGET_P99_MS = 5.0


@dataclass(frozen=True)
class Plan:
    pairs: int  # latency: requests each way, one at a time
    stream_pairs: int  # time to first byte: streams each way
    in_flight: int  # saturation: requests in flight
    seconds: float  # saturation: the time bound of each measurement
    max_requests: int  # saturation: the count bound
    open_streams: int  # memory: streams held open at once


FULL = Plan(
    pairs=1000, stream_pairs=300, in_flight=16, seconds=5.0, max_requests=50_000, open_streams=100
)
QUICK = Plan(
    pairs=60, stream_pairs=30, in_flight=16, seconds=0.5, max_requests=5_000, open_streams=30
)


# --- the fake upstream ---


def _recorded_message() -> bytes:
    """A recorded Anthropic Messages answer, whole: thinking and a text."""
    recording = json.loads(
        (ROOT / "fixtures/anthropic/tool_round_trip_with_thinking.json").read_text()
    )
    return json.dumps(recording["interactions"][1]["response"]["json"]).encode()


def _recordings() -> tuple[bytes, list[bytes]]:
    """The recorded whole body, and the recorded stream as SSE frames."""
    whole = json.loads((ROOT / "fixtures/openai/chat_tool_round_trip.json").read_text())
    streamed = json.loads(
        (ROOT / "fixtures/openai/chat_stream_parallel_tool_calls.json").read_text()
    )
    body = json.dumps(whole["interactions"][1]["response"]["json"]).encode()
    frames = [
        f"data: {json.dumps(event['data'])}\n\n".encode()
        for event in streamed["interactions"][0]["response"]["sse"]
    ]
    return body, [*frames, b"data: [DONE]\n\n"]


def fake_upstream_app() -> Any:
    """Chat Completions answered at once from the recordings, whole or as SSE, and
    Anthropic Messages answered at once, whole."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    body, frames = _recordings()
    message = _recorded_message()
    release = {"event": asyncio.Event()}

    async def messages(request: Request) -> Response:
        await request.body()
        return Response(message, media_type="application/json")

    async def completions(request: Request) -> Response:
        asked = json.loads(await request.body())
        if not asked.get("stream"):
            return Response(body, media_type="application/json")
        held = asked.get("model") == HOLD_MODEL
        event = release["event"]

        async def stream() -> Any:
            for frame in frames[:HELD_AFTER]:
                yield frame
            if held:
                with suppress(asyncio.TimeoutError):  # TimeoutError from 3.11
                    await asyncio.wait_for(event.wait(), HOLD_BOUND)
            for frame in frames[HELD_AFTER:]:
                yield frame

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def released(request: Request) -> Response:
        event, release["event"] = release["event"], asyncio.Event()
        event.set()
        return Response(b"", status_code=204)

    return Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/v1/messages", messages, methods=["POST"]),
            Route("/release", released, methods=["POST"]),
        ]
    )


def serve_fake_upstream(port: int) -> None:
    import uvicorn

    uvicorn.run(fake_upstream_app(), host=LOOPBACK, port=port, log_level="warning")


# --- the servers, in processes of their own ---


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]
        return port


def wait_listening(
    port: int, process: subprocess.Popen[bytes], log: Path, bound: float = START_BOUND
) -> None:
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"a server exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            with socket.create_connection((LOOPBACK, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(
        f"a server did not start in {bound} s: {log.read_text(errors='replace')[-2000:]}"
    )


@dataclass(frozen=True)
class Launch:
    """A server to start: its command, the port it listens on, and its time to start."""

    name: str
    command: list[str]
    port: int
    bound: float = START_BOUND


@contextmanager
def running(folder: Path, env: dict[str, str], launches: list[Launch]) -> Iterator[list[int]]:
    """The launches' process ids, each started and listening before the next;
    every one stopped at the end, its output in `folder/<name>.log`."""
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for launch in launches:
            log = folder / f"{launch.name}.log"
            with log.open("wb") as out:
                processes.append(
                    subprocess.Popen(launch.command, cwd=ROOT, env=env, stdout=out, stderr=out)
                )
            wait_listening(launch.port, processes[-1], log, launch.bound)
        yield [process.pid for process in processes]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def fake_upstream_launch(port: int) -> Launch:
    command = [sys.executable, str(Path(__file__).resolve()), "--fake-upstream", str(port)]
    return Launch("upstream", command, port)


@contextmanager
def servers(folder: Path) -> Iterator[tuple[str, str, int, int]]:
    """The fake upstream's and the gateway's base URLs and process ids."""
    upstream_port, gateway_port = free_port(), free_port()
    config = folder / "gateway.toml"
    config.write_text(
        f'[models.bench]\nupstream = "openai:{MODEL}"\n'
        f'[models.bench-hold]\nupstream = "openai:{HOLD_MODEL}"\n'
        f'[upstreams.openai]\nbase_url = "http://{LOOPBACK}:{upstream_port}/v1"\n'
        f'api_key_env = "{UPSTREAM_KEY_VARIABLE}"\ntimeout = 60.0\n'
    )
    env = {**os.environ, "INTERLINGUA_GATEWAY_KEYS": GATEWAY_KEY, UPSTREAM_KEY_VARIABLE: "sk-bench"}
    gateway = [sys.executable, "-m", "interlingua.cli", "gateway", "--config", str(config),
               "--host", LOOPBACK, "--port", str(gateway_port), "--log", "json"]  # fmt: skip
    launches = [fake_upstream_launch(upstream_port), Launch("gateway", gateway, gateway_port)]
    with running(folder, env, launches) as (upstream_pid, gateway_pid):
        yield (
            f"http://{LOOPBACK}:{upstream_port}",
            f"http://{LOOPBACK}:{gateway_port}",
            upstream_pid,
            gateway_pid,
        )


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")  # pragma: no cover - Linux only


# --- the requests ---


@dataclass(frozen=True)
class Way:
    """Where a request goes and what it sends: the gateway's or the upstream's API."""

    url: str
    headers: dict[str, str]
    body: dict[str, Any]

    def streaming(self, model: str | None = None) -> Way:
        body = {**self.body, "stream": True}
        if model is not None:
            body["model"] = model
        return Way(self.url, self.headers, body)


def conversations() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each case's Anthropic body (to the gateway) and Chat Completions body (direct)."""
    sys.path.insert(0, str(ROOT))
    from bench.histories import build_history

    question = "Is it raining in Lisbon right now?"
    small = (
        {"model": "bench", "max_tokens": 400, "messages": [{"role": "user", "content": question}]},
        {"model": MODEL, "max_completion_tokens": 400,
         "messages": [{"role": "user", "content": question}]},
    )  # fmt: skip
    history = build_history(200)
    anthropic = {**history.bodies["anthropic"], "model": "bench"}
    chat = {**history.bodies["chat"], "model": MODEL}
    return {"small chat": small, "200-message history": (anthropic, chat)}


def ways(
    upstream: str, gateway: str, anthropic: dict[str, Any], chat: dict[str, Any]
) -> tuple[Way, Way]:
    through = Way(
        f"{gateway}/v1/messages",
        {"x-api-key": GATEWAY_KEY, "anthropic-version": "2023-06-01"},
        anthropic,
    )
    direct = Way(f"{upstream}/v1/chat/completions", {"authorization": "Bearer sk-bench"}, chat)
    return through, direct


async def whole(client: Any, way: Way) -> float:
    started = time.perf_counter()
    response = await client.post(way.url, headers=way.headers, json=way.body)
    await response.aread()
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"{way.url}: {response.status_code} {response.text[:500]}")
    return elapsed


async def first_byte(client: Any, way: Way) -> float:
    """Seconds to the first byte of a stream's body; the rest is read and dropped."""
    started = time.perf_counter()
    async with client.stream("POST", way.url, headers=way.headers, json=way.body) as response:
        if response.status_code != 200:
            raise RuntimeError(f"{way.url}: {response.status_code}")
        elapsed = None
        async for _ in response.aiter_raw():
            if elapsed is None:
                elapsed = time.perf_counter() - started
    if elapsed is None:
        raise RuntimeError(f"{way.url}: an empty stream")
    return elapsed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


async def in_turn(
    client: Any, call: Any, through: Way, direct: Way, pairs: int, bound: float
) -> tuple[list[float], list[float]]:
    """Each way `pairs` times, one request at a time, alternating; bounded in time."""
    gateway, upstream = [], []
    deadline = time.monotonic() + bound
    for index in range(pairs):
        if time.monotonic() > deadline:
            break
        first, second = (through, direct) if index % 2 else (direct, through)
        a = await call(client, first)
        b = await call(client, second)
        gateway.append(a if first is through else b)
        upstream.append(b if first is through else a)
    return gateway, upstream


async def saturate(client: Any, way: Way, plan: Plan) -> float:
    """Requests per second with `plan.in_flight` in flight, bounded in time and count."""
    done = 0
    issued = 0
    deadline = time.monotonic() + plan.seconds

    async def worker() -> None:
        nonlocal done, issued
        while time.monotonic() < deadline and issued < plan.max_requests:
            issued += 1
            await whole(client, way)
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(plan.in_flight)))
    return done / (time.perf_counter() - started)


async def held_streams(
    client: Any, upstream: str, way: Way, count: int, pids: tuple[int, int]
) -> tuple[float, float]:
    """Bytes per open stream, in the gateway and in the fake upstream, `count` held at once."""
    before = [rss_bytes(pid) for pid in pids]
    opened = asyncio.Event()
    arrived = 0

    async def hold() -> None:
        nonlocal arrived
        async with client.stream("POST", way.url, headers=way.headers, json=way.body) as response:
            chunks = response.aiter_raw()
            await chunks.__anext__()
            arrived += 1
            if arrived == count:
                opened.set()
            async for _ in chunks:
                pass

    tasks = [asyncio.ensure_future(hold()) for _ in range(count)]
    try:
        await asyncio.wait_for(opened.wait(), HOLD_BOUND)
        await asyncio.sleep(0.2)  # the last first chunks written, the servers settled
        during = [rss_bytes(pid) for pid in pids]
    finally:
        await client.post(f"{upstream}/release")
        await asyncio.wait_for(asyncio.gather(*tasks), HOLD_BOUND)
    page = 4096  # RSS moves by pages: a growth under one page is counted as one
    gateway, upstream = (max(d - b, page) / count for d, b in zip(during, before, strict=True))
    return gateway, upstream


@dataclass
class Case:
    case: str
    requests: int
    gateway_p50_ms: float
    direct_p50_ms: float
    added_p50_ms: float
    gateway_p99_ms: float
    direct_p99_ms: float
    added_p99_ms: float
    p50_ratio: float
    overhead_header_p50_ms: float  # the gateway's own x-interlingua-overhead-ms
    gateway_rps: float
    direct_rps: float
    rps_ratio: float
    gateway_ttfb_ms: float
    direct_ttfb_ms: float
    ttfb_ratio: float
    gateway_kb_per_stream: float
    upstream_kb_per_stream: float
    memory_ratio: float


async def overhead_header(client: Any, way: Way, count: int) -> float:
    values = []
    for _ in range(count):
        response = await client.post(way.url, headers=way.headers, json=way.body)
        values.append(float(response.headers["x-interlingua-overhead-ms"]))
    return statistics.median(values)


async def measure(plan: Plan, upstream: str, gateway: str, pids: tuple[int, int]) -> list[Case]:
    import httpx

    limits = httpx.Limits(max_connections=plan.open_streams + plan.in_flight + 8)
    cases = []
    async with httpx.AsyncClient(limits=limits, timeout=60.0) as client:
        for name, (anthropic, chat) in conversations().items():
            through, direct = ways(upstream, gateway, anthropic, chat)
            await in_turn(client, whole, through, direct, 20, 30.0)  # warm-up
            gw, up = await in_turn(client, whole, through, direct, plan.pairs, 60.0)
            header = await overhead_header(client, through, 50)
            gw_rps = await saturate(client, through, plan)
            up_rps = await saturate(client, direct, plan)
            gw_first, up_first = await in_turn(
                client, first_byte, through.streaming(), direct.streaming(), plan.stream_pairs, 60.0
            )
            hold = Way(through.url, through.headers, {**through.body, "model": "bench-hold"})
            await held_streams(client, upstream, hold.streaming(), 2, pids)  # warm-up
            gw_kb, up_kb = await held_streams(
                client, upstream, hold.streaming(), plan.open_streams, (pids[1], pids[0])
            )
            ms = 1000.0
            p50s = (percentile(gw, 0.5) * ms, percentile(up, 0.5) * ms)
            p99s = (percentile(gw, 0.99) * ms, percentile(up, 0.99) * ms)
            ttfb = (statistics.median(gw_first) * ms, statistics.median(up_first) * ms)
            cases.append(
                Case(
                    case=name, requests=len(gw),
                    gateway_p50_ms=p50s[0], direct_p50_ms=p50s[1], added_p50_ms=p50s[0] - p50s[1],
                    gateway_p99_ms=p99s[0], direct_p99_ms=p99s[1], added_p99_ms=p99s[0] - p99s[1],
                    p50_ratio=p50s[0] / p50s[1], overhead_header_p50_ms=header,
                    gateway_rps=gw_rps, direct_rps=up_rps, rps_ratio=gw_rps / up_rps,
                    gateway_ttfb_ms=ttfb[0], direct_ttfb_ms=ttfb[1], ttfb_ratio=ttfb[0] / ttfb[1],
                    gateway_kb_per_stream=gw_kb / 1024, upstream_kb_per_stream=up_kb / 1024,
                    memory_ratio=gw_kb / up_kb,
                )
            )  # fmt: skip
    return cases


def print_cases(cases: list[Case], plan: Plan) -> None:
    print(
        "The gateway (Anthropic /v1/messages -> Chat Completions upstream), one worker,\n"
        "against the fake upstream called directly, in the same run "
        f"({os.cpu_count()} cores; {plan.in_flight} in flight at saturation, "
        f"{plan.open_streams} streams held open).\n"
    )
    header = (
        f"{'case':<22}{'added p50':>11}{'added p99':>11}{'p50 ratio':>10}{'in-gw p50':>10}"
        f"{'req/s gw':>10}{'req/s dir':>10}{'rps ratio':>10}{'TTFB gw':>9}{'TTFB dir':>9}"
        f"{'TTFB ratio':>11}{'kB/stream':>10}{'mem ratio':>10}"
    )
    print(header)
    print("-" * len(header))
    for c in cases:
        print(
            f"{c.case:<22}{c.added_p50_ms:>9.2f}ms{c.added_p99_ms:>9.2f}ms{c.p50_ratio:>9.2f}x"
            f"{c.overhead_header_p50_ms:>8.2f}ms{c.gateway_rps:>10.0f}{c.direct_rps:>10.0f}"
            f"{c.rps_ratio:>9.2f}x{c.gateway_ttfb_ms:>7.2f}ms{c.direct_ttfb_ms:>7.2f}ms"
            f"{c.ttfb_ratio:>10.2f}x{c.gateway_kb_per_stream:>10.1f}{c.memory_ratio:>9.2f}x"
        )
    print()
    for c in cases:
        print(
            f"{c.case}: p50 {c.gateway_p50_ms:.2f} ms through the gateway, "
            f"{c.direct_p50_ms:.2f} ms direct; p99 {c.gateway_p99_ms:.2f} ms, "
            f"{c.direct_p99_ms:.2f} ms ({c.requests} each)"
        )
    small = cases[0]
    verdict = (
        "PASS"
        if small.added_p50_ms < TARGET_P50_MS and small.added_p99_ms < TARGET_P99_MS
        else "MISS"
    )
    print(
        f"\nTarget: a small chat adds under {TARGET_P50_MS:g} ms at p50 and {TARGET_P99_MS:g} ms "
        f"at p99: {verdict} ({small.added_p50_ms:.2f} ms, {small.added_p99_ms:.2f} ms).\n"
        "in-gw p50: the gateway's own x-interlingua-overhead-ms (its time, the upstream's left "
        "out); the rest of the added time is the second HTTP hop (uvicorn, the SDK's client)."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer requests: under 30 s")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    parser.add_argument("--fake-upstream", metavar="PORT", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.fake_upstream is not None:
        serve_fake_upstream(args.fake_upstream)
        return 0
    plan = QUICK if args.quick else FULL
    with (
        tempfile.TemporaryDirectory() as folder,
        servers(Path(folder)) as (upstream, gateway, upstream_pid, gateway_pid),
    ):
        cases = asyncio.run(measure(plan, upstream, gateway, (upstream_pid, gateway_pid)))
    print_cases(cases, plan)
    if args.json:
        Path(args.json).write_text(
            json.dumps({"plan": asdict(plan), "cases": [asdict(c) for c in cases]}, indent=2)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
