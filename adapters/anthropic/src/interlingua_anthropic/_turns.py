"""What Anthropic accepts of a request's turns, with its own words.

Turns are seen as Anthropic sees them, consecutive turns of a role merged. A
call the conversation went on without answering is sent with an error result
in the next user turn (the core's `missing_results`, reported at the call;
`answer_missing`). A call the history ends with, or answered elsewhere than
in the next user turn, or a result answering none, cannot be mended without
changing the conversation and raises `InvalidDataError` naming each message
and part (`interlingua.sanitize()` repairs it); so does a user turn left with
nothing to send. Order and whitespace are mended on the wire, reported.

On every encoding's path: a part's path is written only for a finding.

A system message after the conversation began goes in its place, as a system
turn, to a model that takes one (`takes_system_turns`) where the place meets
Anthropic's rules (`system_turn_refused`); else to the top-level `system`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from itertools import groupby, takewhile
from operator import attrgetter

from interlingua import InvalidDataError, Message, ToolCallPart, ToolResultPart, TranslationReport
from interlingua.codec import MissingResults, missing_results
from interlingua_anthropic._wire import PROVIDER, WireDict, WireTurn

__all__ = [
    "answer_missing",
    "blank_text_left_out",
    "check_tool_pairs",
    "check_turn_not_empty",
    "results_first",
    "strip_final_whitespace",
    "system_turn_refused",
    "takes_system_turns",
]

_REQUEST = f"request for {PROVIDER}"
_UNANSWERED = (
    "tool call {!r} has no result in the next user turn, which Anthropic rejects; "
    "interlingua.sanitize() repairs such a history"
)
_UNASKED = "tool result for {!r} answers no tool call of the turn before"

Problem = tuple[str, str]
Place = tuple[int, int]  # a part's place: its message's index and its own


def blank_text_left_out(
    blocks: list[tuple[str, WireDict]], report: TranslationReport
) -> list[tuple[str, WireDict]]:
    """A message's blocks, without its text when that is all whitespace."""
    # Quirk: Anthropic rejects a message whose only content is whitespace text ("text content
    # blocks must contain non-whitespace text"), yet takes a whitespace-only text block beside
    # other content, as the "\n\n" a model writes before its tool_use blocks (reported: 200).
    for _, block in blocks:
        text = block.get("text")
        if block.get("type") != "text" or not isinstance(text, str) or text.strip():
            return blocks  # something in it is not whitespace text
    for path, _ in blocks:
        report.dropped(
            path,
            "whitespace-only text, and nothing else in its message; Anthropic rejects it "
            "('text content blocks must contain non-whitespace text')",
            "hint",
        )
    return []


def _is_text(block: WireDict) -> bool:
    return block.get("type") == "text" and isinstance(block.get("text"), str)


def check_tool_pairs(messages: Sequence[Message], report: TranslationReport) -> MissingResults:
    """Every tool call answered in the next user turn, every result there
    answering a call of the assistant turn before; else `InvalidDataError`;
    but for the calls the conversation went on without answering, whose error
    results the encoder sends (returned: the core's `missing_results`, put in
    place by `answer_missing`). A part's tag is read before its class: an
    isinstance check of a pydantic class that fails goes through ABCMeta in Python."""
    # Most histories answer every call: the calls sent with error results are
    # looked for only where the check finds a problem, or calls it leaves open.
    missing = MissingResults()
    problems, left_open = _pair_problems(messages, missing.places)
    if (problems or left_open) and (missing := missing_results(messages, report)):
        problems, _ = _pair_problems(messages, missing.places)
    if problems:
        raise InvalidDataError(problems, subject=_REQUEST)
    return missing


