"""Calling Perplexity: `complete` and `stream` (and their async twins) over
the official `openai` SDK pointed at `https://api.perplexity.ai`, with the key
of `PERPLEXITY_API_KEY` (or `api_key=`), through `interlingua.client`.

The body sent is exactly `encode_request(request)` with `stream` set by the
method called (and `stream_options.include_usage`); the answer is read as
JSON, so `citations`, `search_results` and the cost reach the codec as
Perplexity sent them.
"""

from __future__ import annotations

from interlingua_chat_completions import chat_completions_endpoint
from interlingua_openai._client import (
    AsyncCompatibleClient,
    CompatibleClient,
    CompatibleServer,
    compatible_binding,
)
from interlingua_perplexity._dialect import CODEC
from interlingua_perplexity._wire import API_KEY_VARIABLE, BASE_URL, PROVIDER

__all__ = ["AsyncPerplexityClient", "PerplexityClient"]

SERVER = CompatibleServer(provider=PROVIDER, base_url=BASE_URL, api_key_variable=API_KEY_VARIABLE)
CHAT_COMPLETIONS = chat_completions_endpoint(CODEC)
SDK = compatible_binding(CODEC.decode_error)


class PerplexityClient(CompatibleClient):
    """Chat calls to Perplexity's chat completions API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER


class AsyncPerplexityClient(AsyncCompatibleClient):
    """Chat calls to Perplexity's chat completions API, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER
