"""interlingua.testing.Replay: recorded answers served to real SDK clients, and
the requests they sent kept for assertions."""

from __future__ import annotations

import dataclasses
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anthropic
import httpx
import pytest

from conftest import FIXTURES, corpus_id, corpus_params, from_corpus
from interlingua import CassetteError, ChatRequest, ProviderConnectionError
from interlingua.testing import Replay, load_cassette
from interlingua_anthropic import AnthropicClient, AsyncAnthropicClient, encode_request

IMAGE = FIXTURES / "anthropic" / "image_input.json"


def request_of(replay: Replay) -> ChatRequest:
    import interlingua_anthropic

    recorded = replay.interactions[0].request
    assert recorded is not None
    return interlingua_anthropic.decode_request(recorded.json)


def test_an_sdk_client_gets_the_recorded_answer_and_its_request_is_kept() -> None:
    replay = Replay(load_cassette(IMAGE).interactions)
    request = request_of(replay)
    client = AnthropicClient(
        anthropic.Anthropic(api_key="test-key", max_retries=0, http_client=replay.client())
    )

    response = client.complete(request)

    assert replay.done
    assert replay.sent == [encode_request(request)]
    assert replay.sent[0] == replay.interactions[0].request.json  # type: ignore[union-attr]
    assert response.text == replay.interactions[0].response.json["content"][0]["text"]  # type: ignore[index]


@pytest.mark.anyio
async def test_an_async_sdk_client_is_answered_alike() -> None:
    replay = Replay(load_cassette(IMAGE).interactions)
    request = request_of(replay)
    client = AsyncAnthropicClient(
        anthropic.AsyncAnthropic(
            api_key="test-key", max_retries=0, http_client=replay.async_client()
        )
    )

    response = await client.complete(request)

    assert replay.done
    assert replay.sent == [encode_request(request)]
    assert replay.sent[0] == replay.interactions[0].request.json  # type: ignore[union-attr]
    assert response.text == replay.interactions[0].response.json["content"][0]["text"]  # type: ignore[index]
    assert response.finish_reason is not None


def test_a_request_past_the_recording_is_refused() -> None:
    replay = Replay([])
    with pytest.raises(CassetteError, match=r"has 0 answers and a request 1 came: POST"):
        replay.respond(httpx.Request("POST", "https://api.groq.com/openai/v1/chat/completions"))


def test_an_httpx_request_gets_an_httpx_response() -> None:
    interaction = load_cassette(IMAGE).interactions[0]
    assert interaction.request is not None
    replay = Replay([interaction])
    url = "https://api.anthropic.com/v1/messages"
    answer = replay.respond(httpx.Request("POST", url, content=interaction.request.body))
    assert isinstance(answer, httpx.Response)
    assert answer.status_code == 200
    assert replay.sent == [interaction.request.json]


def test_a_request_to_another_host_is_refused_naming_both() -> None:
    # Mistral serves the same path as OpenAI: the host tells them apart.
    replay = Replay(load_cassette(FIXTURES / "mistral" / "image_input.json").interactions)
    request = httpx.Request("POST", "https://api.openai.com/v1/chat/completions")
    with pytest.raises(CassetteError) as caught:
        replay.respond(request)
    assert "api.openai.com/v1/chat/completions" in str(caught.value)
    assert "api.mistral.ai/v1/chat/completions" in str(caught.value)


def test_answers_are_served_once_each_to_requests_from_many_threads() -> None:
    interaction = load_cassette(IMAGE).interactions[0]
    assert interaction.request is not None
    # Sixteen recordings of the same request, each with its own answer.
    answers = [
        dataclasses.replace(
            interaction,
            response=dataclasses.replace(interaction.response, body=json.dumps({"n": n}).encode()),
        )
        for n in range(16)
    ]
    replay = Replay(answers)
    url = "https://api.anthropic.com/v1/messages"

    def ask(_: int) -> Any:
        request = httpx.Request("POST", url, content=interaction.request.body)  # type: ignore[union-attr]
        return json.loads(replay.respond(request).content)["n"]

    with ThreadPoolExecutor(max_workers=8) as pool:
        served = list(pool.map(ask, range(16)))
    assert sorted(served) == list(range(16))
    assert replay.done


# --- query parameters only an SDK adds ---

BETA_CLIENT = FIXTURES / "anthropic" / "recorded_by_beta_client.json"


def beta_recording_replayed(**options: Any) -> tuple[Replay, AnthropicClient]:
    replay = Replay(load_cassette(BETA_CLIENT).interactions, **options)
    sdk = anthropic.Anthropic(api_key="test-key", max_retries=0, http_client=replay.client())
    return replay, AnthropicClient(sdk)


def test_a_recording_made_with_the_sdks_beta_query_matches_a_call_without_it() -> None:
    replay, client = beta_recording_replayed()
    recorded = replay.interactions[0]
    assert recorded.request is not None
    assert recorded.request.url.endswith("?beta=true")

    response = client.complete(request_of(replay))

    assert replay.done
    assert [str(request.url) for request in replay.requests] == [
        "https://api.anthropic.com/v1/messages"
    ]
    assert replay.sent == [recorded.request.json]
    assert response.text == "The capital of France is Paris."


def test_strict_query_counts_the_sdks_beta_query() -> None:
    replay, client = beta_recording_replayed(strict_query=True)

    with pytest.raises(ProviderConnectionError):  # the SDK wraps the refusal
        client.complete(request_of(replay))
    assert not replay.done
    assert 'query: [] != [["beta", "true"]]' in str(replay.mismatches[0])


def test_a_query_parameter_that_changes_the_request_still_counts() -> None:
    recorded = load_cassette(BETA_CLIENT).interactions[0]
    assert recorded.request is not None
    elsewhere = dataclasses.replace(
        recorded,
        request=dataclasses.replace(recorded.request, url=recorded.request.url + "&alt=sse"),
    )
    replay = Replay([elsewhere])
    sdk = anthropic.Anthropic(api_key="test-key", max_retries=0, http_client=replay.client())

    with pytest.raises(ProviderConnectionError):
        AnthropicClient(sdk).complete(request_of(replay))
    assert '"alt", "sse"' in str(replay.mismatches[0])


@pytest.mark.parametrize(
    "param",
    corpus_params(
        "anthropic/pydantic-ai",
        keep=lambda path: "?beta=true" in path.read_text(),
        holding="recordings with the beta query",
    ),
    ids=corpus_id,
)
def test_each_recorded_beta_call_matches_the_same_call_without_the_query(param: Any) -> None:
    interactions = [
        interaction
        for interaction in load_cassette(from_corpus(param)).interactions
        if interaction.request is not None and interaction.request.url.endswith("?beta=true")
    ]
    replay = Replay(interactions, allow_playback_repeats=True)
    strict = Replay(interactions, strict_query=True)

    for interaction in interactions:
        assert interaction.request is not None
        url = interaction.request.url.removesuffix("?beta=true")
        sent = httpx.Request("POST", url, content=interaction.request.body)
        assert replay.respond(sent).status_code == interaction.response.status
        with pytest.raises(CassetteError, match="query"):
            strict.respond(sent)
