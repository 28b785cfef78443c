"""The Anthropic clients over the real `anthropic` SDK, replaying wire bytes
(`interlingua.testing.Replay` as the SDK's http client, or respx intercepting
the SDK's own client), and the package around them. The bytes are the corpus's
real traffic, and the project's own fixtures in `fixtures/anthropic/`:
hand-made, shaped like real traffic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest

import interlingua
import interlingua_anthropic
from conftest import (
    MissingCorpus,
    RespxHttpx2,
    bodies,
    corpus_id,
    corpus_params,
    error_facts,
    from_corpus,
    in_order,
    recorded,
    recorded_error,
    requested,
)
from interlingua import (
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

API = "https://api.anthropic.com"
MESSAGES_PATH = "/v1/messages"
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


def sdk(http_client: httpx2.Client | None = None) -> anthropic.Anthropic:
    """The SDK with a test key and no retries; over its own http client unless given one."""
    return anthropic.Anthropic(api_key="test-key", max_retries=0, http_client=http_client)


def async_sdk(http_client: httpx2.AsyncClient | None = None) -> anthropic.AsyncAnthropic:
    return anthropic.AsyncAnthropic(api_key="test-key", max_retries=0, http_client=http_client)


# --- the project's own fixtures ---


def test_a_tool_round_trip_with_thinking(respx_httpx2: RespxHttpx2) -> None:
    """Through the SDK's own client, intercepted by respx."""
    replay = in_order(recorded("anthropic/tool_round_trip_with_thinking.json"))
    respx_httpx2(API).post("/v1/messages").mock(side_effect=replay.respond)
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
    assert replay.sent == [first_body, second_body]
    assert replay.sent == [encode_request(request), encode_request(second_request)]
    assert replay.sent == bodies(replay.interactions)
    assert first.finish_reason is FinishReason.TOOL_CALLS
    assert second.text == "Yes, there is light rain in Lisbon right now, at about 14 °C."
    assert second.usage.input_tokens == 3 + 512 + 68
    assert replay.requests[0].headers["authorization"] == "Bearer test-key"
    assert requested(replay) == [f"POST {MESSAGES_PATH}"] * len(replay.sent)


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


def test_a_stream_through_the_sdk() -> None:
    replay = in_order(recorded("anthropic/stream_thinking_tool_use.json"))

    response = accumulate(AnthropicClient(sdk(replay.client())).stream(stream_request()))

    assert replay.sent == [STREAM_BODY]
    assert replay.sent == [encode_request(stream_request().model_copy(update={"stream": True}))]
    assert response == accumulate(decode_stream(replay.interactions[0].response.stream_payloads()))
    assert [call.parsed_arguments() for call in response.message.tool_calls] == [
        {"city": "Oslo"},
        {"city": "Bergen"},
    ]
    assert response.message.reasoning[0].signature
    assert response.usage.reasoning_tokens == 24
    assert requested(replay) == [f"POST {MESSAGES_PATH}"] * len(replay.sent)


@pytest.mark.anyio
async def test_a_stream_through_the_async_sdk(respx_httpx2: RespxHttpx2) -> None:
    """Through the SDK's own async client, intercepted by respx."""
    replay = in_order(recorded("anthropic/stream_thinking_tool_use.json"))
    respx_httpx2(API).post("/v1/messages").mock(side_effect=replay.respond)

    response = await accumulate_async(
        await AsyncAnthropicClient(async_sdk()).stream(stream_request())
    )

    assert replay.sent == [STREAM_BODY]
    assert response == accumulate(decode_stream(replay.interactions[0].response.stream_payloads()))
    assert requested(replay) == [f"POST {MESSAGES_PATH}"] * len(replay.sent)


@pytest.mark.anyio
async def test_a_complete_call_through_the_async_sdk() -> None:
    interaction = recorded("anthropic/tool_round_trip_with_thinking.json")[0]
    assert interaction.request is not None
    replay = in_order([interaction])
    request = decode_request(interaction.request.json)

    response = await AsyncAnthropicClient(async_sdk(replay.async_client())).complete(request)

    assert replay.sent == [interaction.request.json]
    assert response == decode_response(interaction.response.json)
    assert requested(replay) == [f"POST {MESSAGES_PATH}"] * len(replay.sent)


