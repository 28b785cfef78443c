"""How the clients reach one SDK: its errors, its streams, and how a body is
posted through it as it is (`interlingua.client` re-exports these).

An `SDKBinding` posts through the SDK's generic `post` (a Stainless SDK's:
anthropic, openai, groq; `stainless_binding` builds theirs), or, for an SDK
that has none, through its `SDKTransport` (mistralai's hooks, google-genai's
API client). Either way the body goes as it is, with the SDK's key, base URL,
retries and timeouts, and headers given beside the SDK's own; and an SDK's
error comes out as interlingua's typed one (`SDKBinding.errors`).

This module imports no SDK: the adapter's client module hands the SDK's
classes over.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from interlingua import _sdk_errors
from interlingua._adapter import ErrorDecoder
from interlingua._errors import DecodeError, ProviderConnectionError
from interlingua._sdk_options import SDKOptions, stainless_options
from interlingua._telemetry import traced

__all__ = ["SDKBinding", "SDKTransport", "stainless_binding"]


class SDKTransport(Protocol):
    """How the clients reach an SDK that has no generic `post` (mistralai, google-genai).

    `send` sends `body` as it is, with `headers` beside the SDK's own, and gives
    the answer's JSON, or, streamed, an iterable of the stream's payloads with a
    `close()` (an `SSEStream`); `send_async` likewise (an `AsyncSSEStream`,
    `close()` awaited).
    """

    def send(
        self,
        sdk: Any,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any: ...

    async def send_async(
        self,
        sdk: Any,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any: ...

    def close(self, sdk: Any) -> None: ...

    async def close_async(self, sdk: Any) -> None: ...


@dataclass(frozen=True)
class SDKBinding:
    """What the clients need of one SDK (anthropic, openai and groq are alike)."""

    status_error: type[Exception]
    # The SDK's connection error, and the transport's errors its streams let through.
    connection_error: type[Exception] | tuple[type[Exception], ...]
    decode_error: ErrorDecoder
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
    # The headers of the answer a status error was made from (boto3's are in its `response` dict).
    error_headers: Callable[[Exception], Mapping[str, str]] = _sdk_errors.error_headers

    def post(
        self,
        sdk: Any,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        """The answer to `body` posted to `path` as it is, `headers` beside the
        SDK's own (over those of the same name), and the trace context of the
        span current (`interlingua._telemetry.traced`): its JSON, or its stream."""
        headers = traced(headers)
        if self.transport is not None:
            return self.transport.send(sdk, path, body, stream=stream, headers=headers or {})
        extra = {"stream": True, "stream_cls": self.stream_cls} if stream else {}
        options = self._options(headers)
        return sdk.post(path, body=body, cast_to=object, options=options, **extra)

    async def post_async(
        self,
        sdk: Any,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        headers = traced(headers)
        if self.transport is not None:
            return await self.transport.send_async(
                sdk, path, body, stream=stream, headers=headers or {}
            )
        extra = {"stream": True, "stream_cls": self.async_stream_cls} if stream else {}
        options = self._options(headers)
        return await sdk.post(path, body=body, cast_to=object, options=options, **extra)

    def _options(self, headers: Mapping[str, str] | None) -> dict[str, Any]:
        """The generic `post`'s request options: the binding's, and `headers`."""
        if not headers:
            return self.post_options
        return {**self.post_options, "headers": {**self.post_options.get("headers", {}), **headers}}

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
            headers = self.error_headers(exc)
            error = self.decode_error(self.status_code(exc), self.error_body(exc), headers=headers)
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
    decode_error: ErrorDecoder,
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
