"""Mistral's dialect of Chat Completions, and the codec bound to it."""

from __future__ import annotations

from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_mistral._wire import PROVIDER

__all__ = ["CODEC", "MISTRAL"]

MISTRAL = ChatCompletionsDialect(provider=PROVIDER, max_tokens_field="max_tokens")
CODEC = ChatCompletionsCodec(MISTRAL)
