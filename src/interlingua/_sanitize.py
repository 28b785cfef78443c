"""`sanitize`: a history's incomplete tool-call groups removed or repaired.

A group is an assistant message with tool calls and the `tool` messages right
after it. It is incomplete when a call has no result there; most providers
reject such a request. Each change is recorded in a `TranslationReport` (the
one report of the library) with the path of the message or part in the input:
`messages[3]` dropped, `messages[3].parts[1]` answered, and why.
"""

from __future__ import annotations

from collections.abc import Sequence

from interlingua._messages import Message
from interlingua._parts import TextPart, ToolCallPart, ToolResultPart
from interlingua._report import TranslationReport

__all__ = ["sanitize"]


def sanitize(
    messages: Sequence[Message],
    *,
    repair: bool = False,
    placeholder: str = "The tool call was not completed.",
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
            changes.dropped(f"messages[{index}]", f"tool results that follow no tool call ({ids})")
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
        self.changes.dropped(here, f"tool calls with no result: {calls}")
        for index, _ in self.answers:
            self.changes.dropped(f"messages[{index}]", f"the results for {here}, dropped")
        return []

    def _filler(self, placeholder: str) -> Message:
        """Error results for the calls that have none."""
        for index, part in self.missing:
            self.changes.transformed(
                f"messages[{self.start}].parts[{index}]",
                f"tool call {part.id!r} ({part.name}) had no result: answered with an error",
            )
        results = tuple(
            ToolResultPart(
                tool_call_id=part.id,
                name=part.name,
                content=(TextPart(text=placeholder),),
                is_error=True,
            )
            for _, part in self.missing
        )
        return Message(role="tool", parts=results)

    def _results_for(self, index: int, answer: Message, call_ids: set[str]) -> Message | None:
        """`answer` with only the results for the group's calls; None if none is left."""
        if not answer.parts:
            self.changes.dropped(f"messages[{index}]", "a tool message with no result")
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
                )
        if len(parts) == len(answer.parts):
            return answer
        return answer.model_copy(update={"parts": tuple(parts)}) if parts else None
