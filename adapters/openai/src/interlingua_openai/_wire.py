"""The Chat Completions wire format: body shapes, vocabularies, and where the
codec keeps what the core does not model.

The shapes are `TypedDict`s for reading; the codec builds plain dicts. Keys in
`provider_data[<provider>]` (the dialect's provider name, `"openai"` here):

Message, from a request (sent back in requests only)
    ``role``     ``"developer"``: a system message sent as `developer`.
    ``name``     the participant `name`.
    ``content``  ``"list"``, ``"null"`` or ``"absent"``: the wire form of
                 `content` when it is not the default one (a string for a
                 lone text part, `null` for an assistant turn without text
                 beside calls or a refusal, `""` for nothing, else a list).
    ``audio``    the assistant `audio` reference (``{"id": ...}``).
    ``fields``   any other message field, verbatim (a tool message's too).

Parts (``fields`` is always the `leftover` of the wire item: what encoding the
part does not give back, nested objects and explicit nulls included; encoding
`overlay`s it)
    TextPart     ``fields``; ``annotations`` (response: the message's
                 non-empty url citations).
    RefusalPart  ``in_content``: it was a `refusal` item of a content list,
                 not the message's `refusal` field.
    FilePart     ``type`` (the content-part type, when not the one its media
                 type gives); ``raw_file_data`` (a `file_data` that was no data
                 URL); ``fields``; ``audio`` (an audio answer's `id`,
                 `expires_at`, `transcript`: the audio itself is the data).
                 A decoded `file_id` names this dialect's provider as the
                 part's `provider` (its file store). `input_audio` in a format
                 the dialect does not take stays an opaque part.
    ToolCallPart ``fields`` (of the call and of its `function`); ``type``
                 (``"custom"``: a custom tool's call, `arguments` holding its
                 free-form `input`); ``tool_call`` (a call of another kind,
                 whole); ``function_call`` (the deprecated message-level
                 `function_call`, which has no id).
    ToolResultPart ``content`` (the form, as for a message), ``name`` (a `name`
                 the tool message carried), ``role`` (``"function"``: the
                 deprecated function-result message).
    ToolSpec     ``parameters`` (``"absent"``: left out or null), ``fields``
                 (of the `function` object).

ChatResponse (response-only facts, never sent in a request)
    ``fields``   top-level fields the core does not model (`object`, `created`,
                 `service_tier`, `system_fingerprint`, ...), verbatim.
    ``absent``   canonical keys the body lacked (`usage`).
    ``choice``   ``{"fields": {...}, "absent": [...]}`` for the choice
                 (`logprobs` when not null).
    ``message``  ``{"fields": {...}, "absent": [...], "content": "list"}`` for
                 the message (`refusal: null` and `annotations: []` are
                 canonical, so only a deviation is kept; ``content``: it came
                 as a list of parts).
    ``usage``    the `leftover` of the usage object: what `TokenUsage` cannot
                 hold (a null detail group, a non-count detail, a router's
                 `cost`).
    ``choices``  ``[]``: the body had no choice at all.

ChatRequest.provider_options[<provider>] holds every body field the core does
not model, verbatim (`n`, `logprobs`, `stream_options`, `user`, ...), and a
tools list the core cannot hold exactly. ChatRequest.provider_data[<provider>]
holds the forms of fields the core does model (see `_settings`).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from interlingua import FinishReason

__all__ = [
    "AUDIO_FORMATS",
    "FINISH_REASONS",
    "WIRE_FINISH_REASONS",
    "ChatChoice",
    "ChatChunk",
    "ChatCompletion",
    "ChatMessage",
    "ChatRequestBody",
    "ChatToolCall",
    "ChatUsage",
]


class ChatFunction(TypedDict):
    name: str
    arguments: str


class ChatToolCall(TypedDict, total=False):
    id: str
    type: Literal["function", "custom"]
    function: ChatFunction
    custom: dict[str, Any]


class ChatMessage(TypedDict, total=False):
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[dict[str, Any]] | None
    name: str
    refusal: str | None
    tool_calls: list[ChatToolCall]
    tool_call_id: str
    audio: dict[str, Any] | None
    annotations: list[dict[str, Any]]


class ChatRequestBody(TypedDict, total=False):
    model: str
    messages: list[ChatMessage]
    tools: list[dict[str, Any]]
    tool_choice: str | dict[str, Any]
    parallel_tool_calls: bool
    max_completion_tokens: int
    max_tokens: int
    temperature: float
    top_p: float
    stop: str | list[str]
    seed: int
    reasoning_effort: str
    response_format: dict[str, Any]
    stream: bool


class ChatUsage(TypedDict, total=False):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    prompt_tokens_details: dict[str, int]
    completion_tokens_details: dict[str, int]


class ChatChoice(TypedDict, total=False):
    index: int
    message: ChatMessage
    finish_reason: str | None
    logprobs: dict[str, Any] | None


class ChatCompletion(TypedDict, total=False):
    id: str
    object: Literal["chat.completion"]
    created: int
    model: str
    choices: list[ChatChoice]
    usage: ChatUsage
    service_tier: str | None
    system_fingerprint: str | None


class ChatChunk(TypedDict, total=False):
    id: str
    object: Literal["chat.completion.chunk"]
    created: int
    model: str
    choices: list[dict[str, Any]]
    usage: ChatUsage | None
    obfuscation: str


FINISH_REASONS: dict[str, FinishReason] = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "content_filter": FinishReason.CONTENT_FILTER,
    # The deprecated `functions` API's way of saying `tool_calls`.
    "function_call": FinishReason.TOOL_CALLS,
}

WIRE_FINISH_REASONS: dict[FinishReason, str] = {
    FinishReason.STOP: "stop",
    FinishReason.LENGTH: "length",
    FinishReason.TOOL_CALLS: "tool_calls",
    FinishReason.CONTENT_FILTER: "content_filter",
}

# The media types `input_audio` takes, with their `format` (the first of each
# format is the one it decodes to). OpenAI takes wav and mp3 only.
AUDIO_FORMATS: dict[str, str] = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
}
