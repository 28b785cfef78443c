"""What OpenAI would reject in a history, caught before sending.

Chat Completions answers 400 when an assistant message's tool calls are not
answered by the tool messages right after it ("An assistant message with
'tool_calls' must be followed by tool messages responding to each
'tool_call_id'"), or a tool message answers no call of the assistant message
before ("messages with role 'tool' must be a response to a preceeding message
with 'tool_calls'"). The Responses API pairs `call_id`s across the whole input
("No tool output found for function call ..."), and takes an output whose call
is not in the input when it continues a stored response
(`previous_response_id`, `conversation`).

That cannot be mended on the wire without changing the conversation, so it
raises `InvalidDataError` naming each message and part
(`interlingua.sanitize()` repairs such a history).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from interlingua import InvalidDataError, Message, ToolCallPart, ToolResultPart

__all__ = ["check_tool_pairs"]

_REPAIR = "interlingua.sanitize() repairs such a history"


def check_tool_pairs(
    messages: Sequence[Message], target: str, *, adjacent: bool, continued: bool = False
) -> None:
    """Every tool call answered and every result answering a call, else `InvalidDataError`.

    `adjacent`: results must follow their calls' message directly (Chat
    Completions); else anywhere after them (the Responses API). `continued`: the
    request continues a stored response, whose calls a result may answer.
    """
    problems: list[tuple[str, str]] = []
    open_calls: dict[str, str] = {}
    for index, message in enumerate(messages):
        if message.role == "tool":
            for call_id, path in _results(index, message):
                if open_calls.pop(call_id, None) is None and not continued:
                    problems.append(
                        (path, f"tool result for {call_id!r} answers no open tool call")
                    )
            continue
        if adjacent or message.role == "assistant":
            if adjacent:
                problems += _unanswered(open_calls, target)
                open_calls = {}
            open_calls.update(_calls(index, message))
    problems += _unanswered(open_calls, target)
    if problems:
        raise InvalidDataError(problems, subject=f"request for {target}")


def _calls(index: int, message: Message) -> Iterator[tuple[str, str]]:
    for position, part in enumerate(message.parts):
        if isinstance(part, ToolCallPart):
            yield part.id, f"messages[{index}].parts[{position}]"


def _results(index: int, message: Message) -> Iterator[tuple[str, str]]:
    for position, part in enumerate(message.parts):
        if isinstance(part, ToolResultPart):
            yield part.tool_call_id, f"messages[{index}].parts[{position}]"


def _unanswered(calls: dict[str, str], target: str) -> list[tuple[str, str]]:
    return [
        (path, f"tool call {call_id!r} has no result, which {target} rejects; {_REPAIR}")
        for call_id, path in calls.items()
    ]
