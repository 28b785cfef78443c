"""Calling OpenRouter: `complete` and `stream` (and their async twins) over
the official `openai` SDK pointed at `https://openrouter.ai/api/v1`, with the
key of `OPENROUTER_API_KEY` (or `api_key=`), through `interlingua.client`.

The body sent is exactly `encode_request(request)` with `stream` set by the
method called (and `stream_options.include_usage`, so the last chunk gives
the usage and its cost); the answer is read as JSON, so the `provider` that
served it, `reasoning_details` and the costs reach the codec as OpenRouter
sent them. The `: OPENROUTER PROCESSING` comments a stream sends while it
waits are SSE comments, which the SDK's reader skips; an error inside a 200
stream goes on to the stream decoder as the chunk it was.
"""

from __future__ import annotations

from dataclasses import replace

from interlingua_chat_completions import chat_completions_endpoint
from interlingua_openai._client import (
    AsyncCompatibleClient,
    CompatibleClient,
    CompatibleServer,
    compatible_binding,
)
from interlingua_openrouter._dialect import CODEC
from interlingua_openrouter._wire import API_KEY_VARIABLE, BASE_URL, OUTPUT_LIMITS, PROVIDER

__all__ = ["AsyncOpenRouterClient", "OpenRouterClient"]

SERVER = CompatibleServer(provider=PROVIDER, base_url=BASE_URL, api_key_variable=API_KEY_VARIABLE)
CHAT_COMPLETIONS = replace(chat_completions_endpoint(CODEC), limits=OUTPUT_LIMITS)
SDK = compatible_binding(CODEC.decode_error)


class OpenRouterClient(CompatibleClient):
    """Chat calls to OpenRouter's chat completions API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER


class AsyncOpenRouterClient(AsyncCompatibleClient):
    """Chat calls to OpenRouter's chat completions API, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER
