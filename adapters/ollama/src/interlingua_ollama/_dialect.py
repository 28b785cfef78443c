"""Ollama's dialect of Chat Completions (its OpenAI-compatible `/v1`
endpoint), and the codec bound to it.

What Ollama does its own way: reasoning (gpt-oss, qwen3 and other thinking
models) in the assistant's `reasoning` field, streamed as `delta.reasoning`, a
`ReasoningPart` of provider `ollama` that goes back in the same field, as the
recorded tool loop sends it; and, as data, `max_tokens`, no user id field, no
`refusal` or `annotations` in a message, no `logprobs` in a choice, no audio
or document parts.
"""

from __future__ import annotations

from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_ollama._wire import PROVIDER

__all__ = ["CODEC", "OLLAMA"]

OLLAMA = ChatCompletionsDialect(
    provider=PROVIDER,
    reasoning_field="reasoning",
    max_tokens_field="max_tokens",
    user_field=None,
    message_defaults={},
    choice_defaults={},
    refusal_field=False,
    audio_formats={},
    document_parts=False,
)
CODEC = ChatCompletionsCodec(OLLAMA)
