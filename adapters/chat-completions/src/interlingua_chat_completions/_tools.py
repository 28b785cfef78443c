"""Tool definitions: the request's `tools` list to and from `ToolSpec`s, for
Chat Completions (`{"type": "function", "function": {...}}`) and, through
`function_fields` and `decode_function`, the Responses API (the same fields
flat beside `"type": "function"`).

A function tool is a `ToolSpec`: `name`, `description`, `parameters`,
`strict`. In `provider_data[<provider>]`: `forms.parameters` and
`forms.strict` (``"absent"``: the wire left them out or null), `fields` (what
encoding the spec does not give back: the function's other fields, and its
nulls). A list the core cannot hold exactly (a custom or built-in tool, a field
beside `type` and `function`) is also kept whole in
`provider_options[<provider>]["tools"]`, and sent as it came while its function
tools are still the request's; otherwise the function tools are sent, then the
others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from interlingua import ToolSpec
from interlingua.codec import WireReader, copy_json, keep, kept
from interlingua_chat_completions._parts import with_fields
from interlingua_chat_completions._wire import ToolSpecForms

__all__ = [
    "decode_function",
    "decode_tools",
    "encode_tools",
    "function_fields",
    "merge_recorded",
    "read_function_tools",
]

# The fields of a function the codec models (`function_fields` writes them back).
_FUNCTION_FIELDS = frozenset({"name", "description", "parameters", "strict"})


def function_fields(spec: ToolSpec, provider: str, *, strict: bool | None = None) -> dict[str, Any]:
    """A function's `name`, `description`, `parameters`, `strict` on the wire;
    `strict` is the value sent when the spec leaves it open (None: none sent)."""
    entry = kept(spec, provider)
    forms = entry.get("forms", {})
    function: dict[str, Any] = {"name": spec.name}
    if spec.description is not None:
        function["description"] = spec.description
    if forms.get("parameters") != "absent":
        function["parameters"] = copy_json(spec.parameters)
    if spec.strict is not None:
        function["strict"] = spec.strict
    elif strict is not None and forms.get("strict") != "absent":
        function["strict"] = strict
    return with_fields(function, entry)


def decode_function(
    wire: Mapping[str, Any],
    path: str,
    read: WireReader,
    *,
    framing: Iterable[str] = (),
    strict: bool | None = None,
) -> ToolSpec:
    """The spec a function's fields give; `framing` names the keys around them
    (`type`), `strict` is the value sent for a spec that leaves it open."""
    values: dict[str, Any] = {"name": read.field(wire, "name", path, str)}
    for key, kind in (("description", str), ("parameters", dict), ("strict", bool)):
        if wire.get(key) is not None:
            values[key] = read.field(wire, key, path, kind)
    forms: ToolSpecForms = {}
    if "parameters" not in values:
        forms["parameters"] = "absent"
    if "strict" not in values and strict is not None:
        forms["strict"] = "absent"
    # Beside the fields the spec gives, a null is kept: encoding leaves it out.
    modelled = _FUNCTION_FIELDS.union(framing)
    fields = {key: value for key, value in wire.items() if key not in modelled or value is None}
    return ToolSpec(**values, provider_data=keep(read.provider, fields=fields, forms=forms))


def merge_recorded(
    functions: list[dict[str, Any]],
    recorded: Any,
    as_function: Callable[[dict[str, Any]], dict[str, Any]],
) -> list[dict[str, Any]] | None:
    """The tools to send: a recorded list as it came while its function tools are
    still the request's (built-in and custom tools in their places), else the
    function tools followed by the recorded others; None for no tools at all."""
    if not isinstance(recorded, list):
        return functions or None
    kept = [as_function(t) for t in recorded if _is_function(t)]
    if kept == functions:
        return copy_json(recorded)
    return (functions + [copy_json(t) for t in recorded if not _is_function(t)]) or None


def encode_tools(
    specs: Sequence[ToolSpec], recorded: Any, provider: str
) -> list[dict[str, Any]] | None:
    """Chat Completions' `tools` list, or None when there is none."""
    functions = [{"type": "function", "function": function_fields(s, provider)} for s in specs]
    return merge_recorded(functions, recorded, _as_function_tool)


def read_function_tools(
    wire: Any, read: WireReader, decode: Callable[[dict[str, Any], str], ToolSpec]
) -> tuple[tuple[ToolSpec, ...], list[Any]]:
    """The specs of a `tools` list's function tools (`decode` reads one at its
    path), and the list."""
    if wire is None:
        return (), []
    items = read.array(wire, "tools")
    specs = []
    for index, item in enumerate(items):
        path = f"tools[{index}]"
        tool = read.object(item, path)
        if tool.get("type") == "function":
            specs.append(decode(tool, path))
    return tuple(specs), items


def decode_tools(wire: Any, read: WireReader, options: dict[str, Any]) -> tuple[ToolSpec, ...]:
    """The function tools; the whole list goes to `options` when they are not all there is."""

    def decode(tool: dict[str, Any], path: str) -> ToolSpec:
        return decode_function(read.field(tool, "function", path, dict), f"{path}.function", read)

    specs, items = read_function_tools(wire, read, decode)
    if not all(_is_function(t) and set(t) == {"type", "function"} for t in items):
        options["tools"] = items
    return specs


def _is_function(tool: Any) -> bool:
    return isinstance(tool, dict) and tool.get("type") == "function"


def _as_function_tool(tool: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": tool.get("function")}
