"""The demo shown: a table a turn for a terminal (colour where the terminal
has it, plain text when piped or with `NO_COLOR`), or one JSON document."""

from __future__ import annotations

import json
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from interlingua.cli._demo import Demo, DemoTurn, SignatureProof
from interlingua.cli._summary import (
    clip,
    describe_answer,
    describe_message,
    provider_name,
    usage_json,
    usage_line,
)

__all__ = ["demo_json", "proof_line", "show_demo"]


# The field of a body that holds the conversation -> what each of its items is called.
_CONVERSATION = {"messages": "message", "input": "input item", "contents": "content"}


def _sent_summary(turn: DemoTurn) -> list[str]:
    body = turn.sent if isinstance(turn.sent, dict) else {}
    field, noun = next(
        ((field, noun) for field, noun in _CONVERSATION.items() if field in body), ("", "item")
    )
    size = len(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode())
    return [
        turn.endpoint,
        f"{_count(len(body.get(field, [])), noun)}, {_count(len(turn.request.tools), 'tool')}, "
        f"{size:,} bytes of JSON",
        "fields: " + ", ".join(body),
    ]


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"


def _losses(turn: DemoTurn) -> list[str]:
    if not turn.losses:
        return ["nothing: the whole history went as it is"]
    return [loss.described() for loss in turn.losses]


def _turn_table(number: int, turn: DemoTurn) -> Table:
    name = provider_name(turn.provider)
    title = f"Turn {number} · {name} ({turn.provider}) · {turn.request.model}"
    table = Table(
        title=Text(title, style="bold"),
        title_justify="left",
        show_header=False,
        box=box.ROUNDED,
        expand=True,
    )
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(ratio=1)
    rows = (
        ("history", [f"{i} {describe_message(m)}" for i, m in enumerate(turn.history)], ""),
        ("sent", _sent_summary(turn), ""),
        ("left out, changed", _losses(turn), "yellow" if turn.losses else "green"),
        ("answer", describe_answer(turn.response), ""),
        ("usage", [usage_line(turn.response.usage)], ""),
    )
    for label, lines, style in rows:
        width = 400 if label == "left out, changed" else 200  # a reason is read whole
        table.add_row(label, Text("\n".join(clip(line, width) for line in lines), style=style))
    return table


def proof_line(proof: SignatureProof | None) -> str:
    if proof is None or not proof.signed:
        return "signature proof: no signed Claude thinking went back to Anthropic"
    turns = " and ".join(
        f"turn {signed.made_in_turn} ({provider_name(signed.made_by)})" for signed in proof.signed
    )
    if not proof.unchanged:
        return (
            f"signature proof FAILED: Claude's signed thinking from {turns} "
            f"did not go back unchanged in turn {proof.sent_back_in_turn}"
        )
    signatures = ", ".join(
        f"{signed.signature[:12]}…{signed.signature[-6:]} ({len(signed.signature)} characters)"
        for signed in proof.signed
    )
    return (
        f"signature proof: Claude's signed thinking from {turns} came back to Anthropic "
        f"in turn {proof.sent_back_in_turn} unchanged (signatures {signatures}, "
        "byte for byte in the request sent, the only reasoning in it)"
    )


def _totals(demo: Demo) -> Table:
    table = Table(title=Text("Usage", style="bold"), title_justify="left", box=box.ROUNDED)
    for name in ("turn", "provider", "input", "output", "reasoning"):
        table.add_column(name, justify="left" if name == "provider" else "right")
    for number, turn in enumerate(demo.turns, 1):
        usage = turn.response.usage
        table.add_row(
            str(number),
            provider_name(turn.provider),
            f"{usage.input_tokens:,}",
            f"{usage.output_tokens:,}",
            f"{usage.reasoning_tokens:,}",
        )
    total = demo.history.usage
    table.add_section()
    table.add_row(
        "total",
        "",
        f"{total.input_tokens:,}",
        f"{total.output_tokens:,}",
        f"{total.reasoning_tokens:,}",
        style="bold",
    )
    return table


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _headline(demo: Demo) -> str:
    apis = len({turn.provider for turn in demo.turns})
    return (
        f"One conversation across {_NUMBERS[apis] if apis < len(_NUMBERS) else apis} APIs, "
        f"replayed from {demo.fixture} through each provider's own SDK client "
        "(no key, no network)."
    )


def show_demo(demo: Demo, console: Console) -> None:
    console.print(Text(_headline(demo), style="bold"))
    for number, turn in enumerate(demo.turns, 1):
        console.print()
        console.print(_turn_table(number, turn))
    console.print()
    proof = demo.proof
    style = "bold green" if proof is not None and proof.unchanged else "bold red"
    console.print(Group(_totals(demo), Text(proof_line(proof), style=style)))


def demo_json(demo: Demo) -> dict[str, Any]:
    """The demo as one JSON value: each turn, the total usage, the proof."""
    proof = demo.proof
    return {
        "fixture": str(demo.fixture),
        "turns": [_turn_json(number, turn) for number, turn in enumerate(demo.turns, 1)],
        "usage": usage_json(demo.history.usage),
        "signature_proof": None
        if proof is None
        else {
            "sent_back_in_turn": proof.sent_back_in_turn,
            "signed": [
                {
                    "made_by": signed.made_by,
                    "made_in_turn": signed.made_in_turn,
                    "made": signed.made,
                    "sent_back": signed.sent_back,
                    "on_the_wire": signed.on_the_wire,
                    "unchanged": signed.unchanged,
                }
                for signed in proof.signed
            ],
            "reasoning_sent": proof.reasoning_sent,
            "unchanged": proof.unchanged,
        },
    }


def _turn_json(number: int, turn: DemoTurn) -> dict[str, Any]:
    return {
        "turn": number,
        "provider": turn.provider,
        "provider_name": provider_name(turn.provider),
        "model": turn.request.model,
        "history": [describe_message(message) for message in turn.history],
        "endpoint": turn.endpoint,
        "sent": turn.sent,
        "losses": [
            {"path": loss.path, "kind": loss.kind, "level": loss.level, "reason": loss.reason}
            for loss in turn.losses
        ],
        "answer": turn.response.model_dump(mode="json", exclude={"usage"}),
        "usage": usage_json(turn.response.usage),
    }
