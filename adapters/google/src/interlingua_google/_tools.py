"""Tool definitions: the request's `tools` list <-> `ToolSpec`s.

A function declaration is a `ToolSpec`: `name`, `description`, and its
schema as `parameters`, in JSON Schema: `parametersJsonSchema` taken whole,
or `parameters`, Google's OpenAPI subset (which `@ai-sdk/google` and the
`google-genai` SDK write: `type: "OBJECT"`, `nullable`, ...), read as the
JSON Schema it means (`_schema`), so that every other API gets a schema it
takes. The `parameters` as it came is the declaration's form `parameters`,
sent back in its place while the tool's JSON Schema is still the one read
from it; a schema from elsewhere, or one changed since, goes as
`parametersJsonSchema`, which takes any JSON Schema ("the
parametersJsonSchema field ... accepts a JSON Schema"), so no keyword of it
is refused. Whether a declaration had no schema at all is its form `schema`.
Its other fields (`response`, `behavior`, a null) are its provider data's
`fields`.

Google's own tools (`googleSearch`, `codeExecution`, `urlContext`,
`fileSearch`, any other entry) have no core form and no meaning elsewhere:
they stay in the request's options as they came. Where the declarations
were not all in one first entry, the request's form `tool_layout` holds the
list with each declarations entry's names, so the list comes back in its
order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from interlingua import ToolSpec, TranslationReport
from interlingua.codec import WireReader, copy_json, keep, kept, overlay
from interlingua_google._schema import json_schema
from interlingua_google._wire import PROVIDER, ToolForms, WireDict, respelled, snake, spelled

__all__ = ["DECLARATIONS", "decode_tools", "encode_tools"]

DECLARATIONS = "functionDeclarations"
_DECLARATION_KEYS = frozenset({"name", "description", "parameters", "parametersJsonSchema"})

_reader = WireReader(PROVIDER)


def decode_tools(value: Any) -> tuple[tuple[ToolSpec, ...], list[Any] | None]:
    """The declared functions, and the tools list with each declarations
    entry as its names (None when it is one declarations entry and nothing else)."""
    if value is None:
        return (), None
    tools = _reader.array(value, "tools")
    specs: list[ToolSpec] = []
    layout: list[Any] = []
    for k, raw in enumerate(tools):
        tool = _reader.object(raw, f"tools[{k}]")
        key = next((name for name in (DECLARATIONS, snake(DECLARATIONS)) if name in tool), None)
        if key is None or len(tool) != 1:
            layout.append(tool)
            continue
        where = f"tools[{k}].{key}"
        declared = [
            _decode_declaration(item, f"{where}[{j}]")
            for j, item in enumerate(_reader.array(tool[key], where))
        ]
        specs += declared
        layout.append({key: [spec.name for spec in declared]})
    default = len(layout) == 1 and set(layout[0]) == {DECLARATIONS}
    return tuple(specs), None if default else layout


def _decode_declaration(raw: Any, path: str) -> ToolSpec:
    values, fields, snaked = spelled(_reader.object(raw, path), _DECLARATION_KEYS)
    for key in [key for key, item in values.items() if item is None]:
        fields[snake(key) if key in snaked else key] = values.pop(key)  # a null, kept as it came
    schema_key = next((k for k in ("parametersJsonSchema", "parameters") if k in values), None)
    if schema_key is not None and "parameters" in values and "parametersJsonSchema" in values:
        fields["parameters"] = values.pop("parameters")  # both given: the JSON Schema is modeled
    schema = _reader.field(values, schema_key, path, dict) if schema_key else {}
    forms = ToolForms()
    if schema_key == "parameters":
        forms["parameters"] = schema
        schema = json_schema(schema)
    else:
        forms["schema"] = schema_key or "absent"
    if snaked := [name for name in snaked if name in values]:
        forms["snake_case"] = snaked
    return ToolSpec(
        name=_reader.field(values, "name", path, str),
        description=_reader.field(values, "description", path, str, None),
        parameters=schema,
        provider_data=keep(PROVIDER, fields=fields, forms=forms),
    )


def encode_tools(
    specs: Sequence[ToolSpec], layout: list[Any] | None, report: TranslationReport
) -> list[Any] | None:
    """The tools list: the declarations where the layout puts them (one first
    entry by default), then Google's own tools as they came."""
    if not specs and layout is None:
        return None
    by_name = {spec.name: _declaration(spec, f"tools[{k}]", report) for k, spec in enumerate(specs)}
    tools: list[Any] = []
    for entry in layout or [{DECLARATIONS: []}]:
        names = _declared_names(entry)
        if names is None:
            tools.append(copy_json(entry))
            continue
        key = next(iter(entry))
        tools.append({key: [by_name.pop(name) for name in names if name in by_name]})
    if by_name:  # declarations the layout does not place: in the first entry of them
        first = next((t for t in tools if _declared_names(t) is not None), None)
        if first is None:
            tools.insert(0, first := {DECLARATIONS: []})
        first[next(iter(first))].extend(by_name.values())
    return [tool for tool in tools if _declared_names(tool) != [] or tool in (layout or [])]


def _declared_names(entry: Any) -> list[Any] | None:
    if not isinstance(entry, dict) or len(entry) != 1:
        return None
    key, value = next(iter(entry.items()))
    return cast(list[Any], value) if key in (DECLARATIONS, snake(DECLARATIONS)) else None


def _declaration(spec: ToolSpec, path: str, report: TranslationReport) -> WireDict:
    entry = kept(spec, PROVIDER)
    forms = cast(ToolForms, entry.get("forms", {}))
    declaration: WireDict = {"name": spec.name}
    if spec.description is not None:
        declaration["description"] = spec.description
    declaration.update(_schema_field(spec, forms))
    if spec.strict:  # strict=False is what Gemini does unasked: nothing lost
        report.dropped(f"{path}.strict", "Gemini has no strict setting for a function", "setting")
    if fields := entry.get("fields"):
        declaration = overlay(declaration, copy_json(fields))
    return respelled(declaration, forms.get("snake_case"))


def _schema_field(spec: ToolSpec, forms: ToolForms) -> WireDict:
    """The declaration's schema: the `parameters` it was read from while the
    spec's JSON Schema is still that one's, else `parametersJsonSchema`
    (none where the declaration had none and the spec has none)."""
    original = forms.get("parameters")
    if original is not None and json_schema(original) == spec.parameters:
        return {"parameters": copy_json(original)}
    if forms.get("schema") == "absent" and not spec.parameters:
        return {}
    return {"parametersJsonSchema": copy_json(spec.parameters)}
