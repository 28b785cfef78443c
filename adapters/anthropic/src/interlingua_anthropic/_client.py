"""Calling Anthropic: `complete` and `stream` (and their async twins) over the
official `anthropic` SDK.

The SDK keeps doing what it does for its own calls: the key and base URL,
retries, timeouts, headers, its HTTP client. Pass your own SDK client, or the
options to build one (`AnthropicClient(api_key=..., max_retries=...)`).

The body sent is exactly `encode_request(request)` with `stream` set by the
method called. It goes through the SDK's generic `post` (the same request
`messages.create` makes), since `messages.create` takes no `temperature`,
`top_p` or `top_k` and rebuilds the body from its own arguments. The answer is
read as JSON (`cast_to=object`), never as an SDK model, so an unknown block
reaches the codec as Anthropic sent it.

An error answer (`anthropic.APIStatusError`) raises the typed
`interlingua.ProviderError` from `decode_error`, the SDK's error chained as its
cause. `stream()` sends the request when it is called (awaited, for the async
client, as the SDK's own `messages.create(stream=True)` is), so an error status
or a translation error raises there, before any event. An error event inside
a stream is yielded as an `ErrorEvent`, so `accumulate` raises `StreamError`
holding the response as far as it arrived.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

import anthropic
from anthropic import AsyncStream, Stream

from interlingua import ChatRequest, ChatResponse, StreamEvent, TranslationReport
from interlingua_anthropic._errors import decode_error
from interlingua_anthropic._request import encode_request
from interlingua_anthropic._response import decode_response
from interlingua_anthropic._stream import StreamDecoder
from interlingua_anthropic._wire import MESSAGES_PATH

__all__ = ["AnthropicClient", "AsyncAnthropicClient"]


class AnthropicClient:
    """Chat calls to Anthropic's Messages API."""

    def __init__(self, client: anthropic.Anthropic | None = None, **options: Any) -> None:
        if client is not None and options:
            raise TypeError(
                "pass an anthropic.Anthropic client or the options to build one, not both"
            )
        self.sdk = client if client is not None else anthropic.Anthropic(**options)

    def complete(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> ChatResponse:
        """The whole answer to `request`."""
        body = encode_request(_streamed(request, False), report=report)
        with _provider_errors():
            answer = self.sdk.post(MESSAGES_PATH, body=body, cast_to=object)
        return decode_response(answer)

    def stream(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> Iterator[StreamEvent]:
        """The answer to `request` as stream events; `interlingua.accumulate` joins them.

        The request is sent here: an error status raises before any event.
        """
        body = encode_request(_streamed(request, True), report=report)
        with _provider_errors():
            events = self.sdk.post(
                MESSAGES_PATH, body=body, cast_to=object, stream=True, stream_cls=Stream[object]
            )
        return _decoded(events)

    def close(self) -> None:
        self.sdk.close()

    def __enter__(self) -> AnthropicClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class AsyncAnthropicClient:
    """Chat calls to Anthropic's Messages API, awaited."""

    def __init__(self, client: anthropic.AsyncAnthropic | None = None, **options: Any) -> None:
        if client is not None and options:
            raise TypeError(
                "pass an anthropic.AsyncAnthropic client or the options to build one, not both"
            )
        self.sdk = client if client is not None else anthropic.AsyncAnthropic(**options)

    async def complete(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> ChatResponse:
        """The whole answer to `request`."""
        body = encode_request(_streamed(request, False), report=report)
        with _provider_errors():
            answer = await self.sdk.post(MESSAGES_PATH, body=body, cast_to=object)
        return decode_response(answer)

    async def stream(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> AsyncIterator[StreamEvent]:
        """The answer to `request` as stream events (`events = await client.stream(...)`);
        `interlingua.accumulate_async` joins them.

        The request is sent here: an error status raises before any event.
        """
        body = encode_request(_streamed(request, True), report=report)
        with _provider_errors():
            events = await self.sdk.post(
                MESSAGES_PATH,
                body=body,
                cast_to=object,
                stream=True,
                stream_cls=AsyncStream[object],
            )
        return _async_decoded(events)

    async def close(self) -> None:
        await self.sdk.close()

    async def __aenter__(self) -> AsyncAnthropicClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


def _streamed(request: ChatRequest, stream: bool) -> ChatRequest:
    return request if request.stream is stream else request.model_copy(update={"stream": stream})


def _decoded(events: Stream[object]) -> Iterator[StreamEvent]:
    decoder = StreamDecoder()
    with events:
        for payload in _payloads(iter(events)):
            yield from decoder.feed(payload)
    yield from decoder.finish()


async def _async_decoded(events: AsyncStream[object]) -> AsyncIterator[StreamEvent]:
    decoder = StreamDecoder()
    async with events:
        async for payload in _async_payloads(events.__aiter__()):
            for event in decoder.feed(payload):
                yield event
    for event in decoder.finish():
        yield event


@contextmanager
def _provider_errors() -> Iterator[None]:
    try:
        yield
    except anthropic.APIStatusError as exc:
        raise decode_error(exc.status_code, exc.body) from exc


def _payloads(events: Iterator[object]) -> Iterator[object]:
    """The stream's payloads; the SDK raises an in-stream error event, which goes on
    as the payload it was."""
    while True:
        try:
            payload = next(events)
        except StopIteration:
            return
        except anthropic.APIStatusError as exc:
            yield _error_payload(exc)
            return
        yield payload


async def _async_payloads(events: AsyncIterator[object]) -> AsyncIterator[object]:
    while True:
        try:
            payload = await events.__anext__()
        except StopAsyncIteration:
            return
        except anthropic.APIStatusError as exc:
            yield _error_payload(exc)
            return
        yield payload


def _error_payload(exc: anthropic.APIStatusError) -> object:
    if exc.status_code >= 400:
        raise decode_error(exc.status_code, exc.body) from exc
    if isinstance(exc.body, dict) and exc.body.get("type") == "error":
        return exc.body
    return {"type": "error", "error": {"type": None, "message": exc.message}}
