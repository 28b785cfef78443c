"""interlingua adapter for Anthropic's Messages API.

The module is the adapter (`interlingua.get_adapter("anthropic")` returns it):
`PROVIDER`, the six pure codec functions, and `encode_stream` and
`encode_error` for a gateway that answers in Anthropic's format (an
`interlingua.GatewayAdapter`); none of them imports the `anthropic` SDK.
`AnthropicClient` and `AsyncAnthropicClient` call the API through the SDK;
they are imported, and the SDK with them, on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_anthropic._errors import decode_error, encode_error
from interlingua_anthropic._request import decode_request, encode_request
from interlingua_anthropic._response import decode_response, encode_response
from interlingua_anthropic._stream import decode_stream
from interlingua_anthropic._stream_encoder import (
    AnthropicStreamEncoder,
    encode_stream,
    stream_encoder,
)
from interlingua_anthropic._usage import PRICED_DETAILS
from interlingua_anthropic._wire import DEFAULT_MAX_TOKENS, PROVIDER

if TYPE_CHECKING:
    from interlingua_anthropic._client import AnthropicClient, AsyncAnthropicClient

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "PRICES",
    "PROVIDER",
    "AnthropicClient",
    "AnthropicStreamEncoder",
    "AsyncAnthropicClient",
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
PRICES = PriceSource("anthropic", "default", PRICED_DETAILS)

_CLIENTS = frozenset({"AnthropicClient", "AsyncAnthropicClient"})


# The clients import the SDK (up to a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_anthropic._client", _CLIENTS)
