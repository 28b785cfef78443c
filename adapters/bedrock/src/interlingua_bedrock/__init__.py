"""interlingua adapter for Amazon Bedrock's Converse API (`"bedrock"`).

The module is the adapter (`interlingua.get_adapter("bedrock")` returns it):
`PROVIDER`, the codec functions, and `encode_stream` and `encode_error` for
a gateway that answers in Converse's format; none of them imports boto3
(`read_event_stream` imports botocore on first use, to read an event
stream's bytes into the events boto3 yields, and `write_event_stream` AWS's
encoder, to write them back). `BedrockClient` and
`AsyncBedrockClient` (over the user's boto3 `bedrock-runtime` client) are
imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_bedrock._errors import decode_error, encode_error, error_headers
from interlingua_bedrock._event_stream import (
    can_write_event_streams,
    read_event_stream,
    write_event_stream,
)
from interlingua_bedrock._request import decode_request, encode_request
from interlingua_bedrock._response import decode_response, encode_response
from interlingua_bedrock._stream import decode_stream
from interlingua_bedrock._stream_encoder import BedrockStreamEncoder, encode_stream, stream_encoder
from interlingua_bedrock._usage import PRICED_DETAILS
from interlingua_bedrock._wire import PROVIDER

if TYPE_CHECKING:
    from interlingua_bedrock._client import AsyncBedrockClient, BedrockClient

__all__ = [
    "PRICES",
    "PROVIDER",
    "AsyncBedrockClient",
    "BedrockClient",
    "BedrockStreamEncoder",
    "can_write_event_streams",
    "decode_error",
    "decode_request",
    "decode_response",
    "decode_stream",
    "encode_error",
    "encode_request",
    "encode_response",
    "encode_stream",
    "error_headers",
    "read_event_stream",
    "stream_encoder",
    "write_event_stream",
]

# How genai-prices prices this API's answers (`ChatResponse.cost()`).
PRICES = PriceSource("aws", "default", PRICED_DETAILS)

_CLIENTS = frozenset({"BedrockClient", "AsyncBedrockClient"})

# The clients import boto3 (about a third of a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_bedrock._client", _CLIENTS)
