"""`interlingua inspect`: a cassette (any format `load_cassette` reads, a
provider-neutral one too) or a saved history, summarised: its turns, their
parts, tool calls, reasoning, usage and cost.

The cost of each answer is genai-prices' (`ChatResponse.cost()`; a history's
answers by what `ChatHistory.turns` kept of them), and the total the sum of
those priced; an answer with no price (genai-prices not installed, or a
provider or model it does not price) says so, and is counted as unpriced.

A cassette's answers are decoded by the adapter its request went to (found by
the URL; for a response-only fixture, by the body's shape); an answer that
cannot be decoded is summarised by its status and the reason, not refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from rich.console import Console
from rich.text import Text

from interlingua._cost import Cost, turn_cost
from interlingua._errors import CostError, InterlinguaError
from interlingua._history import HISTORY_FORMAT, ChatHistory
from interlingua._messages import Message
from interlingua._response import ChatResponse
from interlingua._usage import TokenUsage
from interlingua.cli._files import (
    InputError,
    adapter,
    load_cassette_text,
    one_line,
    parse_json,
    read_text,
)
from interlingua.cli._summary import (
    cost_json,
    describe_answer,
    describe_message,
    dollars,
    provider_name,
    usage_json,
    usage_line,
)
from interlingua.testing._records import NeutralInteraction, provider_of

__all__ = ["Summary", "TurnSummary", "inspect_file", "provider_of", "show_summary", "summary_json"]


@dataclass
class TurnSummary:
    """One turn: a cassette's interaction (its request line, status, provider)
    or a history's message, described part by part."""

    title: str
    provider: str | None = None
    lines: list[str] = field(default_factory=list)
    usage: TokenUsage | None = None
    # An answer's cost, or why it has none (None, None: no answer to price).
    cost: Cost | None = None
    unpriced: str | None = None


@dataclass
class Summary:
    name: str
    kind: str
    turns: list[TurnSummary] = field(default_factory=list)
    parts: Counter[str] = field(default_factory=Counter)
    tool_calls: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    usage: TokenUsage = field(default_factory=TokenUsage)

    def count(self, messages: list[Message]) -> None:
        for message in messages:
            self.parts.update(part.type for part in message.parts)
            self.tool_calls += [call.name for call in message.tool_calls]
            self.reasoning += [part.provider or "unknown" for part in message.reasoning]


def inspect_file(path: str) -> Summary:
    """The summary of a history or a cassette at `path` (`-`: standard input)."""
    name, text = read_text(path)
    stripped = text.lstrip()
    if stripped.startswith("{") and f'"{HISTORY_FORMAT}"' in text:
        document = parse_json(name, text)
        if isinstance(document, dict) and document.get("format") == HISTORY_FORMAT:
            return _history(name, document)
    return _cassette(name, path, text)


def _history(name: str, document: dict[str, Any]) -> Summary:
    try:
        history = ChatHistory.from_document(document)
    except InterlinguaError as error:
        raise InputError(f"{name}: {one_line(error)}") from error
    summary = Summary(name, "history", usage=history.usage)
    kept = {turn.message: turn for turn in history.turns}
    for index, message in enumerate(history.messages):
        turn = TurnSummary(f"{index} {describe_message(message, 80)}")
        if (answer := kept.get(index)) is not None:
            turn.provider, turn.usage = answer.provider, answer.usage
            _price(turn, partial(turn_cost, answer, at=message.created_at))
        elif message.role == "assistant":
            turn.unpriced = "no usage kept for it"
        summary.turns.append(turn)
    summary.count(history.messages)
    return summary


def _cassette(name: str, path: str, text: str) -> Summary:
    cassette = load_cassette_text(name, path, text)
    summary = Summary(name, "cassette")
    for index, interaction in enumerate(cassette.interactions):
        summary.turns.append(_interaction(index, interaction, summary))
    for index, call in enumerate(cassette.neutral):
        summary.turns.append(_neutral(index, call, summary))
    return summary


def _neutral(index: int, call: NeutralInteraction, summary: Summary) -> TurnSummary:
    """A call of a provider-neutral cassette: already in the core's terms."""
    streamed = " (streamed)" if call.is_stream else ""
    turn = TurnSummary(f"{index} {call.model} -> {call.status}{streamed}", call.provider)
    try:
        answer = call.response
    except InterlinguaError as error:  # a stream the provider broke
        answer, turn.lines = None, [f"error: {one_line(error)}"]
    if call.error is not None:
        turn.lines.append(f"error: {one_line(call.error)}")
    if answer is not None:
        _describe(turn, answer, summary)
    return turn


