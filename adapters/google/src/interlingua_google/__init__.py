"""interlingua adapter for Google's Gemini API and Vertex AI (`generateContent`).

The module is the adapter (`interlingua.get_adapter("google")` returns it):
`PROVIDER`, the six pure codec functions, and `encode_stream` (and
`stream_encoder`, fed one event at a time) and `encode_error` for a gateway
that answers in Gemini's format (an `interlingua.GatewayAdapter`); none of
them imports the `google-genai` SDK.
`GoogleClient` and `AsyncGoogleClient` call the API through the SDK; they
are imported, and the SDK with them, on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_google._errors import decode_error, encode_error
from interlingua_google._request import decode_request, encode_request
from interlingua_google._response import decode_response, encode_response
from interlingua_google._stream import decode_stream
from interlingua_google._stream_encoder import GoogleStreamEncoder, encode_stream, stream_encoder
from interlingua_google._usage import PRICED_DETAILS
from interlingua_google._wire import PROVIDER

if TYPE_CHECKING:
    from interlingua_google._client import AsyncGoogleClient, GoogleClient

__all__ = [
    "PRICES",
    "PROVIDER",
    "AsyncGoogleClient",
    "GoogleClient",
    "GoogleStreamEncoder",
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
PRICES = PriceSource("google", "default", PRICED_DETAILS)

_CLIENTS = frozenset({"AsyncGoogleClient", "GoogleClient"})


# The clients import the SDK (up to a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_google._client", _CLIENTS)
