"""Call items of the Responses API to and from `ToolCallPart`s, in requests
and responses alike (the part codec, `_parts`, dispatches to them).

    function_call                   ToolCallPart; in a `namespace`, named `<namespace>--<name>`
                                    (`interlingua.ToolName`), `forms.namespace`
    custom_tool_call                ToolCallPart of the freeform tool (`<name>--freeform`), its
                                    `input` as the arguments `{"input": ...}`, `forms.type`

Each goes back as it came. A call made elsewhere goes back in its tool's form:
in a request, as the request's tool of its name was sent (`ToolsEncoder`
says); in an answer, as its name says (`ToolName.parse`): so a call of a
namespace's function made by another API's model reaches the client as the
`function_call` with the `namespace` it offered. A `function_call` whose own
name reads otherwise keeps the form `name: "plain"`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ToolCallPart, ToolName, TranslationReport
from interlingua.codec import (
    WireReader,
    copy_json,
    freeform_arguments,
    freeform_input,
    keep,
    kept,
    other_fields,
)
from interlingua_openai.responses._rules import fit_call_id
from interlingua_openai.responses._wire import PROVIDER, ToolCallForms

__all__ = ["CallEncoder", "call_identity", "decode_call", "wire_name"]

_ARGUMENTS = {"function_call": "arguments", "custom_tool_call": "input"}


def wire_name(name: str, namespace: str | None, *, custom: bool) -> str:
    """The name on the wire of the tool (or call) named `name` in the core: less
    its namespace's `<namespace>--`, and a custom tool's `--freeform`."""
    parsed = ToolName.parse(name)
    if custom and parsed.freeform:
        name = str(ToolName(parsed.name, parsed.namespace))
    prefix = f"{namespace}--"
    if namespace is not None and name.startswith(prefix):
        return name[len(prefix) :]
    return name


def call_identity(
    read: WireReader, item: Mapping[str, Any], path: str
) -> tuple[str, str, ToolCallForms]:
    """A call item's name in the core, the field its arguments are in (`arguments`,
    or a custom call's `input`), and the forms to keep."""
    name = read.field(item, "name", path, str)
    namespace = read.field(item, "namespace", path, str, None)
    forms: ToolCallForms = {}
    if namespace is not None:
        forms["namespace"] = namespace
    if item.get("type") == "custom_tool_call":
        forms["type"] = "custom_tool_call"
        return str(ToolName(name, namespace, freeform=True)), "input", forms
    if namespace is None and not ToolName.parse(name).plain:
        forms["name"] = "plain"
    return str(ToolName(name, namespace)), "arguments", forms


def decode_call(read: WireReader, item: Mapping[str, Any], path: str) -> ToolCallPart:
    name, key, forms = call_identity(read, item, path)
    text = read.field(item, key, path, str)
    fields = other_fields(item, ("type", "call_id", "name", "namespace", key))
    return ToolCallPart(
        id=read.field(item, "call_id", path, str),
        name=name,
        arguments=freeform_arguments(text) if key == "input" else text,
        provider_data=keep(PROVIDER, fields=fields, forms=forms),
    )


class CallEncoder:
    """Call parts to call items; `output` for a response's. `tools` are a
    request's tools by core name, as `ToolsEncoder` sent them (None in an
    answer); `custom` collects the ids of the calls sent as custom calls."""

    def __init__(
        self,
        report: TranslationReport,
        *,
        output: bool,
        tools: Mapping[str, ToolName] | None = None,
    ) -> None:
        self.report = report
        self.output = output
        self.tools = tools
        self.custom: set[str] = set()

    def encode(self, part: ToolCallPart, id_path: str) -> dict[str, Any]:
        entry = kept(part, PROVIDER)
        name = self.tool_name(part.name, entry.get("forms", {}))
        kind = "custom_tool_call" if name.freeform else "function_call"
        if name.freeform:
            self.custom.add(part.id)
        item: dict[str, Any] = {
            "type": kind,
            "call_id": fit_call_id(part.id, id_path, self.report),
            "name": name.name,
        }
        if name.namespace is not None:
            item["namespace"] = name.namespace
        item[_ARGUMENTS[kind]] = self.input(part, id_path) if name.freeform else part.arguments
        if "fields" not in entry and self.output:
            item["status"] = "completed"
        return {**item, **copy_json(entry.get("fields", {}))}

    def tool_name(self, name: str, forms: Mapping[str, Any]) -> ToolName:
        """The name, namespace and kind a call goes back as: its item's where it
        came from this API; else its tool's, in a request; else what its name says."""
        if "type" in forms or "namespace" in forms:
            custom = forms.get("type") == "custom_tool_call"
            namespace = forms.get("namespace")
            return ToolName(wire_name(name, namespace, custom=custom), namespace, custom)
        if forms.get("name") == "plain":
            return ToolName(name)
        if self.tools is not None:
            return self.tools.get(name) or ToolName(name)
        return ToolName.parse(name)

    def input(self, part: ToolCallPart, id_path: str) -> str:
        """A custom call's `input`: the text of a freeform call's arguments."""
        if not ToolName.says_freeform(part.name):
            return part.arguments  # a call kept before freeform tools had their names
        text = freeform_input(part.arguments)
        if text is None:
            reason = 'the arguments are not {"input": <text>}: sent whole as the input'
            self.report.transformed(id_path.removesuffix(".id"), reason, "content")
            return part.arguments
        return text
