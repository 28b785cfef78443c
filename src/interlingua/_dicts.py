"""Messages from plain dicts: the `{"role", "content"}` history most chat code keeps.

What `Message.from_dicts` reads is the plain part of OpenAI's Chat Completions
messages:

- `role`: `system`, `user`, `assistant` or `tool`;
- `content`: a string (an empty one gives no part); it may be null or absent in
  an assistant message (one that only calls tools);
- `tool_calls`, in an assistant message: `[{"id", "type": "function",
  "function": {"name", "arguments"}}]`, `arguments` the JSON text (`"{}"` if
  absent), `type` optional;
- `tool_call_id` (required) and `name` (optional), in a tool message: the call
  the content answers.

Any other key that holds something (not null, empty or absent) is refused, not
dropped: a full Chat Completions body (image parts, audio, refusals, names) is
for the `openai` adapter's `decode_request`. A bad dict raises
`InvalidDataError` naming its index and field: `messages[2].tool_calls[0].id`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua._errors import InvalidDataError
from interlingua._parts import ContentPart, TextPart, ToolCallPart, ToolResultPart

__all__ = ["message_fields"]

# role -> the keys a dict of that role may have.
_KEYS: dict[str, frozenset[str]] = {
    "system": frozenset({"role", "content"}),
    "user": frozenset({"role", "content"}),
    "assistant": frozenset({"role", "content", "tool_calls"}),
    "tool": frozenset({"role", "content", "tool_call_id", "name"}),
}


def message_fields(index: int, data: object) -> tuple[str, tuple[ContentPart, ...]]:
    """The role and parts of the message dict `data`, the `index`-th of a list."""
    where = f"messages[{index}]"
    if not isinstance(data, Mapping):
        raise _problem(where, f"expected a dict, got {type(data).__name__}")
    role = data.get("role")
    if not isinstance(role, str) or role not in _KEYS:
        raise _problem(f"{where}.role", f"expected one of {', '.join(_KEYS)}, got {role!r}")
    for key, value in data.items():
        if key not in _KEYS[role] and not _says_nothing(value):
            takes = ", ".join(sorted(_KEYS[role]))
            raise _problem(
                f"{where}.{key}",
                f"not read from a {role} dict, which takes {takes} (a full Chat "
                "Completions message is for the openai adapter's decode_request)",
            )
    if role == "assistant":
        text = _text(_optional(data, "content", where))
        return role, (*text, *_tool_calls(data.get("tool_calls"), f"{where}.tool_calls"))
    text = _text(_required(data, "content", where))
    if role == "tool":
        result = ToolResultPart(
            tool_call_id=_required(data, "tool_call_id", where),
            name=_optional(data, "name", where),
            content=text,
        )
        return role, (result,)
    return role, text


def _tool_calls(calls: object, where: str) -> list[ToolCallPart]:
    if _says_nothing(calls):
        return []
    if not isinstance(calls, Sequence) or isinstance(calls, str):
        raise _problem(where, f"expected a list of tool calls, got {type(calls).__name__}")
    parts = []
    for number, call in enumerate(calls):
        here = f"{where}[{number}]"
        if not isinstance(call, Mapping):
            raise _problem(here, f"expected a dict, got {type(call).__name__}")
        if call.get("type", "function") != "function":
            raise _problem(f"{here}.type", f"expected 'function', got {call['type']!r}")
        function = call.get("function")
        if not isinstance(function, Mapping):
            raise _problem(f"{here}.function", "expected a dict with the name and arguments")
        arguments = _optional(function, "arguments", f"{here}.function")
        parts.append(
            ToolCallPart(
                id=_required(call, "id", here),
                name=_required(function, "name", f"{here}.function"),
                arguments="{}" if arguments is None else arguments,
            )
        )
    return parts


def _text(content: str | None) -> tuple[TextPart, ...]:
    return (TextPart(text=content),) if content else ()


def _optional(data: Mapping[str, Any], key: str, where: str) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    raise _problem(f"{where}.{key}", f"expected a string, got {type(value).__name__}")


def _required(data: Mapping[str, Any], key: str, where: str) -> str:
    value = _optional(data, key, where)
    if value is None:
        raise _problem(f"{where}.{key}", "field required")
    return value


def _says_nothing(value: object) -> bool:
    return value is None or (isinstance(value, str | list | tuple | dict) and not value)


def _problem(where: str, problem: str) -> InvalidDataError:
    return InvalidDataError([(where, problem)], subject="message dict")
