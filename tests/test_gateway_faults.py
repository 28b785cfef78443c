"""The gateway when something goes wrong: each fault answered with the client
API's own error and status, and nothing hangs (every wait is bounded).

Upstream faults come from the project's recordings (a 429, a stream cut off)
and from stand-ins on the loopback that answer slowly or never.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import anthropic
import groq
import httpx
import openai
import pytest
from mistralai.client import Mistral, errors

from conftest import ANTHROPIC_TOOL_TURN, fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, RecordedRequest, RecordedResponse, Replay

KEY = fake_key("gk-")


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


UPSTREAM_KEY = fake_key("sk-")
BOUND = 30.0  # seconds any one wait of these tests may take (a loaded machine is slow)
CHAT_ANSWER = recorded("openai/chat_tool_round_trip.json")[1]
ANSWER_TEXT = CHAT_ANSWER.response.json["choices"][0]["message"]["content"]
RATE_LIMITED = recorded("mistral/error_rate_limited.json")[0]


def upstream_replay(*interactions: Interaction) -> Replay:
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def serve(**config: Any) -> GatewayServer:
    settings = load(None, keys=[KEY], **config)
    return GatewayServer(create_app(settings, default_key=UPSTREAM_KEY))


def post(base_url: str, path: str, body: Any, *, key: str | None = KEY) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"content-type": "application/json"}
    if key is not None:
        headers["authorization"] = f"Bearer {key}"
    return httpx.post(f"{base_url}{path}", content=content, headers=headers, timeout=BOUND)


def chat_body(model: str, **fields: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Hi"}], **fields}


def messages_body(model: str, **fields: Any) -> dict[str, Any]:
    return {"max_tokens": 64, **chat_body(model), **fields}


# --- fallbacks ---


def test_a_429_falls_back_to_the_next_upstream(gateway_log: pytest.LogCaptureFixture) -> None:
    routes = {
        "house": {"upstream": "mistral:mistral-large-latest", "fallbacks": ["openai:gpt-4.1-mini"]}
    }
    with serve(models=routes) as gateway, upstream_replay(RATE_LIMITED, CHAT_ANSWER) as replay:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        raw = client.messages.with_raw_response.create(**messages_body("house"))
    message = raw.parse()
    assert [request.url.host for request in replay.requests] == ["api.mistral.ai", "api.openai.com"]
    assert [body["model"] for body in replay.sent] == ["mistral-large-latest", "gpt-4.1-mini"]
    assert message.content[0].text == ANSWER_TEXT
    assert raw.headers["x-interlingua-upstream"] == "openai:gpt-4.1-mini"
    (line,) = gateway_log.messages
    assert "fallbacks=1 (mistral:mistral-large-latest: mistral 429" in line


def test_a_429_before_a_stream_falls_back_and_the_fallback_streams() -> None:
    streamed = recorded("openai/chat_stream_parallel_tool_calls.json")[0]
    routes = {
        "house": {"upstream": "mistral:mistral-large-latest", "fallbacks": ["openai:gpt-4o-mini"]}
    }
    with serve(models=routes) as gateway, upstream_replay(RATE_LIMITED, streamed) as replay:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with client.messages.stream(**messages_body("house")) as events:
            message = events.get_final_message()
    assert [body["stream"] for body in replay.sent] == [True, True]
    wire_calls = [
        call["function"]["name"]
        for payload in streamed.response.stream_payloads()
        for choice in payload["choices"]
        for call in choice["delta"].get("tool_calls") or ()
        if call.get("function", {}).get("name")
    ]
    assert [block.name for block in message.content if block.type == "tool_use"] == wire_calls


def test_the_last_upstream_s_error_reaches_the_client_in_its_own_format() -> None:
    with serve() as gateway, upstream_replay(RATE_LIMITED):
        client = opened(
            openai.OpenAI(api_key=KEY, base_url=f"{gateway.base_url}/v1", max_retries=0)
        )
        with pytest.raises(openai.RateLimitError) as raised:
            client.chat.completions.create(
                model="mistral:mistral-large-latest", messages=[{"role": "user", "content": "Hi"}]
            )
    error = RATE_LIMITED.response.json
    assert raised.value.status_code == 429
    assert raised.value.body["message"] == error["message"]  # type: ignore[index]
    assert raised.value.body["code"] == error["code"]  # type: ignore[index]


def test_an_upstream_error_keeps_its_status_type_message_and_request_id() -> None:
    invalid = recorded("anthropic/error_invalid_request.json")[0]
    wire = invalid.response.json
    with serve() as gateway, upstream_replay(invalid):
        client = opened(
            openai.OpenAI(api_key=KEY, base_url=f"{gateway.base_url}/v1", max_retries=0)
        )
        with pytest.raises(openai.BadRequestError) as raised:
            client.chat.completions.create(
                model="anthropic:claude-haiku-4-5", messages=[{"role": "user", "content": "Hi"}]
            )
    error: Any = raised.value.body
    assert raised.value.status_code == invalid.response.status
    assert (error["type"], error["message"]) == (wire["error"]["type"], wire["error"]["message"])
    assert raised.value.request_id == wire["request_id"]  # the SDK reads x-request-id
    assert raised.value.response.headers["request-id"] == wire["request_id"]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def test_an_upstream_that_refuses_the_connection_falls_back(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    routes = {"house": {"upstream": "groq:qwen/qwen3-32b", "fallbacks": ["openai:gpt-4.1-mini"]}}
    options = {"groq": {"base_url": f"http://{LOOPBACK}:{_closed_port()}"}}
    with (
        serve(models=routes, upstreams=options) as gateway,
        upstream_replay(CHAT_ANSWER) as replay,
    ):
        answer = post(gateway.base_url, "/v1/chat/completions", chat_body("house"))
    assert answer.status_code == 200
    assert answer.json()["choices"][0]["message"]["content"] == ANSWER_TEXT
    assert answer.headers["x-interlingua-upstream"] == "openai:gpt-4.1-mini"
    assert [request.url.host for request in replay.requests] == ["api.openai.com"]
    (line,) = gateway_log.messages
    assert "fallbacks=1 (groq:qwen/qwen3-32b: " in line


OVERLOADED = Interaction(
    RecordedRequest("POST", "https://api.anthropic.com/v1/messages", {}, None, None),
    RecordedResponse(
        529,
        {"content-type": ("application/json",), "request-id": ("req_011CXe9Ov3Rl7Dw2Kq5Ty8Hn",)},
        json.dumps(
            {
                "type": "error",
                "error": {"type": "overloaded_error", "message": "Overloaded"},
                "request_id": "req_011CXe9Ov3Rl7Dw2Kq5Ty8Hn",
            }
        ).encode(),
        None,
        None,
    ),
)


def test_an_overloaded_upstream_before_a_stream_falls_back(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    streamed = recorded("openai/chat_stream_parallel_tool_calls.json")[0]
    routes = {
        "house": {"upstream": "anthropic:claude-haiku-4-5", "fallbacks": ["openai:gpt-4o-mini"]}
    }
    with (
        serve(models=routes, log="json") as gateway,
        upstream_replay(OVERLOADED, streamed) as replay,
    ):
        answer = post(gateway.base_url, "/v1/messages", messages_body("house", stream=True))
    events = sse_events(answer.text)
    assert [request.url.host for request in replay.requests] == [
        "api.anthropic.com",
        "api.openai.com",
    ]
    assert answer.headers["x-interlingua-upstream"] == "openai:gpt-4o-mini"
    assert float(answer.headers["x-interlingua-overhead-ms"]) >= 0
    assert [name for name, _ in events][-1] == "message_stop"
    # The stream's line, written when it is over: its usage, the fallback, the times.
    (line,) = gateway_log.messages
    logged = json.loads(line)
    (usage,) = [p["usage"] for p in streamed.response.stream_payloads() if p.get("usage")]
    assert (logged["model"], logged["upstream"], logged["status"]) == (
        "house",
        "openai:gpt-4o-mini",
        200,
    )
    assert logged["usage"] == {
        "input_tokens": usage["prompt_tokens"],
        "output_tokens": usage["completion_tokens"],
        "total_tokens": usage["total_tokens"],
    }
    assert logged["fallbacks"] == [
        "anthropic:claude-haiku-4-5: anthropic 529 overloaded_error: Overloaded"
    ]
    assert logged["gateway_ms"] == float(answer.headers["x-interlingua-overhead-ms"])
    assert logged["total_ms"] >= logged["gateway_ms"]


def test_no_fallback_once_a_stream_has_begun() -> None:
    """A retryable error after the first event ends the client's stream: what went
    out cannot be taken back, so the fallback is not asked."""
    broken = recorded("anthropic/stream_overloaded.json")[0]
    routes = {
        "house": {"upstream": "anthropic:claude-haiku-4-5", "fallbacks": ["openai:gpt-4.1-mini"]}
    }
    wire = list(broken.response.stream_payloads())
    words = "".join(p["delta"].get("text", "") for p in wire if p["type"] == "content_block_delta")
    with serve(models=routes) as gateway, upstream_replay(broken, CHAT_ANSWER) as replay:
        answer = post(gateway.base_url, "/v1/chat/completions", chat_body("house", stream=True))
    events = sse_events(answer.text)
    assert [request.url.host for request in replay.requests] == ["api.anthropic.com"]
    sent = "".join(
        choice["delta"].get("content") or ""
        for _, data in events[:-1]
        for choice in data["choices"]
    )
    assert sent == words
    assert events[-1][1]["error"]["message"].endswith(f": {wire[-1]['error']['message']}")
    assert "[DONE]" not in [data for _, data in events]


def test_an_upstream_answer_that_cannot_be_read_is_a_502_naming_the_place() -> None:
    wire = {**CHAT_ANSWER.response.json, "choices": [{"index": 0, "message": "Sunny."}]}
    broken = replace(
        CHAT_ANSWER,
        response=replace(CHAT_ANSWER.response, body=json.dumps(wire).encode(), json=wire),
    )
    with serve() as gateway, upstream_replay(broken):
        answer = post(gateway.base_url, "/v1/messages", messages_body("openai:gpt-4.1-mini"))
    kind, message = anthropic_error(answer.json())
    assert (answer.status_code, kind) == (502, "api_error")
    assert message.startswith("the upstream's answer could not be read: ")
    assert "choices[0].message" in message


def test_a_request_the_upstream_s_api_cannot_take_is_a_400_naming_the_place() -> None:
    """A call the history ends with, its result not given, would change the
    meaning if left out."""
    call = {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {}}
    body = messages_body("openai:gpt-4.1-mini")
    body["messages"] += [{"role": "assistant", "content": [call]}]
    with serve() as gateway, upstream_replay(CHAT_ANSWER) as replay:
        answer = post(gateway.base_url, "/v1/messages", body)
    kind, message = anthropic_error(answer.json())
    assert (answer.status_code, kind) == (400, "invalid_request_error")
    assert "at messages[1].parts[0]: tool call 'toolu_01' has no result" in message
    assert replay.requests == []


# --- streams that break ---
#
# Each way an upstream stream breaks after its first event ends the client's
# stream with its API's error event, whose message (and the log line's error)
# names the upstream and what happened: cut off after N of its events, timed
# out after S s, an unreadable payload at its place, or its own error's type
# and message.

HAIKU = "anthropic:claude-haiku-4-5"
THINKING_STREAM = recorded("anthropic/stream_thinking_tool_use.json")[0]


def _cut(interaction: Interaction, before: bytes) -> Interaction:
    body = interaction.response.body
    return replace(
        interaction, response=replace(interaction.response, body=body[: body.index(before)])
    )


def _with_body(interaction: Interaction, body: bytes) -> Interaction:
    return replace(interaction, response=replace(interaction.response, body=body))


def wire_events(body: bytes) -> list[bytes]:
    """The SSE events of a stream's body, as the upstream sent them."""
    return [event for event in body.split(b"\n\n") if event.strip()]


