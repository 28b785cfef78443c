"""A Chat Completions stream written for a client's request carries the usage as
the client's API sends it: OpenAI's only for a request that asks
(`stream_options: {"include_usage": true}`), in a last chunk of its own with
`choices: []`, which code reading every chunk's `choices[0]` trips on; Groq's,
Mistral's, Cerebras's, OpenRouter's and Perplexity's unasked, where each puts it.
Written for no request (a library's `encode_stream(events)`), it carries it.

The streams are Anthropic's recording written in each dialect, checked against
what the dialect's own recordings hold for a request of the same kind.
"""

from __future__ import annotations

from typing import Any

import pytest

import interlingua_anthropic
from conftest import recorded
from interlingua import TranslationReport, accumulate, get_adapter, translate_stream
from interlingua_chat_completions import ChatCompletionsDialect

SOURCE = recorded("anthropic/stream_thinking_tool_use.json")[0].response.stream_payloads()
USAGE = accumulate(interlingua_anthropic.decode_stream(SOURCE)).usage
QUESTION = {"model": "a-model", "messages": [{"role": "user", "content": "Hi"}], "stream": True}
ASKING = {**QUESTION, "stream_options": {"include_usage": True}}

# Every Chat Completions API a client may speak, and whether its streams give the
# usage unasked (their adapters' dialects say where they read that).
UNASKED = {
    "openai": False,
    "openai-compatible": False,
    "ollama": False,
    "xai": False,
    "deepseek": False,
    "groq": True,
    "mistral": True,
    "cerebras": True,
    "openrouter": True,
    "perplexity": True,
}
# The recordings of a dialect's stream whose request said nothing of usage.
UNASKED_RECORDINGS = {
    "groq": "groq/stream_reasoning_usage.json",
    "mistral": "mistral/stream_tool_call.json",
}


def dialect(name: str) -> ChatCompletionsDialect:
    codec = get_adapter(name).CODEC
    assert isinstance(codec.dialect, ChatCompletionsDialect)
    return codec.dialect


def written(name: str, body: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Anthropic's stream as `name`'s chunks for the client's `body` (None: no request)."""
    adapter = get_adapter(name)
    request = None if body is None else adapter.decode_request(body)
    events = interlingua_anthropic.decode_stream(SOURCE)
    chunks = adapter.encode_stream(events, report=TranslationReport(), request=request)
    return [chunk.data for chunk in chunks if chunk.data != "[DONE]"]


def usages(name: str, chunks: list[dict[str, Any]]) -> list[tuple[int, Any]]:
    """Each chunk carrying usage (where the dialect reads it): its number of choices, the usage."""
    read = dialect(name).stream_usage
    return [(len(chunk["choices"]), read(chunk)) for chunk in chunks if read(chunk) is not None]


def counts(name: str, chunks: list[dict[str, Any]]) -> Any:
    """The usage counts the chunks accumulate to (None: no chunk carries usage)."""
    if not usages(name, chunks):
        return None
    usage = accumulate(get_adapter(name).decode_stream(chunks)).usage
    return usage.model_dump(exclude={"details"})


def test_openai_s_stream_for_a_request_that_did_not_ask_has_no_usage_as_openai_s_own() -> None:
    (call,) = recorded("openai/chat_stream_without_usage.json")
    request = call.request
    assert request is not None
    own = call.response.stream_payloads()
    assert "stream_options" not in request.json
    # What OpenAI sends for it: every chunk one choice, no usage anywhere.
    assert {len(chunk["choices"]) for chunk in own} == {1}
    assert not any("usage" in chunk for chunk in own)

    chunks = written("openai", request.json)

    assert {len(chunk["choices"]) for chunk in chunks} == {1}
    assert not any("usage" in chunk for chunk in chunks)


def test_openai_s_stream_for_a_request_that_asks_ends_with_the_usage_chunk() -> None:
    (call,) = recorded("openai/chat_stream_parallel_tool_calls.json")
    request = call.request
    assert request is not None
    own = call.response.stream_payloads()
    assert request.json["stream_options"] == {"include_usage": True}
    assert own[-1]["choices"] == []
    assert own[-1]["usage"]["total_tokens"] > 0

    chunks = written("openai", request.json)

    assert chunks[-1]["choices"] == []
    assert {len(chunk["choices"]) for chunk in chunks[:-1]} == {1}
    assert counts("openai", chunks) == USAGE.model_dump(exclude={"details"})


def test_a_request_that_asks_for_no_usage_gets_none() -> None:
    body = {**QUESTION, "stream_options": {"include_usage": False}}
    chunks = written("openai", body)
    assert {len(chunk["choices"]) for chunk in chunks} == {1}
    assert usages("openai", chunks) == []


@pytest.mark.parametrize("name", sorted(UNASKED))
def test_each_api_gives_the_usage_unasked_only_where_its_own_streams_do(name: str) -> None:
    unasked, asked = written(name, QUESTION), written(name, ASKING)

    expected = USAGE.model_dump(exclude={"details"})
    assert counts(name, unasked) == (expected if UNASKED[name] else None)
    assert counts(name, asked) == expected
    # Where it comes, it comes where the API puts it: apart (`choices: []`) or on the
    # chunk that finishes the stream, the same whether the request asked or not.
    (place,) = usages(name, asked)
    assert usages(name, unasked) == ([place] if UNASKED[name] else [])
    # Every other chunk has its choice.
    assert {
        len(chunk["choices"]) for chunk in asked if dialect(name).stream_usage(chunk) is None
    } == {1}


@pytest.mark.parametrize("name", sorted(UNASKED_RECORDINGS))
def test_an_api_that_sends_usage_unasked_gets_it_where_its_recording_has_it(name: str) -> None:
    (call, *_) = recorded(UNASKED_RECORDINGS[name])
    request = call.request
    assert request is not None
    assert "stream_options" not in request.json
    # The recording's usage: once, on the chunk that finishes the stream, beside its choice.
    ((choices, _),) = usages(name, call.response.stream_payloads())
    assert choices == 1

    chunks = written(name, request.json)

    assert [place for place, _ in usages(name, chunks)] == [choices]
    assert counts(name, chunks) == USAGE.model_dump(exclude={"details"})


@pytest.mark.parametrize("name", sorted(UNASKED))
def test_a_stream_written_for_no_request_carries_the_usage(name: str) -> None:
    assert counts(name, written(name, None)) == USAGE.model_dump(exclude={"details"})


def test_the_gateway_s_encoder_follows_the_request_as_encode_stream_does() -> None:
    adapter = get_adapter("openai")
    for body, carried in ((QUESTION, False), (ASKING, True)):
        request = adapter.decode_request(body)
        encoder = adapter.stream_encoder(report=TranslationReport(), request=request)
        chunks = [
            chunk.data
            for event in interlingua_anthropic.decode_stream(SOURCE)
            for chunk in encoder.feed(event)
        ]
        chunks += [chunk.data for chunk in encoder.finish() if chunk.data != "[DONE]"]
        assert bool(usages("openai", chunks)) is carried


def test_translate_stream_follows_the_client_s_body() -> None:
    for body, carried in ((QUESTION, False), (ASKING, True), (None, True)):
        chunks = translate_stream(SOURCE, source="anthropic", target="openai", request=body)
        data = [chunk.data for chunk in chunks if isinstance(chunk.data, dict)]
        assert (data[-1]["choices"] == []) is carried
        assert counts("openai", data) == (
            USAGE.model_dump(exclude={"details"}) if carried else None
        )
