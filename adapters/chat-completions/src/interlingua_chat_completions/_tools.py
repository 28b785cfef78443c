"""Tool definitions: the request's `tools` list to and from `ToolSpec`s, for
Chat Completions (`{"type": "function", "function": {...}}`) and, through
`function_fields` and `decode_function`, the Responses API (the same fields
flat beside `"type": "function"`).

A function tool is a `ToolSpec`: `name`, `description`, `parameters`,
`strict`. In `provider_data[<provider>]`: `forms.parameters` and
`forms.strict` (``"absent"``: the wire left them out or null), `fields` (what
encoding the spec does not give back: the function's other fields, and its
nulls), `echo.tool` (the tool's fields beside `type` and `function`).

A custom tool (`{"type": "custom", "custom": {"name", "description",
"format"}}`: free text in, not JSON) is the freeform `ToolSpec` of the core
(`ToolSpec.freeform`: the function of one string `input`, its name ending in
`--freeform`), with `forms.type: "custom"`; a `{"type": "text"}` format is the
form `format: "text"`, a grammar stays in `fields` (another API has no
grammar: it is reported there by name). Any other tool is kept as it came in
`provider_options[<provider>]["tools"]`, the list in its order with each
`ToolSpec` as its name (`place_tools` puts the specs back in their places).
A spec made elsewhere is sent as a function, whatever its name says.
Tool calls and tool messages are `_calls`'.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from interlingua import ToolChoice, ToolName, ToolSpec
from interlingua.codec import ProviderEntry, WireReader, copy_json, keep, kept, other_fields
from interlingua_chat_completions._parts import with_fields
from interlingua_chat_completions._wire import ToolSpecEcho, ToolSpecForms

__all__ = [
    "decode_function",
    "decode_tools",
    "encode_tool_choice",
    "encode_tools",
    "function_fields",
    "named_function",
    "place_tools",
    "wire_name",
]

# The fields of a function the codec models (`function_fields` writes them back).
_FUNCTION_FIELDS = frozenset({"name", "description", "parameters", "strict"})
_CUSTOM_FIELDS = frozenset({"name", "description", "format"})
_TEXT_FORMAT = {"type": "text"}


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
    forms: ToolSpecForms | None = None,
    echo: Mapping[str, Any] | None = None,
    name: str | None = None,
) -> ToolSpec:
    """The spec a function's fields give; `framing` names the keys around them
    (`type`), `strict` is the value sent for a spec that leaves it open, `forms`
    what the framing's form was, `echo` what to keep of the tool around it,
    `name` the spec's name where it is not the function's (in a namespace)."""
    values: dict[str, Any] = {"name": read.field(wire, "name", path, str)}
    if name is not None:
        values["name"] = name
    for key, kind in (("description", str), ("parameters", dict), ("strict", bool)):
        if wire.get(key) is not None:
            values[key] = read.field(wire, key, path, kind)
    forms = forms or {}
    if "parameters" not in values:
        forms["parameters"] = "absent"
    if "strict" not in values and strict is not None:
        forms["strict"] = "absent"
    # Beside the fields the spec gives, a null is kept: encoding leaves it out.
    modelled = _FUNCTION_FIELDS.union(framing)
    fields = {key: value for key, value in wire.items() if key not in modelled or value is None}
    data = keep(read.provider, fields=fields, forms=forms, echo=echo)
    return ToolSpec(**values, provider_data=data)


def place_tools(wires: Sequence[tuple[str, Any]], layout: Any) -> list[Any] | None:
    """The tools to send: each spec's (`wires`: its name and wire tool) in its place
    in a kept `layout` (the list as it came, each spec as its name), the other
    tools there as they came, and the specs it does not name after them; None
    for no tools at all (an empty list kept goes back empty)."""
    if not isinstance(layout, list):
        return [wire for _, wire in wires] or None
    by_name: dict[str, list[Any]] = {}
    for name, wire in wires:
        by_name.setdefault(name, []).append(wire)
    placed = []
    for entry in layout:
        if not isinstance(entry, str):
            placed.append(copy_json(entry))
        elif by_name.get(entry):
            placed.append(by_name[entry].pop(0))
    placed += [wire for name, wire in wires if any(wire is left for left in by_name[name])]
    return placed if placed or not layout else None


def encode_tools(
    specs: Sequence[ToolSpec], layout: Any, provider: str
) -> list[dict[str, Any]] | None:
    """Chat Completions' `tools` list, or None when there is none."""
    return place_tools([(spec.name, _tool(spec, provider)) for spec in specs], layout)


