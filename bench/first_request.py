"""A gateway worker's first request against the ones after it, before and after the
gateway readied its upstreams at start-up.

Run from the repository root:

    uv run python bench/first_request.py                # about a minute
    uv run python bench/first_request.py --quick        # fewer starts and requests
    uv run python bench/first_request.py --before REF   # against another tree than the default
    uv run python bench/first_request.py --json results.json

Two trees of the project are measured in the same run: this one, and the one before
(`--before`, by default the parent of the commit that brought the start-up's readying,
found with `git log -S`), taken from git with `git archive` into a temporary folder and
put first on the gateway's `PYTHONPATH` (the same environment, its dependencies
included, runs both). For each tree and each case, the gateway (`interlingua gateway`,
one worker, its own process, both routes configured) is started in front of the fake
upstream of `bench/gateway.py` (its own process, answering at once from the project's
recordings), `starts` times; each time the first request is timed, then the next ones,
one at a time. The gateways keep their bytecode (in the temporary folder), as a deployed
one does, and a first start of each case, unmeasured, writes it. The cases:

- an Anthropic client (`POST /v1/messages`) routed to a Chat Completions upstream (the
  `openai` SDK's);
- an OpenAI client (`POST /v1/chat/completions`) routed to an Anthropic upstream (the
  `anthropic` SDK's, the slowest to import).

Reported per tree and case, as medians over the starts: the time the worker took to
start (until it listens), the first request, the median of the next ones, and their
ratio. The HTTP client is readied on the fake upstream first, so that the first
request's time is the gateway's. Every wait is bounded and every process stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gateway import (
    GATEWAY_KEY,
    LOOPBACK,
    MODEL,
    UPSTREAM_KEY_VARIABLE,
    Launch,
    fake_upstream_launch,
    free_port,
    running,
    wait_listening,
)

ROOT = Path(__file__).resolve().parents[1]
# What the commit that readies the upstreams at start-up brought: found in the history
# with `git log -S`, its parent is the tree before.
READYING = "def ready("
READYING_PATH = "src/interlingua/gateway/_upstream.py"
QUESTION = "Is it raining in Lisbon right now?"
REQUEST_BOUND = 60.0  # seconds one request may take


@dataclass(frozen=True)
class Plan:
    starts: int  # gateway starts per tree and case
    next_requests: int  # requests after the first, per start


FULL = Plan(starts=5, next_requests=30)
QUICK = Plan(starts=2, next_requests=10)


@dataclass(frozen=True)
class Case:
    name: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


CASES = [
    Case(
        "Anthropic client -> Chat Completions upstream",
        "/v1/messages",
        {"x-api-key": GATEWAY_KEY, "anthropic-version": "2023-06-01"},
        {
            "model": "to-chat",
            "max_tokens": 400,
            "messages": [{"role": "user", "content": QUESTION}],
        },
    ),
    Case(
        "OpenAI client -> Anthropic upstream",
        "/v1/chat/completions",
        {"authorization": f"Bearer {GATEWAY_KEY}"},
        {"model": "to-messages", "messages": [{"role": "user", "content": QUESTION}]},
    ),
]

# The fake upstream asked directly, to ready the HTTP client before the gateway's first request.
DIRECT = Case(
    "direct",
    "/v1/chat/completions",
    {"authorization": "Bearer sk-bench"},
    {"model": MODEL, "messages": [{"role": "user", "content": QUESTION}]},
)


@dataclass
class Result:
    tree: str
    case: str
    starts: int
    start_up_s: float
    first_ms: float
    next_median_ms: float
    ratio: float


def git(*args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def default_before() -> str:
    """The parent of the commit that brought the start-up's readying."""
    found = git("log", "--format=%H", "-S", READYING, "--", READYING_PATH).splitlines()
    if not found:
        raise SystemExit(
            f"no commit brings {READYING!r} to {READYING_PATH} yet: name the tree before "
            "with --before REF"
        )
    return f"{found[-1]}^"


def extract(ref: str, folder: Path) -> Path:
    """The tree at `ref` (its sources and adapters) in `folder`."""
    archive = folder / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(
            ["git", "archive", "--format=tar", ref, "src", "adapters"],
            cwd=ROOT, stdout=out, check=True, timeout=120,
        )  # fmt: skip
    tree = folder / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def python_path(tree: Path | None) -> str:
    """`PYTHONPATH` putting `tree`'s packages before the installed ones (none: as installed)."""
    if tree is None:
        return os.environ.get("PYTHONPATH", "")
    roots = [tree / "src", *sorted((tree / "adapters").glob("*/src"))]
    return os.pathsep.join(str(root) for root in roots)


