"""Calling the Responses API: `complete` and `stream` (and their async twins)
over the official `openai` SDK.

The same clients as for Chat Completions (see `interlingua_openai._client`),
posting to `/responses`: the body sent is exactly `encode_request(request)`
with `stream` set by the method called. This module imports the SDK;
importing `interlingua_openai.responses` does not.
"""

from __future__ import annotations

from typing import Any

from interlingua import ChatRequest
from interlingua_openai import _client
from interlingua_openai.responses import _request, _response
from interlingua_openai.responses._stream import ResponsesStreamDecoder
from interlingua_openai.responses._wire import PROVIDER

__all__ = ["AsyncOpenAIResponsesClient", "OpenAIResponsesClient"]


def _streamed(request: ChatRequest) -> ChatRequest:
    return request if request.stream else request.model_copy(update={"stream": True})


def _error_payload(body: Any) -> dict[str, Any]:
    """An error the SDK raised mid-stream, as the `error` event it stands for."""
    return {"type": "error", **(body if isinstance(body, dict) else {"message": str(body)})}


RESPONSES = _client.Endpoint(
    path="/responses",
    provider=PROVIDER,
    encode_request=_request.encode_request,
    decode_response=_response.decode_response,
    decoder=ResponsesStreamDecoder,
    error_payload=_error_payload,
    streamed=_streamed,
)


class OpenAIResponsesClient(_client.OpenAIClient):
    """Chat calls to OpenAI's Responses API."""

    endpoint = RESPONSES


class AsyncOpenAIResponsesClient(_client.AsyncOpenAIClient):
    """Chat calls to OpenAI's Responses API, for asyncio and trio."""

    endpoint = RESPONSES
