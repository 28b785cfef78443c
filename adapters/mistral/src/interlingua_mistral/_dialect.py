"""Mistral's dialect of Chat Completions, and the codec bound to it.

What Mistral does its own way, each from the module that holds it: its
content chunks (`_parts`), finish reasons (`_finish`), usage (`_usage`),
error bodies (`_errors`) and rules (`_rules`: 9-character tool-call ids, the
last message, ending system messages sent as user messages, no user message
right after a tool message, `prefix: true` on a last assistant message); and,
as data, `max_tokens`, `random_seed`, `tool_choice: "any"`, reasoning turned
off as each model takes it (`_rules`), no user id field, no
`refusal` field, no empty assistant message ("Assistant message must have
either content or tool_calls", error 3240), the `tool_calls: null` every
answer has, the `p` padding of stream chunks, the tool calls a stream sends
whole with no `index`, and the usage on a stream's finish chunk.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import ChatRequest, ProviderError, TranslationReport
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_mistral._errors import decode_error, encode_error
from interlingua_mistral._finish import FINISH_REASONS
from interlingua_mistral._parts import MistralPartDecoder, MistralPartEncoder
from interlingua_mistral._rules import (
    LEAST_REASONING,
    PREFILL_FIELD,
    TOOL_CALL_ID_CHARACTERS,
    TOOL_CALL_ID_LENGTH,
    TOOL_USER_BRIDGE,
    check_last_message,
    system_ending_as_user,
)
from interlingua_mistral._usage import MISTRAL_USAGE
from interlingua_mistral._wire import PROVIDER

__all__ = ["CODEC", "MISTRAL", "MistralDialect"]


@dataclass(frozen=True, eq=False)
class MistralDialect(ChatCompletionsDialect):
    """Chat Completions as Mistral speaks it; see the module doc."""

    def sent_request(self, request: ChatRequest, report: TranslationReport) -> ChatRequest:
        return system_ending_as_user(request, report)

    def check_request(self, request: ChatRequest) -> None:
        check_last_message(request.messages)

    def is_error(self, chunk: Mapping[str, Any]) -> bool:
        return chunk.get("object") == "error" or super().is_error(chunk)

    def decode_error(
        self, status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
    ) -> ProviderError:
        return decode_error(status, body, headers=headers)

    def encode_error(self, error: ProviderError) -> tuple[int, dict[str, Any]]:
        return encode_error(error)


MISTRAL = MistralDialect(
    provider=PROVIDER,
    tool_call_id_characters=TOOL_CALL_ID_CHARACTERS,
    tool_call_id_max_length=TOOL_CALL_ID_LENGTH,
    tool_call_id_length=TOOL_CALL_ID_LENGTH,
    max_tokens_field="max_tokens",
    max_stop_sequences=None,
    message_defaults={"tool_calls": None},
    choice_defaults={},
    finish_reasons=FINISH_REASONS,
    usage=MISTRAL_USAGE,
    seed_field="random_seed",
    required_tool_choice=("any", "required"),
    user_field=None,
    tool_user_bridge=TOOL_USER_BRIDGE,
    prefill_field=PREFILL_FIELD,
    stream_noise=frozenset({"p"}),
    numbered_calls=True,
    # Quirk: Mistral streams each tool call whole, in one chunk, with no `index` or
    # `type` ("tool_calls": [{"id": "gSIMJiOkT", "function": {"name", "arguments"}}]).
    whole_calls=True,
    usage_chunk=False,
    # Quirk: Mistral's streams give the usage unasked, on the chunk that finishes them
    # (it takes no `stream_options`; fixtures/mistral/stream_tool_call.json).
    usage_unasked=True,
    refusal_field=False,
    empty_assistant=False,
    part_decoder=MistralPartDecoder,
    part_encoder=MistralPartEncoder,
    least_reasoning=LEAST_REASONING,
)
CODEC = ChatCompletionsCodec(MISTRAL)
