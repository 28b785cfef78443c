"""The Chat Completions wire: its name, its path, and where the codec keeps
what the core does not model.

The codec builds and reads plain dicts; what it keeps lives in
`provider_data[<provider>]` (the dialect's provider name: `"openai"` for OpenAI's),
in the three sections of `interlingua._provider_data`. The TypedDicts below
are those sections, one per kind of value; each key's meaning is written
beside it, and the list is this adapter's part of the saved history format.

Parts keep in ``fields`` the `leftover` of their wire item: what encoding the
part does not give back, nested objects and explicit nulls included; encoding
`overlay`s it. A message keeps in ``fields`` its other fields verbatim (a
participant `name` too). A decoded `file_id` names the dialect's provider as
the part's `provider` (its file store); `input_audio` in a format the dialect
does not take stays an opaque part.

ChatRequest.provider_options[<provider>] holds every body field the core does
not model, verbatim (`n`, `logprobs`, `stream_options`, `user`, ...), and a
tools list with tools the core does not model (`tools`: each `ToolSpec` as
its name, any other tool as it came); `ChatRequest.provider_data` keeps
the forms of the fields it does model (`RequestForms`).
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict

from interlingua.codec import OutputLimits

__all__ = [
    "ABSENT",
    "CHAT_COMPLETIONS_PATH",
    "CHUNK_OBJECT",
    "OUTPUT_LIMITS",
    "RESPONSE_FIELDS",
    "AudioAnswer",
    "AudioReference",
    "ChoiceShape",
    "ContentForm",
    "FileEcho",
    "FileForms",
    "MessageEcho",
    "MessageForms",
    "MessageShape",
    "ReasoningForms",
    "RefusalForms",
    "RequestForms",
    "ResponseEcho",
    "ResponseForms",
    "TextEcho",
    "ToolCallEcho",
    "ToolCallForms",
    "ToolResultForms",
    "ToolSpecEcho",
    "ToolSpecForms",
]

CHAT_COMPLETIONS_PATH = "/chat/completions"
# Where a request asks for output tokens: either name of the limit (`_settings`).
OUTPUT_LIMITS = OutputLimits(tokens=("max_completion_tokens", "max_tokens"))
CHUNK_OBJECT = "chat.completion.chunk"  # a stream chunk's `object`
# The fields of the response that every chunk of its stream repeats beside its
# `id`, `object` and `model` (the decoder reads them from the first).
RESPONSE_FIELDS = ("created", "service_tier", "system_fingerprint")


ABSENT: Any = object()  # `content` left out of a message altogether


# --- messages and parts (saved in histories) ---


ContentForm = Literal["list", "null", "absent"]


class AudioReference(TypedDict):
    id: str


class MessageForms(TypedDict, total=False):
    role: Literal["developer"]
    """A system message sent as `developer`."""
    content: ContentForm
    """`content` when not in its default form (a string for one plain text
    part, `null` for an assistant turn of calls or a refusal only, `""` for
    nothing, else a list)."""


class MessageEcho(TypedDict, total=False):
    audio: AudioReference
    """The assistant `audio` reference of a request message."""


class TextEcho(TypedDict, total=False):
    annotations: list[dict[str, Any]]
    """A response message's non-empty `annotations` (url citations)."""


class RefusalForms(TypedDict, total=False):
    in_content: bool
    """True: a `refusal` item of a content list, not the `refusal` field."""


class FileForms(TypedDict, total=False):
    type: str
    """The content-part type, when not the one the part's kind gives."""
    raw_file_data: bool
    """True: a `file_data` of bare base64, not a data URL."""


class AudioAnswer(TypedDict, total=False):
    id: str
    expires_at: int
    transcript: str


class FileEcho(TypedDict, total=False):
    audio: AudioAnswer
    """An audio answer's `id`, `expires_at` and `transcript` (the audio itself
    is the part's data): the `id` goes back as the assistant's `audio`."""


class ReasoningForms(TypedDict, total=False):
    think: list[str]
    """The reasoning came inside `<think>` at the start of the content (`_think`):
    what came there before it and after it, tags and whitespace."""


