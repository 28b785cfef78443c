"""Calling Gemini: `complete` and `stream` (and their async twins) over the
official `google-genai` SDK, through `interlingua.client`.

Pass your own `google.genai.Client` (a Gemini API key, or Vertex AI with a
project and location), or the options to build one (`GoogleClient(api_key=
...)`, `GoogleClient(vertexai=True, project=..., location=...)`): the SDK
keeps its key or credentials, base URL, API version, retries, timeouts and
HTTP client (httpx2, or httpx). The body sent is exactly
`encode_request(request)`, to `models/<model>:generateContent` (Vertex AI:
`projects/<p>/locations/<l>/publishers/google/models/<model>:...`), streams
to `:streamGenerateContent?alt=sse`; the answer is read as the JSON Google
sent.

Quirk: `models.generate_content` builds the body from typed arguments (it
drops what its types do not know and rewrites the rest). The SDK's own
methods send through its API client's `request` and `request_streamed`
(`client._api_client`, as every module of the SDK does), which take the
body as a dict and send it as it is, with the SDK's auth, base URL, version
and retries: the clients call those.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

import httpx
import httpx2
from google import genai
from google.genai import _transformers, errors, types

from interlingua import ChatRequest
from interlingua.client import (
    AsyncChatClient,
    ChatClient,
    Endpoint,
    SDKBinding,
    SDKOptions,
    sdk_client,
)
from interlingua.codec import wire_model
from interlingua_google._errors import decode_error
from interlingua_google._request import encode_request
from interlingua_google._response import decode_response
from interlingua_google._stream import GoogleStreamDecoder
from interlingua_google._wire import (
    API_VERSION,
    GENERATE_CONTENT,
    OUTPUT_LIMITS,
    PROVIDER,
    STREAM_GENERATE_CONTENT,
)

__all__ = ["AsyncGoogleClient", "GoogleClient"]


def _target(request: ChatRequest, stream: bool) -> str:
    """`<model>:<method>`; the transport puts the model's resource in front."""
    method = f"{STREAM_GENERATE_CONTENT}?alt=sse" if stream else GENERATE_CONTENT
    return f"{wire_model(request.model, PROVIDER)}:{method}"


def _last_chunk(payload: Any) -> bool:
    """A stream ends with the chunk that says why: a finish reason, or a prompt
    blocked before any candidate."""
    if not isinstance(payload, dict):
        return False
    candidates = payload.get("candidates")
    if isinstance(candidates, list) and candidates and isinstance(candidates[0], dict):
        return candidates[0].get("finishReason") is not None
    feedback = payload.get("promptFeedback")
    return isinstance(feedback, dict) and feedback.get("blockReason") is not None


GENERATE = Endpoint(
    provider=PROVIDER,
    path=GENERATE_CONTENT,
    encode_request=encode_request,
    decode_response=decode_response,
    stream_decoder=GoogleStreamDecoder,
    limits=OUTPUT_LIMITS,
    last_payload=_last_chunk,
    target=_target,
)


def _resource(sdk: genai.Client, path: str) -> str:
    """`models/<model>:<method>`, or Vertex AI's `publishers/google/models/...`
    (the SDK adds the project and location), as the SDK names a model."""
    model, _, method = path.partition(":")
    return f"{_transformers.t_model(sdk._api_client, model)}:{method}"


class _Chunks:
    """A stream's payloads from `request_streamed`, whose first chunk is read
    when the stream is made: that sends the request, so an error status
    raises there."""

    def __init__(self, answers: Iterator[Any]) -> None:
        self._answers = answers
        self._first = next(answers, None)

    def __iter__(self) -> Iterator[Any]:
        first, self._first = self._first, None
        if first is not None:
            yield json.loads(first.body)
        for answer in self._answers:
            yield json.loads(answer.body)

    def close(self) -> None:
        close = getattr(self._answers, "close", None)
        if close is not None:
            close()


