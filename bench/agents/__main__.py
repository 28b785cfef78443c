"""`uv run python -m bench.agents`: the agents through the gateway, as a table
(the module docstring of `bench.agents` says what it does and how long)."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from dataclasses import asdict
from pathlib import Path

from bench.agents import _install
from bench.agents._agents import AGENTS, CASES
from bench.agents._fixtures import write_fixture
from bench.agents._install import DEFAULT_SCRATCH, install
from bench.agents._judge import PASS
from bench.agents._lanes import UPSTREAMS, LaneResult, gateway, lane, staged

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "agents"
CASE_TEXT = {
    "tool": "a tool loop: the upstream calls a tool the agent declared, the agent runs it "
    "and sends its result, and the upstream answers with the final text",
    "stream": "the tool loop, streamed",
    "structured": "structured output: a tool call, then an answer to the JSON schema the "
    "agent sent",
    "429": "the tool loop, whose first request the upstream answers 429 with retry-after: 1; "
    "the agent asks again",
    "broken": "the tool loop streamed, whose first stream the upstream cuts after a few events",
}
AGENT_TEXT = {
    "claude-code": f"Claude Code {_install.NPM['@anthropic-ai/claude-code']} (`claude -p`)",
    "codex": f"Codex CLI {_install.NPM['@openai/codex']} (`codex exec`, wire_api responses)",
    "agents-sdk-responses": f"the OpenAI Agents SDK {_install.PYPI['openai-agents']} "
    "(OpenAIResponsesModel)",
    "agents-sdk-chat": f"the OpenAI Agents SDK {_install.PYPI['openai-agents']} "
    "(OpenAIChatCompletionsModel)",
}


def agent_text(name: str) -> str:
    if name.startswith("ai-sdk-"):
        return f"the Vercel AI SDK {_install.NPM['ai']} ({name[7:]} provider)"
    return AGENT_TEXT[name]


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.agents", description=__doc__)
    parser.add_argument(
        "--scratch",
        type=Path,
        default=DEFAULT_SCRATCH,
        help=f"where the agents are installed (default {DEFAULT_SCRATCH})",
    )
    parser.add_argument("--agents", help="comma-separated agent names (default: all)")
    parser.add_argument("--upstreams", help=f"comma-separated, of {', '.join(UPSTREAMS)}")
    parser.add_argument("--cases", help=f"comma-separated, of {', '.join(CASES)}")
    parser.add_argument(
        "--strict",
        default="content",
        choices=["content", "setting", "true", "false"],
        help="the gateway's strict setting (default: content)",
    )
    parser.add_argument(
        "--exact-names",
        action="store_true",
        help="route each model name the agents ask for, not the patterns claude-*, gpt-*, gemini-*",
    )
    parser.add_argument("--lane-timeout", type=float, default=90.0, help="seconds per agent run")
    parser.add_argument("--json", metavar="PATH", help="also write the table as JSON")
    parser.add_argument("--no-fixtures", action="store_true", help="write no fixtures")
    return parser.parse_args(argv)


def chosen(value: str | None, known: tuple[str, ...]) -> tuple[str, ...]:
    if value is None:
        return known
    names = tuple(name.strip() for name in value.split(",") if name.strip())
    if unknown := [name for name in names if name not in known]:
        raise SystemExit(f"unknown: {', '.join(unknown)} (known: {', '.join(known)})")
    return names


def print_table(results: list[LaneResult], upstreams: tuple[str, ...]) -> None:
    """Agent and case down, upstream API across; a failure is a numbered note."""
    notes: dict[str, int] = {}
    cells = {}
    for r in results:
        if r.verdict == PASS or r.verdict.startswith("n/a"):
            cells[(r.agent, r.case, r.upstream)] = r.verdict.split(":")[0]
        else:
            number = notes.setdefault(r.verdict, len(notes) + 1)
            cells[(r.agent, r.case, r.upstream)] = f"FAIL {number}"
    rows = list(dict.fromkeys((r.agent, r.api, r.case) for r in results))
    head = f"{'agent (its API)':<42}{'case':<12}" + "".join(f"{u:<18}" for u in upstreams)
    print(head)
    print("-" * len(head))
    for agent, api, case in rows:
        line = f"{f'{agent} ({api})':<42}{case:<12}"
        print(line + "".join(f"{cells.get((agent, case, u), '-'):<18}" for u in upstreams))
    for verdict, number in notes.items():
        print(f"{number:>3}. {verdict}")
    reasons = {r.verdict for r in results if r.verdict.startswith("n/a: ")}
    for reason in sorted(reasons):
        print(f"  n/a: {reason[5:]}")
    passed = sum(r.verdict == PASS for r in results)
    counted = sum(not r.verdict.startswith("n/a") for r in results)
    print(f"\n{passed} of {counted} lanes pass.")


def save_fixtures(results: list[LaneResult], scratch: Path) -> list[Path]:
    """One fixture per agent and case, from the lane whose upstream speaks the
    agent's API where the gateway refused nothing there (its answers passed
    through), else from a passing lane; none where the run had neither."""
    written = []
    paths = {str(scratch): "/home/dev/agents", str(Path.home()): "/home/dev"}
    for agent in dict.fromkeys(r.agent for r in results):
        for case in CASES:
            lanes = [r for r in results if r.agent == agent and r.case == case and r.proxy]
            own = [r for r in lanes if r.upstream == r.api and not refused(r)]
            chosen = own or [r for r in lanes if r.verdict == PASS]
            if not chosen:
                continue
            best = chosen[0]
            path = FIXTURES / agent / f"{case}.json"
            description = (
                f"The requests {agent_text(agent)} sent the gateway headless, and the answers "
                f"it got (from a scripted upstream of the {best.upstream} API): "
                f"{CASE_TEXT[case]}. Recorded by bench/agents; its long prose replaced by "
                "placeholder text of the same length."
            )
            write_fixture(path, description, best.proxy, best.api, paths)
            written.append(path)
    return written


def refused(result: LaneResult) -> bool:
    """Whether the gateway answered the lane with an error other than the scripted 429."""
    return any(record.get("status", 0) >= 400 and record.get("status") != 429
               for record in result.proxy)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    agents = [a for a in AGENTS if a.name in chosen(args.agents, tuple(a.name for a in AGENTS))]
    upstreams = chosen(args.upstreams, UPSTREAMS)
    cases = chosen(args.cases, CASES)
    installed = install(args.scratch.expanduser().resolve())
    folder = installed.scratch / "run"  # the servers' logs and configs, kept until the next run
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    started = time.monotonic()
    results: list[LaneResult] = []
    with staged(folder) as stage:
        for upstream in upstreams:
            try:
                with gateway(folder, stage, upstream, args.strict, not args.exact_names):
                    for agent in agents:
                        for case in cases:
                            result = lane(
                                agent, case, upstream, stage, installed, args.lane_timeout
                            )
                            print(f"{agent.name:<24}{upstream:<18}{case:<12}{result.verdict}",
                                  file=sys.stderr, flush=True)  # fmt: skip
                            results.append(result)
            except RuntimeError as error:  # the gateway did not start
                reason = f"the gateway did not start: {str(error)[-120:]}"
                results += [
                    LaneResult(a.name, a.api, upstream, case, reason)
                    for a in agents
                    for case in cases
                ]
    print(f"\nThe agents through the gateway (strict = {args.strict}; "
          f"{time.monotonic() - started:.0f} s; logs in {folder}):\n")  # fmt: skip
    print_table(results, upstreams)
    if not args.no_fixtures:
        written = save_fixtures(results, installed.scratch)
        print(f"\n{len(written)} fixtures written under {FIXTURES.relative_to(ROOT)}/")
    if args.json:
        lanes = [{k: v for k, v in asdict(r).items() if k != "proxy"} for r in results]
        versions = {"npm": _install.NPM, "pypi": _install.PYPI}
        document = {"strict": args.strict, "versions": versions, "lanes": lanes}
        Path(args.json).write_text(json.dumps(document, indent=2) + "\n")
    return 0 if all(r.verdict == PASS or r.verdict.startswith("n/a") for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
