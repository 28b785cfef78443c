"""What an answer cost, as the gateway tells it (a real server, the upstreams
answered by the project's recordings): an `x-interlingua-cost` header on a
whole answer, absent where genai-prices has no price; the cost in the log
line, human and JSON, of a stream too (whose headers leave before its usage
comes). The expected prices are genai-prices' reading of the raw answers.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import genai_prices
import httpx
import pytest

from conftest import fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, Replay

KEY = fake_key("gk-")
BOUND = 30.0  # seconds any one wait may take
ANTHROPIC_ANSWER = recorded("anthropic/tool_round_trip_with_thinking.json")[1]
ANTHROPIC_STREAM = recorded("anthropic/stream_thinking_tool_use.json")[0]
OLLAMA_ANSWER = recorded("ollama/reasoning_answer.json")[0]
ROUTES = {
    "claude": {"upstream": "anthropic:claude-sonnet-4-5"},
    "local": {"upstream": "ollama:gpt-oss:20b"},
}
QUESTION = {"role": "user", "content": "Is it raining in Lisbon right now?"}


def serve(log: str) -> GatewayServer:
    settings = load(None, keys=[KEY], models=ROUTES, log=log)
    return GatewayServer(create_app(settings, default_key=fake_key("sk-")))


def upstream_replay(*interactions: Interaction) -> Replay:
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def ask(gateway: GatewayServer, model: str, *, stream: bool = False) -> httpx.Response:
    """A Chat Completions request to the gateway."""
    body: dict[str, Any] = {"model": model, "messages": [QUESTION], "stream": stream}
    headers = {"authorization": f"Bearer {KEY}"}
    url = f"{gateway.base_url}/v1/chat/completions"
    return httpx.post(url, json=body, headers=headers, timeout=BOUND)


def wire_price(body: dict[str, Any]) -> Decimal:
    """genai-prices' price of an Anthropic answer's raw body (it says not when it was made)."""
    extracted = genai_prices.extract_usage(body, provider_id="anthropic")
    total: Decimal = extracted.calc_price().total_price
    return total


def stream_price(payloads: list[Any]) -> Decimal:
    """The price of an Anthropic stream: its `message_start` usage, the counts of its
    last `message_delta` over them, read as one answer."""
    start = next(p["message"] for p in payloads if p.get("type") == "message_start")
    usage = dict(start["usage"])
    for payload in payloads:
        if payload.get("type") == "message_delta":
            usage.update(payload.get("usage") or {})
    return wire_price({"model": start["model"], "usage": usage})


def log_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [line for line in caplog.messages if line.startswith("POST /v1/chat/completions")]


def json_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    lines = (json.loads(line) for line in caplog.messages if line.startswith("{"))
    return [line for line in lines if line.get("path") == "/v1/chat/completions"]


def test_a_whole_answer_says_its_cost_in_a_header_and_the_log_line(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    price = wire_price(ANTHROPIC_ANSWER.response.json)

    with serve("human") as gateway, upstream_replay(ANTHROPIC_ANSWER):
        answer = ask(gateway, "claude")

    assert answer.status_code == 200, answer.text
    assert Decimal(answer.headers["x-interlingua-cost"]) == price > 0
    (line,) = log_lines(gateway_log)
    assert f"  cost=${price:f}  " in line


def test_the_json_log_line_has_the_cost_as_a_decimal_string(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    with serve("json") as gateway, upstream_replay(ANTHROPIC_ANSWER):
        answer = ask(gateway, "claude")

    (line,) = json_lines(gateway_log)
    assert line["cost"] == answer.headers["x-interlingua-cost"]
    assert Decimal(line["cost"]) == wire_price(ANTHROPIC_ANSWER.response.json)


def test_an_answer_with_no_price_has_no_cost_header_and_none_in_the_log(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    with serve("json") as gateway, upstream_replay(OLLAMA_ANSWER):
        answer = ask(gateway, "local")

    assert answer.status_code == 200, answer.text
    assert "x-interlingua-cost" not in answer.headers
    (line,) = json_lines(gateway_log)
    assert line["cost"] is None
    assert line["usage"]["input_tokens"] == OLLAMA_ANSWER.response.json["usage"]["prompt_tokens"]


@pytest.mark.parametrize("form", ["human", "json"])
def test_a_stream_s_cost_is_in_its_log_line_alone(
    gateway_log: pytest.LogCaptureFixture, form: str
) -> None:
    price = stream_price(list(ANTHROPIC_STREAM.response.stream_payloads()))

    with serve(form) as gateway, upstream_replay(ANTHROPIC_STREAM):
        answer = ask(gateway, "claude", stream=True)

    assert answer.status_code == 200, answer.text
    assert "data: [DONE]" in answer.text
    assert "x-interlingua-cost" not in answer.headers
    if form == "json":
        (line,) = json_lines(gateway_log)
        assert Decimal(line["cost"]) == price > 0
    else:
        (human,) = log_lines(gateway_log)
        assert f"  cost=${price:f}  " in human
