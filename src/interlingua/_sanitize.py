"""`sanitize`: a history's incomplete tool-call groups removed or repaired.

A group is an assistant message with tool calls and the `tool` messages right
after it. It is incomplete when a call has no result there; most providers
reject such a request. Each change is recorded in a `TranslationReport` (the
one report of the library) with the path of the message or part in the input:
`messages[3]` dropped, `messages[3].parts[1]` answered, and why.

`missing_results` is the same repair on the wire only, for an encoder whose
provider rejects a call without its result: a call the conversation went on
without answering (a message follows its group) is sent with the error result
`sanitize(repair=True)` would add, reported; the history is not changed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from interlingua._messages import Message
from interlingua._parts import TextPart, ToolCallPart, ToolResultPart
from interlingua._report import TranslationReport

__all__ = ["MissingResults", "missing_results", "sanitize"]

# What the error result of a call with none says.
PLACEHOLDER = "The tool call was not completed."


def sanitize(
    messages: Sequence[Message],
    *,
    repair: bool = False,
    placeholder: str = PLACEHOLDER,
    report: TranslationReport | None = None,
) -> list[Message]:
    """The messages with every incomplete tool-call group removed or repaired.

    By default an incomplete group is dropped whole; with `repair=True` the
    missing results are added as error results saying `placeholder`. Tool
    results that answer no call are dropped either way. The input is not changed.

    Each change goes into `report` when one is given (`dropped` for what was left
    out, `transformed` for a call answered by the repair); without one nothing is
    warned, as dropping is what was asked for. A report with `strict=True` raises
    `TranslationError` at the first change: a check that a history needs none.
    """
    changes = report if report is not None else TranslationReport()
    result: list[Message] = []
    index = 0
    while index < len(messages):
        message = messages[index]
        end = index + 1
        if message.role == "assistant" and message.tool_calls:
            while end < len(messages) and messages[end].role == "tool":
                end += 1
            group = _Group(messages, index, end, changes)
            result.extend(group.sanitized(repair, placeholder))
        elif message.role == "tool":
            ids = ", ".join(repr(part.tool_call_id) for part in message.tool_results)
            changes.dropped(
                f"messages[{index}]", f"tool results that follow no tool call ({ids})", "content"
            )
        else:
            result.append(message)
        index = end
    return result


class _Group:
    """An assistant message with tool calls (`messages[start]`) and the `tool`
    messages after it, up to `end`; results answering none of its calls are
    dropped (and recorded) on building."""

    def __init__(
        self, messages: Sequence[Message], start: int, end: int, changes: TranslationReport
    ) -> None:
        self.start = start
        self.call = messages[start]
        self.changes = changes
        call_ids = {part.id for part in self.call.tool_calls}
        self.answers: list[tuple[int, Message]] = []
        for index in range(start + 1, end):
            answer = self._results_for(index, messages[index], call_ids)
            if answer is not None:
                self.answers.append((index, answer))
        answered = {p.tool_call_id for _, answer in self.answers for p in answer.tool_results}
        self.missing = [
            (index, part)
            for index, part in enumerate(self.call.parts)
            if isinstance(part, ToolCallPart) and part.id not in answered
        ]

    def sanitized(self, repair: bool, placeholder: str) -> list[Message]:
        answers = [answer for _, answer in self.answers]
        if not self.missing:
            return [self.call, *answers]
        if repair:
            return [self.call, *answers, self._filler(placeholder)]
        calls = ", ".join(f"{part.id!r} ({part.name})" for _, part in self.missing)
        here = f"messages[{self.start}]"
        self.changes.dropped(here, f"tool calls with no result: {calls}", "content")
        for index, _ in self.answers:
            self.changes.dropped(
                f"messages[{index}]", f"the results for {here}, dropped", "content"
            )
        return []

    def _filler(self, placeholder: str) -> Message:
        """Error results for the calls that have none."""
        for index, part in self.missing:
            self.changes.transformed(
                f"messages[{self.start}].parts[{index}]",
                f"tool call {part.id!r} ({part.name}) had no result: answered with an error",
                "content",
            )
        results = tuple(_error_result(part, placeholder) for _, part in self.missing)
        return Message(role="tool", parts=results)

    def _results_for(self, index: int, answer: Message, call_ids: set[str]) -> Message | None:
        """`answer` with only the results for the group's calls; None if none is left."""
        if not answer.parts:
            self.changes.dropped(f"messages[{index}]", "a tool message with no result", "content")
            return None
        parts = []
        for number, part in enumerate(answer.tool_results):
            if part.tool_call_id in call_ids:
                parts.append(part)
            else:
                self.changes.dropped(
                    f"messages[{index}].parts[{number}]",
                    f"a result for {part.tool_call_id!r}, a call messages[{self.start}] "
                    "did not make",
                    "content",
                )
        if len(parts) == len(answer.parts):
            return answer
        return answer.model_copy(update={"parts": tuple(parts)}) if parts else None


