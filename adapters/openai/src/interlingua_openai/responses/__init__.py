"""interlingua adapter for OpenAI's Responses API (`"openai-responses"`).

The six codec functions are pure and import no SDK; `OpenAIResponsesClient` and
`AsyncOpenAIResponsesClient` are imported on first use. Reasoning made here (its
`encrypted_content`, with `include=["reasoning.encrypted_content"]`) goes back
to the Responses API only; error bodies are those of the Chat Completions API.
For a gateway, `encode_stream` writes core stream events as this API streams
them, and `encode_error` an error as it answers one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_openai._wire import SERVICE_TIER
from interlingua_openai.responses._errors import decode_error, encode_error
from interlingua_openai.responses._request import decode_request, encode_request
from interlingua_openai.responses._response import decode_response, encode_response
from interlingua_openai.responses._stream import ResponsesStreamDecoder, decode_stream
from interlingua_openai.responses._stream_encoder import (
    ResponsesStreamEncoder,
    encode_stream,
    stream_encoder,
)
from interlingua_openai.responses._wire import PROVIDER

if TYPE_CHECKING:
    from interlingua_openai.responses._client import (
        AsyncOpenAIResponsesClient,
        OpenAIResponsesClient,
    )

__all__ = [
    "PRICES",
    "PROVIDER",
    "AsyncOpenAIResponsesClient",
    "OpenAIResponsesClient",
    "ResponsesStreamDecoder",
    "ResponsesStreamEncoder",
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

# How genai-prices prices this API's answers (`ChatResponse.cost()`), at their tier's price.
PRICES = PriceSource("openai", "responses", context=SERVICE_TIER)

_CLIENTS = frozenset({"OpenAIResponsesClient", "AsyncOpenAIResponsesClient"})

# The clients import the SDK (up to a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_openai.responses._client", _CLIENTS)
