"""Server-sent events read as they arrive, for a client whose SDK would rebuild
a stream's payloads (`interlingua.client.SDKTransport`): the payloads of an
HTTP response (httpx's or httpx2's) straight from its lines.

A stream's payloads are the JSON data of its events, in order, up to the
`[DONE]` sentinel. The data lines of one event are joined with newlines;
comments and the fields other than `data` change nothing (the HTML spec's
event-stream interpretation). A last event with no blank line after it is
read, as `interlingua.testing.parse_sse` reads one, when its data is whole
JSON; one whose data stops short was cut off, and is not. A stream's `done`
says whether `[DONE]` came: one that stops before it was cut off.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import aclosing
from typing import Any

__all__ = ["DONE", "AsyncSSEStream", "SSEData", "SSEStream"]

DONE = "[DONE]"


class SSEData:
    """The data of server-sent events, fed one line at a time (its line break removed)."""

    def __init__(self) -> None:
        self._lines: list[str] = []

    def feed(self, line: str) -> str | None:
        """The data of the event a blank `line` ends; None for any other line."""
        if line:
            name, _, value = line.partition(":")
            if name == "data":
                self._lines.append(value.removeprefix(" "))
            return None
        data, self._lines = self._lines, []
        return "\n".join(data) if data else None


class SSEStream:
    """The JSON payloads of a server-sent-event response, up to `[DONE]`;
    `close()` closes the response. `client`, the SDK that sent the request, is
    kept alive with the stream (an SDK closes its connections when dropped)."""

    def __init__(self, response: Any, client: Any = None) -> None:
        self.response = response
        self._client = client
        self.done = False

    def __iter__(self) -> Iterator[Any]:
        events = SSEData()
        for line in self.response.iter_lines():
            data = events.feed(line)
            if data == DONE:
                self.done = True
                return
            if data is not None:
                yield json.loads(data)
        self.done, last = _last(events)
        yield from last

    def close(self) -> None:
        self.response.close()


class AsyncSSEStream:
    """`SSEStream` for an async response; `await close()`."""

    def __init__(self, response: Any, client: Any = None) -> None:
        self.response = response
        self._client = client
        self.done = False

    async def __aiter__(self) -> AsyncIterator[Any]:
        events = SSEData()
        async with aclosing(self.response.aiter_lines()) as lines:
            async for line in lines:
                data = events.feed(line)
                if data == DONE:
                    self.done = True
                    return
                if data is not None:
                    yield json.loads(data)
        self.done, last = _last(events)
        for payload in last:
            yield payload

    async def close(self) -> None:
        await self.response.aclose()


def _last(events: SSEData) -> tuple[bool, list[Any]]:
    """Whether a last event that no blank line ended is `[DONE]`, and its payload
    when it came whole (none for one cut off in its middle)."""
    data = events.feed("")
    if data is None:
        return False, []
    if data == DONE:
        return True, []
    try:
        return False, [json.loads(data)]
    except ValueError:
        return False, []
