"""Calling Groq: `complete` and `stream` (and their async twins) over the
official `groq` SDK, through `interlingua.client`.

Pass your own SDK client, or the options to build one
(`GroqClient(api_key=..., max_retries=0)`): the SDK keeps its key, base URL,
retries, timeouts and HTTP client. The body sent is exactly
`encode_request(request)` with `stream` set by the method called, through the
SDK's generic `post` to the path its own `chat.completions.create` posts to;
the answer is read as JSON, so `x_groq`, the usage timings and
`executed_tools` reach the codec as Groq sent them. An error event inside a
200 stream, which the SDK raises as a plain `APIError`, goes on to the stream
decoder as the `{"error": ...}` chunk it was.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import groq
import httpx

from interlingua.client import (
    AsyncChatClient,
    ChatClient,
    sdk_client,
    set_stream,
    stainless_binding,
)
from interlingua_chat_completions import chat_completions_endpoint, chat_error_payload
from interlingua_groq._dialect import CODEC
from interlingua_groq._wire import CHAT_COMPLETIONS_PATH

__all__ = ["AsyncGroqClient", "GroqClient"]


# Quirk: Groq takes no `stream_options`; usage comes unasked, in the last chunk's `x_groq.usage`.
CHAT_COMPLETIONS = replace(
    chat_completions_endpoint(CODEC), path=CHAT_COMPLETIONS_PATH, prepare=set_stream
)
SDK = stainless_binding(
    groq,
    decode_error=CODEC.decode_error,
    error_payload=chat_error_payload,
    transport_error=httpx.TransportError,  # groq's streams let it through, unwrapped
)


class GroqClient(ChatClient):
    """Chat calls to Groq's chat completions API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK

    def __init__(self, client: groq.Groq | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, groq.Groq))


class AsyncGroqClient(AsyncChatClient):
    """Chat calls to Groq's chat completions API, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK

    def __init__(self, client: groq.AsyncGroq | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, groq.AsyncGroq))
