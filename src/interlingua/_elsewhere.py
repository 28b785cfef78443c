"""What one provider's values carry that another provider cannot take.

Every encoder calls `report_other_providers` for its request,
`report_other_response` for an answer, `report_other_data` for a streamed
part's data and `report_other_response_data` for a stream's own: each setting
and each wire field of another provider's (Anthropic's `cache_control` on a
block sent to Chat Completions, its `citations` on a text sent to Mistral, a
Perplexity answer's `citations` and `search_results` written for Anthropic)
is reported by its own name as dropped, since only the provider that wrote it
reads it, at the level its name has (`interlingua._levels`: `cache_control`
a hint, `temperature` a setting, a name not known there content). A setting
sent empty or at its default (`include: []`, `stream: false`) says nothing and
is not reported; nor is a Gemini body's `model`, which the request says.

Tools another API groups (the Responses API's `namespace` tools, kept as its
tool list's layout in `provider_options`) reach an API without groups as their
functions, `<group>--<name>` (`interlingua.ToolName`). A group's description
is what the model reads of every tool in it, so `sent_tools` begins each
member's description with it, on the wire only, and the group's description,
its meaning arriving so, is not reported.

Reasoning another provider made never goes to the target as reasoning (its
signature or encrypted data would be refused, or worse, trusted). By default
the encoder leaves it out and reports it; a request with
`foreign_reasoning="text"` sends its readable text instead, as a text part in
its place, marked as another model's reasoning (`reasoning_as_text`), and
reported as transformed. Redacted reasoning has no text to send and is left out.

An answer made elsewhere is stamped by the API writing it, as its SDK types
require: when it was made (`created_time`, else now), and an id in the API's
own form where it came with none (`derived_id`: Bedrock's Converse answers
have none).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from interlingua._levels import field_level, says_nothing
from interlingua._parts import ContentPart, ReasoningPart, TextPart, ToolResultPart

if TYPE_CHECKING:
    from interlingua._base import ProviderData
    from interlingua._messages import Message
    from interlingua._report import TranslationReport
    from interlingua._request import ChatRequest
    from interlingua._response import ChatResponse
    from interlingua._tools import ToolSpec

__all__ = [
    "created_time",
    "derived_id",
    "made_at",
    "reasoning_as_text",
    "report_other_data",
    "report_other_fields",
    "report_other_providers",
    "report_other_response",
    "report_other_response_data",
    "sent_messages",
    "sent_tools",
    "signed_by_claude",
]

# A wire object's bookkeeping (its id, its place in a list, its kind, its
# status) means nothing to another provider: leaving it out loses nothing.
_BOOKKEEPING = frozenset({"id", "index", "object", "role", "status", "type"})
# Where an answer says when it was made: Chat Completions' `created` and the
# Responses API's `created_at` (Unix seconds), Gemini's `createTime` (RFC 3339).
_MADE_AT = ("created", "created_at", "createTime", "create_time")
# And an answer's, when it was made: each API stamps its own answers (`created_time`).
_ANSWER_BOOKKEEPING = _BOOKKEEPING | {*_MADE_AT, "completed_at", "updateTime"}
# A choice's copy of its answer beside the one read (Perplexity's `delta` in a whole
# answer, its `message` in a chunk): the message says it, nothing is lost.
_THE_ANSWER_ITSELF = frozenset({"message", "delta"})
_RFC3339 = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.\d+)?(Z|[+-]\d\d:\d\d)")


def created_time(data: ProviderData) -> int | None:
    """When the answer whose `provider_data` is `data` was made, in Unix
    seconds, as any provider's wire said it (an API writing another's answer
    stamps it with its time); None when none says."""
    for entry in data.values():
        fields = entry.get("fields", {})
        for key in _MADE_AT:
            if (seconds := _seconds(fields.get(key))) is not None:
                return seconds
    return None


def made_at(data: ProviderData) -> datetime | None:
    """`created_time` as an aware `datetime` (UTC); None when none says."""
    seconds = created_time(data)
    return None if seconds is None else datetime.fromtimestamp(seconds, timezone.utc)


def derived_id(prefix: str, *seeds: str) -> str:
    """`prefix` and 50 hex digits derived from `seeds`: an id in an API's form
    for what came without one, the same each time the same seeds write it."""
    # surrogatepass: an id decoded from JSON may hold a lone surrogate.
    seed = "\n".join(seeds).encode("utf-8", "surrogatepass")
    return f"{prefix}{hashlib.sha256(seed).hexdigest()[:50]}"


def _seconds(value: Any) -> int | None:
    if type(value) is int and value > 0:
        return value
    if type(value) is float and math.isfinite(value) and value > 0:
        return int(value)
    if isinstance(value, str) and (match := _RFC3339.fullmatch(value)):
        offset = "+00:00" if match[2] == "Z" else match[2]
        return int(datetime.fromisoformat(match[1] + offset).timestamp())
    return None


def report_other_providers(
    request: ChatRequest,
    provider: str,
    report: TranslationReport,
    shared: Mapping[str, Collection[str]] | None = None,
) -> None:
    """Every setting in another provider's `provider_options`, and every wire
    field another provider's messages, parts and tools carry, each by its own
    name, as dropped: it is that provider's to read, not `provider`'s. `shared`
    names, per provider, the settings `provider` takes as they came (another
    API of the same provider's), which are sent, not dropped."""
    for name, settings in request.provider_options.items():
        sent = (shared or {}).get(name, ())
        for key in settings if name != provider else ():
            value = settings[key]
            if key in sent or says_nothing(key, value):
                continue
            where = f"provider_options.{name}.{key}"
            if not _is_tool_list(key, value):
                report.dropped(where, f"a setting of {name}'s, not sent", field_level(key))
                continue
            offered = {tool.name for tool in request.tools}
            _report_tools(value, where, name, report, offered)
    report_other_fields(request.messages, provider, report)
    for index, tool in enumerate(request.tools):
        report_other_data(tool.provider_data, f"tools[{index}]", provider, report)


# A tool group's fields the names of its tools carry, or that mean nothing elsewhere.
_GROUP_KEYS = _BOOKKEEPING | {"name", "tools"}


def _is_tool_list(key: str, value: Any) -> bool:
    """Whether an option is a kept list of tools (`tools`, `additional_tools`): each
    entry a name (one of the request's tools, sent as such), a tool of the
    provider's own (an object with its `type`), or a group of them (one holding
    `tools`). Any other is reported whole, as a setting."""
    if key != "tools" and not key.endswith("_tools"):
        return False
    return isinstance(value, list) and all(_is_tool_entry(entry) for entry in value)


def _is_tool_entry(entry: Any) -> bool:
    if isinstance(entry, str):
        return True
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        return False
    tools = entry.get("tools", [])
    return isinstance(tools, list) and all(_is_tool_entry(tool) for tool in tools)


def _report_tools(
    tools: list[Any], path: str, owner: str, report: TranslationReport, offered: Collection[str]
) -> None:
    """Each tool of a kept list the target cannot take, at its own path; a name
    stands for one of the request's tools, sent, and a group for the tools it
    holds, its own other fields reported beside: its `description` only where
    none of the `offered` tools is a member to carry it (`sent_tools`)."""
    for index, tool in enumerate(tools):
        where = f"{path}[{index}]"
        if isinstance(tool, str):
            continue
        kind = tool["type"]
        if "tools" not in tool:
            report.dropped(where, f"{owner}'s own {kind!r} tool, which this API has not", "content")
            continue
        carried = _group_description(tool) is not None and any(
            name in offered for name in _members(tool)
        )
        for key, value in tool.items():
            if key in _GROUP_KEYS or not _says_something(value):
                continue
            if key == "description" and carried:
                continue  # in each member's description
            reason = f"the {key!r} of a {kind!r} of {owner}'s, which this API has not"
            report.dropped(f"{where}.{key}", reason, "content")
        _report_tools(tool["tools"], f"{where}.tools", owner, report, offered)


def _group_description(group: dict[str, Any]) -> str | None:
    description = group.get("description")
    return description if isinstance(description, str) and description else None


def _members(group: dict[str, Any]) -> Iterator[str]:
    """The names of the request's tools a kept group holds, in groups inside it too."""
    for entry in group["tools"]:
        if isinstance(entry, str):
            yield entry
        elif isinstance(entry, dict) and "tools" in entry:
            yield from _members(entry)


def sent_tools(request: ChatRequest, provider: str) -> tuple[ToolSpec, ...]:
    """The tools an encoder for `provider` sends: the request's, each member of
    another provider's tool group that has a description (a Responses API
    namespace's, kept in its `provider_options`) described by its group first:
    the group's description, a blank line, its own (the group's alone where it
    has none). The request's own tools are never changed; only those described
    so are copied."""
    described: dict[str, list[str]] = {}
    for name, settings in request.provider_options.items():
        if name == provider:
            continue
        for key, value in settings.items():
            if _is_tool_list(key, value):
                _describe(value, (), described)
    if not described:
        return request.tools
    return tuple(_described(tool, described.get(tool.name)) for tool in request.tools)


def _describe(tools: list[Any], around: tuple[str, ...], described: dict[str, list[str]]) -> None:
    """Each tool name of a kept list, with the descriptions of the groups `around` it."""
    for entry in tools:
        if isinstance(entry, str):
            if around:
                described.setdefault(entry, list(around))
        elif "tools" in entry:
            own = _group_description(entry)
            _describe(entry["tools"], (*around, own) if own else around, described)


def _described(tool: ToolSpec, groups: list[str] | None) -> ToolSpec:
    if groups is None:
        return tool
    description = "\n\n".join((*groups, tool.description) if tool.description else groups)
    return tool.model_copy(update={"description": description})


def report_other_response(response: ChatResponse, provider: str, report: TranslationReport) -> None:
    """Every wire field another provider's answer carries, each by its own name,
    as dropped: the response's own (`report_other_response_data`) and those of
    its message and parts (`report_other_fields`, at `message`)."""
    report_other_response_data(response.provider_data, provider, report)
    report_other_fields((response.message,), provider, report, "message")


def report_other_response_data(
    data: ProviderData,
    provider: str,
    report: TranslationReport,
    seen: set[str] | None = None,
) -> None:
    """Every wire field of another provider's in `data`, the `provider_data` of a
    response (or what a stream's start, usage or finish adds to it), by name, as
    dropped at `provider_data.<name>.fields.<key>`: a Perplexity answer's
    `citations`, Chat Completions' `system_fingerprint`, Anthropic's
    `container`; and those of the objects around the message its `echo` keeps
    (`echo.<object>.fields.<key>`: a Chat Completions choice's `logprobs`, Azure
    OpenAI's `content_filter_results`). Its bookkeeping (the object's kind, when
    it was made) loses nothing. A stream encoder passes the `seen` paths to
    report each once."""
    for name, entry in data.items():
        if name == provider:
            continue
        for place, key, value in _answer_fields(entry):
            if key in _ANSWER_BOOKKEEPING or not _says_something(value):
                continue
            where = f"provider_data.{name}.{place}{key}"
            if seen is not None:
                if where in seen:
                    continue
                seen.add(where)
            reason = f"{name}'s answer field {key!r}, a field only {name} reads"
            report.dropped(where, reason, field_level(key))


def _answer_fields(entry: Mapping[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """The place, name and value of each wire field an answer's provider data
    keeps: its own `fields`, and each kept object's of its `echo`."""
    for key, value in entry.get("fields", {}).items():
        yield "fields.", key, value
    for place, kept_object in entry.get("echo", {}).items():
        fields = kept_object.get("fields") if isinstance(kept_object, dict) else None
        for key, value in (fields or {}).items() if isinstance(fields, dict) else ():
            if key not in _THE_ANSWER_ITSELF:
                yield f"echo.{place}.fields.", key, value


def report_other_fields(
    messages: Iterable[Message], provider: str, report: TranslationReport, path: str = "messages"
) -> None:
    """Every wire field another provider's `messages` and their parts carry,
    by name, as dropped; `path` names the messages (`message` for an answer's
    one). The fields of reasoning another provider made are not: the part's
    own fate is reported where it is left out or sent as text."""
    # On every encoding's path: a value with no other provider's fields costs a
    # look at its provider data, and its path is written only for a loss.
    one = path == "message"
    for index, message in enumerate(messages):
        data = message.provider_data
        if data and (len(data) > 1 or provider not in data):
            report_other_data(data, path if one else f"{path}[{index}]", provider, report)
        for position, part in enumerate(message.parts):
            kind = part.type
            if kind in _OWN_FATE:
                continue  # reported with the part, or the whole part is another's
            data = part.provider_data  # type: ignore[union-attr]
            if data and (len(data) > 1 or provider not in data):
                at = path if one else f"{path}[{index}]"
                report_other_data(data, f"{at}.parts[{position}]", provider, report)
            if kind == "tool_result" and isinstance(part, ToolResultPart):
                _report_content(part, index, position, path, provider, report)


# Parts whose own provider data is not theirs to report: another provider's
# reasoning (reported with the part) and an opaque block (all of it another's).
_OWN_FATE = frozenset({"reasoning", "opaque"})


def _report_content(
    part: ToolResultPart,
    index: int,
    position: int,
    path: str,
    provider: str,
    report: TranslationReport,
) -> None:
    for item, content in enumerate(part.content):
        if content.type != "opaque" and (data := content.provider_data):
            at = path if path == "message" else f"{path}[{index}]"
            where = f"{at}.parts[{position}].content[{item}]"
            report_other_data(data, where, provider, report)


def report_other_data(
    data: ProviderData,
    path: str,
    provider: str,
    report: TranslationReport,
    seen: set[str] | None = None,
) -> None:
    """Every wire field of another provider's in `data` (the `provider_data` of
    the value at `path`), by name, as dropped; a stream encoder, which may see a
    part's data more than once, passes the `seen` paths to report each once."""
    for name, entry in data.items():
        if name == provider or "fields" not in entry:
            continue
        for key, value in entry["fields"].items():
            if key in _BOOKKEEPING or not _says_something(value):
                continue
            where = f"{path}.provider_data.{name}.fields.{key}"
            if seen is not None:
                if where in seen:
                    continue
                seen.add(where)
            report.dropped(where, f"{name}'s {key!r}, a field only {name} reads", field_level(key))


def _says_something(value: Any) -> bool:
    """Whether a kept field holds more than a default: null, false, empty, or an
    object of nothing more (Bedrock's usage `{"serverToolUsage": {}}`)."""
    if isinstance(value, Mapping):
        return any(_says_something(item) for item in value.values())
    return value is not None and value is not False and value not in ("", [])


def reasoning_as_text(part: ReasoningPart) -> str:
    """The readable text of another model's reasoning, marked as such:
    `<reasoning provider="anthropic">…</reasoning>`."""
    made_by = f' provider="{part.provider}"' if part.provider else ""
    return f"<reasoning{made_by}>\n{part.text}\n</reasoning>"


def sent_messages(
    request: ChatRequest, provider: str, report: TranslationReport
) -> tuple[Message, ...]:
    """The messages an encoder for `provider` sends: the request's, with another
    provider's readable reasoning as marked text where the request asks for it
    (`foreign_reasoning="text"`), each reported as transformed. The request's
    own messages are never changed; only those that change are copied."""
    if request.foreign_reasoning != "text":
        return request.messages
    return tuple(
        _with_text(message, index, provider, report)
        for index, message in enumerate(request.messages)
    )


def _with_text(message: Message, index: int, provider: str, report: TranslationReport) -> Message:
    if message.role != "assistant" or not any(_foreign(part, provider) for part in message.parts):
        return message
    parts: list[ContentPart] = []
    for position, part in enumerate(message.parts):
        if isinstance(part, ReasoningPart) and _foreign(part, provider):
            made_by = part.provider or "an unknown provider"
            report.transformed(
                f"messages[{index}].parts[{position}]",
                f"reasoning made by {made_by}, sent as text marked <reasoning>",
                "setting",
            )
            parts.append(TextPart(text=reasoning_as_text(part)))
        else:
            parts.append(part)
    return message.model_copy(update={"parts": tuple(parts)})


def _foreign(part: Any, provider: str) -> bool:
    """Whether `part` is readable reasoning another provider made."""
    return isinstance(part, ReasoningPart) and part.provider != provider and bool(part.text)


# Where Claude's signed thinking is made: Anthropic's API (and Claude's InvokeModel
# and Vertex AI envelopes, which decode as it) and Bedrock's Converse API (its
# `reasoningText` with Claude's signature; no other Converse model signs).
_CLAUDE_SIGNERS = frozenset({"anthropic", "bedrock"})


def signed_by_claude(part: ReasoningPart) -> bool:
    """Whether `part` is Claude's signed thinking, which Claude takes back on any
    platform.

    Quirk: Claude's thinking signatures "are compatible across platforms (the
    Claude API, Amazon Bedrock, and Google Cloud). Values generated on one
    platform work on another" (Anthropic's extended-thinking guide).
    """
    return part.provider in _CLAUDE_SIGNERS and bool(part.signature) and part.redacted_data is None
