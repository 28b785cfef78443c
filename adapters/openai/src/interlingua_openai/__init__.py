"""interlingua adapter for OpenAI's Chat Completions API (`"openai"`).

The six codec functions are pure and import no SDK; `OpenAIClient` and
`AsyncOpenAIClient` (the official `openai` SDK underneath) are imported on first
use. The codec is written once: a `ChatCompletionsDialect` holds what one
server does its own way (Groq configures its own), and `ChatCompletionsCodec`
binds the codec to it; the functions here are `OPENAI`'s. The Responses API is
`interlingua_openai.responses` (`"openai-responses"`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua.client import lazy_attributes
from interlingua_openai._codec import OPENAI_CODEC, ChatCompletionsCodec
from interlingua_openai._dialect import OPENAI, ChatCompletionsDialect
from interlingua_openai._stream import ChatStreamDecoder

if TYPE_CHECKING:
    from interlingua_openai._client import AsyncOpenAIClient, OpenAIClient

__all__ = [
    "OPENAI",
    "PROVIDER",
    "AsyncOpenAIClient",
    "ChatCompletionsCodec",
    "ChatCompletionsDialect",
    "ChatStreamDecoder",
    "OpenAIClient",
    "decode_error",
    "decode_request",
    "decode_response",
    "decode_stream",
    "encode_request",
    "encode_response",
]

PROVIDER = OPENAI_CODEC.PROVIDER
encode_request = OPENAI_CODEC.encode_request
decode_request = OPENAI_CODEC.decode_request
encode_response = OPENAI_CODEC.encode_response
decode_response = OPENAI_CODEC.decode_response
decode_stream = OPENAI_CODEC.decode_stream
decode_error = OPENAI_CODEC.decode_error

_CLIENTS = frozenset({"OpenAIClient", "AsyncOpenAIClient"})

# The clients import the SDK (up to a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_openai._client", _CLIENTS)
