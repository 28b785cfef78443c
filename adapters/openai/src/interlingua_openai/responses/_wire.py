"""The Responses API wire: its name, its path, the item kinds, and where the
codec keeps what the core does not model.

The Responses API takes its own output items back as input, so the codec keeps
each item's fields (`id`, `status`, `phase`, ...) verbatim and sends them back
in requests and responses alike. What it keeps lives in
`provider_data["openai-responses"]`, in the three sections of
`interlingua._provider_data`; the TypedDicts below are the `forms` and `echo`
of each kind of value, and what each keeps in `fields` is said beside them.
The list is this adapter's part of the saved history format.

    value                               fields
    Message (user or system item)       the item's fields but `content` (`role`, `type`, `id`, ...)
    TextPart, RefusalPart (output)      the content entry's other fields (`annotations`, `logprobs`)
    TextPart (an input message's)       the `leftover` of the `input_text` entry
    ReasoningPart                       the item's fields but `summary` and `encrypted_content`
                                        (the part's `signature`); `summary` itself when the
                                        part's text does not give it back (several parts),
                                        and `content` left out when the text is its
                                        `reasoning_text` (`forms.text`)
    ToolCallPart, ToolResultPart        the item's other fields (`id`, `status`, ...)
    FilePart                            the `leftover` of the content part, nulls included
    ToolSpec                            the `leftover` of the function tool
    ChatResponse                        the response's fields but `id`, `model`, `output`,
                                        `usage`, verbatim (`status`, `created_at`, settings)

A decoded `file_id` names `"openai"` as the part's `provider`: both OpenAI
APIs read one file store. Any other item (a built-in tool's call, an item
reference) is an `OpaquePart`, whole; a message item's content entry the core
does not model is one too, as that item with that one entry.

ChatRequest.provider_options["openai-responses"] holds every body field the
core does not model, verbatim (`include`, `store`, `previous_response_id`,
`truncation`, an explicit `"stream": false`, ...), and what `reasoning` and
`text` hold beside the effort, summary and format.
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict

from interlingua_chat_completions import _wire as chat_wire

__all__ = [
    "CALL_ITEMS",
    "PROVIDER",
    "RESPONSES_PATH",
    "RESULT_ITEMS",
    "FileForms",
    "MessageForms",
    "OutputTextEcho",
    "OutputTextForms",
    "ReasoningForms",
    "RequestForms",
    "ResponseEcho",
    "ResponseForms",
    "ToolCallForms",
    "ToolResultForms",
    "ToolSpecForms",
]

PROVIDER = "openai-responses"
RESPONSES_PATH = "/responses"

# Items that are calls the next request answers, and the answers.
CALL_ITEMS = ("function_call", "custom_tool_call")
RESULT_ITEMS = ("function_call_output", "custom_tool_call_output")


# --- messages and parts (saved in histories) ---


class MessageForms(TypedDict, total=False):
    content: Literal["list"]
    """A lone text part sent as a list, not a string."""
    instructions: bool
    """True: this system message is the top-level `instructions`."""
    input: Literal["string"]
    """This user message was the whole `input`, a string."""


class OutputTextEcho(TypedDict, total=False):
    item: dict[str, Any]
    """The assistant message item's fields but `content`; consecutive parts
    with the same item go back in one item."""


class OutputTextForms(TypedDict, total=False):
    content: Literal["string"]
    """The message item's `content` was a string."""


class ReasoningForms(TypedDict, total=False):
    text: Literal["content"]
    """The part's text is the item's `content` (`reasoning_text` entries), not its summary."""


class FileForms(TypedDict, total=False):
    type: str
    """The content-part type, when not the one the part's kind gives."""
    raw_file_data: bool
    """True: a `file_data` of bare base64, not a data URL."""


class ToolCallForms(TypedDict, total=False):
    type: Literal["custom_tool_call"]
    """A custom tool's call: `arguments` holds its free-form `input`."""


class ToolResultForms(TypedDict, total=False):
    type: Literal["custom_tool_call_output"]
    """The output of a custom tool's call."""
    content: Literal["list"]
    """A lone text output sent as a list."""


# A function tool's forms, as Chat Completions' (`parameters`, `strict`:
# "absent"). The API reads an omitted `strict` as true, so a spec from elsewhere
# that leaves it open is sent `strict: false`.
ToolSpecForms = chat_wire.ToolSpecForms


# --- requests (never saved in a history) ---


class RequestForms(TypedDict, total=False):
    user_field: Literal["user"]
    """The end user's id came in the legacy `user`, not `safety_identifier`."""


# --- responses (never saved in a history) ---


class ResponseForms(TypedDict, total=False):
    absent: list[str]
    """Of `id`, `model`, `output` and `usage`, the ones the body lacked."""


class ResponseEcho(TypedDict, total=False):
    usage: dict[str, Any]
    """What `TokenUsage` cannot hold of the usage object, for `overlay`."""
