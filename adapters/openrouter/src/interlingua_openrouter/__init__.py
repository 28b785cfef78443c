"""interlingua adapter for OpenRouter's chat completions API (`"openrouter"`).

The six codec functions, and a gateway's two (`encode_stream`, `encode_error`),
are pure and import no SDK; `OpenRouterClient` and `AsyncOpenRouterClient`
(the official `openai` SDK underneath, at OpenRouter's address) are imported
on first use. The codec is the one Chat Completions codec
(`interlingua_chat_completions`) bound to `OPENROUTER`, OpenRouter's dialect:
its reasoning (`reasoning` and `reasoning_details`, each entry a part that
goes back in place), usage with its costs, error bodies inside 200 streams
too, and its routing fields kept as the request's options.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_chat_completions._usage import CHAT_PRICED_DETAILS
from interlingua_openrouter._dialect import CODEC, OPENROUTER
from interlingua_openrouter._wire import PROVIDER

if TYPE_CHECKING:
    from interlingua_openrouter._client import AsyncOpenRouterClient, OpenRouterClient

__all__ = [
    "OPENROUTER",
    "PRICES",
    "PROVIDER",
    "AsyncOpenRouterClient",
    "OpenRouterClient",
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
PRICES = PriceSource("openrouter", "chat", CHAT_PRICED_DETAILS)

encode_request = CODEC.encode_request
decode_request = CODEC.decode_request
encode_response = CODEC.encode_response
decode_response = CODEC.decode_response
decode_stream = CODEC.decode_stream
decode_error = CODEC.decode_error
encode_stream = CODEC.encode_stream
encode_error = CODEC.encode_error
stream_encoder = CODEC.stream_encoder

_CLIENTS = frozenset({"OpenRouterClient", "AsyncOpenRouterClient"})

# The clients import the SDK (a fifth of a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_openrouter._client", _CLIENTS)
