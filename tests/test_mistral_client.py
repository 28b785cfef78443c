"""The Mistral clients over the real `mistralai` SDK, replaying wire bytes
(`interlingua.testing.Replay` as the SDK's http client, or respx intercepting
the SDK's own client), and the package around them. The bytes are the corpus's
real traffic, and the project's own fixtures in `fixtures/mistral/`: hand-made,
shaped like real traffic. The SDK rebuilds bodies from its typed arguments; the
client sends `encode_request(request)` exactly all the same, and reads the
answer as Mistral wrote it."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mistralai.client import Mistral, errors, models
from mistralai.client.utils import BackoffStrategy, RetryConfig

import interlingua
from conftest import (
    MissingCorpus,
    RespxHttpx2,
    Seen,
    bodies,
    corpus_id,
    corpus_params,
    from_corpus,
    in_order,
    recorded,
    requested,
    strict,
)
from interlingua import (
    BadRequestError,
    ChatRequest,
    DecodeError,
    FilePart,
    FinishReason,
    Message,
    ProviderConnectionError,
    RateLimitError,
    StreamError,
    ToolChoice,
    ToolSpec,
    accumulate,
    accumulate_async,
)
from interlingua.testing import Interaction, load_cassette
from interlingua_mistral import (
    AsyncMistralClient,
    MistralClient,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
    encode_stream,
)

API = "https://api.mistral.ai"
PATH = "/v1/chat/completions"
SYSTEM = "You answer weather questions in one sentence."
QUESTION = "Is it raining in Lisbon right now?"
HAMLET = "Summarise the plot of Hamlet in two sentences."
LISBON_WEATHER = '{"city": "Lisbon", "condition": "light rain", "temperature_c": 14}'
CITY = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
WEATHER = ToolSpec(
    name="get_weather", description="The current weather in a city.", parameters=CITY
)
TIME = ToolSpec(name="get_time", description="The local time in a city.", parameters=CITY)
WEATHER_WIRE = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": CITY,
    },
}
TIME_WIRE = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "The local time in a city.",
        "parameters": CITY,
    },
}


def sdk(http_client: httpx2.Client | None = None) -> Mistral:
    """The SDK with a test key (it retries only when configured); over its own
    http client unless given one."""
    return Mistral(api_key="test-key", client=http_client)


def async_sdk(http_client: httpx2.AsyncClient | None = None) -> Mistral:
    return Mistral(api_key="test-key", async_client=http_client)


# --- the project's own fixtures ---


def round_trip_request() -> ChatRequest:
    return ChatRequest(
        model="magistral-medium-latest",
        messages=(Message.system(SYSTEM), Message.user(QUESTION)),
        tools=(WEATHER,),
        tool_choice=ToolChoice.auto(),
        max_tokens=2048,
    )


def test_a_tool_round_trip_with_thinking(respx_httpx2: RespxHttpx2) -> None:
    """Through the SDK's own client, intercepted by respx."""
    replay = in_order(recorded("mistral/tool_round_trip_with_thinking.json"))
    respx_httpx2(API).post(PATH).mock(side_effect=replay.respond)
    client = MistralClient(sdk())
    request = round_trip_request()

    first = client.complete(request, report=strict())
    (call,) = first.message.tool_calls
    history = [*request.messages, first.message, Message.tool_result(call.id, LISBON_WEATHER)]
    second_request = request.model_copy(update={"messages": tuple(history)})
    second = client.complete(second_request, report=strict())

    thinking = first.message.reasoning[0].text
    first_body = {
        "model": "magistral-medium-latest",
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": QUESTION},
        ],
        "tools": [WEATHER_WIRE],
        "tool_choice": "auto",
        "max_tokens": 2048,
    }
    second_body = {
        **first_body,
        "messages": [
            *first_body["messages"],
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "thinking",
                        "thinking": [{"type": "text", "text": thinking}],
                        "closed": True,
                    }
                ],
                "tool_calls": [
                    {
                        "id": "T4hNq8RwZ",
                        "function": {"name": "get_weather", "arguments": '{"city": "Lisbon"}'},
                        "index": 0,
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "T4hNq8RwZ", "content": LISBON_WEATHER},
        ],
    }
    assert replay.sent == [first_body, second_body]
    assert replay.sent == [encode_request(request), encode_request(second_request)]
    assert replay.sent == bodies(replay.interactions)
    assert thinking.startswith("The user asks whether it is raining in Lisbon")
    assert first.message.reasoning[0].provider == "mistral"
    assert (call.id, call.name, call.parsed_arguments()) == (
        "T4hNq8RwZ",
        "get_weather",
        {"city": "Lisbon"},
    )
    assert first.finish_reason is FinishReason.TOOL_CALLS
    assert second.text == "Yes, there is light rain in Lisbon right now, at about 14 °C."
    assert second.message.reasoning[0].text.startswith("get_weather says light rain")
    assert second.finish_reason is FinishReason.STOP
    assert (second.usage.input_tokens, second.usage.output_tokens) == (214, 48)
    assert second.usage.cache_read_tokens == 128
    headers = replay.requests[0].headers
    assert headers["authorization"] == "Bearer test-key"
    assert headers["accept"] == "application/json"
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


