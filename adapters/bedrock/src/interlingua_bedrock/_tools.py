"""Tool definitions: `toolConfig.tools` <-> `ToolSpec`s.

A `toolSpec` is a `ToolSpec`: `name`, `description`, `inputSchema.json` as
`parameters`, `strict`; its other fields are its provider data's `fields`,
and a `cachePoint` entry right after it its field `cachePoint`, as a block's.

Bedrock's own tools (`systemTool`, Nova's `nova_code_interpreter`) and any
other entry have no core form: they are kept as they came in
`provider_options["bedrock"]["tools"]` and sent after the client tools. A
client tool's name in that list keeps its place, written only where a kept
entry came before a client tool, so the list comes back in its order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interlingua import ToolSpec
from interlingua.codec import WireReader, copy_json, keep, kept, leftover, overlay
from interlingua_bedrock._parts import is_cache_point
from interlingua_bedrock._wire import CACHE_POINT, PROVIDER, ToolSpecification, WireDict

__all__ = ["decode_tools", "encode_tools"]

_reader = WireReader(PROVIDER)


def decode_tools(value: Any, path: str) -> tuple[tuple[ToolSpec, ...], list[Any] | None]:
    """The client tools, and the list to keep (None when there is nothing to keep)."""
    if value is None:
        return (), None
    tools = _reader.array(value, path)
    specs: list[ToolSpec] = []
    listed: list[Any] = []
    took = False  # the tool before took the cache point after it
    for k, raw in enumerate(tools):
        entry = _reader.object(raw, f"{path}[{k}]")
        spec = entry.get("toolSpec") if len(entry) == 1 else None
        if took:
            took = False
        elif (
            isinstance(spec, dict)
            and isinstance(spec.get("inputSchema"), dict)
            and "json" in spec["inputSchema"]
        ):
            took = k + 1 < len(tools) and is_cache_point(tools[k + 1])
            specs.append(
                _decode_tool(spec, f"{path}[{k}].toolSpec", tools[k + 1] if took else None)
            )
            listed.append(specs[-1].name)
        else:
            listed.append(entry)
    first = next((k for k, tool in enumerate(listed) if isinstance(tool, dict)), len(listed))
    if all(isinstance(tool, dict) for tool in listed[first:]):
        listed = listed[first:]  # the default order: no names needed
    return tuple(specs), (listed if listed or not specs else None)


def _decode_tool(spec: WireDict, path: str, point: Any) -> ToolSpec:
    schema = _reader.field(spec, "inputSchema", path, dict)
    tool = ToolSpec(
        name=_reader.field(spec, "name", path, str),
        description=_reader.field(spec, "description", path, str, None),
        parameters=_reader.field(schema, "json", f"{path}.inputSchema", dict),
        strict=_reader.field(spec, "strict", path, bool, None),
    )
    fields = leftover(spec, _tool(tool))
    if point is not None:
        fields[CACHE_POINT] = point["cachePoint"]
    return (
        tool.model_copy(update={"provider_data": keep(PROVIDER, fields=fields)}) if fields else tool
    )


def encode_tools(specs: Sequence[ToolSpec], listed: Any) -> list[Any] | None:
    """The client tools first (each with the cache point after it), then the
    kept list with the names in it resolved."""
    if not specs and listed is None:
        return None
    by_name = {spec.name: _entries(spec) for spec in specs}
    placed = [
        entry
        for tool in listed or ()
        if not isinstance(tool, str) or tool in by_name
        for entry in (by_name.pop(tool) if isinstance(tool, str) else [copy_json(tool)])
    ]
    return [*(entry for entries in by_name.values() for entry in entries), *placed]


def _entries(spec: ToolSpec) -> list[WireDict]:
    fields = dict(kept(spec, PROVIDER).get("fields", {}))
    point = fields.pop(CACHE_POINT, None)
    entry = {"toolSpec": copy_json(overlay(_tool(spec), fields))}
    return [entry] if point is None else [entry, {CACHE_POINT: copy_json(point)}]


def _tool(spec: ToolSpec) -> ToolSpecification:
    tool = ToolSpecification(name=spec.name, inputSchema={"json": spec.parameters})
    # Quirk: Converse refuses an empty description ("valid min length: 1", botocore's
    # model); one sent empty says nothing, and goes unsent.
    if spec.description:
        tool["description"] = spec.description
    if spec.strict is not None:
        tool["strict"] = spec.strict
    return tool
