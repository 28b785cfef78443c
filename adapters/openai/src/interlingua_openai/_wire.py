"""OpenAI's Chat Completions: its name and its dialect.

The wire format is the one Chat Completions codec's
(`interlingua_chat_completions`), whose defaults are OpenAI's; this module
names the provider and binds the codec to it. What the codec keeps lives in
`provider_data["openai"]`, as that package's `_wire.py` lays out.
"""

from __future__ import annotations

from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect

__all__ = ["CODEC", "OPENAI", "PROVIDER"]

PROVIDER = "openai"
OPENAI = ChatCompletionsDialect(provider=PROVIDER)
CODEC = ChatCompletionsCodec(OPENAI)
