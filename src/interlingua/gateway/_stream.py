"""A stream answered live: each upstream event is translated and sent as it
comes, so the first byte leaves before the last one arrives.

- An upstream stream that breaks off (cut, timed out, unreadable) or sends an
  error ends the client's stream with its API's own error event, never a
  clean end; its message, and the log line's error, name the upstream and
  what happened (`interlingua.gateway._errors.broken_stream`).
- A client that disconnects cancels the upstream call: `until_disconnect`
  listens for the disconnect while the upstream is asked (a whole answer, or
  a stream until its first event), and `LiveStream` while it sends (whatever
  the ASGI version), closing the upstream stream, shielded from the
  cancellation, when it stops.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import TypeVar

import anyio
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from interlingua._errors import InterlinguaError
from interlingua._stream import ErrorEvent, StreamEvent, StreamStart, UsageEvent
from interlingua.codec import StreamEncoder
from interlingua.gateway._apis import Framing
from interlingua.gateway._errors import broken_stream, upstream_error
from interlingua.gateway._log import RequestLog
from interlingua.gateway._upstream import Attempt

__all__ = ["LiveStream", "translated", "until_disconnect"]

T = TypeVar("T")


async def until_disconnect(receive: Receive, work: Awaitable[T]) -> T | None:
    """`work`'s result, or None when the client disconnected first: `work` is then
    cancelled, and the upstream call it was making with it (its connection closed).
    The request's body must have been read: what `receive` gives next is the end."""
    result: list[T] = []
    failure: list[Exception] = []
    async with anyio.create_task_group() as group:

        async def listen() -> None:
            await _disconnected(receive)
            group.cancel_scope.cancel()

        group.start_soon(listen)
        try:
            result.append(await work)
        except Exception as error:  # raised as it is, not in the task group's ExceptionGroup
            failure.append(error)
        finally:
            group.cancel_scope.cancel()
    if failure:
        raise failure[0]
    return result[0] if result else None


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def translated(
    attempt: Attempt, encoder: StreamEncoder, framing: Framing, log: RequestLog
) -> AsyncIterator[bytes]:
    """The client's bytes for the events of the attempt's stream, one event at a
    time, framed as its API streams (server-sent events, or Amazon's frames)."""
    assert attempt.first is not None
    events, write = attempt.events, framing.write
    try:
        yield write(encoder.feed(_noted(attempt.first, attempt, log)))
        async for event in events:
            if chunk := write(encoder.feed(_noted(event, attempt, log))):
                yield chunk
        yield write(encoder.finish())
    except InterlinguaError as error:
        failure = broken_stream(
            attempt.target.name, error, received=events.received, timeout=attempt.timeout
        )
        log.error = failure.message
        yield write([*encoder.feed(ErrorEvent.from_error(failure)), *encoder.finish()])


def _noted(event: StreamEvent, attempt: Attempt, log: RequestLog) -> StreamEvent:
    """`event`, its usage noted in the log; the upstream's error, named as it was sent."""
    if isinstance(event, UsageEvent):
        log.note_usage(event.usage)
    elif isinstance(event, StreamStart):
        log.note_start(event.model, event.provider_data)
    elif isinstance(event, ErrorEvent):
        target = attempt.target
        sent = event.to_error(target.provider)
        error = upstream_error(target.name, sent, after=max(0, attempt.events.received - 1))
        log.error = error.message
        return ErrorEvent.from_error(error)
    return event


class LiveStream(Response):
    """A stream of `chunks` (of `media_type`); `on_close` runs once the stream is
    over, however it ended (`closing`: the upstream stream's close)."""

    def __init__(
        self,
        chunks: AsyncIterator[bytes],
        *,
        media_type: str,
        headers: Mapping[str, str],
        closing: Callable[[], object],
        on_close: Callable[[], None],
    ) -> None:
        self.media_type = media_type
        self.chunks = chunks
        self.closing = closing
        self.on_close = on_close
        self.status_code = 200
        self.background = None
        self.init_headers({**headers, "cache-control": "no-cache"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with anyio.create_task_group() as group:

                async def listen() -> None:
                    await _disconnected(receive)
                    group.cancel_scope.cancel()

                group.start_soon(listen)
                await self._send_all(send)
                group.cancel_scope.cancel()
        finally:
            with anyio.CancelScope(shield=True):
                await _close(self.chunks)
                result = self.closing()
                if hasattr(result, "__await__"):
                    await result
                self.on_close()

    async def _send_all(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        try:
            async for chunk in self.chunks:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:  # the client went away between two chunks
            return


async def _close(chunks: AsyncIterator[bytes]) -> None:
    close = getattr(chunks, "aclose", None)
    if close is not None:
        await close()
