"""Calling OpenAI: `complete` and `stream` (and their async twins) over the
official `openai` SDK, for Chat Completions here and the Responses API in
`interlingua_openai.responses`.

The SDK keeps doing what it does for its own calls: the key and base URL,
retries, timeouts, headers, its HTTP client (`httpx2`). Pass your own SDK
client, or the options to build one (`OpenAIClient(api_key=..., max_retries=0)`).

The body sent is exactly `encode_request(request)` with `stream` set by the
method called (and, for a Chat Completions stream, `stream_options:
{"include_usage": true}` unless the request sets `stream_options`). It goes
through the SDK's generic `post`, the request `chat.completions.create` makes,
which would otherwise rebuild the body from its own arguments. The answer is
read as JSON (`cast_to=object`), never as an SDK model, so the codec sees
exactly what OpenAI sent.

An error answer (`openai.APIStatusError`) raises the typed
`interlingua.ProviderError` from `decode_error`, the SDK's error chained as its
cause. `stream()` sends the request when it is called (awaited, for the async
client), so an error status or a translation error raises there, before any
event. An error inside a stream (the SDK raises `openai.APIError` for it) is
yielded as an `ErrorEvent`, so `accumulate` raises `StreamError` holding the
response as far as it arrived.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

import openai
from openai import AsyncStream, Stream

from interlingua import ChatRequest, ChatResponse, StreamEvent, TranslationReport
from interlingua_openai import _request, _response
from interlingua_openai._dialect import OPENAI
from interlingua_openai._errors import decode_error
from interlingua_openai._stream import ChatStreamDecoder

__all__ = ["AsyncOpenAIClient", "Endpoint", "OpenAIClient"]

# What the SDK's own `create` methods send: the bearer key, not the admin key.
_OPTIONS: Any = {"security": {"bearer_auth": True}}


class StreamDecoder(Protocol):
    def feed(self, chunk: Any) -> list[StreamEvent]: ...

    def finish(self) -> list[StreamEvent]: ...


@dataclass(frozen=True)
class Endpoint:
    """One OpenAI API as the clients see it: where to post, how to translate."""

    path: str
    provider: str
    encode_request: Callable[..., dict[str, Any]]
    decode_response: Callable[[Any], ChatResponse]
    decoder: Callable[[], StreamDecoder]
    # The stream payload that an SDK `APIError` raised mid-stream stands for.
    error_payload: Callable[[Any], dict[str, Any]]
    # The request a stream sends: `stream` on, and whatever else streams need.
    streamed: Callable[[ChatRequest], ChatRequest]

    def body(
        self, request: ChatRequest, report: TranslationReport | None, *, stream: bool
    ) -> dict[str, Any]:
        if stream:
            request = self.streamed(request)
        elif request.stream:
            request = request.model_copy(update={"stream": False})
        return self.encode_request(request, report=report)

    @contextmanager
    def provider_errors(self) -> Iterator[None]:
        try:
            yield
        except openai.APIStatusError as exc:
            error = decode_error(exc.status_code, _error_body(exc), provider=self.provider)
            error.request_id = exc.request_id
            raise error from exc

    def decoded(self, payloads: Stream[object]) -> Iterator[StreamEvent]:
        decoder = self.decoder()
        with payloads, self.provider_errors():
            try:
                for payload in payloads:
                    yield from decoder.feed(payload)
            except openai.APIError as exc:
                if not _in_stream_error(exc):
                    raise
                yield from decoder.feed(self.error_payload(exc.body))
        yield from decoder.finish()

    async def async_decoded(self, payloads: AsyncStream[object]) -> AsyncIterator[StreamEvent]:
        decoder = self.decoder()
        async with payloads:
            with self.provider_errors():
                try:
                    async for payload in payloads:
                        for event in decoder.feed(payload):
                            yield event
                except openai.APIError as exc:
                    if not _in_stream_error(exc):
                        raise
                    for event in decoder.feed(self.error_payload(exc.body)):
                        yield event
        for event in decoder.finish():
            yield event


def _in_stream_error(exc: openai.APIError) -> bool:
    """Whether the SDK raised for an error payload inside the stream (its plain
    `APIError`), not for a status or a broken connection."""
    return type(exc) is openai.APIError


def _error_body(exc: openai.APIStatusError) -> Any:
    """The whole error body as sent; the SDK's `body` is only its `error` member."""
    try:
        return exc.response.text
    except Exception:  # a response whose body was never read
        return exc.body


