"""The Anthropic clients over the real `anthropic` SDK, replaying wire bytes
(respx intercepting httpx2, or httpx2's mock transport), and the package
around them. The bytes are the corpus's real traffic, and the project's own
fixtures in `fixtures/anthropic/`: hand-made, shaped like real traffic."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import httpx2
import pytest
import respx

import interlingua
import interlingua_anthropic
from conftest import FIXTURES, ROOT, corpus_files, require_corpus
from interlingua import (
    Adapter,
    BadRequestError,
    ChatRequest,
    FilePart,
    FinishReason,
    Message,
    OverloadedError,
    ProviderError,
    ReasoningConfig,
    StreamError,
    ToolSpec,
    TranslationError,
    TranslationReport,
    accumulate,
    accumulate_async,
)
from interlingua.testing import Interaction, load_cassette
from interlingua_anthropic import (
    AnthropicClient,
    AsyncAnthropicClient,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
)

HTTPX2_POOLS = (
    "httpcore2._sync.connection_pool.ConnectionPool",
    "httpcore2._async.connection_pool.AsyncConnectionPool",
)
FIXTURE = FIXTURES / "anthropic"
WEATHER = ToolSpec(
    name="get_weather",
    description="The current weather in a city.",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
WEATHER_WIRE = {
    "name": "get_weather",
    "description": "The current weather in a city.",
    "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
}


LISBON_WEATHER = '{"city": "Lisbon", "condition": "light rain", "temperature_c": 14}'


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    """respx, taught to intercept httpx2 (which the anthropic SDK sends through)."""
    respx.mocks.HTTPCoreMocker.add_targets(*HTTPX2_POOLS)
    with respx.mock(base_url="https://api.anthropic.com", assert_all_called=True) as router:
        yield router


def replay(
    api: respx.MockRouter, interactions: list[Interaction] | tuple[Interaction, ...]
) -> respx.Route:
    """Answers each POST /v1/messages with the next interaction's response, byte for byte."""
    answers = iter(interactions)

    def answer(request: httpx.Request) -> httpx.Response:
        response = next(answers).response
        return httpx.Response(
            response.status, headers=response.replay_headers(), content=response.body
        )

    return api.post("/v1/messages").mock(side_effect=answer)


def sent(route: respx.Route) -> list[dict[str, Any]]:
    return [json.loads(call.request.content) for call in route.calls]


def sdk() -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="test-key", max_retries=0)


def async_sdk() -> anthropic.AsyncAnthropic:
    return anthropic.AsyncAnthropic(api_key="test-key", max_retries=0)


def hand_made(name: str) -> tuple[Interaction, ...]:
    """A hand-made fixture of `fixtures/anthropic/`, shaped like real traffic."""
    return load_cassette(FIXTURE / name).interactions


# --- the project's own fixtures ---


def test_a_tool_round_trip_with_thinking(api: respx.MockRouter) -> None:
    interactions = hand_made("tool_round_trip_with_thinking.json")
    route = replay(api, interactions)
    client = AnthropicClient(sdk())
    history = [
        Message.system("You answer weather questions in one sentence."),
        Message.user("Is it raining in Lisbon right now?"),
    ]
    request = ChatRequest(
        model="claude-sonnet-4-5",
        messages=tuple(history),
        tools=(WEATHER,),
        reasoning=ReasoningConfig(budget_tokens=2048),
        max_tokens=4096,
    )

    first = client.complete(request, report=TranslationReport(strict=True))
    call = first.message.tool_calls[0]
    history += [first.message, Message.tool_result(call.id, LISBON_WEATHER)]
    second_request = request.model_copy(update={"messages": tuple(history)})
    second = client.complete(second_request, report=TranslationReport(strict=True))

    signature = first.message.reasoning[0].signature
    first_body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 4096,
        "system": "You answer weather questions in one sentence.",
        "messages": [{"role": "user", "content": "Is it raining in Lisbon right now?"}],
        "tools": [WEATHER_WIRE],
        "thinking": {"type": "enabled", "budget_tokens": 2048},
    }
    second_body = {
        **first_body,
        "messages": [
            {"role": "user", "content": "Is it raining in Lisbon right now?"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "thinking",
                        "thinking": "The user asks about current rain in Lisbon. I need live data, "
                        "so I will call get_weather for Lisbon.",
                        "signature": signature,
                    },
                    {"type": "text", "text": "Let me check the current conditions in Lisbon."},
                    {
                        "type": "tool_use",
                        "id": "toolu_01LsbnWx8Qm4Tz7Rk2Hc9VdE",
                        "name": "get_weather",
                        "input": {"city": "Lisbon"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01LsbnWx8Qm4Tz7Rk2Hc9VdE",
                        "content": LISBON_WEATHER,
                    }
                ],
            },
        ],
    }
    assert sent(route) == [first_body, second_body]
    assert sent(route) == [encode_request(request), encode_request(second_request)]
    assert sent(route) == [
        interaction.request.json for interaction in interactions if interaction.request
    ]
    assert first.finish_reason is FinishReason.TOOL_CALLS
    assert second.text == "Yes, there is light rain in Lisbon right now, at about 14 °C."
    assert second.usage.input_tokens == 3 + 512 + 68
    assert route.calls[0].request.headers["authorization"] == "Bearer test-key"


