"""interlingua adapter for Cerebras' chat completions API (`"cerebras"`).

The six codec functions, and a gateway's two (`encode_stream`, `encode_error`),
are pure and import no SDK; `CerebrasClient` and `AsyncCerebrasClient` (the
official `openai` SDK underneath, pointed at the server) are imported on first
use. The codec is the one Chat Completions codec (`interlingua_chat_completions`)
bound to `CEREBRAS`, the dialect in `_dialect`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_cerebras._dialect import CEREBRAS, CODEC
from interlingua_cerebras._wire import PROVIDER

if TYPE_CHECKING:
    from interlingua_cerebras._client import AsyncCerebrasClient, CerebrasClient

__all__ = [
    "CEREBRAS",
    "PRICES",
    "PROVIDER",
    "AsyncCerebrasClient",
    "CerebrasClient",
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
PRICES = PriceSource("cerebras", "chat")

encode_request = CODEC.encode_request
decode_request = CODEC.decode_request
encode_response = CODEC.encode_response
decode_response = CODEC.decode_response
decode_stream = CODEC.decode_stream
decode_error = CODEC.decode_error
encode_stream = CODEC.encode_stream
encode_error = CODEC.encode_error
stream_encoder = CODEC.stream_encoder

_CLIENTS = frozenset({"CerebrasClient", "AsyncCerebrasClient"})

# The clients import the openai SDK (up to a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_cerebras._client", _CLIENTS)
