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
    ToolSpec                            the `leftover` of the function or custom tool (a
                                        custom tool's grammar `format` among them)
    ChatResponse                        the response's fields but `id`, `model`, `output`,
                                        `usage`, verbatim (`status`, `created_at`, settings)

A decoded `file_id` names `"openai"` as the part's `provider`: both OpenAI
APIs read one file store. Any other item (a built-in tool's call, an item
reference) is an `OpaquePart`, whole; a message item's content entry the core
does not model is one too, as that item with that one entry.

Tools: a function tool is a `ToolSpec`; a custom tool (free text in) the
core's freeform one (`ToolSpec.freeform`, its name ending in `--freeform`);
each function and custom tool of a `namespace` one too, named `<namespace>--
<name>` (`interlingua.ToolName`), and so are the tools of an input
`additional_tools` item. A call keeps the form of its item (`ToolCallForms`).

ChatRequest.provider_options["openai-responses"] holds every body field the
core does not model, verbatim (`include`, `store`, `previous_response_id`,
`truncation`, an explicit `"stream": false`, ...), and what `reasoning` and
`text` hold beside the effort, summary and format. Where the `tools` list is
more than function and custom tools (a namespace, a built-in tool:
`web_search`, `tool_search`, ...), `tools` is that list with each `ToolSpec`
as its name (in a namespace too), any other tool as it came; and
`additional_tools` the input's `additional_tools` items, their tools likewise,
each at the place the request's form `additional_tools` gives.
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict

from interlingua.codec import OutputLimits

__all__ = [
    "CALL_ITEMS",
    "OUTPUT_LIMITS",
    "PROVIDER",
    "RESPONSES_PATH",
    "RESULT_ITEMS",
    "TOOLS_ITEM",
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
# Where a request asks for output tokens (reasoning has an effort, no budget).
OUTPUT_LIMITS = OutputLimits(tokens=("max_output_tokens",))

# Items that are calls the next request answers, and the answers.
CALL_ITEMS = ("function_call", "custom_tool_call")
RESULT_ITEMS = ("function_call_output", "custom_tool_call_output")
# An input item that offers tools at its place, not a turn of the conversation.
TOOLS_ITEM = "additional_tools"


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
    """A custom tool's call: the part is the freeform tool's (its name ends in
    `--freeform`), its `arguments` `{"input": <input>}`. (A call kept before
    freeform tools had such names holds its name as it came, and its input as
    the arguments.)"""
    namespace: str
    """The call's `namespace`: the part's name is `<namespace>--<name>`."""
    name: Literal["plain"]
    """A `function_call` with no namespace whose name reads as a namespace's
    function or a freeform tool's (`interlingua.ToolName`)."""


class ToolResultForms(TypedDict, total=False):
    type: Literal["custom_tool_call_output"]
    """The output of a custom tool's call."""
    content: Literal["list"]
    """A lone text output sent as a list."""


class ToolSpecForms(TypedDict, total=False):
    parameters: Literal["absent"]
    """The function had no `parameters` (or a null)."""
    strict: Literal["absent"]
    """The function had no `strict` (or a null). The API reads an omitted
    `strict` as true, so a spec from elsewhere that leaves it open is sent
    `strict: false`."""
    type: Literal["custom"]
    """A custom tool: the spec is the core's freeform one (`ToolSpec.freeform`)."""
    format: Literal["text"]
    """The custom tool's `format` was `{"type": "text"}` (a grammar is a field)."""


# --- requests (never saved in a history) ---


class RequestForms(TypedDict, total=False):
    user_field: Literal["user"]
    """The end user's id came in the legacy `user`, not `safety_identifier`."""
    additional_tools: list[int]
    """Where each kept `additional_tools` item stood in `input`: the index of the
    message it came before (the number of messages, after the last)."""
    tool_settings: Literal["without_tools"]
    """`tool_choice` or `parallel_tool_calls` came in a body without tools: they
    go back so to this API, which answers such a body 200, where a request from
    elsewhere leaves them out (`_rules.tool_settings` of Chat Completions)."""


# --- responses (never saved in a history) ---


class ResponseForms(TypedDict, total=False):
    absent: list[str]
    """Of `id`, `model`, `output` and `usage`, the ones the body lacked."""


class ResponseEcho(TypedDict, total=False):
    usage: dict[str, Any]
    """What `TokenUsage` cannot hold of the usage object, for `overlay`."""
