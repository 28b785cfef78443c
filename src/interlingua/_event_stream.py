"""The events of one streamed call, as the clients of `interlingua.client` give them.

`EventStream` (`AsyncEventStream`) closes the HTTP response when the events end,
on `close()`, on leaving a `with` block, or when dropped.

`StreamEnd` tells a stream that reached its end from one cut off: a provider
ends every stream with a last event of its own (Anthropic's `message_stop`,
the Responses API's `response.completed`) or with the `[DONE]` sentinel (Chat
Completions), which the stream object notes as its `done`. A stream whose
payloads stop before that, without an error event, was cut off: reading it
raises `ProviderConnectionError` (retryable) after the events that did arrive,
which `accumulate` raises as a `StreamError` keeping them as its `partial`.
It counts the payloads read (the stream's `received`), and a payload that is
not JSON raises `DecodeError` at its place, `events[<index>]`.
"""

from __future__ import annotations

import json
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
)
from types import TracebackType
from typing import Any

from typing_extensions import Self

from interlingua._errors import DecodeError, ProviderConnectionError
from interlingua._stream import StreamEvent

__all__ = ["AsyncEventStream", "EventStream", "StreamEnd"]


class EventStream(Iterator[StreamEvent]):
    """The events of one streamed call. The HTTP response is closed when the
    events end, on `close()`, on leaving a `with` block, or when dropped.
    `received` is the number of the provider's payloads read so far."""

    def __init__(
        self, events: Iterator[StreamEvent], response: Any, end: StreamEnd | None = None
    ) -> None:
        self._events = events
        self._response = response
        self._end = end

    @property
    def received(self) -> int:
        return self._end.received if self._end is not None else 0

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> StreamEvent:
        try:
            return next(self._events)
        except BaseException:
            self.close()
            raise

    def watched(self, watch: Callable[[Iterator[StreamEvent]], Iterator[StreamEvent]]) -> Self:
        """The stream, its events passed through `watch` (OpenTelemetry's span,
        `interlingua._telemetry`), which `close()` closes too."""
        self._events = watch(self._events)
        return self

    def close(self) -> None:
        response, self._response = self._response, None
        if response is not None:
            response.close()
            _close_events(self._events)

    def __enter__(self) -> EventStream:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


class AsyncEventStream(AsyncIterator[StreamEvent]):
    """`EventStream` for async clients; `aclose()` (or `async with`) closes it.
    One dropped unclosed is closed by the SDK's HTTP client when it shuts."""

    def __init__(
        self, events: AsyncIterator[StreamEvent], response: Any, end: StreamEnd | None = None
    ) -> None:
        self._events = events
        self._response = response
        self._end = end

    @property
    def received(self) -> int:
        return self._end.received if self._end is not None else 0

    def __aiter__(self) -> AsyncEventStream:
        return self

    async def __anext__(self) -> StreamEvent:
        try:
            return await self._events.__anext__()
        except BaseException:
            await self.aclose()
            raise

    def watched(
        self, watch: Callable[[AsyncIterator[StreamEvent]], AsyncIterator[StreamEvent]]
    ) -> Self:
        """`EventStream.watched`: `aclose()` closes `watch`'s events too."""
        self._events = watch(self._events)
        return self

    async def aclose(self) -> None:
        response, self._response = self._response, None
        if response is not None:
            await response.close()
            aclose: Callable[[], Awaitable[object]] | None = getattr(self._events, "aclose", None)
            if aclose is not None:
                await aclose()

    async def __aenter__(self) -> AsyncEventStream:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()


def _close_events(events: Iterator[StreamEvent]) -> None:
    close: Callable[[], object] | None = getattr(events, "close", None)
    if close is not None:
        close()


class StreamEnd:
    """Watches one stream for its end. `last_payload` tells the payload that ends
    the provider's streams; None where `[DONE]` ends them, which `stream`, the SDK's
    stream object, notes as its `done` (a stream object without one is not checked)."""

    def __init__(self, last_payload: Callable[[Any], bool] | None, stream: Any, provider: str):
        self._last_payload = last_payload
        self._stream = stream
        self._provider = provider
        self._seen_last = False
        self._errored = False
        self.received = 0  # the payloads read

    def payloads(self, payloads: Iterable[Any]) -> Iterator[Any]:
        """`payloads`, counted, noting the last one when it comes."""
        try:
            for payload in payloads:
                self._note(payload)
                yield payload
        except json.JSONDecodeError as exc:  # the SDK's, reading the next payload
            raise self._not_json(exc) from exc

    async def async_payloads(self, payloads: AsyncIterable[Any]) -> AsyncIterator[Any]:
        try:
            async for payload in payloads:
                self._note(payload)
                yield payload
        except json.JSONDecodeError as exc:
            raise self._not_json(exc) from exc

    def events(self, events: Iterable[StreamEvent], *, check: bool = True) -> Iterator[StreamEvent]:
        """`events`, then, for a stream cut off, the error that says so (unless
        `check` is false: more events are to come)."""
        for event in events:
            self._errored = self._errored or event.type == "error"
            yield event
        if check:
            self.check()

    def check(self) -> None:
        """Raise `ProviderConnectionError` if the stream, now over, was cut off."""
        if self._errored or self._seen_last:
            return
        if self._last_payload is None and getattr(self._stream, "done", True):
            return
        end = "[DONE]" if self._last_payload is None else "its last event"
        raise ProviderConnectionError(
            f"the stream was cut off: it ended before {end}", provider=self._provider
        )

    def _not_json(self, exc: json.JSONDecodeError) -> DecodeError:
        path = f"events[{self.received}]"
        return DecodeError(path, f"the payload is not JSON: {exc.msg}", provider=self._provider)

    def _note(self, payload: Any) -> None:
        self.received += 1
        if self._last_payload is not None and self._last_payload(payload):
            self._seen_last = True
