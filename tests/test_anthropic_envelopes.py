"""Claude on Amazon Bedrock (`anthropic-bedrock`, InvokeModel) and on Vertex AI
(`anthropic-vertex`, rawPredict): Anthropic's Messages API in an envelope.

- Every InvokeModel interaction of the recorded corpus (`../shared/corpus/bedrock`):
  requests and answers round-trip exactly with nothing reported, and decode as
  Anthropic's codec decodes the body with the envelope taken off; finish reasons
  and usage are checked against the wire (Bedrock's token-count headers, its
  invocation metrics) without the adapter; streams, read from the recorded
  event-stream bytes by botocore, accumulate alike in each payload form and are
  written back as Bedrock sent them; errors are typed; the legacy Text
  Completions body is refused by name.
- The clients over the anthropic SDK's `AnthropicBedrock` (SigV4-signed with
  made-up static keys) and `AnthropicVertex`, against respx-replayed bytes (the
  corpus's for Bedrock, `fixtures/anthropic-vertex/` for Vertex AI), sending the
  exact bodies asserted here.
- Thinking signatures go back across Anthropic's API, Bedrock and Vertex AI, as
  Anthropic documents; nothing is reported.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import anthropic
import pytest

import interlingua_anthropic
from conftest import (
    MissingCorpus,
    RespxHttpx2,
    cassette,
    corpus_id,
    corpus_params,
    fake_key,
    from_corpus,
    in_order,
    recorded,
    requested,
    same_json,
    strict,
    usage_counts,
)
from interlingua import (
    BadRequestError,
    ChatRequest,
    DecodeError,
    ErrorEvent,
    FinishReason,
    GatewayAdapter,
    Message,
    OverloadedError,
    RateLimitError,
    ReasoningConfig,
    StreamError,
    StreamStart,
    TextDelta,
    TokenUsage,
    ToolSpec,
    TranslationReport,
    accumulate,
    accumulate_async,
    get_adapter,
)
from interlingua.client import SDKOptions
from interlingua.testing import Interaction
from interlingua_anthropic import bedrock, vertex
from interlingua_anthropic._envelope_stream import METRICS
from interlingua_anthropic.bedrock import AnthropicBedrockClient, AsyncAnthropicBedrockClient
from interlingua_anthropic.vertex import AnthropicVertexClient, AsyncAnthropicVertexClient
from interlingua_bedrock._event_stream import read_event_stream

FINISH_REASONS = {
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "max_tokens": FinishReason.LENGTH,
    "tool_use": FinishReason.TOOL_CALLS,
}
INVOKE = "invoke"
INVOKE_STREAM = "invoke-with-response-stream"
REGION = "us-east-1"
BEDROCK_URL = f"https://bedrock-runtime.{REGION}.amazonaws.com"
VERTEX_URL = "https://us-east5-aiplatform.googleapis.com"
VERTEX_MODEL_PATH = (
    "/v1/projects/example-project/locations/us-east5/publishers/anthropic/models/"
    "claude-sonnet-4-5@20250929"
)
LEGACY = "openllmetry/test_anthropic_2_completion.yaml"


# --- the corpus's InvokeModel calls, read without the adapter ---


def operation(call: Interaction) -> str | None:
    """`invoke` or `invoke-with-response-stream` for an InvokeModel call to Bedrock."""
    if not (call.host or "").startswith("bedrock-runtime."):
        return None
    name = (call.path or "").rsplit("/", 1)[-1]
    return name if name in {INVOKE, INVOKE_STREAM} else None


def invoke_calls(param: Path | MissingCorpus) -> list[Interaction]:
    path = from_corpus(param)
    return [call for call in cassette(path).interactions if operation(call) is not None]


def has_invoke_calls(path: Path) -> bool:
    return path.suffix == ".yaml" and bool(invoke_calls(path))


FILES = corpus_params("bedrock", keep=has_invoke_calls, holding="InvokeModel interactions")


def messages_calls(param: Path | MissingCorpus) -> list[Interaction]:
    """The file's InvokeModel calls with a Messages body (not the legacy one)."""
    return [call for call in invoke_calls(param) if "prompt" not in request_body(call)]