def _error_result(call: ToolCallPart, placeholder: str = PLACEHOLDER) -> ToolResultPart:
    """The error result the repair gives `call`, which has none."""
    return ToolResultPart(
        tool_call_id=call.id,
        name=call.name,
        content=(TextPart(text=placeholder),),
        is_error=True,
    )


# A call with no result: its message's index, its own, and the call.
_Call = tuple[int, int, ToolCallPart]


class MissingResults:
    """The results an encoder sends for the tool calls a conversation went on
    without answering (`missing_results`): `sanitize(repair=True)`'s error
    results, on the wire only. Each call is reported, as transformed at its
    path, when the encoder takes its result. `MissingResults()` has none."""

    __slots__ = ("_after", "_by_path", "places", "sent_after")

    def __init__(self, after: dict[int, list[_Call]] | None = None) -> None:
        self._after = after or {}
        calls = [call for group in self._after.values() for call in group]
        self._by_path = {f"messages[{i}].parts[{j}]": call for i, j, call in calls}
        # The calls' places (message, part): what the encoder's check counts as answered.
        self.places: Collection[tuple[int, int]] = frozenset((i, j) for i, j, _ in calls)
        # The messages a `tool` message of results is sent after (`after`), which
        # an encoder looks each message up in.
        self.sent_after: Collection[int] = frozenset(self._after)

    def __bool__(self) -> bool:
        return bool(self._after)

    def after(self, index: int, report: TranslationReport) -> Message:
        """The `tool` message sent after message `index`, one of `sent_after` (the
        calls' message, or the last `tool` message right after it)."""
        calls = self._after[index]
        results = (self._answer(f"messages[{i}].parts[{j}]", call, report) for i, j, call in calls)
        return Message(role="tool", parts=tuple(results))

    def answering(self, path: str, report: TranslationReport) -> ToolResultPart | None:
        """The result sent for the call at `path` (`messages[i].parts[j]`), or None."""
        call = self._by_path.get(path)
        return None if call is None else self._answer(path, call, report)

    @staticmethod
    def _answer(path: str, call: ToolCallPart, report: TranslationReport) -> ToolResultPart:
        report.transformed(
            path,
            f"tool call {call.id!r} ({call.name}) has no result, and the conversation went on "
            f"after it; {report.target} rejects a call without its result: answered with "
            f"the error result sanitize(repair=True) adds, {PLACEHOLDER!r}",
            "content",
        )
        return _error_result(call)


_NO_RESULTS_MISSING = MissingResults()


def missing_results(messages: Sequence[Message], report: TranslationReport) -> MissingResults:
    """The results to send for the tool calls of `messages` that no later
    `tool` message answers, where the conversation went on (a message follows
    the calls' message and the `tool` messages right after it).

    For an encoder whose provider rejects a call without its result: the
    history took it (Gemini answers such a request), and the nearest request
    the target takes answers the call with an error. None in strict mode,
    where such a call is an error as any unanswered one; none for a call the
    history ends with (its result may be on its way), nor for one answered
    later (where a result may stand is the target's rule, its check's to judge).
    """
    if report.strict:
        return _NO_RESULTS_MISSING
    answered: dict[str, int] = {}  # a call's id: the last message with a result for it
    for index, message in enumerate(messages):
        if message.role == "tool":
            for part in message.tool_results:
                answered[part.tool_call_id] = index
    after: dict[int, list[_Call]] = {}
    for index, message in enumerate(messages):
        if message.role != "assistant":
            continue
        calls = [
            (index, j, part)
            for j, part in enumerate(message.parts)
            # By the tag first: a failing isinstance check of a pydantic class goes through ABCMeta.
            if part.type == "tool_call"
            and isinstance(part, ToolCallPart)
            and answered.get(part.id, -1) < index
        ]
        if not calls:
            continue
        end = index + 1
        while end < len(messages) and messages[end].role == "tool":
            end += 1
        if end < len(messages):
            after[end - 1] = calls
    return MissingResults(after) if after else _NO_RESULTS_MISSING
