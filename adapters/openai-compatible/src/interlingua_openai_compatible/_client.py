"""Calling an OpenAI-compatible server: `complete` and `stream` (and their async
twins) over the official `openai` SDK pointed at it, through
`interlingua_openai`'s clients for OpenAI-compatible servers: the server's
address given (`base_url=...`, or `OPENAI_COMPATIBLE_BASE_URL`) and its key
(`api_key=...`, or `OPENAI_COMPATIBLE_API_KEY`; none needed).

Pass your own `openai.OpenAI` client, or the options to build one
(`OpenAICompatibleClient(api_key=..., max_retries=0)`): the SDK keeps its key, retries,
timeouts and HTTP client, and reads nothing of an OpenAI account's environment
for this server. The body sent is exactly `encode_request(request)` with
`stream` set by the method called (and, for a stream, `stream_options:
{"include_usage": true}` unless the request sets `stream_options`).
"""

from __future__ import annotations

from dataclasses import replace

from interlingua_chat_completions import chat_completions_endpoint
from interlingua_openai._client import (
    AsyncCompatibleClient,
    CompatibleClient,
    CompatibleServer,
    compatible_binding,
    finishes_with_usage,
)
from interlingua_openai_compatible._dialect import CODEC
from interlingua_openai_compatible._wire import (
    API_KEY_VARIABLE,
    BASE_URL_VARIABLE,
    PLACEHOLDER_KEY,
    PROVIDER,
)

__all__ = ["AsyncOpenAICompatibleClient", "OpenAICompatibleClient"]

SERVER = CompatibleServer(
    provider=PROVIDER,
    base_url=None,
    api_key_variable=API_KEY_VARIABLE,
    base_url_variable=BASE_URL_VARIABLE,
    placeholder_key=PLACEHOLDER_KEY,
)


# Quirk: some servers (the Hugging Face router's Cerebras-served models) end a
# stream with the chunk that finishes it and carries its usage, with no `[DONE]`.
CHAT_COMPLETIONS = replace(chat_completions_endpoint(CODEC), last_payload=finishes_with_usage)
SDK = compatible_binding(CODEC.decode_error)


class OpenAICompatibleClient(CompatibleClient):
    """Chat calls to an OpenAI-compatible server."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER


class AsyncOpenAICompatibleClient(AsyncCompatibleClient):
    """Chat calls to an OpenAI-compatible server, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK
    server = SERVER
