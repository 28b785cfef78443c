"""The Google clients over the real `google-genai` SDK, answered with recorded
traffic: the bodies sent are asserted against the recordings, byte for byte
as JSON, and the answers are read as Gemini sent them.

- `fixtures/google/`: a thinking and function-calling round trip with
  signatures, a parallel-call stream, an image input, a 429 with retry info;
- every Gemini API and Vertex AI call of the corpus, its recorded body
  decoded and sent again through the SDK, which must send that same body.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2
import pytest
from google import genai
from google.oauth2.credentials import Credentials

from conftest import bodies, corpus_id, corpus_params, fake_key, from_corpus, in_order, recorded
from interlingua import (
    ChatRequest,
    FilePart,
    FinishReason,
    Message,
    RateLimitError,
    ReasoningConfig,
    StreamError,
    ToolCallPart,
    ToolSpec,
    TranslationReport,
    accumulate,
    accumulate_async,
)
from interlingua.testing import Interaction, Replay, load_cassette
from interlingua_google import AsyncGoogleClient, GoogleClient, decode_request, decode_response

KEY = fake_key("AIzaSyTEST")
WEATHER = ToolSpec(
    name="get_weather",
    description="The current weather in a city.",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
TIME = WEATHER.model_copy(update={"name": "get_time", "description": "The local time in a city."})
THOUGHTS = {"google": {"generationConfig": {"thinkingConfig": {"includeThoughts": True}}}}


def sdk(replay: Replay, *, version: str = "v1beta") -> genai.Client:
    options = {"httpx_client": replay.client(), "api_version": version}
    return genai.Client(api_key=KEY, http_options=options)


def async_sdk(replay: Replay) -> genai.Client:
    options = {"httpx_async_client": replay.async_client(), "api_version": "v1beta"}
    return genai.Client(api_key=KEY, http_options=options)


def weather_request(messages: tuple[Message, ...]) -> ChatRequest:
    return ChatRequest(
        model="gemini-3-flash-preview",
        messages=messages,
        tools=(WEATHER,),
        reasoning=ReasoningConfig(effort="low"),
        provider_options=THOUGHTS,
    )


FIRST = Message.user("What is the weather in Paris? Answer in one sentence.")


# --- the project's fixtures ---


def test_a_tool_round_trip_sends_the_signed_call_back_in_place() -> None:
    interactions = recorded("google/tool_round_trip_with_thinking.json")
    replay = in_order(interactions)
    client = GoogleClient(sdk(replay))

    first = client.complete(weather_request((FIRST,)))
    call = first.message.tool_calls[0]
    result = Message.tool_result(call.id, "18°C and sunny")
    report = TranslationReport()
    second = client.complete(weather_request((FIRST, first.message, result)), report=report)

    assert replay.sent == bodies(interactions)
    assert report.losses == []
    assert [request.url.path for request in replay.requests] == [
        "/v1beta/models/gemini-3-flash-preview:generateContent"
    ] * 2
    assert all(request.headers["x-goog-api-key"] == KEY for request in replay.requests)
    assert first.finish_reason is FinishReason.TOOL_CALLS
    assert (call.name, call.parsed_arguments()) == ("get_weather", {"city": "Paris"})
    assert first.message.reasoning[0].provider == "google"
    assert second.message.text == "It is 18°C and sunny in Paris right now."
    assert (second.usage.input_tokens, second.usage.output_tokens) == (96, 12)


def test_a_parallel_call_stream_accumulates_to_both_calls() -> None:
    interactions = recorded("google/stream_parallel_tool_calls.json")
    replay = in_order(interactions)
    request = ChatRequest(
        model="gemini-2.5-flash",
        messages=(Message.user("What is the weather and the local time in Oslo?"),),
        tools=(WEATHER, TIME),
    )

    response = accumulate(GoogleClient(sdk(replay)).stream(request))

    assert replay.sent == bodies(interactions)
    assert replay.requests[0].url.query == b"alt=sse"
    assert response.message.text == "I'll check both for Oslo."
    calls = response.message.tool_calls
    assert [(c.name, c.parsed_arguments()) for c in calls] == [
        ("get_weather", {"city": "Oslo"}),
        ("get_time", {"city": "Oslo"}),
    ]
    assert "thoughtSignature" in calls[0].provider_data["google"]["fields"]
    assert calls[0].id != calls[1].id
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert (response.usage.total_tokens, response.usage.reasoning_tokens) == (151, 47)


def test_an_image_goes_inline() -> None:
    interactions = recorded("google/image_input.json")
    (interaction,) = interactions
    assert interaction.request is not None
    data = interaction.request.json["contents"][0]["parts"][1]["inlineData"]["data"]
    image = FilePart.from_bytes(base64.b64decode(data), "image/png")
    replay = in_order(interactions)
    request = ChatRequest(
        model="gemini-2.5-flash",
        messages=(Message.user("What colour is this image? One word.", image),),
    )

    response = GoogleClient(sdk(replay)).complete(request)

    assert replay.sent == [
        {
            "contents": [
                {
                    "role": "user",
                    "parts": [
                        {"text": "What colour is this image? One word."},
                        {"inlineData": {"mimeType": "image/png", "data": data}},
                    ],
                }
            ]
        }
    ]
    assert response.message.text == "Red"
    assert response.usage.details["promptTokensDetails.IMAGE"] == 258


@pytest.mark.parametrize("stream", [False, True], ids=["complete", "stream"])
def test_a_429_is_a_rate_limit_error_with_the_retry_delay(stream: bool) -> None:
    # The recorded answer serves the stream's URL too: an error comes back the same.
    replay = Replay(recorded("google/error_rate_limited.json"), match_on=("method", "host"))
    client = GoogleClient(sdk(replay))
    request = ChatRequest(
        model="gemini-2.5-flash",
        messages=(Message.user("Summarise the plot of Hamlet in two sentences."),),
    )

    with pytest.raises(RateLimitError) as caught:
        client.stream(request) if stream else client.complete(request)

    error = caught.value
    assert (error.status, error.type, error.retry_after) == (429, "RESOURCE_EXHAUSTED", 27.0)
    assert error.retryable
    assert error.message.startswith("You exceeded your current quota")
    assert KEY not in str(error)


def test_an_error_inside_a_stream_keeps_what_arrived() -> None:
    chunk = {
        "candidates": [{"content": {"parts": [{"text": "Once upon"}], "role": "model"}}],
        "modelVersion": "gemini-2.5-flash",
        "responseId": "abc",
    }
    failure = {
        "error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}
    }
    body = f"data: {json.dumps(chunk)}\r\n\r\ndata: {json.dumps(failure)}\r\n\r\n"

    def answer(request: Any) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})

    http = httpx2.Client(transport=httpx2.MockTransport(answer))
    client = GoogleClient(genai.Client(api_key=KEY, http_options={"httpx_client": http}))
    request = ChatRequest(model="gemini-2.5-flash", messages=(Message.user("A story"),))

    with pytest.raises(StreamError) as caught:
        accumulate(client.stream(request))

    assert caught.value.partial.message.text == "Once upon"
    assert caught.value.error.type == "UNAVAILABLE"
    assert caught.value.error.retryable


@pytest.mark.anyio
async def test_the_async_client_sends_the_same_bodies() -> None:
    interactions = recorded("google/tool_round_trip_with_thinking.json")
    replay = in_order(interactions)
    client = AsyncGoogleClient(async_sdk(replay))

    first = await client.complete(weather_request((FIRST,)))
    call = first.message.tool_calls[0]
    messages = (FIRST, first.message, Message.tool_result(call.id, "18°C and sunny"))
    second = await client.complete(weather_request(messages))

    assert replay.sent == bodies(interactions)
    assert second.message.text == "It is 18°C and sunny in Paris right now."


@pytest.mark.anyio
async def test_the_async_client_streams() -> None:
    interactions = recorded("google/stream_parallel_tool_calls.json")
    replay = in_order(interactions)
    request = ChatRequest(
        model="gemini-2.5-flash",
        messages=(Message.user("What is the weather and the local time in Oslo?"),),
        tools=(WEATHER, TIME),
    )

    events = await AsyncGoogleClient(async_sdk(replay)).stream(request)
    response = await accumulate_async(events)

    assert replay.sent == bodies(interactions)
    assert [call.name for call in response.message.tool_calls] == ["get_weather", "get_time"]
    assert response == accumulate(GoogleClient(sdk(in_order(interactions))).stream(request))


def test_importing_the_codec_imports_no_sdk() -> None:
    code = (
        "import sys, interlingua_google\nprint(sorted(m for m in sys.modules if m == 'google'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# --- the corpus, through the SDK ---

VERTEX = "aiplatform.googleapis.com"


def replayable(call: Interaction) -> bool:
    """A model call answered 200, streamed as server-sent events if at all
    (the client asks for `alt=sse`; the JSON-array streams are decoded in
    test_google_corpus)."""
    path = call.path or ""
    if call.response.status != 200 or call.request is None:
        return False
    if path.endswith(":generateContent"):
        return True
    return path.endswith(":streamGenerateContent") and call.is_stream


def calls_of(path: Path) -> list[Interaction]:
    return [call for call in load_cassette(path).for_provider("google") if replayable(call)]


def client_for(call: Interaction, replay: Replay) -> tuple[GoogleClient, str]:
    """A client for the recorded call's API (its version and, on Vertex AI, its
    project and location), and the call's model."""
    url = urlsplit(call.request.url if call.request else "")
    version, *_, last = url.path.strip("/").split("/")
    model = last.partition(":")[0]
    options = {"httpx_client": replay.client(), "api_version": version}
    if (url.hostname or "").endswith(VERTEX):
        segments = url.path.split("/")
        project = segments[segments.index("projects") + 1]
        location = segments[segments.index("locations") + 1]
        sdk_client = genai.Client(
            vertexai=True,
            project=project,
            location=location,
            credentials=Credentials(token="test-token"),  # an access token, never refreshed
            http_options=options,
        )
    else:
        sdk_client = genai.Client(api_key=KEY, http_options=options)
    return GoogleClient(sdk_client), model


@pytest.mark.parametrize(
    "path",
    corpus_params("google", keep=lambda path: bool(calls_of(path)), holding="replayable calls"),
    ids=corpus_id,
)
def test_every_corpus_call_sends_the_recorded_body_through_the_sdk(path: Path) -> None:
    for call in calls_of(from_corpus(path)):
        assert call.request is not None
        replay = in_order([call])
        client, model = client_for(call, replay)
        request = decode_request(call.request.json).model_copy(update={"model": model})

        if call.is_stream:
            response = accumulate(client.stream(request, report=TranslationReport()))
        else:
            response = client.complete(request, report=TranslationReport())

        assert replay.sent == [call.request.json]
        assert urlsplit(str(replay.requests[0].url)).path == urlsplit(call.request.url).path
        if not call.is_stream:
            assert response == decode_response(call.response.json)
        assert all(isinstance(part, ToolCallPart) for part in response.message.tool_calls)