def _interaction(index: int, interaction: Any, summary: Summary) -> TurnSummary:
    request, response = interaction.request, interaction.response
    url = None if request is None else request.url
    provider = provider_of(url, response.json)
    where = "a response only" if request is None else f"{request.method} {url}"
    streamed = " (streamed)" if response.events is not None else ""
    turn = TurnSummary(f"{index} {where} -> {response.status}{streamed}", provider)
    if provider is None:
        turn.lines.append("not decoded: no adapter for this API")
        return turn
    try:
        answer = _decode(provider, response)
    except InputError as error:
        turn.lines.append(f"not decoded: {error}")
        return turn
    except InterlinguaError as error:
        failed = "error" if response.status >= 400 else "not decoded"
        turn.lines.append(f"{failed}: {one_line(error)}")
        return turn
    _describe(turn, answer, summary)
    return turn


def _describe(turn: TurnSummary, answer: ChatResponse, summary: Summary) -> None:
    turn.lines += describe_answer(answer, 100)
    turn.usage = answer.usage
    summary.usage += answer.usage
    summary.count([answer.message])
    _price(turn, lambda: answer.cost(provider=turn.provider))


def _price(turn: TurnSummary, cost: Callable[[], Cost]) -> None:
    try:
        turn.cost = cost()
    except CostError as error:
        turn.unpriced = one_line(error)


def _total_cost(summary: Summary) -> tuple[Cost | None, int]:
    """The sum of the turns' costs (None: none priced), and how many answers have none."""
    costs = [turn.cost for turn in summary.turns if turn.cost is not None]
    unpriced = sum(turn.unpriced is not None for turn in summary.turns)
    return (sum(costs[1:], costs[0]) if costs else None), unpriced


def _cost_line(cost: Cost | None, unpriced: int) -> str:
    line = "unknown" if cost is None else dollars(cost.total_price)
    if cost is not None and unpriced:
        line += f" ({unpriced} answer{'' if unpriced == 1 else 's'} unpriced)"
    return line


def _decode(provider: str, response: Any) -> ChatResponse:
    from interlingua._stream import accumulate

    codec = adapter(provider)
    if response.status >= 400:
        raise codec.decode_error(response.status, response.json, headers=response.joined_headers())
    if response.events is not None:
        return accumulate(codec.decode_stream(response.stream_payloads()))
    return codec.decode_response(response.json)


def _tally(names: list[str]) -> str:
    counts = Counter(names)
    return ", ".join(name if n == 1 else f"{name} x{n}" for name, n in counts.items()) or "none"


def _totals(summary: Summary) -> list[tuple[str, str]]:
    parts = ", ".join(f"{kind} {n}" for kind, n in summary.parts.most_common()) or "none"
    return [
        ("parts", parts),
        ("tool calls", _tally(summary.tool_calls)),
        ("reasoning", _tally(summary.reasoning)),
        ("usage", usage_line(summary.usage)),
        ("cost", _cost_line(*_total_cost(summary))),
    ]


def show_summary(summary: Summary, console: Console) -> None:
    what = "interaction" if summary.kind == "cassette" else "message"
    count = len(summary.turns)
    console.print(
        Text(
            f"{summary.name}: a {summary.kind} of {count} {what}{'' if count == 1 else 's'}", "bold"
        )
    )
    for turn in summary.turns:
        title = Text(turn.title, style="bold cyan" if summary.kind == "cassette" else "")
        if turn.provider is not None:
            title.append(f"  {provider_name(turn.provider)}", style="magenta")
        console.print(title)
        for line in turn.lines:
            console.print(Text(f"    {line}"))
        if turn.usage is not None:
            console.print(Text(f"    usage: {usage_line(turn.usage)}", style="dim"))
        if turn.cost is not None or turn.unpriced is not None:
            line = dollars(turn.cost.total_price) if turn.cost else f"unknown ({turn.unpriced})"
            console.print(Text(f"    cost: {line}", style="dim"))
    for label, value in _totals(summary):
        console.print(Text.assemble((f"{label}: ", "bold"), value))


def summary_json(summary: Summary) -> dict[str, Any]:
    total, unpriced = _total_cost(summary)
    return {
        "file": summary.name,
        "kind": summary.kind,
        "turns": [
            {
                "title": turn.title,
                "provider": turn.provider,
                "lines": turn.lines,
                "usage": None if turn.usage is None else usage_json(turn.usage),
                "cost": None if turn.cost is None else cost_json(turn.cost),
            }
            for turn in summary.turns
        ],
        "parts": dict(summary.parts),
        "tool_calls": summary.tool_calls,
        "reasoning": summary.reasoning,
        "usage": usage_json(summary.usage),
        "cost": None if total is None else cost_json(total),
        "unpriced_answers": unpriced,
    }
