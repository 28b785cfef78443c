"""Google's schema, "a select subset of an OpenAPI 3.0 schema object" (a
`responseSchema`, a function declaration's `parameters`), read as the JSON
Schema that means the same.

    Schema                              JSON Schema
    type "OBJECT" (or "object")         "object"; `TYPE_UNSPECIFIED`: no type
    nullable: true                      "null" added to the type (and to an `enum`
                                        without it); with no type, `{"type": "null"}`
                                        added to `anyOf`; false: nothing
    propertyOrdering                    the properties in that order; the keyword left out
    format "enum"                       left out: the `enum` says it
    maxItems "3" (and the other counts) 3
    example                             examples: [example]
    ref "#/defs/Pet", defs (Vertex AI)  $ref "#/$defs/Pet", $defs
    items, properties, anyOf, ...       each schema in them read the same way
    any other keyword                   as it came (title, description, enum, required,
                                        minimum, pattern, default, ...)

Nothing the schema says is lost, so nothing is reported: a JSON object's
keys have no order, and a target that writes them in its schema's order
(OpenAI's structured outputs: "outputs will be produced in the same order as
the ordering of keys in the schema") gets them in `propertyOrdering`'s.
Keywords come in camelCase or snake_case (`property_ordering`, `any_of`);
a property's name is never respelled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua_google._wire import WireDict, snake, spelled

__all__ = ["json_schema"]

_ONE = frozenset({"items", "additionalProperties"})
_LISTS = frozenset({"anyOf", "oneOf", "allOf"})
_MAPS = {"properties": "properties", "defs": "$defs"}
# Quirk: the counts are int64 fields, which Google's JSON mapping of protocol buffers
# writes as strings (the Schema reference: `"maxItems": string`); the API takes either.
_COUNTS = frozenset(
    {"maxItems", "minItems", "maxLength", "minLength", "maxProperties", "minProperties"}
)
_READ = frozenset({"type", "nullable", "format", "example", "ref", "propertyOrdering"})
_KEYWORDS = _ONE | _LISTS | _MAPS.keys() | _COUNTS | _READ


def json_schema(schema: Mapping[str, Any]) -> WireDict:
    """The JSON Schema `schema` (Google's subset) means; a new object."""
    values, _, snaked = spelled(schema, _KEYWORDS)
    names = {snake(name): name for name in snaked}
    result: WireDict = {}
    for key, value in schema.items():  # in the order they came
        name = names.get(key, key)
        result.update(_keyword(name, value) if name in values else {key: value})
    if values.get("nullable") is True:
        _allow_null(result)
    # Quirk: Gemini writes an object's properties in `propertyOrdering`'s order (Google's
    # structured output guide: "By default, the API orders properties alphabetically").
    order = values.get("propertyOrdering")
    if isinstance(order, list) and isinstance(result.get("properties"), dict):
        properties = result["properties"]
        first = {name: properties[name] for name in order if name in properties}
        result["properties"] = first | properties
    return result


def _keyword(key: str, value: Any) -> WireDict:
    """The JSON Schema keywords one keyword of Google's schema gives."""
    match key:
        case "type":
            return _type(value)
        case "nullable" | "propertyOrdering":
            return {}  # read with the whole node
        case "format" if value == "enum":
            return {}
        case "example":
            return {"examples": [value]}
        case "ref" if isinstance(value, str):
            return {"$ref": value.replace("#/defs/", "#/$defs/", 1)}
        case _ if key in _ONE and isinstance(value, dict):
            return {key: json_schema(value)}
        case _ if key in _LISTS and isinstance(value, list):
            return {key: [_schema_or_value(item) for item in value]}
        case _ if key in _MAPS and isinstance(value, dict):
            return {_MAPS[key]: {name: _schema_or_value(item) for name, item in value.items()}}
        case _ if key in _COUNTS and isinstance(value, str) and value.isdigit():
            return {key: int(value)}
        case _:
            return {key: value}


def _type(value: Any) -> WireDict:
    if isinstance(value, str):
        return {} if value == "TYPE_UNSPECIFIED" else {"type": value.lower()}
    if isinstance(value, list):
        return {"type": [kind.lower() if isinstance(kind, str) else kind for kind in value]}
    return {"type": value}


def _allow_null(result: WireDict) -> None:
    kind = result.get("type")
    if isinstance(kind, str) and kind != "null":
        result["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        result["type"] = [*kind, "null"]
    elif kind is None and isinstance(result.get("anyOf"), list):
        result["anyOf"] = [*result["anyOf"], {"type": "null"}]
    enum = result.get("enum")
    if isinstance(enum, list) and None not in enum:
        result["enum"] = [*enum, None]


def _schema_or_value(value: Any) -> Any:
    return json_schema(value) if isinstance(value, dict) else value
