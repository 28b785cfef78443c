"""Requests: the `generateContent` body (also `streamGenerateContent`'s and
`countTokens`') <-> `ChatRequest`.

    wire                                core
    systemInstruction {parts}           the leading system message (its `role` a field)
    a `user` content's functionResponse a `tool` message of ToolResultParts
      parts                               (the rest of it a `user` message after it)
    a `user` content                    a `user` message
    a `model` content                   an `assistant` message
    tools                               ToolSpecs (see `_tools`)
    generationConfig, toolConfig        ChatRequest settings (see `_settings`)
    every other field (safetySettings,  `provider_options["google"]`, verbatim
      cachedContent, labels, ...)

The model is in the URL: a decoded request's `model` is the body's own
`model` field (kept in the options too, so it goes back), else empty.

Round trips are exact: `encode_request(decode_request(body)) == body`, the
names written in snake_case (`system_instruction`,
`generationConfig.thinkingConfig.thinking_budget`) too: they are the
request's form `snake_case`. Consecutive messages of one wire role (user and
tool messages are `user` contents) go as one content; a message that opened
a content of its own right after one of its role has the form
`separate_turn`, so a decoded body keeps its contents.

Encoding a history from any provider meets Gemini's rules on the wire only,
each change reported: system messages go to `systemInstruction` (one found
later is moved there); another provider's reasoning is left out; the first
call of a model turn that carries no thought signature, and did not come
from Gemini so, gets Google's dummy signature (`_rules`); a result's name is
found from its call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any, Literal, cast

from interlingua import ChatRequest, Message, Role, ToolCallPart, ToolResultPart, TranslationReport
from interlingua.codec import (
    WireReader,
    copy_json,
    depth_checked,
    keep,
    kept,
    overlay,
    resolve_report,
    sent_messages,
    sent_tools,
    wire_fields,
)
from interlingua_google._parts import (
    CallBook,
    CallIds,
    PartPath,
    decode_part,
    encode_part,
    part_path,
)
from interlingua_google._rules import DUMMY_SIGNATURE, SIGNATURE_FILLED
from interlingua_google._settings import GENERATION_KEYS, decode_settings, encode_settings
from interlingua_google._tools import decode_tools, encode_tools
from interlingua_google._wire import (
    PROVIDER,
    MessageForms,
    RequestForms,
    WireDict,
    WireRole,
    respelled,
    spelled,
)

__all__ = ["decode_request", "encode_request"]

_TOP_KEYS = frozenset({"contents", "systemInstruction", "tools", "toolConfig", "generationConfig"})
_GENERATION = GENERATION_KEYS | {"responseMimeType", "responseJsonSchema", "responseSchema"}
_SETTINGS: tuple[Literal["generationConfig", "toolConfig"], ...] = (
    "generationConfig",
    "toolConfig",
)
_THINKING = frozenset({"thinkingBudget", "thinkingLevel", "includeThoughts"})
_CONTENT_KEYS = frozenset({"role", "parts"})
_ROLES: dict[Role, WireRole] = {"user": "user", "tool": "user", "assistant": "model"}
_SIGNATURE = "thoughtSignature"
_NO_FORMS: Mapping[str, Any] = {}

_reader = WireReader(PROVIDER)


def decode_request(body: dict[str, Any]) -> ChatRequest:
    """The request a `generateContent` body asks for.

    Raises `DecodeError` naming the path of a missing or mistyped field.
    """
    with depth_checked(body, PROVIDER):
        return _decode_request(body)


def _decode_request(body: dict[str, Any]) -> ChatRequest:
    values, options, snaked = spelled(_reader.body(body), _TOP_KEYS)
    generation = _spelled_object(values, "generationConfig", _GENERATION, snaked)
    _spelled_object(generation, "thinkingConfig", _THINKING, snaked, "generationConfig")
    tool_config = _spelled_object(
        values, "toolConfig", frozenset({"functionCallingConfig"}), snaked
    )
    _spelled_object(
        tool_config,
        "functionCallingConfig",
        frozenset({"mode", "allowedFunctionNames"}),
        snaked,
        "toolConfig",
    )
    forms = RequestForms(snake_case=snaked) if snaked else RequestForms()
    # An object sent empty goes back empty, a form (it says nothing: no loss elsewhere);
    # one the settings took whole is theirs.
    if empty := [key for key in _SETTINGS if values.get(key) == {}]:
        forms["empty"] = empty
    settings = decode_settings(generation, tool_config, forms)
    system = _decode_system(values.get("systemInstruction"))
    messages = _decode_contents(_reader.field(values, "contents", "", list, None) or [])
    specs, layout = decode_tools(values.get("tools"))
    for key, rest in zip(_SETTINGS, (generation, tool_config), strict=True):
        if rest:
            options[key] = rest
    if layout is not None:
        options["tools"] = layout
    model = options.get("model", "")  # kept too: it goes back where it came
    return ChatRequest(
        model=model if isinstance(model, str) else "",
        messages=(*system, *messages),
        tools=specs,
        **settings,
        provider_options={PROVIDER: options} if options else {},
        provider_data=keep(PROVIDER, forms=forms),
    )


def _spelled_object(
    parent: dict[str, Any],
    key: str,
    modeled: frozenset[str],
    snaked: list[str],
    prefix: str = "",
) -> dict[str, Any]:
    """`parent[key]`, an object, read in both spellings and put back in
    camelCase (a copy); the names it wrote in snake_case are added to `snaked`."""
    raw = parent.get(key)
    if raw is None:
        return {}
    path = f"{prefix}.{key}" if prefix else key
    values, others, inner = spelled(_reader.object(raw, path), modeled)
    snaked += [f"{path}.{name}" for name in inner]
    camel: dict[str, Any] = {**values, **others}
    parent[key] = camel
    return camel


def _decode_system(value: Any) -> list[Message]:
    if value is None:
        return []
    content = _reader.object(value, "systemInstruction")
    values, fields, _ = spelled(content, _CONTENT_KEYS)
    raw_parts = _reader.field(values, "parts", "systemInstruction", list, None) or []
    ids = CallIds()
    parts = [
        decode_part(part, f"systemInstruction.parts[{k}]", role="system", ids=ids)
        for k, part in enumerate(raw_parts)
    ]
    if "role" in values:
        fields["role"] = values["role"]
    forms = MessageForms(parts="absent") if "parts" not in values else None
    data = keep(PROVIDER, fields=fields, forms=forms)
    return [Message(role="system", parts=tuple(parts), provider_data=data)]


def _decode_contents(contents: list[Any]) -> list[Message]:
    messages: list[Message] = []
    ids = CallIds()
    previous: str | None = None
    for i, raw in enumerate(contents):
        path = f"contents[{i}]"
        values, fields, _ = spelled(_reader.object(raw, path), _CONTENT_KEYS)
        role = _reader.field(values, "role", path, str, None)
        if role not in (None, "user", "model"):
            raise _reader.error(f"{path}.role", f"expected 'user' or 'model', got {role!r}")
        wire_role: WireRole = "model" if role == "model" else "user"
        raw_parts = _reader.field(values, "parts", path, list, None)
        parts = [
            decode_part(part, f"{path}.parts[{k}]", role=wire_role, ids=ids)
            for k, part in enumerate(raw_parts or [])
        ]
        forms = MessageForms()
        if raw_parts is None:
            forms["parts"] = "absent"
        if role is None:
            forms["role"] = "absent"
        if wire_role == previous:
            forms["separate_turn"] = True
        previous = wire_role
        messages += _messages(wire_role, parts, fields, forms)
    return messages


def _messages(role: str, parts: list[Any], fields: WireDict, forms: MessageForms) -> list[Message]:
    """One content's messages: an assistant message, or a user content's
    function responses and the rest of it, in the order they came."""
    data = keep(PROVIDER, fields=fields, forms=forms)
    if role == "model":
        return [Message(role="assistant", parts=tuple(parts), provider_data=data)]
    if not parts:
        return [Message(role="user", parts=(), provider_data=data)]
    runs = groupby(parts, key=lambda part: isinstance(part, ToolResultPart))
    messages = [
        Message(role="tool" if results else "user", parts=tuple(run)) for results, run in runs
    ]
    if data:
        messages[0] = messages[0].model_copy(update={"provider_data": data})
    return messages


# --- encoding ---


def encode_request(
    request: ChatRequest, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The `generateContent` body for `request` (the model goes in the URL).

    What Gemini cannot take is left out or changed on the wire and recorded in
    `report` (a warning each when no report is given; `TranslationError` in
    strict mode). Raises `InvalidDataError` for a history Gemini would reject.
    """
    report = resolve_report(report, PROVIDER)
    options = dict(request.options_for(PROVIDER))
    messages = sent_messages(request, PROVIDER, report)
    book = CallBook(messages)
    generation, tool_config = encode_settings(request, report)
    forms = cast(RequestForms, kept(request, PROVIDER).get("forms", {}))
    empty = forms.get("empty", ())
    body: WireDict = {"contents": _encode_contents(messages, report, book)}
    if (system := _encode_system(messages, report, book)) is not None:
        body["systemInstruction"] = system
    if (
        tools := encode_tools(sent_tools(request, PROVIDER), options.pop("tools", None), report)
    ) is not None:
        body["tools"] = tools
    for key, built in zip(_SETTINGS, (generation, tool_config), strict=True):
        if built or key in options or key in empty:
            body[key] = overlay(built, copy_json(options.pop(key, {})))
    body = overlay(body, copy_json(options))
    return respelled(body, forms.get("snake_case"))


