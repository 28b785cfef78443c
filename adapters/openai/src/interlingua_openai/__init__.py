"""interlingua adapter for OpenAI's Chat Completions API (`"openai"`).

The six codec functions are pure and import no SDK; `OpenAIClient` and
`AsyncOpenAIClient` (the official `openai` SDK underneath) are imported on first
use. The codec is written once as a `ChatCompletionsDialect`, which other
Chat Completions servers (Groq) configure; the functions here are bound to
OpenAI's. `with_alternatives` puts the other choices of an `n > 1` stream in the
accumulated response's `alternatives`. The Responses API is `interlingua_openai.responses`
(`"openai-responses"`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interlingua.client import lazy_attributes
from interlingua_openai._dialect import OPENAI, ChatCompletionsDialect
from interlingua_openai._errors import decode_error as _decode_error
from interlingua_openai._request import decode_request, encode_request
from interlingua_openai._response import decode_response, encode_response
from interlingua_openai._stream import ChatStreamDecoder, decode_stream

if TYPE_CHECKING:
    from interlingua import ProviderError
    from interlingua_openai._client import AsyncOpenAIClient, OpenAIClient

PROVIDER = OPENAI.provider

__all__ = [
    "OPENAI",
    "PROVIDER",
    "AsyncOpenAIClient",
    "ChatCompletionsDialect",
    "ChatStreamDecoder",
    "OpenAIClient",
    "decode_error",
    "decode_request",
    "decode_response",
    "decode_stream",
    "encode_request",
    "encode_response",
]

_CLIENTS = frozenset({"OpenAIClient", "AsyncOpenAIClient"})


def decode_error(status: int | None, body: Any) -> ProviderError:
    """The typed error for an OpenAI error answer (status and body)."""
    return _decode_error(status, body, provider=PROVIDER)


# The clients import the SDK (up to a second): only on first use.
__getattr__, __dir__ = lazy_attributes(__name__, "interlingua_openai._client", _CLIENTS)
