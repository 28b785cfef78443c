"""A dialect of the Chat Completions wire format: OpenAI's, or another server's.

OpenAI, Groq and many others speak Chat Completions with small differences. A
`ChatCompletionsDialect` holds those differences as settings and a few
overridable hooks; it is data, and knows no codec: `ChatCompletionsCodec`
(`interlingua_chat_completions._codec`) binds the one codec to a dialect.
The defaults are OpenAI's, whose API this is (`interlingua_openai.OPENAI`).

What a dialect decides (Groq, say, subclasses and overrides these):

- `provider`: its name, the key of its `provider_data`/`provider_options`,
  and whose reasoning, opaque parts, files and raw finish reasons it takes back.
- `reasoning_field`: the assistant message field carrying reasoning text
  (Groq: `reasoning`), read from responses and stream deltas and sent back in
  requests for reasoning this provider made. None: the wire has none
  (OpenAI), and reasoning is left out of requests and reported.
- `tool_call_id_characters`, `tool_call_id_max_length`, `tool_call_id_length`:
  tool-call id rules, the last an exact length (Mistral's 9); `fit_call_id`
  applies them.
- `max_tokens_field`: the token-limit name sent by default.
- `max_stop_sequences`: how many stop sequences the server takes (OpenAI: 4;
  None: no limit); the rest are left out and reported.
- `audio_formats`: the media types `input_audio` takes, with the wire's format
  name for each (OpenAI: wav and mp3); other audio is left out and reported.
- `assistant_content_parts`: whether an assistant `content` may be a list of
  parts; if not, several text parts are joined (reported).
- `message_defaults`, `choice_defaults`: the fields a response message
  always has besides `role` and `content` (OpenAI: `refusal: null`,
  `annotations: []`; Mistral: `tool_calls: null`), and a choice beside
  `index`, `message` and `finish_reason` (OpenAI: `logprobs: null`).
- `seed_field`: the name of the sampling seed (Mistral: `random_seed`).
- `required_tool_choice`: the words for "a tool must be called", the one
  sent first (Mistral: `any`, and `required` read too).
- `user_field`: where the context's user id goes (OpenAI:
  `safety_identifier`; None: the server takes none, and it is left out).
- `think_tags`: whether an assistant's content may open with its reasoning
  in `<think>` tags (Groq's raw format), split out as a `ReasoningPart`.
- `document_parts`: whether a user message takes `file` parts (documents);
  if not, they are left out (reported).
- `document_urls`: whether a `file` part's `file_data` may be a URL
  (OpenRouter's), a URL file; if not, a document by URL is left out
  (reported), and `file_data` is data.
- `empty_assistant`: whether the server takes an assistant message with
  neither content nor tool calls; if not, one is left out (reported).
- `refusal_field`: whether an assistant message has a `refusal` field
  (OpenAI); if not, a refusal goes as the assistant's text (reported).
- `numbered_calls`: whether an answer's tool calls carry their `index`
  outside a stream too (Mistral), so a streamed call keeps it.
- `whole_calls`: whether a stream sends each tool call whole in one chunk,
  with no `index` (Mistral): such calls are told apart by their place in the
  chunk and their id, and a stream written for the server holds each call
  to the finish chunk and writes it there whole, with no `index`
  (`_stream_calls`).
- `stream_noise`: top-level chunk fields that say nothing of the response,
  ignored (OpenAI's `obfuscation`; Mistral's `p` padding).
- `prefill_field`: the assistant message field that makes a history's last
  message the start of the answer (Mistral's `prefix`, sent true there and read
  there as no field of its own); None: a last assistant message goes as it is.
- `tool_user_bridge`: the text of an assistant turn put between a tool
  message and a user message right after it, for a server that refuses the
  pair (Mistral); None: the pair goes as it is.
- `part_decoder`, `part_encoder`: the server's own content-part codec
  (subclasses of `_parts`' `PartDecoder` and `PartEncoder`: Mistral's
  thinking, document and audio chunks); None: the plain one.
- `finish_reasons`: wire finish reason to `FinishReason`.
- `usage`: the usage object's names, including extra counts such as Groq's
  `queue_time`.
- `stream_usage(chunk)`: where a stream chunk carries usage (Groq:
  `x_groq.usage`), and `stream_fields(chunk)` its fields without it.
- `usage_chunk`, `stream_usage_fields(usage, fields)`: where an encoded
  stream puts its usage: in a chunk of its own with `choices: []` after the
  finish chunk (OpenAI's `stream_options.include_usage`), or on the finish
  chunk (Mistral; Groq, in `x_groq` beside the response's `x_groq` id).
- `usage_unasked`: whether the server's streams carry the usage unasked
  (Groq's, Mistral's); if not, only for a request that asks
  (`stream_options.include_usage`, as OpenAI's), and a stream written for a
  request that did not ask carries none (`streams_usage(request)`).
- `decode_error(status, body, headers=None)`: the server's error bodies (and
  the answer's headers) to typed errors, answers and in-stream error chunks
  alike (OpenAI's `{"error": {...}}`);
  `is_error(chunk)` tells an error chunk (Mistral's `{"object": "error"}`);
  `encode_error(error)` a typed error back to a status and a body (the body
  is the in-stream error chunk too).
- `check_request(request)`: raises `InvalidDataError` for a request the
  server refuses as a whole and that leaving a part out cannot mend
  (Mistral's last message, Groq's two reasoning settings at once); the plain
  dialect has none.
- `takes_reasoning(part, model)`: whether reasoning goes back in the
  `reasoning_field` (its maker's, and for Groq a model that takes it).
- `sent_request(request, report)`: the request as the server must be sent
  it, where it asks for more than the history holds (DeepSeek's thinking
  mode: a `reasoning_content` on every assistant message of a tool-call
  turn); each addition reported, the caller's request never changed.
- `sent_body(body, request, report)`: the body as the server must be sent
  it, where its rules are of the wire's messages (Perplexity's alternating
  turns); each change reported at the path of the caller's `request`.
- `decode_reasoning(message, path, read)`, `encode_reasoning(parts, wire)`,
  `holds_reasoning(part)`: a message's reasoning parts and the fields they
  come from (by default the `reasoning_field`'s text; OpenRouter's
  `reasoning_details` entries), and `reasoning_stream()` the same for a
  stream's deltas (None: the `reasoning_field`'s text pieces), and
  `reasoning_piece(data, text, signature)` a streamed piece going out.
- `reasoning_setting()`: the request's reasoning setting in a body field of
  the dialect's own (OpenRouter's `reasoning` object, `_settings` of its
  package); None: `reasoning_effort`.
- `least_reasoning`: what each model takes for reasoning turned off
  (`interlingua.codec.ReasoningOff`, the first pattern matching the model's
  name): an effort (OpenAI's gpt-5.1 `none`, gpt-5 `minimal`), body fields of
  their own (DeepSeek's `thinking`), or none for a model without reasoning;
  a model none matches is sent no effort, reported. OpenAI's by default.
- `shared_settings`: per other API of the same provider, the request settings
  of the same names and meaning this one takes (OpenAI's Chat Completions and
  Responses API: `prompt_cache_key` and the like), sent as they came.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from interlingua import (
    ChatRequest,
    FinishReason,
    ProviderError,
    ReasoningConfig,
    ReasoningPart,
    TranslationReport,
)
from interlingua.codec import ModelRules, ProviderData, WireReader, fitted_tool_call_id
from interlingua_chat_completions._errors import decode_error, encode_error
from interlingua_chat_completions._finish import FINISH_REASONS
from interlingua_chat_completions._rules import (
    AUDIO_FORMATS,
    MAX_STOP_SEQUENCES,
    OPENAI_LEAST_REASONING,
    TOOL_CALL_ID_CHARACTERS,
    TOOL_CALL_ID_MAX_LENGTH,
)
from interlingua_chat_completions._usage import CHAT_USAGE, UsageShape
from interlingua_chat_completions._wire import RequestForms

if TYPE_CHECKING:
    from interlingua import StreamEvent
    from interlingua_chat_completions._parts import PartDecoder, PartEncoder

__all__ = ["ChatCompletionsDialect", "ReasoningSetting", "ReasoningStream"]


class ReasoningStream(Protocol):
    """A dialect's reader of the reasoning in a stream's deltas, one per choice."""

    keys: frozenset[str]  # the delta fields it reads

    def feed(self, delta: Mapping[str, Any], path: str, read: WireReader) -> list[StreamEvent]:
        """The events of one delta's reasoning."""
        ...


