"""interlingua adapter for Perplexity's chat completions API (`"perplexity"`, Sonar).

The six codec functions, and a gateway's two (`encode_stream`, `encode_error`),
are pure and import no SDK; `PerplexityClient` and `AsyncPerplexityClient`
(the official `openai` SDK underneath, at Perplexity's address) are imported
on first use. The codec is the one Chat Completions codec
(`interlingua_chat_completions`) bound to `PERPLEXITY`, Perplexity's dialect:
its citations and search results, usage with its cost, reasoning inside
`<think>` tags, no tools, and turns that alternate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_perplexity._dialect import CODEC, PERPLEXITY
from interlingua_perplexity._usage import PRICED_DETAILS
from interlingua_perplexity._wire import PROVIDER

if TYPE_CHECKING:
    from interlingua_perplexity._client import AsyncPerplexityClient, PerplexityClient

__all__ = [
    "PERPLEXITY",
    "PRICES",
    "PROVIDER",
    "AsyncPerplexityClient",
    "PerplexityClient",
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
PRICES = PriceSource("perplexity", "default", PRICED_DETAILS)

encode_request = CODEC.encode_request
decode_request = CODEC.decode_request
encode_response = CODEC.encode_response
decode_response = CODEC.decode_response
decode_stream = CODEC.decode_stream
decode_error = CODEC.decode_error
encode_stream = CODEC.encode_stream
encode_error = CODEC.encode_error
stream_encoder = CODEC.stream_encoder

_CLIENTS = frozenset({"PerplexityClient", "AsyncPerplexityClient"})

# The clients import the SDK (a fifth of a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_perplexity._client", _CLIENTS)
