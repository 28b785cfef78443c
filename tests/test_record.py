"""`interlingua.testing.record`: real SDK clients talk to a stand-in for each
provider on 127.0.0.1, and what went over the wire is written to a cassette,
credentials removed and account ids masked; replaying that cassette gives the
same answers. Both formats: the project's JSON and a vcrpy cassette that
vcrpy itself loads."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import anthropic
import groq
import httpx2
import openai
import pytest
import vcr
from google import genai
from mistralai.client import Mistral

import interlingua_anthropic
import interlingua_google
import interlingua_groq
import interlingua_mistral
import interlingua_openai
from conftest import FIXTURES
from interlingua import ChatResponse, accumulate
from interlingua.testing import (
    MASK,
    Interaction,
    check_no_secrets,
    find_secrets,
    load_cassette,
    record,
    replay,
    use_cassette,
)
from provider_server import SECRET_RESPONSE_HEADERS, ProviderServer

# Shaped like real keys, so that the secret check would find them if they were written.
KEYS = {
    "openai": "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z" * 2,
    "anthropic": "sk-ant-api03-" + "Zy9xWv6uTs3rQp0oNm7lKj4iHg1fEd8c" * 2,
    "mistral": "Qw3eRt6yUi9oPa2sDf5gHj8kLz1xCv4b",
    "groq": "gsk_" + "Mn7bVc4xZl1kJh8gFd5sAp2oIu9yTr6e",
    "google": "AIza" + "Sy3kLm9Qw2eRt5yUi8oPa1sDf4gHj7kL0zX",
}


@dataclass(frozen=True)
class Provider:
    codec: ModuleType
    client: Callable[[str, str], Any]  # (base URL, key) -> the user's client
    fixtures: tuple[str, ...]  # one answer, one stream


PROVIDERS = {
    "openai": Provider(
        interlingua_openai,
        lambda url, key: interlingua_openai.OpenAIClient(
            openai.OpenAI(api_key=key, base_url=url + "/v1", organization="org-7fA3kq9LmN2pX4rT")
        ),
        ("openai/chat_refusal.json", "openai/chat_stream_parallel_tool_calls.json"),
    ),
    "anthropic": Provider(
        interlingua_anthropic,
        lambda url, key: interlingua_anthropic.AnthropicClient(
            anthropic.Anthropic(api_key=key, base_url=url)
        ),
        ("anthropic/image_input.json", "anthropic/stream_thinking_tool_use.json"),
    ),
    "mistral": Provider(
        interlingua_mistral,
        lambda url, key: interlingua_mistral.MistralClient(Mistral(api_key=key, server_url=url)),
        ("mistral/image_input.json", "mistral/stream_parallel_tool_calls.json"),
    ),
    "groq": Provider(
        interlingua_groq,
        lambda url, key: interlingua_groq.GroqClient(groq.Groq(api_key=key, base_url=url)),
        ("groq/raw_think_answer.json", "groq/stream_reasoning_usage.json"),
    ),
    "google": Provider(
        interlingua_google,
        lambda url, key: interlingua_google.GoogleClient(
            genai.Client(api_key=key, http_options={"base_url": url, "api_version": "v1beta"})
        ),
        ("google/image_input.json", "google/stream_parallel_tool_calls.json"),
    ),
}


def interactions_of(provider: Provider) -> list[Interaction]:
    return [i for name in provider.fixtures for i in load_cassette(FIXTURES / name).interactions]


@pytest.fixture(params=PROVIDERS)
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def server(name: str) -> Iterator[ProviderServer]:
    """The provider's stand-in, serving the provider's fixtures by path."""
    answers = {}
    for interaction in interactions_of(PROVIDERS[name]):
        assert interaction.request is not None
        key = (interaction.request.method, urlsplit(interaction.request.url).path)
        answers.setdefault(key, []).append(interaction.response)
    with ProviderServer(answers) as running:
        yield running


def conversation(provider: Provider, client: Any) -> list[ChatResponse]:
    """The user's code: each fixture's request, streamed as it was recorded or not."""
    answers = []
    for interaction in interactions_of(provider):
        assert interaction.request is not None
        request = provider.codec.decode_request(interaction.request.json)
        if provider.codec is interlingua_google:  # Gemini's model is in the URL
            model = urlsplit(interaction.request.url).path.rpartition("/")[2].partition(":")[0]
            request = request.model_copy(update={"model": model})
        if interaction.is_stream:
            answers.append(accumulate(client.stream(request)))
        else:
            answers.append(client.complete(request))
    return answers


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_recorded_then_replayed_gives_the_same_answers(
    name: str, server: ProviderServer, tmp_path: Path, suffix: str
) -> None:
    provider, path = PROVIDERS[name], tmp_path / f"{name}{suffix}"

    with record(path) as recorder:
        live = conversation(provider, provider.client(server.base_url, KEYS[name]))
    with replay(path) as cassette:
        replayed = conversation(provider, provider.client(server.base_url, "any-key"))

    assert replayed == live
    assert live == [
        provider.codec.decode_response(i.response.json)
        if not i.is_stream
        else accumulate(provider.codec.decode_stream(i.response.stream_payloads()))
        for i in interactions_of(provider)
    ]
    assert cassette.sent == recorder.sent == [i.request.json for i in interactions_of(provider)]  # type: ignore[union-attr]
    assert len(server.received) == 2  # the replay sent nothing


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_the_credentials_reach_the_server_and_never_the_cassette(
    name: str, server: ProviderServer, tmp_path: Path, suffix: str
) -> None:
    provider, path = PROVIDERS[name], tmp_path / f"{name}{suffix}"

    with record(path):
        conversation(provider, provider.client(server.base_url, KEYS[name]))

    sent_headers = server.received[0].headers
    credentials = ("authorization", "x-api-key", "x-goog-api-key")
    assert KEYS[name] in "".join(sent_headers.get(header, "") for header in credentials)
    text = path.read_text()
    assert KEYS[name] not in text
    assert SECRET_RESPONSE_HEADERS["set-cookie"] not in text
    assert SECRET_RESPONSE_HEADERS["openai-organization"] not in text
    assert find_secrets(path) == []
    check_no_secrets(path)
    for interaction in load_cassette(path).interactions:
        assert interaction.request is not None
        assert {*credentials, "cookie"}.isdisjoint(interaction.request.headers)
        assert "set-cookie" not in interaction.response.headers
        assert interaction.response.headers["openai-project"] == (MASK,)


@pytest.mark.parametrize("name", ["openai"])
def test_the_ids_are_kept_when_masking_is_off(server: ProviderServer, tmp_path: Path) -> None:
    provider, path = PROVIDERS["openai"], tmp_path / "kept.json"

    with record(path, mask_ids=False):
        provider.client(server.base_url, KEYS["openai"]).complete(
            provider.codec.decode_request(interactions_of(provider)[0].request.json)  # type: ignore[union-attr]
        )

    (interaction,) = load_cassette(path).interactions
    assert interaction.response.headers["openai-organization"] == (
        SECRET_RESPONSE_HEADERS["openai-organization"],
    )
    assert interaction.request.headers["openai-organization"] == ("org-7fA3kq9LmN2pX4rT",)  # type: ignore[union-attr]
    assert "authorization" not in interaction.request.headers  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["groq"])
def test_vcrpy_itself_replays_a_recorded_yaml_cassette(
    server: ProviderServer, tmp_path: Path
) -> None:
    provider, path = PROVIDERS["groq"], tmp_path / "groq.yaml"
    with record(path):
        live = conversation(provider, provider.client(server.base_url, KEYS["groq"]))

    # groq sends through httpx, which vcrpy patches; "none" never reaches the network.
    with vcr.use_cassette(str(path), record_mode="none") as cassette:
        replayed = conversation(provider, provider.client(server.base_url, "any-key"))

    assert replayed == live
    assert cassette.play_count == 2
    assert len(server.received) == 2


@pytest.mark.parametrize("name", ["anthropic"])
def test_a_stream_is_kept_as_its_exact_text_and_a_body_decoded(
    server: ProviderServer, tmp_path: Path
) -> None:
    server.gzip_json = True
    provider, path = PROVIDERS["anthropic"], tmp_path / "anthropic.json"
    with record(path):
        conversation(provider, provider.client(server.base_url, KEYS["anthropic"]))

    answer, stream = json.loads(path.read_text())["interactions"]
    (served,) = load_cassette(FIXTURES / provider.fixtures[1]).interactions
    assert stream["response"]["sse"] == served.response.body.decode()
    assert stream["response"]["headers"]["content-type"].startswith("text/event-stream")
    (recorded_answer,) = load_cassette(FIXTURES / provider.fixtures[0]).interactions
    assert answer["response"]["json"] == recorded_answer.response.json
    assert "content-encoding" not in answer["response"]["headers"]
    assert server.received[0].headers.get("accept-encoding")  # it was gzip on the wire


def test_new_episodes_replays_what_matches_and_records_the_rest(tmp_path: Path) -> None:
    provider = PROVIDERS["openai"]
    first, second = interactions_of(provider)
    path = tmp_path / "openai.json"
    answers = {("POST", "/v1/chat/completions"): [first.response, second.response]}
    with ProviderServer(answers) as server:
        client = provider.client(server.base_url, KEYS["openai"])
        with use_cassette(path, "once"):
            client.complete(provider.codec.decode_request(first.request.json))  # type: ignore[union-attr]
        with use_cassette(path, "new_episodes") as cassette:
            conversation(provider, client)

    assert len(server.received) == 2  # the first request was replayed the second time
    assert cassette.sent == [first.request.json, second.request.json]  # type: ignore[union-attr]
    kept = load_cassette(path).interactions
    assert [i.request.json for i in kept] == cassette.sent  # type: ignore[union-attr]
    assert [i.is_stream for i in kept] == [False, True]


def test_a_key_in_the_url_is_masked_in_the_cassette(tmp_path: Path) -> None:
    (interaction,) = load_cassette(FIXTURES / "google/image_input.json").interactions
    assert interaction.request is not None
    key, path = KEYS["google"], tmp_path / "google.json"
    answers = {("POST", urlsplit(interaction.request.url).path): [interaction.response]}
    with ProviderServer(answers) as server, record(path), httpx2.Client() as http:
        # The Gemini API takes its key in the query too (`?key=`), as curl users send it.
        url = server.base_url + urlsplit(interaction.request.url).path + f"?key={key}&alt=json"
        http.post(url, json=interaction.request.json)

    assert len(server.received) == 1  # the request went out (its query, the key in it)
    (kept,) = load_cassette(path).interactions
    assert kept.request is not None
    assert kept.request.url.endswith(f"?key={MASK}&alt=json")
    assert key not in path.read_text()
    check_no_secrets(path)
