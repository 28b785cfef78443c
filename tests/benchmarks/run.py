"""Benchmarks, run on demand: `uv run python tests/benchmarks/run.py`.

Each figure is a ratio against a baseline measured in the same run (this
machine is shared and noisy): how many times slower interlingua's step is
than the plain-JSON work it cannot avoid.
"""

from __future__ import annotations

import json
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from interlingua import (
    ChatHistory,
    FilePart,
    Message,
    ReasoningPart,
    TextDelta,
    TokenUsage,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    UsageEvent,
    accumulate,
)


def best_of(function: Callable[[], Any], repeat: int = 7) -> float:
    """The fastest of `repeat` runs, in seconds: the least disturbed by noise."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def peak_memory(function: Callable[[], Any]) -> int:
    tracemalloc.start()
    function()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def history(turns: int) -> ChatHistory:
    messages: list[Message] = [Message.system("You are terse.")]
    for n in range(turns):
        messages += [
            Message.user(f"Question {n}: " + "lorem ipsum " * 20),
            Message.assistant(
                ReasoningPart(text="thinking " * 30, signature="sig" * 40, provider="anthropic"),
                f"Answer {n}",
                ToolCallPart(id=f"toolu_{n:04d}", name="lookup", arguments='{"q": "x"}'),
            ),
            Message.tool_result(f"toolu_{n:04d}", "result " * 10),
        ]
    messages.append(Message.user(FilePart.from_bytes(b"\x89PNG" * 5000, "image/png")))
    return ChatHistory(messages=messages, usage=TokenUsage(input_tokens=1, output_tokens=1))


def report(name: str, ours: float, baseline: float, note: str) -> None:
    print(f"{name:<44} {ours / baseline:6.2f}x  ({note})")


def main() -> None:
    big = history(500)
    text = big.to_json(indent=None)
    document = json.loads(text)
    print(f"history: {len(big)} messages, {len(text) / 1e6:.1f} MB of JSON\n")

    report(
        "ChatHistory.from_json vs json.loads",
        best_of(lambda: ChatHistory.from_json(text)),
        best_of(lambda: json.loads(text)),
        "validation on top of parsing",
    )
    report(
        "ChatHistory.to_json vs json.dumps",
        best_of(lambda: big.to_json(indent=None)),
        best_of(lambda: json.dumps(document)),
        "serialization of the same document",
    )
    report(
        "peak memory of from_json vs json.loads",
        peak_memory(lambda: ChatHistory.from_json(text)),
        peak_memory(lambda: json.loads(text)),
        "bytes at peak",
    )

    events = [ToolCallStart(index=1, id="c", name="f")]
    for n in range(5000):
        events += [TextDelta(text=f"tok{n} "), ToolCallDelta(index=1, arguments=" ")]
    events.append(UsageEvent(usage=TokenUsage(input_tokens=5, output_tokens=10000)))
    report(
        "accumulate 10k deltas vs dumping the events",
        best_of(lambda: accumulate(events)),
        best_of(lambda: [event.model_dump() for event in events]),
        "per-event work of the accumulator",
    )


def adapters() -> None:
    """Decoding and encoding a large recorded Anthropic response (a long
    web-search turn) against parsing and dumping the same JSON."""
    from pathlib import Path

    import interlingua_anthropic as anthropic
    from interlingua import TranslationReport
    from interlingua.testing import load_cassette

    corpus = Path(__file__).resolve().parents[3] / "shared" / "corpus"
    path = corpus / "anthropic" / "pydantic-ai" / "test_pause_turn_web_search_vcr.yaml"
    if not path.exists():
        print("\n(the corpus is not beside the repository: adapter figures left out)")
        return
    body = load_cassette(path).for_provider("anthropic")[0].response.body
    text = body.decode()
    wire = json.loads(text)
    response = anthropic.decode_response(wire)
    print(f"\nAnthropic response: {len(text) / 1e3:.0f} KB of JSON")
    report(
        "decode_response vs json.loads",
        best_of(lambda: anthropic.decode_response(json.loads(text))),
        best_of(lambda: json.loads(text)),
        "parsing included on both sides",
    )
    report(
        "encode_response vs json.dumps",
        best_of(
            lambda: json.dumps(anthropic.encode_response(response, report=TranslationReport()))
        ),
        best_of(lambda: json.dumps(wire)),
        "dumping included on both sides",
    )


if __name__ == "__main__":
    main()
    adapters()
