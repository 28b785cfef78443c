"""Calling Ollama's OpenAI-compatible API: `complete` and `stream` (and their async
twins) over the official `openai` SDK pointed at it, through
`interlingua_openai`'s clients for OpenAI-compatible servers: a local server,
`http://localhost:11434/v1`, unless given (Ollama's cloud:
`base_url="https://ollama.com/v1"` and the key in `OLLAMA_API_KEY`).

Pass your own `openai.OpenAI` client, or the options to build one
(`OllamaClient(api_key=..., max_retries=0)`): the SDK keeps its key, retries,
timeouts and HTTP client, and reads nothing of an OpenAI account's environment
for this server. The body sent is exactly `encode_request(request)` with
`stream` set by the method called (and, for a stream, `stream_options:
{"include_usage": true}` unless the request sets `stream_options`).
"""

from __future__ import annotations

from interlingua_chat_completions import chat_completions_endpoint
from interlingua_ollama._dialect import CODEC
from interlingua_ollama._wire import API_KEY_VARIABLE, BASE_URL, PLACEHOLDER_KEY, PROVIDER
from interlingua_openai._client import (
    AsyncCompatibleClient,
    CompatibleClient,
    CompatibleServer,
    compatible_binding,
)

__all__ = ["AsyncOllamaClient", "OllamaClient"]

SERVER = CompatibleServer(
    provider=PROVIDER,
    base_url=BASE_URL,
    api_key_variable=API_KEY_VARIABLE,
    placeholder_key=PLACEHOLDER_KEY,
)
CHAT_COMPLETIONS = chat_completions_endpoint(CODEC)
SDK = compatible_binding(CODEC.decode_error)


class OllamaClient(CompatibleClient):
    """Chat calls to Ollama's OpenAI-compatible API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER


class AsyncOllamaClient(AsyncCompatibleClient):
    """Chat calls to Ollama's OpenAI-compatible API, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER
