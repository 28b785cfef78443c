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

Tool calls, in requests and responses alike:

    tool_calls[i] function / custom             ToolCallPart (`arguments` an object: its JSON text)
    tool_calls[i] of another kind               ToolCallPart, the call in `echo.tool_call`
    function_call (deprecated)                  ToolCallPart, `forms.function_call`
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from typing import Any

from interlingua import (
    ToolArgumentsError,
    ToolCallPart,
    ToolChoice,
    ToolSpec,
)
from interlingua.codec import (
    ProviderEntry,
    WireReader,
    copy_json,
    dump_arguments,
    keep,
    kept,
    other_fields,
)
from interlingua_chat_completions._data import (
    MessageData,
    PartData,
    message_data,
    tool_call_data,
    tool_result_data,
)
from interlingua_chat_completions._parts import PartDecoder, content_marker, with_fields
from interlingua_chat_completions._wire import (
    ToolCallEcho,
    ToolCallForms,
    ToolResultForms,
    ToolSpecForms,
)

__all__ = [
    "call_fragment",
    "decode_arguments",
    "decode_function",
    "decode_tool_calls",
    "decode_tool_message",
    "decode_tools",
    "encode_tool_call",
    "encode_tool_choice",
    "encode_tools",
    "function_fields",
    "merge_recorded",
    "named_function",
    "read_function_tools",
]

# The fields of a function the codec models (`function_fields` writes them back).
_FUNCTION_FIELDS = frozenset({"name", "description", "parameters", "strict"})
_ARGUMENTS = {"function": "arguments", "custom": "input"}  # where a call has them, by type
_CALL_KEYS = {kind: frozenset({"id", "type", kind}) for kind in _ARGUMENTS}  # modelled
_INNER_KEYS = {kind: frozenset({"name", key}) for kind, key in _ARGUMENTS.items()}


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
) -> ToolSpec:
    """The spec a function's fields give; `framing` names the keys around them
    (`type`), `strict` is the value sent for a spec that leaves it open, `forms`
    what the framing's form was."""
    values: dict[str, Any] = {"name": read.field(wire, "name", path, str)}
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
    functions = [_function_tool(s, provider) for s in specs]
    return merge_recorded(functions, recorded, _as_function_tool)


def _function_tool(spec: ToolSpec, provider: str) -> dict[str, Any]:
    function = function_fields(spec, provider)
    if kept(spec, provider).get("forms", {}).get("type") == "absent":
        return {"function": function}
    return {"type": "function", "function": function}


