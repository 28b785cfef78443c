"""Clients over a provider's official SDK, written once for every adapter.

An adapter describes its API as an `Endpoint` (where to post, its codec) and
its SDK as an `SDKBinding` (the SDK's stream classes and errors); `ChatClient`
and `AsyncChatClient` do the rest. The SDK keeps doing what it does for its
own calls: the key and base URL, retries, timeouts, headers, its HTTP client.

- The body sent is exactly the endpoint's `encode_request(request)`, with
  `stream` set by the method called. It goes through the SDK's generic `post`
  (the request its own `create` makes, without rebuilding the body from typed
  arguments), or, for an SDK that has none (mistralai), its binding's
  `SDKTransport`; the answer is read as JSON, never as an SDK model, so the
  codec sees exactly what the provider sent. `SSEStream` reads a stream's
  payloads from the raw HTTP response, for a transport whose SDK would
  rebuild them.
- An error status raises the adapter's typed `ProviderError` and a network
  failure `ProviderConnectionError`, the SDK's exception chained as the cause.
- `stream()` sends the request when called (awaited, for the async client), so
  an error status raises there. An error inside the stream is decoded as the
  event it was, so `accumulate` raises `StreamError` keeping what arrived; so
  does a stream cut off before its end (`interlingua._event_stream.StreamEnd`).
  The `EventStream` closes the HTTP response when it ends, is closed, or is dropped.
- A typed error has the request id, retry-after and rate limits of the
  answer's headers, and the key the request carried masked wherever the
  answer echoed it (`interlingua._sdk_errors`).

This module imports no SDK: the adapter's client module does, and hands the
SDK's classes over in its `SDKBinding` (openai's and groq's: `stainless_binding`).
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType, TracebackType
from typing import Any, ClassVar, Protocol

from typing_extensions import Self

from interlingua import _sdk_errors
from interlingua._errors import DecodeError, ProviderConnectionError, ProviderError
from interlingua._event_stream import AsyncEventStream, EventStream, StreamEnd
from interlingua._report import TranslationReport
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua._sdk_options import SDKOptions, stainless_options
from interlingua._sse import AsyncSSEStream, SSEStream
from interlingua._stream import StreamEvent
from interlingua.codec import StreamDecoder, decode_events, depth_checked

__all__ = [
    "AsyncChatClient",
    "AsyncEventStream",
    "AsyncSSEStream",
    "ChatClient",
    "Endpoint",
    "EventStream",
    "SDKBinding",
    "SDKOptions",
    "SDKTransport",
    "SSEStream",
    "lazy_attributes",
    "sdk_client",
    "set_stream",
    "stainless_binding",
    "stainless_options",
]


class _EncodeRequest(Protocol):
    def __call__(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> dict[str, Any]: ...


def set_stream(request: ChatRequest, stream: bool) -> ChatRequest:
    """The request with `stream` as the method called asks."""
    return request if request.stream is stream else request.model_copy(update={"stream": stream})


@dataclass(frozen=True)
class Endpoint:
    """One API of one provider: where to post, and its codec."""

    provider: str
    path: str
    encode_request: _EncodeRequest
    decode_response: Callable[[Any], ChatResponse]
    stream_decoder: Callable[[], StreamDecoder]
    # The request as sent streamed (True) or not: `stream` set, and whatever
    # else the API ties to streaming.
    prepare: Callable[[ChatRequest, bool], ChatRequest] = set_stream
    # Whether a stream payload is the last of a whole stream (Anthropic's
    # `message_stop`); None where `[DONE]` ends the streams (Chat Completions).
    last_payload: Callable[[Any], bool] | None = None
    # The path for a request sent streamed or not, where it depends on the
    # request (Gemini: the model and the method are in the URL); None: `path`.
    target: Callable[[ChatRequest, bool], str] | None = None

    def path_for(self, request: ChatRequest, *, stream: bool) -> str:
        return self.path if self.target is None else self.target(request, stream)

    def body(
        self, request: ChatRequest, report: TranslationReport | None, *, stream: bool
    ) -> dict[str, Any]:
        return self.encode_request(self.prepare(request, stream), report=report)


class SDKTransport(Protocol):
    """How the clients reach an SDK that has no generic `post` (mistralai).

    `send` sends `body` as it is and gives the answer's JSON, or, streamed, an
    iterable of the stream's payloads with a `close()` (an `SSEStream`);
    `send_async` likewise (an `AsyncSSEStream`, `close()` awaited).
    """

    def send(self, sdk: Any, path: str, body: dict[str, Any], *, stream: bool) -> Any: ...

    async def send_async(
        self, sdk: Any, path: str, body: dict[str, Any], *, stream: bool
    ) -> Any: ...

    def close(self, sdk: Any) -> None: ...

    async def close_async(self, sdk: Any) -> None: ...


@dataclass(frozen=True)
class SDKBinding:
    """What the clients need of one SDK (anthropic, openai and groq are alike)."""

    status_error: type[Exception]
    # The SDK's connection error, and the transport's errors its streams let through.
    connection_error: type[Exception] | tuple[type[Exception], ...]
    decode_error: Callable[[int | None, Any], ProviderError]
    # The status error's body as the provider sent it.
    error_body: Callable[[Any], Any]
    # An SDK exception raised in a stream, as its error event's payload (or None).
    in_stream_payload: Callable[[Exception], Any | None]
    # The SDK's stream classes, for its generic `post`.
    stream_cls: Any = None
    async_stream_cls: Any = None
    post_options: dict[str, Any] = field(default_factory=dict)
    # None: the SDK's generic `post` and its `close` (anthropic, openai, groq).
    transport: SDKTransport | None = None
    # The request id a status error carries (an attribute, its headers).
    request_id: Callable[[Exception], str | None] = _sdk_errors.request_id
    # `SDKOptions` as the arguments of the SDK client's constructor.
    options: Callable[[SDKOptions], dict[str, Any]] = stainless_options
    # The HTTP status a status error carries (google-genai names it `code`).
    status_code: Callable[[Exception], int | None] = _sdk_errors.status_code

    def post(self, sdk: Any, path: str, body: dict[str, Any], *, stream: bool) -> Any:
        """The answer to `body` posted to `path`: its JSON, or its stream."""
        if self.transport is not None:
            return self.transport.send(sdk, path, body, stream=stream)
        extra = {"stream": True, "stream_cls": self.stream_cls} if stream else {}
        return sdk.post(path, body=body, cast_to=object, options=self.post_options, **extra)

    async def post_async(self, sdk: Any, path: str, body: dict[str, Any], *, stream: bool) -> Any:
        if self.transport is not None:
            return await self.transport.send_async(sdk, path, body, stream=stream)
        extra = {"stream": True, "stream_cls": self.async_stream_cls} if stream else {}
        return await sdk.post(path, body=body, cast_to=object, options=self.post_options, **extra)

    def close(self, sdk: Any) -> None:
        if self.transport is not None:
            self.transport.close(sdk)
        else:
            sdk.close()

    async def close_async(self, sdk: Any) -> None:
        if self.transport is not None:
            await self.transport.close_async(sdk)
        else:
            await sdk.close()

    @contextmanager
    def errors(self, provider: str) -> Iterator[None]:
        """SDK errors raised in the block, as interlingua's."""
        try:
            yield
        except self.status_error as exc:
            error = self.decode_error(self.status_code(exc), self.error_body(exc))
            _sdk_errors.note_answer(error, exc, request_id=self.request_id(exc))
            raise error from exc
        except self.connection_error as exc:
            error = ProviderConnectionError(str(exc) or type(exc).__name__, provider=provider)
            _sdk_errors.mask_secrets(error, exc, _sdk_errors.sent_secrets(exc))
            raise error from exc
        except json.JSONDecodeError as exc:
            # A 200 whose body is not JSON: a proxy's page, a cut-off answer.
            raise DecodeError(
                "<root>", f"the answer is not JSON: {exc.msg}", provider=provider
            ) from exc

    def payloads(self, stream: Iterable[Any]) -> Iterator[Any]:
        """The stream's payloads; an error the SDK raises mid-stream goes on as its payload."""
        events = iter(stream)
        while True:
            try:
                payload = next(events)
            except StopIteration:
                return
            except Exception as exc:
                if (error := self.in_stream_payload(exc)) is None:
                    raise
                yield error
                return
            yield payload

    async def async_payloads(self, stream: Any) -> AsyncIterator[Any]:
        events = stream.__aiter__()
        while True:
            try:
                payload = await events.__anext__()
            except StopAsyncIteration:
                return
            except Exception as exc:
                if (error := self.in_stream_payload(exc)) is None:
                    raise
                yield error
                return
            yield payload


def _response_text(exc: Any) -> Any:
    try:  # the whole error body as sent (openai's `exc.body` is only its `error` member)
        return exc.response.text
    except Exception:  # a response whose body was never read
        return exc.body


def stainless_binding(
    sdk: ModuleType,
    *,
    decode_error: Callable[[int | None, Any], ProviderError],
    error_payload: Callable[[Any], Any],
    transport_error: type[Exception],
    post_options: dict[str, Any] | None = None,
) -> SDKBinding:
    """The binding of a Stainless-generated SDK (openai, groq), given its module: their errors
    and streams work alike. `error_payload` rebuilds an in-stream error event from its body;
    `transport_error` is its HTTP library's (`httpx.TransportError`), which a stream read
    after the answer began may raise unwrapped."""

    def in_stream_payload(exc: Exception) -> Any | None:
        # An error event in a 200 stream is raised as a plain `APIError`, `body` its `error`.
        return error_payload(getattr(exc, "body", None)) if type(exc) is sdk.APIError else None

    stream_cls, async_stream_cls = _noting_done(sdk)
    return SDKBinding(
        status_error=sdk.APIStatusError,
        connection_error=(sdk.APIConnectionError, transport_error),
        stream_cls=stream_cls,
        async_stream_cls=async_stream_cls,
        decode_error=decode_error,
        error_body=_response_text,
        in_stream_payload=in_stream_payload,
        post_options=post_options or {},
    )


