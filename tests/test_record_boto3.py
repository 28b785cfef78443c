"""`interlingua.testing.record` records boto3: a real `bedrock-runtime` client
(static credentials with a session token, `endpoint_url` on 127.0.0.1) talks
to a stand-in for Bedrock, and what went over the wire is written to a
cassette without the SigV4 `authorization`, the `x-amz-security-token` or the
key id; an event stream is kept byte for byte (its frames and CRCs as
served). Replaying that cassette with no server gives boto3 the same answers.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import boto3
import pytest
from botocore.client import BaseClient
from botocore.exceptions import ClientError

from boto3_calls import bedrock_calls, call, client_for, operation_of, sent_path, stream_member
from conftest import FIXTURES, fake_key, require_corpus
from interlingua.testing import find_secrets, load_cassette, record, replay, use_cassette
from interlingua_bedrock._event_stream import read_event_stream
from provider_server import ProviderServer

CONVERSE = FIXTURES / "bedrock" / "converse_boto3.json"
QUESTION = {
    "modelId": "us.amazon.nova-micro-v1:0",
    "messages": [{"role": "user", "content": [{"text": "Which river runs through Paris?"}]}],
    "system": [{"text": "Answer in one sentence."}],
    "inferenceConfig": {"maxTokens": 200, "temperature": 0.2},
}
# Shaped like real credentials, so that the secret check would find them if they were written.
KEY_ID = fake_key("ASIA", "Q7ZK4M2X")
SECRET = fake_key("", "wJalrXUtnFEMIK7MDENGbPxRfiCY")
TOKEN = fake_key("IQoJb3JpZ2luX2VjEJr", "wEaCXVzLWVhc3QtMSJHMEUCIQDx7a9Ub2hQ")


def bedrock(url: str) -> BaseClient:
    """The user's client: their credentials, the stand-in's URL."""
    return boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=url,
        aws_access_key_id=KEY_ID,
        aws_secret_access_key=SECRET,
        aws_session_token=TOKEN,
    )


def converse_server() -> ProviderServer:
    (interaction,) = load_cassette(CONVERSE).interactions
    assert interaction.request is not None
    return ProviderServer({("POST", sent_path(interaction.request)): [interaction.response]})


def answer_of(response: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in response.items() if key != "ResponseMetadata"}


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_boto3_call_is_recorded_without_its_credentials(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"bedrock{suffix}"
    with converse_server() as server, record(path):
        answered = bedrock(server.base_url).converse(**QUESTION)

    # The credentials reached the server...
    (received,) = server.received
    assert received.headers["authorization"].startswith(f"AWS4-HMAC-SHA256 Credential={KEY_ID}/")
    assert received.headers["x-amz-security-token"] == TOKEN
    # ...and not the cassette, which holds the request as sent and the answer as served.
    text = path.read_text(encoding="utf-8")
    assert KEY_ID not in text
    assert TOKEN not in text
    assert "Signature=" not in text
    assert find_secrets(path) == []
    (kept,) = load_cassette(path).interactions
    assert kept.request is not None
    assert "authorization" not in kept.request.headers
    assert "x-amz-security-token" not in kept.request.headers
    assert kept.request.headers["x-amz-date"]  # when it was signed: no secret
    assert kept.request.json == json.loads(received.body)
    assert kept.request.json == {key: v for key, v in QUESTION.items() if key != "modelId"}
    assert "set-cookie" not in kept.response.headers
    served = load_cassette(CONVERSE).interactions[0].response
    assert kept.response.json == served.json

    # With no server, the recording answers the same code.
    with replay(path) as played:
        again = bedrock(server.base_url).converse(**QUESTION)
    assert answer_of(again) == answer_of(answered)
    assert again["output"]["message"]["content"] == served.json["output"]["message"]["content"]
    assert played.sent == [kept.request.json]


def test_new_episodes_replays_what_matches_and_records_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "bedrock.json"
    shutil.copy(CONVERSE, path)
    other = QUESTION | {"inferenceConfig": {"maxTokens": 100, "temperature": 0.2}}
    recorded = load_cassette(CONVERSE).interactions[0]

    with converse_server() as server, use_cassette(path, "new_episodes") as played:
        recorded_host = f"https://{urlsplit(recorded.request.url).hostname}"  # type: ignore[union-attr]
        first = bedrock(recorded_host).converse(**QUESTION)  # in the cassette: replayed
        second = bedrock(server.base_url).converse(**other)  # new: sent, then recorded

    assert len(server.received) == 1
    assert json.loads(server.received[0].body)["inferenceConfig"]["maxTokens"] == 100
    assert answer_of(first) == answer_of(second)
    assert first["output"] == recorded.response.json["output"]
    kept = load_cassette(path).interactions
    assert [i.request.json["inferenceConfig"]["maxTokens"] for i in kept if i.request] == [200, 100]
    assert kept[0] == recorded  # the replayed call is not recorded again
    assert played.sent[1]["inferenceConfig"]["maxTokens"] == 100


def test_a_pass_host_s_boto3_calls_go_to_the_network() -> None:
    with converse_server() as server, replay(CONVERSE, pass_hosts=["127.0.0.1"]) as played:
        answer = bedrock(server.base_url).converse(**QUESTION)
    assert len(server.received) == 1  # the local server under test answered
    assert played.requests == []
    assert answer["output"] == load_cassette(CONVERSE).interactions[0].response.json["output"]


# --- event streams and errors, served from the corpus's bytes ---

# ConverseStream, InvokeModelWithResponseStream, and a 400 answering a stream request.
STREAMS = (
    "bedrock/pydantic-ai/test_bedrock_model_stream.yaml",
    "bedrock/openllmetry/test_anthropic_3_completion_streaming.yaml",
    "bedrock/pydantic-ai/test_bedrock_streaming_error.yaml",
)


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_an_event_stream_is_recorded_byte_for_byte_and_replays(tmp_path: Path, suffix: str) -> None:
    corpus = require_corpus("bedrock")
    calls = [call for name in STREAMS for call in bedrock_calls(corpus.parent / name)]
    answers: dict[tuple[str, str], list[Any]] = {}
    for interaction in calls:
        assert interaction.request is not None
        answers.setdefault(("POST", sent_path(interaction.request)), []).append(
            interaction.response
        )
    path = tmp_path / f"streams{suffix}"

    with ProviderServer(answers) as server, record(path):
        live = [outcome(interaction, server.base_url) for interaction in calls]

    kept = load_cassette(path).interactions
    assert [i.response.status for i in kept] == [i.response.status for i in calls]
    for interaction, written in zip(calls, kept, strict=True):
        assert written.response.body == interaction.response.body  # frames and CRCs as served
        assert written.request is not None
        assert written.request.json == interaction.request.json  # type: ignore[union-attr]
        assert "authorization" not in written.request.headers
    assert find_secrets(path) == []
    assert [type(answer) for answer in live] == [list, list, tuple]  # two streams, an error
    assert live[2][0] == 400

    with replay(path) as played:
        assert [outcome(interaction, server.base_url) for interaction in calls] == live
    assert played.done


def outcome(interaction: Any, endpoint_url: str) -> list[dict[str, Any]] | tuple[int, str]:
    """What the code gets from the recorded request: its stream's events (checked
    against the recorded bytes), or its error's status and message."""
    client = client_for(interaction.request.url, endpoint_url)
    try:
        answer = call(client, interaction)
    except ClientError as error:
        return error.response["ResponseMetadata"]["HTTPStatusCode"], error.response["Error"][
            "Message"
        ]
    operation, _ = operation_of(interaction.request)
    events = list(answer[stream_member(operation)[0]])
    assert events == list(read_event_stream(interaction.response.body, operation))
    return events
