"""interlingua adapter for Groq's chat completions API (`"groq"`).

The six codec functions, and a gateway's two (`encode_stream`: the core's
stream events as Groq's chunks; `encode_error`: a typed error as Groq's status
and body), are pure and import no SDK; `GroqClient` and `AsyncGroqClient` (the
official `groq` SDK underneath) are imported on first use. The codec is the
one Chat Completions codec (`interlingua_chat_completions`) bound to `GROQ`,
Groq's dialect: its reasoning (the `reasoning` field, or `<think>` in the
content), usage with its timings and `x_groq`, error bodies, and the fields its
API refuses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_chat_completions._usage import CHAT_PRICED_DETAILS
from interlingua_groq._dialect import CODEC, GROQ
from interlingua_groq._wire import PROVIDER

if TYPE_CHECKING:
    from interlingua_groq._client import AsyncGroqClient, GroqClient

__all__ = [
    "GROQ",
    "PRICES",
    "PROVIDER",
    "AsyncGroqClient",
    "GroqClient",
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
PRICES = PriceSource("groq", "default", CHAT_PRICED_DETAILS)

encode_request = CODEC.encode_request
decode_request = CODEC.decode_request
encode_response = CODEC.encode_response
decode_response = CODEC.decode_response
decode_stream = CODEC.decode_stream
decode_error = CODEC.decode_error
encode_stream = CODEC.encode_stream
encode_error = CODEC.encode_error
stream_encoder = CODEC.stream_encoder

_CLIENTS = frozenset({"GroqClient", "AsyncGroqClient"})

# The clients import the SDK (a fifth of a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_groq._client", _CLIENTS)
