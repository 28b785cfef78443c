"""Requests: the Converse body (`POST /model/{modelId}/converse`, and
`converse-stream`'s, the same) <-> `ChatRequest`.

    wire                                core
    system (text and guardContent       the leading system message (a cachePoint
      blocks)                             its text's field)
    a user turn's toolResult blocks     a `tool` message of ToolResultParts
      the rest of that turn             a `user` message after it
    an assistant turn                   an `assistant` message
    toolConfig.tools                    ToolSpecs (see `_tools`)
    every other field                   ChatRequest settings (see `_settings`)

The model id is in the URL, not the body: `decode_request(body)` gives the
request `model=""`, or the `model` it is told (the client's `modelId`), and
`encode_request` writes no model into the body.

Round trips are exact (compared as parsed JSON):
`encode_request(decode_request(body)) == body`.
- What the core does not model stays in `provider_options["bedrock"]`, laid
  back over the body on encoding (`guardrailConfig`, `performanceConfig`,
  `promptVariables`, `requestMetadata`, `additionalModelResponseFieldPaths`,
  an object sent empty, a `system` the core cannot hold); the core's value
  wins where both give a field.
- Consecutive messages of one wire role (user and tool messages are user
  turns) go as one turn, as Converse wants turns to alternate (two user or
  two assistant messages joined so are reported, a hint). A message that
  opened a turn of its own right after a turn of its role has the form
  `separate_turn: True`, so a decoded body keeps its turns.

Encoding a history from any provider meets Converse's rules on the wire only,
reporting each change; the request is never changed. System messages go to
`system` (one found after the conversation began is moved there, reported);
parts meet Converse's rules (`_parts`, `_rules`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from interlingua import ChatRequest, ContentPart, Message, Role, ToolCallPart, TranslationReport
from interlingua.codec import (
    MissingResults,
    WireReader,
    copy_json,
    depth_checked,
    keep,
    kept,
    leftover,
    missing_results,
    other_fields,
    overlay,
    report_other_providers,
    resolve_report,
    sent_messages,
    sent_tools,
    wire_model,
)
from interlingua_bedrock._parts import decode_blocks, encode_part
from interlingua_bedrock._rules import TOOLS_DECLARED, called_tools, fit_thinking_settings
from interlingua_bedrock._settings import decode_settings, encode_settings
from interlingua_bedrock._tools import decode_tools, encode_tools
from interlingua_bedrock._wire import PROVIDER, MessageForms, RequestForms, WireDict, WireRole

__all__ = ["decode_request", "encode_request"]

_TURN_ROLES: dict[Role, WireRole] = {"user": "user", "tool": "user", "assistant": "assistant"}
# A turn's fields the core models; any other is its first message's `fields`.
_TURN_KEYS = frozenset({"role", "content"})
# Body fields decoded on their own (`toolConfig` in part); every other one is a setting.
_CONTENT_FIELDS = frozenset({"messages", "system", "toolConfig", "model"})
_TOOL_CONFIG_KEYS = ("tools", "toolChoice")
# Quirk: Converse wants turns to alternate ("A conversation must alternate between user and
# assistant roles", as users report of Claude; Titan took two user turns in a row, recorded).
_JOINED = "joined to the message before it in one turn: Converse wants turns to alternate"

_reader = WireReader(PROVIDER)


def decode_request(body: dict[str, Any], *, model: str = "") -> ChatRequest:
    """The request a Converse body asks for, of `model` (the URL's `modelId`).

    Raises `DecodeError` naming the path of a missing or mistyped field.
    """
    with depth_checked(body, PROVIDER):
        return _decode_request(_reader.body(body), model)


def _decode_request(body: WireDict, model: str) -> ChatRequest:
    forms = RequestForms()
    system, system_kept = _decode_system(body.get("system"))
    turns = _reader.field(body, "messages", "", list)
    tool_config = _reader.field(body, "toolConfig", "", dict, None) or {}
    tools, layout = decode_tools(tool_config.get("tools"), "toolConfig.tools")
    request = ChatRequest(
        model=model or _reader.field(body, "model", "", str, None) or "",
        messages=(*system, *_decode_turns(turns)),
        tools=tools,
        **decode_settings(body, forms),
        provider_data=keep(PROVIDER, forms=forms),
    )
    settings = {key: value for key, value in body.items() if key not in _CONTENT_FIELDS}
    options = leftover(settings, encode_settings(request, forms, TranslationReport()))
    config_rest = other_fields(tool_config, _TOOL_CONFIG_KEYS)
    if "toolChoice" in tool_config and request.tool_choice is None:
        config_rest["toolChoice"] = tool_config["toolChoice"]
    if config_rest or (tool_config == {} and "toolConfig" in body):
        options["toolConfig"] = config_rest
    if system_kept is not None:
        options["system"] = system_kept
    if layout is not None:
        options["tools"] = layout
    if not options:
        return request
    return request.model_copy(update={"provider_options": {PROVIDER: options}})


def _decode_system(value: Any) -> tuple[list[Message], Any]:
    """The system message, and the wire value when the core cannot hold it
    (`[]`, or a block no system message takes)."""
    if value is None:
        return [], None
    blocks = _reader.array(value, "system")
    parts = decode_blocks(blocks, "system", role="system")
    if not parts or any(part.type != "text" for part in parts):
        return [], blocks
    return [Message(role="system", parts=tuple(parts))], None


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
    content = _reader.field(turn, "content", path, list)
    parts = decode_blocks(content, f"{path}.content", role=role, names=names)
    fields = None if turn.keys() <= _TURN_KEYS else other_fields(turn, _TURN_KEYS)
    forms = MessageForms(separate_turn=True) if separate else None
    if role == "assistant":
        names.update((part.id, part.name) for part in parts if isinstance(part, ToolCallPart))
        return [_message("assistant", parts, fields, forms)]
    if not parts:
        return [_message("user", parts, fields, forms)]
    (first_role, first_run), *rest = _results_apart(parts)
    return [
        _message(first_role, first_run, fields, forms),
        *(_message(run_role, run) for run_role, run in rest),
    ]


def _results_apart(parts: list[ContentPart]) -> list[tuple[Role, list[ContentPart]]]:
    """A user turn's parts in runs, in order: its tool results (a `tool`
    message each run) and the rest (`user`)."""
    runs: list[tuple[Role, list[ContentPart]]] = []
    for part in parts:
        role: Role = "tool" if part.type == "tool_result" else "user"
        if runs and runs[-1][0] == role:
            runs[-1][1].append(part)
        else:
            runs.append((role, [part]))
    return runs


def _role(turn: WireDict, path: str) -> WireRole:
    match _reader.field(turn, "role", path, str):
        case "user" | "assistant" as role:
            return role
        case other:
            raise _reader.error(f"{path}.role", f"expected 'user' or 'assistant', got {other!r}")


def _message(
    role: Role,
    parts: Sequence[Any],
    fields: Mapping[str, Any] | None = None,
    forms: MessageForms | None = None,
) -> Message:
    if not fields and not forms:
        return Message(role=role, parts=tuple(parts))
    return Message(
        role=role, parts=tuple(parts), provider_data=keep(PROVIDER, fields=fields, forms=forms)
    )


# --- encoding ---


def encode_request(
    request: ChatRequest, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Converse body for `request` (its model goes in the URL, not here).

    What Converse cannot take is left out or changed on the wire and recorded
    in `report` (a warning each when no report is given; `TranslationError` in
    strict mode).
    """
    report = resolve_report(report, PROVIDER)
    options = dict(request.options_for(PROVIDER))
    forms = cast(RequestForms, kept(request, PROVIDER).get("forms", {}))
    model = wire_model(request.model, PROVIDER)
    messages = sent_messages(request, PROVIDER, report)
    body: WireDict = {"messages": _encode_turns(messages, model, report)}
    if (system := _encode_system(messages, model, report)) is not None:
        body["system"] = system
    body |= encode_settings(request, forms, report)
    tools = encode_tools(sent_tools(request, PROVIDER), options.pop("tools", None))
    if tools is None and (called := called_tools(messages)):
        report.transformed("tools", TOOLS_DECLARED, "content")
        tools = encode_tools(called, None)
    if tools is not None:
        body["toolConfig"] = {"tools": tools, **body.get("toolConfig", {})}
        _report_tool_settings(request, report)
    elif "toolConfig" in body:
        # Quirk: Converse's `toolConfig` requires its `tools` ("Missing required parameter
        # in toolConfig: \"tools\"", botocore's model): a tool choice with none goes
        # unsaid, reported where it asked for a call (`auto` says nothing without tools).
        del body["toolConfig"]
        if request.tool_choice is not None and request.tool_choice.asks_for_a_call:
            reason = "Converse takes a tool choice only beside tools"
            report.dropped("tool_choice", reason, "setting")
    report_other_providers(request, PROVIDER, report)
    options.pop("model", None)  # the URL's, never the body's
    body = overlay(body, copy_json(options))
    fit_thinking_settings(body, report)
    return body


