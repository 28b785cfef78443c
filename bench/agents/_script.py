"""What a scripted upstream reads in a request and answers, per upstream API.

Each API has a `Wire`: how its requests declare tools, carry tool results and
ask for a schema, and how its answers are written, whole or as a stream. The
script over them is the same for every API (`plan`):

- a request whose tools hold one to call, and no tool result yet: a call to
  it (a shell tool with `echo`, else the first function, its arguments made
  from its schema);
- a request with a tool result, or no tool: the final text, or, where the
  request asks for a schema (or offers a structured-output tool once the
  tool ran), JSON made from that schema.

Answers are written by hand in each API's wire shape, never by the code under
test, so that an upstream the gateway misreads shows as a failed lane.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

TOOL_WORD = "interlingua-tool-ok"  # what the echo prints, and the tools of our drivers return
FINAL_TEXT = "All done: the tool answered, and the lane is green."
SCHEMA_WORD = "lisbon"  # every string the schema filler writes, where no enum says otherwise
ECHO = f"echo {TOOL_WORD}"
# Tools the script calls first when offered (a shell, or our drivers' tool), by name.
PREFERRED = ("Bash", "shell_command", "exec_command", "shell", "local_shell", "get_weather")
# Tools whose call is the agent's structured answer: called last, with the schema's JSON.
OUTPUT_TOOLS = ("StructuredOutput", "json", "final_output", "final_result")


@dataclass(frozen=True)
class Tool:
    name: str
    schema: dict[str, Any]


@dataclass(frozen=True)
class Answer:
    """What to answer: a call of `tool` with `arguments`, or `text`."""

    text: str = ""
    tool: str | None = None
    arguments: dict[str, Any] | None = None


# --- JSON from a schema ---


def fill(
    schema: Any, defs: dict[str, Any] | None = None, name: str = "", *, required: bool = False
) -> Any:
    """A value of `schema` (JSON Schema, or Gemini's OpenAPI subset): strings are
    `SCHEMA_WORD` (or the echo, for a property named like a command); with
    `required`, an object's required properties alone (a tool's arguments)."""
    if not isinstance(schema, dict):
        return SCHEMA_WORD
    defs = {**(defs or {}), **schema.get("$defs", {}), **schema.get("definitions", {})}
    if "$ref" in schema:
        target = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
        return fill(target, defs, name, required=required)
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return fill(schema[key][0], defs, name, required=required)
    if schema.get("enum"):
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    kind = str(kind).lower()
    if kind == "object":
        properties = schema.get("properties", {})
        if required:
            needed = set(schema.get("required", []))
            properties = {key: value for key, value in properties.items() if key in needed}
        return {key: fill(value, defs, key, required=required) for key, value in properties.items()}
    if kind == "array":
        if name in ("command", "cmd"):
            return ["echo", TOOL_WORD]
        return [fill(schema.get("items", {}), defs, name, required=required)]
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return True
    return ECHO if name in ("command", "cmd") else SCHEMA_WORD


def plan(tools: list[Tool], results: list[str], schema: dict[str, Any] | None) -> Answer:
    """The script: a tool call, then the final text (or the schema's JSON)."""
    output = next((tool for tool in tools if tool.name in OUTPUT_TOOLS), None)
    callable_ = [tool for tool in tools if tool.name not in OUTPUT_TOOLS]
    chosen = next(
        (tool for name in PREFERRED for tool in callable_ if tool.name == name),
        callable_[0] if callable_ else None,
    )
    if chosen is not None and not results:
        arguments = fill(chosen.schema, required=True)
        if chosen.name == "Bash":
            arguments = {"command": ECHO, "description": "Print a word"}
        return Answer(tool=chosen.name, arguments=arguments)
    if output is not None:
        return Answer(tool=output.name, arguments=fill(output.schema))
    if schema is not None:
        return Answer(text=json.dumps(fill(schema)))
    return Answer(text=FINAL_TEXT)


def text_of(value: Any) -> str:
    """Every string inside `value`, joined (a tool result's text, whatever its shape)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " ".join(text_of(item) for item in value.values())
    if isinstance(value, list):
        return " ".join(text_of(item) for item in value)
    return ""


# --- reading requests ---


def chat_reading(body: dict[str, Any]) -> tuple[list[Tool], list[str], dict[str, Any] | None]:
    tools = [
        Tool(t["function"]["name"], t["function"].get("parameters") or {})
        for t in body.get("tools") or []
        if t.get("type") == "function"
    ]
    results = [text_of(m.get("content")) for m in body["messages"] if m.get("role") == "tool"]
    form = body.get("response_format") or {}
    schema = (
        form.get("json_schema", {}).get("schema") if form.get("type") == "json_schema" else None
    )
    return tools, results, schema


def messages_reading(body: dict[str, Any]) -> tuple[list[Tool], list[str], dict[str, Any] | None]:
    tools = [
        Tool(t["name"], t.get("input_schema") or {})
        for t in body.get("tools") or []
        if t.get("type") in (None, "custom") and "input_schema" in t
    ]
    results = [
        text_of(block.get("content"))
        for message in body["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    form = (body.get("output_config") or {}).get("format") or body.get("output_format") or {}
    return tools, results, form.get("schema")


def responses_reading(body: dict[str, Any]) -> tuple[list[Tool], list[str], dict[str, Any] | None]:
    tools = [
        Tool(t["name"], t.get("parameters") or {})
        for t in body.get("tools") or []
        if t.get("type") == "function"
    ]
    items = body.get("input")
    results = [
        text_of(item.get("output"))
        for item in (items if isinstance(items, list) else [])
        if item.get("type") in ("function_call_output", "custom_tool_call_output")
    ]
    form = (body.get("text") or {}).get("format") or {}
    return tools, results, form.get("schema") if form.get("type") == "json_schema" else None


def gemini_reading(body: dict[str, Any]) -> tuple[list[Tool], list[str], dict[str, Any] | None]:
    tools = [
        Tool(d["name"], d.get("parametersJsonSchema") or d.get("parameters") or {})
        for group in body.get("tools") or []
        for d in group.get("functionDeclarations") or group.get("function_declarations") or []
    ]
    results = [
        text_of(part.get("functionResponse") or part.get("function_response"))
        for content in body.get("contents") or []
        for part in content.get("parts") or []
        if "functionResponse" in part or "function_response" in part
    ]
    config = body.get("generationConfig") or body.get("generation_config") or {}
    schema = None
    for key in ("responseJsonSchema", "responseSchema", "response_json_schema", "response_schema"):
        schema = schema or config.get(key)
    return tools, results, schema
