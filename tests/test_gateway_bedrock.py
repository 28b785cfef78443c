"""Amazon Bedrock as the gateway's upstream: a client of another API (the
anthropic and openai SDKs, pointed at the server on 127.0.0.1 under uvicorn)
asks, the gateway sends the Converse body through its boto3 client (the region
from the configuration, its key as a Bedrock API key), and the answer, the
stream and the errors come back in the client's own API. The upstream is
answered by the testing kit from Bedrock recordings, through botocore.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import anthropic
import httpx
import openai
import pytest

from conftest import FIXTURES, fake_key, from_corpus, require_corpus
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, Replay, load_cassette
from interlingua_bedrock import read_event_stream

KEY = fake_key("gk-")
UPSTREAM_KEY = fake_key("sk-")
BOUND = 30.0
NOVA = "us.amazon.nova-micro-v1:0"
CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
ROUTES = {
    "house-model": {"upstream": f"bedrock:{NOVA}"},
    "house-claude": {"upstream": f"bedrock:{CLAUDE}"},
}
UPSTREAMS = {"bedrock": {"region": "us-east-1"}}
(ANSWER,) = load_cassette(FIXTURES / "bedrock" / "converse_boto3.json").interactions
(THROTTLED,) = load_cassette(FIXTURES / "bedrock" / "error_throttled.json").interactions


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


def serve() -> GatewayServer:
    settings = load(None, keys=[KEY], models=ROUTES, upstreams=UPSTREAMS)
    return GatewayServer(create_app(settings, default_key=UPSTREAM_KEY))


def upstream(*interactions: Interaction) -> Replay:
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def anthropic_sdk(base_url: str) -> anthropic.Anthropic:
    return opened(anthropic.Anthropic(api_key=KEY, base_url=base_url, max_retries=0, timeout=BOUND))


def test_an_anthropic_request_goes_to_bedrock_as_converse_and_comes_back() -> None:
    with serve() as gateway, upstream(ANSWER) as replay:
        message = anthropic_sdk(gateway.base_url).messages.create(
            model="house-model",
            max_tokens=200,
            system="Answer in one sentence.",
            messages=[{"role": "user", "content": "Which river runs through Paris?"}],
        )
    (request,) = replay.requests
    assert unquote(request.url.path) == f"/model/{NOVA}/converse"
    assert request.url.host == "bedrock-runtime.us-east-1.amazonaws.com"
    assert request.headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert replay.sent == [
        {
            "messages": [
                {"role": "user", "content": [{"text": "Which river runs through Paris?"}]}
            ],
            "system": [{"text": "Answer in one sentence."}],
            "inferenceConfig": {"maxTokens": 200},
        }
    ]
    recorded = ANSWER.response.json
    assert [block.text for block in message.content if block.type == "text"] == [
        recorded["output"]["message"]["content"][0]["text"]
    ]
    assert message.stop_reason == "end_turn"
    assert (message.usage.input_tokens, message.usage.output_tokens) == (
        recorded["usage"]["inputTokens"],
        recorded["usage"]["outputTokens"],
    )


def test_bedrock_s_throttling_reaches_the_client_as_its_own_rate_limit() -> None:
    with serve() as gateway, upstream(THROTTLED) as replay:
        client = anthropic_sdk(gateway.base_url)
        with pytest.raises(anthropic.RateLimitError) as raised:
            client.messages.create(
                model="house-claude",
                max_tokens=1024,
                messages=[
                    {"role": "user", "content": "Summarise the plot of Hamlet in two sentences."}
                ],
            )
    assert replay.sent == [THROTTLED.request.json]  # the recorded question, as Converse asks it
    assert raised.value.status_code == 429
    body: Any = raised.value.body
    assert body["type"] == "error"
    assert body["error"]["type"] == "rate_limit_error"
    assert body["error"]["message"] == THROTTLED.response.json["message"]


def test_a_bedrock_stream_reaches_a_chat_completions_client_as_its_chunks() -> None:
    path = from_corpus(require_corpus("bedrock") / "pydantic-ai" / "test_bedrock_model_stream.yaml")
    (call,) = [i for i in load_cassette(path).interactions if i.provider == "bedrock"]
    events = list(read_event_stream(call.response.body))
    said = "".join(
        event["contentBlockDelta"]["delta"].get("text", "")
        for event in events
        if "contentBlockDelta" in event
    )
    (usage,) = [event["metadata"]["usage"] for event in events if "metadata" in event]
    assert said  # the recording streams text
    with serve() as gateway, upstream(call) as replay:
        client = opened(
            openai.OpenAI(api_key=KEY, base_url=f"{gateway.base_url}/v1", max_retries=0)
        )
        chunks = list(
            client.chat.completions.create(
                model="house-model",
                messages=[{"role": "user", "content": "What is the capital of France?"}],
                stream=True,
                stream_options={"include_usage": True},
            )
        )
    assert unquote(replay.requests[0].url.path) == f"/model/{NOVA}/converse-stream"
    assert "stream" not in replay.sent[0]  # the operation streams, not the body
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == said
    finishes = [
        c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason
    ]
    assert finishes == ["stop"]
    last = chunks[-1].usage
    assert last is not None
    assert (last.prompt_tokens, last.completion_tokens) == (
        usage["inputTokens"],
        usage["outputTokens"],
    )
    # The client's question went as the recorded one did.
    assert json.loads(call.request.body or b"{}")["messages"] == replay.sent[0]["messages"]


def test_claude_s_envelopes_are_upstreams_only() -> None:
    """Claude's InvokeModel and Vertex AI bodies are not served (their clients are
    the anthropic SDK's, to Anthropic's API here); Converse is
    (`test_gateway_converse`)."""
    with serve() as gateway:
        for api in ("anthropic-bedrock", "anthropic-vertex"):
            answer = httpx.post(
                f"{gateway.base_url}/{api}/model/{NOVA}/converse",
                json={"messages": [{"role": "user", "content": [{"text": "Hi"}]}]},
                headers={"authorization": f"Bearer {KEY}"},
                timeout=BOUND,
            )
            assert answer.status_code == 404
            assert answer.json() == {"error": f"no client API {api!r}"}
