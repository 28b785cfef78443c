"""`bench/agents`' own parts, without the agents: the script, the stage and the
gateway run as the bench runs them, a real SDK in the agent's place, and the
fixtures' filler."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openai

from bench.agents._agents import FORECAST, Outcome
from bench.agents._fixtures import filler, write_fixture
from bench.agents._judge import PASS, Records, judge
from bench.agents._lanes import GATEWAY_KEY, control, gateway, staged
from bench.agents._script import FINAL_TEXT, TOOL_WORD, Tool, plan

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
    "required": ["city"],
}


def test_the_script_calls_a_tool_then_answers_and_fills_a_schema() -> None:
    tools = [Tool("get_weather", WEATHER), Tool("Bash", {})]

    first = plan(tools, [], None)
    assert (first.tool, first.arguments) == ("Bash", {"command": f"echo {TOOL_WORD}",
                                                      "description": "Print a word"})  # fmt: skip
    assert plan(tools[:1], [], None).arguments == {"city": "lisbon"}  # the required alone
    assert plan(tools, ["done"], None).text == FINAL_TEXT
    answer = json.loads(plan(tools, ["done"], FORECAST).text)
    assert answer == {"city": "lisbon", "conditions": "lisbon", "temperature": 1,
                      "warnings": ["lisbon"]}  # fmt: skip
    assert set(answer) == set(FORECAST["required"])


def test_a_tool_loop_of_a_real_sdk_through_the_stage_and_the_gateway_passes(
    tmp_path: Path,
) -> None:
    with staged(tmp_path) as stage, gateway(tmp_path, stage, "anthropic", "content", False):
        control(stage, {"lane": "sdk/anthropic/tool", "case": "tool"})
        client = openai.OpenAI(base_url=f"{stage.proxy}/v1", api_key=GATEWAY_KEY, max_retries=0)
        tools: Any = [{"type": "function", "function": {"name": "get_weather",
                                                        "parameters": WEATHER}}]  # fmt: skip
        messages: list[Any] = [{"role": "user", "content": "Weather in Lisbon?"}]
        first = client.chat.completions.create(model="gpt-4.1-mini", messages=messages, tools=tools)
        call = first.choices[0].message.tool_calls[0]  # type: ignore[index]
        messages += [
            first.choices[0].message.model_dump(exclude_none=True),
            {"role": "tool", "tool_call_id": call.id, "content": f"{TOOL_WORD}: 21 C"},
        ]
        last = client.chat.completions.create(model="gpt-4.1-mini", messages=messages, tools=tools)
        client.close()
        seen = control(stage)

    records = Records(seen["proxy"], seen["upstream"], seen["outside"])
    outcome = Outcome(text=last.choices[0].message.content or "")
    assert judge("tool", "openai", "anthropic", outcome, records, timed_out=False) == PASS
    # The upstream got Anthropic's Messages, the tool and its result in them.
    assert [record["path"] for record in records.upstream] == ["/v1/messages"] * 2
    assert records.upstream[0]["body"]["tools"][0]["name"] == "get_weather"
    assert records.upstream[1]["results"] == [f"{TOOL_WORD}: 21 C"]
    # The agent's side: its own API's request, no key among the headers kept.
    assert records.proxy[0]["json"]["messages"] == messages[:1]
    assert "authorization" not in records.proxy[0]["headers"]
    # Without the tool's output reaching the upstream, the lane fails, and says why.
    records.upstream[1]["results"] = ["nothing"]
    verdict = judge("tool", "openai", "anthropic", outcome, records, timed_out=False)
    assert verdict == "the tool result lacks the tool's output: nothing"


def test_a_fixture_keeps_the_shapes_and_replaces_prose_and_run_ids(tmp_path: Path) -> None:
    prose = "You are a careful agent. " * 8
    session = "0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"
    record = {
        "method": "POST",
        "path": "/v1/messages",
        "query": "beta=true",
        "headers": {"anthropic-beta": "claude-code-20250219"},
        "json": {
            "system": [{"type": "text", "text": prose, "cache_control": {"type": "ephemeral"}}],
            "metadata": {"user_id": json.dumps({"session_id": session})},
            "messages": [{"role": "user", "content": "Hi"}, {"role": "user", "content": session}],
        },
        "status": 200,
        "answer_headers": {"content-type": "application/json"},
        "answer": json.dumps({"id": "msg_1", "created_at": 1796541876}),
    }
    path = tmp_path / "tool.json"

    write_fixture(path, "a test", [record], "anthropic", {})

    written = json.loads(path.read_text())["interactions"][0]
    body = written["request"]["json"]
    assert body["system"] == [
        {"type": "text", "text": filler(len(prose)), "cache_control": {"type": "ephemeral"}}
    ]
    steady = "00000000-0000-4000-8000-000000000001"
    assert body["metadata"]["user_id"] == json.dumps({"session_id": steady})
    assert body["messages"] == [{"role": "user", "content": "Hi"},
                                {"role": "user", "content": steady}]  # fmt: skip
    assert written["request"]["url"] == "https://api.anthropic.com/v1/messages?beta=true"
    assert written["response"]["json"] == {"id": "msg_1", "created_at": 1767225600}
