"""Real agents through the gateway, headless, against scripted upstreams.

Run from the repository root:

    uv run python -m bench.agents                      # every lane: about 3 to 4 minutes
    uv run python -m bench.agents --agents claude-code --upstreams anthropic --cases tool
    uv run python -m bench.agents --strict false       # the gateway not strict
    uv run python -m bench.agents --json table.json

The first run installs the agents, at the versions pinned in `_install.py`,
into a scratch folder (`~/.cache/interlingua-agents`, or `--scratch`; never
inside the repository), which later runs reuse: Claude Code and Codex CLI
(npm; Codex's native binary ships inside its package), the Vercel AI SDK with
its OpenAI, Anthropic and Google providers (npm, driven by `ai_sdk.mjs`), and
the OpenAI Agents SDK (PyPI, in a uv venv of its own, driven by
`agents_sdk.py`). That install takes a minute or two; nothing else is fetched.

Then, on 127.0.0.1 only (`_lanes.py`): the stage (`_stage.py`, one process:
the scripted upstream of every upstream API, the recording proxy in front of
the gateway, and a sink every agent's HTTP(S) proxy variables point at, so
that a connection meant elsewhere is refused and fails the lane), and, for
each upstream API in turn (Chat Completions, Anthropic Messages, Gemini, the
Responses API), `interlingua gateway` with a configuration routing every
model name the agents ask for to that API by the patterns `claude-*`,
`gpt-*` and `gemini-*` (`--exact-names`: a route for each name instead).
Each agent runs once per case, as a process bounded in time
(`--lane-timeout`), its process group ended afterwards, on a failure and on
Ctrl-C; every server is stopped at the end.

The cases: `tool` (the upstream calls a tool the agent declared, a shell
`echo` or our drivers' `get_weather`; the agent runs it and sends the result;
the upstream answers with the final text), `stream` (the same, streamed),
`structured` (the tool, then JSON to the schema the agent sent), `429` (the
first request answered 429 with `retry-after: 1`, then the tool loop) and
`broken` (the first stream cut after a few events). A lane passes on what
arrived (`_judge.py`): the agent's final output holds the scripted text or
object, the upstream saw the tool's output, a 429 reached the agent with its
`retry-after`, a cut stream reached it as an error event; and, where the
upstream speaks the agent's own API, the request went as it came (headers of
interest forwarded, the body unchanged but for the model). Claude Code and
Codex always stream: their `stream` lane is n/a.

The table (agent and case down, upstream API across) names each failure in a
few words; `--json` writes it. The requests each agent sent are written as
fixtures, `fixtures/agents/<agent>/<case>.json` (`_fixtures.py`: long prose
replaced by filler of the same length, run-to-run ids made steady, no key),
which `tests/test_agents_fixtures.py` translates to every API. The servers'
logs and configurations stay in `<scratch>/run/` until the next run.
"""