def request_body(call: Interaction) -> dict[str, Any]:
    assert call.request is not None
    body = call.request.json if call.request.json is not None else json.loads(call.request.body)
    assert isinstance(body, dict)
    return body


def model_of(call: Interaction) -> str:
    """The model id in the URL, as botocore or the SDK quoted it."""
    return unquote((call.path or "").split("/model/", 1)[1].rsplit("/", 1)[0])


def headers_of(call: Interaction) -> dict[str, str]:
    return {name.lower(): values[0] for name, values in call.response.headers.items()}


def chunks(call: Interaction) -> list[dict[str, Any]]:
    """The stream as boto3 yields it, read from the recorded bytes by botocore."""
    return list(read_event_stream(call.response.body, "InvokeModelWithResponseStream"))


def inner_events(call: Interaction) -> list[dict[str, Any]]:
    """Each chunk's Anthropic event, parsed here."""
    return [json.loads(chunk["chunk"]["bytes"]) for chunk in chunks(call)]


def wire_usage(usage: dict[str, Any]) -> TokenUsage:
    """Anthropic's usage in the core's terms: input counts cache reads and writes."""
    read = usage.get("cache_read_input_tokens") or 0
    written = usage.get("cache_creation_input_tokens") or 0
    total_input = usage["input_tokens"] + read + written
    return TokenUsage(
        input_tokens=total_input,
        output_tokens=usage["output_tokens"],
        total_tokens=total_input + usage["output_tokens"],
        cache_read_tokens=read,
        cache_write_tokens=written,
    )


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_recorded_request_round_trips_with_the_envelope_its_only_difference(
    path: Path | MissingCorpus,
) -> None:
    for call in messages_calls(path):
        body = request_body(call)

        request = bedrock.decode_request(body)

        assert body["anthropic_version"] == "bedrock-2023-05-31"
        assert "model" not in body
        assert "stream" not in body
        assert request.model == ""
        assert not request.stream
        unwrapped = {key: value for key, value in body.items() if key != "anthropic_version"}
        assert request == interlingua_anthropic.decode_request({"model": "", **unwrapped})
        assert same_json(bedrock.encode_request(request, report=strict()), body)


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_recorded_answer_round_trips_with_the_usage_bedrock_counted(
    path: Path | MissingCorpus,
) -> None:
    for call in messages_calls(path):
        if operation(call) != INVOKE or call.response.status != 200:
            continue
        body, headers = call.response.json, headers_of(call)

        response = bedrock.decode_response(body)

        assert same_json(bedrock.encode_response(response, report=strict()), body)
        assert response.id == body["id"]  # `msg_bdrk_...` since 2025; `msg_...` before
        assert (response.finish_reason, response.raw_finish_reason) == (
            FINISH_REASONS[body["stop_reason"]],
            body["stop_reason"],
        )
        # Bedrock repeats the usage in its headers: the uncached input and the cache's.
        counted = {
            "input_tokens": int(headers["x-amzn-bedrock-input-token-count"]),
            "output_tokens": int(headers["x-amzn-bedrock-output-token-count"]),
            "cache_read_input_tokens": int(
                headers.get("x-amzn-bedrock-cache-read-input-token-count", 0)
            ),
            "cache_creation_input_tokens": int(
                headers.get("x-amzn-bedrock-cache-write-input-token-count", 0)
            ),
        }
        assert usage_counts(response.usage) == usage_counts(wire_usage(counted))


def stream_calls(param: Path | MissingCorpus) -> list[Interaction]:
    return [
        call
        for call in messages_calls(param)
        if operation(call) == INVOKE_STREAM and call.response.status == 200
    ]


def expected_stream(events: list[dict[str, Any]]) -> tuple[Any, ...]:
    """What the events say, read here: the text, the stop reason, the usage of
    message_start updated by message_delta's, and Bedrock's metrics."""
    usage = dict(events[0]["message"]["usage"])
    text, stop = "", None
    for event in events:
        if event["type"] == "content_block_delta" and event["delta"]["type"] == "text_delta":
            text += event["delta"]["text"]
        if event["type"] == "message_delta":
            usage.update(event["usage"])
            stop = event["delta"]["stop_reason"]
    return text, stop, usage_counts(wire_usage(usage)), events[-1][METRICS]


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_recorded_stream_accumulates_to_what_its_events_say(
    path: Path | MissingCorpus,
) -> None:
    for call in stream_calls(path):
        events = inner_events(call)
        text, stop, usage, metrics = expected_stream(events)

        response = accumulate(bedrock.decode_stream(chunks(call)))

        assert response.message.text == text
        assert (response.finish_reason, response.raw_finish_reason) == (FINISH_REASONS[stop], stop)
        assert usage_counts(response.usage) == usage
        assert response.provider_data["anthropic-bedrock"] == {"echo": {METRICS: metrics}}
        # Bedrock's metrics count the uncached input alike; not always the output (a
        # thinking stream's say 35 where message_delta says 38): the usage is the events'.
        assert metrics["inputTokenCount"] == events[0]["message"]["usage"]["input_tokens"]


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_a_stream_reads_alike_as_boto3_chunks_frame_payloads_or_anthropic_events(
    path: Path | MissingCorpus,
) -> None:
    for call in stream_calls(path):
        boto3_chunks = chunks(call)
        frames = [
            {"bytes": base64.b64encode(chunk["chunk"]["bytes"]).decode()} for chunk in boto3_chunks
        ]

        expected = accumulate(bedrock.decode_stream(boto3_chunks))

        assert accumulate(bedrock.decode_stream(frames)) == expected
        assert accumulate(bedrock.decode_stream(inner_events(call))) == expected


def assert_written_as_sent(written: list[Any], sent: list[dict[str, Any]]) -> None:
    """The events written are those sent, but for message_delta's usage, which
    Anthropic's encoder writes whole: the counts sent are in it."""
    for ours, theirs in zip(written, sent, strict=True):
        if theirs["type"] == "message_delta":
            assert theirs["usage"].items() <= ours["usage"].items()
            ours = {key: value for key, value in ours.items() if key != "usage"}
            theirs = {key: value for key, value in theirs.items() if key != "usage"}
        assert ours == theirs


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_recorded_stream_is_written_back_as_bedrock_sent_it(
    path: Path | MissingCorpus,
) -> None:
    for call in stream_calls(path):
        sent = [event for event in inner_events(call) if event["type"] != "ping"]

        wire = list(bedrock.encode_stream(bedrock.decode_stream(chunks(call)), report=strict()))

        assert {event.event for event in wire} == {"chunk"}
        written = [json.loads(base64.b64decode(event.data["bytes"])) for event in wire]  # type: ignore[index]
        assert_written_as_sent(written, sent)
        again = accumulate(bedrock.decode_stream([event.data for event in wire]))
        assert again == accumulate(bedrock.decode_stream(chunks(call)))


def test_a_recorded_bedrock_error_is_typed_by_its_header() -> None:
    path = from_corpus(corpus_params("bedrock", pattern="test_anthropic_images.yaml")[0])
    (call,) = [c for c in invoke_calls(path) if c.response.status >= 400]
    headers = headers_of(call)

    error = bedrock.decode_error(call.response.status, call.response.body, headers=headers)

    assert isinstance(error, BadRequestError)
    assert (error.status, error.type, error.provider) == (400, "ValidationException", PROVIDER_B)
    assert error.message == json.loads(call.response.body)["message"]
    assert not error.retryable


PROVIDER_B = "anthropic-bedrock"


