"""`interlingua.testing.replay` answers boto3: every Bedrock Runtime call of the
recorded corpus is made again by a real boto3 `bedrock-runtime` client
(`converse`, `converse_stream`, `invoke_model`,
`invoke_model_with_response_stream`), built as user code builds it, and gets
its recorded answer: what boto3 parses equals the recorded body read without
it (JSON parsed; an event stream's frames read by botocore's framing alone,
each payload parsed as JSON), the events equal what
`interlingua_bedrock.read_event_stream` reads from the recorded bytes, and an
error raises botocore's `ClientError` with the recorded status and type.
A client is answered wherever and whenever the code made it; a request that
matches nothing raises the kit's `CassetteError`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import unquote

import boto3
import pytest
from botocore.endpoint import Endpoint
from botocore.eventstream import EventStreamBuffer
from botocore.exceptions import ClientError, EventStreamError

import interlingua_anthropic
from boto3_calls import (
    CREDENTIALS,
    OPERATIONS,
    bedrock_calls,
    call,
    check_answer,
    check_error,
    client_for,
    framed_events,
    frames,
)
from conftest import FIXTURES, corpus_id, corpus_params, from_corpus
from interlingua import CassetteError, ErrorEvent, StreamStart, TextDelta, _adapter
from interlingua.testing import DEFAULT_MATCH_ON, Interaction, fake, load_cassette, replay
from interlingua.testing._apis import read_call
from interlingua.testing._match import Matcher, SentRequest
from interlingua.testing._records import api_of_url, provider_of, provider_of_host
from interlingua_bedrock import can_write_event_streams, read_event_stream, write_event_stream


@pytest.fixture(scope="module")
def interlingua_cassette_dir() -> Path:
    """The marker's cassettes are the kit's Bedrock fixtures."""
    return FIXTURES / "bedrock"


@pytest.fixture
def interlingua_cassette_name() -> str:
    return CONVERSE.stem


BEDROCK_FILES = corpus_params(
    "bedrock",
    pattern="*.yaml",
    keep=lambda path: bool(bedrock_calls(path)),
    holding="Bedrock calls",
)


@pytest.mark.parametrize("path", BEDROCK_FILES, ids=corpus_id)
def test_each_recorded_call_replays_through_boto3(path: Path) -> None:
    calls = bedrock_calls(from_corpus(path))
    with replay(calls) as played:
        for interaction in calls:
            assert interaction.request is not None
            client = client_for(interaction.request.url)
            if interaction.response.status >= 300:
                with pytest.raises(ClientError) as raised:
                    call(client, interaction)
                check_error(raised.value, interaction)
            else:
                check_answer(call(client, interaction), interaction)
    assert played.done
    # What boto3 sent is the recorded request, body for body (as JSON: some were re-serialized).
    assert played.sent == [json.loads(i.request.body or b"null") for i in calls if i.request]
    # And where: the recorded URL, the model id as escaped or not (botocore escapes `:`).
    assert [unquote(str(sent.url)) for sent in played.requests] == [
        unquote(i.request.url) for i in calls if i.request
    ]


# --- the kit's own recording: where the clients come from, and a mismatch ---

CONVERSE = FIXTURES / "bedrock" / "converse_boto3.json"
QUESTION = {
    "modelId": "us.amazon.nova-micro-v1:0",
    "messages": [{"role": "user", "content": [{"text": "Which river runs through Paris?"}]}],
    "system": [{"text": "Answer in one sentence."}],
    "inferenceConfig": {"maxTokens": 200, "temperature": 0.2},
}


def recorded_converse() -> Interaction:
    (interaction,) = load_cassette(CONVERSE).interactions
    return interaction


def test_a_client_made_before_the_block_is_answered() -> None:
    client = boto3.client("bedrock-runtime", region_name="us-east-1", **CREDENTIALS)
    recorded = recorded_converse()

    with replay(CONVERSE) as played:
        answer = client.converse(**QUESTION)

    assert answer["output"] == recorded.response.json["output"]
    assert answer["stopReason"] == "end_turn"
    assert answer["usage"]["totalTokens"] == recorded.response.json["usage"]["totalTokens"]
    assert (
        answer["ResponseMetadata"]["RequestId"] == recorded.response.headers["x-amzn-requestid"][0]
    )
    body = {key: value for key, value in QUESTION.items() if key != "modelId"}
    assert played.sent == [body]  # the model id travels in the URL, not the body
    assert str(played.requests[0].url) == recorded.request.url  # type: ignore[union-attr]


def test_a_client_of_a_session_made_inside_the_block_is_answered() -> None:
    with replay(CONVERSE) as played:
        session = boto3.Session(region_name="us-east-1", **CREDENTIALS)
        answer = session.client("bedrock-runtime").converse(**QUESTION)
    assert answer["output"]["message"]["content"] == [{"text": "The Seine runs through Paris."}]
    assert played.done


@pytest.mark.interlingua
def test_the_user_code_runs_unchanged_under_the_marker_s_cassette(
    interlingua_cassette: Any,
) -> None:
    client = boto3.client("bedrock-runtime", region_name="us-east-1", **CREDENTIALS)
    answer = client.converse(**QUESTION)
    assert answer["stopReason"] == recorded_converse().response.json["stopReason"]
    assert interlingua_cassette.sent[0]["inferenceConfig"] == {"maxTokens": 200, "temperature": 0.2}


def test_a_request_that_matches_nothing_raises_the_cassette_error() -> None:
    client = boto3.client("bedrock-runtime", region_name="us-east-1", **CREDENTIALS)
    changed = QUESTION | {"inferenceConfig": {"maxTokens": 300, "temperature": 0.2}}

    played = replay(CONVERSE)
    with pytest.raises(CassetteError, match=r"inferenceConfig\.maxTokens: 300 != 200"), played:
        client.converse(**changed)
    assert not played.done
    assert len(played.mismatches) == 1  # raised at once: botocore retries no CassetteError


def test_boto3_sends_to_the_network_again_after_the_block() -> None:
    sent = Endpoint._send
    with replay(CONVERSE):
        assert Endpoint._send is not sent
    assert Endpoint._send is sent


# --- where the kit places a Bedrock call: by its path, with the adapter that reads it ---

BEDROCK = "https://bedrock-runtime.us-east-1.amazonaws.com/model"
PLACES = [
    (f"{BEDROCK}/us.amazon.nova-micro-v1%3A0/converse", "bedrock"),
    (f"{BEDROCK}/meta.llama3-2-1b-instruct-v1%3A0/converse-stream", "bedrock"),
    (f"{BEDROCK}/eu.anthropic.claude-haiku-4-5-20251001-v1:0/invoke", "anthropic-bedrock"),
    (
        f"{BEDROCK}/arn%3Aaws%3Abedrock%3Aus-east-1%3A012345678901%3Ainference-profile"
        "%2Fus.anthropic.claude-3-7-sonnet-20250219-v1%3A0/invoke-with-response-stream",
        "anthropic-bedrock",
    ),
    # InvokeModel with another model's own body: no API the kit knows.
    (f"{BEDROCK}/amazon.titan-text-express-v1/invoke", None),
    (f"{BEDROCK}/us.amazon.nova-micro-v1%3A0/converse/extra", None),
]


@pytest.mark.parametrize(("url", "api"), PLACES)
def test_a_bedrock_path_is_placed_with_its_api(
    monkeypatch: pytest.MonkeyPatch, url: str, api: str | None
) -> None:
    for name in ("bedrock", "anthropic-bedrock"):  # installed, reading bodies (a stand-in)
        monkeypatch.setitem(_adapter._registered, name, interlingua_anthropic)
    assert api_of_url(url) == api
    assert provider_of(url, None) == api


def test_a_bedrock_path_names_no_api_that_no_adapter_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("bedrock", "anthropic-bedrock"):  # installed, with no codec
        monkeypatch.setitem(_adapter._registered, name, SimpleNamespace(PROVIDER=name))
    assert [api_of_url(url) for url, _ in PLACES] == [None] * len(PLACES)


def test_bedrock_runtime_s_regional_hosts_are_bedrock_s() -> None:
    for host in (
        "bedrock-runtime.us-east-1.amazonaws.com",
        "bedrock-runtime-fips.us-west-2.amazonaws.com",
    ):
        assert provider_of_host(host) == "bedrock"
    for host in ("bedrock.us-east-1.amazonaws.com", "t3.ftcdn.net", "s3.us-east-1.amazonaws.com"):
        assert provider_of_host(host) is None


@pytest.mark.parametrize(
    ("operation", "stream"), [("invoke", False), ("invoke-with-response-stream", True)]
)
def test_a_bedrock_call_asks_for_the_model_and_the_stream_in_its_path(
    monkeypatch: pytest.MonkeyPatch, operation: str, stream: bool
) -> None:
    monkeypatch.setitem(_adapter._registered, "anthropic-bedrock", interlingua_anthropic)
    body = {
        "model": "in-the-body",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "Hi"}],
    }
    url = f"{BEDROCK}/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/{operation}"

    chat = read_call("POST", url, json.dumps(body).encode())

    assert chat.api == "anthropic-bedrock"
    assert (chat.request.model, chat.request.stream) == (
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        stream,
    )


def test_a_path_matches_however_it_is_escaped_but_for_a_slash() -> None:
    matcher = Matcher.build(DEFAULT_MATCH_ON, (), ())
    claude = f"{BEDROCK}/us.anthropic.claude-haiku-4-5-20251001-v1:0/invoke"
    sent = SentRequest("POST", claude.replace("v1:0", "v1%3A0"), b"", None)
    assert matcher.target_differences(sent, "POST", claude) == []

    profile = f"{BEDROCK}/arn%3Aaws%3Abedrock%3Aus-east-1%3A012345678901%3Ainference-profile"
    sent = SentRequest("POST", f"{profile}%2Fus.amazon.nova-micro-v1%3A0/converse", b"", None)
    unescaped = f"{profile}/us.amazon.nova-micro-v1%3A0/converse"
    assert [d.field for d in matcher.target_differences(sent, "POST", unescaped)] == ["path"]


# --- streams the kit writes: Amazon's event stream, by AWS's encoder ---

WRITES_STREAMS = pytest.mark.skipif(
    not can_write_event_streams(),
    reason="AWS's event-stream encoder (smithy-aws-event-stream) needs Python 3.12",
)


def _streamed(calls: list[Interaction]) -> list[tuple[str, Interaction]]:
    """Each streamed call with 200 and its path's last segment (`converse-stream`)."""
    found = []
    for interaction in calls:
        assert interaction.request is not None
        tail = interaction.request.url.rpartition("/")[2]
        if tail.endswith("stream") and interaction.response.status == 200:
            found.append((tail, interaction))
    return found


STREAMED_FILES = corpus_params(
    "bedrock",
    pattern="*.yaml",
    keep=lambda path: bool(_streamed(bedrock_calls(path))),
    holding="streamed Bedrock calls",
)


@WRITES_STREAMS
@pytest.mark.parametrize("path", STREAMED_FILES, ids=corpus_id)
def test_the_kit_writes_each_recorded_stream_back_frame_for_frame(path: Path) -> None:
    """The events boto3 yields from a recorded stream, written back by
    `write_event_stream` (the kit's answer to a boto3 stream), are the recorded
    frames as boto3 reads them, read by botocore's framing alone (CRCs checked)
    and the operation's model, not by the adapter: each frame's type and payload
    (less Bedrock's random padding and what the model does not have), and its
    headers."""
    for tail, interaction in _streamed(bedrock_calls(from_corpus(path))):
        recorded, operation = interaction.response.body, OPERATIONS[tail]
        events = list(read_event_stream(recorded, operation))

        written = b"".join(write_event_stream(events, operation))

        assert framed_events(written, operation) == framed_events(recorded, operation)
        assert [headers(frame) for frame in _raw_frames(written)] == [
            {":message-type": "event", ":event-type": kind, ":content-type": "application/json"}
            for kind, _ in frames(recorded)
        ]


