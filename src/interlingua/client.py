"""Clients over a provider's official SDK, written once for every adapter.

An adapter describes its API as an `Endpoint` (where to post, its codec) and
its SDK as an `SDKBinding` (the SDK's stream classes and errors); `ChatClient`
and `AsyncChatClient` do the rest. The SDK keeps doing what it does for its
own calls: the key and base URL, retries, timeouts, headers, its HTTP client.

- The body sent is exactly the endpoint's `encode_request(request)`, with
  `stream` set by the method called. It goes through the SDK's generic `post`
  (the request its own `create` makes, without rebuilding the body from typed
  arguments), or, for an SDK that has none (mistralai), its binding's
  `SDKTransport` (`interlingua._sdk_binding`); the answer is read as JSON,
  never as an SDK model, so the codec sees exactly what the provider sent.
  `SSEStream` reads a stream's payloads from the raw HTTP response, for a
  transport whose SDK would rebuild them.
- `complete_body` and `stream_body` send a body already in the endpoint's
  API as it is, with headers beside the SDK's own (a gateway's client's body,
  with its `anthropic-beta`: `Endpoint.as_is`, `Endpoint.api_headers`), and
  read the answer as `complete` and `stream` do, which send through them.
- An answer (a stream's start) that names no model is the answer of the model
  asked (`answered_by`): Bedrock's Converse answers, whose model is in the URL,
  are so priced (`ChatResponse.cost`) and traced.
- `complete` and `stream` are each one OpenTelemetry CLIENT span in the GenAI
  conventions, with their metrics, where OpenTelemetry is installed
  (`interlingua._telemetry`, which a body sent as it is can use too).
- An error status raises the adapter's typed `ProviderError` and a network
  failure `ProviderConnectionError`, the SDK's exception chained as the cause.
- `stream()` sends the request when called (awaited, for the async client), so
  an error status raises there. An error inside the stream is decoded as the
  event it was, so `accumulate` raises `StreamError` keeping what arrived; so
  does a stream cut off before its end (`interlingua._event_stream.StreamEnd`).
  The `EventStream` closes the HTTP response when it ends, is closed, or is dropped.
- A typed error is the adapter's `decode_error` of the answer's status, body
  and headers (an `ErrorDecoder`: the request id, retry-after and rate limits
  come from the headers there), with the key the request carried masked
  wherever the answer echoed it (`interlingua._sdk_errors`).

This module imports no SDK: the adapter's client module does, and hands the
SDK's classes over in its `SDKBinding` (openai's and groq's: `stainless_binding`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, ClassVar, Protocol

from typing_extensions import Self

from interlingua._adapter import ErrorDecoder
from interlingua._event_stream import AsyncEventStream, EventStream, StreamEnd
from interlingua._genai_names import provider_name
from interlingua._report import TranslationReport
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua._sdk_binding import SDKBinding, SDKTransport, stainless_binding
from interlingua._sdk_options import SDKOptions, stainless_options
from interlingua._sse import AsyncSSEStream, SSEStream
from interlingua._stream import StreamEvent, StreamStart
from interlingua._telemetry import client_call
from interlingua.codec import OutputLimits, StreamDecoder, decode_events, depth_checked

__all__ = [
    "AsyncChatClient",
    "AsyncEventStream",
    "AsyncSSEStream",
    "ChatClient",
    "Endpoint",
    "ErrorDecoder",
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
    """One API of one provider: where to post, its codec, and what of a body
    written in that API may change on its way (`as_is`)."""

    provider: str
    path: str
    encode_request: _EncodeRequest
    decode_response: Callable[[Any], ChatResponse]
    stream_decoder: Callable[[], StreamDecoder]
    # Where its bodies ask for output tokens (`max_tokens`, a thinking budget).
    limits: OutputLimits
    # The API's own headers a client sends beside a body of its own (`anthropic-beta`),
    # in lower case: they go with that body, as it is, to this API (`ChatClient.complete_body`).
    api_headers: tuple[str, ...] = ()
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

    def as_is(self, body: dict[str, Any], model: str, *, most: int | None) -> dict[str, Any]:
        """A body a client wrote in this API, as it goes to `model`: the model
        replaced where the body has it (where `target` gives no path: Gemini's is
        in the URL), and its output tokens capped at `most` (`limits`); the rest
        as it came, shared, not copied."""
        sent = {**body, "model": model} if self.target is None else body
        return sent if most is None else self.limits.capped(sent, most)


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


def answered_by(model: str, response: ChatResponse) -> ChatResponse:
    """`response`, of the `model` asked where the answer names none (Bedrock's
    Converse answers: the model is in the URL they answer)."""
    if response.model is not None:
        return response
    return response.model_copy(update={"model": model})


def started_by(model: str, event: StreamEvent) -> StreamEvent:
    """`answered_by` for a stream's start."""
    if isinstance(event, StreamStart) and event.model is None:
        return event.model_copy(update={"model": model})
    return event


async def _started_by_async(
    model: str, events: AsyncIterator[StreamEvent]
) -> AsyncIterator[StreamEvent]:
    async for event in events:
        yield started_by(model, event)


class ChatClient:
    """`complete` and `stream` over one SDK client, for the API `endpoint` names."""

    endpoint: ClassVar[Endpoint]
    binding: ClassVar[SDKBinding]

    def __init__(self, sdk: Any) -> None:
        self.sdk = sdk

    @property
    def provider_name(self) -> str:
        """Who answers, as OpenTelemetry's GenAI conventions name it
        (`gen_ai.provider.name`: `anthropic`, `gcp.gemini`, ...)."""
        return provider_name(self.endpoint.provider)

    @classmethod
    def connect(cls, options: SDKOptions) -> Self:
        """A client over an SDK client built from `options` (the rest as the SDK's defaults)."""
        return cls(**cls.binding.options(options))

    def complete(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> ChatResponse:
        """The whole answer to `request`."""
        call = client_call(self.provider_name, request)
        with call.sending():
            body = self.endpoint.body(request, report, stream=False)
            call.sent(body, self.endpoint.limits)
            response = self.complete_body(body, self.endpoint.path_for(request, stream=False))
        return call.finish(answered_by(request.model, response))

    def stream(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> EventStream:
        """The answer to `request` as stream events; `interlingua.accumulate` joins them.

        The request is sent here: an error status raises before any event.
        """
        call = client_call(self.provider_name, request, stream=True)
        with call.sending():
            body = self.endpoint.body(request, report, stream=True)
            call.sent(body, self.endpoint.limits)
            events = self.stream_body(body, self.endpoint.path_for(request, stream=True))
        named = events.watched(lambda events: (started_by(request.model, e) for e in events))
        return named.watched(call.watch)

    def complete_body(
        self, body: dict[str, Any], path: str, headers: Mapping[str, str] | None = None
    ) -> ChatResponse:
        """The whole answer to `body`, a body of the endpoint's API sent to `path`
        as it is (nothing encoded, nothing checked), `headers` beside the SDK's
        own; the answer is decoded by the endpoint, as `complete`'s (which sends
        through here). For a body a client wrote for this API (a gateway's)."""
        with self.binding.errors(self.endpoint.provider):
            answer = self.binding.post(self.sdk, path, body, stream=False, headers=headers)
        return self.endpoint.decode_response(answer)

    def stream_body(
        self, body: dict[str, Any], path: str, headers: Mapping[str, str] | None = None
    ) -> EventStream:
        """`complete_body` streamed, as `stream` (which sends through here): the
        body must ask for a stream as its API does (`"stream": true`, or Gemini's
        path)."""
        with self.binding.errors(self.endpoint.provider):
            response = self.binding.post(self.sdk, path, body, stream=True, headers=headers)
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

    @property
    def provider_name(self) -> str:
        """Who answers, as OpenTelemetry's GenAI conventions name it
        (`gen_ai.provider.name`: `anthropic`, `gcp.gemini`, ...)."""
        return provider_name(self.endpoint.provider)

    @classmethod
    def connect(cls, options: SDKOptions) -> Self:
        """A client over an SDK client built from `options` (the rest as the SDK's defaults)."""
        return cls(**cls.binding.options(options))

    async def complete(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> ChatResponse:
        """The whole answer to `request`."""
        call = client_call(self.provider_name, request)
        with call.sending():
            body = self.endpoint.body(request, report, stream=False)
            call.sent(body, self.endpoint.limits)
            path = self.endpoint.path_for(request, stream=False)
            response = await self.complete_body(body, path)
        return call.finish(answered_by(request.model, response))

    async def stream(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> AsyncEventStream:
        """The answer to `request` as stream events (`events = await client.stream(...)`);
        `interlingua.accumulate_async` joins them.

        The request is sent here: an error status raises before any event.
        """
        call = client_call(self.provider_name, request, stream=True)
        with call.sending():
            body = self.endpoint.body(request, report, stream=True)
            call.sent(body, self.endpoint.limits)
            path = self.endpoint.path_for(request, stream=True)
            events = await self.stream_body(body, path)
        named = events.watched(lambda events: _started_by_async(request.model, events))
        return named.watched(call.watch_async)

    async def complete_body(
        self, body: dict[str, Any], path: str, headers: Mapping[str, str] | None = None
    ) -> ChatResponse:
        """`ChatClient.complete_body`, awaited: `body` sent to `path` as it is."""
        with self.binding.errors(self.endpoint.provider):
            answer = await self.binding.post_async(
                self.sdk, path, body, stream=False, headers=headers
            )
        return self.endpoint.decode_response(answer)

    async def stream_body(
        self, body: dict[str, Any], path: str, headers: Mapping[str, str] | None = None
    ) -> AsyncEventStream:
        """`ChatClient.stream_body`, awaited."""
        with self.binding.errors(self.endpoint.provider):
            response = await self.binding.post_async(
                self.sdk, path, body, stream=True, headers=headers
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
