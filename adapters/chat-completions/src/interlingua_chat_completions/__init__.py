"""The Chat Completions wire format, written once for every server that speaks it.

OpenAI defined it; Mistral, Groq and many others speak it with additions of
their own. This distribution holds the one codec and imports no provider SDK,
so that installing one provider's adapter brings that provider's SDK alone.

A server's adapter describes what it does its own way in a
`ChatCompletionsDialect` (data and a few hooks), binds the codec to it with
`ChatCompletionsCodec(dialect)`, and exposes that codec's six functions; its
client reads streams with the codec's `ChatStreamDecoder` and calls the
endpoint `chat_completions_endpoint(codec)` gives. For a gateway, the codec
also writes streams (`encode_stream`, `ChatStreamEncoder`) and error bodies
(`encode_error`) as the server does. `interlingua_openai` is the plainest such
adapter.
"""

from __future__ import annotations

from interlingua_chat_completions._client import (
    chat_completions_endpoint,
    chat_error_payload,
    chat_prepare,
)
from interlingua_chat_completions._codec import ChatCompletionsCodec
from interlingua_chat_completions._dialect import ChatCompletionsDialect
from interlingua_chat_completions._stream import ChatStreamDecoder
from interlingua_chat_completions._stream_encoder import ChatStreamEncoder
from interlingua_chat_completions._wire import CHAT_COMPLETIONS_PATH

__all__ = [
    "CHAT_COMPLETIONS_PATH",
    "ChatCompletionsCodec",
    "ChatCompletionsDialect",
    "ChatStreamDecoder",
    "ChatStreamEncoder",
    "chat_completions_endpoint",
    "chat_error_payload",
    "chat_prepare",
]
