"""What Anthropic accepts: every rule, with Anthropic's own words, in one place
(but for the turn rules, in `_turns` beside it).

Parts (`empty_text`, `reasoning_left_out`, `file_left_out`, `opaque_left_out`,
`file_changed`, `unsent_file_fields`, `TOOL_ID_CHARACTERS`): what Anthropic
cannot take is left out (or changed) on the wire and reported.

The end user's id (`fit_user_id`): at most 256 characters, else a digest of
itself, reported.

Thinking (`fit_thinking`, `fit_thinking_settings`): of the settings Anthropic
refuses with thinking on (its extended-thinking guide, "feature
compatibility"), a sampling setting is left out and a forced tool choice is
sent with thinking off (the tool must be called), each reported as
transformed; a budget it refuses raises. A history with no thinking block
where Anthropic wants one is sent with thinking off, reported.
"""

from __future__ import annotations

import binascii
from collections.abc import Callable, Iterator, Mapping
from itertools import groupby
from operator import itemgetter

from interlingua import FilePart, InvalidDataError, OpaquePart, ReasoningPart, TranslationReport
from interlingua.codec import fitted_length, signed_by_claude
from interlingua_anthropic._wire import PROVIDER, BlockRole, Thinking, WireDict

__all__ = [
    "EFFORTS",
    "IMAGE_MEDIA_TYPES",
    "MIN_THINKING_BUDGET",
    "REFUSAL_AS_TEXT",
    "TOOL_ID_CHARACTERS",
    "empty_text",
    "file_changed",
    "file_left_out",
    "fit_thinking",
    "fit_thinking_settings",
    "fit_user_id",
    "opaque_left_out",
    "reasoning_left_out",
    "unsent_file_fields",
]

# Quirk: tool-use ids must match ^[a-zA-Z0-9_-]+$ (reported by users; the API answers 400).
TOOL_ID_CHARACTERS = "a-zA-Z0-9_-"
# Inline images the API accepts; any other image type is rejected with a 400.
IMAGE_MEDIA_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
# `thinking.budget_tokens` is at least this (the API answers 400 below it).
MIN_THINKING_BUDGET = 1024
# `output_config.effort` levels; the API rejects others (`xhigh` on some models only).
EFFORTS = frozenset({"low", "medium", "high", "max", "xhigh"})

# `metadata.user_id`: "maxLength 256" (the Messages API reference).
USER_ID_MAX_LENGTH = 256

_THINKING_ON = frozenset({"enabled", "adaptive"})
_FORCED_CHOICES = frozenset({"any", "tool"})
_MIN_THINKING_TOP_P = 0.95

_REQUEST = "request for anthropic"

Problem = tuple[str, str]
# A rule broken: where, why, and its fix, the body field left out to meet it (None: none).
Finding = tuple[str, str, str | None]
ThinkingRule = Callable[[WireDict], Finding | None]


# --- parts ---


def opaque_left_out(part: OpaquePart) -> str | None:
    if part.provider == PROVIDER:
        return None
    return f"a {part.provider} block ({part.block_type}) goes back to {part.provider} only"


def empty_text(text: str) -> str | None:
    """Why a text block of a request cannot go, or None."""
    # Quirk: Anthropic rejects an empty text block ("text content blocks must be non-empty").
    if text:
        return None
    return "empty text; Anthropic rejects it ('text content blocks must be non-empty')"


def reasoning_left_out(part: ReasoningPart) -> str | None:
    if part.provider != PROVIDER and not signed_by_claude(part):
        made_by = part.provider or "an unknown provider"
        return f"reasoning made by {made_by} goes back to {made_by} only"
    if part.redacted_data is None and not part.signature:
        return "Anthropic takes its thinking back only with the signature it came with"
    return None


def file_left_out(part: FilePart, role: BlockRole) -> str | None:
    return _in_assistant_turn(part, role) or _foreign_file_id(part) or _media_left_out(part)


def _in_assistant_turn(part: FilePart, role: BlockRole) -> str | None:
    if role != "assistant":
        return None
    return (
        f"Anthropic takes {part.media_type} files in user turns and tool results only "
        "('image' blocks are not permitted within assistant turns)"
    )


def _foreign_file_id(part: FilePart) -> str | None:
    if part.file_id is None or part.provider in (None, PROVIDER):
        return None
    return f"a file id of {part.provider}'s file store, which Anthropic cannot resolve"


def _media_left_out(part: FilePart) -> str | None:
    match part.kind:
        case "image":
            if part.data is not None and part.media_type not in IMAGE_MEDIA_TYPES:
                types = ", ".join(sorted(IMAGE_MEDIA_TYPES))
                return f"Anthropic takes inline images as {types} only"
            return None
        case "text":
            return _text_file_left_out(part)
        case _ if part.media_type == "application/pdf":
            return None
        case _:
            return f"Anthropic takes images, PDFs and plain text, not {part.media_type}"