def _encode_system(
    messages: Sequence[Message], model: str, report: TranslationReport
) -> list[WireDict] | None:
    """`system`: the system messages' blocks, those after the conversation began moved there."""
    blocks: list[WireDict] = []
    began = False
    for i, message in enumerate(messages):
        if message.role != "system":
            began = True
            continue
        if began:
            report.transformed(
                f"messages[{i}]",
                "Converse takes system text in system only; moved there",
                "content",
            )
        for j, part in enumerate(message.parts):
            blocks += encode_part(
                part, f"messages[{i}].parts[{j}]", report, model=model, in_request=True
            )
    return blocks if any(message.role == "system" for message in messages) else None


def _report_tool_settings(request: ChatRequest, report: TranslationReport) -> None:
    """The tool settings Converse has no field for, reported beside tools: without
    them, a choice of `none` and how calls are made say nothing, and its models
    call tools in parallel as they see fit, so only one call at a time is lost."""
    if request.tool_choice is not None and request.tool_choice.mode == "none":
        report.dropped("tool_choice", "Converse has no tool choice 'none'", "setting")
    if request.parallel_tool_calls is False:
        reason = "Converse has no parallel tool calls setting"
        report.dropped("parallel_tool_calls", reason, "setting")


def _encode_turns(
    messages: Sequence[Message], model: str, report: TranslationReport
) -> list[WireDict]:
    """The turns of the non-system messages, consecutive ones of a wire role
    merged unless a message is marked as a turn of its own; a call the
    conversation went on without answering gets an error result in the user
    turn after it (`missing_results`)."""
    turns: list[WireDict] = []
    missing = missing_results(messages, report) if _unanswered(messages) else MissingResults()
    last: Role | None = None  # the role of the message the last turn ends with
    for i, message in enumerate(messages):
        if message.role != "system":
            last = _add_turn(turns, message, f"messages[{i}]", model, report, last)
        if i in missing.sent_after:
            answers = missing.after(i, report)
            last = _add_turn(turns, answers, f"messages[{i}]", model, TranslationReport(), last)
    return turns


