"""The stage the agents play on, one process on 127.0.0.1 serving three ports:

- the scripted upstream (`Wire`s of `_wires`, each API where its SDK posts:
  `/v1/chat/completions`, `/v1/messages`, `/v1/responses`,
  `/<version>/models/<model>:<method>`), which records every request it gets
  and answers by the lane's case;
- the recording proxy in front of the gateway: every request an agent sends
  is kept with the answer it got (status, headers of interest, the body or
  the stream's text), and passed on and back unchanged;
- a sink for traffic meant elsewhere: the agents' HTTP(S) proxy variables
  point at it, and it answers 403 to whatever it is asked, noting the host.

`POST /_lane` on the upstream's port starts a lane (`{"lane", "case"}`);
`GET /_lane` gives what the lane's requests were, on both sides, and the
outside hosts the sink was asked for.

Run as `python -m bench.agents._stage UPSTREAM PROXY SINK GATEWAY`.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from typing import Any

from interlingua import WireEvent, format_sse

# Headers of a request or answer worth keeping (never a key).
KEPT_REQUEST = ("content-type", "accept", "anthropic-version", "anthropic-beta", "openai-beta")
KEPT_ANSWER = ("content-type", "retry-after", "x-interlingua-upstream", "x-interlingua-losses")
KEPT_ANSWER_PREFIXES = ("x-ratelimit-", "anthropic-ratelimit-")
CUT_AFTER = 3  # events a broken stream sends before the connection drops
SEEN = ("anthropic-version", "anthropic-beta", "openai-beta")


class Lane:
    def __init__(self, name: str = "", case: str = "") -> None:
        self.name = name
        self.case = case
        self.upstream: list[dict[str, Any]] = []
        self.proxy: list[dict[str, Any]] = []
        self.outside: list[str] = []  # what the sink was asked for
        self.limited = False
        self.broken = False


STATE = {"lane": Lane()}


def kept(headers: Any, names: tuple[str, ...], prefixes: tuple[str, ...] = ()) -> dict[str, str]:
    return {
        name.lower(): value
        for name, value in headers.items()
        if name.lower() in names or name.lower().startswith(prefixes)
    }


def sse(events: list[tuple[str | None, Any]]) -> list[bytes]:
    """Each scripted event (its name, its data) as the bytes of one server-sent event."""
    return list(format_sse(WireEvent(data, name) for name, data in events))


def upstream_app() -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    from bench.agents._script import plan
    from bench.agents._wires import WIRES

    async def answer(request: Request, api: str, model: str, streamed: bool) -> Response:
        lane = STATE["lane"]
        body = json.loads(await request.body())
        record: dict[str, Any] = {"api": api, "path": request.url.path, "body": body}
        record["headers"] = kept(request.headers, SEEN)
        lane.upstream.append(record)
        wire = WIRES[api]
        if lane.case == "429" and not lane.limited:
            lane.limited = True
            record["answered"] = "429"
            headers = {"retry-after": "1", **wire.rate_headers}
            return JSONResponse(wire.rate_limited, status_code=429, headers=headers)
        tools, results, schema = wire.read(body)
        record["tools"] = [tool.name for tool in tools]
        record["results"] = results
        scripted = plan(tools, results, schema)
        record["answered"] = f"call {scripted.tool}" if scripted.tool else "text"
        if not streamed:
            return JSONResponse(wire.whole(scripted, model))
        frames = sse(wire.stream(scripted, model))
        if lane.case == "broken" and not lane.broken:
            lane.broken = True
            record["answered"] += ", cut"
            return StreamingResponse(_cut(frames[:CUT_AFTER]), media_type="text/event-stream")
        return StreamingResponse(_all(frames), media_type="text/event-stream")

    def at(api: str) -> Any:
        async def endpoint(request: Request) -> Response:
            peek = json.loads(await request.body())
            return await answer(request, api, peek.get("model", ""), peek.get("stream") is True)

        return endpoint

    async def gemini(request: Request) -> Response:
        model, _, method = request.path_params["target"].rpartition(":")
        return await answer(request, "google", model, method == "streamGenerateContent")

    async def start_lane(request: Request) -> Response:
        asked = await request.json()
        STATE["lane"] = Lane(asked["lane"], asked["case"])
        return Response(status_code=204)

    async def lane_records(request: Request) -> Response:
        lane = STATE["lane"]
        return JSONResponse(
            {
                "lane": lane.name,
                "upstream": lane.upstream,
                "proxy": lane.proxy,
                "outside": lane.outside,
            }
        )

    return Starlette(
        routes=[
            Route("/_lane", start_lane, methods=["POST"]),
            Route("/_lane", lane_records, methods=["GET"]),
            Route("/v1/chat/completions", at("openai"), methods=["POST"]),
            Route("/v1/messages", at("anthropic"), methods=["POST"]),
            Route("/v1/responses", at("openai-responses"), methods=["POST"]),
            Route("/{version}/models/{target:path}", gemini, methods=["POST"]),
        ]
    )


async def _all(frames: list[bytes]) -> AsyncIterator[bytes]:
    for frame in frames:
        yield frame


async def _cut(frames: list[bytes]) -> AsyncIterator[bytes]:
    for frame in frames:
        yield frame
        await asyncio.sleep(0.01)
    raise ConnectionResetError("the scripted upstream cuts the stream")


def proxy_app(gateway: str) -> Any:
    import httpx
    from starlette.applications import Starlette
    from starlette.background import BackgroundTask
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    client = httpx.AsyncClient(base_url=gateway, timeout=120.0)
    dropped = {"host", "content-length", "connection", "transfer-encoding"}

    async def forward(request: Request) -> Response:
        body = await request.body()
        record: dict[str, Any] = {"method": request.method, "path": request.url.path}
        record["query"] = request.url.query
        record["headers"] = kept(request.headers, KEPT_REQUEST)
        try:
            record["json"] = json.loads(body) if body else None
        except ValueError:
            record["text"] = body.decode(errors="replace")
        STATE["lane"].proxy.append(record)
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in dropped]
        sent = client.build_request(
            request.method,
            request.url.path,
            params=request.url.query,
            headers=headers,
            content=body,
        )
        answer = await client.send(sent, stream=True)
        answered = bytearray()
        record["status"] = answer.status_code
        record["answer_headers"] = kept(answer.headers, KEPT_ANSWER, KEPT_ANSWER_PREFIXES)

        async def relay() -> AsyncIterator[bytes]:
            try:
                async for chunk in answer.aiter_raw():
                    answered.extend(chunk)
                    yield chunk
            finally:
                record["answer"] = answered.decode(errors="replace")

        back = {k: v for k, v in answer.headers.items() if k.lower() not in dropped}
        return StreamingResponse(
            relay(),
            status_code=answer.status_code,
            headers=back,
            background=BackgroundTask(answer.aclose),
        )

    methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"]
    return Starlette(routes=[Route("/{rest:path}", forward, methods=methods)])


async def sink(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A proxy that lets nothing through: the host asked for is noted, the answer a 403."""
    try:
        line = await asyncio.wait_for(reader.readline(), 5)
        STATE["lane"].outside.append(line.decode(errors="replace").strip())
        writer.write(b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        await writer.drain()
    except (OSError, asyncio.TimeoutError):
        pass
    finally:
        writer.close()


async def serve(upstream: int, proxy: int, outside: int, gateway: str) -> None:
    import uvicorn

    servers = [
        uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        for app, port in ((upstream_app(), upstream), (proxy_app(gateway), proxy))
    ]
    held = await asyncio.start_server(sink, "127.0.0.1", outside)
    async with held:
        await asyncio.gather(*(server.serve() for server in servers))


if __name__ == "__main__":
    upstream_port, proxy_port, sink_port = (int(arg) for arg in sys.argv[1:4])
    asyncio.run(serve(upstream_port, proxy_port, sink_port, sys.argv[4]))
