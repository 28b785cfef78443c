"""What the Responses API accepts, each rule with OpenAI's own words, checked
before anything is sent.

- Every call has its output and every output its call, anywhere in the input
  (`check_tool_pairs`): "No tool output found for function call ...". An
  output whose call is not in the input is taken when the request continues
  a stored response (`previous_response_id`, `conversation`). Raised:
  `interlingua.sanitize()` repairs such a history.
- A `call_id` has at most 64 characters (`fit_call_id`): "Invalid
  'input[95].call_id': string too long. Expected a string with maximum
  length 64", code string_above_max_length (reported). Rewritten, the same
  way for a call and its output.
- `max_output_tokens` is at least 16 (`check_max_output_tokens`): "Invalid
  'max_output_tokens': integer below minimum value. Expected a value >= 16,
  but got 5 instead." (reported). Raised rather than raised to 16: an answer
  longer than the caller allowed changes what was asked.
- A message's content is input_text, input_image or input_file
  (`ResponseInputMessageContentListParam`): no `input_audio` (`takes_in_message`).
  What each says of a file beside its bytes: `FILE_FIELDS` (`input_file` has
  `detail` since late 2026, openai 3.57's `ResponseInputFileParam`).
- An assistant input message holds `output_text` and `refusal` entries only:
  "Invalid value: 'input_text'. Supported values are: 'output_text' and
  'refusal'." (`ASSISTANT_CONTENT`).
"""

from __future__ import annotations

from collections.abc import Sequence

from interlingua import FilePart, InvalidDataError, Message, TranslationReport
from interlingua_openai import _rules as chat_rules
from interlingua_openai._rules import FileFields
from interlingua_openai.responses._wire import PROVIDER

__all__ = [
    "ASSISTANT_CONTENT",
    "CALL_ID_MAX_LENGTH",
    "FILE_FIELDS",
    "MIN_OUTPUT_TOKENS",
    "check_max_output_tokens",
    "check_tool_pairs",
    "fit_call_id",
    "takes_in_message",
]

CALL_ID_MAX_LENGTH = 64
MIN_OUTPUT_TOKENS = 16
ASSISTANT_CONTENT = ("output_text", "refusal")
FILE_FIELDS = FileFields(
    {"input_image": frozenset({"detail"}), "input_file": frozenset({"filename", "detail"})},
    "the Responses API",
)
_API = "the Responses API"


def check_tool_pairs(messages: Sequence[Message], *, continued: bool) -> None:
    """Every call answered and every output answering a call, anywhere after it;
    `continued`: the request continues a stored response, whose calls an
    output may answer."""
    chat_rules.check_tool_pairs(messages, PROVIDER, adjacent=False, continued=continued)


def fit_call_id(tool_call_id: str, path: str, report: TranslationReport) -> str:
    """The id as the wire takes it; a rewrite is reported."""
    return chat_rules.fit_call_id(tool_call_id, path, report, max_length=CALL_ID_MAX_LENGTH)


def check_max_output_tokens(limit: int) -> None:
    """`InvalidDataError` for a limit below the API's minimum."""
    if limit < MIN_OUTPUT_TOKENS:
        problem = f"{_API} takes at least {MIN_OUTPUT_TOKENS} output tokens, not {limit}"
        raise InvalidDataError([("max_tokens", problem)], subject=f"request for {PROVIDER}")


def takes_in_message(part: FilePart) -> bool:
    """Whether a file can go in a message's content (audio cannot)."""
    return part.kind != "audio"
