"""Saved histories of older versions, brought to the current one.

Version 1 (interlingua 0.1) kept each provider's data on a message or part as
one flat mapping; version 2 keeps it in the three sections of
`interlingua._provider_data` (`fields`, `forms`, `echo`). The first-party
adapters of 0.1 wrote the keys in `_V1_KEYS`; every other key was a wire field
kept verbatim, and goes to `fields`, so nothing in an old file is lost.

Version 3 adds a message's `created_at` and `updated_at`. A version-2 file has
neither, and its messages load without them: the times are not known, and none
is made up.

Version 4 holds an Anthropic tool call's `caller: {"type": "direct"}` (a call
the model made itself, the only kind the core holds) as the form
`caller: "direct"`, not as a field: said outright or not, it is no loss to
another provider. Any other caller stays a field.

Version 5 names a freeform tool's call and a namespace's function's as every
API can take them (`interlingua.ToolName`): a custom call (OpenAI's: the form
`type` `custom` of a Chat Completions dialect, `custom_tool_call` of the
Responses API) is named `<name>--freeform`, its input the arguments
`{"input": ...}`; a Responses call's `namespace` field becomes its form, and
its name `<namespace>--<name>`; a function call of those two APIs whose own
name would read so keeps the form `name: "plain"`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from interlingua._tools import ToolName, freeform_arguments

__all__ = ["MIGRATIONS"]

# (provider, what holds the data: "message" or a part's type) -> version-1 key ->
# (section, key in it). A key mapped to the section itself ("fields", None) held a
# mapping whose entries move there.
_Place = tuple[str, str | None]
_ANTHROPIC: dict[str, _Place] = {
    "content_format": ("forms", "content"),
    "separate_turn": ("forms", "separate_turn"),
}
_OPENAI: dict[str, dict[str, _Place]] = {
    "message": {
        "role": ("forms", "role"),
        "content": ("forms", "content"),
        "audio": ("echo", "audio"),
        "name": ("fields", "name"),
        "fields": ("fields", None),
    },
    "text": {"fields": ("fields", None), "annotations": ("echo", "annotations")},
    "refusal": {"in_content": ("forms", "in_content")},
    "file": {
        "type": ("forms", "type"),
        "raw_file_data": ("forms", "raw_file_data"),
        "fields": ("fields", None),
        "audio": ("echo", "audio"),
    },
    "tool_call": {
        "fields": ("fields", None),
        "type": ("forms", "type"),
        "tool_call": ("echo", "tool_call"),
        "function_call": ("forms", "function_call"),
    },
    "tool_result": {
        "content": ("forms", "content"),
        "role": ("forms", "role"),
        "name": ("forms", "name"),
    },
}
_RESPONSES: dict[str, dict[str, _Place]] = {
    "message": {
        "item": ("fields", None),
        "content": ("forms", "content"),
        "instructions": ("forms", "instructions"),
        "input": ("forms", "input"),
    },
    "text": {"item": ("echo", "item"), "part": ("fields", None), "content": ("forms", "content")},
    "refusal": {
        "item": ("echo", "item"),
        "part": ("fields", None),
        "content": ("forms", "content"),
    },
    "reasoning": {"item": ("fields", None), "summary": ("fields", "summary")},
    "tool_call": {"item": ("fields", None), "type": ("forms", "type")},
    "tool_result": {
        "item": ("fields", None),
        "type": ("forms", "type"),
        "content": ("forms", "content"),
    },
    "file": {
        "type": ("forms", "type"),
        "raw_file_data": ("forms", "raw_file_data"),
        "part": ("fields", None),
    },
}


def _v1_places(provider: str, owner: str) -> Mapping[str, _Place]:
    match provider:
        case "anthropic":
            return _ANTHROPIC
        case "openai":
            return _OPENAI.get(owner, {})
        case "openai-responses":
            return _RESPONSES.get(owner, {})
    return {}


def _sections(provider: str, owner: str, flat: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    places = _v1_places(provider, owner)
    entry: dict[str, dict[str, Any]] = {}
    for key, value in flat.items():
        section, name = places.get(key, ("fields", key))
        target = entry.setdefault(section, {})
        if name is None and isinstance(value, Mapping):
            target.update(value)
        elif section == "forms" and name == "name":
            target[name] = True  # version 1 kept the name itself; the part holds it
        else:
            target[key if name is None else name] = value
    return {section: values for section, values in entry.items() if values}


def _provider_data(owner: str, data: Any) -> Any:
    if not isinstance(data, dict):
        return data
    migrated = {
        provider: _sections(provider, owner, flat) if isinstance(flat, Mapping) else flat
        for provider, flat in data.items()
    }
    return {provider: entry for provider, entry in migrated.items() if entry}


def _part(part: Any) -> Any:
    if not isinstance(part, dict):
        return part
    part = dict(part)
    if "provider_data" in part:
        part["provider_data"] = _provider_data(str(part.get("type")), part["provider_data"])
    if part.get("type") == "tool_result" and isinstance(part.get("content"), list):
        part["content"] = [_part(inner) for inner in part["content"]]
    return part


def _message(message: Any) -> Any:
    if not isinstance(message, dict):
        return message
    message = dict(message)
    if "provider_data" in message:
        message["provider_data"] = _provider_data("message", message["provider_data"])
    if isinstance(message.get("parts"), list):
        message["parts"] = [_part(part) for part in message["parts"]]
    return message


def _v1_to_v2(document: dict[str, Any]) -> dict[str, Any]:
    messages = document.get("messages")
    if not isinstance(messages, list):
        return document
    return {**document, "messages": [_message(message) for message in messages]}


def _v2_to_v3(document: dict[str, Any]) -> dict[str, Any]:
    return document  # the new fields are optional: a version-2 body is a version-3 one


def _v3_to_v4(document: dict[str, Any]) -> dict[str, Any]:
    messages = document.get("messages")
    if not isinstance(messages, list):
        return document
    return {**document, "messages": [_each_part(message, _direct_caller) for message in messages]}


def _each_part(message: Any, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    if not isinstance(message, dict) or not isinstance(message.get("parts"), list):
        return message
    parts = [change(part) if isinstance(part, dict) else part for part in message["parts"]]
    return {**message, "parts": parts}


_DIRECT = {"type": "direct"}


def _direct_caller(part: dict[str, Any]) -> dict[str, Any]:
    data = part.get("provider_data")
    if part.get("type") != "tool_call" or not isinstance(data, dict):
        return part
    entry = data.get("anthropic")
    if not isinstance(entry, dict) or not isinstance(fields := entry.get("fields"), dict):
        return part
    if fields.get("caller") != _DIRECT:
        return part
    moved = {key: value for key, value in entry.items() if key != "fields"}
    if rest := {key: value for key, value in fields.items() if key != "caller"}:
        moved["fields"] = rest
    moved["forms"] = {**moved.get("forms", {}), "caller": "direct"}
    return {**part, "provider_data": {**data, "anthropic": moved}}


def _v4_to_v5(document: dict[str, Any]) -> dict[str, Any]:
    messages = document.get("messages")
    if not isinstance(messages, list):
        return document
    return {**document, "messages": [_each_part(message, _tool_name) for message in messages]}


def _tool_name(part: dict[str, Any]) -> dict[str, Any]:
    data = part.get("provider_data")
    name, arguments = part.get("name"), part.get("arguments", "{}")
    if part.get("type") != "tool_call" or not isinstance(data, dict):
        return part
    if not isinstance(name, str) or not isinstance(arguments, str):
        return part
    for provider, entry in data.items():
        if isinstance(entry, dict) and (renamed := _renamed(provider, entry, name, arguments)):
            name, arguments, migrated = renamed
            data = {**data, provider: migrated}
            return {**part, "name": name, "arguments": arguments, "provider_data": data}
    return part


def _renamed(
    provider: str, entry: dict[str, Any], name: str, arguments: str
) -> tuple[str, str, dict[str, Any]] | None:
    """A call's name, arguments and provider entry today; None where they are the same."""
    responses = provider == "openai-responses"
    forms = dict(entry.get("forms", {}))
    fields = dict(entry.get("fields", {}))
    namespace = fields.get("namespace") if responses else None
    namespace = namespace if isinstance(namespace, str) else None
    custom = forms.get("type") == ("custom_tool_call" if responses else "custom")
    if namespace is not None or custom:
        if namespace is not None:
            forms["namespace"] = fields.pop("namespace")
        name = str(ToolName(name, namespace, custom))
        arguments = freeform_arguments(arguments) if custom else arguments
    elif (responses and not ToolName.parse(name).plain) or (
        provider == "openai" and ToolName.says_freeform(name)
    ):
        forms["name"] = "plain"
    else:
        return None
    migrated = {key: value for key, value in entry.items() if key not in ("forms", "fields")}
    if fields:
        migrated["fields"] = fields
    if forms:
        migrated["forms"] = forms
    return name, arguments, migrated


def _v5_to_v6(document: dict[str, Any]) -> dict[str, Any]:
    return document  # `turns` is new and optional: a version-5 body is a version-6 one


# version N -> a function turning a version-N document into version N + 1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
    5: _v5_to_v6,
}
