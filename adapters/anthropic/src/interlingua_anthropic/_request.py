"""Requests: the `POST /v1/messages` body <-> `ChatRequest`.

    wire                                core
    system (a string or text blocks)    the leading system message
    a `system` turn in messages         a system message in its place (form `in_messages`)
    a user turn's tool_result blocks    a `tool` message of ToolResultParts
      the rest of that turn             a `user` message after it
    an assistant turn                   an `assistant` message
    tools                               ToolSpecs (see `_tools`)
    every other field                   ChatRequest settings (see `_settings`)

Round trips are exact: `encode_request(decode_request(body)) == body`.
- What the core does not model stays in `provider_options["anthropic"]`, laid
  back over the body on encoding; the core's value wins where both give a
  field. Unknown top-level fields are kept whole.
- Content goes as a string when it is one plain text block. A message whose
  wire content was such a block in a list has the form `content: "blocks"`
  (`MessageForms`); the system message likewise. An empty final assistant
  turn goes as `[]`; one written `""` decodes to a message without parts with
  the form `content: "string"`. An empty `system: ""` (like `[]`) is no
  system message, and stays in `provider_options`. A turn's other fields are
  its first message's `fields`.
- Consecutive messages of one wire role (user and tool messages are user
  turns) go as one turn, as Anthropic merges consecutive turns of a role
  anyway (two user or two assistant messages joined so are reported, a
  hint). A message that opened a turn of its own right after a turn of its
  role has the form `separate_turn: True`, so a decoded body keeps its turns.

Encoding a history from any provider meets Anthropic's rules on the wire
only, reporting each change; the request is never changed. The leading system
messages go to the top-level `system`. A system message decoded from
`messages` goes back there, whatever the model (a body for Anthropic is
Anthropic's to judge). One from elsewhere, after the conversation began, goes
in its place as a system turn where the model takes one ("mid-conversation
system messages": Claude Opus 4.8 and later) and its place meets Anthropic's
rules (after a user turn, before an assistant turn or at the end), else to the
top-level `system`, reported (`_turns`). Parts and turns meet Anthropic's
rules (`_rules`): what it cannot take is left out or changed on the wire,
reported; what cannot be mended raises `InvalidDataError` naming the message
and part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from interlingua import (
    ChatRequest,
    ContentPart,
    Message,
    Role,
    TextPart,
    ToolCallPart,
    TranslationReport,
)
from interlingua.codec import (
    MissingResults,
    WireReader,
    copy_json,
    depth_checked,
    keep,
    kept,
    leftover,
    other_fields,
    overlay,
    report_other_providers,
    resolve_report,
    sent_messages,
    sent_tools,
    wire_model,
)
from interlingua_anthropic._parts import decode_block, encode_part, plain_text
from interlingua_anthropic._rules import fit_thinking, fit_thinking_settings
from interlingua_anthropic._settings import decode_settings, encode_settings
from interlingua_anthropic._tools import decode_tools, encode_tools
from interlingua_anthropic._turns import (
    answer_missing,
    blank_text_left_out,
    check_tool_pairs,
    check_turn_not_empty,
    results_first,
    strip_final_whitespace,
    system_turn_refused,
)
from interlingua_anthropic._wire import (
    PROVIDER,
    BlockRole,
    MessageForms,
    WireDict,
    WireRole,
    WireTurn,
)

__all__ = ["decode_request", "encode_request"]

# The wire turn each role's messages go in (a system message not sent as a system
# turn goes to the top-level `system`).
_TURN_ROLES: dict[Role, WireRole] = {
    "user": "user",
    "tool": "user",
    "assistant": "assistant",
    "system": "system",
}

# A turn's fields the core models; any other is its first message's `fields`.
_TURN_KEYS = frozenset({"role", "content"})
# Anthropic combines consecutive turns of a role itself ("Consecutive user or assistant
# turns in your request will be combined into a single turn", its Messages API reference).
_JOINED = "joined to the message before it in one turn, as Anthropic combines consecutive turns"
_JOINED_ROLES = frozenset({"user", "assistant"})  # tool results and system text go so unreported
# Body fields decoded on their own; every other one is a setting.
_CONTENT_FIELDS = frozenset({"system", "messages", "tools"})

_reader = WireReader(PROVIDER)


def decode_request(body: dict[str, Any]) -> ChatRequest:
    """The request a Messages API body asks for.

    Raises `DecodeError` naming the path of a missing or mistyped field.
    """
    with depth_checked(body, PROVIDER):
        return _decode_request(body)


def _decode_request(body: dict[str, Any]) -> ChatRequest:
    body = _reader.body(body)
    system, system_kept = _decode_system(body.get("system"))
    turns = _reader.field(body, "messages", "", list)
    tools, tools_kept = decode_tools(body.get("tools"))
    request = ChatRequest(
        messages=(*system, *_decode_turns(turns)), tools=tools, **decode_settings(body)
    )
    settings = {key: value for key, value in body.items() if key not in _CONTENT_FIELDS}
    options = leftover(settings, encode_settings(request, TranslationReport()))
    if system_kept is not None:
        options["system"] = system_kept
    if tools_kept is not None:
        options["tools"] = tools_kept
    if not options:
        return request
    return request.model_copy(update={"provider_options": {PROVIDER: options}})


def encode_request(
    request: ChatRequest, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Messages API body for `request`.

    What Anthropic cannot take is left out or changed on the wire and recorded
    in `report` (a warning each when no report is given; `TranslationError` in
    strict mode). Raises `InvalidDataError` for a history Anthropic would reject.
    """
    report = resolve_report(report, PROVIDER)
    missing = check_tool_pairs(request.messages, report)
    options = request.options_for(PROVIDER)
    messages = sent_messages(request, PROVIDER, report)
    in_place = _system_turns(messages, wire_model(request.model, PROVIDER), report)
    system = _encode_system(messages, in_place, report)
    turns = _encode_turns(messages, in_place, report, missing)
    body = encode_settings(request, report)
    report_other_providers(request, PROVIDER, report)
    if system is not None:
        body["system"] = system
    body["messages"] = turns
    if (tools := encode_tools(sent_tools(request, PROVIDER), options.get("tools"))) is not None:
        body["tools"] = tools
    body = overlay(
        body, copy_json({key: value for key, value in options.items() if key != "tools"})
    )
    fit_thinking(body, report)
    fit_thinking_settings(body, report)
    return body


