"""Calling DeepSeek's chat completions API: `complete` and `stream` (and their
async twins) over the official `openai` SDK pointed at it, through
`interlingua_openai`'s clients for OpenAI-compatible servers:
`https://api.deepseek.com` and the key in `DEEPSEEK_API_KEY`, unless given.

Pass your own `openai.OpenAI` client, or the options to build one
(`DeepSeekClient(api_key=..., max_retries=0)`): the SDK keeps its key, retries,
timeouts and HTTP client, and reads nothing of an OpenAI account's environment
for this server. The body sent is exactly `encode_request(request)` with
`stream` set by the method called (and, for a stream, `stream_options:
{"include_usage": true}` unless the request sets `stream_options`).
"""

from __future__ import annotations

from interlingua_chat_completions import chat_completions_endpoint
from interlingua_deepseek._dialect import CODEC
from interlingua_deepseek._wire import API_KEY_VARIABLE, BASE_URL, PROVIDER
from interlingua_openai._client import (
    AsyncCompatibleClient,
    CompatibleClient,
    CompatibleServer,
    compatible_binding,
)

__all__ = ["AsyncDeepSeekClient", "DeepSeekClient"]

SERVER = CompatibleServer(provider=PROVIDER, base_url=BASE_URL, api_key_variable=API_KEY_VARIABLE)
CHAT_COMPLETIONS = chat_completions_endpoint(CODEC)
SDK = compatible_binding(CODEC.decode_error)


class DeepSeekClient(CompatibleClient):
    """Chat calls to DeepSeek's chat completions API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER


class AsyncDeepSeekClient(AsyncCompatibleClient):
    """Chat calls to DeepSeek's chat completions API, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER
