"""What Anthropic would reject in a history, caught before sending.

Anthropic answers 400 when a tool call has no result in the next user turn,
or a result answers no call of the assistant turn before
(`check_tool_pairs`): that cannot be mended on the wire without changing the
conversation, so it raises `InvalidDataError` naming each message and part
(`interlingua.sanitize()` repairs such a history).

With thinking on, Anthropic wants the assistant turn before the last tool
results to start with a thinking block (its 400: "When `thinking` is
enabled, a final `assistant` message must start with a thinking block ...
To avoid this requirement, disable `thinking`"). A history from elsewhere has
none, so `fit_thinking` sends that request with thinking off, and reports it.
Both look at the turns as Anthropic does: consecutive turns of a role merged.

Settings Anthropic refuses with thinking on raise `InvalidDataError`
(`check_thinking`), as changing them would change what the caller asked for
(Anthropic's extended-thinking guide, "feature compatibility"):
- a forced tool choice (`any`, `tool`): "Thinking may not be enabled when
  tool_choice forces tool use";
- a `budget_tokens` under 1024, or not below `max_tokens`, which it is spent
  out of. (The interleaved-thinking beta lifts this second rule; it is a
  header, which the codec does not see.)
- sampling: "Thinking isn't compatible with `temperature`, `top_p`, or
  `top_k` modifications", and since Claude 4 (release notes) "when extended
  thinking is enabled, you can now set top_p to values between 0.95 and 1".
  So a `temperature` of 1 or none (its 400: "`temperature` may only be set to
  1 when thinking is enabled"), no `top_k` ("`top_k` must be unset when
  thinking is enabled"), a `top_p` from 0.95 to 1 (Claude Sonnet 3.7 wants
  none; the codec does not judge by model).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import groupby

from interlingua import InvalidDataError, Message, ToolCallPart, ToolResultPart, TranslationReport
from interlingua_anthropic._wire import MIN_THINKING_BUDGET, Thinking, WireDict

__all__ = ["check_thinking", "check_tool_pairs", "fit_thinking"]

_THINKING_ON = frozenset({"enabled", "adaptive"})
_FORCED_CHOICES = frozenset({"any", "tool"})
_MIN_THINKING_TOP_P = 0.95


def check_tool_pairs(messages: Sequence[Message]) -> None:
    """Every tool call answered in the next user turn, every result there
    answering a call of the assistant turn before; else `InvalidDataError`."""
    problems: list[tuple[str, str]] = []
    calls: dict[str, str] = {}
    talk = [(i, message) for i, message in enumerate(messages) if message.role != "system"]
    for is_assistant, run in groupby(talk, key=lambda item: item[1].role == "assistant"):
        if is_assistant:
            calls = dict(_calls(run))
            continue
        results = dict(_results(run))
        problems += [
            (path, _unanswered(call_id))
            for call_id, path in calls.items()
            if call_id not in results
        ]
        problems += [
            (path, _unasked(call_id)) for call_id, path in results.items() if call_id not in calls
        ]
        calls = {}
    if problems:
        raise InvalidDataError(problems, subject="request for anthropic")


def _calls(run: Iterator[tuple[int, Message]]) -> Iterator[tuple[str, str]]:
    for i, message in run:
        for j, part in enumerate(message.parts):
            if isinstance(part, ToolCallPart):
                yield part.id, f"messages[{i}].parts[{j}]"


def _results(run: Iterator[tuple[int, Message]]) -> Iterator[tuple[str, str]]:
    for i, message in run:
        for j, part in enumerate(message.parts):
            if isinstance(part, ToolResultPart):
                yield part.tool_call_id, f"messages[{i}].parts[{j}]"


def _unanswered(call_id: str) -> str:
    return (
        f"tool call {call_id!r} has no result in the next user turn, which Anthropic "
        "rejects; interlingua.sanitize() repairs such a history"
    )


def _unasked(call_id: str) -> str:
    return f"tool result for {call_id!r} answers no tool call of the turn before"


def fit_thinking(body: WireDict, report: TranslationReport) -> None:
    """Turns thinking off in `body` when its last tool loop has no thinking block."""
    if not _thinking_on(body):
        return
    runs = [list(run) for _, run in groupby(body["messages"], key=lambda turn: turn["role"])]
    if len(runs) < 2 or not _starts_with(runs[-1][0], "tool_result"):
        return
    calls = runs[-2][0]  # the user run before is an assistant run: runs alternate
    if _starts_with(calls, "thinking") or _starts_with(calls, "redacted_thinking"):
        return
    body["thinking"] = Thinking(type="disabled")
    report.transformed(
        "reasoning",
        "sent with thinking off: with thinking on, Anthropic wants the assistant turn before "
        "the last tool results to start with its thinking block, and this history has none there",
    )


def check_thinking(body: WireDict) -> None:
    """Raises `InvalidDataError` naming the request's fields when `body` asks
    for thinking with settings Anthropic refuses with it."""
    if not _thinking_on(body):
        return
    problems = [problem for rule in _THINKING_RULES if (problem := rule(body)) is not None]
    if problems:
        raise InvalidDataError(problems, subject="request for anthropic")


Problem = tuple[str, str]


def _forced_tool_choice(body: WireDict) -> Problem | None:
    choice = body.get("tool_choice")
    if not isinstance(choice, Mapping) or choice.get("type") not in _FORCED_CHOICES:
        return None
    return (
        "tool_choice",
        f"Anthropic refuses a forced tool choice ({choice['type']}) with reasoning on "
        "('Thinking may not be enabled when tool_choice forces tool use'); "
        "choose auto or none, or turn reasoning off",
    )


def _small_budget(body: WireDict) -> Problem | None:
    budget = body["thinking"].get("budget_tokens")
    if not isinstance(budget, int) or budget >= MIN_THINKING_BUDGET:
        return None
    return (
        "reasoning.budget_tokens",
        f"Anthropic's thinking budget is at least {MIN_THINKING_BUDGET} tokens, not {budget}",
    )


def _budget_past_max_tokens(body: WireDict) -> Problem | None:
    budget, max_tokens = body["thinking"].get("budget_tokens"), body.get("max_tokens")
    if not isinstance(budget, int) or not isinstance(max_tokens, int) or max_tokens > budget:
        return None
    return (
        "max_tokens",
        f"max_tokens ({max_tokens}) must be above reasoning.budget_tokens ({budget}): "
        "Anthropic spends the thinking budget out of max_tokens",
    )


def _sampling(
    field: str, allowed: Callable[[float], bool], takes: str, said: str | None = None
) -> Callable[[WireDict], Problem | None]:
    """A rule: `field`, when set, must be `allowed` with thinking on; `said`
    is Anthropic's own 400 for it."""
    quote = "" if said is None else f" ('{said}')"

    def rule(body: WireDict) -> Problem | None:
        value = body.get(field)
        if value is None or allowed(value):
            return None
        return (
            field,
            f"Anthropic takes {takes} with reasoning on, not {value}{quote}; "
            "leave it out, or turn reasoning off",
        )

    return rule


_THINKING_RULES: tuple[Callable[[WireDict], Problem | None], ...] = (
    _forced_tool_choice,
    _small_budget,
    _budget_past_max_tokens,
    _sampling(
        "temperature",
        lambda temperature: temperature == 1,
        "temperature 1 only",
        "`temperature` may only be set to 1 when thinking is enabled",
    ),
    _sampling(
        "top_k",
        lambda top_k: False,
        "no top_k",
        "`top_k` must be unset when thinking is enabled",
    ),
    _sampling(
        "top_p",
        lambda top_p: top_p >= _MIN_THINKING_TOP_P,
        f"top_p from {_MIN_THINKING_TOP_P} to 1",
    ),
)


def _thinking_on(body: WireDict) -> bool:
    thinking = body.get("thinking")
    return isinstance(thinking, Mapping) and thinking.get("type") in _THINKING_ON


def _starts_with(turn: WireDict, kind: str) -> bool:
    content = turn.get("content")
    return isinstance(content, list) and bool(content) and content[0].get("type") == kind
