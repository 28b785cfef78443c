"""interlingua adapter for Claude on Amazon Bedrock's InvokeModel (`"anthropic-bedrock"`).

Anthropic's Messages API in Bedrock's envelope (`_envelope`): the body has
`"anthropic_version": "bedrock-2023-05-31"` and no `model` and no `stream`
(the model and the streaming are in the path: `/model/{modelId}/invoke`,
`/model/{modelId}/invoke-with-response-stream`); the rest is Anthropic's codec.
A stream is read as boto3 yields it (`{"chunk": {"bytes": ...}}`), as a
frame's payload (`{"bytes": "<base64>"}`), or as the anthropic SDK's
`AnthropicBedrock` gives it (Anthropic's events), and written as frames'
payloads. `AnthropicBedrockClient` and `AsyncAnthropicBedrockClient` call it
through the anthropic SDK's `AnthropicBedrock` (`anthropic[bedrock]`), imported
on first use. Bedrock's Converse API is another adapter's: `"bedrock"`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_anthropic._envelope import BEDROCK, EnvelopeCodec
from interlingua_anthropic._envelope_stream import EnvelopeStreamEncoder, EnvelopeStreams
from interlingua_anthropic._usage import CACHE_LIFETIMES

if TYPE_CHECKING:
    from interlingua_anthropic._envelope_client import (
        AnthropicBedrockClient,
        AsyncAnthropicBedrockClient,
    )

__all__ = [
    "PRICES",
    "PROVIDER",
    "VERSION",
    "AnthropicBedrockClient",
    "AsyncAnthropicBedrockClient",
    "EnvelopeStreamEncoder",
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
PRICES = PriceSource("aws", "anthropic", CACHE_LIFETIMES)

PROVIDER = BEDROCK.provider
VERSION = BEDROCK.version

CODEC = EnvelopeCodec(BEDROCK)
STREAMS = EnvelopeStreams(CODEC)

decode_request = CODEC.decode_request
encode_request = CODEC.encode_request
decode_response = CODEC.decode_response
encode_response = CODEC.encode_response
decode_error = CODEC.decode_error
encode_error = CODEC.encode_error
decode_stream = STREAMS.decode_stream
encode_stream = STREAMS.encode_stream
stream_encoder = STREAMS.stream_encoder

_CLIENTS = frozenset({"AnthropicBedrockClient", "AsyncAnthropicBedrockClient"})

# The clients import the SDK (up to a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_anthropic._envelope_client", _CLIENTS)
