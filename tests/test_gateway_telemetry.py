"""The gateway's OpenTelemetry spans, on a real server (uvicorn on the
loopback, the upstreams answered by the project's recordings), read with the
SDK's in-memory exporter: each request one SERVER span continuing the trace
its client sent (`traceparent`), each upstream call (a fallback's each, a
body sent as it came too) a CLIENT span under it, whose trace context goes
with the request upstream."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest
from opentelemetry import trace
from opentelemetry.propagate import inject
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import SpanKind, StatusCode

from conftest import fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, Replay
from otel_sdk import EXPORTER, installed

KEY = fake_key("gk-")
RATE_LIMITED = recorded("mistral/error_rate_limited.json")[0]
CHAT_ANSWER = recorded("openai/chat_tool_round_trip.json")[1]
CHAT_STREAM = recorded("openai/chat_stream_parallel_tool_calls.json")[0]
ANTHROPIC_ANSWER = recorded("anthropic/tool_round_trip_with_thinking.json")[1]
QUESTION = {"role": "user", "content": "Is it raining in Lisbon right now?"}
FALLING_BACK = {
    "house": {"upstream": "mistral:mistral-large-latest", "fallbacks": ["openai:gpt-4.1-mini"]}
}


@pytest.fixture(autouse=True)
def _clients_closed() -> Iterator[None]:
    installed()
    yield
    close_opened()


def serve(routes: dict[str, Any]) -> GatewayServer:
    settings = load(None, keys=[KEY], models=routes)
    return GatewayServer(create_app(settings, default_key=fake_key("sk-")))


def upstream_replay(*interactions: Interaction) -> Replay:
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def traceparent(span: ReadableSpan) -> str:
    """W3C's `traceparent` for `span`, written here from its ids."""
    context = span.get_span_context()
    assert context is not None
    return f"00-{context.trace_id:032x}-{context.span_id:016x}-{context.trace_flags:02x}"


def finished() -> tuple[ReadableSpan, ReadableSpan, list[ReadableSpan]]:
    """The application's span, the gateway's SERVER span and its upstream calls'
    CLIENT spans, in order (a client SDK's own spans, where it makes them, aside)."""
    spans = list(EXPORTER.get_finished_spans())
    (server,) = [span for span in spans if span.kind is SpanKind.SERVER]
    (caller,) = [span for span in spans if span.name == "agent turn"]
    calls = [span for span in spans if span.kind is SpanKind.CLIENT and span.name[:5] == "chat "]
    return caller, server, sorted(calls, key=lambda span: span.start_time or 0)


def assert_continues(server: ReadableSpan, caller: ReadableSpan) -> None:
    """`server` continues the trace the application's request went with (the
    server runs in a thread of its own: only the `traceparent` sent links them)."""
    assert server.parent is not None
    assert server.parent.is_remote
    assert server.context.trace_id == caller.context.trace_id


def parent_of(span: ReadableSpan) -> int:
    assert span.parent is not None
    return span.parent.span_id


def asked_in_a_trace(ask: Any) -> Any:
    """`ask(headers)` inside an application's span, its trace context in `headers`."""
    with trace.get_tracer("an application").start_as_current_span("agent turn"):
        headers: dict[str, str] = {}
        inject(headers)
        return ask(headers)


def test_a_request_is_a_server_span_in_its_client_s_trace_over_each_upstream_tried() -> None:
    with serve(FALLING_BACK) as gateway, upstream_replay(RATE_LIMITED, CHAT_ANSWER) as replay:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        message = asked_in_a_trace(
            lambda headers: client.messages.create(
                model="house", max_tokens=64, messages=[QUESTION], extra_headers=headers
            )
        )

    caller, server, (refused, answered) = finished()
    assert message.content
    assert [body["model"] for body in replay.sent] == ["mistral-large-latest", "gpt-4.1-mini"]
    assert_continues(server, caller)
    assert server.name == "POST /v1/messages"
    assert [parent_of(refused), parent_of(answered)] == [server.context.span_id] * 2
    assert [refused.name, answered.name] == ["chat mistral-large-latest", "chat gpt-4.1-mini"]
    assert refused.status.status_code is StatusCode.ERROR
    assert (refused.attributes or {})["error.type"] == RATE_LIMITED.response.json["type"]
    assert (refused.attributes or {})["gen_ai.provider.name"] == "mistral_ai"
    wire = CHAT_ANSWER.response.json
    assert (answered.attributes or {})["gen_ai.response.id"] == wire["id"]
    assert (answered.attributes or {})["gen_ai.usage.output_tokens"] == (
        wire["usage"]["completion_tokens"]
    )
    # Each upstream request goes with the trace context of its own call's span.
    assert [request.headers["traceparent"] for request in replay.requests] == [
        traceparent(refused),
        traceparent(answered),
    ]


def test_a_body_sent_as_it_came_is_a_client_span_too() -> None:
    routes = {"claude": {"upstream": "anthropic:claude-sonnet-4-5"}}
    with serve(routes) as gateway, upstream_replay(ANTHROPIC_ANSWER) as replay:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        asked_in_a_trace(
            lambda headers: client.messages.create(
                model="claude", max_tokens=300, messages=[QUESTION], extra_headers=headers
            )
        )

    caller, server, (call,) = finished()
    wire = ANTHROPIC_ANSWER.response.json
    attributes = call.attributes or {}
    assert parent_of(call) == server.context.span_id
    assert_continues(server, caller)
    assert (attributes["gen_ai.provider.name"], attributes["gen_ai.request.max_tokens"]) == (
        "anthropic",
        replay.sent[0]["max_tokens"],
    )
    assert attributes["gen_ai.response.id"] == wire["id"]
    assert attributes["gen_ai.response.finish_reasons"] == (wire["stop_reason"],)
    assert attributes["gen_ai.usage.output_tokens"] == wire["usage"]["output_tokens"]
    (request,) = replay.requests
    assert request.headers["traceparent"] == traceparent(call)


def test_a_streamed_answer_s_spans_end_when_the_stream_does() -> None:
    routes = {"gpt": {"upstream": "openai:gpt-4o-mini"}}
    with serve(routes) as gateway, upstream_replay(CHAT_STREAM) as replay:
        client = opened(openai.OpenAI(api_key=KEY, base_url=f"{gateway.base_url}/v1"))

        def ask(headers: dict[str, str]) -> list[Any]:
            chunks = client.chat.completions.create(
                model="gpt", messages=[QUESTION], stream=True, extra_headers=headers
            )
            return list(chunks)

        chunks = asked_in_a_trace(ask)

    caller, server, (call,) = finished()
    attributes = call.attributes or {}
    assert chunks
    ((sent, request),) = zip(replay.sent, replay.requests, strict=True)
    assert (sent["model"], sent["stream"]) == ("gpt-4o-mini", True)
    assert request.headers["traceparent"] == traceparent(call)
    assert_continues(server, caller)
    assert parent_of(call) == server.context.span_id
    assert attributes["gen_ai.request.stream"] is True
    assert attributes["gen_ai.response.time_to_first_chunk"] > 0
    payloads = CHAT_STREAM.response.stream_payloads()
    assert attributes["gen_ai.response.id"] == payloads[0]["id"]
    assert attributes["gen_ai.response.finish_reasons"] == tuple(
        choice["finish_reason"]
        for payload in payloads
        for choice in payload["choices"]
        if choice.get("finish_reason")
    )
    assert call.end_time is not None
    assert server.end_time is not None
    assert call.end_time <= server.end_time