def headers(frame: Any) -> dict[str, Any]:
    return dict(frame.to_response_dict()["headers"])


def _raw_frames(body: bytes) -> list[Any]:
    buffer = EventStreamBuffer()
    buffer.add_data(body)
    return list(buffer)


BROKEN = [
    StreamStart(id="broken-1", model="nova-test"),
    TextDelta(text="Partial"),
    ErrorEvent(message="Too many requests", error_type="ThrottlingException", status=429),
]


def _converse_texts(client: Any) -> Iterator[str]:
    messages = [{"role": "user", "content": [{"text": "Hello"}]}]
    answer = client.converse_stream(modelId="us.amazon.nova-micro-v1:0", messages=messages)
    for event in answer["stream"]:
        if delta := event.get("contentBlockDelta"):
            yield delta["delta"]["text"]


def _invoke_model_texts(client: Any) -> Iterator[str]:
    body = {
        "anthropic_version": "bedrock-2023-05-31",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "Hello"}],
    }
    model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    answer = client.invoke_model_with_response_stream(modelId=model, body=json.dumps(body))
    for event in answer["body"]:
        anthropic_event = json.loads(event["chunk"]["bytes"])
        if anthropic_event["type"] == "content_block_delta":
            yield anthropic_event["delta"]["text"]