def test_a_complete_call_reads_the_answer_as_mistral_wrote_it() -> None:
    """The SDK's model would drop what it does not know and reject a body
    without usage; the client decodes the JSON itself."""
    interaction = recorded("mistral/tool_round_trip_with_thinking.json")[0]
    answer = {**interaction.response.json, "p": "abcdef"}
    del answer["usage"]
    replay = in_order([_answering(interaction, 200, answer)])

    response = MistralClient(sdk(replay.client())).complete(round_trip_request())

    assert response == decode_response(answer)
    assert response.message.tool_calls[0].id == "T4hNq8RwZ"
    assert replay.sent == [encode_request(round_trip_request())]
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


STREAM_BODY = {
    "model": "mistral-small-latest",
    "messages": [{"role": "user", "content": "What is the weather and the local time in Oslo?"}],
    "tools": [WEATHER_WIRE, TIME_WIRE],
    "stream": True,
}


def stream_request() -> ChatRequest:
    return ChatRequest(
        model="mistral-small-latest",
        messages=(Message.user("What is the weather and the local time in Oslo?"),),
        tools=(WEATHER, TIME),
    )


def test_a_stream_with_parallel_tool_calls_asks_for_no_usage() -> None:
    replay = in_order(recorded("mistral/stream_parallel_tool_calls.json"))

    response = accumulate(MistralClient(sdk(replay.client())).stream(stream_request()))

    assert replay.sent == [STREAM_BODY]  # no `stream_options`: Mistral takes none
    assert replay.sent == [encode_request(stream_request().model_copy(update={"stream": True}))]
    assert replay.sent == bodies(replay.interactions)
    assert replay.requests[0].headers["accept"] == "text/event-stream"
    assert response == accumulate(decode_stream(replay.interactions[0].response.stream_payloads()))
    assert [(c.id, c.name, c.parsed_arguments()) for c in response.message.tool_calls] == [
        ("Gk3vPq8Ls", "get_weather", {"city": "Oslo"}),
        ("Wn5tRb2Yx", "get_time", {"city": "Oslo"}),
    ]
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert (response.usage.input_tokens, response.usage.total_tokens) == (131, 171)
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


SAN_FRANCISCO = "What's the weather like in San Francisco?"
LOCATION = {
    "type": "object",
    "properties": {"location": {"type": "string"}},
    "required": ["location"],
}
WEATHER_AT = ToolSpec(
    name="weather", description="The current weather at a location.", parameters=LOCATION
)
# The answer the stream of `stream_tool_call.json` describes, written as Mistral
# writes one not streamed: the call with its place as `index`, and no `type`.
WHOLE_CALL_ANSWER = {
    "id": "4c9e2a7f1b3d48e6a05f9c2d7e1b8a36",
    "object": "chat.completion",
    "created": 1771487215,
    "model": "mistral-small-latest",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "gSIMJiOkT",
                        "function": {
                            "name": "weather",
                            "arguments": '{"location": "San Francisco"}',
                        },
                        "index": 0,
                    }
                ],
            },
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {"prompt_tokens": 78, "total_tokens": 98, "completion_tokens": 20},
}


def test_a_tool_call_streamed_whole_without_an_index() -> None:
    """Mistral's live form: the call whole in one chunk, with no `index` and no
    `type`, and the finish reason and the usage on that same chunk."""
    replay = in_order(recorded("mistral/stream_tool_call.json"))
    request = ChatRequest(
        model="mistral-small-latest", messages=(Message.user(SAN_FRANCISCO),), tools=(WEATHER_AT,)
    )

    response = accumulate(MistralClient(sdk(replay.client())).stream(request, report=strict()))

    assert replay.sent == [
        {
            "model": "mistral-small-latest",
            "messages": [{"role": "user", "content": SAN_FRANCISCO}],
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "weather",
                        "description": "The current weather at a location.",
                        "parameters": LOCATION,
                    },
                }
            ],
            "stream": True,
        }
    ]
    assert replay.sent == bodies(replay.interactions)
    (call,) = response.message.tool_calls
    assert (call.id, call.name, call.parsed_arguments()) == (
        "gSIMJiOkT",
        "weather",
        {"location": "San Francisco"},
    )
    assert (response.finish_reason, response.raw_finish_reason) == (
        FinishReason.TOOL_CALLS,
        "tool_calls",
    )
    usage = response.usage
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (78, 20, 98)
    assert response == decode_response(WHOLE_CALL_ANSWER)
    assert encode_response(response) == WHOLE_CALL_ANSWER
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


def test_a_gateway_streams_a_call_back_whole_as_mistral_does() -> None:
    payloads = recorded("mistral/stream_tool_call.json")[0].response.stream_payloads()

    chunks = [event.data for event in encode_stream(decode_stream(payloads), report=strict())]

    assert chunks == [*payloads, "[DONE]"]


@pytest.mark.anyio
async def test_a_stream_through_the_async_sdk(respx_httpx2: RespxHttpx2) -> None:
    """Through the SDK's own async client, intercepted by respx."""
    replay = in_order(recorded("mistral/stream_parallel_tool_calls.json"))
    respx_httpx2(API).post(PATH).mock(side_effect=replay.respond)

    events = await AsyncMistralClient(async_sdk()).stream(stream_request())
    response = await accumulate_async(events)

    assert replay.sent == [STREAM_BODY]
    assert response == accumulate(decode_stream(replay.interactions[0].response.stream_payloads()))
    assert len(response.message.tool_calls) == 2
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


@pytest.mark.anyio
async def test_a_complete_call_through_the_async_sdk() -> None:
    interaction = recorded("mistral/tool_round_trip_with_thinking.json")[1]
    assert interaction.request is not None
    replay = in_order([interaction])
    request = decode_request(interaction.request.json)

    async with AsyncMistralClient(async_sdk(replay.async_client())) as client:
        response = await client.complete(request)

    assert replay.sent == [interaction.request.json]
    assert response == decode_response(interaction.response.json)
    assert response.usage.cache_read_tokens == 128
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


def test_a_prefill_made_for_anthropic_goes_to_mistral_with_prefix_true() -> None:
    (interaction,) = recorded("mistral/prefix.json")
    (anthropic,) = recorded("anthropic/prefill.json")
    assert interaction.request is not None
    assert anthropic.request is not None
    replay = in_order([interaction])
    # The history a gateway decoded from Anthropic's request, ending in the prefill.
    request = interlingua.get_adapter("anthropic").decode_request(anthropic.request.json)
    request = request.model_copy(update={"model": "mistral-small-latest"})

    response = MistralClient(sdk(replay.client())).complete(request, report=strict())

    assert replay.sent == [interaction.request.json]
    assert replay.sent[0]["messages"][-1]["prefix"] is True
    assert decode_request(interaction.request.json).messages == request.messages
    answer = interaction.response.json["choices"][0]["message"]["content"]
    assert response.text == answer
    assert answer.startswith(request.messages[-1].text)  # Mistral's answer opens with the prefix
    assert response.finish_reason is FinishReason.STOP