# --- decoding ---


def _decode_system(value: Any) -> tuple[list[Message], Any]:
    """The system message, and the wire value when the core cannot hold it (`[]`, `""`)."""
    if value is None:
        return [], None
    if value == "":
        return [], value
    if isinstance(value, str):
        return [Message.system(value)], None
    blocks = _reader.array(value, "system")
    if not blocks:
        return [], blocks
    parts = [_system_part(block, f"system[{k}]") for k, block in enumerate(blocks)]
    forms = MessageForms(content="blocks") if plain_text(blocks) is not None else MessageForms()
    return [_message("system", parts, forms=forms)], None


def _system_part(block: Any, path: str) -> TextPart:
    part = decode_block(block, path, role="system")
    if not isinstance(part, TextPart):
        raise _reader.error(f"{path}.type", "the system prompt takes text blocks only")
    return part


def _decode_turns(turns: list[Any]) -> list[Message]:
    messages: list[Message] = []
    names: dict[str, str] = {}  # tool-call id -> tool name, to name the results
    previous: WireRole | None = None
    for i, raw in enumerate(turns):
        path = f"messages[{i}]"
        turn = _reader.object(raw, path)
        role = _role(turn, path)
        messages += _decode_turn(turn, role, path, names, separate=role == previous)
        previous = role
    return messages