@WRITES_STREAMS
@pytest.mark.parametrize("texts", [_converse_texts, _invoke_model_texts])
def test_a_stream_that_breaks_raises_in_boto3_after_what_arrived(texts: Any) -> None:
    """An error event is an exception frame, which boto3 raises as the stream's
    member after yielding the text that came before it: Converse's and Claude's."""
    client = boto3.client("bedrock-runtime", region_name="us-east-1", **CREDENTIALS)
    arrived: list[str] = []
    with fake(responses=[BROKEN]) as provider, pytest.raises(EventStreamError) as raised:
        arrived.extend(texts(client))
    assert arrived == ["Partial"]
    assert raised.value.response["Error"] == {
        "Code": "throttlingException",
        "Message": "Too many requests",
    }
    assert [request.stream for request in provider.requests] == [True]


@pytest.mark.skipif(
    can_write_event_streams(), reason="AWS's event-stream encoder is installed: the kit writes it"
)
def test_a_stream_asked_of_another_api_s_recording_is_refused_naming_why() -> None:
    """Across providers, a recording of another API answers boto3's `converse`
    (`test_replay_across_providers`); `converse_stream` only where AWS's
    encoder is installed (Python 3.12): the kit writes no frames by hand."""
    client = boto3.client("bedrock-runtime", region_name="us-east-1", **CREDENTIALS)
    tool_loop = FIXTURES / "openai" / "chat_tool_round_trip.json"
    (first, _) = load_cassette(tool_loop).interactions
    assert first.request is not None
    asked = first.request.json["messages"]
    messages = [{"role": "user", "content": [{"text": asked[1]["content"]}]}]

    played = replay(tool_loop, across_providers=True)
    with pytest.raises(CassetteError, match="takes AWS's encoder") as raised, played:
        client.converse_stream(
            modelId="us.amazon.nova-micro-v1:0",
            messages=messages,
            system=[{"text": asked[0]["content"]}],
            toolConfig={"tools": [tool_spec(tool) for tool in first.request.json["tools"]]},
        )
    assert "/converse-stream" in str(raised.value)


def tool_spec(tool: dict[str, Any]) -> dict[str, Any]:
    function = tool["function"]
    schema = {"json": function["parameters"]}
    return {
        "toolSpec": {
            "name": function["name"],
            "description": function.get("description", ""),
            "inputSchema": schema,
        }
    }