def test_an_image_input() -> None:
    (interaction,) = recorded("mistral/image_input.json")
    assert interaction.request is not None
    url = interaction.request.json["messages"][0]["content"][0]["image_url"]["url"]
    png = url.removeprefix("data:image/png;base64,")
    replay = in_order([interaction])
    request = ChatRequest(
        model="mistral-small-latest",
        max_tokens=1024,
        messages=(
            Message.user(
                FilePart(media_type="image/png", data=png), "What colour is this square? One word."
            ),
        ),
    )

    response = MistralClient(sdk(replay.client())).complete(request, report=strict())

    assert replay.sent == [
        {
            "model": "mistral-small-latest",
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png}"}},
                        {"type": "text", "text": "What colour is this square? One word."},
                    ],
                }
            ],
            "max_tokens": 1024,
        }
    ]
    assert replay.sent == [encode_request(request)] == bodies(replay.interactions)
    assert response.text == "Blue."
    assert response.finish_reason is FinishReason.STOP
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


def test_audio_sent_as_an_input_audio_object_goes_back_as_it_came() -> None:
    """A gateway's request with audio in OpenAI's form, `{"data", "format"}`, which
    Mistral answers too; the answer's audio counts are kept, and go back exactly."""
    (interaction,) = recorded("mistral/audio_input.json")
    assert interaction.request is not None
    body, answer = interaction.request.json, interaction.response.json
    audio = body["messages"][0]["content"][0]["input_audio"]
    replay = in_order([interaction])
    request = decode_request(body)

    response = MistralClient(sdk(replay.client())).complete(request, report=strict())

    assert replay.sent == [body] == bodies(replay.interactions)
    file, question = request.messages[0].parts
    assert isinstance(file, FilePart)
    assert (file.media_type, file.data, file.kind) == ("audio/mpeg", audio["data"], "audio")
    assert question.text == "What is said in this recording?"  # type: ignore[union-attr]
    assert response.text == 'The speaker says: "Meet me at the station at nine."'
    usage = answer["usage"]
    assert (response.usage.input_tokens, response.usage.output_tokens) == (
        usage["prompt_tokens"],
        usage["completion_tokens"],
    )
    assert response.usage.details == {
        "prompt_audio_seconds": usage["prompt_audio_seconds"],
        "prompt_tokens_details.audio_tokens": usage["prompt_tokens_details"]["audio_tokens"],
    }
    assert encode_response(response) == answer
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


# --- errors ---

EXTRA_FIELD = ChatRequest(
    model="mistral-large-latest",
    messages=(Message.user(HAMLET),),
    provider_options={"mistral": {"safe_mode": True}},  # safe_prompt's old name
)


def test_a_422_raises_the_typed_error() -> None:
    replay = in_order(recorded("mistral/error_extra_forbidden.json"))

    with pytest.raises(BadRequestError) as raised:
        MistralClient(sdk(replay.client())).complete(EXTRA_FIELD)

    assert replay.sent == [
        {
            "model": "mistral-large-latest",
            "messages": [{"role": "user", "content": HAMLET}],
            "safe_mode": True,
        }
    ]
    error = raised.value
    assert (error.provider, error.status, error.type, error.code) == (
        "mistral",
        422,
        "invalid_request_error",
        None,
    )
    assert error.message == "body.safe_mode: Extra inputs are not permitted"
    assert error.request_id == "019c4f33-4b8e-7f61-a2d9-6e0c3b7f1d52"
    assert error.body == replay.interactions[0].response.json
    assert not error.retryable
    assert isinstance(error.__cause__, errors.HTTPValidationError)
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


RATE_LIMITED = ChatRequest(model="mistral-large-latest", messages=(Message.user(HAMLET),))
RATE_LIMITED_BODY = {
    "model": "mistral-large-latest",
    "messages": [{"role": "user", "content": HAMLET}],
}


def test_a_429_raises_a_retryable_rate_limit_error() -> None:
    replay = in_order(recorded("mistral/error_rate_limited.json"))

    with pytest.raises(RateLimitError) as raised:
        MistralClient(sdk(replay.client())).complete(RATE_LIMITED)

    assert replay.sent == [
        {"model": "mistral-large-latest", "messages": [{"role": "user", "content": HAMLET}]}
    ]
    error = raised.value
    assert (error.status, error.type, error.code, error.message) == (
        429,
        "rate_limited",
        "1300",
        "Rate limit exceeded",
    )
    assert error.request_id == "019c4f34-1c5a-7d93-8b2e-3f9a6c0e5d17"
    assert error.retryable
    assert isinstance(error.__cause__, errors.SDKError)
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


@pytest.mark.anyio
async def test_an_error_status_on_an_async_stream_raises_before_any_event() -> None:
    replay = in_order(recorded("mistral/error_rate_limited.json"))
    client = AsyncMistralClient(async_sdk(replay.async_client()))

    with pytest.raises(RateLimitError) as raised:
        await client.stream(RATE_LIMITED)

    assert replay.sent == [encode_request(RATE_LIMITED.model_copy(update={"stream": True}))]
    assert raised.value.request_id == "019c4f34-1c5a-7d93-8b2e-3f9a6c0e5d17"
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


def test_the_sdk_keeps_retrying_as_configured() -> None:
    """A 429 retried by the SDK's own retry config: each attempt sends the exact body."""
    (limited,) = recorded("mistral/error_rate_limited.json")
    (answered,) = recorded("mistral/image_input.json")
    replay = in_order([limited, dataclasses.replace(limited, response=answered.response)])
    retries = RetryConfig("backoff", BackoffStrategy(1, 1, 1.0, 1000, jitter_ms=0), False)
    client = MistralClient(
        Mistral(api_key="test-key", client=replay.client(), retry_config=retries)
    )

    response = client.complete(RATE_LIMITED)

    assert response.text == "Blue."
    assert replay.sent == bodies(replay.interactions)
    assert replay.done
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


# A Mistral error object (the documented shape) arriving inside a 200 stream.
_STREAM_ERROR = {
    "object": "error",
    "message": "Internal server error",
    "type": "server_error",
    "param": None,
    "code": None,
}


def _broken_stream() -> bytes:
    (interaction,) = recorded("mistral/stream_parallel_tool_calls.json")
    opening = interaction.response.stream_payloads()[0]
    text = {**opening, "choices": [{"index": 0, "delta": {"content": "Grey breath"}}]}
    events = [opening, text, _STREAM_ERROR]
    return "".join(f"data: {json.dumps(event)}\n\n" for event in events).encode()


def _stream_answer(request: httpx2.Request) -> httpx2.Response:
    headers = {"content-type": "text/event-stream; charset=utf-8"}
    return httpx2.Response(200, headers=headers, content=_broken_stream())


def test_an_error_inside_a_stream_raises_a_stream_error_with_the_partial_answer() -> None:
    seen = Seen()
    http = httpx2.Client(transport=httpx2.MockTransport(seen.answering(_stream_answer)))

    with pytest.raises(StreamError) as raised:
        accumulate(MistralClient(sdk(http)).stream(stream_request()))

    assert (seen.paths, seen.sent) == ([f"POST {PATH}"], [STREAM_BODY])
    assert raised.value.partial is not None
    assert raised.value.partial.text == "Grey breath"
    assert raised.value.error is not None
    assert (raised.value.error.type, raised.value.error.message) == (
        "server_error",
        "Internal server error",
    )


@pytest.mark.anyio
async def test_an_error_inside_an_async_stream_raises_a_stream_error() -> None:
    seen = Seen()
    http = httpx2.AsyncClient(transport=httpx2.MockTransport(seen.answering(_stream_answer)))

    with pytest.raises(StreamError) as raised:
        await accumulate_async(await AsyncMistralClient(async_sdk(http)).stream(stream_request()))

    assert (seen.paths, seen.sent) == ([f"POST {PATH}"], [STREAM_BODY])
    assert raised.value.partial is not None
    assert raised.value.partial.text == "Grey breath"
    assert raised.value.error is not None
    assert (raised.value.error.type, raised.value.error.message) == (
        "server_error",
        "Internal server error",
    )


class _BreaksOff(httpx2.SyncByteStream):
    """The first event of a recorded stream, then a dropped connection."""

    def __init__(self, body: bytes) -> None:
        self.head = body.split(b"\n\n")[0] + b"\n\n"

    def __iter__(self) -> Iterator[bytes]:
        yield self.head
        raise httpx2.ReadError("connection reset by peer")


def test_a_connection_lost_mid_stream_raises_a_stream_error() -> None:
    (interaction,) = recorded("mistral/stream_parallel_tool_calls.json")
    answer = interaction.response

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers=answer.replay_headers(), stream=_BreaksOff(answer.body))

    seen = Seen()
    client = MistralClient(
        sdk(httpx2.Client(transport=httpx2.MockTransport(seen.answering(handler))))
    )
    with pytest.raises(StreamError, match="broke off") as raised:
        accumulate(client.stream(stream_request()))
    assert (seen.paths, seen.sent) == ([f"POST {PATH}"], [STREAM_BODY])
    lost = raised.value.error
    assert isinstance(lost, ProviderConnectionError)
    assert lost.retryable
    assert isinstance(lost.__cause__, httpx2.ReadError)


def test_a_connection_that_fails_is_a_retryable_provider_error_naming_no_key() -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ConnectError("no route to host")

    seen = Seen()
    http = httpx2.Client(transport=httpx2.MockTransport(seen.answering(handler)))
    client = MistralClient(Mistral(api_key="sk-mistral-secret", client=http))

    with pytest.raises(ProviderConnectionError) as raised:
        client.complete(RATE_LIMITED)

    assert (seen.paths, seen.sent) == ([f"POST {PATH}"], [RATE_LIMITED_BODY])

    assert raised.value.retryable
    assert raised.value.provider == "mistral"
    assert isinstance(raised.value.__cause__, httpx2.ConnectError)
    assert "sk-mistral-secret" not in f"{raised.value} {raised.value!r}"


def test_a_200_that_is_not_json_is_a_decode_error() -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "text/html"}, content=b"<html>oops")

    seen = Seen()
    client = MistralClient(
        sdk(httpx2.Client(transport=httpx2.MockTransport(seen.answering(handler))))
    )
    with pytest.raises(DecodeError, match="the answer is not JSON"):
        client.complete(RATE_LIMITED)
    assert (seen.paths, seen.sent) == ([f"POST {PATH}"], [RATE_LIMITED_BODY])


# --- the client and the SDK ---


def test_the_key_is_in_no_repr_nor_error(respx_httpx2: RespxHttpx2) -> None:
    replay = in_order(recorded("mistral/error_rate_limited.json"))
    respx_httpx2(API).post(PATH).mock(side_effect=replay.respond)
    client = MistralClient(api_key="sk-mistral-secret")

    with pytest.raises(RateLimitError) as raised:
        client.complete(RATE_LIMITED)

    shown = [repr(client), repr(client.sdk), repr(client.binding), repr(client.endpoint)]
    shown += [str(raised.value), repr(raised.value), str(raised.value.__cause__)]
    assert [text for text in shown if "sk-mistral-secret" in text] == []
    assert replay.requests[0].headers["authorization"] == "Bearer sk-mistral-secret"


def test_the_client_takes_a_user_built_sdk_client_or_the_options_to_build_one() -> None:
    built = MistralClient(api_key="test-key", server_url="https://gateway.example", timeout_ms=900)
    own = sdk()

    assert isinstance(built.sdk, Mistral)
    assert built.sdk.sdk_configuration.server_url == "https://gateway.example"
    assert built.sdk.sdk_configuration.timeout_ms == 900
    assert MistralClient(own).sdk is own
    with pytest.raises(TypeError, match="not both"):
        MistralClient(own, api_key="another")
    assert isinstance(AsyncMistralClient(api_key="test-key").sdk, Mistral)


