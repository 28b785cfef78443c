"""`interlingua inspect` tells what each answer cost and the total, by
genai-prices, read here from the raw answers without the adapters; an answer
with no price says so, and is counted apart."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import genai_prices
from typer.testing import CliRunner

from conftest import FIXTURES
from interlingua import ChatHistory, Message, get_adapter
from interlingua.cli import app
from interlingua.testing import load_cassette

ANTHROPIC = FIXTURES / "anthropic" / "tool_round_trip_with_thinking.json"


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "100"})


def wire_price(body: dict[str, Any], provider_id: str) -> Decimal:
    """genai-prices' price of a raw answer, at the time it says it was made."""
    extracted = genai_prices.extract_usage(body, provider_id=provider_id)
    made = body.get("created")
    at = datetime.fromtimestamp(made, timezone.utc) if isinstance(made, int) else None
    total: Decimal = extracted.calc_price(genai_request_timestamp=at).total_price
    return total


def test_inspect_gives_each_answer_s_cost_and_the_total() -> None:
    bodies = [call.response.json for call in load_cassette(ANTHROPIC).interactions]
    prices = [wire_price(body, "anthropic") for body in bodies]

    result = run("inspect", "--json", str(ANTHROPIC))
    text = run("inspect", str(ANTHROPIC))

    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert [Decimal(turn["cost"]["total"]) for turn in summary["turns"]] == prices
    assert [turn["cost"]["provider"] for turn in summary["turns"]] == ["anthropic"] * 2
    assert Decimal(summary["cost"]["total"]) == sum(prices) > 0
    assert summary["unpriced_answers"] == 0
    for price in prices:
        assert f"    cost: ${price:f}\n" in text.stdout
    assert text.stdout.endswith(f"cost: ${sum(prices):f}\n")


def test_inspect_says_an_answer_it_cannot_price_is_unknown() -> None:
    path = FIXTURES / "ollama" / "reasoning_answer.json"

    result = run("inspect", "--json", str(path))
    text = run("inspect", str(path))

    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert [turn["cost"] for turn in summary["turns"]] == [None]
    assert (summary["cost"], summary["unpriced_answers"]) == (None, 1)
    # Read as a Chat Completions server's (its host names none): a model OpenAI has not.
    assert "    cost: unknown (no price for model 'gpt-oss:20b' of provider 'openai'" in text.stdout
    assert text.stdout.endswith("cost: unknown\n")


def test_inspect_a_history_gives_the_cost_of_each_answer_it_kept(tmp_path: Path) -> None:
    (_, answer) = load_cassette(ANTHROPIC).interactions
    history = ChatHistory()
    history.add_message(Message.user("Weather in Lisbon?"))
    history.add_response(get_adapter("anthropic").decode_response(answer.response.json))
    history.add_message(Message.assistant("typed by hand"))
    history.save(tmp_path / "chat.json")

    result = run("inspect", "--json", str(tmp_path / "chat.json"))
    text = run("inspect", str(tmp_path / "chat.json"))

    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    price = wire_price(answer.response.json, "anthropic")
    costs = [turn["cost"] and Decimal(turn["cost"]["total"]) for turn in summary["turns"]]
    assert costs == [None, price, None]
    assert [turn["provider"] for turn in summary["turns"]] == [None, "anthropic", None]
    assert (Decimal(summary["cost"]["total"]), summary["unpriced_answers"]) == (price, 1)
    assert "    cost: unknown (no usage kept for it)" in text.stdout
    assert text.stdout.endswith(f"cost: ${price:f} (1 answer unpriced)\n")
