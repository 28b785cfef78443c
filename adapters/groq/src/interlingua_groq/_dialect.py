"""Groq's dialect of Chat Completions, and the codec bound to it.

What Groq does its own way: reasoning in the assistant's `reasoning` field
(`reasoning_format: "parsed"`, streamed as `delta.reasoning`) or inside
`<think>` tags at the start of its content (`"raw"`), both a `ReasoningPart`
of provider `groq`; usage with its timings (`_usage`), in a stream in the
last chunk's `x_groq.usage` (beside the `x_groq.id` of its first); error
bodies with `failed_generation` (`_errors`); finish reasons without
`content_filter` (`_finish`); and the fields it refuses (`_rules`): no
`refusal`, no `stream_options`, no documents or audio in a user message,
reasoning back only to a model that takes it; reasoning turned off as each
model takes it (`none` for qwen3, the least `low` for gpt-oss). A tool
message's `name` goes back as it came, as for any Chat Completions server
(`_rules` says why no other is sent).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import ChatRequest, ProviderError, ReasoningPart
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_groq._errors import decode_error, encode_error
from interlingua_groq._finish import FINISH_REASONS
from interlingua_groq._rules import (
    LEAST_REASONING,
    check_reasoning_settings,
    takes_reasoning_field,
)
from interlingua_groq._usage import GROQ_USAGE
from interlingua_groq._wire import PROVIDER

__all__ = ["CODEC", "GROQ", "GroqDialect"]


@dataclass(frozen=True, eq=False)
class GroqDialect(ChatCompletionsDialect):
    """Chat Completions as Groq speaks it; see the module doc."""

    def takes_reasoning(self, part: ReasoningPart, model: str) -> bool:
        return (
            super().takes_reasoning(part, model)
            and bool(part.text)
            and takes_reasoning_field(model)
        )

    def check_request(self, request: ChatRequest) -> None:
        check_reasoning_settings(request)

    def stream_usage(self, chunk: Mapping[str, Any]) -> Any:
        x_groq = chunk.get("x_groq")
        if isinstance(x_groq, dict) and x_groq.get("usage") is not None:
            return x_groq["usage"]
        return super().stream_usage(chunk)

    def stream_fields(self, chunk: Mapping[str, Any]) -> Mapping[str, Any]:
        x_groq = chunk.get("x_groq")
        if not (isinstance(x_groq, dict) and "usage" in x_groq):
            return chunk
        fields = {k: v for k, v in chunk.items() if k != "x_groq"}
        # An `x_groq` of the usage alone says nothing more of the response.
        if rest := {k: v for k, v in x_groq.items() if k != "usage"}:
            fields["x_groq"] = rest
        return fields

    def stream_usage_fields(
        self, usage: dict[str, Any], fields: Mapping[str, Any]
    ) -> dict[str, Any]:
        x_groq = fields.get("x_groq")
        return {"x_groq": {**(x_groq if isinstance(x_groq, dict) else {}), "usage": usage}}

    def decode_error(
        self, status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
    ) -> ProviderError:
        return decode_error(status, body, headers=headers)

    def encode_error(self, error: ProviderError) -> tuple[int, dict[str, Any]]:
        return encode_error(error)


GROQ = GroqDialect(
    provider=PROVIDER,
    reasoning_field="reasoning",
    refusal_field=False,
    audio_formats={},
    document_parts=False,
    finish_reasons=FINISH_REASONS,
    think_tags=True,
    message_defaults={},
    usage=GROQ_USAGE,
    user_field="user",
    usage_chunk=False,
    # Quirk: Groq's streams give the usage unasked, in the last chunk's `x_groq.usage`
    # (it takes no `stream_options`; fixtures/groq/stream_reasoning_usage.json).
    usage_unasked=True,
    least_reasoning=LEAST_REASONING,
)
CODEC = ChatCompletionsCodec(GROQ)