def payload_count(body: bytes) -> int:
    """The payloads an Anthropic stream's body gives: its events but `ping`,
    which the anthropic SDK passes on to no one."""
    return sum(not event.startswith(b"event: ping") for event in wire_events(body))


CUT_ANTHROPIC = _cut(THINKING_STREAM, b"event: message_delta")
# Its payloads up to the cut: what the gateway read before the stream stopped.
CUT_AFTER = payload_count(CUT_ANTHROPIC.response.body)

# The client API -> the message of its stream's last event, which must say it failed.
LAST_EVENT = {
    "/v1/messages": lambda events: (
        events[-1][0] == "error" and events[-1][1]["type"] == "error",
        events[-1][1]["error"]["message"],
    ),
    "/v1/chat/completions": lambda events: (
        "error" in events[-1][1],
        events[-1][1]["error"]["message"],
    ),
    "/v1/responses": lambda events: (
        events[-1][0] == "response.failed",
        events[-1][1]["response"]["error"]["message"],
    ),
}


def sse_events(text: str) -> list[tuple[str | None, Any]]:
    events = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        data = lines["data"]
        events.append((lines.get("event"), data if data == "[DONE]" else json.loads(data)))
    return events


def stream_body(path: str, model: str) -> dict[str, Any]:
    """A streamed request in the API at `path`."""
    if path == "/v1/responses":
        return {"model": model, "input": "Hi", "stream": True}
    if path == "/v1/messages":
        return messages_body(model, stream=True)
    return chat_body(model, stream=True)


