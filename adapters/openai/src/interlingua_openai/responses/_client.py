"""Calling the Responses API: `complete` and `stream` (and their async twins)
over the official `openai` SDK, as the Chat Completions clients do (see
`interlingua_openai._client`), posting to `/responses`. This module imports
the SDK; importing `interlingua_openai.responses` does not.
"""

from __future__ import annotations

from typing import Any

from interlingua.client import Endpoint
from interlingua_openai import _client
from interlingua_openai._wire import API_HEADERS
from interlingua_openai.responses._errors import decode_error
from interlingua_openai.responses._request import encode_request
from interlingua_openai.responses._response import decode_response
from interlingua_openai.responses._stream import ResponsesStreamDecoder
from interlingua_openai.responses._wire import OUTPUT_LIMITS, PROVIDER, RESPONSES_PATH

__all__ = ["AsyncOpenAIResponsesClient", "OpenAIResponsesClient"]


def _error_payload(body: Any) -> dict[str, Any]:
    """An error the SDK raised mid-stream, as the `error` event it stands for."""
    return {"type": "error", **(body if isinstance(body, dict) else {"message": str(body)})}


# A Responses stream ends with the event of the response's end, and no `[DONE]`.
_LAST_EVENTS = frozenset({"response.completed", "response.incomplete", "response.failed"})


def _last_payload(payload: Any) -> bool:
    return isinstance(payload, dict) and payload.get("type") in _LAST_EVENTS


RESPONSES = Endpoint(
    provider=PROVIDER,
    path=RESPONSES_PATH,
    encode_request=encode_request,
    decode_response=decode_response,
    stream_decoder=ResponsesStreamDecoder,
    limits=OUTPUT_LIMITS,
    api_headers=API_HEADERS,
    last_payload=_last_payload,
)
SDK = _client.sdk_binding(decode_error, _error_payload)


class OpenAIResponsesClient(_client.OpenAIClient):
    """Chat calls to OpenAI's Responses API."""

    endpoint = RESPONSES
    binding = SDK


class AsyncOpenAIResponsesClient(_client.AsyncOpenAIClient):
    """Chat calls to OpenAI's Responses API, awaited (asyncio or trio)."""

    endpoint = RESPONSES
    binding = SDK