def write_config(folder: Path, upstream_port: int) -> Path:
    config = folder / "gateway.toml"
    upstream = f"http://{LOOPBACK}:{upstream_port}"
    config.write_text(
        f'[models.to-chat]\nupstream = "openai:{MODEL}"\n'
        '[models.to-messages]\nupstream = "anthropic:claude-sonnet-4-5"\n'
        f'[upstreams.openai]\nbase_url = "{upstream}/v1"\n'
        f'api_key_env = "{UPSTREAM_KEY_VARIABLE}"\ntimeout = 60.0\n'
        f'[upstreams.anthropic]\nbase_url = "{upstream}"\n'
        f'api_key_env = "{UPSTREAM_KEY_VARIABLE}"\ntimeout = 60.0\n'
    )
    return config


def timed(client: Any, url: str, case: Case) -> float:
    started = time.perf_counter()
    response = client.post(url, headers=case.headers, json=case.body)
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"{url}: {response.status_code} {response.text[:500]}")
    return elapsed


def one_start(
    folder: Path, env: dict[str, str], config: Path, upstream: str, case: Case, plan: Plan
) -> tuple[float, float, list[float]]:
    """A gateway started: its start-up time, its first request's, the next ones'."""
    import httpx

    port = free_port()
    command = [sys.executable, "-m", "interlingua.cli", "gateway", "--config", str(config),
               "--host", LOOPBACK, "--port", str(port), "--log", "json"]  # fmt: skip
    log = folder / "gateway.log"
    with httpx.Client(timeout=REQUEST_BOUND) as client:
        timed(client, f"{upstream}{DIRECT.path}", DIRECT)  # the HTTP client readied
        started = time.perf_counter()
        with log.open("wb") as out:
            process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
        try:
            wait_listening(port, process, log)
            start_up = time.perf_counter() - started
            url = f"http://{LOOPBACK}:{port}{case.path}"
            first = timed(client, url, case)
            rest = [timed(client, url, case) for _ in range(plan.next_requests)]
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
    return start_up, first, rest


def gateway_environment(base: dict[str, str], tree: Path | None, folder: Path) -> dict[str, str]:
    """The gateway's environment for `tree`: its packages first, and its bytecode kept
    (in `folder`, the trees left as they are), as a deployed gateway's is."""
    env = {**base, "PYTHONPATH": python_path(tree), "PYTHONPYCACHEPREFIX": str(folder / "pyc")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure(trees: dict[str, Path | None], plan: Plan, folder: Path) -> list[Result]:
    upstream_port = free_port()
    config = write_config(folder, upstream_port)
    base = {**os.environ, "INTERLINGUA_GATEWAY_KEYS": GATEWAY_KEY, UPSTREAM_KEY_VARIABLE: "sk-x"}
    upstream = f"http://{LOOPBACK}:{upstream_port}"
    results = []
    launches: list[Launch] = [fake_upstream_launch(upstream_port)]
    with running(folder, base, launches):
        environments = {
            name: gateway_environment(base, tree, folder) for name, tree in trees.items()
        }
        for env in environments.values():  # a start of each case unmeasured: the bytecode written
            for case in CASES:
                one_start(folder, env, config, upstream, case, replace(plan, next_requests=0))
        for case in CASES:
            for name, env in environments.items():
                runs = [
                    one_start(folder, env, config, upstream, case, plan) for _ in range(plan.starts)
                ]
                first = statistics.median(first for _, first, _ in runs) * 1000
                following = statistics.median(statistics.median(rest) for *_, rest in runs) * 1000
                start_up = statistics.median(start for start, *_ in runs)
                results.append(
                    Result(
                        name, case.name, len(runs), start_up, first, following, first / following
                    )
                )
    return results


def print_results(results: list[Result], before: str) -> None:
    print(
        f"A gateway worker's first request against the median of the next ones "
        f"({os.cpu_count()} cores; 'before' is {before}).\n"
    )
    header = f"{'tree':<8}{'case':<48}{'start-up':>10}{'first':>11}{'next':>10}{'first/next':>12}"
    print(header)
    print("-" * len(header))
    for r in results:
        print(
            f"{r.tree:<8}{r.case:<48}{r.start_up_s:>9.2f}s{r.first_ms:>9.1f}ms"
            f"{r.next_median_ms:>8.2f}ms{r.ratio:>11.1f}x"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer starts and requests")
    parser.add_argument("--before", metavar="REF", help="the tree to compare this one with")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    before = args.before or default_before()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        trees = {"before": extract(before, folder), "after": None}
        results = measure(trees, plan, folder)
    print_results(results, git("rev-parse", "--short", before))
    if args.json:
        document = {"before": before, "plan": asdict(plan), "results": [asdict(r) for r in results]}
        Path(args.json).write_text(json.dumps(document, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