def failed_stream(path: str, answer: httpx.Response) -> str:
    """The message of the error event that ends the client's stream, which must
    end with one: no `[DONE]`, no clean end."""
    events = sse_events(answer.text)
    assert answer.status_code == 200
    assert "[DONE]" not in [data for _, data in events]
    failed, message = LAST_EVENT[path](events)
    assert failed, events[-1]
    return str(message)


def logged_error(log: pytest.LogCaptureFixture) -> str:
    (line,) = log.messages
    return str(json.loads(line)["error"])


@pytest.mark.parametrize("path", list(LAST_EVENT))
def test_a_stream_cut_off_upstream_ends_with_an_error_event_naming_it(
    path: str, gateway_log: pytest.LogCaptureFixture
) -> None:
    with serve(log="json") as gateway, upstream_replay(CUT_ANTHROPIC):
        answer = post(gateway.base_url, path, stream_body(path, HAIKU))
    message = failed_stream(path, answer)
    assert len(sse_events(answer.text)) > 2  # what had come went on first
    assert message == (
        f"the upstream {HAIKU}'s stream was cut off after {CUT_AFTER} events "
        "(the stream was cut off: it ended before its last event)"
    )
    assert logged_error(gateway_log) == message


def _replace_payload(interaction: Interaction, index: int, data: bytes) -> Interaction:
    """The stream with the data of its event `index` replaced by `data`."""
    events = wire_events(interaction.response.body)
    name = events[index].split(b"\n")[0]
    events[index] = name + b"\ndata: " + data
    return _with_body(interaction, b"\n\n".join(events) + b"\n\n")


# A thinking delta, broken two ways: what an unreadable payload's event names.
THINKING_DELTA = b'{"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta"'
UNREADABLE = {
    "not-json": (THINKING_DELTA + b', "thinking": "Two', "the payload is not JSON: "),
    "wrong-shape": (
        THINKING_DELTA + b', "thinking": 7}}',
        ".delta.thinking: expected a string, got an integer",
    ),
}


@pytest.mark.parametrize("broken", list(UNREADABLE))
@pytest.mark.parametrize("path", ["/v1/messages", "/v1/chat/completions"])
def test_an_unreadable_payload_mid_stream_is_named_at_its_place(
    broken: str, path: str, gateway_log: pytest.LogCaptureFixture
) -> None:
    data, read = UNREADABLE[broken]
    wire = wire_events(THINKING_STREAM.response.body)
    index = next(n for n, event in enumerate(wire) if b'"thinking_delta"' in event)
    place = payload_count(b"\n\n".join(wire[:index]))  # the payloads read before it
    with (
        serve(log="json") as gateway,
        upstream_replay(_replace_payload(THINKING_STREAM, index, data)),
    ):
        answer = post(gateway.base_url, path, stream_body(path, HAIKU))
    message = failed_stream(path, answer)
    assert message.startswith(
        f"the upstream {HAIKU} sent an unreadable payload: "
        f"invalid anthropic body at events[{place}]"
    )
    assert read in message
    assert logged_error(gateway_log) == message


OVERLOADED_MID_STREAM = recorded("anthropic/stream_overloaded.json")[0]


@pytest.mark.parametrize("path", list(LAST_EVENT))
def test_an_upstream_error_mid_stream_keeps_its_type_and_names_the_upstream(
    path: str, gateway_log: pytest.LogCaptureFixture
) -> None:
    wire = OVERLOADED_MID_STREAM.response.stream_payloads()
    error = wire[-1]["error"]
    with serve(log="json") as gateway, upstream_replay(OVERLOADED_MID_STREAM):
        answer = post(gateway.base_url, path, stream_body(path, HAIKU))
    message = failed_stream(path, answer)
    assert message == (
        f"the upstream {HAIKU} sent an error after {len(wire) - 1} events: "
        f"{error['type']}: {error['message']}"
    )
    assert logged_error(gateway_log) == message
    last = sse_events(answer.text)[-1][1]
    if path == "/v1/messages":  # the type an Anthropic client retries on, kept
        assert last["error"]["type"] == error["type"]
    if path == "/v1/chat/completions":
        assert last["error"]["type"] == error["type"]


def test_an_anthropic_sdk_reading_a_broken_stream_raises_the_named_error() -> None:
    """What Claude Code's SDK sees of an upstream cut off: its APIError, with
    the message that names the upstream."""
    with serve() as gateway, upstream_replay(CUT_ANTHROPIC):
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with (
            pytest.raises(anthropic.APIStatusError) as raised,
            client.messages.stream(**messages_body(HAIKU)) as events,
        ):
            events.get_final_message()
    assert f"the upstream {HAIKU}'s stream was cut off after {CUT_AFTER} events" in str(
        raised.value
    )
    assert raised.value.body["error"]["type"] == "api_error"  # type: ignore[index]


# --- upstreams on the loopback that answer slowly, or never ---


class SilentUpstream:
    """Accepts connections and reads requests; answers with `head` (None: nothing),
    then waits until the peer closes, noting it in `closed` (or, with `drop`,
    closes the connection itself)."""

    def __init__(self, head: bytes | None = None, *, drop: bool = False) -> None:
        self.head = head
        self.drop = drop
        self.closed = threading.Event()
        self.received = threading.Event()
        self._socket = socket.create_server((LOOPBACK, 0))
        self._socket.settimeout(BOUND)
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self._socket.getsockname()[1]}"

    def _serve(self) -> None:
        try:
            connection, _ = self._socket.accept()
        except OSError:
            return
        with connection:
            connection.settimeout(BOUND)
            try:
                connection.recv(65536)
                self.received.set()
                if self.head is not None:
                    connection.sendall(self.head)
                while not self.drop and connection.recv(65536):
                    pass
            except OSError:
                pass
            self.closed.set()

    def __enter__(self) -> SilentUpstream:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._socket.close()
        self._thread.join(BOUND)


FIRST_CHUNK = (
    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n"
    b'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m",'
    b'"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}\n\n'
)


def test_a_client_that_disconnects_cancels_the_upstream_call() -> None:
    with SilentUpstream(FIRST_CHUNK) as upstream:
        options = {"openai": {"base_url": f"{upstream.base_url}/v1"}}
        with serve(upstreams=options) as gateway:
            request = httpx.Request(
                "POST",
                f"{gateway.base_url}/v1/messages",
                json=messages_body("openai:gpt-4.1-mini", stream=True),
                headers={"x-api-key": KEY},
            )
            with httpx.Client(timeout=BOUND) as client:
                answer = client.send(request, stream=True)
                first = next(answer.iter_lines())
                answer.close()
            assert first == "event: message_start"
            assert upstream.closed.wait(BOUND), "the upstream call went on"


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_client_that_leaves_before_the_answer_cancels_the_upstream_call(
    stream: bool, gateway_log: pytest.LogCaptureFixture
) -> None:
    """The upstream has the request and says nothing; the client's SDK call is
    cancelled (its connection dropped) while the gateway waits for the answer,
    a whole one or a stream's first event."""
    with SilentUpstream() as upstream:
        options = {"openai": {"base_url": f"{upstream.base_url}/v1"}}  # the default 600 s timeout
        with serve(upstreams=options) as gateway:

            async def ask_then_leave() -> bool:
                client = anthropic.AsyncAnthropic(
                    api_key=KEY, base_url=gateway.base_url, max_retries=0, timeout=BOUND
                )
                async with client:
                    body = messages_body("openai:gpt-4.1-mini", stream=stream)
                    call = asyncio.create_task(client.messages.create(**body))
                    asked = await asyncio.to_thread(upstream.received.wait, BOUND)
                    call.cancel()
                    with pytest.raises(asyncio.CancelledError):
                        await call
                return asked

            assert asyncio.run(ask_then_leave()), "the request did not reach the upstream"
            assert upstream.closed.wait(BOUND), "the upstream call went on"
    (line,) = gateway_log.messages
    assert " 499 " in line
    assert "the client disconnected: the upstream call was cancelled" in line


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_an_upstream_that_never_answers_is_a_504_in_time(stream: bool) -> None:
    with SilentUpstream() as upstream:
        options = {"openai": {"base_url": f"{upstream.base_url}/v1", "timeout": 0.5}}
        with serve(upstreams=options) as gateway:
            client = opened(
                anthropic.Anthropic(
                    api_key=KEY, base_url=gateway.base_url, max_retries=0, timeout=BOUND
                )
            )
            started = time.monotonic()
            with pytest.raises(anthropic.APIStatusError) as raised:
                client.messages.create(**messages_body("openai:gpt-4.1-mini", stream=stream))
            waited = time.monotonic() - started
    assert upstream.received.is_set()
    assert raised.value.status_code == 504
    assert raised.value.body["error"]["type"] == "timeout_error"  # Anthropic's type for a 504
    assert waited < BOUND / 2  # the 0.5 s upstream timeout answered, not the client's own


@pytest.mark.parametrize("path", list(LAST_EVENT))
def test_an_upstream_that_stalls_mid_stream_ends_the_client_s_stream_in_time(
    path: str, gateway_log: pytest.LogCaptureFixture
) -> None:
    with SilentUpstream(FIRST_CHUNK) as upstream:
        options = {"openai": {"base_url": f"{upstream.base_url}/v1", "timeout": 0.5}}
        with serve(upstreams=options, log="json") as gateway:
            started = time.monotonic()
            answer = post(gateway.base_url, path, stream_body(path, "openai:gpt-4.1-mini"))
            waited = time.monotonic() - started
    message = failed_stream(path, answer)
    assert message == (
        "the upstream openai:gpt-4.1-mini's stream timed out after 1 event: no event came in 0.5 s"
    )
    assert logged_error(gateway_log) == message
    assert "Hel" in answer.text  # what had come went on first
    assert waited < BOUND / 2  # the upstream's 0.5 s read timeout answered
    if path == "/v1/messages":  # Anthropic's type for a timeout
        assert sse_events(answer.text)[-1][1]["error"]["type"] == "timeout_error"


