"""interlingua adapter for OpenAI's Chat Completions API (`"openai"`).

The six codec functions, and a gateway's two (`encode_stream`: the core's
stream events as OpenAI's chunks; `encode_error`: a typed error as OpenAI's
status and body), are pure and import no SDK; `OpenAIClient` and
`AsyncOpenAIClient` (the official `openai` SDK underneath) are imported on first
use. The codec is the one Chat Completions codec (`interlingua_chat_completions`)
bound to `OPENAI`, OpenAI's dialect. The Responses API is
`interlingua_openai.responses` (`"openai-responses"`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua import PriceSource
from interlingua.client import lazy_attributes
from interlingua_chat_completions._usage import CHAT_PRICED_DETAILS
from interlingua_openai._dialect import CODEC, OPENAI
from interlingua_openai._wire import PROVIDER, SERVICE_TIER

if TYPE_CHECKING:
    from interlingua_openai._client import AsyncOpenAIClient, OpenAIClient

__all__ = [
    "OPENAI",
    "PRICES",
    "PROVIDER",
    "AsyncOpenAIClient",
    "OpenAIClient",
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

# How genai-prices prices this API's answers (`ChatResponse.cost()`): at the
# price of the tier the answer says served it (`service_tier`: flex, priority).
PRICES = PriceSource("openai", "chat", CHAT_PRICED_DETAILS, SERVICE_TIER)

encode_request = CODEC.encode_request
decode_request = CODEC.decode_request
encode_response = CODEC.encode_response
decode_response = CODEC.decode_response
decode_stream = CODEC.decode_stream
decode_error = CODEC.decode_error
encode_stream = CODEC.encode_stream
encode_error = CODEC.encode_error
stream_encoder = CODEC.stream_encoder

_CLIENTS = frozenset({"OpenAIClient", "AsyncOpenAIClient"})

# The clients import the SDK (up to a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_openai._client", _CLIENTS)