def _unanswered(messages: Sequence[Message]) -> bool:
    """Whether a call of the history has no result: most histories answer every one."""
    calls = {call.id for message in messages for call in message.tool_calls}
    return bool(
        calls - {result.tool_call_id for message in messages for result in message.tool_results}
    )


def _add_turn(
    turns: list[WireDict],
    message: Message,
    path: str,
    model: str,
    report: TranslationReport,
    last: Role | None,
) -> Role | None:
    """The message's blocks as a turn, or in the turn before where that is of
    its wire role; the role of the message the turns end with."""
    blocks: list[WireDict] = []
    for j, part in enumerate(message.parts):
        blocks += encode_part(part, f"{path}.parts[{j}]", report, model=model, in_request=True)
    if message.parts and not blocks:
        report.dropped(
            path, "nothing of it is left for Converse, which refuses an empty turn", "hint"
        )
        return last
    role = _TURN_ROLES[message.role]
    entry = kept(message, PROVIDER)
    separate = entry.get("forms", {}).get("separate_turn")
    if turns and turns[-1]["role"] == role and not separate:
        if message.role == last and message.role != "tool":
            report.transformed(path, _JOINED, "hint")
        turns[-1]["content"].extend(blocks)
        return message.role
    turn: WireDict = {"role": role, "content": blocks}
    if fields := entry.get("fields"):
        turn = overlay(turn, copy_json(fields))
    turns.append(turn)
    return message.role
