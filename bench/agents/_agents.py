"""The agents, each as it is run headless against the gateway: the API it
speaks, the model it asks for, its command and environment for a case, and
how its output is read.

Every agent gets a small environment of its own (no variable of this process
passes but `PATH`): its home in the scratch folder, the gateway's key, and
every HTTP(S) proxy variable pointing at the stage's sink, so that a
connection meant anywhere but 127.0.0.1 is refused and shows in the table.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.agents._install import HERE, Installed

CASES = ("tool", "stream", "structured", "429", "broken")
KEY_VARIABLE = "INTERLINGUA_GATEWAY_KEY"
PROMPT = "Weather in Lisbon? Run `echo interlingua-tool-ok` first, then answer."  # < 80: kept
# The schema the structured case asks for; its scripted answer is `fill(FORECAST)`.
FORECAST: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "conditions": {"type": "string", "enum": ["lisbon", "sunny", "rain"]},
        "temperature": {"type": "number"},
        "warnings": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["city", "conditions", "temperature", "warnings"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class Run:
    """Where a lane runs: the gateway's address (the recording proxy), the key,
    the sink's port, and a working folder of its own."""

    base_url: str
    key: str
    sink: int
    folder: Path
    installed: Installed


@dataclass(frozen=True)
class Outcome:
    """What an agent ended with: its final text, its structured answer, or its error."""

    text: str = ""
    object: Any = None
    error: str = ""


@dataclass(frozen=True)
class Agent:
    name: str  # the fixture folder: fixtures/agents/<name>/
    api: str  # the gateway's client API it speaks (an adapter's name)
    models: tuple[str, ...]  # the model names it asks for; the first is the lane's
    command: Callable[[Run, str], list[str]]
    env: Callable[[Run], dict[str, str]]
    read: Callable[[str, Run], Outcome]
    not_applicable: dict[str, str] = field(default_factory=dict)  # case -> why not


def base_env(run: Run) -> dict[str, str]:
    sink = f"http://127.0.0.1:{run.sink}"
    home = run.installed.scratch / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": f"{run.installed.node / 'node_modules' / '.bin'}:{os.environ.get('PATH', '')}",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        KEY_VARIABLE: run.key,
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }
    for name in ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY"):
        env[name] = env[name.lower()] = sink
    return env


# --- Claude Code ---


def claude_command(run: Run, case: str) -> list[str]:
    command = [str(run.installed.claude), "-p", PROMPT, "--output-format", "json"]
    command += ["--model", CLAUDE_MODELS[0], "--allowedTools", "Bash(echo:*)"]
    command += ["--no-session-persistence"]
    if case == "structured":
        command += ["--json-schema", json.dumps(FORECAST)]
    return command


def claude_env(run: Run) -> dict[str, str]:
    return {
        **base_env(run),
        "CLAUDE_CONFIG_DIR": str(run.installed.scratch / "claude-config"),
        "ANTHROPIC_BASE_URL": run.base_url,
        "ANTHROPIC_API_KEY": run.key,
        "ANTHROPIC_DEFAULT_HAIKU_MODEL": CLAUDE_MODELS[1],  # its small model, routed too
        # No traffic but the API's: no telemetry, error reports, updates or feedback.
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_BUG_COMMAND": "1",
        "API_TIMEOUT_MS": "60000",
    }


