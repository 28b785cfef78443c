"""Bedrock's Converse API served to boto3: a real `bedrock-runtime` client, its
`endpoint_url` the gateway on 127.0.0.1 under uvicorn and its gateway key its
AWS access key id (botocore sends no bearer token over plain HTTP), calls `converse` and
`converse_stream` on a route to Anthropic's API, answered by recordings; what
boto3 returns is checked against the recorded Anthropic answer read without
the adapters, and the body sent upstream against the translation of the one
boto3 sent. A stream goes in Amazon's event stream (AWS's encoder, from
Python 3.12); errors come back typed as boto3 raises Bedrock's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import closing
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError, EventStreamError

from conftest import FIXTURES, fake_key
from gateway_server import LOOPBACK, GatewayServer, close_opened
from interlingua import translate_request
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, Replay, load_cassette
from interlingua_bedrock import can_write_event_streams

KEY = fake_key("gk-")
UPSTREAM_KEY = fake_key("sk-")
NOVA = "us.amazon.nova-micro-v1:0"
ROUTES = {"house-claude": {"upstream": "anthropic:claude-sonnet-4-5"}, NOVA: {}}
UPSTREAMS = {"bedrock": {"region": "us-east-1"}}
(TOOL_CALL, _) = load_cassette(
    FIXTURES / "anthropic" / "tool_round_trip_with_thinking.json"
).interactions
(STREAMED,) = load_cassette(FIXTURES / "anthropic" / "stream_thinking_tool_use.json").interactions
(LIMITED,) = load_cassette(FIXTURES / "anthropic" / "error_rate_limited.json").interactions
(BROKEN,) = load_cassette(FIXTURES / "anthropic" / "stream_overloaded.json").interactions
(CONVERSE,) = load_cassette(FIXTURES / "bedrock" / "converse_boto3.json").interactions
WEATHER = {
    "toolSpec": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "inputSchema": {
            "json": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            }
        },
    }
}
ASKED = {
    "messages": [{"role": "user", "content": [{"text": "Is it raining in Lisbon?"}]}],
    "system": [{"text": "Answer briefly."}],
    "inferenceConfig": {"maxTokens": 1024},
    "toolConfig": {"tools": [WEATHER]},
}
WRITES_STREAMS = pytest.mark.skipif(
    not can_write_event_streams(),
    reason="AWS's event-stream encoder (smithy-aws-event-stream) needs Python 3.12",
)


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


def serve() -> GatewayServer:
    routes = {**ROUTES, NOVA: {"upstream": f"bedrock:{NOVA}"}}
    settings = load(None, keys=[KEY], models=routes, upstreams=UPSTREAMS)
    return GatewayServer(create_app(settings, default_key=UPSTREAM_KEY))


def upstream(*interactions: Interaction) -> Replay:
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


@pytest.fixture(autouse=True)
def _close_boto3_clients() -> Iterator[None]:
    """boto3's clients keep their sockets to the server: closed when the test ends."""
    yield
    while _BOTO3_CLIENTS:
        _BOTO3_CLIENTS.pop().close()


_BOTO3_CLIENTS: list[Any] = []


def boto3_client(gateway: GatewayServer, suffix: str = "", key: str = KEY) -> Any:
    """A client as a user makes one for the gateway: its key as the access key id."""
    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=gateway.base_url + suffix,
        aws_access_key_id=key,
        aws_secret_access_key="unused",
        config=Config(retries={"total_max_attempts": 1}),
    )
    _BOTO3_CLIENTS.append(client)
    return client


def sent_upstream(*, stream: bool = False) -> dict[str, Any]:
    """The body the route's Anthropic upstream gets for `ASKED`: its translation,
    on the route's model, streamed where boto3 asked for a stream."""
    body = {**ASKED, "model": "claude-sonnet-4-5"}
    translated = translate_request(body, source="bedrock", target="anthropic").body
    return {**translated, "stream": True} if stream else translated


def recorded_blocks(answer: dict[str, Any]) -> tuple[str, list[tuple[str, Any]]]:
    """An Anthropic answer's text and tool calls, read from its JSON."""
    content = answer["content"]
    text = "".join(block["text"] for block in content if block["type"] == "text")
    calls = [(block["name"], block["input"]) for block in content if block["type"] == "tool_use"]
    return text, calls


@pytest.mark.parametrize("suffix", ["", "/bedrock"])
def test_boto3_s_converse_is_answered_from_another_api(suffix: str) -> None:
    with serve() as gateway, upstream(TOOL_CALL) as replay:
        answer = boto3_client(gateway, suffix).converse(modelId="house-claude", **ASKED)

    recorded = TOOL_CALL.response.json
    text, calls = recorded_blocks(recorded)
    blocks = answer["output"]["message"]["content"]
    assert "".join(block.get("text", "") for block in blocks) == text
    uses = [block["toolUse"] for block in blocks if "toolUse" in block]
    assert [(use["name"], use["input"]) for use in uses] == calls
    assert answer["stopReason"] == recorded["stop_reason"] == "tool_use"
    usage = recorded["usage"]
    assert (answer["usage"]["inputTokens"], answer["usage"]["outputTokens"]) == (
        usage["input_tokens"],
        usage["output_tokens"],
    )
    assert replay.sent == [sent_upstream()]


