"""Calling OpenAI: `complete` and `stream` (and their async twins) over the
official `openai` SDK, through `interlingua.client`, for Chat Completions here
(the endpoint `interlingua_chat_completions` gives) and the Responses API in
`interlingua_openai.responses`.

Pass your own SDK client, or the options to build one
(`OpenAIClient(api_key=..., max_retries=0)`): the SDK keeps its key, base URL,
retries, timeouts and HTTP client. The body sent is exactly
`encode_request(request)` with `stream` set by the method called (and, for a
Chat Completions stream, `stream_options: {"include_usage": true}` unless the
request sets `stream_options`), through the SDK's generic `post`, the request
`chat.completions.create` makes without rebuilding the body from its own
arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx2
import openai

from interlingua import ProviderError
from interlingua.client import (
    AsyncChatClient,
    ChatClient,
    SDKBinding,
    sdk_client,
    stainless_binding,
)
from interlingua_chat_completions import chat_completions_endpoint, chat_error_payload
from interlingua_openai._dialect import CODEC

__all__ = [
    "AsyncOpenAIClient",
    "OpenAIClient",
    "sdk_binding",
]


def sdk_binding(
    decode_error: Callable[[int | None, Any], ProviderError],
    error_payload: Callable[[Any], Any],
) -> SDKBinding:
    """The openai SDK, for an endpoint whose errors `decode_error` types, and
    whose in-stream error event `error_payload` rebuilds from the body the SDK
    raised with."""
    return stainless_binding(
        openai,
        decode_error=decode_error,
        error_payload=error_payload,
        transport_error=httpx2.TransportError,
        # What the SDK's own `create` methods send: the bearer key, not the admin key.
        post_options={"security": {"bearer_auth": True}},
    )


CHAT_COMPLETIONS = chat_completions_endpoint(CODEC)
SDK = sdk_binding(CODEC.decode_error, chat_error_payload)


class OpenAIClient(ChatClient):
    """Chat calls to OpenAI's Chat Completions API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK

    def __init__(self, client: openai.OpenAI | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, openai.OpenAI))


class AsyncOpenAIClient(AsyncChatClient):
    """Chat calls to OpenAI's Chat Completions API, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK

    def __init__(self, client: openai.AsyncOpenAI | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, openai.AsyncOpenAI))