def read_function_tools(
    wire: Any,
    read: WireReader,
    decode: Callable[[dict[str, Any], str], ToolSpec],
    is_function: Callable[[Any], bool] = lambda tool: tool.get("type") == "function",
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
        if is_function(tool):
            specs.append(decode(tool, path))
    return tuple(specs), items


def decode_tools(wire: Any, read: WireReader, options: dict[str, Any]) -> tuple[ToolSpec, ...]:
    """The function tools; the whole list goes to `options` when they are not all there is."""

    def decode(tool: dict[str, Any], path: str) -> ToolSpec:
        function = read.field(tool, "function", path, dict)
        forms: ToolSpecForms = {} if "type" in tool else {"type": "absent"}
        return decode_function(function, f"{path}.function", read, forms=forms)

    specs, items = read_function_tools(wire, read, decode, _is_function)
    # An empty list (sent by some clients) is kept, so that it goes back as it came.
    if (wire is not None and not items) or not all(
        _is_function(t) and set(t) <= {"type", "function"} for t in items
    ):
        options["tools"] = items
    return specs


def _is_function(tool: Any) -> bool:
    """A function tool: typed so, or (older Mistral clients) a `function` alone."""
    if not isinstance(tool, dict):
        return False
    return tool.get("type") == "function" or ("type" not in tool and "function" in tool)


def _as_function_tool(tool: dict[str, Any]) -> dict[str, Any]:
    framing = {"type": "function"} if "type" in tool else {}
    return {**framing, "function": tool.get("function")}


# --- tool calls, in requests and responses alike ---


def decode_tool_calls(wire: Mapping[str, Any], path: str, read: WireReader) -> list[PartData]:
    """The calls of an assistant message: `tool_calls`, then a legacy `function_call`."""
    calls = [
        _decode_tool_call(item, f"{path}.tool_calls[{i}]", read)
        for i, item in enumerate(read.field(wire, "tool_calls", path, list, None) or [])
    ]
    function_call = read.field(wire, "function_call", path, dict, None)
    if function_call is not None:
        calls.append(_decode_function_call(function_call, f"{path}.function_call", read))
    return calls


def _call(kind: str, call_id: str, name: str, arguments: str) -> dict[str, Any]:
    """One function or custom call of `tool_calls`, as the codec writes it."""
    return {"id": call_id, "type": kind, kind: {"name": name, _ARGUMENTS[kind]: arguments}}


def call_fragment(kind: str, index: int, arguments: str) -> dict[str, Any]:
    """A later piece of streamed call `index` of `kind` (`function`, `custom`):
    more of its arguments, under its index alone."""
    return {"index": index, kind: {_ARGUMENTS[kind]: arguments}}


def encode_tool_call(part: ToolCallPart, call_id: str, entry: ProviderEntry) -> dict[str, Any]:
    """One entry of `tool_calls` (a custom tool's call, a call of another kind kept
    whole); `entry` is what the part keeps for the provider."""
    if "tool_call" in (echo := entry.get("echo", {})):
        return copy_json(echo["tool_call"])
    forms = entry.get("forms", {})
    call = _call(forms.get("type", "function"), call_id, part.name, part.arguments)
    if forms.get("typed") is False:
        del call["type"]
    if forms.get("arguments") == "absent" and part.arguments == "{}":
        del call["function"]["arguments"]
    if forms.get("arguments") == "object":
        # As it came, an object; arguments that are no JSON object go as their text.
        with suppress(ToolArgumentsError):
            call["function"]["arguments"] = part.parsed_arguments()
    return with_fields(call, entry)


def decode_arguments(arguments: Any) -> tuple[Any, ToolCallForms]:
    """A call's `arguments` as text, and the form to keep: some servers send
    (and take) an object instead of its JSON text."""
    if isinstance(arguments, dict):
        return dump_arguments(arguments), {"arguments": "object"}
    return arguments, {}


def _decode_tool_call(item: Any, path: str, read: WireReader) -> PartData:
    """One entry of `tool_calls`: a function call, a custom tool's call, or
    another kind kept whole."""
    item = read.object(item, path)
    call_id = read.field(item, "id", path, str)
    kind = read.field(item, "type", path, str, None) or "function"
    if kind not in ("function", "custom"):
        body = item.get(kind)
        name = body.get("name") if isinstance(body, dict) else None
        name = name if isinstance(name, str) else kind
        return tool_call_data(
            call_id, name, "{}", keep(read.provider, echo=ToolCallEcho(tool_call=item))
        )
    inner = read.field(item, kind, path, dict)
    where = f"{path}.{kind}"
    name = read.field(inner, "name", where, str)
    arguments, forms = decode_arguments(inner.get(_ARGUMENTS[kind]))
    if kind == "function" and "arguments" not in inner:
        # Quirk: OpenRouter sends a call of a tool whose parameters are all optional
        # with no `arguments` at all (Anthropic models through Google Vertex).
        arguments, forms = "{}", {"arguments": "absent"}
    arguments = read.field({"arguments": arguments}, "arguments", where, str)
    if kind == "custom":
        forms["type"] = "custom"
    if "type" not in item:
        forms["typed"] = False
    # What the call, and its function (or custom tool), hold beside the keys modelled.
    fields = other_fields(item, _CALL_KEYS[kind])
    if beside := other_fields(inner, _INNER_KEYS[kind]):
        fields[kind] = beside
    return tool_call_data(
        call_id, name, arguments, keep(read.provider, fields=fields, forms=forms or None)
    )


def _decode_function_call(call: Mapping[str, Any], path: str, read: WireReader) -> PartData:
    """The deprecated message-level `function_call`, which has no id."""
    return tool_call_data(
        "",
        read.field(call, "name", path, str),
        read.field(call, "arguments", path, str),
        keep(read.provider, forms=ToolCallForms(function_call=True)),
    )


# --- tool results, in requests ---

_TOOL_MESSAGE = frozenset({"role", "content", "tool_call_id"})
_NAMED_TOOL_MESSAGE = _TOOL_MESSAGE | {"name"}


def decode_tool_message(
    wire: Mapping[str, Any], role: str, path: str, decoder: PartDecoder
) -> MessageData:
    """A `tool` message (or a deprecated `function` one): one `ToolResultPart`."""
    read, provider = decoder.read, decoder.provider
    parts, items = decoder.content(wire, path, decoder.tool_item)
    name = read.field(wire, "name", path, str, None)
    forms: ToolResultForms = {}
    if (form := content_marker(wire, items, has_other=False)) is not None:
        forms["content"] = form
    if role == "function":
        # The deprecated `functions` API: results are matched by name, not id.
        call_id, forms["role"] = "", "function"
        name = read.field(wire, "name", path, str)
    else:
        call_id = read.field(wire, "tool_call_id", path, str)
        if name is not None:
            forms["name"] = True
    result = tool_result_data(call_id, name, parts, keep(provider, forms=forms))
    # An explicit `"name": null` stays among the message's fields, as sent.
    modelled = _TOOL_MESSAGE if name is None else _NAMED_TOOL_MESSAGE
    fields = None if wire.keys() <= modelled else other_fields(wire, modelled)
    data = keep(provider, fields=fields)
    return message_data("tool", [result], data)


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
