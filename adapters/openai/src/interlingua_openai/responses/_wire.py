"""The Responses API wire format: item shapes, vocabularies, and where the codec
keeps what the core does not model.

The Responses API takes its own output items back as input, so the codec keeps
each item's fields (`id`, `status`, `phase`, ...) verbatim and sends them back
in requests and responses alike. Keys in `provider_data["openai-responses"]`:

Message (user or system input item)
    ``item``          the item's fields but `content` (`role`, `type`, `id`, ...).
    ``content``       ``"list"``: a lone text part sent as a list, not a string.
    ``instructions``  this system message is the top-level `instructions`.
    ``input``         ``"string"``: this user message was the whole `input`.

Parts (an assistant-side item becomes one or more parts)
    TextPart, RefusalPart  ``item`` (the message item's fields but `content`;
                      consecutive parts with the same item share it),
                      ``part`` (the content part's other fields:
                      `annotations`, `logprobs`), ``content``: ``"string"``
                      (the item's content was a string).
    ReasoningPart     ``item`` (the reasoning item's fields but `summary`
                      and `encrypted_content`; the latter is the part's
                      `signature`), ``summary`` (the summary list, when the
                      part's text does not give it back: several parts).
    ToolCallPart      ``item``, ``type`` (``"custom_tool_call"``).
    ToolResultPart    ``item``, ``type`` (``"custom_tool_call_output"``),
                      ``content`` (``"list"``: a lone text output sent as a
                      list); output parts the core does not model are opaque.
    FilePart          ``type`` (the content-part type, when not the one its
                      media type gives), ``raw_file_data``, ``part`` (the
                      `leftover` of the content part, explicit nulls
                      included). A decoded `file_id` names ``"openai"`` as
                      the part's `provider`: both OpenAI APIs read one file
                      store. `input_audio` (which a message does not take)
                      stays an opaque part.
    OpaquePart        any other item (a built-in tool's call, an item
                      reference), whole; a message item's content entry the
                      core does not model, as that item with that one entry.
    ToolSpec          ``strict`` (``"absent"``: left out or null; the API
                      reads an omitted `strict` as true, so a spec from
                      elsewhere that leaves it open is sent `strict: false`),
                      ``parameters`` (``"absent"``), ``fields``.

ChatResponse
    ``fields``        the response's fields but `id`, `model`, `output`,
                      `usage`, verbatim (`status`, `incomplete_details`,
                      `created_at`, the echoed settings, ...).
    ``absent``        of those four, the ones the body lacked.
    ``usage``         what `TokenUsage` cannot hold of the usage object.

ChatRequest.provider_options["openai-responses"] holds every body field the
core does not model, verbatim (`include`, `store`, `previous_response_id`,
`truncation`, ...), what `reasoning` and `text` hold beside the effort,
summary and format, and the form hints of `_wire.FORM_HINTS`.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from interlingua import FinishReason
from interlingua_openai._common import UsageShape

__all__ = [
    "CALL_ID_MAX_LENGTH",
    "FINISH_STATUSES",
    "INCOMPLETE_REASONS",
    "PROVIDER",
    "RESPONSES_USAGE",
    "STATUS_REASONS",
    "ResponseBody",
    "ResponsesRequestBody",
]

PROVIDER = "openai-responses"


class ResponsesRequestBody(TypedDict, total=False):
    model: str
    input: str | list[dict[str, Any]]
    instructions: str
    tools: list[dict[str, Any]]
    tool_choice: str | dict[str, Any]
    parallel_tool_calls: bool
    max_output_tokens: int
    temperature: float
    top_p: float
    reasoning: dict[str, Any]
    text: dict[str, Any]
    include: list[str]
    store: bool
    previous_response_id: str
    stream: bool


class ResponseBody(TypedDict, total=False):
    id: str
    object: Literal["response"]
    created_at: int
    status: Literal["completed", "incomplete", "failed", "cancelled", "in_progress", "queued"]
    incomplete_details: dict[str, Any] | None
    error: dict[str, Any] | None
    model: str
    output: list[dict[str, Any]]
    usage: dict[str, Any] | None


RESPONSES_USAGE = UsageShape(
    input="input_tokens",
    output="output_tokens",
    groups=("input_tokens_details", "output_tokens_details"),
    cache_read="input_tokens_details.cached_tokens",
    cache_write="input_tokens_details.cache_write_tokens",
    reasoning="output_tokens_details.reasoning_tokens",
)

# `status` of a finished response; `completed` with calls in its output means tool calls.
STATUS_REASONS: dict[str, FinishReason] = {
    "completed": FinishReason.STOP,
    "failed": FinishReason.ERROR,
    "cancelled": FinishReason.OTHER,
}

# The status (and details) a response made elsewhere gets for its finish reason.
FINISH_STATUSES: dict[FinishReason, dict[str, Any]] = {
    FinishReason.STOP: {"status": "completed"},
    FinishReason.TOOL_CALLS: {"status": "completed"},
    FinishReason.LENGTH: {
        "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"},
    },
    FinishReason.CONTENT_FILTER: {
        "status": "incomplete",
        "incomplete_details": {"reason": "content_filter"},
    },
    FinishReason.ERROR: {"status": "failed"},
}

# `incomplete_details.reason` of an `incomplete` response.
INCOMPLETE_REASONS: dict[str, FinishReason] = {
    "max_output_tokens": FinishReason.LENGTH,
    "content_filter": FinishReason.CONTENT_FILTER,
}

# The API rejects a longer `call_id` ("Invalid 'input[95].call_id': string too
# long. Expected a string with maximum length 64", code string_above_max_length,
# reported); Chat Completions' tool-call ids stop at 40.
CALL_ID_MAX_LENGTH = 64

# Items that are calls the next request answers.
CALL_ITEMS = ("function_call", "custom_tool_call")
RESULT_ITEMS = ("function_call_output", "custom_tool_call_output")