def dropping_upstream(events: bytes) -> SilentUpstream:
    """An upstream that answers a stream in chunks, sends `events` as the first
    chunk, then drops the connection before the last (empty) chunk."""
    head = (
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
    )
    return SilentUpstream(head + b"%x\r\n%s\r\n" % (len(events), events), drop=True)


def test_a_connection_dropped_mid_stream_ends_with_an_error_event_naming_it(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    sent = b"\n\n".join(wire_events(THINKING_STREAM.response.body)[:4]) + b"\n\n"
    with dropping_upstream(sent) as upstream:
        options = {"anthropic": {"base_url": upstream.base_url}}
        with serve(upstreams=options, log="json") as gateway:
            answer = post(gateway.base_url, "/v1/messages", stream_body("/v1/messages", HAIKU))
    message = failed_stream("/v1/messages", answer)
    after = payload_count(sent)
    assert message.startswith(f"the upstream {HAIKU}'s stream was cut off after {after} events (")
    assert "incomplete chunked read" in message  # the HTTP client's own words
    assert logged_error(gateway_log) == message


# --- requests the gateway refuses ---


# The client API -> its error's type and message in the body it answers with.
def anthropic_error(body: Any) -> tuple[str, str]:
    return body["error"]["type"], body["error"]["message"]


def openai_error(body: Any) -> tuple[str, str]:
    return body["error"]["type"], body["error"]["message"]


REFUSED = {
    "/v1/messages": anthropic_error,
    "/v1/chat/completions": openai_error,
    "/v1/responses": openai_error,
}


@pytest.mark.parametrize("path", list(REFUSED))
def test_a_body_too_large_is_a_413(path: str) -> None:
    with serve(max_body_bytes=2000) as gateway:
        answer = post(
            gateway.base_url, path, messages_body("openai:gpt-4.1-mini", metadata={"x": "y" * 3000})
        )
    kind, message = REFUSED[path](answer.json())
    assert answer.status_code == 413
    assert "larger than the gateway takes (2000 bytes)" in message
    assert kind == ("request_too_large" if path == "/v1/messages" else "invalid_request_error")


def test_a_chunked_body_too_large_is_a_413_once_the_limit_is_passed() -> None:
    """A body sent without its length is counted as it comes."""

    def pieces() -> Iterator[bytes]:
        yield json.dumps(messages_body("openai:gpt-4.1-mini"))[:-1].encode()
        for _ in range(10):
            yield b', "metadata": {"x": "' + b"y" * 500 + b'"}'
        yield b"}"

    with serve(max_body_bytes=2000) as gateway:
        answer = httpx.post(
            f"{gateway.base_url}/v1/messages",
            content=pieces(),
            headers={"x-api-key": KEY, "content-type": "application/json"},
            timeout=BOUND,
        )
    assert answer.request.headers["transfer-encoding"] == "chunked"
    kind, message = anthropic_error(answer.json())
    assert (answer.status_code, kind) == (413, "request_too_large")
    assert "larger than the gateway takes (2000 bytes)" in message


@pytest.mark.parametrize("path", list(REFUSED))
def test_a_body_that_is_not_json_is_a_400(path: str) -> None:
    with serve() as gateway:
        answer = post(gateway.base_url, path, b'{"model": ')
    kind, message = REFUSED[path](answer.json())
    assert (answer.status_code, kind) == (400, "invalid_request_error")
    assert message.startswith("the body is not JSON")


@pytest.mark.parametrize("path", list(REFUSED))
def test_a_body_the_api_cannot_read_is_a_400_naming_the_place(path: str) -> None:
    with serve() as gateway:
        answer = post(
            gateway.base_url,
            path,
            {"model": "openai:gpt-4.1-mini", "messages": [{"role": 7}], "input": 7},
        )
    kind, message = REFUSED[path](answer.json())
    assert (answer.status_code, kind) == (400, "invalid_request_error")
    assert "input" in message or "messages[0].role" in message


def wrong_key_calls(base_url: str) -> dict[str, Any]:
    bad = fake_key("gk-", "WrongWrongWrongWrong")
    user = [{"role": "user", "content": "Hi"}]
    return {
        "anthropic": lambda: opened(
            anthropic.Anthropic(api_key=bad, base_url=base_url, max_retries=0)
        ).messages.create(model="m", max_tokens=8, messages=user),
        "openai": lambda: opened(
            openai.OpenAI(api_key=bad, base_url=f"{base_url}/v1", max_retries=0)
        ).chat.completions.create(model="m", messages=user),
        "openai-responses": lambda: opened(
            openai.OpenAI(api_key=bad, base_url=f"{base_url}/v1", max_retries=0)
        ).responses.create(model="m", input="Hi"),
        "groq": lambda: opened(
            groq.Groq(api_key=bad, base_url=f"{base_url}/groq", max_retries=0)
        ).chat.completions.create(model="m", messages=user),
        "mistral": lambda: opened(
            Mistral(api_key=bad, server_url=f"{base_url}/mistral")
        ).chat.complete(model="m", messages=user),
    }


AUTH_ERRORS = {
    "anthropic": anthropic.AuthenticationError,
    "openai": openai.AuthenticationError,
    "openai-responses": openai.AuthenticationError,
    "groq": groq.AuthenticationError,
    "mistral": errors.SDKError,
}


@pytest.mark.parametrize("client", list(AUTH_ERRORS))
def test_a_wrong_gateway_key_is_each_api_s_401(
    client: str, gateway_log: pytest.LogCaptureFixture
) -> None:
    with serve() as gateway, pytest.raises(AUTH_ERRORS[client]) as raised:
        wrong_key_calls(gateway.base_url)[client]()
    error: Any = raised.value
    assert getattr(error, "status_code", None) == 401
    assert "invalid gateway key" in str(error)
    (line,) = gateway_log.messages
    assert " 401 " in line
    assert "WrongWrong" not in line
    assert KEY not in line


def test_an_upstream_error_that_echoes_the_upstream_key_does_not_pass_it_on(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    wire = {
        "error": {
            "message": f"Incorrect API key provided: {UPSTREAM_KEY}.",
            "type": "invalid_request_error",
            "param": None,
            "code": "invalid_api_key",
        }
    }
    refused = Interaction(
        RecordedRequest("POST", "https://api.openai.com/v1/chat/completions", {}, None, None),
        RecordedResponse(
            401, {"content-type": ("application/json",)}, json.dumps(wire).encode(), wire, None
        ),
    )
    with serve() as gateway, upstream_replay(refused):
        answer = post(gateway.base_url, "/v1/messages", messages_body("openai:gpt-4.1-mini"))
    kind, message = anthropic_error(answer.json())
    assert (answer.status_code, kind) == (401, "authentication_error")
    assert message.startswith("Incorrect API key provided: ")
    (line,) = gateway_log.messages
    for seen in (answer.text, str(answer.headers), line):
        assert UPSTREAM_KEY not in seen
        assert KEY not in seen


def test_gateway_keys_come_from_the_environment_too(monkeypatch: pytest.MonkeyPatch) -> None:
    other = fake_key("gk-", "FromTheEnvironment00")
    monkeypatch.setenv("INTERLINGUA_GATEWAY_KEYS", f" {other} ,")
    with (
        serve(models={"m": {"upstream": "openai:gpt-4.1-mini"}}) as gateway,
        upstream_replay(CHAT_ANSWER),
    ):
        answer = post(gateway.base_url, "/v1/chat/completions", chat_body("m"), key=other)
        refused = post(gateway.base_url, "/v1/chat/completions", chat_body("m"), key=None)
    assert answer.status_code == 200
    assert refused.status_code == 401


@pytest.mark.parametrize("path", list(REFUSED))
def test_a_model_with_no_route_is_a_404(path: str) -> None:
    with serve() as gateway:
        answer = post(gateway.base_url, path, {**messages_body("gpt-nowhere"), "input": "Hi"})
    kind, message = REFUSED[path](answer.json())
    assert answer.status_code == 404
    assert kind == ("not_found_error" if path == "/v1/messages" else "invalid_request_error")
    assert message.startswith("model 'gpt-nowhere' has no route")


# --- losses ---


def test_losses_go_in_a_header_and_the_log_line(gateway_log: pytest.LogCaptureFixture) -> None:
    body = {**ANTHROPIC_TOOL_TURN, "model": "openai:gpt-4.1-mini"}
    with serve(log="json") as gateway, upstream_replay(CHAT_ANSWER) as replay:
        answer = post(gateway.base_url, "/v1/messages", body)
    assert answer.status_code == 200
    assert answer.headers["x-interlingua-losses"] == "1; messages[1].parts[0] dropped setting"
    assert float(answer.headers["x-interlingua-overhead-ms"]) >= 0
    (sent,) = replay.sent
    assert [message["role"] for message in sent["messages"]] == ["user", "assistant", "tool"]
    (line,) = gateway_log.messages
    logged = json.loads(line)
    assert logged["upstream"] == "openai:gpt-4.1-mini"
    assert logged["status"] == 200
    assert logged["losses"][0].startswith("messages[1].parts[0]: dropped (setting): ")
    usage = CHAT_ANSWER.response.json["usage"]
    assert logged["usage"]["input_tokens"] == usage["prompt_tokens"]
    assert logged["usage"]["output_tokens"] == usage["completion_tokens"]
    assert logged["upstream_ms"] > 0
    assert logged["gateway_ms"] == float(answer.headers["x-interlingua-overhead-ms"])
    assert logged["total_ms"] >= logged["upstream_ms"] + logged["gateway_ms"] - 0.01
    assert UPSTREAM_KEY not in line


PERPLEXITY_ANSWER = recorded("perplexity/citations_answer.json")[0]
PERPLEXITY_STREAM = recorded("perplexity/stream_think_citations.json")[0]
# Perplexity's answer fields that an Anthropic message has no place for, by name.
SOURCES_LEFT_OUT = [
    "provider_data.perplexity.fields.citations",
    "provider_data.perplexity.fields.search_results",
]


def test_an_answer_s_fields_the_client_s_api_has_no_place_for_are_named(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    with serve(log="json") as gateway, upstream_replay(PERPLEXITY_ANSWER):
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        raw = client.messages.with_raw_response.create(**messages_body("perplexity:sonar"))
    message = raw.parse()
    assert (
        message.content[0].text
        == PERPLEXITY_ANSWER.response.json["choices"][0]["message"]["content"]
    )
    assert "citations" not in raw.http_response.json()
    header = raw.headers["x-interlingua-answer-losses"]
    assert [f"{path} dropped" in header for path in SOURCES_LEFT_OUT] == [True, True]
    (line,) = gateway_log.messages
    logged = [loss.partition(": ")[0] for loss in json.loads(line)["answer_losses"]]
    assert [path for path in logged if path.startswith("provider_data.")] == SOURCES_LEFT_OUT


def test_a_streamed_answer_s_fields_are_named_in_the_log_line(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    with serve(log="json") as gateway, upstream_replay(PERPLEXITY_STREAM):
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with client.messages.stream(**messages_body("perplexity:sonar-reasoning-pro")) as events:
            message = events.get_final_message()
    content = "".join(
        payload["choices"][0]["delta"]["content"]
        for payload in PERPLEXITY_STREAM.response.stream_payloads()
    )
    assert [block.text for block in message.content] == [content.rpartition("</think>")[2].strip()]
    (line,) = gateway_log.messages
    logged = [loss.partition(": ")[0] for loss in json.loads(line)["answer_losses"]]
    assert [path for path in logged if path.startswith("provider_data.")] == SOURCES_LEFT_OUT


def test_strict_refuses_a_request_with_losses_naming_each() -> None:
    body = {**ANTHROPIC_TOOL_TURN, "model": "openai:gpt-4.1-mini"}
    with serve(strict=True) as gateway, upstream_replay(CHAT_ANSWER) as replay:
        answer = post(gateway.base_url, "/v1/messages", body)
    kind, message = anthropic_error(answer.json())
    assert (answer.status_code, kind) == (400, "invalid_request_error")
    assert (
        "strict: the upstream openai:gpt-4.1-mini cannot take it all: "
        "messages[1].parts[0]: dropped (setting): " in message
    )
    assert replay.requests == []


# Claude Code's cache hints and context editing on a tool turn whose thinking
# block (another provider's reasoning) cannot go to Chat Completions.
CACHED_TOOL_TURN = {
    **ANTHROPIC_TOOL_TURN,
    "model": "openai:gpt-4.1-mini",
    "system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
    "context_management": {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]},
}


def test_strict_content_sends_what_loses_only_hints_and_settings(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    with serve(strict="content", log="json") as gateway, upstream_replay(CHAT_ANSWER) as replay:
        answer = post(gateway.base_url, "/v1/messages", CACHED_TOOL_TURN)
    assert answer.status_code == 200
    assert answer.headers["x-interlingua-losses"] == (
        "3; messages[2].parts[0] dropped setting, "
        "provider_options.anthropic.context_management dropped hint, "
        "messages[0].parts[0].provider_data.anthropic.fields.cache_control dropped hint"
    )
    (sent,) = replay.sent
    assert sent["messages"][0] == {"role": "system", "content": "Be brief."}
    (line,) = gateway_log.messages
    assert [loss.split(": ")[1] for loss in json.loads(line)["losses"]] == [
        "dropped (setting)",
        "dropped (hint)",
        "dropped (hint)",
    ]


def test_strict_setting_refuses_a_setting_lost_and_names_no_hint() -> None:
    with serve(strict="setting") as gateway, upstream_replay(CHAT_ANSWER) as replay:
        answer = post(gateway.base_url, "/v1/messages", CACHED_TOOL_TURN)
    kind, message = anthropic_error(answer.json())
    assert (answer.status_code, kind) == (400, "invalid_request_error")
    assert message.endswith(
        "cannot take it all: messages[2].parts[0]: dropped (setting): "
        "openai takes no reasoning back (made by anthropic)"
    )
    assert replay.requests == []
