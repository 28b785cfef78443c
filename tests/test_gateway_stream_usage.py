"""The usage of a stream the gateway writes from another API, as the client's API
sends it: an OpenAI Chat Completions client gets the last chunk with `choices: []`
and the usage only when its request asks (`stream_options.include_usage`); the
other Chat Completions APIs as theirs (Groq's unasked, in `x_groq.usage`;
DeepSeek's when asked, on the chunk that finishes the stream). The gateway's log
line has the usage whatever the client asked: it reads the upstream's.

The real SDK clients against the real server (`tests/gateway_server.py`); the
upstreams answered by the project's recordings.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import groq
import openai
import pytest

from conftest import fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua import TokenUsage, accumulate, get_adapter
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, Replay

KEY = fake_key("gk-")
QUESTION = [{"role": "user", "content": "Is it raining in Lisbon right now?"}]
ASK_USAGE = {"stream_options": {"include_usage": True}}

# Each upstream of another API than the client's, and its streamed recording.
UPSTREAMS = {
    "anthropic": ("claude-sonnet-4-5", "anthropic/stream_thinking_tool_use.json"),
    "openai-responses": ("gpt-5-mini", "openai/responses_stream_reasoning.json"),
    "google": ("gemini-2.5-flash", "google/stream_parallel_tool_calls.json"),
}


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


def serve() -> GatewayServer:
    models = {name: {"upstream": f"{name}:{model}"} for name, (model, _) in UPSTREAMS.items()}
    config = load(None, keys=[KEY], models=models)
    return GatewayServer(create_app(config, default_key=fake_key("sk-")))


@pytest.fixture(scope="module")
def gateway() -> Iterator[GatewayServer]:
    with serve() as server:
        yield server


def streamed(upstream: str) -> Interaction:
    return recorded(UPSTREAMS[upstream][1])[0]


def upstream_replay(interaction: Interaction) -> Replay:
    return Replay([interaction], match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def recorded_usage(upstream: str) -> TokenUsage:
    """The usage the upstream's recording gives, read by its own decoder."""
    payloads = streamed(upstream).response.stream_payloads()
    usage = accumulate(get_adapter(upstream).decode_stream(payloads)).usage
    assert usage.output_tokens > 0
    return usage


def chat_chunks(base_url: str, model: str, **options: Any) -> list[Any]:
    """The chunks the openai SDK reads from the gateway's `base_url`."""
    client = opened(openai.OpenAI(api_key=KEY, base_url=base_url, max_retries=0, timeout=10))
    with upstream_replay(streamed(model)) as replay:
        chunks = list(
            client.chat.completions.create(model=model, messages=QUESTION, stream=True, **options)
        )
    (sent,) = replay.sent
    assert "stream_options" not in sent  # no upstream here takes them
    return chunks


@pytest.mark.parametrize("upstream", list(UPSTREAMS))
def test_an_openai_client_that_does_not_ask_gets_no_usage_chunk(
    gateway: GatewayServer, upstream: str
) -> None:
    chunks = chat_chunks(f"{gateway.base_url}/v1", upstream)

    assert chunks
    assert [len(chunk.choices) for chunk in chunks] == [1] * len(chunks)
    assert [chunk.usage for chunk in chunks] == [None] * len(chunks)
    assert chunks[-1].choices[0].finish_reason is not None


@pytest.mark.parametrize("upstream", list(UPSTREAMS))
def test_an_openai_client_that_asks_gets_the_usage_in_a_last_chunk_of_its_own(
    gateway: GatewayServer, upstream: str
) -> None:
    usage = recorded_usage(upstream)

    *answer, last = chat_chunks(f"{gateway.base_url}/v1", upstream, **ASK_USAGE)

    assert [len(chunk.choices) for chunk in answer] == [1] * len(answer)
    assert [chunk.usage for chunk in answer] == [None] * len(answer)
    assert last.choices == []
    assert last.usage is not None
    counts = (last.usage.prompt_tokens, last.usage.completion_tokens, last.usage.total_tokens)
    assert counts == (usage.input_tokens, usage.output_tokens, usage.total_tokens)


def test_a_groq_client_gets_the_usage_unasked_as_groq_sends_it(gateway: GatewayServer) -> None:
    usage = recorded_usage("anthropic")
    client = opened(groq.Groq(api_key=KEY, base_url=f"{gateway.base_url}/groq", max_retries=0))
    with upstream_replay(streamed("anthropic")):
        chunks = list(
            client.chat.completions.create(model="anthropic", messages=QUESTION, stream=True)
        )

    assert [len(chunk.choices) for chunk in chunks] == [1] * len(chunks)
    carrying = [chunk for chunk in chunks if chunk.x_groq is not None and chunk.x_groq.usage]
    assert carrying == [chunks[-1]]  # on the chunk that finishes the stream
    assert chunks[-1].choices[0].finish_reason is not None
    counts = chunks[-1].x_groq.usage  # type: ignore[union-attr]
    assert (counts.prompt_tokens, counts.completion_tokens) == (
        usage.input_tokens,
        usage.output_tokens,
    )


@pytest.mark.parametrize("asked", [False, True], ids=["unasked", "asked"])
def test_a_deepseek_client_gets_the_usage_on_the_finishing_chunk_when_it_asks(
    gateway: GatewayServer, asked: bool
) -> None:
    usage = recorded_usage("anthropic")
    options = ASK_USAGE if asked else {}

    chunks = chat_chunks(f"{gateway.base_url}/deepseek", "anthropic", **options)

    assert [len(chunk.choices) for chunk in chunks] == [1] * len(chunks)
    carrying = [chunk for chunk in chunks if chunk.usage is not None]
    assert carrying == ([chunks[-1]] if asked else [])
    if asked:
        counts = chunks[-1].usage
        assert (counts.prompt_tokens, counts.completion_tokens) == (
            usage.input_tokens,
            usage.output_tokens,
        )


def test_the_log_line_has_the_usage_the_client_did_not_ask_for(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="interlingua.gateway")
    usage = recorded_usage("anthropic")
    with serve() as server:  # closed before the log is read: the stream's line is written
        chunks = chat_chunks(f"{server.base_url}/v1", "anthropic")
    assert [chunk.usage for chunk in chunks] == [None] * len(chunks)
    # This request's line (a stream of the test before may log its own as it closes).
    (line,) = [line for line in caplog.messages if line.startswith("POST /v1/chat/completions")]
    assert f"input={usage.input_tokens} output={usage.output_tokens}" in line
