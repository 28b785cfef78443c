"""Tool definitions: the request's `tools` list to and from `ToolSpec`s.

A function tool is a `ToolSpec`: `name`, `description`, `parameters`,
`strict`; other fields of its `function` object stay in
`provider_data[<provider>]["fields"]`, and a missing `parameters` is marked
``"absent"``. A list the core cannot hold exactly (a custom tool, a field
beside `type` and `function`) is also kept whole in
`provider_options[<provider>]["tools"]`, and sent as it came while its function
tools are still the request's; otherwise the function tools are sent, then the
others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua import ToolSpec
from interlingua.codec import WireReader
from interlingua_openai._common import rest

__all__ = ["decode_tools", "encode_tools"]


def encode_tools(
    specs: Sequence[ToolSpec], recorded: Any, provider: str
) -> list[dict[str, Any]] | None:
    """The `tools` list, or None when there is none."""
    functions = [_tool(spec, provider) for spec in specs]
    if isinstance(recorded, list):
        kept = [_as_function_tool(t) for t in recorded if _is_function(t)]
        others = [t for t in recorded if not _is_function(t)]
        return recorded if kept == functions else functions + others
    return functions or None


def decode_tools(wire: Any, read: WireReader, options: dict[str, Any]) -> tuple[ToolSpec, ...]:
    """The function tools; the whole list goes to `options` when they are not all there is."""
    if wire is None:
        return ()
    items = read.array(wire, "tools")
    specs = []
    for index, item in enumerate(items):
        tool = read.object(item, f"tools[{index}]")
        if tool.get("type") == "function":
            specs.append(_decode_tool(tool, f"tools[{index}]", read))
    if not all(_is_function(t) and set(t) == {"type", "function"} for t in items):
        options["tools"] = items
    return tuple(specs)


def _tool(spec: ToolSpec, provider: str) -> dict[str, Any]:
    data = spec.provider_data.get(provider, {})
    function: dict[str, Any] = {"name": spec.name}
    if spec.description is not None:
        function["description"] = spec.description
    if data.get("parameters") != "absent":
        function["parameters"] = spec.parameters
    if spec.strict is not None:
        function["strict"] = spec.strict
    function.update(data.get("fields", {}))
    return {"type": "function", "function": function}


def _decode_tool(tool: Mapping[str, Any], path: str, read: WireReader) -> ToolSpec:
    function = read.field(tool, "function", path, dict)
    path = f"{path}.function"
    known = {"name"}
    fields: dict[str, Any] = {"name": read.field(function, "name", path, str)}
    for key, kind in (("description", str), ("parameters", dict), ("strict", bool)):
        if function.get(key) is not None:
            fields[key] = read.field(function, key, path, kind)
            known.add(key)
    data: dict[str, Any] = {}
    if "parameters" not in function:
        data["parameters"] = "absent"
    if extra := rest(function, known):
        data["fields"] = extra
    return ToolSpec(**fields, provider_data={read.provider: data} if data else {})


def _is_function(tool: Any) -> bool:
    return isinstance(tool, dict) and tool.get("type") == "function"


def _as_function_tool(tool: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": tool.get("function")}