class ToolCallForms(TypedDict, total=False):
    type: Literal["custom"]
    """A custom tool's call: the part is the freeform tool's (its name ends in
    `--freeform`), its `arguments` `{"input": <input>}`. (A call kept before
    freeform tools had such names holds its name as it came, and its input as
    the arguments.)"""
    name: Literal["plain"]
    """A function call whose name, as it came, reads as a freeform tool's."""
    function_call: bool
    """True: the deprecated message-level `function_call`, which has no id."""
    arguments: Literal["object", "absent"]
    """The call's `arguments` came as a JSON object, not its text (Mistral), or
    not at all (OpenRouter, for a call without arguments: the part's `{}`)."""
    typed: Literal[False]
    """The call had no `type` (Mistral's answers)."""


class ToolCallEcho(TypedDict, total=False):
    tool_call: dict[str, Any]
    """A call of a kind the core does not model, whole."""


class ToolResultForms(TypedDict, total=False):
    content: ContentForm
    """The form of the tool message's `content`, as for a message."""
    role: Literal["function"]
    """The deprecated `function` result message, matched by name."""
    name: bool
    """True: the tool message carried a `name` (the part's `name`), sent back
    with it. A name from elsewhere is not sent: the call it answers names the tool."""


class ToolSpecForms(TypedDict, total=False):
    parameters: Literal["absent"]
    """The function had no `parameters` (or a null)."""
    strict: Literal["absent"]
    """The function had no `strict` (or a null)."""
    type: Literal["absent", "custom"]
    """The tool had no `type` beside its `function` (older Mistral clients), or
    was a custom tool (the spec is the core's freeform tool: `ToolSpec.freeform`)."""
    format: Literal["text"]
    """The custom tool's `format` was `{"type": "text"}` (a grammar is a field)."""


class ToolSpecEcho(TypedDict, total=False):
    tool: dict[str, Any]
    """The tool's fields beside `type` and its `function` (or `custom`)."""


# --- requests and responses (never saved in a history) ---


class RequestForms(TypedDict, total=False):
    max_tokens_field: Literal["max_tokens", "max_completion_tokens"]
    """The token-limit name the body used, when not the dialect's."""
    stop: Literal["string"]
    """A lone stop sequence sent as a string."""
    stream: Literal[False]
    """An explicit `"stream": false`."""
    tool_choice: str
    """The word the body used for "call a tool", when not the dialect's first."""
    tool_choice_typed: Literal[False]
    """A named function's choice came without its `"type": "function"`."""
    tool_settings: Literal["without_tools"]
    """`tool_choice` or `parallel_tool_calls` came in a body without tools: they
    go back so to this API, which judges them (xAI answers such a body 200),
    where a request from elsewhere leaves them out (`_rules.tool_settings`)."""
    user_field: str
    """The name the end user's id came in (`user`), when not the dialect's."""
    reasoning_field: Literal["reasoning_effort"]
    """The effort came as `reasoning_effort` where the dialect has a reasoning
    setting of its own (`ChatCompletionsDialect.reasoning_setting`)."""
    reasoning_enabled: Literal[True]
    """That setting said `enabled` where its effort or budget already did."""


class ChoiceShape(TypedDict, total=False):
    fields: dict[str, Any]
    """The choice's other fields (`logprobs` when not null), verbatim."""
    absent: list[str]
    """Canonical keys the choice lacked."""


class MessageShape(ChoiceShape, total=False):
    content: Literal["list", "object"]
    """The message's `content` came as a list of parts, or as a JSON object
    (Cloudflare's answer to `json_schema`). (`refusal: null` and
    `annotations: []` are canonical: only a deviation is in `fields`.)"""


class ResponseForms(TypedDict, total=False):
    absent: list[str]
    """Canonical top-level keys the body lacked (`usage`)."""
    choices: Literal["empty"]
    """The body had no choice at all."""


class ResponseEcho(TypedDict, total=False):
    choice: ChoiceShape
    """What rebuilds this answer's choice beside its message and finish reason."""
    message: MessageShape
    """What rebuilds this answer's message beside its parts."""
    usage: dict[str, Any]
    """What `TokenUsage` cannot hold of the usage object (a null detail
    group, a non-count detail, a router's `cost`), for `overlay`."""