class ReasoningSetting(Protocol):
    """A dialect's own body field for the request's reasoning setting (its
    `ReasoningConfig`), read and written in `reasoning_effort`'s place."""

    field: str  # the body field

    def decode(
        self, wire: Mapping[str, Any], options: dict[str, Any], forms: RequestForms
    ) -> ReasoningConfig | None:
        """The config `wire` (the field's object) says; what the core cannot hold
        goes to `options[field]`, the form it was written in to `forms`."""
        ...

    def encode(
        self, config: ReasoningConfig, forms: Mapping[str, Any], report: TranslationReport
    ) -> dict[str, Any]:
        """The field's object for `config`, in `forms`; what it cannot say is reported."""
        ...


def _openai_message_defaults() -> dict[str, Any]:
    return {"refusal": None, "annotations": []}


# Compared by identity: a dialect is one server's, and stays hashable.
@dataclass(frozen=True, eq=False)
class ChatCompletionsDialect:
    """The settings and hooks of one Chat Completions server; see the module doc."""

    provider: str
    reasoning_field: str | None = None
    tool_call_id_characters: str = TOOL_CALL_ID_CHARACTERS
    tool_call_id_max_length: int = TOOL_CALL_ID_MAX_LENGTH
    tool_call_id_length: int | None = None
    max_tokens_field: str = "max_completion_tokens"
    max_stop_sequences: int | None = MAX_STOP_SEQUENCES
    audio_formats: Mapping[str, str] = field(default_factory=lambda: AUDIO_FORMATS)
    assistant_content_parts: bool = True
    message_defaults: Mapping[str, Any] = field(default_factory=_openai_message_defaults)
    choice_defaults: Mapping[str, Any] = field(default_factory=lambda: {"logprobs": None})
    finish_reasons: Mapping[str, FinishReason] = field(default_factory=lambda: FINISH_REASONS)
    usage: UsageShape = CHAT_USAGE
    seed_field: str = "seed"
    required_tool_choice: tuple[str, ...] = ("required",)
    user_field: str | None = "safety_identifier"
    tool_user_bridge: str | None = None
    prefill_field: str | None = None
    stream_noise: frozenset[str] = frozenset({"obfuscation"})
    numbered_calls: bool = False
    whole_calls: bool = False
    usage_chunk: bool = True
    usage_unasked: bool = False
    refusal_field: bool = True
    empty_assistant: bool = True
    think_tags: bool = False
    document_parts: bool = True
    document_urls: bool = False
    part_decoder: type[PartDecoder] | None = None
    part_encoder: type[PartEncoder] | None = None
    least_reasoning: ModelRules = OPENAI_LEAST_REASONING
    shared_settings: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # Quirk: custom (freeform) tools are OpenAI's alone; the groq and mistralai SDKs
    # refuse a `{"type": "custom"}` call ("Input should be 'function'").
    custom_tools: bool = False

    def takes_reasoning(self, part: ReasoningPart, model: str) -> bool:
        """Whether `part` may go back in an assistant message's `reasoning_field`
        of a request to `model`."""
        return self.reasoning_field is not None and part.provider == self.provider

    @property
    def reasoning_keys(self) -> frozenset[str]:
        """The message fields reasoning is read from."""
        return frozenset() if self.reasoning_field is None else frozenset({self.reasoning_field})

    def decode_reasoning(
        self, message: Mapping[str, Any], path: str, read: WireReader
    ) -> tuple[list[ReasoningPart], frozenset[str]]:
        """The reasoning parts of an assistant message, and the fields whose
        values they give back (`encode_reasoning` writes them again)."""
        field = self.reasoning_field
        if field is None or message.get(field) is None:
            return [], frozenset()
        text = read.field(message, field, path, str)
        return [ReasoningPart(text=text, provider=self.provider)], frozenset({field})

    def encode_reasoning(self, parts: Sequence[ReasoningPart], wire: dict[str, Any]) -> None:
        """Writes the reasoning `parts` of an assistant message into `wire`."""
        if parts and self.reasoning_field is not None:
            wire[self.reasoning_field] = "".join(part.text for part in parts)

    def holds_reasoning(self, part: ReasoningPart) -> bool:
        """Whether an answer's reasoning fields can hold `part` (no redacted data
        has a place in the `reasoning_field`)."""
        return self.reasoning_field is not None and not part.redacted

    def reasoning_piece(
        self, data: ProviderData | None, text: str, signature: str | None
    ) -> dict[str, Any] | None:
        """The delta fields of a streamed piece of reasoning (its text or its
        signature) whose part has `data`; None: the `reasoning_field`'s text."""
        return None

    def reasoning_stream(self) -> ReasoningStream | None:
        """A reader of one choice's streamed reasoning; None: the `reasoning_field`'s
        text pieces."""
        return None

    def reasoning_setting(self) -> ReasoningSetting | None:
        """The request's reasoning setting in a field of the server's own; None:
        `reasoning_effort`."""
        return None

    def fit_call_id(self, tool_call_id: str, path: str, report: TranslationReport) -> str:
        """A tool-call id as this server takes it; a rewrite is reported at `path`."""
        return fitted_tool_call_id(
            tool_call_id,
            path,
            report,
            allowed=self.tool_call_id_characters,
            length=self.tool_call_id_length,
            max_length=self.tool_call_id_max_length,
        )

    def audio_media_type(self, format: str) -> str | None:
        """The media type of an `input_audio` format, None when the server takes none such."""
        return next((t for t, f in self.audio_formats.items() if f == format), None)

    def stream_usage(self, chunk: Mapping[str, Any]) -> Any:
        """The usage object a stream chunk carries, or None."""
        return chunk.get("usage")

    def stream_usage_fields(
        self, usage: dict[str, Any], fields: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The top-level chunk fields that carry an encoded stream's `usage`;
        `fields` are the response's own (the first chunk's)."""
        return {"usage": usage}

    def streams_usage(self, request: ChatRequest | None) -> bool:
        """Whether the server's stream answering `request` carries the usage: unasked
        (`usage_unasked`), or where the request asks (`stream_options.include_usage`).
        A stream written for no request in particular carries it."""
        if request is None or self.usage_unasked:
            return True
        options = request.options_for(self.provider).get("stream_options")
        return isinstance(options, Mapping) and options.get("include_usage") is True

    def check_request(self, request: ChatRequest) -> None:
        """Raises `InvalidDataError` for a request the server refuses as a whole."""

    def sent_request(self, request: ChatRequest, report: TranslationReport) -> ChatRequest:
        """`request` with what the server needs besides the history (reported)."""
        return request

    def sent_body(
        self, body: dict[str, Any], request: ChatRequest, report: TranslationReport
    ) -> dict[str, Any]:
        """`body`, encoded for `request`, as the server must be sent it (reported)."""
        return body

    def stream_fields(self, chunk: Mapping[str, Any]) -> Mapping[str, Any]:
        """A stream chunk's top-level fields as the response keeps them (Groq's
        `x_groq` without the usage it carries)."""
        return chunk

    def is_error(self, chunk: Mapping[str, Any]) -> bool:
        """Whether a stream chunk is an error, not a piece of the answer."""
        return chunk.get("error") is not None

    def decode_error(
        self, status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
    ) -> ProviderError:
        """The typed error of an error answer (`status` None inside a stream)."""
        return decode_error(status, body, provider=self.provider, headers=headers)

    def encode_error(self, error: ProviderError) -> tuple[int, dict[str, Any]]:
        """The status and body of a typed error (the body: the in-stream error chunk too)."""
        return encode_error(error, provider=self.provider)
