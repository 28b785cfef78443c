"""The agents, installed into a scratch folder outside the repository, at the
versions the table was made with (`NPM`, `PYPI`: the one place they are pinned).

    <scratch>/node/            npm packages: Claude Code, Codex, the AI SDK
    <scratch>/agents-sdk/      a venv holding openai-agents (uv)
    <scratch>/pins.json        what is installed there: a run whose pins match installs nothing

Only the npm registry and PyPI are reached, through npm and uv.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

NPM = {
    "@anthropic-ai/claude-code": "2.1.332",
    "@openai/codex": "0.171.0",
    "ai": "7.0.185",
    "@ai-sdk/openai": "4.0.126",
    "@ai-sdk/anthropic": "4.0.112",
    "@ai-sdk/google": "4.0.129",
    "zod": "4.6.7",
}
PYPI = {"openai-agents": "0.24.0"}
INSTALL_BOUND = 900.0  # seconds an install may take
HERE = Path(__file__).resolve().parent
DEFAULT_SCRATCH = Path.home() / ".cache" / "interlingua-agents"


@dataclass(frozen=True)
class Installed:
    """Where each agent's program is."""

    scratch: Path
    node: Path  # the folder holding node_modules, and the AI SDK driver
    claude: Path
    codex: Path
    python: Path  # the agents-sdk venv's interpreter

    @property
    def ai_sdk(self) -> Path:
        return self.node / "ai_sdk.mjs"


def layout(scratch: Path) -> Installed:
    node = scratch / "node"
    return Installed(
        scratch=scratch,
        node=node,
        claude=node / "node_modules" / ".bin" / "claude",
        codex=node / "node_modules" / ".bin" / "codex",
        python=scratch / "agents-sdk" / "bin" / "python",
    )


def _run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=INSTALL_BOUND, check=False
    )
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise RuntimeError(f"{' '.join(command[:3])} failed: " + " / ".join(tail))


def install(scratch: Path) -> Installed:
    """The pinned agents in `scratch` (installed the first time, or when a pin changed)."""
    root = Path(__file__).resolve().parents[2]
    if scratch.resolve().is_relative_to(root):
        raise SystemExit(f"the scratch folder {scratch} is inside the repository: choose another")
    where = layout(scratch)
    stamp = scratch / "pins.json"
    pins = {"npm": NPM, "pypi": PYPI}
    if not (stamp.is_file() and json.loads(stamp.read_text()) == pins):
        where.node.mkdir(parents=True, exist_ok=True)
        package = where.node / "package.json"
        if not package.is_file():
            package.write_text(json.dumps({"name": "interlingua-agents", "private": True}))
        npm = shutil.which("npm")
        uv = shutil.which("uv")
        if npm is None or uv is None:
            raise SystemExit("bench/agents needs npm and uv on the PATH")
        specs = [f"{name}@{version}" for name, version in NPM.items()]
        print(f"installing into {scratch}: {', '.join(specs)}", file=sys.stderr)
        _run([npm, "install", "--no-audit", "--no-fund", "--save-exact", *specs], where.node)
        if not where.python.is_file():
            _run([uv, "venv", "--python", sys.executable, str(scratch / "agents-sdk")], scratch)
        agents = [f"{name}=={version}" for name, version in PYPI.items()]
        print(f"installing into {scratch}/agents-sdk: {', '.join(agents)}", file=sys.stderr)
        _run([uv, "pip", "install", "--python", str(where.python), *agents], scratch)
        stamp.write_text(json.dumps(pins, indent=1))
    # The driver is read from the repository each run; node resolves its imports
    # from the folder it is in, so it runs beside the packages.
    shutil.copyfile(HERE / "ai_sdk.mjs", where.ai_sdk)
    return where