def _decode_turn(
    turn: WireDict, role: WireRole, path: str, names: dict[str, str], *, separate: bool
) -> list[Message]:
    """The messages of one turn: an assistant message, or a user turn's tool
    results and the rest of it, in the order they came. The first keeps the
    turn's fields and forms (`separate`: it follows a turn of its own role)."""
    content = turn.get("content")
    fields = None if turn.keys() <= _TURN_KEYS else other_fields(turn, _TURN_KEYS)
    forms: MessageForms = {"in_messages": True} if role == "system" else {}
    match content:
        case "":
            parts: list[ContentPart] = []
            forms["content"] = "string"
        case str():
            parts = [TextPart(text=content)]  # what a lone text block with no other field gives
        case list():
            parts = _turn_parts(content, f"{path}.content", role, names)
            if plain_text(content) is not None:
                forms["content"] = "blocks"
        case _:
            raise _reader.error(f"{path}.content", "expected a string or an array")
    if separate:
        forms["separate_turn"] = True
    if role == "assistant":
        names.update((part.id, part.name) for part in parts if isinstance(part, ToolCallPart))
    if role != "user" or not parts:
        return [_message(role, parts, fields=fields, forms=forms)]
    (first_role, first_run), *rest = _results_apart(parts)
    return [
        _message(first_role, first_run, fields=fields, forms=forms),
        *(_message(role, run) for role, run in rest),
    ]


def _turn_parts(
    blocks: list[Any], path: str, role: WireRole, names: dict[str, str]
) -> list[ContentPart]:
    if role == "system":
        return [_system_part(block, f"{path}[{k}]") for k, block in enumerate(blocks)]
    return [
        decode_block(block, f"{path}[{k}]", role=role, names=names)
        for k, block in enumerate(blocks)
    ]


def _results_apart(parts: list[ContentPart]) -> list[tuple[Role, list[ContentPart]]]:
    """A user turn's parts in runs, in order: its tool results (a `tool`
    message each run) and the rest (`user`)."""
    runs: list[tuple[Role, list[ContentPart]]] = []
    for part in parts:
        # By the tag: an isinstance check of a pydantic class that fails goes through ABCMeta.
        role: Role = "tool" if part.type == "tool_result" else "user"
        if runs and runs[-1][0] == role:
            runs[-1][1].append(part)
        else:
            runs.append((role, [part]))
    return runs


def _role(turn: WireDict, path: str) -> WireRole:
    match _reader.field(turn, "role", path, str):
        case "user" | "assistant" | "system" as role:
            return role
        case other:
            raise _reader.error(
                f"{path}.role", f"expected 'user', 'assistant' or 'system', got {other!r}"
            )


def _message(
    role: Role,
    parts: Sequence[Any],
    *,
    fields: Mapping[str, Any] | None = None,
    forms: MessageForms | None = None,
) -> Message:
    if not fields and not forms:
        return Message(role=role, parts=tuple(parts))  # nothing kept: the default is built quickest
    provider_data = keep(PROVIDER, fields=fields, forms=forms)
    return Message(role=role, parts=tuple(parts), provider_data=provider_data)


# --- encoding ---


def _system_turns(
    messages: Sequence[Message], model: str, report: TranslationReport
) -> frozenset[int]:
    """The system messages that go as turns inside `messages`, by index: those
    decoded from there, and those from elsewhere after the conversation began
    where the model and their place allow; every other one after it began is
    moved to the top-level `system`, reported."""
    in_place: set[int] = set()
    began = False
    for i, message in enumerate(messages):
        if message.role != "system":
            began = True
        elif _in_messages(message):
            in_place.add(i)
            began = True
        elif began:
            if (refused := system_turn_refused(messages, i, model)) is None:
                in_place.add(i)
            else:
                report.transformed(f"messages[{i}]", refused, "content")
    return frozenset(in_place)


def _encode_system(
    messages: Sequence[Message], in_place: frozenset[int], report: TranslationReport
) -> str | list[WireDict] | None:
    """The top-level `system`: the system messages that go in no turn."""
    blocks: list[WireDict] = []
    sources: list[Message] = []
    for i, message in enumerate(messages):
        if message.role != "system" or i in in_place:
            continue
        sources.append(message)
        blocks.extend(block for _, block in _encode_parts(message, f"messages[{i}]", report))
    if not blocks:
        return None
    text = plain_text(blocks)
    if text is None or len(sources) > 1 or _format(sources[0]) == "blocks":
        return blocks
    return text


