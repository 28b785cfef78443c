"""`interlingua.testing.find_secrets`: no fixture of this project holds a
provider's key, a bearer token or a cookie value, and the check finds each
of them, by file and place, where one is left."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, fake_key
from interlingua import CassetteError
from interlingua.testing import (
    SecretFinding,
    check_no_secrets,
    find_secrets,
    load_cassette,
    write_cassette,
)

FIXTURE_FILES = sorted(FIXTURES.rglob("*.json"))


def test_there_are_fixtures_to_check() -> None:
    assert len(FIXTURE_FILES) > 20


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_no_fixture_holds_a_secret(path: Path) -> None:
    assert find_secrets(path) == []


def test_the_whole_folder_passes_the_check() -> None:
    check_no_secrets(*FIXTURE_FILES)


def recording(tmp_path: Path, request: dict[str, Any], response: dict[str, Any]) -> Path:
    path = tmp_path / "leaky.json"
    document = {
        "format": "interlingua.recording",
        "version": 1,
        "interactions": [
            {
                "request": {"method": "POST", "url": "https://api.mistral.ai/v1/chat/completions"}
                | request,
                "response": {"status": 200} | response,
            }
        ],
    }
    path.write_text(json.dumps(document))
    return path


LEAKS = [
    pytest.param(
        {"headers": {"authorization": "Bearer " + fake_key("", "Qw3eRt6yUi9oPa2sDf5g")}},
        {},
        "interactions[0].request.headers.authorization",
        "a credential",
        id="a Mistral key as a bearer token",
    ),
    pytest.param(
        {"headers": {"x-api-key": fake_key("sk-ant-api03-")}},
        {},
        "interactions[0].request.headers.x-api-key",
        "an API key",
        id="an Anthropic key header",
    ),
    pytest.param(
        {"json": {"note": "my key is " + fake_key("sk-proj-", "Ab3dEf6hIj9kLm2nOp5q")}},
        {},
        "interactions[0].request.body",
        "an OpenAI API key",
        id="an OpenAI key in a body",
    ),
    pytest.param(
        {},
        {"json": {"error": "bad key " + fake_key("gsk_", "Mn7bVc4xZl1kJh8gFd5s")}},
        "interactions[0].response.body",
        "a Groq API key",
        id="a Groq key in an answer",
    ),
    pytest.param(
        {"headers": {"x-goog-api-key": fake_key("AIzaSy")}},
        {},
        "interactions[0].request.headers.x-goog-api-key",
        "an API key",
        id="a Google key header",
    ),
    pytest.param(
        {
            "url": "https://generativelanguage.googleapis.com/v1beta/models?key="
            + fake_key("AIzaSy")
        },
        {},
        "interactions[0].request.url",
        "a Google API key",
        id="a Google key in the URL",
    ),
    pytest.param(
        {"url": "https://example.com/v1beta/models?key=" + fake_key("", "Qw3eRt6yUi9oPa2sDf5g")},
        {},
        "interactions[0].request.url.query.key",
        "an API key",
        id="a key of any shape in the query",
    ),
    pytest.param(
        {"json": {"note": "my key is " + fake_key("AIzaSy")}},
        {},
        "interactions[0].request.body",
        "a Google API key",
        id="a Google key in a body",
    ),
    pytest.param(
        {},
        {"headers": {"set-cookie": "__cf_bm=Zm9vYmFyYmF6cXV4cXV1eA; path=/; HttpOnly"}},
        "interactions[0].response.headers.set-cookie",
        "a cookie value",
        id="a cookie",
    ),
    pytest.param(
        {
            "headers": {
                "x-forwarded": "Bearer " + ".".join(("eyJhbGciOiJIUzI1NiJ9", "e30", "c2lnbmF0dXJl"))
            }
        },
        {},
        "interactions[0].request.headers.x-forwarded",
        "a bearer token",
        id="a bearer token elsewhere",
    ),
    pytest.param(
        {
            "headers": {
                "x-amz-security-token": fake_key(
                    "IQoJb3JpZ2luX2VjEJr", "wEaCXVzLWVhc3QtMSJHMEUCIQD"
                )
            }
        },
        {},
        "interactions[0].request.headers.x-amz-security-token",
        "a credential",
        id="an AWS session token header",
    ),
    pytest.param(
        {"json": {"note": "signed with " + fake_key("AKIA", "Q7ZK4M2X") + "/us-east-1"}},
        {},
        "interactions[0].request.body",
        "an AWS access key id",
        id="an AWS access key id in a body",
    ),
    pytest.param(
        {},
        {
            "json": {
                "message": "token " + fake_key("IQoJb3JpZ2luX2VjEJr", "wEaCXVzLWVhc3QtMSJHMEUCIQD")
            }
        },
        "interactions[0].response.body",
        "an AWS session token",
        id="an AWS session token in an answer",
    ),
    pytest.param(
        {
            "headers": {
                "x-original-authorization": "AWS4-HMAC-SHA256 Credential=test/20260101/"
                "us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature="
                + hashlib.sha256(b"a request").hexdigest()
            }
        },
        {},
        "interactions[0].request.headers.x-original-authorization",
        "a SigV4 signature",
        id="a SigV4 signature elsewhere",
    ),
    pytest.param(
        {"json": {"note": "my key is " + fake_key("ABSK", "QmVkcm9ja0FQSUtleS1hYmNk")}},
        {},
        "interactions[0].request.body",
        "an Amazon Bedrock API key",
        id="a Bedrock API key in a body",
    ),
    pytest.param(
        {
            "headers": {
                "x-forwarded": "Bearer " + fake_key("bedrock-api-key-", "YmVkcm9jay5hbWF6b25h")
            }
        },
        {},
        "interactions[0].request.headers.x-forwarded",
        "an Amazon Bedrock API key",
        id="a short-term Bedrock API key as a bearer token",
    ),
]


@pytest.mark.parametrize(("request_part", "response_part", "place", "kind"), LEAKS)
def test_a_secret_is_found_by_file_and_place(
    tmp_path: Path, request_part: Any, response_part: Any, place: str, kind: str
) -> None:
    path = recording(tmp_path, request_part, response_part)

    assert find_secrets(path) == [SecretFinding(str(path), place, kind)]
    with pytest.raises(
        CassetteError,
        match=rf"1 secrets found in cassettes:\n  .*leaky.json: {re.escape(place)}: {kind}",
    ):
        check_no_secrets(path)


@pytest.mark.parametrize(
    "value",
    [
        "Bearer test-key",
        "Bearer <masked>",
        "REDACTED",
        "masked",
        "Bearer " + fake_key("sk-test-", "0000000000"),
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20260101/us-east-1/bedrock/aws4_request",
    ],
)
def test_a_placeholder_is_no_secret(tmp_path: Path, value: str) -> None:
    path = recording(tmp_path, {"headers": {"authorization": value, "cookie": "REDACTED"}}, {})
    assert find_secrets(path) == []


def test_a_vcrpy_cassette_is_checked_the_same(tmp_path: Path) -> None:
    leaky = recording(tmp_path, {"headers": {"api-key": fake_key("", "Qw3eRt6yUi9oPa2sDf5g")}}, {})
    path = tmp_path / "leaky.yaml"
    write_cassette(path, list(load_cassette(leaky).interactions))
    assert find_secrets(path) == [
        SecretFinding(str(path), "interactions[0].request.headers.api-key", "an API key")
    ]