def test_a_system_turn_inside_messages_goes_through_the_sdk_as_claude_code_sends_it() -> None:
    """Claude Code's shape: the user's turn, then `{"role": "system", ...}`, to
    claude-opus-4-8, streamed; the body the SDK sends is the recorded one."""
    (interaction,) = recorded("anthropic/system_in_messages.json")
    assert interaction.request is not None
    replay = in_order([interaction])
    request = decode_request(interaction.request.json)
    report = TranslationReport(strict=True)

    response = accumulate(AnthropicClient(sdk(replay.client())).stream(request, report=report))

    assert replay.sent == [interaction.request.json]
    assert replay.sent[0]["messages"][-1] == {
        "role": "system",
        "content": request.messages[-1].text,
    }
    assert response == accumulate(decode_stream(interaction.response.stream_payloads()))
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert requested(replay) == [f"POST {MESSAGES_PATH}"]


def test_a_mistral_prefix_goes_to_anthropic_as_the_prefill_it_is() -> None:
    (interaction,) = recorded("anthropic/prefill.json")
    (mistral,) = recorded("mistral/prefix.json")
    assert interaction.request is not None
    assert mistral.request is not None
    replay = in_order([interaction])
    request = interlingua.get_adapter("mistral").decode_request(mistral.request.json)
    request = request.model_copy(update={"model": "claude-sonnet-4-5"})
    report = TranslationReport(strict=True)

    response = AnthropicClient(sdk(replay.client())).complete(request, report=report)

    assert replay.sent == [interaction.request.json]
    assert decode_request(interaction.request.json).messages == request.messages
    assert response.text == interaction.response.json["content"][0]["text"]
    usage = interaction.response.json["usage"]
    assert (response.usage.input_tokens, response.usage.output_tokens) == (
        usage["input_tokens"],
        usage["output_tokens"],
    )


def test_an_image_input_through_httpx2s_mock_transport() -> None:
    interaction = recorded("anthropic/image_input.json")[0]
    assert interaction.request is not None
    png = interaction.request.json["messages"][0]["content"][0]["source"]["data"]
    replay = in_order([interaction])
    client = AnthropicClient(sdk(replay.client()))
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

    assert replay.sent == [
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
    assert replay.sent[0] == encode_request(request) == interaction.request.json
    assert response.text == "Blue."
    assert requested(replay) == [f"POST {MESSAGES_PATH}"] * len(replay.sent)


def test_an_error_status_raises_the_typed_error() -> None:
    replay = in_order(recorded("anthropic/error_invalid_request.json"))
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=(Message.user("Hello"),),
        temperature=3.5,
    )

    with pytest.raises(BadRequestError) as raised:
        AnthropicClient(sdk(replay.client())).complete(request)

    assert replay.sent == [
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
    assert requested(replay) == [f"POST {MESSAGES_PATH}"] * len(replay.sent)


HAIKU_STREAM_BODY = {
    "model": "claude-haiku-4-5",
    "max_tokens": 1024,
    "messages": [{"role": "user", "content": "Write a haiku about fog."}],
    "stream": True,
}


def test_an_error_event_in_a_stream_raises_a_stream_error_with_the_partial_answer() -> None:
    replay = in_order(recorded("anthropic/stream_overloaded.json"))
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=1024,
        messages=(Message.user("Write a haiku about fog."),),
    )

    with pytest.raises(StreamError) as raised:
        accumulate(AnthropicClient(sdk(replay.client())).stream(request))

    assert replay.done
    assert replay.sent == [HAIKU_STREAM_BODY]
    assert replay.sent == bodies(replay.interactions)
    assert requested(replay) == [f"POST {MESSAGES_PATH}"]
    assert isinstance(raised.value.error, OverloadedError)
    assert raised.value.partial is not None
    assert raised.value.partial.text == "Grey breath on the bay"


@pytest.mark.anyio
async def test_an_error_event_in_an_async_stream_raises_a_stream_error() -> None:
    replay = in_order(recorded("anthropic/stream_overloaded.json"))
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=1024,
        messages=(Message.user("Write a haiku about fog."),),
    )

    with pytest.raises(StreamError) as raised:
        await accumulate_async(
            await AsyncAnthropicClient(async_sdk(replay.async_client())).stream(request)
        )

    assert replay.done
    assert replay.sent == [HAIKU_STREAM_BODY]
    assert requested(replay) == [f"POST {MESSAGES_PATH}"]
    assert isinstance(raised.value.error, OverloadedError)
    assert raised.value.partial is not None
    assert raised.value.partial.text == "Grey breath on the bay"


def test_translation_errors_raise_before_anything_is_sent() -> None:
    replay = in_order([])
    client = AnthropicClient(sdk(replay.client()))
    request = ChatRequest(
        model="claude-haiku-4-5",
        messages=(Message.user("Hi", FilePart(media_type="audio/wav", data="UklGRg==")),),
    )

    audio = "Anthropic takes images, PDFs and plain text, not audio/wav"
    with pytest.raises(TranslationError, match=audio) as streamed:
        client.stream(request, report=TranslationReport(strict=True))
    with pytest.raises(TranslationError, match=audio) as completed:
        client.complete(request, report=TranslationReport(strict=True))

    assert streamed.value.path == completed.value.path == "messages[0].parts[1]"

    assert replay.requests == []


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


def corpus_calls(param: Path | MissingCorpus) -> list[Interaction]:
    path = from_corpus(param)
    return [i for i in load_cassette(path).for_provider("anthropic") if i.path == "/v1/messages"]


CORPUS = corpus_params("anthropic")


@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
def test_the_corpus_replayed_through_the_sdk_client(path: Path | MissingCorpus) -> None:
    calls = corpus_calls(path)
    replay = in_order(calls)
    client = AnthropicClient(sdk(replay.client()))
    expected = []

    for call in calls:
        assert call.request is not None
        request = decode_request(call.request.json)
        expected.append(encode_request(request))
        if call.response.status >= 400:
            with pytest.raises(ProviderError) as raised:
                client.stream(request) if request.stream else client.complete(request)
            assert error_facts(raised.value) == recorded_error(call)
        elif call.is_stream:
            events = list(client.stream(request))
            assert accumulate(events) == accumulate(decode_stream(call.response.stream_payloads()))
        else:
            assert client.complete(request) == decode_response(call.response.json)

    assert replay.sent == expected
    assert replay.sent == bodies(calls)
    assert requested(replay) == ["POST /v1/messages"] * len(calls)


@pytest.mark.anyio
@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
async def test_the_corpus_replayed_through_the_async_sdk_client(path: Path | MissingCorpus) -> None:
    calls = corpus_calls(path)
    replay = in_order(calls)
    client = AsyncAnthropicClient(async_sdk(replay.async_client()))

    for call in calls:
        assert call.request is not None
        request = decode_request(call.request.json)
        if call.response.status >= 400:
            with pytest.raises(ProviderError) as raised:
                await (client.stream(request) if request.stream else client.complete(request))
            assert error_facts(raised.value) == recorded_error(call)
        elif call.is_stream:
            response = await accumulate_async(await client.stream(request))
            assert response == accumulate(decode_stream(call.response.stream_payloads()))
        else:
            assert await client.complete(request) == decode_response(call.response.json)

    assert replay.sent == bodies(calls)
    assert requested(replay) == ["POST /v1/messages"] * len(calls)


@pytest.mark.parametrize(
    "path",
    corpus_params("anthropic", keep=lambda p: p.name.startswith("test_anthropic_model")),
    ids=corpus_id,
)
def test_the_sdks_own_objects_decode_like_the_json(path: Path | MissingCorpus) -> None:
    """Users calling `messages.create` themselves pass its `Message` or events on."""
    calls = [call for call in corpus_calls(path) if call.response.status < 400]
    replay = in_order(calls)
    client = sdk(replay.client())
    expected = []

    for call in calls:
        # Any request will do (the recorded answer comes back whatever it is); it is
        # checked as sent below.
        # (claude-sonnet-4-5 would make `messages.create` warn that it is deprecated.)
        kwargs: dict[str, Any] = {
            "model": "claude-haiku-4-5",
            "max_tokens": 100,
            "messages": [{"role": "user", "content": "x"}],
        }
        if call.is_stream:
            expected.append({**kwargs, "stream": True})
            with client.messages.create(**kwargs, stream=True) as events:
                decoded = list(decode_stream(events))
            assert decoded == list(decode_stream(call.response.stream_payloads()))
        else:
            expected.append(kwargs)
            message = client.messages.create(**kwargs)
            assert decode_response(message) == decode_response(call.response.json)

    assert replay.done
    assert replay.sent == expected
    assert requested(replay) == [f"POST {MESSAGES_PATH}"] * len(calls)


# --- the package ---


def test_the_export_list() -> None:
    assert sorted(interlingua_anthropic.__all__) == [
        "AnthropicClient",
        "AnthropicStreamEncoder",
        "AsyncAnthropicClient",
        "DEFAULT_MAX_TOKENS",
        "PRICES",
        "PROVIDER",
        "decode_error",
        "decode_request",
        "decode_response",
        "decode_stream",
        "encode_error",
        "encode_request",
        "encode_response",
        "encode_stream",
        "stream_encoder",
    ]
    with pytest.raises(AttributeError):
        interlingua_anthropic.NoSuchClient  # noqa: B018
