"""`BedrockClient` and `AsyncBedrockClient` over a real boto3 `bedrock-runtime`
client, answered by the testing kit from the recorded corpus: each recorded
Converse request, decoded into the core with the model of its URL, is sent
again by the client, and what boto3 sends is the recorded body (the codec's
body as it is, its blobs turned into bytes only for boto3 to encode them back);
the answer is the recorded one read by the adapter's decoder (every field
Bedrock sent, those boto3's model does not know included), the stream the
recorded events, and an error the typed one its header names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import EventStreamError

import interlingua_bedrock as bedrock
from boto3_calls import CREDENTIALS, bedrock_calls, client_for, operation_of
from conftest import FIXTURES, corpus_id, corpus_params, from_corpus
from interlingua import (
    ChatRequest,
    ChatResponse,
    ProviderError,
    RateLimitError,
    StreamError,
    accumulate,
    accumulate_async,
)
from interlingua.client import SDKOptions
from interlingua.testing import Interaction, load_cassette, replay
from interlingua_bedrock._client import SDK

CONVERSE_FILES = corpus_params(
    "bedrock",
    pattern="*.yaml",
    keep=lambda path: any(
        operation_of(call.request)[0].startswith("Converse")
        for call in bedrock_calls(path)
        if call.request
    ),
    holding="Converse calls",
)


def converse_calls(path: Path) -> list[Interaction]:
    return [
        call
        for call in bedrock_calls(path)
        if call.request and operation_of(call.request)[0].startswith("Converse")
    ]


def request_of(call: Interaction) -> ChatRequest:
    """The recorded body in the core, of the model its URL names."""
    assert call.request is not None
    _, model_id = operation_of(call.request)
    return bedrock.decode_request(json.loads(call.request.body or b"{}"), model=model_id)


def of_the_url(call: Interaction, answer: ChatResponse) -> ChatResponse:
    """`answer` decoded from `call`'s wire, which names no model, of the model its
    URL names: as the client gives it (`interlingua.client.answered_by`)."""
    assert call.request is not None
    assert answer.model is None
    return answer.model_copy(update={"model": operation_of(call.request)[1]})


def recorded_events(call: Interaction) -> list[Any]:
    return list(bedrock.read_event_stream(call.response.body))


@pytest.mark.parametrize("path", CONVERSE_FILES, ids=corpus_id)
def test_each_recorded_converse_call_is_sent_as_recorded_and_answered(path: Path) -> None:
    calls = converse_calls(from_corpus(path))
    with replay(calls) as played:
        for call in calls:
            assert call.request is not None
            client = bedrock.BedrockClient(client_for(call.request.url))
            streamed = operation_of(call.request)[0] == "ConverseStream"
            if call.response.status >= 300:
                # The recorded body as it is: the codec would mend what Bedrock refused.
                body = json.loads(call.request.body or b"{}")
                path = client.endpoint.path_for(request_of(call), stream=streamed)
                send = client.stream_body if streamed else client.complete_body
                with pytest.raises(ProviderError) as raised:
                    send(body, path)
                assert raised.value.status == call.response.status
                assert raised.value.message == call.response.json["message"]
            elif streamed:
                expected = accumulate(bedrock.decode_stream(recorded_events(call)))
                assert accumulate(client.stream(request_of(call))) == of_the_url(call, expected)
            else:
                answer = client.complete(request_of(call))
                assert answer == of_the_url(call, bedrock.decode_response(call.response.json))
    assert played.done
    assert played.sent == [json.loads(call.request.body or b"{}") for call in calls]


def _first(kind: str) -> tuple[Path, Interaction]:
    for path in map(from_corpus, CONVERSE_FILES):
        for call in converse_calls(path):
            assert call.request is not None
            if call.response.status == 200 and operation_of(call.request)[0] == kind:
                return path, call
    raise AssertionError(f"no recorded {kind} call")


def test_the_async_client_answers_and_streams_from_worker_threads() -> None:
    _, whole = _first("Converse")
    _, streamed = _first("ConverseStream")
    assert whole.request is not None
    assert streamed.request is not None

    async def main() -> tuple[Any, Any]:
        client = bedrock.AsyncBedrockClient(client_for(whole.request.url))
        answer = await client.complete(request_of(whole))
        events = await client.stream(request_of(streamed))
        return answer, await accumulate_async(events)

    with replay([whole, streamed]) as played:
        answer, joined = anyio.run(main)
    assert answer == of_the_url(whole, bedrock.decode_response(whole.response.json))
    recorded = accumulate(bedrock.decode_stream(recorded_events(streamed)))
    assert joined == of_the_url(streamed, recorded)
    assert played.sent == [json.loads(whole.request.body), json.loads(streamed.request.body)]


def test_fields_boto3_does_not_model_reach_the_decoder() -> None:
    """boto3 drops what its model of Bedrock lacks (`usage.serverToolUsage`, the
    older `cache*InputTokenCount` spellings); the client reads Bedrock's bytes."""
    for path in map(from_corpus, CONVERSE_FILES):
        for call in converse_calls(path):
            usage = (
                (call.response.json or {}).get("usage", {}) if call.response.status == 200 else {}
            )
            if "cacheReadInputTokenCount" in usage and call.response.json.get("output"):
                with replay([call]) as played:
                    answer = bedrock.BedrockClient(client_for(call.request.url)).complete(
                        request_of(call)
                    )
                assert played.sent == [json.loads(call.request.body or b"{}")]
                assert bedrock.encode_response(answer)["usage"] == usage
                return
    pytest.fail("no recorded answer with the older cache count spelling")


