"""The plain dialect of Chat Completions, for a server that adds nothing of its
own (vLLM, LM Studio, Together, Fireworks, the Hugging Face router), and the
codec bound to it.

It is OpenAI's wire with what such servers commonly lack: `max_tokens` (the
limit every one of them reads), the `user` field, no `refusal` or
`annotations` in a message. What a server adds (a reasoning field, Together's
`prompt`, a router's `time_info`) is kept as it came and sent back to the same
server, but not modelled: a server with additions of its own has a dialect of
its own.
"""

from __future__ import annotations

from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_openai_compatible._wire import PROVIDER

__all__ = ["CODEC", "OPENAI_COMPATIBLE"]

OPENAI_COMPATIBLE = ChatCompletionsDialect(
    provider=PROVIDER,
    max_tokens_field="max_tokens",
    user_field="user",
    message_defaults={},
    refusal_field=False,
)
CODEC = ChatCompletionsCodec(OPENAI_COMPATIBLE)
