"""The gateway beside LiteLLM's proxy, one worker each, against calling the upstream directly.

Run from the repository root:

    uv run python bench/gateway_peers.py               # the full run: about three minutes
    uv run python bench/gateway_peers.py --quick       # fewer requests
    uv run python bench/gateway_peers.py --no-litellm  # the gateway alone, against direct
    uv run python bench/gateway_peers.py --json results.json

LiteLLM's proxy (`LITELLM_PROXY`) runs from a uv tool environment of its own,
which uv installs from PyPI on the first run (a minute or two) and keeps in
its cache; it then takes about a minute to start.

An OpenAI Chat Completions client (httpx, async, in this process) asks for a
small chat (one question); the answer comes from the fake upstream of
`bench/gateway.py`, in Anthropic Messages' format, with a recorded body
(`fixtures/anthropic/tool_round_trip_with_thinking.json`). The ways, sampled in
turn in the same run, each server in a process of its own on 127.0.0.1:

- direct: the fake upstream's `POST /v1/messages`, the same conversation as a
  Messages body (the baseline);
- `interlingua gateway`, one worker, on uvicorn's default stack (httptools and
  uvloop, as `uvicorn[standard]` installs them);
- the same gateway under uvicorn on its pure-Python h11 parser and asyncio's
  own loop, to show what the stack is worth;
- LiteLLM's proxy (`litellm --config`, one worker, the settings of LiteLLM's
  own benchmark: no callbacks, no retries), its price list read from its own
  copy (`LITELLM_LOCAL_MODEL_COST_MAP`), so its traffic too stays on loopback.

For each: p50 and p99 of the whole answer, one request at a time, and the
same less direct's; requests per second with a fixed number in flight; the
median of the server's own overhead header (`x-interlingua-overhead-ms`,
`x-litellm-overhead-duration-ms`). Every loop is bounded in count and time and
every server stopped at the end. The machine may be shared and noisy: the
ratios, measured in the same run, are the figures that count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gateway import (
    GATEWAY_KEY,
    LOOPBACK,
    UPSTREAM_KEY_VARIABLE,
    Launch,
    Plan,
    Way,
    fake_upstream_launch,
    free_port,
    percentile,
    running,
    saturate,
    whole,
)

UPSTREAM_MODEL = "claude-sonnet-4-5"
QUESTION = "Is it raining in Lisbon right now?"
ANSWER = "light rain in Lisbon"  # in the recorded answer: each way's first answer must carry it
LITELLM_KEY = "sk-bench-litellm"  # LiteLLM's master key must start with `sk-`
LITELLM_START_BOUND = 180.0  # LiteLLM's proxy imports for most of a minute on this machine
INSTALL_BOUND = 600.0  # seconds uv may take to install LiteLLM's proxy the first time
# LiteLLM's proxy runs in a uv tool environment of its own, not from the `bench` group:
# the newest LiteLLM's `proxy` extra (1.110) asks for a litellm-enterprise that PyPI does
# not have, and the newest whose extra installs (1.108.7) would hold the whole lock back
# (its pins take rich down to 13 and litellm itself below what bench/peers.py measures).
LITELLM_PROXY = "litellm[proxy]==1.108.7"

FULL = Plan(
    pairs=500, stream_pairs=0, in_flight=16, seconds=5.0, max_requests=50_000, open_streams=0
)
QUICK = Plan(
    pairs=60, stream_pairs=0, in_flight=16, seconds=0.5, max_requests=5_000, open_streams=0
)
TINY = Plan(pairs=5, stream_pairs=0, in_flight=4, seconds=0.2, max_requests=40, open_streams=0)


@dataclass(frozen=True)
class Server:
    """A way through a server: its name, how it starts, and its overhead header."""

    name: str
    launch: Launch
    way: Way
    overhead_header: str


def litellm_command() -> list[str] | None:
    """`litellm`, LiteLLM's proxy, run by uv from a tool environment of its own
    (`LITELLM_PROXY`), or None without uv."""
    uv = shutil.which("uv")
    return None if uv is None else [uv, "tool", "run", "--from", LITELLM_PROXY, "litellm"]


def prepare_litellm() -> str | None:
    """LiteLLM's proxy installed in uv's tool environment (the first time; then uv
    keeps it in its cache): None when it is ready, else why not."""
    command = litellm_command()
    if command is None:
        return "uv is not on the PATH"
    try:
        check = subprocess.run(
            [*command[:-1], "python", "-c", ""], capture_output=True, text=True,
            timeout=INSTALL_BOUND, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return f"its install took over {INSTALL_BOUND:g} s"
    if check.returncode != 0:
        lines = check.stderr.strip().splitlines()
        return lines[-1] if lines else f"uv exited with {check.returncode}"
    return None


def chat_body() -> dict[str, Any]:
    return {
        "model": "bench",
        "max_completion_tokens": 400,
        "messages": [{"role": "user", "content": QUESTION}],
    }


def gateway_servers(folder: Path, upstream: str, env: dict[str, str]) -> list[Server]:
    """The gateway on uvicorn's default stack, and on h11 and asyncio's loop; `env`
    gets what the gateway's workers read."""
    from interlingua.gateway._serve import _CONFIG, _LOG  # what `serve` passes its workers

    config = folder / "gateway.toml"
    config.write_text(
        f'[models.bench]\nupstream = "anthropic:{UPSTREAM_MODEL}"\n'
        f'[upstreams.anthropic]\nbase_url = "{upstream}"\n'
        f'api_key_env = "{UPSTREAM_KEY_VARIABLE}"\ntimeout = 60.0\n'
    )
    default_port, h11_port = free_port(), free_port()
    default = [sys.executable, "-m", "interlingua.cli", "gateway", "--config", str(config),
               "--host", LOOPBACK, "--port", str(default_port), "--log", "json"]  # fmt: skip
    # uvicorn's own command line, on the factory `interlingua gateway` runs in each worker.
    h11 = [sys.executable, "-m", "uvicorn", "interlingua.gateway._serve:app_from_environment",
           "--factory", "--host", LOOPBACK, "--port", str(h11_port), "--loop", "asyncio",
           "--http", "h11", "--no-access-log", "--log-level", "warning"]  # fmt: skip
    env[_CONFIG], env[_LOG] = str(config), "json"
    headers = {"authorization": f"Bearer {GATEWAY_KEY}"}
    return [
        Server(
            name,
            Launch(name.replace(" ", "-"), command, port),
            Way(f"http://{LOOPBACK}:{port}/v1/chat/completions", headers, chat_body()),
            "x-interlingua-overhead-ms",
        )
        for name, command, port in (
            ("interlingua gateway", default, default_port),
            ("gateway on h11, asyncio", h11, h11_port),
        )
    ]


def litellm_server(folder: Path, upstream: str, command: list[str]) -> Server:
    config = folder / "litellm.yaml"
    config.write_text(
        "model_list:\n"
        "  - model_name: bench\n"
        "    litellm_params:\n"
        f"      model: anthropic/{UPSTREAM_MODEL}\n"
        f"      api_base: {upstream}\n"
        f"      api_key: os.environ/{UPSTREAM_KEY_VARIABLE}\n"
        "litellm_settings:\n"
        "  callbacks: []\n"
        "  num_retries: 0\n"
        "  request_timeout: 60\n"
        "general_settings:\n"
        f"  master_key: {LITELLM_KEY}\n"
    )
    port = free_port()
    launch = Launch(
        "litellm",
        [*command, "--config", str(config), "--host", LOOPBACK, "--port", str(port),
         "--num_workers", "1"],
        port,
        LITELLM_START_BOUND,
    )  # fmt: skip
    headers = {"authorization": f"Bearer {LITELLM_KEY}"}
    way = Way(f"http://{LOOPBACK}:{port}/v1/chat/completions", headers, chat_body())
    return Server("LiteLLM proxy", launch, way, "x-litellm-overhead-duration-ms")


def direct_way(upstream: str) -> Way:
    headers = {"x-api-key": "sk-bench", "anthropic-version": "2023-06-01"}
    body = {
        "model": UPSTREAM_MODEL,
        "max_tokens": 400,
        "messages": [{"role": "user", "content": QUESTION}],
    }
    return Way(f"{upstream}/v1/messages", headers, body)


@dataclass
class Row:
    way: str
    requests: int
    p50_ms: float
    p99_ms: float
    added_p50_ms: float
    added_p99_ms: float
    p50_ratio: float
    own_overhead_p50_ms: float  # the server's own overhead header; 0 for direct
    rps: float
    rps_ratio: float  # against direct
    rps_against_litellm: float  # 0 when LiteLLM's proxy is left out


async def answers(client: Any, ways: dict[str, Way]) -> None:
    """Each way's answer once: a 200 carrying the recorded answer's text."""
    for name, way in ways.items():
        response = await client.post(way.url, headers=way.headers, json=way.body)
        if response.status_code != 200 or ANSWER not in response.text:
            raise RuntimeError(f"{name}: {response.status_code} {response.text[:500]}")


async def in_rotation(
    client: Any, ways: dict[str, Way], rounds: int, bound: float
) -> dict[str, list[float]]:
    """Each way once a round, one request at a time, the order rotated; bounded in time."""
    names = list(ways)
    times: dict[str, list[float]] = {name: [] for name in names}
    deadline = time.monotonic() + bound
    for index in range(rounds):
        if time.monotonic() > deadline:
            break
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            times[name].append(await whole(client, ways[name]))
    return times


async def own_overhead(client: Any, server: Server, count: int) -> float:
    values = []
    for _ in range(count):
        response = await client.post(
            server.way.url, headers=server.way.headers, json=server.way.body
        )
        values.append(float(response.headers[server.overhead_header]))
    return statistics.median(values)


async def measure(plan: Plan, direct: Way, servers: list[Server]) -> list[Row]:
    import httpx

    ways = {"direct": direct, **{server.name: server.way for server in servers}}
    limits = httpx.Limits(max_connections=plan.in_flight + 8)
    async with httpx.AsyncClient(limits=limits, timeout=60.0) as client:
        await answers(client, ways)
        await in_rotation(client, ways, 20, 30.0)  # warm-up
        times = await in_rotation(client, ways, plan.pairs, 120.0)
        overheads = {server.name: await own_overhead(client, server, 50) for server in servers}
        rps = {name: await saturate(client, way, plan) for name, way in ways.items()}
    ms = 1000.0
    base50, base99 = percentile(times["direct"], 0.5) * ms, percentile(times["direct"], 0.99) * ms
    litellm = rps.get("LiteLLM proxy", 0.0)
    rows = []
    for name, values in times.items():
        p50, p99 = percentile(values, 0.5) * ms, percentile(values, 0.99) * ms
        rows.append(
            Row(
                way=name, requests=len(values), p50_ms=p50, p99_ms=p99,
                added_p50_ms=p50 - base50, added_p99_ms=p99 - base99, p50_ratio=p50 / base50,
                own_overhead_p50_ms=overheads.get(name, 0.0), rps=rps[name],
                rps_ratio=rps[name] / rps["direct"],
                rps_against_litellm=rps[name] / litellm if litellm else 0.0,
            )
        )  # fmt: skip
    return rows


def print_rows(rows: list[Row], plan: Plan, notes: list[str]) -> None:
    print(
        "A small chat from an OpenAI Chat Completions client, answered in Anthropic Messages\n"
        "by the fake upstream: through each server (one worker) and direct, in the same run "
        f"({os.cpu_count()} cores; {plan.in_flight} in flight at saturation).\n"
    )
    header = (
        f"{'way':<26}{'p50':>9}{'p99':>9}{'added p50':>11}{'added p99':>11}{'p50 ratio':>10}"
        f"{'own p50':>9}{'req/s':>8}{'vs direct':>10}{'vs LiteLLM':>11}"
    )
    print(header)
    print("-" * len(header))
    for r in rows:
        against = f"{r.rps_against_litellm:>10.2f}x" if r.rps_against_litellm else f"{'-':>11}"
        print(
            f"{r.way:<26}{r.p50_ms:>7.2f}ms{r.p99_ms:>7.2f}ms{r.added_p50_ms:>9.2f}ms"
            f"{r.added_p99_ms:>9.2f}ms{r.p50_ratio:>9.2f}x{r.own_overhead_p50_ms:>7.2f}ms"
            f"{r.rps:>8.0f}{r.rps_ratio:>9.2f}x{against}"
        )
    print(f"\n({rows[0].requests} requests each way for the percentiles; own p50: the server's "
          "own overhead header.)")  # fmt: skip
    for note in notes:
        print(note)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="fewer requests")
    sizes.add_argument("--tiny", action="store_true", help="a handful of requests (the tests)")
    parser.add_argument("--no-litellm", action="store_true", help="leave LiteLLM's proxy out")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    args = parser.parse_args(argv)
    plan = TINY if args.tiny else QUICK if args.quick else FULL
    notes = []
    command = None
    if not args.no_litellm:
        unready = prepare_litellm()
        if unready is None:
            command = litellm_command()
        else:
            notes.append(f"LiteLLM's proxy ({LITELLM_PROXY}) left out: {unready}.")
    env = {
        **os.environ,
        "INTERLINGUA_GATEWAY_KEYS": GATEWAY_KEY,
        UPSTREAM_KEY_VARIABLE: "sk-bench",
        # LiteLLM reads its model prices from the network unless told to use its own copy.
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        upstream_port = free_port()
        upstream = f"http://{LOOPBACK}:{upstream_port}"
        servers = gateway_servers(folder, upstream, env)
        if command is not None:
            servers.append(litellm_server(folder, upstream, command))
        launches = [fake_upstream_launch(upstream_port), *(server.launch for server in servers)]
        with running(folder, env, launches):
            rows = asyncio.run(measure(plan, direct_way(upstream), servers))
    print_rows(rows, plan, notes)
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {"plan": asdict(plan), "rows": [asdict(r) for r in rows], "notes": notes}, indent=2
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