def _text_file_left_out(part: FilePart) -> str | None:
    if part.url is not None:
        # Quirk: a `url` document source is fetched as a PDF; plain text goes inline.
        return "Anthropic takes a document by URL as a PDF only; a text file must be inline"
    if part.data is None:
        return None
    try:
        part.content().decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return "a text file that is not UTF-8 text in base64"
    return None


REFUSAL_AS_TEXT = "a refusal is sent as text; Anthropic has no refusal block"


def file_changed(part: FilePart) -> str | None:
    """How a file changes on its way to Anthropic, or None when it goes as it is."""
    if part.kind == "text" and part.media_type != "text/plain":
        return f"{part.media_type} is sent as a text/plain document"
    return None


def unsent_file_fields(part: FilePart) -> Iterator[tuple[str, str]]:
    """The fields of a file that go with it but have no Anthropic field."""
    if part.kind == "image" and part.filename is not None:
        yield "filename", "Anthropic's image blocks have no file name (documents have a title)"
    if part.detail is not None:
        yield "detail", "Anthropic has no image detail setting"


def fit_user_id(user_id: str, report: TranslationReport) -> str:
    """The end user's id as `metadata.user_id` takes it (`USER_ID_MAX_LENGTH`)."""
    said = f"Anthropic's metadata.user_id takes at most {USER_ID_MAX_LENGTH}"
    return fitted_length(user_id, USER_ID_MAX_LENGTH, "context.user_id", report, said)


# --- thinking ---


def fit_thinking(body: WireDict, report: TranslationReport) -> None:
    """Turns thinking off in `body` when its last tool loop has no thinking block.

    With thinking on, Anthropic wants the assistant turn before the last tool
    results to start with a thinking block (its 400: "When `thinking` is
    enabled, a final `assistant` message must start with a thinking block ...
    To avoid this requirement, disable `thinking`").
    """
    if not _thinking_on(body):
        return
    talk = [turn for turn in body["messages"] if turn["role"] != "system"]
    runs = [list(run) for _, run in groupby(talk, key=itemgetter("role"))]
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
        "setting",
    )


def fit_thinking_settings(body: WireDict, report: TranslationReport) -> None:
    """Meets, in `body`, the rules of the settings Anthropic refuses with thinking
    on: a rule with a fix has its field left out, reported as transformed (once
    `thinking` is out, no rule holds); the others raise `InvalidDataError`."""
    problems: list[Problem] = []
    for rule in _THINKING_RULES:
        if not _thinking_on(body) or (found := rule(body)) is None:
            continue
        path, said, field = found
        if field is None:
            problems.append((path, said))
        else:
            del body[field]
            report.transformed(path, f"{field} left out: {said}", "setting")
    if problems:
        raise InvalidDataError(problems, subject=_REQUEST)


def _forced_tool_choice(body: WireDict) -> Finding | None:
    choice = body.get("tool_choice")
    if not isinstance(choice, Mapping) or choice.get("type") not in _FORCED_CHOICES:
        return None
    said = (
        f"Anthropic refuses a forced tool choice ({choice['type']}) with reasoning on "
        "('Thinking may not be enabled when tool_choice forces tool use'), "
        "and the tool must be called"
    )
    return "reasoning", said, "thinking"


def _small_budget(body: WireDict) -> Finding | None:
    budget = body["thinking"].get("budget_tokens")
    if not isinstance(budget, int) or budget >= MIN_THINKING_BUDGET:
        return None
    return (
        "reasoning.budget_tokens",
        f"Anthropic's thinking budget is at least {MIN_THINKING_BUDGET} tokens, not {budget}",
        None,
    )


def _budget_past_max_tokens(body: WireDict) -> Finding | None:
    # Quirk: the interleaved-thinking beta lifts this rule; it is a header, which
    # the codec does not see.
    budget, max_tokens = body["thinking"].get("budget_tokens"), body.get("max_tokens")
    if not isinstance(budget, int) or not isinstance(max_tokens, int) or max_tokens > budget:
        return None
    return (
        "max_tokens",
        f"max_tokens ({max_tokens}) must be above reasoning.budget_tokens ({budget}): "
        "Anthropic spends the thinking budget out of max_tokens",
        None,
    )


def _sampling(
    field: str, allowed: Callable[[float], bool], takes: str, said: str | None = None
) -> ThinkingRule:
    """A rule: `field`, when set, must be `allowed` with thinking on, else it is
    left out (the call survives the default); `said` is Anthropic's own 400 for it."""
    quote = "" if said is None else f" ('{said}')"

    def rule(body: WireDict) -> Finding | None:
        value = body.get(field)
        if value is None or allowed(value):
            return None
        return field, f"Anthropic takes {takes} with reasoning on, not {value}{quote}", field

    return rule


# "Thinking isn't compatible with `temperature`, `top_p`, or `top_k`
# modifications", and since Claude 4 (release notes) "when extended thinking is
# enabled, you can now set top_p to values between 0.95 and 1" (Claude Sonnet
# 3.7 wants none; the codec does not judge by model).
_THINKING_RULES: tuple[ThinkingRule, ...] = (
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
