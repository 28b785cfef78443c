"""interlingua.client's SSE reader: a stream's JSON payloads straight from an
HTTP response's lines, for a transport whose SDK would rebuild them."""

from __future__ import annotations

import httpx2
import pytest

from interlingua.client import AsyncSSEStream, SSEStream

BODY = (
    b": a comment\n"
    b'data: {"n": 1}\n\n'
    b"event: chunk\r\n"
    b'data: {"n":\r\n'
    b"data: 2}\r\n\r\n"
    b"id: 7\n\n"
    b'data: {"n": 3}\n\n'
    b"data: [DONE]\n\n"
    b'data: {"n": "after the sentinel"}\n\n'
)


def test_the_payloads_are_each_events_json_up_to_done() -> None:
    response = httpx2.Response(200, content=BODY)
    assert list(SSEStream(response)) == [{"n": 1}, {"n": 2}, {"n": 3}]


def test_a_last_event_without_a_blank_line_is_read() -> None:
    response = httpx2.Response(200, content=b'data: {"n": 1}\n\ndata: {"n": 2}')
    assert list(SSEStream(response)) == [{"n": 1}, {"n": 2}]


def test_data_that_is_not_json_raises() -> None:
    response = httpx2.Response(200, content=b"data: <html>\n\n")
    with pytest.raises(ValueError, match="Expecting value"):
        list(SSEStream(response))


def test_close_closes_the_response() -> None:
    response = httpx2.Response(200, content=BODY)
    stream = SSEStream(response)
    stream.close()
    assert response.is_closed


@pytest.mark.anyio
async def test_the_async_stream_reads_alike() -> None:
    response = httpx2.Response(200, content=BODY + b'data: {"n": 4}')
    stream = AsyncSSEStream(response)
    assert [payload async for payload in stream] == [{"n": 1}, {"n": 2}, {"n": 3}]
    tail = httpx2.Response(200, content=b'data: {"n": 1}\n\ndata: {"n": 2}')
    assert [payload async for payload in AsyncSSEStream(tail)] == [{"n": 1}, {"n": 2}]
    await stream.close()
    assert response.is_closed