class _AsyncChunks:
    def __init__(self, answers: Any) -> None:
        self._answers = answers

    async def __aiter__(self) -> AsyncIterator[Any]:
        async for answer in self._answers:
            yield json.loads(answer.body)

    async def close(self) -> None:
        close = getattr(self._answers, "aclose", None)
        if close is not None:
            await close()


def _http_options(headers: Mapping[str, str]) -> types.HttpOptions | None:
    """The call's options over the client's: its headers beside the client's own."""
    return types.HttpOptions(headers=dict(headers)) if headers else None


class _RawCalls:
    """`interlingua.client.SDKTransport` over the SDK's API client."""

    def send(
        self,
        sdk: genai.Client,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any:
        api, resource, options = sdk._api_client, _resource(sdk, path), _http_options(headers)
        if stream:
            return _Chunks(api.request_streamed("post", resource, body, options))
        answer = api.request("post", resource, body, options)
        return json.loads(answer.body) if answer.body else {}

    async def send_async(
        self,
        sdk: genai.Client,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any:
        api, resource, options = sdk._api_client, _resource(sdk, path), _http_options(headers)
        if stream:
            return _AsyncChunks(await api.async_request_streamed("post", resource, body, options))
        answer = await api.async_request("post", resource, body, options)
        return json.loads(answer.body) if answer.body else {}

    def close(self, sdk: genai.Client) -> None:
        sdk.close()

    async def close_async(self, sdk: genai.Client) -> None:
        await sdk.aio.aclose()


def _in_stream_payload(exc: Exception) -> Any | None:
    """The SDK raises an `{"error": ...}` chunk inside a stream as an `APIError`
    whose `details` is the chunk."""
    return exc.details if isinstance(exc, errors.APIError) else None


def _status(exc: Exception) -> int | None:
    code = getattr(exc, "code", None)
    return code if isinstance(code, int) else None


def _options(options: SDKOptions) -> dict[str, Any]:
    """`SDKOptions` as `genai.Client`'s arguments: the base URL, the timeout (in
    milliseconds) and the attempts (one more than the retries) go in its
    `http_options`, where None is the SDK's default. The API version is the
    Gemini API's `v1beta` (`API_VERSION`), whatever the SDK's default."""
    timeout = options.timeout
    retries = options.max_retries
    http = types.HttpOptions(
        base_url=options.base_url,
        api_version=API_VERSION,
        timeout=None if timeout is None else round(timeout * 1000),
        retry_options=None if retries is None else types.HttpRetryOptions(attempts=retries + 1),
    )
    given = {"api_key": options.api_key, "http_options": http}
    return {name: value for name, value in given.items() if value is not None}


SDK = SDKBinding(
    status_error=errors.APIError,
    # The SDK lets its HTTP library's errors through (after its retries, if any).
    connection_error=(httpx2.TransportError, httpx.TransportError),
    decode_error=decode_error,
    error_body=lambda exc: exc.details,
    in_stream_payload=_in_stream_payload,
    transport=_RawCalls(),
    status_code=_status,
    options=_options,
)


def _provider_name(sdk: genai.Client) -> str:
    """`gen_ai.provider.name` of a client's calls: Vertex AI's, or the Gemini API's."""
    return "gcp.vertex_ai" if sdk.vertexai else "gcp.gemini"


class GoogleClient(ChatClient):
    """Chat calls to Gemini (the Gemini API or Vertex AI)."""

    endpoint = GENERATE
    binding = SDK

    def __init__(self, client: genai.Client | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, genai.Client))

    @property
    def provider_name(self) -> str:
        return _provider_name(self.sdk)


class AsyncGoogleClient(AsyncChatClient):
    """Chat calls to Gemini, awaited (asyncio), over the client's `aio` side."""

    endpoint = GENERATE
    binding = SDK

    def __init__(self, client: genai.Client | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, genai.Client))

    @property
    def provider_name(self) -> str:
        return _provider_name(self.sdk)