def _pair_problems(
    messages: Sequence[Message], answered: Collection[Place]
) -> tuple[list[Problem], bool]:
    """Where `check_tool_pairs` finds a call without its result (but those
    `answered`) or a result without its call, and what it finds there; and
    whether calls are left open, no user turn after them (unchecked)."""
    problems: list[Problem] = []
    calls: dict[str, Place] = {}  # the calls of the assistant turn before
    results: dict[str, Place] | None = None  # those of the user turn being read
    for i, message in enumerate(messages):
        if message.role == "system":
            continue
        if message.role != "assistant":
            results = {} if results is None else results
            for j, part in enumerate(message.parts):
                if part.type == "tool_result" and isinstance(part, ToolResultPart):
                    results[part.tool_call_id] = (i, j)
            continue
        if results is not None:
            problems += _unpaired(calls, results, answered)
            calls, results = {}, None
        for j, part in enumerate(message.parts):
            if part.type == "tool_call" and isinstance(part, ToolCallPart):
                calls[part.id] = (i, j)
    if results is None:
        return problems, bool(calls)
    return problems + _unpaired(calls, results, answered), False


def _unpaired(
    calls: dict[str, Place], results: dict[str, Place], answered: Collection[Place]
) -> list[Problem]:
    """The calls of an assistant turn the user turn after leaves unanswered, and
    the results there answering none of them; paths are written only for these."""
    if calls.keys() == results.keys():
        return []
    unanswered = [
        (at, _UNANSWERED.format(call))
        for call, at in calls.items()
        if call not in results and at not in answered
    ]
    unasked = [(at, _UNASKED.format(call)) for call, at in results.items() if call not in calls]
    return [(f"messages[{i}].parts[{j}]", said) for (i, j), said in unanswered + unasked]


def answer_missing(
    turns: list[WireTurn], result_for: Callable[[str], WireDict | None]
) -> list[WireTurn]:
    """The turns with the results the encoder sends for calls that have none
    (`result_for(path)`: the tool_result block for the call at `path`, else
    None) in the user turn after their assistant turn, after its own
    tool_result blocks and before the user's text, or in a user turn of their
    own where the next turn is not a user turn: Anthropic wants each call's
    result there ("tool_use ids were found without tool_result blocks
    immediately after")."""
    fitted: list[WireTurn] = []
    owed: list[tuple[str, WireDict]] = []  # the results due in the next user turn
    for turn in turns:
        if owed and turn.role == "user":
            answered = len(list(takewhile(_is_result, turn.blocks)))
            turn.blocks[answered:answered] = owed
        elif owed:
            fitted.append(WireTurn("user", owed))
        fitted.append(turn)
        owed = []
        if turn.role == "assistant":
            owed = [
                (path, block) for path, _ in turn.blocks if (block := result_for(path)) is not None
            ]
    if owed:
        fitted.append(WireTurn("user", owed))
    return fitted


def check_turn_not_empty(
    message: Message, path: str, report: TranslationReport, *, last: bool
) -> bool:
    """Whether a message with nothing left to send still goes, as an empty turn:
    Anthropic takes an empty final assistant turn; another empty assistant
    message is left out (reported); an empty user or tool message raises, as
    leaving it out would change the turns."""
    if message.role != "assistant":
        reason = (
            "nothing Anthropic takes is left in this message, and Anthropic rejects an empty turn"
        )
        raise InvalidDataError([(path, reason)], subject=_REQUEST)
    if last:
        return True
    report.dropped(path, "nothing Anthropic takes is left in this assistant message", "hint")
    return False


def results_first(turns: list[WireTurn], report: TranslationReport) -> list[WireTurn]:
    """The turns with each run of user turns, as Anthropic merges it, starting
    with its tool_result blocks: a run where a result comes after other
    content is sent as one turn, its results first."""
    fitted: list[WireTurn] = []
    for role, group in groupby(turns, key=attrgetter("role")):
        run = list(group)
        late = [] if role == "assistant" else _late_results(run)
        if not late:
            fitted.extend(run)
            continue
        for path in late:
            report.transformed(
                path,
                "moved to the front of its user turn: Anthropic merges consecutive user turns "
                "and wants the tool_result blocks first ('tool_use ids were found without "
                "tool_result blocks immediately after')",
                "content",
            )
        blocks = [pair for turn in run for pair in turn.blocks]
        results = [pair for pair in blocks if _is_result(pair)]
        rest = [pair for pair in blocks if not _is_result(pair)]
        fields = [each for turn in run for each in turn.fields]
        fitted.append(WireTurn("user", results + rest, run[0].form, fields))
    return fitted


