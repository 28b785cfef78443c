"""interlingua adapter for Mistral's chat completions API (`"mistral"`).

The six codec functions, and a gateway's two (`encode_stream`: the core's
stream events as Mistral's chunks; `encode_error`: a typed error as Mistral's
status and body), are pure and import no SDK; `MistralClient` and
`AsyncMistralClient` (the official `mistralai` SDK underneath) are imported on
first use. The codec is the one Chat Completions codec
(`interlingua_chat_completions`) bound to `MISTRAL`, Mistral's dialect: its
content chunks (thinking, documents, audio), its finish reasons, usage and
error bodies, and the rules its API enforces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_mistral._dialect import CODEC, MISTRAL
from interlingua_mistral._wire import PROVIDER

if TYPE_CHECKING:
    from interlingua_mistral._client import AsyncMistralClient, MistralClient

__all__ = [
    "MISTRAL",
    "PRICES",
    "PROVIDER",
    "AsyncMistralClient",
    "MistralClient",
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
PRICES = PriceSource("mistral", "default")

encode_request = CODEC.encode_request
decode_request = CODEC.decode_request
encode_response = CODEC.encode_response
decode_response = CODEC.decode_response
decode_stream = CODEC.decode_stream
decode_error = CODEC.decode_error
encode_stream = CODEC.encode_stream
encode_error = CODEC.encode_error
stream_encoder = CODEC.stream_encoder

_CLIENTS = frozenset({"MistralClient", "AsyncMistralClient"})

# The clients import the SDK (about a third of a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_mistral._client", _CLIENTS)
