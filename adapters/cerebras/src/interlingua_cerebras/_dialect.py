"""Cerebras' dialect of Chat Completions, and the codec bound to it.

What Cerebras does its own way: reasoning in the assistant's `reasoning` field
(`reasoning_format: "parsed"`, the default), or in `<think>` tags at the start
of its content (`"raw"`, GLM and Qwen), both a `ReasoningPart` of provider
`cerebras`; reasoning going back to a GLM or Qwen model in its `<think>` form
(`_parts`); a response's `time_info` (kept as it came); and, as data, the
`user` field, no `refusal` or `annotations` in a message, no `logprobs` in a
choice, no audio or document parts, and the usage of a stream on the chunk
that finishes it. `reasoning_effort` (`"none"` turns GLM's
reasoning off) is the request's reasoning effort, sent as it came; reasoning
turned off goes as each model takes it (`_rules`). Its error
bodies are the error object bare, and are written back so (`_errors`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import ProviderError
from interlingua_cerebras._errors import encode_error, is_error
from interlingua_cerebras._parts import CerebrasPartEncoder
from interlingua_cerebras._rules import LEAST_REASONING
from interlingua_cerebras._wire import PROVIDER
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect

__all__ = ["CEREBRAS", "CODEC", "CerebrasDialect"]


@dataclass(frozen=True, eq=False)
class CerebrasDialect(ChatCompletionsDialect):
    """Chat Completions as Cerebras speaks it; see the module doc."""

    def is_error(self, chunk: Mapping[str, Any]) -> bool:
        return is_error(chunk) or super().is_error(chunk)

    def encode_error(self, error: ProviderError) -> tuple[int, dict[str, Any]]:
        return encode_error(error)


CEREBRAS = CerebrasDialect(
    provider=PROVIDER,
    reasoning_field="reasoning",
    think_tags=True,
    part_encoder=CerebrasPartEncoder,
    user_field="user",
    message_defaults={},
    choice_defaults={},
    refusal_field=False,
    audio_formats={},
    document_parts=False,
    usage_chunk=False,
    # Quirk: Cerebras's streams give the usage and `time_info` unasked, on the chunk that
    # finishes them: its API gave both (its SDK's `ChatChunkResponse.usage`, `time_info`)
    # before it took any `stream_options`.
    usage_unasked=True,
    least_reasoning=LEAST_REASONING,
)
CODEC = ChatCompletionsCodec(CEREBRAS)