def _encode_parts(
    message: Message, path: str, report: TranslationReport
) -> list[tuple[str, WireDict]]:
    """The blocks of a message's parts, each with its part's path."""
    role: BlockRole = _TURN_ROLES[message.role]
    pairs = []
    for j, part in enumerate(message.parts):
        where = f"{path}.parts[{j}]"
        if (block := encode_part(part, where, report, role=role, in_request=True)) is not None:
            pairs.append((where, block))
    return blank_text_left_out(pairs, report)


def _encode_turns(
    messages: Sequence[Message],
    in_place: frozenset[int],
    report: TranslationReport,
    missing: MissingResults,
) -> list[WireDict]:
    turns = _merged_turns(messages, in_place, report)
    if missing:
        turns = answer_missing(turns, lambda path: _missing_result(missing, path, report))
    turns = results_first(turns, report)
    strip_final_whitespace(turns, report)
    return [_render(turn) for turn in turns]


def _missing_result(
    missing: MissingResults, path: str, report: TranslationReport
) -> WireDict | None:
    """The tool_result block sent for the call at `path` if it has no result,
    built as any result is; what that changes on the wire is the call's report."""
    result = missing.answering(path, report)
    if result is None:
        return None
    return encode_part(result, path, TranslationReport(), role="user", in_request=True)


def _merged_turns(
    messages: Sequence[Message], in_place: frozenset[int], report: TranslationReport
) -> list[WireTurn]:
    """The turns of the messages (system messages `in_place` among them),
    consecutive ones of a wire role merged unless a message is marked as a turn
    of its own (as a decoded turn that followed one of its role is)."""
    turns: list[WireTurn] = []
    talk = [(i, m) for i, m in enumerate(messages) if m.role != "system" or i in in_place]
    last_role: str | None = None  # the role of the message whose blocks were sent last
    for position, (i, message) in enumerate(talk):
        path = f"messages[{i}]"
        blocks = _encode_parts(message, path, report)
        last = position == len(talk) - 1
        if not blocks and (
            (message.role == "system" and not _in_messages(message))  # its text, reported
            or not check_turn_not_empty(message, path, report, last=last)
        ):
            continue
        role = _TURN_ROLES[message.role]
        entry = kept(message, PROVIDER)  # read once: the message's forms and its fields
        forms = cast(MessageForms, entry.get("forms", {}))
        fields = [entry["fields"]] if entry.get("fields") else []
        if not forms.get("separate_turn") and turns and turns[-1].role == role:
            if message.role == last_role and message.role in _JOINED_ROLES:
                report.transformed(path, _JOINED, "hint")
            turns[-1].blocks.extend(blocks)
            turns[-1].fields.extend(fields)
        else:
            turns.append(WireTurn(role, blocks, forms.get("content"), fields))
        last_role = message.role
    return turns


def _forms(message: Message) -> MessageForms:
    return cast(MessageForms, kept(message, PROVIDER).get("forms", {}))


def _in_messages(message: Message) -> bool:
    return message.role == "system" and bool(_forms(message).get("in_messages"))


def _render(turn: WireTurn) -> WireDict:
    blocks = [block for _, block in turn.blocks]
    wire: WireDict = {"role": turn.role, "content": _content(blocks, turn.form)}
    for fields in turn.fields:
        wire = overlay(wire, copy_json(fields))  # a copy: the body shares nothing with the value
    return wire


def _content(blocks: list[WireDict], form: str | None) -> str | list[WireDict]:
    """A lone plain text as a string and no content as `[]`, unless the wire had
    the other form."""
    if not blocks:
        return "" if form == "string" else []
    text = plain_text(blocks)
    return text if text is not None and form != "blocks" else blocks


def _format(message: Message) -> str | None:
    return _forms(message).get("content")
