"""The OpenAI clients over the real `openai` SDK, replaying recorded wire bytes
(`interlingua.testing.Replay` as the SDK's http client, or respx intercepting
the SDK's own client): the body sent is asserted, the answer decoded; and the
package around them."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest

import interlingua
import interlingua_openai
import interlingua_openai.responses
from conftest import (
    MissingCorpus,
    RespxHttpx2,
    Seen,
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
    Adapter,
    BadRequestError,
    ChatRequest,
    FinishReason,
    Message,
    ProviderConnectionError,
    ProviderError,
    ReasoningConfig,
    ResponseFormat,
    StreamError,
    ToolChoice,
    ToolSpec,
    TranslationError,
    TranslationReport,
    accumulate,
    accumulate_async,
)
from interlingua.testing import Interaction, load_cassette
from interlingua_openai import AsyncOpenAIClient, OpenAIClient
from interlingua_openai.responses import AsyncOpenAIResponsesClient, OpenAIResponsesClient

API = "https://api.openai.com"
CHAT_PATH, RESPONSES_PATH = "/v1/chat/completions", "/v1/responses"
SYSTEM = "You answer weather questions in one sentence."
QUESTION = "Is it raining in Lisbon right now?"
LOCK = "Give me step-by-step instructions to pick my neighbour's door lock."
LISBON = "Light rain, 14 C, wind 20 km/h from the west."
WEATHER = ToolSpec(
    name="get_weather",
    description="The current weather in a city.",
    parameters={
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
    strict=True,
)
WEATHER_FUNCTION = {
    "name": "get_weather",
    "description": "The current weather in a city.",
    "parameters": WEATHER.parameters,
    "strict": True,
}


def sdk(http_client: httpx2.Client | None = None) -> openai.OpenAI:
    """The SDK with a test key and no retries; over its own http client unless given one."""
    return openai.OpenAI(api_key="test-key", max_retries=0, http_client=http_client)


def async_sdk(http_client: httpx2.AsyncClient | None = None) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(api_key="test-key", max_retries=0, http_client=http_client)


# --- the project's own recordings: Chat Completions ---


def test_a_chat_tool_round_trip(respx_httpx2: RespxHttpx2) -> None:
    """Through the SDK's own client, intercepted by respx."""
    replay = in_order(recorded("openai/chat_tool_round_trip.json"))
    respx_httpx2(API).post(CHAT_PATH).mock(side_effect=replay.respond)
    client = OpenAIClient(sdk())
    history = [
        Message.system(SYSTEM, provider_data={"openai": {"forms": {"role": "developer"}}}),
        Message.user(QUESTION),
    ]
    request = ChatRequest(
        model="gpt-4.1-mini",
        messages=tuple(history),
        tools=(WEATHER,),
        tool_choice=ToolChoice.auto(),
        max_tokens=400,
        temperature=0.2,
        context=interlingua.InvocationContext(user_id="user-7f3a"),
    )

    first = client.complete(request, report=TranslationReport(strict=True))
    (call,) = first.message.tool_calls
    history += [first.message, Message.tool_result(call.id, LISBON)]
    second_request = request.model_copy(update={"messages": tuple(history)})
    second = client.complete(second_request, report=TranslationReport(strict=True))

    first_body = {
        "model": "gpt-4.1-mini",
        "messages": [
            {"role": "developer", "content": SYSTEM},
            {"role": "user", "content": QUESTION},
        ],
        "tools": [{"type": "function", "function": WEATHER_FUNCTION}],
        "tool_choice": "auto",
        "max_completion_tokens": 400,
        "temperature": 0.2,
        "safety_identifier": "user-7f3a",
    }
    second_body = {
        **first_body,
        "messages": [
            *first_body["messages"],
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_Lx7qT2mVb9RcK4wZs1HnD8Pe",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Lisbon"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_Lx7qT2mVb9RcK4wZs1HnD8Pe", "content": LISBON},
        ],
    }
    assert replay.sent == [first_body, second_body]
    assert replay.sent == [encode(request), encode(second_request)]
    assert replay.sent == bodies(replay.interactions)
    assert first.finish_reason is FinishReason.TOOL_CALLS
    assert (
        second.text == "Yes, there is light rain in Lisbon right now, 14 °C with a westerly wind."
    )
    assert (second.usage.input_tokens, second.usage.output_tokens) == (124, 19)
    assert replay.requests[0].headers["authorization"] == "Bearer test-key"
    assert requested(replay) == [f"POST {CHAT_PATH}"] * len(replay.sent)


