"""Core values as data: what the decoders build for the values a history holds
most of (its messages, their text, tool calls and tool results).

Each is a dict in the shape of the value's dump. The request (or answer) that
holds it validates it in the same pass of pydantic-core as the rest of its
tree, which costs less than values built one by one: a value built on its own
is validated when built, then checked again inside the value holding it. A
list of parts may mix values (a dialect's reasoning parts, files) and data.

A field at its default (no name, no provider data) is left out of the data,
as a constructor is not given it: each value keeps a set of the fields it was
given, and a set of five names takes three times the memory of one of four.
"""

from __future__ import annotations

from typing import Any

from interlingua.codec import ProviderData

__all__ = [
    "MessageData",
    "PartData",
    "message_data",
    "text_data",
    "tool_call_data",
    "tool_result_data",
]

PartData = dict[str, Any]
MessageData = dict[str, Any]


def text_data(text: str, provider_data: ProviderData | None = None) -> PartData:
    """A `TextPart`."""
    if provider_data:
        return {"type": "text", "text": text, "provider_data": provider_data}
    return {"type": "text", "text": text}


def tool_call_data(call_id: str, name: str, arguments: str, data: ProviderData) -> PartData:
    """A `ToolCallPart`."""
    call: PartData = {"type": "tool_call", "id": call_id, "name": name, "arguments": arguments}
    if data:
        call["provider_data"] = data
    return call


def tool_result_data(
    call_id: str, name: str | None, content: list[Any], data: ProviderData
) -> PartData:
    """A `ToolResultPart`, its content values or data."""
    result: PartData = {"type": "tool_result", "tool_call_id": call_id, "content": content}
    if name is not None:
        result["name"] = name
    if data:
        result["provider_data"] = data
    return result


def message_data(role: str, parts: list[Any], provider_data: ProviderData) -> MessageData:
    """A `Message`, its parts values or data."""
    if provider_data:
        return {"role": role, "parts": parts, "provider_data": provider_data}
    return {"role": role, "parts": parts}
