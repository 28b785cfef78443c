"""Tool definitions: the Responses API's `tools` list to and from `ToolSpec`s.

A function tool is `{"type": "function", "name", "description", "parameters",
"strict"}`: the Chat Completions function's fields flat beside its `type`, read
and written by `interlingua_chat_completions._tools`. In `provider_data`: `forms.strict`
and `forms.parameters` (``"absent"``), `fields` (the `leftover` of the tool).
Built-in tools (`web_search`, `file_search`, ...) are not `ToolSpec`s: the
whole list is kept in `provider_options["openai-responses"]["tools"]`, and
they go back in their places.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interlingua import ToolSpec
from interlingua.codec import WireReader
from interlingua_chat_completions._tools import (
    decode_function,
    function_fields,
    merge_recorded,
    read_function_tools,
)
from interlingua_openai.responses._wire import PROVIDER

__all__ = ["decode_tools", "encode_tools"]


def encode_tools(specs: Sequence[ToolSpec], recorded: Any) -> list[dict[str, Any]] | None:
    """The `tools` list, or None when there is none."""
    # Quirk: the API takes a `strict` left out as true; a spec that leaves it open
    # is sent `strict: false`.
    functions = [
        {"type": "function", **function_fields(spec, PROVIDER, strict=False)} for spec in specs
    ]
    # Built-in tools the core does not model stay in their places.
    return merge_recorded(functions, recorded, lambda tool: tool)


def decode_tools(wire: Any, read: WireReader, options: dict[str, Any]) -> tuple[ToolSpec, ...]:
    """The function tools; the whole list goes to `options` when they are not all there is."""

    def decode(tool: dict[str, Any], path: str) -> ToolSpec:
        return decode_function(tool, path, read, framing=("type",), strict=False)

    specs, items = read_function_tools(wire, read, decode)
    if len(specs) < len(items):
        options["tools"] = items
    return specs