def test_the_legacy_text_completions_body_is_refused_by_name() -> None:
    path = from_corpus(corpus_params("bedrock", pattern=LEGACY.split("/")[1])[0])
    (call,) = invoke_calls(path)

    with pytest.raises(DecodeError) as request_error:
        bedrock.decode_request(request_body(call))
    with pytest.raises(DecodeError) as answer_error:
        bedrock.decode_response(call.response.json)

    assert request_error.value.path == "prompt"
    assert "Text Completions" in str(request_error.value)
    assert answer_error.value.path == "completion"
    assert "Text Completions" in str(answer_error.value)


def test_an_exception_event_in_a_stream_ends_it_with_a_typed_error() -> None:
    path = from_corpus(corpus_params("bedrock", pattern="test_reasoning.yaml")[0])
    (call,) = stream_calls(path)
    # An exception frame, as boto3 yields it (botocore's shape for the stream's union).
    cut = [*chunks(call)[:4], {"throttlingException": {"message": "Too many tokens, slow down."}}]

    with pytest.raises(StreamError) as caught:
        accumulate(bedrock.decode_stream(cut))

    error = caught.value.error
    assert isinstance(error, RateLimitError)
    assert (error.type, error.message) == ("throttlingException", "Too many tokens, slow down.")
    assert caught.value.partial.message.reasoning  # what arrived is kept


BROKEN = [
    StreamStart(id="msg_broken", model="claude-test"),
    TextDelta(text="Partial"),
    ErrorEvent(message="Too many tokens, slow down.", error_type="rate_limit_error", status=429),
]


def test_an_error_ends_a_bedrock_stream_as_an_exception_and_vertex_s_as_anthropic_s() -> None:
    """Bedrock sends an error inside a stream as an exception frame (which boto3
    raises), Vertex AI as Anthropic's `error` event: each is read back as the error."""
    on_bedrock = list(bedrock.encode_stream(BROKEN))
    on_vertex = list(vertex.encode_stream(BROKEN))

    assert (on_bedrock[-1].event, on_bedrock[-1].data) == (
        "throttlingException",
        {"message": "Too many tokens, slow down."},
    )
    assert [wire.event for wire in on_bedrock[:-1]] == ["chunk"] * (len(on_bedrock) - 1)
    assert on_vertex[-1].data == {
        "type": "error",
        "error": {"type": "rate_limit_error", "message": "Too many tokens, slow down."},
    }
    frames = [{wire.event: wire.data} for wire in on_bedrock]
    for events in (bedrock.decode_stream(frames), vertex.decode_stream(w.data for w in on_vertex)):
        with pytest.raises(StreamError) as caught:
            accumulate(events)
        assert isinstance(caught.value.error, RateLimitError)
        assert caught.value.partial.message.text == "Partial"


# --- the clients, over the anthropic SDK's own Bedrock and Vertex AI clients ---

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


def bedrock_sdk() -> anthropic.AnthropicBedrock:
    """Made-up static AWS keys: the SDK signs each request with SigV4."""
    return anthropic.AnthropicBedrock(
        aws_access_key="AKIDEXAMPLE",
        aws_secret_key=fake_key("secret/"),
        aws_region=REGION,
        max_retries=0,
    )


def async_bedrock_sdk() -> anthropic.AsyncAnthropicBedrock:
    return anthropic.AsyncAnthropicBedrock(
        aws_access_key="AKIDEXAMPLE",
        aws_secret_key=fake_key("secret/"),
        aws_region=REGION,
        max_retries=0,
    )


def vertex_sdk() -> anthropic.AnthropicVertex:
    return anthropic.AnthropicVertex(
        region="us-east5", project_id="example-project", access_token="test-token", max_retries=0
    )


def async_vertex_sdk() -> anthropic.AsyncAnthropicVertex:
    return anthropic.AsyncAnthropicVertex(
        region="us-east5", project_id="example-project", access_token="test-token", max_retries=0
    )


def corpus_file(name: str) -> Path:
    (param,) = corpus_params("bedrock", pattern=name)
    return from_corpus(param)