STREAM_BODY = {
    "model": "claude-haiku-4-5",
    "max_tokens": 8192,
    "messages": [{"role": "user", "content": "Check the weather in Oslo and Bergen."}],
    "tools": [WEATHER_WIRE],
    "thinking": {"type": "enabled", "budget_tokens": 1024},
    "stream": True,
}


def stream_request() -> ChatRequest:
    return ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=8192,
        messages=(Message.user("Check the weather in Oslo and Bergen."),),
        tools=(WEATHER,),
        reasoning=ReasoningConfig(budget_tokens=1024),
    )


def test_a_stream_through_the_sdk(api: respx.MockRouter) -> None:
    interactions = hand_made("stream_thinking_tool_use.json")
    route = replay(api, interactions)

    response = accumulate(AnthropicClient(sdk()).stream(stream_request()))

    assert sent(route) == [STREAM_BODY]
    assert sent(route) == [encode_request(stream_request().model_copy(update={"stream": True}))]
    assert response == accumulate(decode_stream(interactions[0].response.stream_payloads()))
    assert [call.parsed_arguments() for call in response.message.tool_calls] == [
        {"city": "Oslo"},
        {"city": "Bergen"},
    ]
    assert response.message.reasoning[0].signature
    assert response.usage.reasoning_tokens == 24


@pytest.mark.anyio
async def test_a_stream_through_the_async_sdk(api: respx.MockRouter) -> None:
    interactions = hand_made("stream_thinking_tool_use.json")
    route = replay(api, interactions)

    response = await accumulate_async(
        await AsyncAnthropicClient(async_sdk()).stream(stream_request())
    )

    assert sent(route) == [STREAM_BODY]
    assert response == accumulate(decode_stream(interactions[0].response.stream_payloads()))


@pytest.mark.anyio
async def test_a_complete_call_through_the_async_sdk(api: respx.MockRouter) -> None:
    interaction = hand_made("tool_round_trip_with_thinking.json")[0]
    assert interaction.request is not None
    route = replay(api, [interaction])
    request = decode_request(interaction.request.json)

    response = await AsyncAnthropicClient(async_sdk()).complete(request)

    assert sent(route) == [interaction.request.json]
    assert response == decode_response(interaction.response.json)


def test_an_image_input_through_httpx2s_mock_transport() -> None:
    interaction = hand_made("image_input.json")[0]
    assert interaction.request is not None
    png = interaction.request.json["messages"][0]["content"][0]["source"]["data"]
    bodies: list[dict[str, Any]] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        response = interaction.response
        return httpx2.Response(
            response.status, headers=response.replay_headers(), content=response.body
        )

    transport = httpx2.MockTransport(answer)
    client = AnthropicClient(
        anthropic.Anthropic(
            api_key="test-key", max_retries=0, http_client=httpx2.Client(transport=transport)
        )
    )
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=(
            Message.user(
                FilePart(media_type="image/png", data=png), "What colour is this square? One word."
            ),
        ),
    )

    response = client.complete(request)

    assert bodies == [
        {
            "model": "claude-sonnet-4-5",
            "max_tokens": 1024,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "image",
                            "source": {"type": "base64", "media_type": "image/png", "data": png},
                        },
                        {"type": "text", "text": "What colour is this square? One word."},
                    ],
                }
            ],
        }
    ]
    assert bodies[0] == encode_request(request) == interaction.request.json
    assert response.text == "Blue."


def test_an_error_status_raises_the_typed_error(api: respx.MockRouter) -> None:
    interactions = hand_made("error_invalid_request.json")
    route = replay(api, interactions)
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=(Message.user("Hello"),),
        temperature=3.5,
    )

    with pytest.raises(BadRequestError) as raised:
        AnthropicClient(sdk()).complete(request)

    assert sent(route) == [
        {
            "model": "claude-sonnet-4-5",
            "max_tokens": 1024,
            "messages": [{"role": "user", "content": "Hello"}],
            "temperature": 3.5,
        }
    ]
    error = raised.value
    assert (error.status, error.type, error.message) == (
        400,
        "invalid_request_error",
        "temperature: range: 0..1",
    )
    assert error.request_id == "req_011CXd8Kpw2Hn6Ts4Qm9Lz7F"
    assert not error.retryable
    assert isinstance(error.__cause__, anthropic.BadRequestError)


def test_an_error_event_in_a_stream_raises_a_stream_error_with_the_partial_answer(
    api: respx.MockRouter,
) -> None:
    replay(api, hand_made("stream_overloaded.json"))
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=1024,
        messages=(Message.user("Write a haiku about fog."),),
    )

    with pytest.raises(StreamError) as raised:
        accumulate(AnthropicClient(sdk()).stream(request))

    assert isinstance(raised.value.error, OverloadedError)
    assert raised.value.partial is not None
    assert raised.value.partial.text == "Grey breath on the bay"


@pytest.mark.anyio
async def test_an_error_event_in_an_async_stream_raises_a_stream_error(
    api: respx.MockRouter,
) -> None:
    replay(api, hand_made("stream_overloaded.json"))
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=1024,
        messages=(Message.user("Write a haiku about fog."),),
    )

    with pytest.raises(StreamError) as raised:
        await accumulate_async(await AsyncAnthropicClient(async_sdk()).stream(request))

    assert isinstance(raised.value.error, OverloadedError)
    assert raised.value.partial is not None
    assert raised.value.partial.text == "Grey breath on the bay"


def test_translation_errors_raise_before_anything_is_sent() -> None:
    requests: list[httpx2.Request] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        requests.append(request)
        return httpx2.Response(500)

    http_client = httpx2.Client(transport=httpx2.MockTransport(answer))
    client = AnthropicClient(
        anthropic.Anthropic(api_key="test-key", max_retries=0, http_client=http_client)
    )
    request = ChatRequest(
        model="claude-haiku-4-5",
        messages=(Message.user("Hi", FilePart(media_type="audio/wav", data="UklGRg==")),),
    )

    with pytest.raises(TranslationError):
        client.stream(request, report=TranslationReport(strict=True))
    with pytest.raises(TranslationError):
        client.complete(request, report=TranslationReport(strict=True))

    assert requests == []


def test_the_client_takes_a_user_built_sdk_client_or_the_options_to_build_one() -> None:
    built = AnthropicClient(
        api_key="test-key", base_url="https://gateway.example/anthropic", max_retries=5
    )
    user_sdk = sdk()

    assert str(built.sdk.base_url) == "https://gateway.example/anthropic/"
    assert built.sdk.max_retries == 5
    assert AnthropicClient(user_sdk).sdk is user_sdk
    with pytest.raises(TypeError):
        AnthropicClient(user_sdk, api_key="another")


# --- the real traffic of the corpus, replayed through the real client ---


def corpus_calls(path: Path | None) -> list[Interaction]:
    if path is None:
        require_corpus()
        pytest.fail("the corpus has no anthropic folder")
    return [i for i in load_cassette(path).for_provider("anthropic") if i.path == "/v1/messages"]


CORPUS = [*corpus_files("anthropic")] or [None]


def corpus_id(path: Path | None) -> str:
    return "corpus-missing" if path is None else f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
def test_the_corpus_replayed_through_the_sdk_client(
    api: respx.MockRouter, path: Path | None
) -> None:
    calls = corpus_calls(path)
    route = replay(api, calls)
    client = AnthropicClient(sdk())
    expected = []

    for call in calls:
        assert call.request is not None
        request = decode_request(call.request.json)
        expected.append(encode_request(request))
        if call.response.status >= 400:
            with pytest.raises(ProviderError) as raised:
                client.stream(request) if request.stream else client.complete(request)
            assert raised.value.status == call.response.status
        elif call.is_stream:
            events = list(client.stream(request))
            assert accumulate(events) == accumulate(decode_stream(call.response.stream_payloads()))
        else:
            assert client.complete(request) == decode_response(call.response.json)

    assert sent(route) == expected
    assert sent(route) == [call.request.json for call in calls if call.request]


@pytest.mark.anyio
@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
async def test_the_corpus_replayed_through_the_async_sdk_client(
    api: respx.MockRouter, path: Path | None
) -> None:
    calls = corpus_calls(path)
    route = replay(api, calls)
    client = AsyncAnthropicClient(async_sdk())

    for call in calls:
        assert call.request is not None
        request = decode_request(call.request.json)
        if call.response.status >= 400:
            with pytest.raises(ProviderError):
                await (client.stream(request) if request.stream else client.complete(request))
        elif call.is_stream:
            response = await accumulate_async(await client.stream(request))
            assert response == accumulate(decode_stream(call.response.stream_payloads()))
        else:
            assert await client.complete(request) == decode_response(call.response.json)

    assert sent(route) == [call.request.json for call in calls if call.request]


@pytest.mark.parametrize(
    "path",
    [p for p in CORPUS if p is None or p.name.startswith("test_anthropic_model")] or [None],
    ids=corpus_id,
)
def test_the_sdks_own_objects_decode_like_the_json(
    api: respx.MockRouter, path: Path | None
) -> None:
    """Users calling `messages.create` themselves pass its `Message` or events on."""
    calls = [call for call in corpus_calls(path) if call.response.status < 400]
    replay(api, calls)
    client = sdk()

    for call in calls:
        # The request does not matter here: the recorded answer comes back whatever it is.
        # (claude-sonnet-4-5 would make `messages.create` warn that it is deprecated.)
        kwargs: dict[str, Any] = {
            "model": "claude-haiku-4-5",
            "max_tokens": 100,
            "messages": [{"role": "user", "content": "x"}],
        }
        if call.is_stream:
            with client.messages.create(**kwargs, stream=True) as events:
                decoded = list(decode_stream(events))
            assert decoded == list(decode_stream(call.response.stream_payloads()))
        else:
            message = client.messages.create(**kwargs)
            assert decode_response(message) == decode_response(call.response.json)


# --- the package ---


def test_importing_the_adapter_does_not_import_the_sdk() -> None:
    code = (
        "import sys, interlingua_anthropic as a\n"
        "assert a.encode_request and a.decode_stream\n"
        "print(sorted(m for m in sys.modules if m == 'anthropic' or m.startswith('anthropic.')))\n"
        "a.AnthropicClient\n"
        "print('anthropic' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )

    assert result.stdout.splitlines() == ["[]", "True"]


def test_the_module_is_the_adapter_found_by_name() -> None:
    adapter = interlingua.get_adapter("anthropic")

    assert adapter is interlingua_anthropic
    assert isinstance(adapter, Adapter)
    assert adapter.PROVIDER == "anthropic"
    assert "anthropic" in interlingua.available_adapters()


def test_the_export_list() -> None:
    assert sorted(interlingua_anthropic.__all__) == [
        "AnthropicClient",
        "AsyncAnthropicClient",
        "DEFAULT_MAX_TOKENS",
        "PROVIDER",
        "decode_error",
        "decode_request",
        "decode_response",
        "decode_stream",
        "encode_request",
        "encode_response",
    ]
    with pytest.raises(AttributeError):
        interlingua_anthropic.NoSuchClient  # noqa: B018


def test_the_readme_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (ROOT / "adapters" / "anthropic" / "README.md").read_text()
    code = "\n".join(re.findall(r"```python\n(.*?)```", readme, re.DOTALL))
    monkeypatch.chdir(ROOT)

    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})

    assert capsys.readouterr().out.splitlines() == [
        "Yes, there is light rain in Lisbon right now, at about 14 °C.",
        "1014 512",
    ]