def _tool(spec: ToolSpec, provider: str) -> dict[str, Any]:
    entry = kept(spec, provider)
    forms = entry.get("forms", {})
    tool: dict[str, Any]
    if forms.get("type") == "custom":
        tool = {"type": "custom", "custom": _custom_fields(spec, entry)}
    elif forms.get("type") == "absent":
        tool = {"function": function_fields(spec, provider)}
    else:
        tool = {"type": "function", "function": function_fields(spec, provider)}
    if "tool" in (echo := entry.get("echo", {})):
        tool.update(copy_json(echo["tool"]))
    return tool


def wire_name(name: str) -> str:
    """A tool's name on a wire without namespaces: a freeform tool's without its
    `--freeform`, any other as it is."""
    parsed = ToolName.parse(name)
    return parsed.without_namespace().name if parsed.freeform else name


def _custom_fields(spec: ToolSpec, entry: ProviderEntry) -> dict[str, Any]:
    custom: dict[str, Any] = {"name": wire_name(spec.name)}
    if spec.description is not None:
        custom["description"] = spec.description
    if entry.get("forms", {}).get("format") == "text":
        custom["format"] = dict(_TEXT_FORMAT)
    return with_fields(custom, entry)


def decode_tools(wire: Any, read: WireReader, options: dict[str, Any]) -> tuple[ToolSpec, ...]:
    """The function and custom tools; where there are others, or none at all, the
    list (each spec as its name) goes to `options`."""
    if wire is None:
        return ()
    items = read.array(wire, "tools")
    specs: list[ToolSpec] = []
    layout: list[Any] = []
    for index, item in enumerate(items):
        path = f"tools[{index}]"
        spec = _decode_tool(read.object(item, path), path, read)
        if spec is not None:
            specs.append(spec)
        layout.append(item if spec is None else spec.name)
    # An empty list (sent by some clients) is kept, so that it goes back as it came.
    if not items or len(specs) < len(items):
        options["tools"] = layout
    return tuple(specs)


def _decode_tool(tool: dict[str, Any], path: str, read: WireReader) -> ToolSpec | None:
    """A function or custom tool's spec; None for a tool of another kind."""
    beside = other_fields(tool, ("type", "function", "custom"))
    echo = ToolSpecEcho(tool=beside) if beside else None
    if _is_function(tool):
        function = read.field(tool, "function", path, dict)
        forms: ToolSpecForms = {} if "type" in tool else {"type": "absent"}
        return decode_function(function, f"{path}.function", read, forms=forms, echo=echo)
    custom = tool.get("custom")
    if tool.get("type") != "custom" or not isinstance(custom, dict):
        return None
    where = f"{path}.custom"
    forms = {"type": "custom"}
    fields = other_fields(custom, _CUSTOM_FIELDS)
    if custom.get("format") == _TEXT_FORMAT:
        forms["format"] = "text"
    elif "format" in custom:
        fields["format"] = custom["format"]
    if "description" in custom and custom["description"] is None:
        fields["description"] = None
    return ToolSpec.freeform(
        read.field(custom, "name", where, str),
        read.field(custom, "description", where, str, None),
        provider_data=keep(read.provider, fields=fields, forms=forms, echo=echo),
    )


def _is_function(tool: Any) -> bool:
    """A function tool: typed so, or (older Mistral clients) a `function` alone."""
    if not isinstance(tool, dict):
        return False
    return tool.get("type") == "function" or ("type" not in tool and "function" in tool)


# --- tool choice ---


def encode_tool_choice(choice: ToolChoice, *, typed: bool = True) -> Any:
    """A choice other than "required" (whose word is the dialect's), as the wire
    writes it; a named one without its `type` unless `typed`."""
    if choice.mode == "tool":
        function = {"function": {"name": choice.name}}
        return {"type": "function", **function} if typed else function
    return choice.mode


def named_function(wire: Any) -> str | None:
    """The name in `{"type": "function", "function": {"name": ...}}`, if that is all there is
    (the `type` may be left out, as the Hugging Face router's client does)."""
    match wire:
        case {"type": "function", "function": {"name": str(name)} as function} if (
            len(wire) == 2 and len(function) == 1
        ):
            return name
        case {"function": {"name": str(name)} as function} if len(wire) == len(function) == 1:
            return name
    return None