def as_called(call: Interaction) -> ChatRequest:
    """The recorded call's request, on the model of its URL."""
    return bedrock.decode_request(request_body(call)).model_copy(update={"model": model_of(call)})


def recorded_answer(call: Interaction) -> Any:
    if operation(call) == INVOKE:
        return bedrock.decode_response(call.response.json)
    return accumulate(bedrock.decode_stream(chunks(call)))


def test_the_bedrock_client_sends_the_recorded_bodies_signed(respx_httpx2: RespxHttpx2) -> None:
    calls = invoke_calls(corpus_file("test_data_extraction.yaml"))  # 3 invoke, then a stream
    replay = in_order(calls)
    router = respx_httpx2(BEDROCK_URL)
    router.route().mock(side_effect=replay.respond)
    client = AnthropicBedrockClient(bedrock_sdk())

    answers = [
        client.complete(as_called(call), report=strict())
        if operation(call) == INVOKE
        else accumulate(client.stream(as_called(call), report=strict()))
        for call in calls
    ]

    assert replay.sent == [request_body(call) for call in calls]
    assert requested(replay) == [f"POST {call.path}" for call in calls]
    assert answers == [recorded_answer(call) for call in calls]
    assert answers[-1].provider_data["anthropic-bedrock"]["echo"][METRICS]["inputTokenCount"] > 0
    signed = re.compile(
        rf"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\d{{8}}/{REGION}/bedrock/aws4_request, "
        r"SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}"
    )
    for sent in router.calls:
        assert signed.fullmatch(sent.request.headers["authorization"])


@pytest.mark.anyio
async def test_the_async_bedrock_client_streams_the_recorded_tool_calls(
    respx_httpx2: RespxHttpx2,
) -> None:
    calls = invoke_calls(corpus_file("test_anthropic_tool_variations_async.yaml"))
    replay = in_order(calls)
    respx_httpx2(BEDROCK_URL).route().mock(side_effect=replay.respond)
    client = AsyncAnthropicBedrockClient(async_bedrock_sdk())

    answers = [
        await accumulate_async(await client.stream(as_called(call), report=strict()))
        for call in calls
    ]

    assert replay.sent == [request_body(call) for call in calls]
    assert requested(replay) == [f"POST {call.path}" for call in calls]
    assert answers == [recorded_answer(call) for call in calls]
    assert any(answer.message.tool_calls for answer in answers)


def test_the_bedrock_client_raises_bedrock_s_refusal_of_a_stream(
    respx_httpx2: RespxHttpx2,
) -> None:
    calls = invoke_calls(corpus_file("test_anthropic_images.yaml"))  # a stream, then a 400
    replay = in_order(calls)
    respx_httpx2(BEDROCK_URL).route().mock(side_effect=replay.respond)
    client = AnthropicBedrockClient(bedrock_sdk())

    first = accumulate(client.stream(as_called(calls[0])))
    with pytest.raises(BadRequestError) as caught:
        client.stream(as_called(calls[1]))

    assert first == recorded_answer(calls[0])
    assert replay.sent == [request_body(call) for call in calls]
    error = caught.value
    assert (error.status, error.provider) == (400, "anthropic-bedrock")
    assert error.message == json.loads(calls[1].response.body)["message"]


OSLO_FIRST_BODY = {
    "anthropic_version": "bedrock-2023-05-31",
    "max_tokens": 4096,
    "messages": [{"role": "user", "content": "Is it raining in Oslo right now?"}],
    "thinking": {"type": "enabled", "budget_tokens": 2048},
    "tools": [WEATHER_WIRE],
}


