"""Tool calls and tool messages of Chat Completions to and from core parts, in
requests and responses alike (the tools themselves are `_tools`').

    tool_calls[i] function                      ToolCallPart (`arguments` an object: its JSON text)
    tool_calls[i] custom                        ToolCallPart of the freeform tool (`ToolName`):
                                                arguments `{"input": ...}`, `forms.type`
    tool_calls[i] of another kind               ToolCallPart, the call in `echo.tool_call`
    function_call (deprecated)                  ToolCallPart, `forms.function_call`
    a tool (or function) message                ToolResultPart

A call goes back in its tool's form: in a request, a call made elsewhere is a
custom call where the request's spec of that name is a custom tool
(`custom_tool_names`); in an answer, where its name says it is a freeform
tool's. A function call whose own name reads so keeps the form `name: "plain"`.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from contextlib import suppress
from typing import Any

from interlingua import ToolArgumentsError, ToolCallPart, ToolName, ToolSpec
from interlingua.codec import (
    ProviderEntry,
    WireReader,
    copy_json,
    dump_arguments,
    freeform_arguments,
    freeform_input,
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
from interlingua_chat_completions._tools import wire_name
from interlingua_chat_completions._wire import ToolCallEcho, ToolCallForms, ToolResultForms

__all__ = [
    "answer_custom_tools",
    "call_fragment",
    "call_kind",
    "custom_call",
    "custom_tool_names",
    "decode_arguments",
    "decode_tool_calls",
    "decode_tool_message",
    "encode_tool_call",
    "function_arguments",
    "plain_name",
]

_ARGUMENTS = {"function": "arguments", "custom": "input"}  # where a call has them, by type
_CALL_KEYS = {kind: frozenset({"id", "type", kind}) for kind in _ARGUMENTS}  # modelled
_INNER_KEYS = {kind: frozenset({"name", key}) for kind, key in _ARGUMENTS.items()}


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


def encode_tool_call(
    part: ToolCallPart,
    call_id: str,
    entry: ProviderEntry,
    custom_tools: Container[str] | None = None,
) -> dict[str, Any]:
    """One entry of `tool_calls` (a custom tool's call, a call of another kind kept
    whole); `entry` is what the part keeps for the provider. A call made
    elsewhere is a custom call where its tool is one: in a request, a name of
    `custom_tools` (the request's custom tools); in an answer (None), a name
    that says so (`ToolName`)."""
    if "tool_call" in (echo := entry.get("echo", {})):
        return copy_json(echo["tool_call"])
    forms = entry.get("forms", {})
    kind = call_kind(part.name, forms, custom_tools)
    if kind == "custom":
        call = _custom_call(part, call_id)
    else:
        call = _call(kind, call_id, part.name, part.arguments)
    if forms.get("typed") is False:
        del call["type"]
    if forms.get("arguments") == "absent" and part.arguments == "{}":
        del call["function"]["arguments"]
    if forms.get("arguments") == "object":
        # As it came, an object; arguments that are no JSON object go as their text.
        with suppress(ToolArgumentsError):
            call["function"]["arguments"] = part.parsed_arguments()
    return with_fields(call, entry)


# No name is a custom tool's, for a server without custom tools.
_NO_CUSTOM_TOOLS: frozenset[str] = frozenset()


def answer_custom_tools(server_takes_them: bool) -> Container[str] | None:
    """What `encode_tool_call` is given in an answer: None (a name that says it
    is a freeform tool's is a custom call) where the server has custom tools
    (the dialect's `custom_tools`), else no name."""
    return None if server_takes_them else _NO_CUSTOM_TOOLS


def call_kind(
    name: str, forms: Mapping[str, Any], custom_tools: Container[str] | None = None
) -> str:
    """`function` or `custom`: the kind of call a part named `name`, with `forms`,
    goes as (see `encode_tool_call`)."""
    if "type" in forms:
        return str(forms["type"])
    if forms.get("name") == "plain":
        return "function"
    if custom_tools is None:
        return "custom" if ToolName.says_freeform(name) else "function"
    return "custom" if name in custom_tools else "function"


def _custom_call(part: ToolCallPart, call_id: str) -> dict[str, Any]:
    """A custom tool's call: its input is the freeform call's text (a call kept
    before freeform tools had their names holds that text as its arguments)."""
    if not ToolName.says_freeform(part.name):
        return _call("custom", call_id, part.name, part.arguments)
    text = freeform_input(part.arguments)
    return _call("custom", call_id, wire_name(part.name), part.arguments if text is None else text)


def custom_tool_names(specs: Iterable[ToolSpec], provider: str) -> frozenset[str]:
    """The names of the specs sent as custom tools: their calls go as custom calls."""
    return frozenset(
        spec.name for spec in specs if kept(spec, provider).get("forms", {}).get("type") == "custom"
    )


def decode_arguments(arguments: Any) -> tuple[Any, ToolCallForms]:
    """A call's `arguments` as text, and the form to keep: some servers send
    (and take) an object instead of its JSON text."""
    if isinstance(arguments, dict):
        return dump_arguments(arguments), {"arguments": "object"}
    return arguments, {}


def function_arguments(
    function: Mapping[str, Any], path: str, read: WireReader
) -> tuple[str, ToolCallForms]:
    """A function call's `arguments` as text, and the form they came in."""
    arguments, forms = decode_arguments(function.get("arguments"))
    if "arguments" not in function:
        # Quirk: OpenRouter sends a call of a tool whose parameters are all optional
        # with no `arguments` at all (Anthropic models through Google Vertex).
        arguments, forms = "{}", {"arguments": "absent"}
    return read.field({"arguments": arguments}, "arguments", path, str), forms


def custom_call(name: str, text: str) -> tuple[str, str]:
    """A custom tool's call as the core holds it: the freeform tool's name, and
    its input as the arguments of the function that tool is offered as."""
    return str(ToolName(name, freeform=True)), freeform_arguments(text)


def plain_name(name: str) -> ToolCallForms:
    """The form of a function call whose name reads as a freeform tool's."""
    return {"name": "plain"} if ToolName.says_freeform(name) else {}


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
    if kind == "custom":
        name, arguments = custom_call(name, read.field(inner, "input", where, str))
        forms: ToolCallForms = {"type": "custom"}
    else:
        arguments, forms = function_arguments(inner, where, read)
        forms.update(plain_name(name))
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
