"""`interlingua.testing.replay`: the SDK clients of all four providers, built as
a user's code builds them (no `http_client`, default retries), answered from a
cassette through respx: sync and async, streamed and not, errors included;
and a request that matches nothing fails naming the closest recorded one and
the field that differs."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import anthropic
import groq
import openai
import pytest
from mistralai.client import Mistral

import interlingua_anthropic
import interlingua_groq
import interlingua_mistral
import interlingua_openai
from conftest import FIXTURES
from interlingua import CassetteError, ChatResponse, ProviderError, accumulate, accumulate_async
from interlingua.testing import Interaction, load_cassette, record, replay, use_cassette


@dataclass(frozen=True)
class Provider:
    codec: ModuleType
    client: Callable[[], Any]
    async_client: Callable[[], Any]
    answer: str
    stream: str
    error: str


# The user's code: the SDK built with a key and nothing else, wrapped in interlingua's client.
PROVIDERS = {
    "openai": Provider(
        interlingua_openai,
        lambda: interlingua_openai.OpenAIClient(openai.OpenAI(api_key="test-key")),
        lambda: interlingua_openai.AsyncOpenAIClient(openai.AsyncOpenAI(api_key="test-key")),
        "openai/chat_refusal.json",
        "openai/chat_stream_parallel_tool_calls.json",
        "openai/chat_error_400.json",
    ),
    "anthropic": Provider(
        interlingua_anthropic,
        lambda: interlingua_anthropic.AnthropicClient(anthropic.Anthropic(api_key="test-key")),
        lambda: interlingua_anthropic.AsyncAnthropicClient(
            anthropic.AsyncAnthropic(api_key="test-key")
        ),
        "anthropic/image_input.json",
        "anthropic/stream_thinking_tool_use.json",
        "anthropic/error_invalid_request.json",
    ),
    "mistral": Provider(
        interlingua_mistral,
        lambda: interlingua_mistral.MistralClient(Mistral(api_key="test-key")),
        lambda: interlingua_mistral.AsyncMistralClient(Mistral(api_key="test-key")),
        "mistral/image_input.json",
        "mistral/stream_parallel_tool_calls.json",
        "mistral/error_extra_forbidden.json",
    ),
    "groq": Provider(
        interlingua_groq,
        lambda: interlingua_groq.GroqClient(groq.Groq(api_key="test-key")),
        lambda: interlingua_groq.AsyncGroqClient(groq.AsyncGroq(api_key="test-key")),
        "groq/raw_think_answer.json",
        "groq/stream_reasoning_usage.json",
        "groq/error_invalid_api_key.json",
    ),
}
CASES = [
    pytest.param(name, kind, id=f"{name}-{kind}")
    for name in PROVIDERS
    for kind in ("answer", "stream")
]


def only(name: str) -> Interaction:
    (interaction,) = load_cassette(FIXTURES / name).interactions
    return interaction


def recorded_answer(codec: ModuleType, interaction: Interaction) -> ChatResponse:
    """What the recorded response decodes to, without any client."""
    if interaction.is_stream:
        return accumulate(codec.decode_stream(interaction.response.stream_payloads()))
    return codec.decode_response(interaction.response.json)  # type: ignore[no-any-return]


def request_of(codec: ModuleType, interaction: Interaction) -> Any:
    assert interaction.request is not None
    return codec.decode_request(interaction.request.json)


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_a_sync_client_is_answered_from_the_cassette(name: str, kind: str) -> None:
    provider = PROVIDERS[name]
    fixture = getattr(provider, kind)
    interaction = only(fixture)
    request = request_of(provider.codec, interaction)

    with replay(FIXTURES / fixture) as cassette:
        client = provider.client()
        response = (
            accumulate(client.stream(request)) if kind == "stream" else client.complete(request)
        )

    assert response == recorded_answer(provider.codec, interaction)
    assert cassette.sent == [interaction.request.json]  # type: ignore[union-attr]
    assert cassette.done


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "kind"), CASES)
async def test_an_async_client_is_answered_from_the_cassette(name: str, kind: str) -> None:
    provider = PROVIDERS[name]
    fixture = getattr(provider, kind)
    interaction = only(fixture)
    request = request_of(provider.codec, interaction)

    async with replay(FIXTURES / fixture) as cassette:
        client = provider.async_client()
        if kind == "stream":
            response = await accumulate_async(await client.stream(request))
        else:
            response = await client.complete(request)

    assert response == recorded_answer(provider.codec, interaction)
    assert cassette.sent == [interaction.request.json]  # type: ignore[union-attr]


def streamed(interaction: Interaction) -> bool:
    return bool(interaction.request and interaction.request.json.get("stream"))


def same_error(raised: ProviderError, codec: ModuleType, interaction: Interaction) -> bool:
    expected = codec.decode_error(interaction.response.status, interaction.response.json)
    return type(raised) is type(expected) and str(raised) == str(expected)


def call(client: Any, interaction: Interaction, request: Any) -> Any:
    """The user's call: a stream for a streamed recording, else a completion."""
    return client.stream(request) if streamed(interaction) else client.complete(request)


