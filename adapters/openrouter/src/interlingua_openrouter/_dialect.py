"""OpenRouter's dialect of Chat Completions, and the codec bound to it.

What OpenRouter does its own way, each from the module that holds it: its
reasoning, the `reasoning` text beside the `reasoning_details` entries of the
model that made it, each entry a `ReasoningPart` of provider `openrouter`
that goes back in place (`_parts`); usage with its `cost` and `cost_details`
(`_usage`); error bodies with the status as their `code`, inside a 200 stream
too (`_errors`); and, as data, the `refusal: null` and `reasoning: null`
every answer's message has, tool-call ids of the upstream's own length
(Gemini's run past OpenAI's 40 characters), and a document's URL in a `file`
part's `file_data` (a `FilePart` by `url`).

Its `reasoning` request object (`effort` or `max_tokens`, `enabled`) is the
request's `ReasoningConfig`, written back in the form it came (`_settings`).
Its own request fields (`provider` routing, `models` fallbacks, `transforms`,
`preset`, the `reasoning` object's `exclude`, `usage`, `plugins`) are the
request's `provider_options["openrouter"]`, sent back to OpenRouter exactly
and left out (reported) for any other provider; the answer's `provider` (who served it)
and each choice's `native_finish_reason` are kept verbatim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from interlingua import ProviderError, ReasoningPart
from interlingua.codec import ProviderData, WireReader
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_chat_completions._stream import REASONING_INDEX
from interlingua_openrouter._errors import decode_error
from interlingua_openrouter._parts import (
    REASONING_KEYS,
    DetailsStream,
    decode_reasoning,
    encode_piece,
    encode_reasoning,
)
from interlingua_openrouter._settings import REASONING, ReasoningObject
from interlingua_openrouter._usage import OPENROUTER_USAGE
from interlingua_openrouter._wire import PROVIDER

__all__ = ["CODEC", "OPENROUTER", "OpenRouterDialect"]

# Quirk: OpenRouter passes the upstream's call ids through, whatever their length
# (Gemini's `tool_insert_level_with_spaces_3ZiChYzj8xER8HixJe7W`, 51 characters).
TOOL_CALL_ID_MAX_LENGTH = 256


@dataclass(frozen=True, eq=False)
class OpenRouterDialect(ChatCompletionsDialect):
    """Chat Completions as OpenRouter speaks it; see the module doc."""

    @property
    def reasoning_keys(self) -> frozenset[str]:
        return REASONING_KEYS

    def decode_reasoning(
        self, message: Mapping[str, Any], path: str, read: WireReader
    ) -> tuple[list[ReasoningPart], frozenset[str]]:
        return decode_reasoning(message, path, read)

    def encode_reasoning(self, parts: Sequence[ReasoningPart], wire: dict[str, Any]) -> None:
        encode_reasoning(parts, wire, self.provider)

    def holds_reasoning(self, part: ReasoningPart) -> bool:
        # An encrypted entry has its place in `reasoning_details`.
        return part.provider == self.provider or not part.redacted

    def reasoning_piece(
        self, data: ProviderData | None, text: str, signature: str | None
    ) -> dict[str, Any] | None:
        return encode_piece(data, text, signature, self.provider)

    def reasoning_setting(self) -> ReasoningObject:
        return REASONING

    def reasoning_stream(self) -> DetailsStream:
        return DetailsStream(self.provider, REASONING_INDEX)

    def decode_error(
        self, status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
    ) -> ProviderError:
        return decode_error(status, body, headers=headers)


OPENROUTER = OpenRouterDialect(
    provider=PROVIDER,
    reasoning_field="reasoning",
    tool_call_id_max_length=TOOL_CALL_ID_MAX_LENGTH,
    usage=OPENROUTER_USAGE,
    message_defaults={"refusal": None, "reasoning": None},
    # Quirk: OpenRouter's streams give the usage unasked, in the last chunk: "The usage:
    # { include: true } and stream_options: { include_usage: true } parameters are
    # deprecated and have no effect" (its Usage Accounting guide).
    usage_unasked=True,
    # Quirk: OpenRouter takes a document by URL in `file_data`: "PDFs can be sent as
    # direct URLs or base64-encoded data URLs ... via the file content type" (its PDF
    # Inputs guide).
    document_urls=True,
)
CODEC = ChatCompletionsCodec(OPENROUTER)
