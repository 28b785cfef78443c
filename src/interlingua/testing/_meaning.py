"""What a chat request means, as a value two APIs' requests can be compared on.

`meaning(request)` is the comparable view of a `ChatRequest`: what a replay
across providers matches a request sent in one API against one recorded in
another. It keeps what the model is asked:

    {"messages": [{"role": "system" | "user" | "assistant",
                   "parts": [{"type": "text", "text": ...},
                             {"type": "file", "media_type": "image", "url": ...},
                             {"type": "tool_call", "call": 1, "name": ..., "arguments": {...}},
                             {"type": "tool_result", "call": 1, "content": [...]}]}],
     "tools": [{"name": ..., "parameters": {...}}]}

written the same whatever API the request was decoded from:

- the system text is one message, first, whether the API sends it as a
  message (Chat Completions' `system` or `developer`) or as a field
  (Anthropic's `system`, Gemini's `systemInstruction`);
- a tool result is the user's (a `tool` message in Chat Completions, a
  `user` turn's block in Anthropic's and Gemini's), and messages of the same
  role one after the other are one (Anthropic joins them, Chat does not);
- text parts one after the other are one text, joined by a blank line (an
  API sends a list of blocks, another one string), and one of blank space
  alone says nothing (an API leaves it out); a refusal is the text it says;
- a tool call's arguments are their parsed JSON (whitespace and key order
  never count); calls are known by their order in the conversation
  (`"call": 1`), not by ids, which an API rewrites or makes up, and a result
  by the order of the call it answers;
- a file is its kind of media (`image`, `audio`: the subtype of one sent by
  URL is a guess, `image/*` or the URL's extension, and `audio/mp3` is
  `audio/mpeg`) and its data, URL or file id, the data compared as standard
  base64 without its padding (google-genai sends the URL-safe alphabet);
- tools are taken in name order, each its name and parameters' schema.

Left out, because one API cannot carry what another sends, or because it
does not change what is asked: reasoning (another provider's is never sent
as reasoning; each assistant text's opening `<think>...</think>` is
reasoning to the servers whose models write it so), provider-specific blocks
(`OpaquePart`), a result's tool name and error flag (Chat Completions and
Gemini have no flag), message ids and metadata, a file's name and detail,
and every field outside the messages and tools. `compare` adds any of these
back (`COMPARE_OPTIONS`):

    "model"             the model named
    "settings"          temperature, top_p, top_k, stop, seed, reasoning, response_format
    "limits"            max_tokens
    "tool_choice"       tool_choice and parallel_tool_calls
    "descriptions"      each tool's description
    "ids"               tool call ids as sent, instead of their order
    "provider_options"  the fields one provider alone has

The view is JSON values, so `Matcher.differences` names a difference by its
path in it: `messages[1].parts[0].text`, the index of a message in the view.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from interlingua._errors import CassetteError
from interlingua._messages import Message
from interlingua._parts import (
    ContentPart,
    FilePart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    standard_base64,
)
from interlingua._request import ChatRequest

__all__ = ["COMPARE_OPTIONS", "check_compare", "meaning"]

COMPARE_OPTIONS: dict[str, tuple[str, ...]] = {
    "model": ("model",),
    "settings": ("temperature", "top_p", "top_k", "stop", "seed", "reasoning", "response_format"),
    "limits": ("max_tokens",),
    "tool_choice": ("tool_choice", "parallel_tool_calls"),
    "descriptions": (),
    "ids": (),
    "provider_options": ("provider_options",),
}
"""What `compare` can add to a request's meaning, and the request fields each names."""

_ROLES = {"system": "system", "user": "user", "tool": "user", "assistant": "assistant"}
_JOIN = "\n\n"
_THINK, _THINK_END = "<think>", "</think>"


def check_compare(compare: Iterable[str]) -> tuple[str, ...]:
    """`compare` as a tuple; `CassetteError` names an unknown option."""
    if isinstance(compare, str):
        raise CassetteError(f"compare: expected a list of names, got the string {compare!r}")
    names = tuple(compare)
    unknown = [name for name in names if name not in COMPARE_OPTIONS]
    if unknown:
        known = ", ".join(COMPARE_OPTIONS)
        raise CassetteError(f"compare: unknown {', '.join(unknown)}; known: {known}")
    return names