ERRORS = sorted((FIXTURES / "bedrock").glob("error_*.json"))


@pytest.mark.parametrize("path", ERRORS, ids=lambda path: path.stem)
def test_an_error_is_typed_by_the_header_its_answer_carries(path: Path) -> None:
    (call,) = load_cassette(path).interactions
    assert call.request is not None
    header = call.response.joined_headers()["x-amzn-errortype"].split(":")[0]
    # One attempt: boto3 would retry a throttled call, and the recording answers once.
    sdk = boto3.client(
        "bedrock-runtime",
        region_name=urlsplit(call.request.url).hostname.split(".")[1],  # type: ignore[union-attr]
        config=Config(retries={"total_max_attempts": 1}),
        **CREDENTIALS,
    )
    client = bedrock.BedrockClient(sdk)
    streamed = operation_of(call.request)[0] == "ConverseStream"
    with replay([call]) as played, pytest.raises(ProviderError) as raised:
        client.stream(request_of(call)) if streamed else client.complete(request_of(call))
    assert played.sent == [call.request.json]
    assert raised.value.type == header
    assert raised.value.status == call.response.status
    expected = bedrock.decode_error(
        call.response.status, call.response.json, headers=call.response.joined_headers()
    )
    assert type(raised.value) is type(expected)
    assert raised.value.retryable == expected.retryable


def test_an_exception_inside_a_stream_ends_it_keeping_what_arrived() -> None:
    """boto3 raises an exception event as `EventStreamError`; the stream gives
    what came before it and ends with the typed error."""
    exc = EventStreamError(
        {"Error": {"Code": "throttlingException", "Message": "Too many tokens"}},
        "ConverseStream",
    )
    payload = SDK.in_stream_payload(exc)
    assert payload == {"throttlingException": {"message": "Too many tokens"}}
    events = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Par"}}},
        payload,
    ]
    with pytest.raises(StreamError) as raised:
        accumulate(bedrock.decode_stream(events))
    assert isinstance(raised.value.error, RateLimitError)
    assert raised.value.error.retryable  # a throttled stream is worth sending again
    assert raised.value.partial is not None
    assert raised.value.partial.text == "Par"


def test_the_gateway_s_options_build_a_boto3_client() -> None:
    client = bedrock.BedrockClient.connect(
        SDKOptions(
            base_url="http://127.0.0.1:9", timeout=12.5, max_retries=2, region="eu-central-1"
        )
    )
    config = client.sdk.meta.config
    assert client.sdk.meta.endpoint_url == "http://127.0.0.1:9"
    assert (config.connect_timeout, config.read_timeout) == (12.5, 12.5)
    assert config.retries["total_max_attempts"] == 3
    assert client.sdk.meta.region_name == "eu-central-1"


def test_a_bedrock_api_key_goes_as_a_bearer_token_unsigned() -> None:
    """Bedrock's API keys are bearer tokens (`Authorization: Bearer <key>`): a
    client given one sends it, and signs nothing with AWS credentials."""
    _, call = _first("Converse")
    assert call.request is not None
    region = urlsplit(call.request.url).hostname.split(".")[1]  # type: ignore[union-attr]
    key = "ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl"  # the shape of one; not a key
    client = bedrock.BedrockClient.connect(SDKOptions(api_key=key, region=region))
    with replay([call]) as played:
        client.complete(request_of(call))
    (sent,) = played.requests
    assert sent.headers["authorization"] == f"Bearer {key}"
    assert "x-amz-date" not in sent.headers
