"""interlingua adapter for xAI's chat completions API (`"xai"`, Grok).

The six codec functions, and a gateway's two (`encode_stream`, `encode_error`),
are pure and import no SDK; `XAIClient` and `AsyncXAIClient` (the official
`openai` SDK underneath, at xAI's address) are imported on first use. The
codec is the one Chat Completions codec (`interlingua_chat_completions`)
bound to `XAI`, xAI's dialect: its `reasoning_content`, usage with Live
Search's sources, and its error bodies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_xai._dialect import CODEC, XAI
from interlingua_xai._wire import PROVIDER

if TYPE_CHECKING:
    from interlingua_xai._client import AsyncXAIClient, XAIClient

__all__ = [
    "PRICES",
    "PROVIDER",
    "XAI",
    "AsyncXAIClient",
    "XAIClient",
    "decode_error",
    "decode_request",
    "decode_response",
    "decode_stream",
    "encode_error",
    "encode_request",
    "encode_response",
    "encode_stream",
    "stream_encoder",
]

# How genai-prices prices this API's answers (`ChatResponse.cost()`).
PRICES = PriceSource("x-ai", "chat")

encode_request = CODEC.encode_request
decode_request = CODEC.decode_request
encode_response = CODEC.encode_response
decode_response = CODEC.decode_response
decode_stream = CODEC.decode_stream
decode_error = CODEC.decode_error
encode_stream = CODEC.encode_stream
encode_error = CODEC.encode_error
stream_encoder = CODEC.stream_encoder

_CLIENTS = frozenset({"XAIClient", "AsyncXAIClient"})

# The clients import the SDK (a fifth of a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_xai._client", _CLIENTS)
