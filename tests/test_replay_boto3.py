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
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import boto3
import pytest
from botocore.endpoint import Endpoint
from botocore.exceptions import ClientError

from boto3_calls import CREDENTIALS, bedrock_calls, call, check_answer, check_error, client_for
from conftest import FIXTURES, corpus_id, corpus_params, from_corpus
from interlingua import CassetteError
from interlingua.testing import Interaction, load_cassette, replay


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
