"""What Anthropic would reject in a history, caught before sending.

Anthropic answers 400 when a tool call has no result in the next user turn,
or a result answers no call of the assistant turn before
(`check_tool_pairs`): that cannot be mended on the wire without changing the
conversation, so it raises `InvalidDataError` naming each message and part
(`interlingua.sanitize()` repairs such a history).

With thinking on, Anthropic wants the assistant turn before the last tool
results to start with a thinking block (its 400: "When `thinking` is
enabled, a final `assistant` message must start with a thinking block ...
To avoid this requirement, disable `thinking`"). A history from elsewhere has
none, so `fit_thinking` sends that request with thinking off, and reports it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import groupby

from interlingua import InvalidDataError, Message, ToolCallPart, ToolResultPart, TranslationReport
from interlingua_anthropic._wire import Thinking, WireDict

__all__ = ["check_tool_pairs", "fit_thinking"]


def check_tool_pairs(messages: Sequence[Message]) -> None:
    """Every tool call answered in the next user turn, every result there
    answering a call of the assistant turn before; else `InvalidDataError`."""
    problems: list[tuple[str, str]] = []
    calls: dict[str, str] = {}
    talk = [(i, message) for i, message in enumerate(messages) if message.role != "system"]
    for is_assistant, run in groupby(talk, key=lambda item: item[1].role == "assistant"):
        if is_assistant:
            calls = dict(_calls(run))
            continue
        results = dict(_results(run))
        problems += [
            (path, _unanswered(call_id))
            for call_id, path in calls.items()
            if call_id not in results
        ]
        problems += [
            (path, _unasked(call_id)) for call_id, path in results.items() if call_id not in calls
        ]
        calls = {}
    if problems:
        raise InvalidDataError(problems, subject="request for anthropic")


def _calls(run: Iterator[tuple[int, Message]]) -> Iterator[tuple[str, str]]:
    for i, message in run:
        for j, part in enumerate(message.parts):
            if isinstance(part, ToolCallPart):
                yield part.id, f"messages[{i}].parts[{j}]"


def _results(run: Iterator[tuple[int, Message]]) -> Iterator[tuple[str, str]]:
    for i, message in run:
        for j, part in enumerate(message.parts):
            if isinstance(part, ToolResultPart):
                yield part.tool_call_id, f"messages[{i}].parts[{j}]"


def _unanswered(call_id: str) -> str:
    return (
        f"tool call {call_id!r} has no result in the next user turn, which Anthropic "
        "rejects; interlingua.sanitize() repairs such a history"
    )


def _unasked(call_id: str) -> str:
    return f"tool result for {call_id!r} answers no tool call of the turn before"


def fit_thinking(body: WireDict, report: TranslationReport) -> None:
    """Turns thinking off in `body` when its last tool loop has no thinking block."""
    thinking = body.get("thinking")
    if not isinstance(thinking, Mapping) or thinking.get("type") not in ("enabled", "adaptive"):
        return
    turns = body["messages"]
    if len(turns) < 2 or not _starts_with(turns[-1], "tool_result"):
        return
    if turns[-2]["role"] != "assistant":
        return
    if _starts_with(turns[-2], "thinking") or _starts_with(turns[-2], "redacted_thinking"):
        return
    body["thinking"] = Thinking(type="disabled")
    report.transformed(
        "reasoning",
        "sent with thinking off: with thinking on, Anthropic wants the assistant turn before "
        "the last tool results to start with its thinking block, and this history has none there",
    )


def _starts_with(turn: WireDict, kind: str) -> bool:
    content = turn.get("content")
    return isinstance(content, list) and bool(content) and content[0].get("type") == kind
