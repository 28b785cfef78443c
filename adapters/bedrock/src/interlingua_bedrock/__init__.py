"""interlingua adapter for Amazon Bedrock's Converse API (`"bedrock"`).

The module is the adapter (`interlingua.get_adapter("bedrock")` returns it):
`PROVIDER`, the codec functions, and `encode_stream` and `encode_error` for
a gateway that answers in Converse's format; none of them imports boto3
(`read_event_stream` imports botocore on first use, to read an event
stream's bytes into the events boto3 yields).
"""

from __future__ import annotations

from interlingua_bedrock._errors import decode_error, encode_error
from interlingua_bedrock._event_stream import read_event_stream
from interlingua_bedrock._request import decode_request, encode_request
from interlingua_bedrock._response import decode_response, encode_response
from interlingua_bedrock._stream import decode_stream
from interlingua_bedrock._stream_encoder import BedrockStreamEncoder, encode_stream, stream_encoder
from interlingua_bedrock._wire import PROVIDER

__all__ = [
    "PROVIDER",
    "BedrockStreamEncoder",
    "decode_error",
    "decode_request",
    "decode_response",
    "decode_stream",
    "encode_error",
    "encode_request",
    "encode_response",
    "encode_stream",
    "read_event_stream",
    "stream_encoder",
]
