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
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

import interlingua_anthropic
from conftest import (
    MissingCorpus,
    cassette,
    corpus_id,
    corpus_params,
    from_corpus,
    same_json,
    strict,
    usage_counts,
)
from interlingua import (
    BadRequestError,
    DecodeError,
    FinishReason,
    RateLimitError,
    StreamError,
    TokenUsage,
    accumulate,
)
from interlingua.testing import Interaction
from interlingua_anthropic import bedrock
from interlingua_anthropic._envelope_stream import METRICS
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


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_recorded_stream_is_written_back_as_bedrock_sent_it(
    path: Path | MissingCorpus,
) -> None:
    for call in stream_calls(path):
        sent = [event for event in inner_events(call) if event["type"] != "ping"]

        wire = list(bedrock.encode_stream(bedrock.decode_stream(chunks(call)), report=strict()))

        assert {event.event for event in wire} == {"chunk"}
        written = [json.loads(base64.b64decode(event.data["bytes"])) for event in wire]  # type: ignore[index]
        # message_delta's usage is written whole (Anthropic's encoder): the counts sent are in it.
        for ours, theirs in zip(written, sent, strict=True):
            if theirs["type"] == "message_delta":
                assert theirs["usage"].items() <= ours.pop("usage").items()
                theirs = {key: value for key, value in theirs.items() if key != "usage"}
            assert ours == theirs
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