@WRITES_STREAMS
def test_boto3_s_converse_stream_is_answered_in_amazon_s_event_stream() -> None:
    with serve() as gateway, upstream(STREAMED) as replay:
        answer = boto3_client(gateway).converse_stream(modelId="house-claude", **ASKED)
        with closing(answer["stream"]) as stream:
            events = list(stream)

    recorded = [json.loads(event.data) for event in STREAMED.response.events or []]
    text = "".join(
        e["delta"].get("text", "") for e in recorded if e["type"] == "content_block_delta"
    )
    (stop,) = [e["delta"]["stop_reason"] for e in recorded if e["type"] == "message_delta"]
    (usage,) = [e["usage"] for e in recorded if e["type"] == "message_delta"]
    deltas = [
        event["contentBlockDelta"]["delta"] for event in events if "contentBlockDelta" in event
    ]
    assert "".join(delta.get("text", "") for delta in deltas) == text
    assert [next(iter(event)) for event in events][:1] == ["messageStart"]
    assert [event["messageStop"]["stopReason"] for event in events if "messageStop" in event] == [
        stop
    ]
    (metadata,) = [event["metadata"] for event in events if "metadata" in event]
    assert metadata["usage"]["outputTokens"] == usage["output_tokens"]
    assert replay.sent == [sent_upstream(stream=True)]


@WRITES_STREAMS
def test_an_upstream_stream_that_breaks_raises_in_boto3_after_what_arrived() -> None:
    """Anthropic's `overloaded_error` mid-stream ends the client's stream with
    Bedrock's exception frame, which boto3 raises once the text before it came."""
    with serve() as gateway, upstream(BROKEN) as replay:
        answer = boto3_client(gateway).converse_stream(modelId="house-claude", **ASKED)
        texts: list[str] = []
        with closing(answer["stream"]) as stream, pytest.raises(EventStreamError) as raised:  # noqa: PT012
            for event in stream:
                if delta := event.get("contentBlockDelta"):
                    texts.append(delta["delta"]["text"])

    recorded = [json.loads(event.data) for event in BROKEN.response.events or []]
    assert "".join(texts) == "".join(
        e["delta"]["text"] for e in recorded if e["type"] == "content_block_delta"
    )
    assert raised.value.response["Error"]["Code"] == "serviceUnavailableException"
    assert "Overloaded" in raised.value.response["Error"]["Message"]
    assert replay.sent == [sent_upstream(stream=True)]


@pytest.mark.skipif(can_write_event_streams(), reason="AWS's event-stream encoder is installed")
def test_without_aws_s_encoder_a_stream_is_refused_naming_it() -> None:
    with serve() as gateway, upstream(STREAMED) as replay:
        client = boto3_client(gateway)
        with pytest.raises(ClientError) as raised:
            client.converse_stream(modelId="house-claude", **ASKED)
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert "smithy-aws-event-stream" in str(raised.value)
    assert replay.requests == []


def test_an_upstream_rate_limit_reaches_boto3_as_bedrock_s_throttling() -> None:
    with serve() as gateway, upstream(LIMITED) as replay:
        client = boto3_client(gateway)
        with pytest.raises(ClientError) as raised:
            client.converse(modelId="house-claude", **ASKED)
    assert replay.sent == [sent_upstream()]
    error = raised.value.response
    assert error["Error"]["Code"] == "ThrottlingException"
    assert error["ResponseMetadata"]["HTTPStatusCode"] == 429
    assert error["Error"]["Message"] == LIMITED.response.json["error"]["message"]
    # The wait goes on; Bedrock has no rate-limit headers, so none of another API's.
    headers = error["ResponseMetadata"]["HTTPHeaders"]
    assert headers["retry-after"] == LIMITED.response.headers["retry-after"][0]
    assert not [name for name in headers if "ratelimit" in name]


def test_a_converse_body_to_bedrock_goes_as_it_came() -> None:
    assert CONVERSE.request is not None
    sent = CONVERSE.request.json
    with serve() as gateway, upstream(CONVERSE) as replay:
        answer = boto3_client(gateway).converse(modelId=NOVA, **sent)
    assert replay.sent == [sent]
    recorded = CONVERSE.response.json
    assert answer["output"] == recorded["output"]
    assert answer["stopReason"] == recorded["stopReason"]


def test_a_request_without_the_gateway_s_key_is_refused() -> None:
    with serve() as gateway, upstream(TOOL_CALL) as replay:
        client = boto3_client(gateway, key=fake_key("gk-", "another-key"))
        with pytest.raises(ClientError) as raised:
            client.converse(modelId="house-claude", **ASKED)
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 401
    assert replay.requests == []


def test_an_operation_the_gateway_does_not_serve_is_named() -> None:
    with serve() as gateway, upstream() as replay:
        client = boto3_client(gateway)
        with pytest.raises(ClientError) as raised:
            client.count_tokens(
                modelId="house-claude", input={"converse": {"messages": ASKED["messages"]}}
            )
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 404
    assert "converse, converse-stream" in str(raised.value)
    assert replay.requests == []
