"""Calling xAI: `complete` and `stream` (and their async twins) over the
official `openai` SDK pointed at `https://api.x.ai/v1`, with the key of
`XAI_API_KEY` (or `api_key=`), through `interlingua.client`.

The body sent is exactly `encode_request(request)` with `stream` set by the
method called (and `stream_options.include_usage`, so the last chunk gives
the usage); the answer is read as JSON, so `reasoning_content` and the usage
counts reach the codec as xAI sent them.
"""

from __future__ import annotations

from interlingua_chat_completions import chat_completions_endpoint
from interlingua_openai._client import (
    AsyncCompatibleClient,
    CompatibleClient,
    CompatibleServer,
    compatible_binding,
)
from interlingua_xai._dialect import CODEC
from interlingua_xai._wire import API_KEY_VARIABLE, BASE_URL, PROVIDER

__all__ = ["AsyncXAIClient", "XAIClient"]

SERVER = CompatibleServer(provider=PROVIDER, base_url=BASE_URL, api_key_variable=API_KEY_VARIABLE)
CHAT_COMPLETIONS = chat_completions_endpoint(CODEC)
SDK = compatible_binding(CODEC.decode_error)


class XAIClient(CompatibleClient):
    """Chat calls to xAI's chat completions API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER


class AsyncXAIClient(AsyncCompatibleClient):
    """Chat calls to xAI's chat completions API, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER
