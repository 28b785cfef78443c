"""OpenAI's dialect of Chat Completions, the plain one (every default is
OpenAI's), and the codec bound to it."""

from __future__ import annotations

from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_openai._wire import PROVIDER

__all__ = ["CODEC", "OPENAI"]

OPENAI = ChatCompletionsDialect(provider=PROVIDER)
CODEC = ChatCompletionsCodec(OPENAI)
