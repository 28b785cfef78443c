"""Tool definitions: the request's `tools` list <-> `ToolSpec`s.

A client tool (`type` absent or `custom`) is a `ToolSpec`: `name`,
`description`, `input_schema` as `parameters`, `strict`; its other fields
(`cache_control`, `type: "custom"`...) are its provider data's `fields`.

Anthropic's own tools (`web_search_20250305`, `code_execution_...`, any
other `type`) have no core form, and no meaning elsewhere: they are kept as
they came in `provider_options["anthropic"]["tools"]` and sent after the
client tools. A client tool's name in that list keeps its place, which
decoding writes only when an Anthropic tool came before a client tool, so
the list comes back in its order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interlingua import ToolSpec
from interlingua.codec import WireReader, copy_json, keep, kept, leftover, overlay
from interlingua_anthropic._wire import PROVIDER, Tool, WireDict

__all__ = ["decode_tools", "encode_tools"]

_reader = WireReader(PROVIDER)


def decode_tools(value: Any) -> tuple[tuple[ToolSpec, ...], list[Any] | None]:
    """The client tools, and the list to keep (None when there is nothing to keep)."""
    if value is None:
        return (), None
    tools = _reader.array(value, "tools")
    specs: list[ToolSpec] = []
    listed: list[Any] = []
    for k, raw in enumerate(tools):
        tool = _reader.object(raw, f"tools[{k}]")
        if tool.get("type") in (None, "custom"):
            specs.append(_decode_tool(tool, f"tools[{k}]"))
            listed.append(specs[-1].name)
        else:
            listed.append(tool)
    first = next((k for k, tool in enumerate(listed) if isinstance(tool, dict)), len(listed))
    if all(isinstance(tool, dict) for tool in listed[first:]):
        listed = listed[first:]  # the default order: no names needed
    return tuple(specs), (listed if listed or not specs else None)


def _decode_tool(tool: WireDict, path: str) -> ToolSpec:
    spec = ToolSpec(
        name=_reader.field(tool, "name", path, str),
        description=_reader.field(tool, "description", path, str, None),
        parameters=_reader.field(tool, "input_schema", path, dict),
        strict=_reader.field(tool, "strict", path, bool, None),
    )
    fields = leftover(tool, _tool(spec))
    return (
        spec.model_copy(update={"provider_data": keep(PROVIDER, fields=fields)}) if fields else spec
    )


def encode_tools(specs: Sequence[ToolSpec], listed: Any) -> list[Any] | None:
    """The client tools first, then the kept list with the names in it resolved."""
    if not specs and listed is None:
        return None
    by_name = {
        spec.name: copy_json(overlay(_tool(spec), kept(spec, PROVIDER).get("fields", {})))
        for spec in specs
    }
    placed = [
        by_name.pop(tool) if isinstance(tool, str) else copy_json(tool)
        for tool in listed or ()
        if not isinstance(tool, str) or tool in by_name
    ]
    return [*by_name.values(), *placed]


def _tool(spec: ToolSpec) -> Tool:
    tool = Tool(name=spec.name, input_schema=spec.parameters)
    if spec.description is not None:
        tool["description"] = spec.description
    if spec.strict is not None:
        tool["strict"] = spec.strict
    return tool
