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

import openai

from interlingua import ProviderError
from interlingua.client import AsyncChatClient, ChatClient, SDKBinding, sdk_client
from interlingua_chat_completions import chat_completions_endpoint, chat_error_payload
from interlingua_openai._dialect import CODEC

__all__ = [
    "AsyncOpenAIClient",
    "OpenAIClient",
    "sdk_binding",
]


def _error_body(exc: openai.APIStatusError) -> Any:
    """The whole error body as sent; the SDK's `body` is only its `error` member."""
    try:
        return exc.response.text
    except Exception:  # a response whose body was never read
        return exc.body


def sdk_binding(
    decode_error: Callable[[int | None, Any], ProviderError],
    error_payload: Callable[[Any], Any],
) -> SDKBinding:
    """The openai SDK, for an endpoint whose errors `decode_error` types, and
    whose in-stream error event `error_payload` rebuilds from the body the SDK
    raised with."""

    def in_stream_payload(exc: Exception) -> Any | None:
        # The SDK raises an error payload inside the stream as a plain `APIError`.
        if type(exc) is not openai.APIError:
            return None
        return error_payload(exc.body)

    return SDKBinding(
        status_error=openai.APIStatusError,
        connection_error=openai.APIConnectionError,
        stream_cls=openai.Stream[object],
        async_stream_cls=openai.AsyncStream[object],
        decode_error=decode_error,
        error_body=_error_body,
        in_stream_payload=in_stream_payload,
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