def _encode_system(
    messages: Sequence[Message], report: TranslationReport, book: CallBook
) -> WireDict | None:
    system: list[Message] = []
    parts: list[WireDict] = []
    leading = True
    for i, message in enumerate(messages):
        if message.role != "system":
            leading = False
            continue
        if not leading:
            report.transformed(
                f"messages[{i}]",
                "Gemini takes system text in systemInstruction only; moved there",
                "content",
            )
        system.append(message)
        parts_path = f"messages[{i}].parts"
        for j, part in enumerate(message.parts):
            wire = encode_part(part, (parts_path, j), report, book=book)
            if wire is not None:
                parts.append(wire)
    if not system:
        return None
    content: WireDict = {} if _forms(system[0]).get("parts") == "absent" else {"parts": parts}
    return overlay(content, wire_fields(system[0], PROVIDER))


def _forms(message: Message) -> MessageForms:
    return cast(MessageForms, kept(message, PROVIDER).get("forms", {}))


def _encode_contents(
    messages: Sequence[Message], report: TranslationReport, book: CallBook
) -> list[WireDict]:
    contents: list[WireDict] = []
    previous: WireRole | None = None
    last: Role | None = None
    for i, message in enumerate(messages):
        if message.role == "system":
            continue
        role = _ROLES[message.role]
        parts = _encode_parts(message, i, report, book)
        if message.parts and not parts:
            report.dropped(
                f"messages[{i}]",
                "nothing of it is left for Gemini, which refuses an empty content",
                "hint",
            )
            continue
        entry = kept(message, PROVIDER)
        forms: Mapping[str, Any] = entry.get("forms", _NO_FORMS)  # `MessageForms`
        if role == previous and not forms.get("separate_turn") and contents:
            if message.role == last == "user":
                # A tool message's results and the user's text share a content as Gemini
                # writes them; two user messages become one turn.
                report.transformed(
                    f"messages[{i}]", "joined to the user message before it in one content", "hint"
                )
            contents[-1].setdefault("parts", []).extend(parts)
            last = message.role
            continue
        previous, last = role, message.role
        content: WireDict = {"role": role, "parts": parts}
        if forms.get("role") == "absent":
            del content["role"]
        if forms.get("parts") == "absent" and not parts:
            del content["parts"]
        if fields := entry.get("fields"):
            content = overlay(content, copy_json(fields))
        contents.append(content)
    return contents


def _encode_parts(
    message: Message, index: int, report: TranslationReport, book: CallBook
) -> list[WireDict]:
    parts: list[WireDict] = []
    parts_path = f"messages[{index}].parts"
    unsigned = message.role == "assistant"  # a model turn whose first call is to come
    for j, part in enumerate(message.parts):
        wire = encode_part(part, (parts_path, j), report, book=book)
        if wire is None:
            continue
        if unsigned and part.type == "tool_call":
            unsigned = False
            _sign(part, wire, (parts_path, j), report)
        parts.append(wire)
    return parts


def _sign(call: ToolCallPart, wire: WireDict, at: PartPath, report: TranslationReport) -> None:
    """Google's dummy signature on the first call of a turn that came without
    one from elsewhere (Gemini 3 refuses such a turn with a 400)."""
    if _SIGNATURE in wire or "thought_signature" in wire:
        return
    if kept(call, PROVIDER).get("forms", {}).get("signature") == "absent":
        return  # Gemini sent it so
    wire[_SIGNATURE] = DUMMY_SIGNATURE
    report.transformed(part_path(at), SIGNATURE_FILLED, "hint")
