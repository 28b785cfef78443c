"""interlingua adapter for Claude on Google Cloud's Vertex AI (`"anthropic-vertex"`).

Anthropic's Messages API in Vertex AI's envelope (`_envelope`): the body has
`"anthropic_version": "vertex-2023-10-16"` and no `model` (it is in the path:
`/v1/projects/{project}/locations/{location}/publishers/anthropic/models/{model}:rawPredict`,
and `:streamRawPredict` for a stream, whose body also says `"stream": true`);
the rest, streams (server-sent events) and error bodies included, is
Anthropic's codec. `AnthropicVertexClient` and `AsyncAnthropicVertexClient`
call it through the anthropic SDK's `AnthropicVertex` (`anthropic[vertex]`),
imported on first use. Gemini on Vertex AI is another adapter's: `"google"`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_anthropic._envelope import VERTEX, EnvelopeCodec
from interlingua_anthropic._envelope_stream import EnvelopeStreamEncoder, EnvelopeStreams
from interlingua_anthropic._usage import CACHE_LIFETIMES

if TYPE_CHECKING:
    from interlingua_anthropic._envelope_client import (
        AnthropicVertexClient,
        AsyncAnthropicVertexClient,
    )

__all__ = [
    "PRICES",
    "PROVIDER",
    "VERSION",
    "AnthropicVertexClient",
    "AsyncAnthropicVertexClient",
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
PRICES = PriceSource("google", "anthropic", CACHE_LIFETIMES)

PROVIDER = VERTEX.provider
VERSION = VERTEX.version

CODEC = EnvelopeCodec(VERTEX)
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

_CLIENTS = frozenset({"AnthropicVertexClient", "AsyncAnthropicVertexClient"})

# The clients import the SDK (up to a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_anthropic._envelope_client", _CLIENTS)
