"""The servers a run needs and the lanes it runs: the stage (scripted
upstream, recording proxy, sink) for the whole run, and the gateway, started
anew for each upstream API with a configuration routing every model name the
agents ask for to that API; then each agent, once a case, as a process bounded
in time, its whole process group ended when it is done, times out or the run
is interrupted.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.agents._agents import AGENTS, Agent, Outcome, Run
from bench.agents._install import Installed
from bench.agents._judge import Records, judge
from bench.gateway import LOOPBACK, Launch, free_port, running

GATEWAY_KEY = "gk-agents-bench"
UPSTREAM_KEY_VARIABLE = "INTERLINGUA_AGENTS_UPSTREAM_KEY"
UPSTREAMS = ("openai", "anthropic", "google", "openai-responses")
# The model each upstream API is asked for, whatever the agent asked the gateway.
UPSTREAM_MODELS = {
    "openai": "gpt-4.1-mini",
    "anthropic": "claude-sonnet-4-5",
    "google": "gemini-2.5-flash",
    "openai-responses": "gpt-4.1-mini",
}
# Where each upstream API's client finds the stage (its SDK adds the rest of the path).
UPSTREAM_PATHS = {"openai": "/v1", "anthropic": "", "google": "", "openai-responses": "/v1"}
# The routes by pattern (`--exact-names`: one for each name the agents ask for instead).
PATTERNS = ("claude-*", "gpt-*", "gemini-*")


@dataclass(frozen=True)
class Stage:
    upstream: str  # the scripted upstream's base URL (and the lane control)
    proxy: str  # what the agents are pointed at: the recording proxy before the gateway
    sink: int
    gateway_port: int


@dataclass
class LaneResult:
    agent: str
    api: str
    upstream: str
    case: str
    verdict: str
    seconds: float = 0.0
    proxy: list[dict[str, Any]] = field(default_factory=list)


def gateway_config(upstream: str, stage: Stage, strict: str, patterns: bool) -> str:
    """The gateway's TOML: every model name the agents ask for, routed to `upstream`."""
    names = PATTERNS if patterns else sorted({m for agent in AGENTS for m in agent.models})
    strict_value = strict if strict in ("true", "false") else f'"{strict}"'
    lines = [f"strict = {strict_value}", "timeout = 60.0"]
    for name in names:
        lines += [f'[models."{name}"]', f'upstream = "{upstream}:{UPSTREAM_MODELS[upstream]}"']
    for api, path in UPSTREAM_PATHS.items():
        lines += [f'[upstreams."{api}"]', f'base_url = "{stage.upstream}{path}"']
        lines += [f'api_key_env = "{UPSTREAM_KEY_VARIABLE}"']
    return "\n".join(lines) + "\n"


def server_env() -> dict[str, str]:
    return {
        **os.environ,
        "INTERLINGUA_GATEWAY_KEYS": GATEWAY_KEY,
        UPSTREAM_KEY_VARIABLE: "sk-upstream-script",
    }


@contextmanager
def staged(folder: Path) -> Iterator[Stage]:
    ports = [free_port() for _ in range(4)]
    stage = Stage(f"http://{LOOPBACK}:{ports[0]}", f"http://{LOOPBACK}:{ports[1]}", *ports[2:])
    command = [sys.executable, "-m", "bench.agents._stage", *map(str, ports[:3])]
    command.append(f"http://{LOOPBACK}:{stage.gateway_port}")
    with running(folder, server_env(), [Launch("stage", command, ports[0])]):
        yield stage


@contextmanager
def gateway(
    folder: Path, stage: Stage, upstream: str, strict: str, patterns: bool
) -> Iterator[None]:
    config = folder / f"gateway-{upstream}.toml"
    config.write_text(gateway_config(upstream, stage, strict, patterns))
    command = [sys.executable, "-m", "interlingua.cli", "gateway", "--config", str(config),
               "--host", LOOPBACK, "--port", str(stage.gateway_port), "--log", "json"]  # fmt: skip
    with running(
        folder, server_env(), [Launch(f"gateway-{upstream}", command, stage.gateway_port)]
    ):
        yield


def control(stage: Stage, body: dict[str, str] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{stage.upstream}/_lane", data=data)
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read()
    return json.loads(text) if text else None


def run_agent(
    command: list[str], env: dict[str, str], cwd: Path, bound: float
) -> tuple[str, str, bool]:
    """The agent's standard output and error, and whether it ran out of time; its
    process group is ended whatever happens."""
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    timed_out = False
    try:
        out, err = process.communicate(timeout=bound)
    except subprocess.TimeoutExpired:
        timed_out = True
        _end_group(process)
        out, err = process.communicate()
    finally:
        _end_group(process)
    return out, err, timed_out


def _end_group(process: subprocess.Popen[str]) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.wait(10)


def lane(
    agent: Agent, case: str, upstream: str, stage: Stage, installed: Installed, bound: float
) -> LaneResult:
    result = LaneResult(agent.name, agent.api, upstream, case, "n/a")
    if case in agent.not_applicable:
        result.verdict = f"n/a: {agent.not_applicable[case]}"
        return result
    folder = installed.scratch / "work" / f"{agent.name}-{upstream}-{case}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    run = Run(stage.proxy, GATEWAY_KEY, stage.sink, folder, installed)
    control(stage, {"lane": f"{agent.name}/{upstream}/{case}", "case": case})
    started = time.monotonic()
    out, err, timed_out = run_agent(agent.command(run, case), agent.env(run), folder, bound)
    result.seconds = time.monotonic() - started
    outcome = agent.read(out, run)
    if outcome.error and err.strip():
        last = [line for line in err.strip().splitlines() if line.strip()][-1]
        outcome = Outcome(outcome.text, outcome.object, f"{outcome.error} ({last.strip()[:120]})")
    seen = control(stage)
    records = Records(seen["proxy"], seen["upstream"], seen["outside"])
    result.verdict = judge(case, agent.api, upstream, outcome, records, timed_out=timed_out)
    result.proxy = records.proxy
    return result