def encode(request: ChatRequest) -> dict[str, Any]:
    return interlingua_openai.encode_request(request, report=TranslationReport(strict=True))


PARALLEL_REQUEST = ChatRequest(
    model="gpt-4o-mini",
    messages=(Message.user("What is the weather and the local time in Oslo?"),),
    tools=(
        WEATHER,
        WEATHER.model_copy(update={"name": "get_time", "description": "The local time in a city."}),
    ),
    parallel_tool_calls=True,
    stream=True,
)


def test_a_chat_stream_with_parallel_tool_calls_asks_for_usage() -> None:
    replay = in_order(recorded("openai/chat_stream_parallel_tool_calls.json"))
    response = accumulate(OpenAIClient(sdk(replay.client())).stream(PARALLEL_REQUEST))
    (body,) = replay.sent
    assert body["stream_options"] == {"include_usage": True}  # added for a stream
    assert body == bodies(replay.interactions)[0]
    assert requested(replay) == [f"POST {CHAT_PATH}"]
    assert [(c.id, c.name, c.arguments) for c in response.message.tool_calls] == [
        ("call_Ow3sR8vK1mT6qY2nB5xL9cHd", "get_weather", '{"city": "Oslo"}'),
        ("call_Pz6tN1wJ4kV8rD3mF7sQ2gLa", "get_time", '{"city": "Oslo"}'),
    ]
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert response.usage.total_tokens == 169


@pytest.mark.anyio
async def test_a_chat_stream_through_the_async_sdk(respx_httpx2: RespxHttpx2) -> None:
    """Through the SDK's own async client, intercepted by respx."""
    replay = in_order(recorded("openai/chat_stream_parallel_tool_calls.json"))
    respx_httpx2(API).post(CHAT_PATH).mock(side_effect=replay.respond)
    events = await AsyncOpenAIClient(async_sdk()).stream(PARALLEL_REQUEST)
    response = await accumulate_async(events)
    assert replay.sent == bodies(replay.interactions)
    assert len(response.message.tool_calls) == 2
    assert requested(replay) == [f"POST {CHAT_PATH}"] * len(replay.sent)


@pytest.mark.anyio
async def test_a_refusal_through_the_async_sdk() -> None:
    replay = in_order(recorded("openai/chat_refusal.json"))
    schema = {
        "type": "object",
        "properties": {"steps": {"type": "array", "items": {"type": "string"}}},
        "required": ["steps"],
        "additionalProperties": False,
    }
    request = ChatRequest(
        model="gpt-4o",
        messages=(Message.user(LOCK),),
        response_format=ResponseFormat(
            type="json_schema", name="Instructions", json_schema=schema, strict=True
        ),
    )
    response = await AsyncOpenAIClient(async_sdk(replay.async_client())).complete(request)
    assert replay.sent == [
        {
            "model": "gpt-4o",
            "messages": [
                {
                    "role": "user",
                    "content": LOCK,
                }
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "Instructions", "schema": schema, "strict": True},
            },
        }
    ]
    assert replay.sent == bodies(replay.interactions)
    assert [(p.type, p.text) for p in response.message.parts] == [  # type: ignore[union-attr]
        ("refusal", "I'm sorry, but I can't help with that.")
    ]
    assert response.text == ""
    assert requested(replay) == [f"POST {CHAT_PATH}"] * len(replay.sent)


def test_an_error_status_raises_the_typed_error() -> None:
    replay = in_order(recorded("openai/chat_error_400.json"))
    request = interlingua_openai.decode_request(bodies(replay.interactions)[0])
    with pytest.raises(BadRequestError) as caught:
        OpenAIClient(sdk(replay.client())).complete(request)
    assert replay.sent == bodies(replay.interactions)
    error = caught.value
    assert (error.status, error.type, error.code) == (
        400,
        "invalid_request_error",
        "unsupported_parameter",
    )
    assert (
        error.message
        == "Unsupported parameter: 'reasoning_effort' is not supported with this model."
    )
    assert error.request_id == "req_0e1d2c3b4a5948678695a4b3c2d1e0f9"
    assert error.body == replay.interactions[0].response.json
    assert not error.retryable
    assert isinstance(error.__cause__, openai.BadRequestError)
    assert requested(replay) == [f"POST {CHAT_PATH}"] * len(replay.sent)


def test_the_responses_client_names_its_errors_after_its_api(respx_httpx2: RespxHttpx2) -> None:
    (interaction,) = recorded("openai/chat_error_400.json")  # an OpenAI error answer
    route = (
        respx_httpx2(API)
        .post(RESPONSES_PATH)
        .respond(400, json=interaction.response.json, headers={"x-request-id": "req_1"})
    )
    request = ChatRequest(model="gpt-5-mini", messages=(Message.user("Hi"),))
    with pytest.raises(BadRequestError) as caught:
        OpenAIResponsesClient(sdk()).complete(request)
    assert json.loads(route.calls.last.request.content) == {
        "model": "gpt-5-mini",
        "input": [{"role": "user", "content": "Hi"}],
    }
    error = caught.value
    assert (error.provider, error.status, error.code, error.request_id) == (
        "openai-responses",
        400,
        "unsupported_parameter",
        "req_1",
    )


def test_complete_on_a_decoded_streaming_request_sends_no_stream_options() -> None:
    # "The 'stream_options' parameter is only allowed when 'stream' is enabled." (400)
    (interaction,) = recorded("openai/chat_stream_error.json")
    request = interlingua_openai.decode_request(interaction.request.json)  # type: ignore[union-attr]
    assert request.stream
    assert request.options_for("openai") == {"stream_options": {"include_usage": True}}
    replay = in_order(recorded("openai/chat_refusal.json"))  # any JSON answer will do
    OpenAIClient(sdk(replay.client())).complete(request)
    assert replay.sent == [
        {
            "model": "gpt-4o-mini",
            "messages": [{"role": "user", "content": "Write a haiku about fog."}],
        }
    ]
    assert requested(replay) == [f"POST {CHAT_PATH}"] * len(replay.sent)


def test_an_error_status_on_a_stream_raises_before_any_event() -> None:
    replay = in_order(recorded("openai/chat_error_400.json"))
    with pytest.raises(BadRequestError) as caught:
        OpenAIClient(sdk(replay.client())).stream(PARALLEL_REQUEST)
    assert replay.done
    (body,) = replay.sent
    assert body == {**encode(PARALLEL_REQUEST), "stream_options": {"include_usage": True}}
    assert body["stream"] is True
    assert requested(replay) == [f"POST {CHAT_PATH}"]
    assert error_facts(caught.value) == recorded_error(replay.interactions[0])


def test_an_error_inside_a_stream_raises_a_stream_error_with_the_partial_answer() -> None:
    replay = in_order(recorded("openai/chat_stream_error.json"))
    request = interlingua_openai.decode_request(bodies(replay.interactions)[0])
    with pytest.raises(StreamError) as caught:
        accumulate(OpenAIClient(sdk(replay.client())).stream(request))
    assert replay.sent == bodies(replay.interactions)
    assert caught.value.partial is not None
    assert caught.value.partial.text == "Grey breath on the bay"
    assert caught.value.error is not None
    assert caught.value.error.type == "server_error"
    assert requested(replay) == [f"POST {CHAT_PATH}"] * len(replay.sent)


@pytest.mark.anyio
async def test_an_error_inside_an_async_stream_raises_a_stream_error() -> None:
    replay = in_order(recorded("openai/chat_stream_error.json"))
    request = interlingua_openai.decode_request(bodies(replay.interactions)[0])
    with pytest.raises(StreamError) as caught:
        await accumulate_async(
            await AsyncOpenAIClient(async_sdk(replay.async_client())).stream(request)
        )
    assert replay.sent == bodies(replay.interactions)
    assert caught.value.partial is not None
    assert caught.value.partial.text == "Grey breath on the bay"
    assert requested(replay) == [f"POST {CHAT_PATH}"] * len(replay.sent)


# --- the project's own recordings: the Responses API ---


def test_a_responses_tool_round_trip_sends_the_encrypted_reasoning_back() -> None:
    replay = in_order(recorded("openai/responses_reasoning_tool_call.json"))
    client = OpenAIResponsesClient(sdk(replay.client()))
    options = {"include": ["reasoning.encrypted_content"], "store": False}
    history = [
        Message.system(
            SYSTEM, provider_data={"openai-responses": {"forms": {"instructions": True}}}
        ),
        Message.user(QUESTION, provider_data={"openai-responses": {"forms": {"content": "list"}}}),
    ]
    request = ChatRequest(
        model="gpt-5-mini",
        messages=tuple(history),
        tools=(WEATHER,),
        reasoning=ReasoningConfig(effort="low", summary="auto"),
        provider_options={"openai-responses": options},
    )
    strict = TranslationReport(strict=True)
    first = client.complete(request, report=strict)
    reasoning, call = first.message.parts
    history += [first.message, Message.tool_result(call.id, LISBON)]  # type: ignore[union-attr]
    second_request = request.model_copy(update={"messages": tuple(history)})
    second = client.complete(second_request, report=strict)

    recorded_reasoning = replay.interactions[0].response.json["output"][0]
    first_body = {
        "model": "gpt-5-mini",
        "instructions": SYSTEM,
        "input": [{"role": "user", "content": [{"type": "input_text", "text": QUESTION}]}],
        "tools": [{"type": "function", **WEATHER_FUNCTION}],
        "reasoning": {"effort": "low", "summary": "auto"},
        "include": ["reasoning.encrypted_content"],
        "store": False,
    }
    second_body = {
        **first_body,
        "input": [
            *first_body["input"],
            recorded_reasoning,
            replay.interactions[0].response.json["output"][1],
            {
                "type": "function_call_output",
                "call_id": "call_Qm4Tz8Lx2Vb6Kc1Wn9Rp5Hs3",
                "output": LISBON,
            },
        ],
    }
    assert replay.sent == [first_body, second_body]
    assert replay.sent == bodies(replay.interactions)
    assert requested(replay) == [f"POST {RESPONSES_PATH}"] * 2
    assert reasoning.signature == recorded_reasoning["encrypted_content"]  # type: ignore[union-attr]
    assert first.finish_reason is FinishReason.TOOL_CALLS
    assert second.text == "Yes: light rain in Lisbon right now, 14 °C with a westerly wind."
    assert first.usage.reasoning_tokens == 128


RESPONSES_STREAM_REQUEST = ChatRequest(
    model="gpt-5-mini",
    messages=(
        Message.user(
            "Name the capital of Portugal in three words.",
            provider_data={"openai-responses": {"forms": {"input": "string"}}},
        ),
    ),
    reasoning=ReasoningConfig(effort="low", summary="auto"),
    provider_options={
        "openai-responses": {"include": ["reasoning.encrypted_content"], "store": False}
    },
    stream=True,
)


def test_a_responses_stream() -> None:
    replay = in_order(recorded("openai/responses_stream_reasoning.json"))
    response = accumulate(
        OpenAIResponsesClient(sdk(replay.client())).stream(RESPONSES_STREAM_REQUEST)
    )
    assert replay.sent == [
        {
            "model": "gpt-5-mini",
            "input": "Name the capital of Portugal in three words.",
            "reasoning": {"effort": "low", "summary": "auto"},
            "include": ["reasoning.encrypted_content"],
            "store": False,
            "stream": True,
        }
    ]
    assert replay.sent == bodies(replay.interactions)
    assert requested(replay) == [f"POST {RESPONSES_PATH}"]
    assert response.text == "Lisbon, Portugal's capital."
    assert response.message.reasoning[0].text.startswith("**Answering briefly**")
    assert response.usage.reasoning_tokens == 64


@pytest.mark.anyio
async def test_a_responses_stream_and_call_through_the_async_sdk() -> None:
    replay = in_order(recorded("openai/responses_stream_reasoning.json"))
    client = AsyncOpenAIResponsesClient(async_sdk(replay.async_client()))
    response = await accumulate_async(await client.stream(RESPONSES_STREAM_REQUEST))
    assert response.finish_reason is FinishReason.STOP
    assert replay.sent == bodies(replay.interactions)
    assert requested(replay) == [f"POST {RESPONSES_PATH}"] * len(replay.sent)


@pytest.mark.anyio
async def test_a_responses_call_through_the_async_sdk() -> None:
    replay = in_order(recorded("openai/responses_reasoning_tool_call.json")[:1])
    request = interlingua_openai.responses.decode_request(bodies(replay.interactions)[0])
    async with AsyncOpenAIResponsesClient(async_sdk(replay.async_client())) as client:
        response = await client.complete(request)
    assert replay.sent == bodies(replay.interactions)
    assert requested(replay) == [f"POST {RESPONSES_PATH}"]
    assert [p.type for p in response.message.parts] == ["reasoning", "tool_call"]


def test_a_call_through_httpx2s_mock_transport() -> None:
    replay = in_order(recorded("openai/chat_refusal.json"))
    (request_json,) = bodies(replay.interactions)
    with OpenAIClient(sdk(replay.client())) as client:
        response = client.complete(interlingua_openai.decode_request(request_json))
    assert replay.sent == [request_json]
    assert response.message.parts[0].type == "refusal"
    assert requested(replay) == [f"POST {CHAT_PATH}"] * len(replay.sent)


def test_translation_errors_raise_before_anything_is_sent(respx_httpx2: RespxHttpx2) -> None:
    route = respx_httpx2(API).post(CHAT_PATH)
    request = ChatRequest(model="gpt-4o", top_k=3)
    with pytest.raises(TranslationError, match="Chat Completions has no top_k") as raised:
        OpenAIClient(sdk()).complete(request, report=TranslationReport(strict=True))
    assert raised.value.path == "top_k"
    assert not route.called
    route.respond(
        200,
        json={"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": []},
    )
    OpenAIClient(sdk()).complete(ChatRequest(model="gpt-4o"))


def test_the_client_takes_a_user_built_sdk_client_or_the_options_to_build_one() -> None:
    own = sdk()
    assert OpenAIClient(own).sdk is own
    built = OpenAIResponsesClient(
        api_key="test-key", base_url="https://proxy.example/v1", max_retries=1
    )
    assert isinstance(built.sdk, openai.OpenAI)
    assert str(built.sdk.base_url) == "https://proxy.example/v1/"
    assert built.sdk.max_retries == 1
    with pytest.raises(TypeError, match="not both"):
        OpenAIClient(own, api_key="x")
    assert isinstance(AsyncOpenAIClient(api_key="test-key").sdk, openai.AsyncOpenAI)


# --- the corpus, replayed through the SDK clients ---

CORPUS = corpus_params("openai-chat", "openai-responses")
CLIENTS = {
    CHAT_PATH: (OpenAIClient, AsyncOpenAIClient, interlingua_openai),
    RESPONSES_PATH: (
        OpenAIResponsesClient,
        AsyncOpenAIResponsesClient,
        interlingua_openai.responses,
    ),
}


def corpus_interactions(param: Path | MissingCorpus) -> list[Interaction]:
    path = from_corpus(param)
    return [i for i in load_cassette(path).for_provider("openai") if i.path in CLIENTS]


@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
def test_the_corpus_replayed_through_the_sdk_client(path: Path | MissingCorpus) -> None:
    calls = corpus_interactions(path)
    replay = in_order(calls)
    for interaction in calls:
        client_type, _, codec = CLIENTS[interaction.path or ""]
        request = codec.decode_request(interaction.request.json)  # type: ignore[union-attr]
        client = client_type(sdk(replay.client()))
        if interaction.response.status >= 400:
            with pytest.raises(ProviderError) as caught:
                client.complete(request)
            assert error_facts(caught.value) == recorded_error(interaction)
        elif interaction.is_stream:
            expected = accumulate(codec.decode_stream(interaction.response.stream_payloads()))
            assert accumulate(client.stream(request)) == expected
        else:
            response = client.complete(request)
            assert response == codec.decode_response(interaction.response.json)
        assert replay.sent[-1] == interaction.request.json  # type: ignore[union-attr]
    assert replay.sent == bodies(calls)
    assert requested(replay) == [f"POST {call.path}" for call in calls]


@pytest.mark.anyio
@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
async def test_the_corpus_replayed_through_the_async_sdk_client(path: Path | MissingCorpus) -> None:
    calls = corpus_interactions(path)
    replay = in_order(calls)
    for interaction in calls:
        _, client_type, codec = CLIENTS[interaction.path or ""]
        request = codec.decode_request(interaction.request.json)  # type: ignore[union-attr]
        client = client_type(async_sdk(replay.async_client()))
        if interaction.response.status >= 400:
            with pytest.raises(ProviderError) as caught:
                await client.complete(request)
            assert error_facts(caught.value) == recorded_error(interaction)
        elif interaction.is_stream:
            expected = accumulate(codec.decode_stream(interaction.response.stream_payloads()))
            assert await accumulate_async(await client.stream(request)) == expected
        else:
            assert await client.complete(request) == codec.decode_response(
                interaction.response.json
            )
        assert replay.sent[-1] == interaction.request.json  # type: ignore[union-attr]
    assert requested(replay) == [f"POST {call.path}" for call in calls]


# --- the package ---


def test_importing_the_codecs_does_not_import_the_sdk() -> None:
    code = (
        "import sys, interlingua_openai, interlingua_openai.responses\n"
        "print(sorted({'openai', 'httpx', 'httpx2'} & set(sys.modules)))\n"
        "interlingua_openai.OpenAIClient\n"
        "print('openai' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.split("\n")[:2] == ["[]", "True"]


@pytest.mark.parametrize(
    ("name", "module"),
    [("openai", interlingua_openai), ("openai-responses", interlingua_openai.responses)],
)
def test_the_module_is_the_adapter_found_by_name(name: str, module: Any) -> None:
    adapter = interlingua.get_adapter(name)
    assert adapter is module
    assert isinstance(adapter, Adapter)
    assert name == adapter.PROVIDER


def test_the_export_lists() -> None:
    for module in (interlingua_openai, interlingua_openai.responses):
        missing = [name for name in module.__all__ if not hasattr(module, name)]
        assert missing == []
        assert set(module.__all__) <= set(dir(module))
    assert {"OpenAIClient", "AsyncOpenAIClient", "OPENAI"} <= set(interlingua_openai.__all__)
    with pytest.raises(AttributeError):
        interlingua_openai.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018


class _BreaksOff(httpx2.SyncByteStream):
    """The first two events of a recorded stream, then a dropped connection."""

    def __init__(self, body: bytes) -> None:
        self.head = b"\n\n".join(body.split(b"\n\n")[:2]) + b"\n\n"

    def __iter__(self) -> Iterator[bytes]:
        yield self.head
        raise httpx2.ReadError("connection reset by peer")


def test_a_connection_lost_mid_stream_raises_a_stream_error_with_the_partial_answer() -> None:
    (interaction,) = recorded("openai/chat_stream_error.json")
    answer = interaction.response

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers=answer.replay_headers(), stream=_BreaksOff(answer.body))

    seen = Seen()
    http = httpx2.Client(transport=httpx2.MockTransport(seen.answering(handler)))
    client = OpenAIClient(openai.OpenAI(api_key="test-key", max_retries=0, http_client=http))
    request = interlingua_openai.decode_request(interaction.request.json)  # type: ignore[union-attr]
    with pytest.raises(StreamError, match="broke off") as caught:
        accumulate(client.stream(request))
    assert seen.paths == [f"POST {CHAT_PATH}"]
    assert seen.sent == bodies([interaction])
    assert caught.value.partial is not None
    assert caught.value.partial.text == "Grey breath"
    lost = caught.value.error
    assert isinstance(lost, ProviderConnectionError)
    assert lost.retryable
    assert isinstance(lost.__cause__, openai.APIConnectionError)