def test_a_server_url_is_where_the_body_goes(respx_httpx2: RespxHttpx2) -> None:
    (answer,) = recorded("mistral/image_input.json")
    route = respx_httpx2("https://gateway.example/mistral").post(PATH)
    route.respond(200, headers=answer.response.replay_headers(), content=answer.response.body)
    client = MistralClient(api_key="test-key", server_url="https://gateway.example/mistral")

    assert client.complete(RATE_LIMITED).text == "Blue."
    assert json.loads(route.calls.last.request.content) == encode_request(RATE_LIMITED)


def test_closing_the_client_closes_the_http_client_the_sdk_built() -> None:
    with MistralClient(api_key="test-key") as client:
        http = client.sdk.sdk_configuration.client
    assert http.is_closed


@pytest.mark.anyio
async def test_closing_the_async_client_closes_the_http_client_the_sdk_built() -> None:
    async with AsyncMistralClient(api_key="test-key") as client:
        http = client.sdk.sdk_configuration.async_client
    assert http.is_closed


def test_the_sdk_used_directly_is_left_as_it_was() -> None:
    """The client's hooks act only inside its own calls: the user's own
    `chat.complete` on the same SDK still builds and parses as the SDK does."""
    calls = recorded("mistral/image_input.json") * 3
    replay = in_order(calls)
    own = sdk(replay.client())
    client = MistralClient(own)
    client.complete(RATE_LIMITED)
    client.complete(RATE_LIMITED)

    answer = own.chat.complete(
        model="mistral-small-latest", messages=[{"role": "user", "content": "x"}]
    )

    assert isinstance(answer, models.ChatCompletionResponse)
    assert replay.sent[1] == replay.sent[0] == encode_request(RATE_LIMITED)
    assert replay.sent[2] == {  # the SDK's own body: its `stream: false` added
        "model": "mistral-small-latest",
        "messages": [{"content": "x", "role": "user"}],
        "stream": False,
    }
    assert requested(replay) == [f"POST {PATH}"] * len(replay.sent)


# --- the real traffic of the corpus, replayed through the real client ---


def corpus_calls(param: Path | MissingCorpus) -> list[Interaction]:
    path = from_corpus(param)
    calls = [
        call
        for call in load_cassette(path).for_provider("mistral")
        if call.path == PATH and call.response.status == 200
    ]
    assert calls, f"{path} holds no answered call to {PATH}"
    return calls


CORPUS = corpus_params("mistral")


@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
def test_the_corpus_replayed_through_the_sdk_client(path: Path | MissingCorpus) -> None:
    calls = corpus_calls(path)
    replay = in_order(calls)
    client = MistralClient(sdk(replay.client()))

    for call in calls:
        assert call.request is not None
        request = decode_request(call.request.json)
        if call.is_stream:
            response = accumulate(client.stream(request))
            assert response == accumulate(decode_stream(call.response.stream_payloads()))
        else:
            assert client.complete(request) == decode_response(call.response.json)
        sent = replay.sent[-1]
        assert sent == call.request.json
        assert sent.get("stream") == call.request.json.get("stream")
        accept = "text/event-stream" if call.is_stream else "application/json"
        assert replay.requests[-1].headers["accept"] == accept

    assert replay.sent == bodies(calls)
    assert requested(replay) == [f"POST {PATH}"] * len(calls)


@pytest.mark.anyio
@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
async def test_the_corpus_replayed_through_the_async_sdk_client(path: Path | MissingCorpus) -> None:
    calls = corpus_calls(path)
    replay = in_order(calls)
    client = AsyncMistralClient(async_sdk(replay.async_client()))

    for call in calls:
        assert call.request is not None
        request = decode_request(call.request.json)
        if call.is_stream:
            response = await accumulate_async(await client.stream(request))
            assert response == accumulate(decode_stream(call.response.stream_payloads()))
        else:
            assert await client.complete(request) == decode_response(call.response.json)

    assert replay.sent == bodies(calls)
    assert requested(replay) == [f"POST {PATH}"] * len(calls)


def _answering(interaction: Interaction, status: int, body: Any) -> Interaction:
    """`interaction` with another JSON answer."""
    content = json.dumps(body).encode()
    response = dataclasses.replace(interaction.response, status=status, body=content, json=body)
    return dataclasses.replace(interaction, response=response)
