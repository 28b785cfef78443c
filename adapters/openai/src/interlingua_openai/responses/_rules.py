"""What the Responses API accepts, checked before anything is sent: each rule
with OpenAI's own words (its 400 text, or its SDK's types).

Where the call survives a change, the encoder makes it and reports it (a
rewritten `call_id`, a file a message cannot carry, a token limit below the
minimum raised to it, a call the conversation went on without answering sent
with an error output: the core's `missing_results`); where a change would
alter what was asked (a call the history ends with, an output answering no
call), `InvalidDataError` names the message, part or field. The
Chat Completions rules on files (`interlingua_chat_completions._rules`) hold
here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from interlingua import (
    ContentPart,
    FilePart,
    Message,
    TextPart,
    TranslationReport,
)
from interlingua.codec import MissingResults, fitted_tool_call_id, kept
from interlingua_chat_completions import _rules as chat_rules
from interlingua_chat_completions._rules import FileFields
from interlingua_openai.responses._wire import PROVIDER

__all__ = [
    "ASSISTANT_CONTENT",
    "CALL_ID_MAX_LENGTH",
    "FILE_FIELDS",
    "MIN_OUTPUT_TOKENS",
    "check_tool_pairs",
    "empty_text_left_out",
    "fit_call_id",
    "fit_max_output_tokens",
    "takes_in_message",
]

# "Invalid 'input[95].call_id': string too long. Expected a string with maximum
# length 64", code string_above_max_length (reported); Chat Completions' ids stop
# at 40. Rewritten by `fit_call_id`, the same way for a call and its output.
CALL_ID_MAX_LENGTH = 64

# "Invalid 'max_output_tokens': integer below minimum value. Expected a value >=
# 16, but got 5 instead." (reported). A lower limit is raised to it (reported): the
# answer may run up to 16 tokens, a change the call survives (Chat Completions and
# Anthropic take any limit, so a request made there may hold one).
MIN_OUTPUT_TOKENS = 16

# An assistant input message holds these entries only: "Invalid value:
# 'input_text'. Supported values are: 'output_text' and 'refusal'."
ASSISTANT_CONTENT = ("output_text", "refusal")

# What each input content type says of a file beside its bytes: `input_file` has
# `detail` since late 2026 (openai 3.57's `ResponseInputFileParam`).
FILE_FIELDS = FileFields(
    {"input_image": frozenset({"detail"}), "input_file": frozenset({"filename", "detail"})},
    "the Responses API",
)

_API = "the Responses API"


def check_tool_pairs(
    messages: Sequence[Message], report: TranslationReport, *, continued: bool
) -> MissingResults:
    """Every call answered and every output answering a call, anywhere after it
    in the input: "No tool output found for function call ..."; but for the
    calls the conversation went on without answering, whose error outputs the
    encoder sends (returned). `continued`: the request continues a stored
    response (`previous_response_id`, `conversation`), whose calls an output
    may answer."""
    return chat_rules.check_tool_pairs(
        messages, PROVIDER, report, adjacent=False, continued=continued
    )


def fit_call_id(tool_call_id: str, path: str, report: TranslationReport) -> str:
    """The `call_id` as the wire takes it (`CALL_ID_MAX_LENGTH`); a rewrite is reported."""
    return fitted_tool_call_id(
        tool_call_id,
        path,
        report,
        allowed=chat_rules.TOOL_CALL_ID_CHARACTERS,
        max_length=CALL_ID_MAX_LENGTH,
    )


def empty_text_left_out(part: ContentPart, path: str, report: TranslationReport) -> bool:
    """Whether `part` is empty assistant text made elsewhere, left out of a request
    (reported). The API's own empty text goes back as it came."""
    if not isinstance(part, TextPart) or part.text or kept(part, PROVIDER):
        return False
    # Quirk: the Responses API takes no empty message; Mistral sends `content: ""`
    # beside its tool calls, decoded as an empty text part.
    report.dropped(path, f"empty text; {_API} takes no empty message", "hint")
    return True


def fit_max_output_tokens(limit: int, report: TranslationReport) -> int:
    """`max_output_tokens` for a limit: raised to `MIN_OUTPUT_TOKENS` (reported) when below."""
    if limit >= MIN_OUTPUT_TOKENS:
        return limit
    report.transformed(
        "max_tokens",
        f"raised to {MIN_OUTPUT_TOKENS}: {_API} takes at least {MIN_OUTPUT_TOKENS} output "
        f"tokens, not {limit} ('integer below minimum value')",
        "setting",
    )
    return MIN_OUTPUT_TOKENS


def takes_in_message(part: FilePart) -> bool:
    """Whether a file can go in a message: its content is input_text, input_image
    or input_file (`ResponseInputMessageContentListParam`), no `input_audio`;
    and an input_file is a document, which a video (a YouTube URL Gemini
    watches) is not."""
    return part.kind not in ("audio", "video")