def claude_read(stdout: str, run: Run) -> Outcome:
    try:
        result = json.loads(stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return Outcome(error=f"no JSON result: {stdout.strip()[-200:]}")
    if result.get("is_error"):
        return Outcome(error=f"{result.get('subtype')}: {str(result.get('result'))[:200]}")
    return Outcome(text=str(result.get("result", "")), object=result.get("structured_output"))


CLAUDE_MODELS = ("claude-sonnet-4-5", "claude-haiku-4-5")
ALWAYS_STREAMS = "always streams: its tool lane is the streamed one"

# --- Codex ---

CODEX_MODEL = "gpt-5.1-codex"


def codex_config(run: Run) -> Path:
    """`CODEX_HOME`, its config.toml made for this run: the gateway as a
    Responses provider, nothing else reached (updates, analytics, plugins,
    apps, the hosted web search a gateway cannot serve from elsewhere)."""
    home = run.installed.scratch / "codex-home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        f'model = "{CODEX_MODEL}"\n'
        'model_provider = "interlingua"\n'
        "check_for_update_on_startup = false\n"
        'web_search = "disabled"\n'
        "tool_output_token_limit = 10000\n"
        "[model_providers.interlingua]\n"
        'name = "interlingua gateway"\n'
        f'base_url = "{run.base_url}/v1"\n'
        f'env_key = "{KEY_VARIABLE}"\n'
        'wire_api = "responses"\n'
        "request_max_retries = 2\n"
        "stream_max_retries = 2\n"
        "[analytics]\nenabled = false\n"
        "[feedback]\nenabled = false\n"
        "[features]\n"
        "plugins = false\nremote_plugin = false\nplugin_sharing = false\n"
        "apps = false\ntool_suggest = false\n"
    )
    return home


def codex_command(run: Run, case: str) -> list[str]:
    last = run.folder / "last-message.txt"
    command = [str(run.installed.codex), "exec", "--skip-git-repo-check", "--ephemeral"]
    command += ["--sandbox", "workspace-write", "--color", "never", "-o", str(last)]
    if case == "structured":
        schema = run.folder / "schema.json"
        schema.write_text(json.dumps(FORECAST))
        command += ["--output-schema", str(schema)]
    return [*command, PROMPT]


def codex_env(run: Run) -> dict[str, str]:
    return {**base_env(run), "CODEX_HOME": str(codex_config(run))}


def codex_read(stdout: str, run: Run) -> Outcome:
    last = run.folder / "last-message.txt"
    text = last.read_text().strip() if last.is_file() else ""
    if not text:
        return Outcome(error="no last message")
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    return Outcome(text=text, object=value)


# --- the Vercel AI SDK and the OpenAI Agents SDK: our drivers ---


def driver_read(stdout: str, run: Run) -> Outcome:
    try:
        result = json.loads(stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return Outcome(error=f"no JSON result: {stdout.strip()[-200:]}")
    if result.get("error"):
        return Outcome(error=str(result["error"]))
    return Outcome(text=str(result.get("text", "")), object=result.get("object"))


def ai_sdk(provider: str, api: str, model: str) -> Agent:
    def command(run: Run, case: str) -> list[str]:
        return ["node", str(run.installed.ai_sdk), provider, case, run.base_url, model]

    return Agent(f"ai-sdk-{provider}", api, (model,), command, base_env, driver_read)


def agents_sdk(kind: str, api: str) -> Agent:
    driver = HERE / "agents_sdk.py"

    def command(run: Run, case: str) -> list[str]:
        return [str(run.installed.python), str(driver), kind, case, run.base_url, "gpt-4.1-mini"]

    def env(run: Run) -> dict[str, str]:
        return {**base_env(run), "OPENAI_AGENTS_DISABLE_TRACING": "1"}

    return Agent(f"agents-sdk-{kind}", api, ("gpt-4.1-mini",), command, env, driver_read)


AGENTS = (
    Agent(
        "claude-code",
        "anthropic",
        CLAUDE_MODELS,
        claude_command,
        claude_env,
        claude_read,
        {"stream": ALWAYS_STREAMS},
    ),
    Agent(
        "codex",
        "openai-responses",
        (CODEX_MODEL,),
        codex_command,
        codex_env,
        codex_read,
        {"stream": ALWAYS_STREAMS},
    ),
    ai_sdk("openai-chat", "openai", "gpt-4.1-mini"),
    ai_sdk("openai-responses", "openai-responses", "gpt-4.1-mini"),
    ai_sdk("anthropic", "anthropic", "claude-sonnet-4-5"),
    ai_sdk("google", "google", "gemini-2.5-flash"),
    agents_sdk("responses", "openai-responses"),
    agents_sdk("chat", "openai"),
)