@pytest.mark.parametrize("name", PROVIDERS)
def test_a_recorded_error_reaches_the_sync_client_as_the_typed_error(name: str) -> None:
    provider = PROVIDERS[name]
    interaction = only(provider.error)
    request = request_of(provider.codec, interaction)

    with replay(FIXTURES / provider.error) as cassette:
        client = provider.client()
        with pytest.raises(ProviderError) as raised:
            call(client, interaction, request)

    assert raised.value.status == interaction.response.status
    assert same_error(raised.value, provider.codec, interaction)
    assert cassette.sent == [interaction.request.json]  # type: ignore[union-attr]


@pytest.mark.anyio
@pytest.mark.parametrize("name", PROVIDERS)
async def test_a_recorded_error_reaches_the_async_client_as_the_typed_error(name: str) -> None:
    provider = PROVIDERS[name]
    interaction = only(provider.error)
    request = request_of(provider.codec, interaction)

    async with replay(FIXTURES / provider.error):
        client = provider.async_client()
        with pytest.raises(ProviderError) as raised:
            await call(client, interaction, request)

    assert raised.value.status == interaction.response.status
    assert same_error(raised.value, provider.codec, interaction)


def test_the_sdk_called_directly_is_answered_too() -> None:
    interaction = only("openai/chat_refusal.json")
    body = interaction.request.json  # type: ignore[union-attr]

    with replay(FIXTURES / "openai/chat_refusal.json") as cassette:
        completion = openai.OpenAI(api_key="test-key").chat.completions.create(**body)

    assert completion.model_dump(exclude_unset=True) == interaction.response.json
    assert cassette.sent == [body]


# --- a request that matches nothing ---


def changed_request(fixture: str) -> tuple[Any, Interaction]:
    """The fixture's request with its last message's text changed."""
    interaction = only(fixture)
    body = copy.deepcopy(interaction.request.json)  # type: ignore[union-attr]
    body["messages"][-1]["content"] = "Is it sunny in Porto?"
    return body, interaction


def test_a_mismatch_names_the_closest_request_and_the_field_that_differs() -> None:
    body, interaction = changed_request("openai/chat_refusal.json")
    recorded_text = interaction.request.json["messages"][-1]["content"]  # type: ignore[union-attr]
    last = len(body["messages"]) - 1

    with (
        pytest.raises(CassetteError) as raised,
        replay(FIXTURES / "openai/chat_refusal.json") as cassette,
    ):
        openai.OpenAI(api_key="test-key").chat.completions.create(**body)

    message = str(raised.value)
    assert "chat_refusal.json: no recorded request matches POST " in message
    assert "https://api.openai.com/v1/chat/completions (on method, uri, body)" in message
    assert (
        "the closest is interactions[0], POST https://api.openai.com/v1/chat/completions" in message
    )
    assert f'messages[{last}].content: "Is it sunny in Porto?" != "{recorded_text[:40]}' in message
    assert cassette.sent == []
    assert not cassette.done


def create_in_replay(fixture: str, create: Callable[..., Any], body: Any, *, swallow: bool) -> None:
    """The user's code, inside `replay`; with `swallow`, a fallback that catches
    the SDK's error."""
    with replay(FIXTURES / fixture):
        try:
            create(**body)
        except (anthropic.APIConnectionError, groq.APIConnectionError) as wrapped:
            assert isinstance(wrapped.__cause__, CassetteError)  # noqa: PT017
            if not swallow:
                raise


@pytest.mark.parametrize("swallow", [False, True], ids=["propagated", "swallowed"])
@pytest.mark.parametrize("sdk", ["anthropic", "groq"])
def test_a_mismatch_the_sdk_wraps_in_its_connection_error_is_raised_on_leaving(
    sdk: str, swallow: bool
) -> None:
    """These SDKs turn any transport error into their `APIConnectionError`
    ("Connection error."), the `CassetteError` its cause; leaving the block
    raises the `CassetteError`, even when the code caught the SDK's error."""
    fixture = {"anthropic": "anthropic/image_input.json", "groq": "groq/raw_think_answer.json"}[sdk]
    interaction = only(fixture)
    body = copy.deepcopy(interaction.request.json)  # type: ignore[union-attr]
    body["model"] = "a-model-never-recorded"
    client: Any = (
        anthropic.Anthropic(api_key="test-key", max_retries=0)
        if sdk == "anthropic"
        else groq.Groq(api_key="test-key", max_retries=0)
    )
    create = client.messages.create if sdk == "anthropic" else client.chat.completions.create

    with pytest.raises(CassetteError) as raised:
        create_in_replay(fixture, create, body, swallow=swallow)

    recorded_model = interaction.request.json["model"]  # type: ignore[union-attr]
    assert f'model: "a-model-never-recorded" != "{recorded_model}"' in str(raised.value)
    wrapped = raised.value.__cause__
    if swallow:
        assert wrapped is None
    else:
        assert isinstance(wrapped, (anthropic.APIConnectionError, groq.APIConnectionError))


def test_each_recorded_answer_is_used_once_unless_repeats_are_allowed() -> None:
    body = only("openai/chat_refusal.json").request.json  # type: ignore[union-attr]
    sdk = openai.OpenAI(api_key="test-key")

    def ask_twice() -> None:
        sdk.chat.completions.create(**body)
        sdk.chat.completions.create(**body)

    with pytest.raises(CassetteError) as raised, replay(FIXTURES / "openai/chat_refusal.json"):
        ask_twice()
    assert "the recording has 1 answers and a request 2 came" in str(raised.value)
    assert "answered already; allow_playback_repeats=True answers it again" in str(raised.value)

    with replay(FIXTURES / "openai/chat_refusal.json", allow_playback_repeats=True) as cassette:
        ask_twice()
    assert cassette.sent == [body, body]


def test_looser_matching_ignores_fields_and_list_order() -> None:
    interaction = load_cassette(FIXTURES / "groq/reasoning_tool_round_trip.json").interactions[0]
    body = copy.deepcopy(interaction.request.json)  # type: ignore[union-attr]
    body["temperature"] = 1.5
    body["messages"].reverse()
    sdk = groq.Groq(api_key="test-key", max_retries=0)
    path = FIXTURES / "groq/reasoning_tool_round_trip.json"

    with replay(path, ignore=["temperature"], unordered=["messages"]) as cassette:
        answer = sdk.chat.completions.create(**body)
    assert answer.model_dump(exclude_unset=True) == cassette.interactions[0].response.json

    with (
        pytest.raises(CassetteError, match=r"messages\[0\]\.role: "),
        replay(path, ignore=["temperature"]),
    ):
        sdk.chat.completions.create(**body)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"match_on": ["method", "headers"]}, r"match_on: unknown headers; known: body, host, "),
        ({"match_on": "body"}, r"match_on: expected a list of names, got the string 'body'"),
        ({"ignore": "temperature"}, r"ignore: expected a list of paths, got the string"),
        ({"unordered": ["tools[x"]}, r"unordered: 'tools\[x' is not a field path"),
    ],
)
def test_a_wrong_option_is_named(options: dict[str, Any], message: str) -> None:
    with pytest.raises(CassetteError, match=message):
        replay(FIXTURES / "openai/chat_refusal.json", **options)


def test_a_wrong_cassette_or_record_mode_is_named(tmp_path: Any) -> None:
    with pytest.raises(CassetteError, match=r"a cassette is a .json recording or a .yaml"):
        record(tmp_path / "cassette.txt")
    with (
        pytest.raises(CassetteError, match=r"unknown record mode 'sometimes'; known: none, once"),
        use_cassette(tmp_path / "cassette.json", "sometimes"),
    ):
        pass