def _noting_done(sdk: ModuleType) -> tuple[Any, Any]:
    """The stream classes of a Stainless-generated SDK, whose `done` says whether
    the `[DONE]` sentinel arrived: the SDK's own end the stream there, or wherever
    the body stops, alike. (They read events in `_iter_events`, which the SDKs
    document for subclasses of their streams to override.)"""

    class Stream(sdk.Stream[object]):  # type: ignore[misc,name-defined]
        done = False

        def _iter_events(self) -> Iterator[Any]:
            for event in super()._iter_events():
                self.done = self.done or event.data.startswith("[DONE]")
                yield event

    class AsyncStream(sdk.AsyncStream[object]):  # type: ignore[misc,name-defined]
        done = False

        async def _iter_events(self) -> AsyncIterator[Any]:
            async for event in super()._iter_events():
                self.done = self.done or event.data.startswith("[DONE]")
                yield event

    return Stream, AsyncStream


def lazy_attributes(
    package: str, module: str, names: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for an adapter package whose `names` (its
    clients) live in `module`, imported on first use: a client module imports its
    SDK, which takes up to a second, and the codec must not wait for it."""
    lazy = frozenset(names)

    def getattr_(name: str) -> Any:
        if name in lazy:
            return getattr(importlib.import_module(module), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def dir_() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | lazy)

    return getattr_, dir_


def sdk_client(client: Any, options: dict[str, Any], factory: Callable[..., Any]) -> Any:
    """The user's SDK client, or one built from `options`; not both."""
    if client is not None and options:
        raise TypeError(
            f"pass a {factory.__qualname__} client or the options to build one, not both"
        )
    return client if client is not None else factory(**options)


class ChatClient:
    """`complete` and `stream` over one SDK client, for the API `endpoint` names."""

    endpoint: ClassVar[Endpoint]
    binding: ClassVar[SDKBinding]

    def __init__(self, sdk: Any) -> None:
        self.sdk = sdk

    @classmethod
    def connect(cls, options: SDKOptions) -> Self:
        """A client over an SDK client built from `options` (the rest as the SDK's defaults)."""
        return cls(**cls.binding.options(options))

    def complete(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> ChatResponse:
        """The whole answer to `request`."""
        body = self.endpoint.body(request, report, stream=False)
        with self.binding.errors(self.endpoint.provider):
            path = self.endpoint.path_for(request, stream=False)
            answer = self.binding.post(self.sdk, path, body, stream=False)
        return self.endpoint.decode_response(answer)

    def stream(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> EventStream:
        """The answer to `request` as stream events; `interlingua.accumulate` joins them.

        The request is sent here: an error status raises before any event.
        """
        body = self.endpoint.body(request, report, stream=True)
        with self.binding.errors(self.endpoint.provider):
            path = self.endpoint.path_for(request, stream=True)
            response = self.binding.post(self.sdk, path, body, stream=True)
        end = StreamEnd(self.endpoint.last_payload, response, self.endpoint.provider)
        return EventStream(self._events(response, end), response, end)

    def _events(self, response: Any, end: StreamEnd) -> Iterator[StreamEvent]:
        decoder = self.endpoint.stream_decoder()
        with self.binding.errors(self.endpoint.provider):
            payloads = end.payloads(self.binding.payloads(response))
            yield from end.events(decode_events(decoder, payloads))

    def close(self) -> None:
        self.binding.close(self.sdk)

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class AsyncChatClient:
    """`ChatClient` for an async SDK client (asyncio or trio)."""

    endpoint: ClassVar[Endpoint]
    binding: ClassVar[SDKBinding]

    def __init__(self, sdk: Any) -> None:
        self.sdk = sdk

    @classmethod
    def connect(cls, options: SDKOptions) -> Self:
        """A client over an SDK client built from `options` (the rest as the SDK's defaults)."""
        return cls(**cls.binding.options(options))

    async def complete(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> ChatResponse:
        """The whole answer to `request`."""
        body = self.endpoint.body(request, report, stream=False)
        with self.binding.errors(self.endpoint.provider):
            path = self.endpoint.path_for(request, stream=False)
            answer = await self.binding.post_async(self.sdk, path, body, stream=False)
        return self.endpoint.decode_response(answer)

    async def stream(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> AsyncEventStream:
        """The answer to `request` as stream events (`events = await client.stream(...)`);
        `interlingua.accumulate_async` joins them.

        The request is sent here: an error status raises before any event.
        """
        body = self.endpoint.body(request, report, stream=True)
        with self.binding.errors(self.endpoint.provider):
            response = await self.binding.post_async(
                self.sdk, self.endpoint.path_for(request, stream=True), body, stream=True
            )
        end = StreamEnd(self.endpoint.last_payload, response, self.endpoint.provider)
        return AsyncEventStream(self._events(response, end), response, end)

    async def _events(self, response: Any, end: StreamEnd) -> AsyncIterator[StreamEvent]:
        decoder = self.endpoint.stream_decoder()
        provider = self.endpoint.provider
        with self.binding.errors(provider):
            index = 0
            async for payload in end.async_payloads(self.binding.async_payloads(response)):
                with depth_checked(payload, provider, f"events[{index}]"):  # as decode_events
                    events = decoder.feed(payload)
                index += 1
                for event in end.events(events, check=False):
                    yield event
            for event in end.events(decoder.finish()):
                yield event

    async def close(self) -> None:
        await self.binding.close_async(self.sdk)

    async def __aenter__(self) -> AsyncChatClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