def _is_result(pair: tuple[str, WireDict]) -> bool:
    return pair[1].get("type") == "tool_result"


def _late_results(run: list[WireTurn]) -> list[str]:
    """The paths of the tool_result blocks of a run of turns that come after
    some other block."""
    late: list[str] = []
    other_seen = False
    for turn in run:
        for path, block in turn.blocks:
            if block.get("type") != "tool_result":
                other_seen = True
            elif other_seen:
                late.append(path)
    return late


_FINAL_WHITESPACE = (
    "Anthropic rejects a final assistant turn ending in whitespace "
    "('final assistant content cannot end with trailing whitespace')"
)


def strip_final_whitespace(turns: list[WireTurn], report: TranslationReport) -> None:
    """A final assistant turn (a prefill) ends in no whitespace: its last text
    is stripped, or left out when it is only whitespace."""
    if not turns or turns[-1].role != "assistant":
        return
    blocks = turns[-1].blocks
    while blocks and _is_text(blocks[-1][1]):
        path, block = blocks[-1]
        text = block["text"]
        if text == text.rstrip():
            return
        if text.strip():
            blocks[-1] = (path, {**block, "text": text.rstrip()})
            report.transformed(path, f"trailing whitespace stripped: {_FINAL_WHITESPACE}", "hint")
            return
        blocks.pop()
        report.dropped(path, f"whitespace-only text at the end: {_FINAL_WHITESPACE}", "hint")


# --- system turns inside `messages` ---

# Quirk: a `{"role": "system"}` turn inside `messages` ("mid-conversation system messages",
# no beta header) is taken by Claude Opus 4.8, which Anthropic's page names, and by the
# models after it that SDKs tracking Anthropic's model pages name (Opus 5 and 5.5, Sonnet
# 5.5, Haiku 5.5, Fable 5 and 5.1, Mythos 5 and 5.1; reports on Sonnet 5 disagree, so it is
# left out); an earlier model answers 400 "role 'system' is not supported on this model".
_SYSTEM_TURN_MODELS = re.compile(
    r"claude-(?:opus-4-8|opus-5|sonnet-5-5|haiku-5-5|fable-5|mythos-5)(?![0-9])"
)
# Quirk: a system turn must "immediately follow a user message" (or an assistant one ending
# in server tool use), "either be the last entry in messages or be followed by an assistant
# turn", and not be next to another (the page's placement rules; users report the 400
# "role 'system' must precede an 'assistant' message or end the array"): system messages in
# a row go as one turn.
_SYSTEM_PLACE = (
    "Anthropic takes a system turn inside messages only right after a user turn, and "
    "before an assistant turn or at the end"
)


def takes_system_turns(model: str) -> bool:
    """Whether `model` (its id as sent) takes a system turn inside `messages`."""
    return _SYSTEM_TURN_MODELS.match(model) is not None


def system_turn_refused(messages: Sequence[Message], index: int, model: str) -> str | None:
    """Why system message `index`, after the conversation began, goes to the
    top-level `system` rather than in its place as a system turn; None: it
    goes in its place. Other system messages beside it go in the same turn."""
    if not takes_system_turns(model):
        return (
            f"{model} takes system text at the top only (a system turn inside messages is "
            f"Claude Opus 4.8's and later models'); moved there"
        )
    before = next((m.role for m in reversed(messages[:index]) if m.role != "system"), None)
    after = next((m.role for m in messages[index + 1 :] if m.role != "system"), "assistant")
    if before in ("user", "tool") and after == "assistant":
        return None
    return f"{_SYSTEM_PLACE}; moved to the top-level system"