def meaning(request: ChatRequest, compare: Iterable[str] = ()) -> dict[str, Any]:
    """The comparable view of `request` (see the module's docstring)."""
    options = check_compare(compare)
    calls: dict[str, int] = {}
    messages = _merged(
        [_message(message, calls, "ids" in options) for message in _system_first(request)]
    )
    tools = [
        {"name": tool.name, "parameters": tool.parameters}
        | ({"description": tool.description} if "descriptions" in options else {})
        for tool in sorted(request.tools, key=lambda tool: tool.name)
    ]
    view: dict[str, Any] = {"messages": messages, "tools": tools}
    dumped = request.model_dump(mode="json")
    for option in options:
        view |= {field: dumped[field] for field in COMPARE_OPTIONS[option]}
    return view


def _system_first(request: ChatRequest) -> list[Message]:
    system = [
        part for message in request.messages if message.role == "system" for part in message.parts
    ]
    rest = [message for message in request.messages if message.role != "system"]
    return [Message(role="system", parts=tuple(system)), *rest] if system else rest


def _message(message: Message, calls: dict[str, int], ids: bool) -> dict[str, Any]:
    parts = [view for part in message.parts if (view := _part(part, calls, ids)) is not None]
    if message.role == "assistant":
        parts = [_without_think(part) if part["type"] == "text" else part for part in parts]
    return {"role": _ROLES[message.role], "parts": parts}


def _part(part: ContentPart, calls: dict[str, int], ids: bool) -> dict[str, Any] | None:
    match part:
        case TextPart() | RefusalPart():
            return {"type": "text", "text": part.text}
        case FilePart():
            return _file(part)
        case ToolCallPart():
            number = calls.setdefault(part.id, len(calls) + 1)
            return {
                "type": "tool_call",
                "call": part.id if ids else number,
                "name": part.name,
                "arguments": _arguments(part.arguments),
            }
        case ToolResultPart():
            content = [_part(item, calls, ids) for item in part.content]
            return {
                "type": "tool_result",
                "call": part.tool_call_id
                if ids
                else calls.get(part.tool_call_id, part.tool_call_id),
                "content": _joined([item for item in content if item is not None]),
            }
        case _:  # reasoning and provider-specific blocks: another API drops them
            return None


def _without_think(part: dict[str, Any]) -> dict[str, Any]:
    """An assistant text without the reasoning it opens with in `<think>` tags,
    which an API whose models write them (Groq's, Cerebras') reads as reasoning.
    Each text of the turn, not its first part alone: assistant messages in a
    row, each opening with its reasoning, are one turn of several texts to an
    API that joins them (Anthropic's, Gemini's), and a text follows the
    reasoning part an API's history opens a message with (DeepSeek's)."""
    text = part["text"]
    if not text.lstrip().startswith(_THINK) or _THINK_END not in text:
        return part
    return {"type": "text", "text": text.partition(_THINK_END)[2].lstrip()}


def _file(part: FilePart) -> dict[str, Any]:
    data = None if part.data is None else standard_base64(part.data).rstrip("=")
    where = {"data": data, "url": part.url, "file_id": part.file_id}
    return {
        "type": "file",
        "media_type": part.media_type.partition("/")[0],
        **{key: value for key, value in where.items() if value is not None},
    }


def _arguments(arguments: str) -> Any:
    try:
        return json.loads(arguments)
    except ValueError:
        return arguments  # a free-form tool's input is its text


def _merged(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages of one role in a row as one, their texts in a row as one; those
    that say nothing (no part, or blank texts alone) left out first, so that the
    turns on either side of one are in a row."""
    merged: list[dict[str, Any]] = []
    for message in messages:
        parts = _joined(message["parts"])
        if not parts:
            continue
        if merged and merged[-1]["role"] == message["role"]:
            merged[-1]["parts"] += parts
        else:
            merged.append({"role": message["role"], "parts": parts})
    return [{"role": m["role"], "parts": _joined(m["parts"])} for m in merged]


def _joined(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    joined: list[dict[str, Any]] = []
    for part in parts:
        if part["type"] == "text" and not part["text"].strip():
            continue
        if part["type"] == "text" and joined and joined[-1]["type"] == "text":
            joined[-1] = {"type": "text", "text": joined[-1]["text"] + _JOIN + part["text"]}
        else:
            joined.append(part)
    return joined
