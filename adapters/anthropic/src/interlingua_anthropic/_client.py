"""Calling Anthropic: `complete` and `stream` (and their async twins) over the
official `anthropic` SDK, through `interlingua.client`.

Pass your own SDK client, or the options to build one
(`AnthropicClient(api_key=..., max_retries=...)`): the SDK keeps its key, base
URL, retries, timeouts and HTTP client. The body sent is exactly
`encode_request(request)`, through the SDK's generic `post`, since
`messages.create` takes no `temperature`, `top_p` or `top_k` and rebuilds the
body from its own arguments; the answer is read as JSON, so an unknown block
reaches the codec as Anthropic sent it.
"""

from __future__ import annotations

from typing import Any

import anthropic
import httpx2

from interlingua.client import AsyncChatClient, ChatClient, Endpoint, SDKBinding, sdk_client
from interlingua_anthropic._errors import decode_error
from interlingua_anthropic._request import encode_request
from interlingua_anthropic._response import decode_response
from interlingua_anthropic._stream import AnthropicStreamDecoder
from interlingua_anthropic._wire import API_HEADERS, MESSAGES_PATH, OUTPUT_LIMITS, PROVIDER

__all__ = ["AnthropicClient", "AsyncAnthropicClient"]

MESSAGES = Endpoint(
    provider=PROVIDER,
    path=MESSAGES_PATH,
    encode_request=encode_request,
    decode_response=decode_response,
    stream_decoder=AnthropicStreamDecoder,
    limits=OUTPUT_LIMITS,
    api_headers=API_HEADERS,
    last_payload=lambda payload: (
        isinstance(payload, dict) and payload.get("type") == "message_stop"
    ),
)


def _in_stream_payload(exc: Exception) -> Any | None:
    """The SDK raises an `error` event inside a 200 stream as an `APIStatusError`."""
    if not isinstance(exc, anthropic.APIStatusError) or exc.status_code >= 400:
        return None
    if isinstance(exc.body, dict) and exc.body.get("type") == "error":
        return exc.body
    return {"type": "error", "error": {"type": None, "message": exc.message}}


SDK = SDKBinding(
    status_error=anthropic.APIStatusError,
    # The SDK's streams let the transport's errors through, unwrapped.
    connection_error=(anthropic.APIConnectionError, httpx2.TransportError),
    stream_cls=anthropic.Stream[object],
    async_stream_cls=anthropic.AsyncStream[object],
    decode_error=decode_error,
    error_body=lambda exc: exc.body,
    in_stream_payload=_in_stream_payload,
)


class AnthropicClient(ChatClient):
    """Chat calls to Anthropic's Messages API."""

    endpoint = MESSAGES
    binding = SDK

    def __init__(self, client: anthropic.Anthropic | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, anthropic.Anthropic))


class AsyncAnthropicClient(AsyncChatClient):
    """Chat calls to Anthropic's Messages API, awaited (asyncio or trio)."""

    endpoint = MESSAGES
    binding = SDK

    def __init__(self, client: anthropic.AsyncAnthropic | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, anthropic.AsyncAnthropic))