def _chat_streamed(request: ChatRequest) -> ChatRequest:
    """Streams ask for the usage chunk, unless the request sets `stream_options`."""
    options = request.options_for(OPENAI.provider)
    update: dict[str, Any] = {"stream": True}
    if "stream_options" not in options:
        settings = {**options, "stream_options": {"include_usage": True}}
        update["provider_options"] = {**request.provider_options, OPENAI.provider: settings}
    return request.model_copy(update=update)


def _chat_error_payload(body: Any) -> dict[str, Any]:
    return {"error": body if isinstance(body, dict) else {"message": str(body)}}


CHAT_COMPLETIONS = Endpoint(
    path="/chat/completions",
    provider=OPENAI.provider,
    encode_request=_request.encode_request,
    decode_response=_response.decode_response,
    decoder=ChatStreamDecoder,
    error_payload=_chat_error_payload,
    streamed=_chat_streamed,
)


class OpenAIClient:
    """Chat calls to OpenAI's Chat Completions API."""

    endpoint: Endpoint = CHAT_COMPLETIONS

    def __init__(self, client: openai.OpenAI | None = None, **options: Any) -> None:
        if client is not None and options:
            raise TypeError("pass an openai.OpenAI client or the options to build one, not both")
        self.sdk = client if client is not None else openai.OpenAI(**options)

    def complete(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> ChatResponse:
        """The whole answer to `request`."""
        body = self.endpoint.body(request, report, stream=False)
        with self.endpoint.provider_errors():
            answer = self.sdk.post(self.endpoint.path, body=body, cast_to=object, options=_OPTIONS)
        return self.endpoint.decode_response(answer)

    def stream(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> Iterator[StreamEvent]:
        """The answer to `request` as stream events; `interlingua.accumulate` joins them.

        The request is sent here: an error status raises before any event.
        """
        body = self.endpoint.body(request, report, stream=True)
        with self.endpoint.provider_errors():
            payloads = self.sdk.post(
                self.endpoint.path,
                body=body,
                cast_to=object,
                options=_OPTIONS,
                stream=True,
                stream_cls=Stream[object],
            )
        return self.endpoint.decoded(payloads)

    def close(self) -> None:
        self.sdk.close()

    def __enter__(self) -> OpenAIClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class AsyncOpenAIClient:
    """Chat calls to OpenAI's Chat Completions API, for asyncio and trio."""

    endpoint: Endpoint = CHAT_COMPLETIONS

    def __init__(self, client: openai.AsyncOpenAI | None = None, **options: Any) -> None:
        if client is not None and options:
            raise TypeError(
                "pass an openai.AsyncOpenAI client or the options to build one, not both"
            )
        self.sdk = client if client is not None else openai.AsyncOpenAI(**options)

    async def complete(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> ChatResponse:
        """The whole answer to `request`."""
        body = self.endpoint.body(request, report, stream=False)
        with self.endpoint.provider_errors():
            answer = await self.sdk.post(
                self.endpoint.path, body=body, cast_to=object, options=_OPTIONS
            )
        return self.endpoint.decode_response(answer)

    async def stream(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> AsyncIterator[StreamEvent]:
        """The answer to `request` as stream events (`events = await client.stream(...)`);
        `interlingua.accumulate_async` joins them.

        The request is sent here: an error status raises before any event.
        """
        body = self.endpoint.body(request, report, stream=True)
        with self.endpoint.provider_errors():
            payloads = await self.sdk.post(
                self.endpoint.path,
                body=body,
                cast_to=object,
                options=_OPTIONS,
                stream=True,
                stream_cls=AsyncStream[object],
            )
        return self.endpoint.async_decoded(payloads)

    async def close(self) -> None:
        await self.sdk.close()

    async def __aenter__(self) -> AsyncOpenAIClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
