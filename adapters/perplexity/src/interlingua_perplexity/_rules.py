"""What Perplexity's chat completions take that the Chat Completions codec does
not already meet, from its API reference and the 400s its users report:

- No tools. The chat completions API has no `tools` (tool calling is its Agent
  API's): "Tool calling is not supported for this model"; and its roles are
  "'system', 'user' or 'assistant'", so a history's tool calls and tool
  results have no place either. The request's tools, tool choice and
  parallel-calls setting are left out, and so is each tool call and tool
  result of the history, each reported as dropped (`without_tools`, before
  encoding: a part left out leaves its place, so every other part keeps its
  path in the report).
- Turns in order: "After the (optional) system message(s), user and assistant
  roles should be alternating." On the wire (`in_turns`), an assistant message
  left with nothing to say (its tool calls, or another provider's reasoning,
  left out and reported) is left out; a system message after the
  conversation began is moved to the system messages at the start; a message
  of the same role as the one before it is joined to it (texts with a blank
  line between, content items in order); each move and join reported as
  transformed at the message's path.
"""

from __future__ import annotations

import operator
from typing import Any

from interlingua import (
    ChatRequest,
    Message,
    TextPart,
    ToolCallPart,
    TranslationReport,
)

__all__ = ["in_turns", "without_tools"]

NO_TOOLS = (
    'Perplexity\'s chat completions take no tools ("Tool calling is not supported for this model")'
)
NO_TOOL_CALLS = "Perplexity's chat completions take no tool calls (they have no tools)"
NO_TOOL_RESULTS = (
    "Perplexity's chat completions take no tool results "
    "(roles 'system', 'user' or 'assistant' only)"
)
ALTERNATING = (
    'Perplexity takes user and assistant turns alternating ("After the (optional) '
    'system message(s), user and assistant roles should be alternating.")'
)
SYSTEM_FIRST = f"{ALTERNATING}: a system message after the conversation began, moved to the start"


def without_tools(request: ChatRequest, report: TranslationReport) -> ChatRequest:
    """`request` without its tools, tool choice and parallel-calls setting, and
    with each tool call and tool result of its history left out (all reported
    dropped): a tool message becomes an empty user message (`in_turns` leaves it
    out), a call within a message an empty text in its place."""
    # Quirk: its chat completions refuse tools ("Tool calling is not supported for this model").
    for index, _ in enumerate(request.tools):
        report.dropped(f"tools[{index}]", NO_TOOLS, "content")
    for name in ("tool_choice", "parallel_tool_calls"):
        if getattr(request, name) is not None:
            report.dropped(name, NO_TOOLS, "setting")
    messages = tuple(
        _without_tool_parts(message, index, report)
        for index, message in enumerate(request.messages)
    )
    settings = (request.tool_choice, request.parallel_tool_calls)
    if (
        not request.tools
        and settings == (None, None)
        and all(map(operator.is_, messages, request.messages))
    ):
        return request  # nothing left out (a message with nothing to leave out is itself)
    update = {"tools": (), "tool_choice": None, "parallel_tool_calls": None}
    return request.model_copy(update={**update, "messages": messages})


def _without_tool_parts(message: Message, index: int, report: TranslationReport) -> Message:
    if message.role == "tool":
        for position, _ in enumerate(message.parts):
            report.dropped(f"messages[{index}].parts[{position}]", NO_TOOL_RESULTS, "content")
        return Message(role="user")
    calls = [k for k, part in enumerate(message.parts) if isinstance(part, ToolCallPart)]
    if not calls:
        return message
    for position in calls:
        report.dropped(f"messages[{index}].parts[{position}]", NO_TOOL_CALLS, "content")
    parts = list(message.parts)
    while parts and isinstance(parts[-1], ToolCallPart):
        parts.pop()  # the calls that end the message leave no place to keep
    kept = [TextPart(text="") if isinstance(part, ToolCallPart) else part for part in parts]
    return message.model_copy(update={"parts": tuple(kept)})


def in_turns(
    body: dict[str, Any], request: ChatRequest, report: TranslationReport
) -> dict[str, Any]:
    """`body`'s messages (one for each of `request`'s, `without_tools` made sure)
    in Perplexity's order: system messages first, then user and assistant turns
    alternating; what changes is reported."""
    wires: list[dict[str, Any]] = body["messages"]
    assert len(wires) == len(request.messages), "one wire message for each of the history's"
    system: list[dict[str, Any]] = []
    turns: list[tuple[int, dict[str, Any]]] = []
    for index, (message, wire) in enumerate(zip(request.messages, wires, strict=True)):
        if message.role == "tool" or (wire["role"] == "assistant" and not _says(wire)):
            continue  # its parts are reported where they were left out
        if wire["role"] in ("system", "developer"):
            if turns:
                report.transformed(f"messages[{index}]", SYSTEM_FIRST, "content")
            system.append(wire)
        elif turns and turns[-1][1]["role"] == wire["role"]:
            # Quirk: two turns of one role in a row are refused with 400 `invalid_message`.
            report.transformed(
                f"messages[{index}]",
                f"{ALTERNATING}: joined to the {wire['role']} turn before",
                "hint",
            )
            turns[-1] = (turns[-1][0], _joined(turns[-1][1], _cleaned(wire)))
        else:
            turns.append((index, _cleaned(wire)))
    return {**body, "messages": [*system, *(wire for _, wire in turns)]}


def _says(wire: dict[str, Any]) -> bool:
    """Whether an assistant message has anything to say (a text that is not empty)."""
    content = wire.get("content")
    if isinstance(content, list):
        return any(item.get("type") != "text" or item.get("text") for item in content)
    return bool(content)


def _cleaned(wire: dict[str, Any]) -> dict[str, Any]:
    """An assistant message without the empty texts left where its calls were."""
    content = wire.get("content")
    if wire["role"] != "assistant" or not isinstance(content, list):
        return wire
    return {**wire, "content": _items(content)}


def _joined(first: dict[str, Any], then: dict[str, Any]) -> dict[str, Any]:
    """Two messages of one role as one: texts with a blank line between, items in order."""
    before, after = first.get("content") or "", then.get("content") or ""
    if isinstance(before, str) and isinstance(after, str):
        content: Any = f"{before}\n\n{after}" if before and after else before or after
    else:
        content = [*_items(before), *_items(after)]
    return {**then, **first, "content": content}


def _items(content: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return [item for item in content if item.get("type") != "text" or item.get("text")]
