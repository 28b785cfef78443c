"""Calling Cerebras' chat completions API: `complete` and `stream` (and their async
twins) over the official `openai` SDK pointed at it, through
`interlingua_openai`'s clients for OpenAI-compatible servers:
`https://api.cerebras.ai/v1` and the key in `CEREBRAS_API_KEY`, unless given.

Pass your own `openai.OpenAI` client, or the options to build one
(`CerebrasClient(api_key=..., max_retries=0)`): the SDK keeps its key, retries,
timeouts and HTTP client, and reads nothing of an OpenAI account's environment
for this server. The body sent is exactly `encode_request(request)` with
`stream` set by the method called (and, for a stream, `stream_options:
{"include_usage": true}` unless the request sets `stream_options`).
"""

from __future__ import annotations

from dataclasses import replace

from interlingua_cerebras._dialect import CODEC
from interlingua_cerebras._wire import API_KEY_VARIABLE, BASE_URL, PROVIDER
from interlingua_chat_completions import chat_completions_endpoint
from interlingua_openai._client import (
    AsyncCompatibleClient,
    CompatibleClient,
    CompatibleServer,
    compatible_binding,
    finishes_with_usage,
)

__all__ = ["AsyncCerebrasClient", "CerebrasClient"]

SERVER = CompatibleServer(provider=PROVIDER, base_url=BASE_URL, api_key_variable=API_KEY_VARIABLE)
# Quirk: Cerebras puts a stream's usage on the chunk that finishes it, and its streams
# (as the Hugging Face router relays them) may end there, with no `[DONE]`.
CHAT_COMPLETIONS = replace(chat_completions_endpoint(CODEC), last_payload=finishes_with_usage)
SDK = compatible_binding(CODEC.decode_error)


class CerebrasClient(CompatibleClient):
    """Chat calls to Cerebras' chat completions API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER


class AsyncCerebrasClient(AsyncCompatibleClient):
    """Chat calls to Cerebras' chat completions API, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER
