"""The Groq clients over the real `groq` SDK, answered by recorded wire bytes
through plain respx (the SDK sends through `httpx`, which respx patches), and
the package around them. The bytes are the corpus's real traffic, and the
project's own fixtures in `fixtures/groq/`: hand-made, shaped like real
traffic. The body sent is exactly `encode_request(request)`; the answer is
decoded as Groq wrote it; errors come out typed as `CODEC.decode_error` types
them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import groq
import httpx
import pytest
import respx

import interlingua
from conftest import (
    MissingCorpus,
    bodies,
    corpus_id,
    corpus_params,
    from_corpus,
    in_order,
    recorded,
    requested,
    same_json,
    strict,
)
from interlingua import (
    AuthenticationError,
    BadRequestError,
    ChatRequest,
    DecodeError,
    FinishReason,
    Message,
    ProviderConnectionError,
    ProviderError,
    ReasoningConfig,
    StreamError,
    ToolChoice,
    ToolSpec,
    accumulate,
    accumulate_async,
)
from interlingua._rate_limits import decode_rate_limits
from interlingua.testing import Interaction, Replay, load_cassette
from interlingua_groq import (
    AsyncGroqClient,
    GroqClient,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
)
from interlingua_groq._dialect import CODEC

API = "https://api.groq.com"
PATH = "/openai/v1/chat/completions"
SECRET = "gsk_test_9f3KqL2vXw8RtY6bN1mZ4cD7"
SYSTEM = "You answer weather questions in one sentence."
QUESTION = "Is it raining in Lisbon right now?"
LISBON_WEATHER = '{"city": "Lisbon", "condition": "light rain", "temperature_c": 14}'
CITY = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
STRICT_CITY = {**CITY, "additionalProperties": False}
WEATHER = ToolSpec(
    name="get_weather", description="The current weather in a city.", parameters=CITY
)
STRICT_WEATHER = WEATHER.model_copy(update={"parameters": STRICT_CITY})
WEATHER_WIRE: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": CITY,
    },
}


def sdk() -> groq.Groq:
    """The SDK with a test key and no retries, over its own httpx client."""
    return groq.Groq(api_key="test-key", max_retries=0)


def async_sdk() -> groq.AsyncGroq:
    return groq.AsyncGroq(api_key="test-key", max_retries=0)


@pytest.fixture
def groq_api() -> Iterator[respx.MockRouter]:
    """A respx router answering the SDK's own httpx client at Groq's address;
    every route it has must be called by the end of the test."""
    with respx.mock(base_url=API, assert_all_called=True) as router:
        yield router


def serve(router: respx.MockRouter, interactions: Any) -> Replay:
    """`interactions` replayed, in order, to whatever posts to Groq's chat completions."""
    replay = in_order(interactions)
    router.post(PATH).mock(side_effect=replay.respond)
    return replay


def typed(error: ProviderError) -> dict[str, Any]:
    """What a typed error holds: its class and every attribute it has (of its
    rate limits, each limit and what remained: a reset is read from now)."""
    limits = error.rate_limits
    counts = {
        bucket: (limit.limit, limit.remaining)
        for bucket in ("requests", "tokens", "input_tokens", "output_tokens")
        if (limit := getattr(limits, bucket, None)) is not None
    }
    return {"class": type(error), **vars(error), "rate_limits": counts}


def expected_error(interaction: Interaction) -> dict[str, Any]:
    """What the client raises for a recorded error answer: the codec's typed
    error, with the request id of the answer's `x-request-id` header and the
    rate limits of its `x-ratelimit-*` headers."""
    response = interaction.response
    error = CODEC.decode_error(response.status, response.json)
    header = response.headers.get("x-request-id", ())
    error.request_id = error.request_id or next(iter(header), None)
    headers = {name: values[0] for name, values in response.headers.items()}
    error.rate_limits = decode_rate_limits(headers)
    return typed(error)


# --- the project's own fixtures: parsed reasoning and a tool call ---

FIRST_REASONING = (
    "The user asks whether it is raining in Lisbon right now. "
    "I need current weather, so call get_weather with city Lisbon."
)
CALL_ID = "fc_5b8e2f0a-3c71-4d9e-a6b2-9f04c1d7e385"


def round_trip_request() -> ChatRequest:
    return ChatRequest(
        model="openai/gpt-oss-120b",
        messages=(Message.system(SYSTEM), Message.user(QUESTION)),
        tools=(WEATHER,),
        tool_choice=ToolChoice.auto(),
        max_tokens=1024,
        reasoning=ReasoningConfig(effort="low"),
    )


def test_a_tool_round_trip_sends_groqs_reasoning_back(groq_api: respx.MockRouter) -> None:
    replay = serve(groq_api, recorded("groq/reasoning_tool_round_trip.json"))
    client = GroqClient(sdk())
    request = round_trip_request()

    first = client.complete(request, report=strict())
    (call,) = first.message.tool_calls
    history = (*request.messages, first.message, Message.tool_result(call.id, LISBON_WEATHER))
    second_request = request.model_copy(update={"messages": history})
    second = client.complete(second_request, report=strict())

    first_body: dict[str, Any] = {
        "model": "openai/gpt-oss-120b",
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": QUESTION},
        ],
        "tools": [WEATHER_WIRE],
        "tool_choice": "auto",
        "max_completion_tokens": 1024,
        "reasoning_effort": "low",
    }
    second_body = {
        **first_body,
        "messages": [
            *first_body["messages"],
            {
                "role": "assistant",
                "content": None,
                "reasoning": FIRST_REASONING,  # Groq made it, and gpt-oss takes it back
                "tool_calls": [
                    {
                        "id": CALL_ID,
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Lisbon"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": CALL_ID, "content": LISBON_WEATHER},
        ],
    }
    assert replay.sent == [first_body, second_body]
    assert replay.sent == [encode_request(request), encode_request(second_request)]
    assert replay.sent == bodies(replay.interactions)
    assert [(p.text, p.provider) for p in first.message.reasoning] == [(FIRST_REASONING, "groq")]
    assert (call.id, call.name, call.parsed_arguments()) == (
        CALL_ID,
        "get_weather",
        {"city": "Lisbon"},
    )
    assert first.finish_reason is FinishReason.TOOL_CALLS
    assert (first.usage.input_tokens, first.usage.output_tokens) == (176, 47)
    assert first.usage.reasoning_tokens == 26
    assert first.usage.details.get("queue_time") == 0.046210731  # Groq's timings kept as details
    assert second.text == "Yes, there is light rain in Lisbon right now, at about 14 °C."
    assert second.message.reasoning[0].text.startswith("get_weather says light rain")
    assert second.finish_reason is FinishReason.STOP
    assert (second.usage.input_tokens, second.usage.cache_read_tokens) == (254, 128)
    assert replay.requests[0].headers["authorization"] == "Bearer test-key"
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


@pytest.mark.anyio
async def test_the_tool_result_turn_through_the_async_sdk(groq_api: respx.MockRouter) -> None:
    interaction = recorded("groq/reasoning_tool_round_trip.json")[1]
    assert interaction.request is not None
    replay = serve(groq_api, [interaction])
    request = decode_request(interaction.request.json)

    async with AsyncGroqClient(async_sdk()) as client:
        response = await client.complete(request, report=strict())

    assert replay.sent == [interaction.request.json]
    assert response == decode_response(interaction.response.json)
    assert response.usage.cache_read_tokens == 128
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


# --- a tool message with its tool's name ---


def test_a_tool_message_with_its_name_is_sent_with_it(groq_api: respx.MockRouter) -> None:
    (interaction,) = recorded("groq/tool_message_name.json")
    assert interaction.request is not None
    body = interaction.request.json
    replay = serve(groq_api, [interaction])
    request = decode_request(body)

    response = GroqClient(sdk()).complete(request, report=strict())

    (result,) = request.messages[3].tool_results
    assert (result.tool_call_id, result.name) == ("call_h6q2", "add")
    assert replay.sent == [body]
    assert replay.sent[0]["messages"][3] == {
        "role": "tool",
        "tool_call_id": "call_h6q2",
        "name": "add",
        "content": "42",
    }
    assert same_json(encode_request(request), body)
    assert response.text == interaction.response.json["choices"][0]["message"]["content"]
    assert response.finish_reason is FinishReason.STOP
    usage = interaction.response.json["usage"]
    assert (response.usage.input_tokens, response.usage.output_tokens) == (
        usage["prompt_tokens"],
        usage["completion_tokens"],
    )


# --- a raw <think> answer ---

STRAWBERRY = 'How many times does the letter r appear in "strawberry"? Answer with the number only.'
THINK = (
    "Spell it: s-t-r-a-w-b-e-r-r-y. The letter r is at positions 3, 8 and 9, "
    "so it appears three times."
)


def test_a_raw_think_answer_has_its_reasoning_split_out(groq_api: respx.MockRouter) -> None:
    replay = serve(groq_api, recorded("groq/raw_think_answer.json"))
    request = ChatRequest(
        model="qwen/qwen3-32b",
        messages=(Message.user(STRAWBERRY),),
        provider_options={"groq": {"reasoning_format": "raw"}},
    )

    response = GroqClient(sdk()).complete(request, report=strict())

    assert replay.sent == [
        {
            "model": "qwen/qwen3-32b",
            "messages": [{"role": "user", "content": STRAWBERRY}],
            "reasoning_format": "raw",
        }
    ]
    assert replay.sent == bodies(replay.interactions)
    assert [part.type for part in response.message.parts] == ["reasoning", "text"]
    (reasoning,) = response.message.reasoning
    assert (reasoning.text.strip(), reasoning.provider) == (THINK, "groq")
    assert response.text == "3"  # the answer alone
    assert same_json(encode_response(response), replay.interactions[0].response.json)
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


# --- a stream, its usage in x_groq ---

CAPITAL = "What is the capital of Portugal? One word."
STREAM_BODY = {
    "model": "openai/gpt-oss-20b",
    "messages": [{"role": "user", "content": CAPITAL}],
    "stream": True,  # and no `stream_options`: Groq takes none
}


def stream_request() -> ChatRequest:
    return ChatRequest(model="openai/gpt-oss-20b", messages=(Message.user(CAPITAL),))


def check_the_stream(replay: Replay, response: interlingua.ChatResponse) -> None:
    assert replay.sent == [STREAM_BODY]
    assert replay.sent == bodies(replay.interactions)
    assert response == accumulate(decode_stream(replay.interactions[0].response.stream_payloads()))
    assert response.text == "Lisbon."
    assert response.message.reasoning[0].text == (
        "The user asks for the capital of Portugal. It is Lisbon; one word."
    )
    assert response.finish_reason is FinishReason.STOP
    usage = response.usage
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (83, 29, 112)
    assert usage.reasoning_tokens == 18


def test_a_stream_asks_for_no_usage_and_has_it_from_x_groq(groq_api: respx.MockRouter) -> None:
    replay = serve(groq_api, recorded("groq/stream_reasoning_usage.json"))

    response = accumulate(GroqClient(sdk()).stream(stream_request(), report=strict()))

    check_the_stream(replay, response)


@pytest.mark.anyio
async def test_a_stream_through_the_async_sdk(groq_api: respx.MockRouter) -> None:
    replay = serve(groq_api, recorded("groq/stream_reasoning_usage.json"))

    async with AsyncGroqClient(async_sdk()) as client:
        response = await accumulate_async(await client.stream(stream_request()))

    check_the_stream(replay, response)


def test_a_decoded_stream_request_sent_unstreamed_is_sent_as_it_was_but_for_stream() -> None:
    """`complete` only unsets `stream`: Groq has no stream-only options to take out."""
    (interaction,) = recorded("groq/stream_reasoning_usage.json")
    assert interaction.request is not None
    request = decode_request(interaction.request.json)

    assert GroqClient.endpoint.body(request, None, stream=False) == {
        "model": "openai/gpt-oss-20b",
        "messages": [{"role": "user", "content": CAPITAL}],
    }


# --- errors ---

FAILED_GENERATION = '{"name": "get_weather", "arguments": {\n  "location": "Lisbon"\n}}'
TOOL_USE_FAILED = ChatRequest(
    model="openai/gpt-oss-120b",
    messages=(Message.user(QUESTION),),
    tools=(STRICT_WEATHER,),
    tool_choice=ToolChoice.required(),
)
TOOL_USE_FAILED_BODY = {
    "model": "openai/gpt-oss-120b",
    "messages": [{"role": "user", "content": QUESTION}],
    "tools": [
        {**WEATHER_WIRE, "function": {**WEATHER_WIRE["function"], "parameters": STRICT_CITY}}
    ],
    "tool_choice": "required",
}


def test_a_tool_use_failed_error_keeps_the_failed_generation(groq_api: respx.MockRouter) -> None:
    replay = serve(groq_api, recorded("groq/error_tool_use_failed.json"))

    with pytest.raises(BadRequestError) as raised:
        GroqClient(sdk()).complete(TOOL_USE_FAILED)

    assert replay.sent == [TOOL_USE_FAILED_BODY] == bodies(replay.interactions)
    error = raised.value
    assert typed(error) == expected_error(replay.interactions[0])
    assert (error.provider, error.status, error.type, error.code) == (
        "groq",
        400,
        "invalid_request_error",
        "tool_use_failed",
    )
    assert error.request_id == "req_01khw3t5c1fq9w7m2r8k4d6e0z"  # the x-request-id header
    assert error.body == replay.interactions[0].response.json
    assert (
        getattr(error, "failed_generation", None) == FAILED_GENERATION
    )  # for the caller to repair
    assert not error.retryable
    assert isinstance(error.__cause__, groq.BadRequestError)
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


HAIKU = ChatRequest(
    model="llama-3.3-70b-versatile", messages=(Message.user("Write a haiku about fog."),)
)
HAIKU_STREAM_BODY = {
    "model": "llama-3.3-70b-versatile",
    "messages": [{"role": "user", "content": "Write a haiku about fog."}],
    "stream": True,
}


def test_a_401_to_a_stream_request_raises_before_any_event(groq_api: respx.MockRouter) -> None:
    replay = serve(groq_api, recorded("groq/error_invalid_api_key.json"))

    with pytest.raises(AuthenticationError) as raised:
        GroqClient(sdk()).stream(HAIKU)

    assert replay.sent == [HAIKU_STREAM_BODY] == bodies(replay.interactions)
    assert typed(raised.value) == expected_error(replay.interactions[0])
    assert (raised.value.status, raised.value.code) == (401, "invalid_api_key")
    assert isinstance(raised.value.__cause__, groq.AuthenticationError)
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


@pytest.mark.anyio
async def test_a_400_to_an_async_stream_request_raises_before_any_event(
    groq_api: respx.MockRouter,
) -> None:
    replay = serve(groq_api, recorded("groq/error_tool_use_failed.json"))

    async with AsyncGroqClient(async_sdk()) as client:
        with pytest.raises(BadRequestError) as raised:
            await client.stream(TOOL_USE_FAILED)

    assert replay.sent == [{**TOOL_USE_FAILED_BODY, "stream": True}]
    assert typed(raised.value) == expected_error(replay.interactions[0])
    assert getattr(raised.value, "failed_generation", None) == FAILED_GENERATION
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


BROKEN_STREAM = ChatRequest(
    model="llama-3.3-70b-versatile", messages=(Message.user(QUESTION),), tools=(WEATHER,)
)


def check_the_stream_error(replay: Replay, raised: StreamError) -> None:
    assert replay.sent == [
        {
            "model": "llama-3.3-70b-versatile",
            "messages": [{"role": "user", "content": QUESTION}],
            "tools": [WEATHER_WIRE],
            "stream": True,
        }
    ]
    payloads = replay.interactions[0].response.stream_payloads()
    assert raised.partial is not None
    assert raised.partial.text == "Let me check the weather in Lisbon."
    error = raised.error
    assert error is not None
    assert typed(error) == typed(CODEC.decode_error(None, payloads[-1]))
    assert (error.status, error.type, error.code) == (
        None,
        "invalid_request_error",
        "tool_use_failed",
    )
    assert getattr(error, "failed_generation", None) == (
        '<function=get_weather{"city": "Lisbon"}</function>'
    )
    with pytest.raises(StreamError) as decoded:  # what the recorded chunks give
        accumulate(decode_stream(payloads))
    assert decoded.value.partial == raised.partial


def test_an_error_inside_a_stream_raises_a_stream_error_with_what_arrived(
    groq_api: respx.MockRouter,
) -> None:
    replay = serve(groq_api, recorded("groq/stream_error.json"))
    events = GroqClient(sdk()).stream(BROKEN_STREAM)

    with pytest.raises(StreamError) as raised:
        accumulate(events)

    check_the_stream_error(replay, raised.value)


@pytest.mark.anyio
async def test_an_error_inside_an_async_stream_raises_a_stream_error(
    groq_api: respx.MockRouter,
) -> None:
    replay = serve(groq_api, recorded("groq/stream_error.json"))

    async with AsyncGroqClient(async_sdk()) as client:
        with pytest.raises(StreamError) as raised:
            await accumulate_async(await client.stream(BROKEN_STREAM))

    check_the_stream_error(replay, raised.value)


def test_a_connection_that_fails_is_a_retryable_error_naming_no_key(
    groq_api: respx.MockRouter,
) -> None:
    groq_api.post(PATH).mock(side_effect=httpx.ConnectError("no route to host"))
    client = GroqClient(api_key=SECRET, max_retries=0)

    with pytest.raises(ProviderConnectionError) as raised:
        client.complete(HAIKU)

    assert json.loads(groq_api.calls.last.request.content) == encode_request(HAIKU)
    assert raised.value.retryable
    assert raised.value.provider == "groq"
    assert isinstance(raised.value.__cause__, groq.APIConnectionError)
    assert SECRET not in f"{raised.value} {raised.value!r} {raised.value.__cause__}"


def test_a_200_that_is_not_json_is_a_decode_error(groq_api: respx.MockRouter) -> None:
    answer = {"content-type": "application/json"}
    groq_api.post(PATH).respond(200, headers=answer, content=b"<html>oops")

    with pytest.raises(DecodeError, match="the answer is not JSON"):
        GroqClient(sdk()).complete(HAIKU)
    assert json.loads(groq_api.calls.last.request.content) == encode_request(HAIKU)


# --- the client and the SDK ---


def test_the_key_is_in_no_repr_nor_error(groq_api: respx.MockRouter) -> None:
    replay = serve(groq_api, recorded("groq/error_invalid_api_key.json"))
    client = GroqClient(api_key=SECRET, max_retries=0)

    with pytest.raises(AuthenticationError) as raised:
        client.stream(HAIKU)

    error = raised.value
    shown = [repr(client), repr(client.sdk), repr(client.binding), repr(client.endpoint)]
    shown += [str(error), repr(error), repr(error.body), str(error.__cause__)]
    assert [text for text in shown if SECRET in text] == []
    assert replay.requests[0].headers["authorization"] == f"Bearer {SECRET}"


def test_the_async_client_shows_no_key() -> None:
    client = AsyncGroqClient(api_key=SECRET)

    assert SECRET not in f"{client!r} {client.sdk!r} {client.binding!r}"


def test_the_client_takes_a_user_built_sdk_client_or_the_options_to_build_one() -> None:
    own = sdk()
    built = GroqClient(api_key="test-key", base_url="https://gateway.example/groq", max_retries=1)

    assert GroqClient(own).sdk is own
    assert isinstance(built.sdk, groq.Groq)
    assert str(built.sdk.base_url) == "https://gateway.example/groq/"
    assert built.sdk.max_retries == 1
    with pytest.raises(TypeError, match="not both"):
        GroqClient(own, api_key="another")
    assert isinstance(AsyncGroqClient(api_key="test-key").sdk, groq.AsyncGroq)


def test_a_base_url_is_where_the_body_goes() -> None:
    (interaction,) = recorded("groq/raw_think_answer.json")
    answer = interaction.response
    with respx.mock(base_url="https://gateway.example/groq") as router:
        route = router.post(PATH).respond(200, headers=answer.replay_headers(), content=answer.body)
        client = GroqClient(api_key="test-key", base_url="https://gateway.example/groq")

        assert client.complete(HAIKU) == decode_response(answer.json)

    assert json.loads(route.calls.last.request.content) == encode_request(HAIKU)


def test_closing_the_client_closes_the_http_client_the_sdk_built() -> None:
    with GroqClient(api_key="test-key") as client:
        http = client.sdk._client
    assert http.is_closed


@pytest.mark.anyio
async def test_closing_the_async_client_closes_the_http_client_the_sdk_built() -> None:
    async with AsyncGroqClient(api_key="test-key") as client:
        http = client.sdk._client
    assert http.is_closed


# --- the real traffic of the corpus, replayed through the real clients ---

CASSETTES = corpus_params("groq", pattern="*.yaml", holding="cassettes")
ANSWERS = corpus_params("groq", pattern="*.json", holding="response bodies")


def corpus_calls(param: Path | MissingCorpus) -> list[Interaction]:
    path = from_corpus(param)
    calls = [call for call in load_cassette(path).for_provider("groq") if call.path == PATH]
    assert calls, f"{path} holds no call to {PATH}"
    return calls


def sent_as_recorded(replay: Replay, calls: list[Interaction]) -> None:
    assert replay.sent == bodies(calls)
    assert requested(replay) == [f"POST {PATH}"] * len(calls)


@pytest.mark.parametrize("path", CASSETTES, ids=corpus_id)
def test_the_corpus_replayed_through_the_sdk_client(
    groq_api: respx.MockRouter, path: Path | MissingCorpus
) -> None:
    calls = corpus_calls(path)
    replay = serve(groq_api, calls)
    client = GroqClient(sdk())

    for call in calls:
        assert call.request is not None
        request = decode_request(call.request.json)
        if call.response.status >= 400:
            with pytest.raises(ProviderError) as raised:
                (client.stream if request.stream else client.complete)(request)
            assert typed(raised.value) == expected_error(call)
        elif call.is_stream:
            expected = accumulate(decode_stream(call.response.stream_payloads()))
            assert accumulate(client.stream(request)) == expected
        else:
            assert client.complete(request) == decode_response(call.response.json)
        assert replay.sent[-1] == call.request.json

    sent_as_recorded(replay, calls)
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


@pytest.mark.anyio
@pytest.mark.parametrize("path", CASSETTES, ids=corpus_id)
async def test_the_corpus_replayed_through_the_async_sdk_client(
    groq_api: respx.MockRouter, path: Path | MissingCorpus
) -> None:
    calls = corpus_calls(path)
    replay = serve(groq_api, calls)

    async with AsyncGroqClient(async_sdk()) as client:
        for call in calls:
            assert call.request is not None
            request = decode_request(call.request.json)
            if call.response.status >= 400:
                send = client.stream if request.stream else client.complete
                with pytest.raises(ProviderError) as raised:
                    await send(request)
                assert typed(raised.value) == expected_error(call)
            elif call.is_stream:
                expected = accumulate(decode_stream(call.response.stream_payloads()))
                assert await accumulate_async(await client.stream(request)) == expected
            else:
                assert await client.complete(request) == decode_response(call.response.json)

    sent_as_recorded(replay, calls)


def an_answer(param: Path | MissingCorpus) -> tuple[Interaction, ChatRequest]:
    """A recorded answer with no request, and a request for its model."""
    (answer,) = load_cassette(from_corpus(param)).interactions
    assert isinstance(answer.response.json, dict)
    request = ChatRequest(model=answer.response.json["model"], messages=(Message.user("?"),))
    return answer, request


@pytest.mark.parametrize("path", ANSWERS, ids=corpus_id)
def test_the_corpus_answers_replayed_through_the_sdk_client(
    groq_api: respx.MockRouter, path: Path | MissingCorpus
) -> None:
    answer, request = an_answer(path)
    replay = serve(groq_api, [answer])

    response = GroqClient(sdk()).complete(request)

    assert response == decode_response(answer.response.json)
    assert replay.sent == [encode_request(request)]
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


@pytest.mark.anyio
@pytest.mark.parametrize("path", ANSWERS, ids=corpus_id)
async def test_the_corpus_answers_replayed_through_the_async_sdk_client(
    groq_api: respx.MockRouter, path: Path | MissingCorpus
) -> None:
    answer, request = an_answer(path)
    replay = serve(groq_api, [answer])

    async with AsyncGroqClient(async_sdk()) as client:
        assert await client.complete(request) == decode_response(answer.response.json)
    assert replay.sent == [encode_request(request)]
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)