def test_the_bedrock_client_sends_a_core_request_in_the_envelope(
    respx_httpx2: RespxHttpx2,
) -> None:
    """The project's own fixture: an answer with signed thinking, then a 400 whose
    type is in Bedrock's header."""
    replay = in_order(recorded("anthropic-bedrock/thinking_tool_use.json"))
    respx_httpx2(BEDROCK_URL).route().mock(side_effect=replay.respond)
    client = AnthropicBedrockClient(bedrock_sdk())
    request = ChatRequest(
        model="anthropic-bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        messages=(Message.user("Is it raining in Oslo right now?"),),
        tools=(WEATHER,),
        reasoning=ReasoningConfig(budget_tokens=2048),
        max_tokens=4096,
    )

    answer = client.complete(request, report=strict())
    with pytest.raises(BadRequestError) as caught:
        client.complete(request.model_copy(update={"reasoning": None}))

    assert replay.sent[0] == OSLO_FIRST_BODY
    assert replay.sent[1] == {
        key: value for key, value in OSLO_FIRST_BODY.items() if key != "thinking"
    }
    path = "/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke"
    assert requested(replay) == [f"POST {path}"] * 2
    assert answer == bedrock.decode_response(replay.interactions[0].response.json)
    assert answer.message.reasoning[0].signature
    assert caught.value.status == 400
    # Typed by the answer's header, which the client hands on.
    assert (
        caught.value.type
        == headers_of(replay.interactions[1])["x-amzn-errortype"].partition(":")[0]
    )
    assert caught.value.message.startswith("messages.0.content.1.image")


def test_a_bedrock_error_is_typed_by_the_header_its_answer_carries() -> None:
    call = recorded("anthropic-bedrock/thinking_tool_use.json")[1]
    headers = headers_of(call)

    error = bedrock.decode_error(call.response.status, call.response.json, headers=headers)

    assert isinstance(error, BadRequestError)
    assert error.type == headers["x-amzn-errortype"].partition(":")[0]
    assert error.message == call.response.json["message"]
    assert bedrock.encode_error(error) == (400, call.response.json)


LISBON_FIRST_BODY = {
    "anthropic_version": "vertex-2023-10-16",
    "max_tokens": 4096,
    "system": "You answer weather questions in one sentence.",
    "messages": [{"role": "user", "content": "Is it raining in Lisbon right now?"}],
    "thinking": {"type": "enabled", "budget_tokens": 2048},
    "tools": [WEATHER_WIRE],
}


def test_the_vertex_client_sends_a_tool_round_trip_with_its_signed_thinking(
    respx_httpx2: RespxHttpx2,
) -> None:
    replay = in_order(recorded("anthropic-vertex/tool_round_trip_with_thinking.json"))
    router = respx_httpx2(VERTEX_URL)
    router.route().mock(side_effect=replay.respond)
    client = AnthropicVertexClient(vertex_sdk())
    history = [
        Message.system("You answer weather questions in one sentence."),
        Message.user("Is it raining in Lisbon right now?"),
    ]
    request = ChatRequest(
        model="claude-sonnet-4-5@20250929",
        messages=tuple(history),
        tools=(WEATHER,),
        reasoning=ReasoningConfig(budget_tokens=2048),
        max_tokens=4096,
    )

    first = client.complete(request, report=strict())
    call = first.message.tool_calls[0]
    history += [first.message, Message.tool_result(call.id, "Light rain, 14 C")]
    second = client.complete(request.model_copy(update={"messages": tuple(history)}))

    thinking = first.message.reasoning[0]
    assert replay.sent == [
        LISBON_FIRST_BODY,
        {
            **LISBON_FIRST_BODY,
            "messages": [
                {"role": "user", "content": "Is it raining in Lisbon right now?"},
                {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "thinking",
                            "thinking": thinking.text,
                            "signature": thinking.signature,
                        },
                        {
                            "type": "tool_use",
                            "id": call.id,
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
                            "tool_use_id": call.id,
                            "content": "Light rain, 14 C",
                        }
                    ],
                },
            ],
        },
    ]
    assert requested(replay) == [f"POST {VERTEX_MODEL_PATH}:rawPredict"] * 2
    assert router.calls[0].request.headers["authorization"] == "Bearer test-token"
    assert second.message.text == replay.interactions[1].response.json["content"][0]["text"]
    assert second.id is not None
    assert second.id.startswith("msg_vrtx_")


