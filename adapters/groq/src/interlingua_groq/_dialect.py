"""Groq's dialect of Chat Completions, and the codec bound to it."""

from __future__ import annotations

from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_groq._wire import PROVIDER

__all__ = ["CODEC", "GROQ"]

GROQ = ChatCompletionsDialect(
    provider=PROVIDER,
    reasoning_field="reasoning",
    tool_message_name=False,
    refusal_field=False,
    message_defaults={},
)
CODEC = ChatCompletionsCodec(GROQ)
