"""Tool definitions: the Responses API's `tools` (and the tools of an input
`additional_tools` item) to and from `ToolSpec`s.

    wire tool                                   core
    function (`name`, `description`,            ToolSpec (the Chat Completions function's
      `parameters`, `strict`)                     fields flat beside `type`: `function_fields`)
    custom (`name`, `description`, `format`)    ToolSpec.freeform: `<name>--freeform`, one string
                                                  `input`; `forms.type`, `forms.format: "text"`,
                                                  a grammar `format` in `fields`
    namespace (`name`, `description`, `tools`)  a ToolSpec per function or custom tool in it,
                                                  named `<namespace>--<name>` (`ToolName`)
    any other (`web_search`, `tool_search`...)  none: kept as it came

Where a list is more than function and custom tools, it is kept (`decode_tools`
says where) with each spec as its name, in a namespace too, so it comes back
in its order and its groups; the core reports each built-in tool another API
cannot take at its place in it, and begins each of a namespace's functions'
description with the namespace's elsewhere (`interlingua.codec.sent_tools`).
A spec the list does not name (made elsewhere) is sent as a function at the
end, whatever its name says: no namespace or custom tool is made up for it.

`ToolsEncoder` places the specs and says, for each, the name, namespace and
kind it went under (`ToolName`): a call made elsewhere goes back in the form
of its tool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interlingua import ToolName, ToolSpec
from interlingua.codec import WireReader, copy_json, keep, kept, other_fields
from interlingua_chat_completions._parts import with_fields
from interlingua_chat_completions._tools import decode_function, function_fields
from interlingua_openai.responses._calls import wire_name
from interlingua_openai.responses._wire import PROVIDER, ToolSpecForms

__all__ = ["ToolsEncoder", "decode_tool_list", "decode_tools"]

_CUSTOM_FIELDS = ("type", "name", "description", "format")
_TEXT_FORMAT = {"type": "text"}
_SPEC_KINDS = ("function", "custom")


def decode_tools(wire: Any, read: WireReader, options: dict[str, Any]) -> tuple[ToolSpec, ...]:
    """The specs of the `tools` list; the list goes to `options` where it is more."""
    if wire is None:
        return ()
    specs, layout = decode_tool_list(read.array(wire, "tools"), "tools", read)
    if not all(isinstance(entry, str) for entry in layout):
        options["tools"] = layout
    return tuple(specs)


def decode_tool_list(
    tools: list[Any], path: str, read: WireReader, namespace: str | None = None
) -> tuple[list[ToolSpec], list[Any]]:
    """The specs of a list of tools (at `path`; in `namespace`), and the list with
    each spec as its name, a namespace as its fields and that list."""
    specs: list[ToolSpec] = []
    layout: list[Any] = []
    for index, raw in enumerate(tools):
        where = f"{path}[{index}]"
        tool = read.object(raw, where)
        kind = tool.get("type")
        if kind in _SPEC_KINDS:
            specs.append(_decode_spec(tool, where, read, namespace))
            layout.append(specs[-1].name)
        elif kind == "namespace" and namespace is None:
            name = read.field(tool, "name", where, str)
            members = read.field(tool, "tools", where, list)
            inner, names = decode_tool_list(members, f"{where}.tools", read, name)
            specs += inner
            layout.append({**tool, "tools": names})
        else:
            layout.append(tool)
    return specs, layout


def _is_group(tool: dict[str, Any]) -> bool:
    return isinstance(tool.get("name"), str) and isinstance(tool.get("tools"), list)


def _decode_spec(
    tool: dict[str, Any], path: str, read: WireReader, namespace: str | None
) -> ToolSpec:
    name = read.field(tool, "name", path, str)
    if tool["type"] == "function":
        core = str(ToolName(name, namespace))
        return decode_function(tool, path, read, framing=("type",), strict=False, name=core)
    forms: ToolSpecForms = {"type": "custom"}
    fields = other_fields(tool, _CUSTOM_FIELDS)
    if tool.get("format") == _TEXT_FORMAT:
        forms["format"] = "text"
    elif "format" in tool:
        fields["format"] = tool["format"]  # a grammar: the wire's alone
    if "description" in tool and tool["description"] is None:
        fields["description"] = None
    return ToolSpec.freeform(
        name,
        read.field(tool, "description", path, str, None),
        namespace=namespace,
        provider_data=keep(PROVIDER, fields=fields, forms=forms),
    )


class ToolsEncoder:
    """Places a request's specs in the kept lists (the `tools` list, the tools of
    each `additional_tools` item), the others at the end of `tools`; `placed`
    says under what name, namespace and kind each went."""

    def __init__(self, specs: Sequence[ToolSpec]) -> None:
        self.specs = specs
        self.waiting: dict[str, list[ToolSpec]] = {}
        for spec in specs:
            self.waiting.setdefault(spec.name, []).append(spec)
        self.placed: dict[str, ToolName] = {}

    def items(self, kept_items: Any) -> list[dict[str, Any]]:
        """The `additional_tools` items kept, their tools placed."""
        if not isinstance(kept_items, list):
            return []
        return [self.group(item) for item in kept_items if isinstance(item, dict)]

    def tools(self, layout: Any) -> list[dict[str, Any]] | None:
        """The `tools` list, after the items: None when there is none."""
        placed = [self.entry(entry) for entry in layout] if isinstance(layout, list) else []
        tools = [tool for tool in placed if tool is not None]
        for spec in self.specs:
            if any(left is spec for left in self.waiting.get(spec.name, ())):
                tools.append(self.spec(spec, None))  # named by no list: as it is
        if tools or layout:
            return tools
        return None

    def entry(self, entry: Any, namespace: str | None = None) -> dict[str, Any] | None:
        if isinstance(entry, str):
            waiting = self.waiting.get(entry)
            return self.spec(waiting.pop(0), namespace) if waiting else None
        if isinstance(entry, dict) and entry.get("type") == "namespace" and _is_group(entry):
            group = self.group(entry, entry["name"])
            # A namespace whose tools are all gone is gone too.
            return group if group["tools"] or not entry["tools"] else None
        tool: dict[str, Any] = copy_json(entry)  # a tool the core does not model
        return tool

    def group(self, group: dict[str, Any], namespace: str | None = None) -> dict[str, Any]:
        entries = group.get("tools")
        tools = [self.entry(entry, namespace) for entry in entries or ()]
        placed = [tool for tool in tools if tool is not None]
        return {**copy_json(other_fields(group, ("tools",))), "tools": placed}

    def spec(self, spec: ToolSpec, namespace: str | None) -> dict[str, Any]:
        """The wire tool of `spec`, in `namespace`: a custom tool where the spec
        came as one, else a function."""
        entry = kept(spec, PROVIDER)
        forms = entry.get("forms", {})
        custom = forms.get("type") == "custom"
        name = ToolName(wire_name(spec.name, namespace, custom=custom), namespace, custom)
        self.placed[spec.name] = name
        if not custom:
            # Quirk: the API takes a `strict` left out as true; a spec that leaves it
            # open is sent `strict: false`.
            fields = function_fields(spec, PROVIDER, strict=False)
            return {"type": "function", **fields, "name": name.name}
        tool: dict[str, Any] = {"type": "custom", "name": name.name}
        if spec.description is not None:
            tool["description"] = spec.description
        if forms.get("format") == "text":
            tool["format"] = dict(_TEXT_FORMAT)
        return with_fields(tool, entry)