@pytest.mark.anyio
async def test_the_async_vertex_client_streams_with_stream_in_the_body(
    respx_httpx2: RespxHttpx2,
) -> None:
    replay = in_order(recorded("anthropic-vertex/stream_text.json"))
    respx_httpx2(VERTEX_URL).route().mock(side_effect=replay.respond)
    client = AsyncAnthropicVertexClient(async_vertex_sdk())
    request = ChatRequest(
        model="anthropic-vertex:claude-sonnet-4-5@20250929",
        messages=(Message.user("Name a primary colour."),),
        max_tokens=1024,
    )

    response = await accumulate_async(await client.stream(request, report=strict()))

    assert replay.sent == [
        {
            "anthropic_version": "vertex-2023-10-16",
            "max_tokens": 1024,
            "messages": [{"role": "user", "content": "Name a primary colour."}],
            "stream": True,
        }
    ]
    assert requested(replay) == [f"POST {VERTEX_MODEL_PATH}:streamRawPredict"]
    payloads = replay.interactions[0].response.stream_payloads()
    assert response == accumulate(vertex.decode_stream(payloads))
    assert response.message.text == "".join(
        p["delta"]["text"] for p in payloads if p["type"] == "content_block_delta"
    )
    wire = list(vertex.encode_stream(vertex.decode_stream(payloads), report=strict()))
    assert [event.event for event in wire] == [p["type"] for p in payloads if p["type"] != "ping"]
    assert_written_as_sent(
        [event.data for event in wire], [p for p in payloads if p["type"] != "ping"]
    )


def test_the_vertex_client_raises_anthropic_s_error_as_vertex_answers_it(
    respx_httpx2: RespxHttpx2,
) -> None:
    replay = in_order(recorded("anthropic-vertex/error_overloaded.json"))
    respx_httpx2(VERTEX_URL).route().mock(side_effect=replay.respond)
    request = ChatRequest(
        model="claude-sonnet-4-5@20250929", messages=(Message.user("Hello"),), max_tokens=1024
    )

    with pytest.raises(OverloadedError) as caught:
        AnthropicVertexClient(vertex_sdk()).complete(request)

    body = replay.interactions[0].response.json
    error = caught.value
    assert (error.status, error.type, error.provider) == (
        529,
        "overloaded_error",
        "anthropic-vertex",
    )
    assert error.request_id == body["request_id"]
    assert vertex.encode_error(error)[0] == 529


# --- thinking signatures across Anthropic's API, Bedrock and Vertex AI ---


def continued(answer: Any, question: str, result: str) -> ChatRequest:
    """The request that sends `answer`'s tool call's result back."""
    call = answer.message.tool_calls[0]
    history = (Message.user(question), answer.message, Message.tool_result(call.id, result))
    return ChatRequest(
        model="claude-sonnet-4-5",
        messages=history,
        tools=(WEATHER,),
        reasoning=ReasoningConfig(budget_tokens=2048),
        max_tokens=4096,
    )


def test_a_signature_made_on_bedrock_goes_back_to_anthropic_s_api_and_vertex_ai() -> None:
    """Anthropic documents signatures as taken on every platform (the quirk in `_envelope`)."""
    body = recorded("anthropic-bedrock/thinking_tool_use.json")[0].response.json
    request = continued(bedrock.decode_response(body), "Is it raining in Oslo?", "Snow, -2 C")

    to_anthropic = interlingua_anthropic.encode_request(request, report=strict())
    to_vertex = vertex.encode_request(request, report=strict())
    to_bedrock = bedrock.encode_request(request, report=strict())

    for sent in (to_anthropic, to_vertex, to_bedrock):
        assert sent["messages"][1] == {"role": "assistant", "content": body["content"]}


def test_a_signature_made_on_anthropic_s_api_goes_to_bedrock_and_vertex_ai() -> None:
    body = recorded("anthropic/tool_round_trip_with_thinking.json")[0].response.json
    answer = interlingua_anthropic.decode_response(body)
    request = continued(answer, "Is it raining in Lisbon right now?", "Light rain")

    for adapter in (bedrock, vertex):
        sent = adapter.encode_request(request, report=strict())

        assert sent["messages"][1] == {"role": "assistant", "content": body["content"]}


def test_a_signature_made_on_vertex_ai_goes_to_bedrock() -> None:
    body = recorded("anthropic-vertex/tool_round_trip_with_thinking.json")[0].response.json
    request = continued(vertex.decode_response(body), "Raining in Lisbon?", "Light rain")

    sent = bedrock.encode_request(request, report=strict())

    assert sent["messages"][1] == {"role": "assistant", "content": body["content"]}


# --- the adapters ---


@pytest.mark.parametrize("name", ["anthropic-bedrock", "anthropic-vertex"])
def test_each_envelope_is_an_adapter_found_by_name(name: str) -> None:
    adapter = get_adapter(name)

    assert isinstance(adapter, GatewayAdapter)
    assert name == adapter.PROVIDER
    assert adapter is {"anthropic-bedrock": bedrock, "anthropic-vertex": vertex}[name]


def test_bedrock_s_betas_in_the_body_go_back_to_bedrock_alone() -> None:
    """Bedrock takes Anthropic's betas as a body field (the anthropic SDK's
    `AnthropicBedrock` moves the `anthropic-beta` header there)."""
    body = {
        "anthropic_version": "bedrock-2023-05-31",
        "anthropic_beta": ["context-1m-2025-08-07"],
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hi"}],
    }
    request = bedrock.decode_request(body)
    report = TranslationReport()

    to_anthropic = interlingua_anthropic.encode_request(request, report=report)

    assert request.provider_options == {
        "anthropic-bedrock": {"anthropic_beta": ["context-1m-2025-08-07"]}
    }
    assert same_json(bedrock.encode_request(request, report=strict()), body)
    assert "anthropic_beta" not in to_anthropic
    assert [loss.path for loss in report.losses] == [
        "provider_options.anthropic-bedrock.anthropic_beta"
    ]


def test_an_envelope_keeps_a_version_other_than_its_own() -> None:
    body = {
        "anthropic_version": "bedrock-2099-01-01",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hi"}],
    }

    request = bedrock.decode_request(body)

    assert request.provider_options == {
        "anthropic-bedrock": {"anthropic_version": "bedrock-2099-01-01"}
    }
    assert same_json(bedrock.encode_request(request, report=strict()), body)
    assert (
        vertex.encode_request(request, report=strict())["anthropic_version"] == "vertex-2023-10-16"
    )


def test_the_clients_connect_with_the_gateway_s_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Bedrock API key is the SDK's `api_key`; Vertex AI's key is an access token,
    its region and project the SDK's variables."""
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("CLOUD_ML_REGION", "europe-west1")
    monkeypatch.setenv("ANTHROPIC_VERTEX_PROJECT_ID", "example-project")
    options = SDKOptions(api_key="test-token", timeout=5.0, max_retries=1)

    on_bedrock = AnthropicBedrockClient.connect(SDKOptions(api_key="test-token", max_retries=1))
    on_vertex = AnthropicVertexClient.connect(options)

    assert (on_bedrock.sdk.api_key, on_bedrock.sdk.aws_region) == ("test-token", REGION)
    assert (on_vertex.sdk.access_token, on_vertex.sdk.timeout) == ("test-token", 5.0)
    assert (on_vertex.sdk.project_id, on_vertex.sdk.region) == ("example-project", "europe-west1")
    # A region given (the gateway's `[upstreams.<name>] region`) over the variables.
    given = SDKOptions(api_key="test-token", region="eu-central-1")
    assert AnthropicBedrockClient.connect(given).sdk.aws_region == "eu-central-1"
    assert AnthropicVertexClient.connect(given).sdk.region == "eu-central-1"
