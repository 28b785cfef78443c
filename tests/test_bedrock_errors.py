"""Bedrock's error answers, typed by the core's rule.

- every recorded Bedrock error (`../shared/corpus/bedrock`) becomes the class
  of its status, with the body's message and, where the recorder kept the
  `x-amzn-ErrorType` header (chatlas did, pydantic-ai did not), its type
  without the suffix after the colon;
- the project's own error answers (`fixtures/bedrock/error_*.json`) give the
  types the corpus lacks, each with its class and whether a retry may help,
  and go back as Bedrock answered them;
- the exceptions a ConverseStream carries as members of its event union are
  typed by their name;
- another provider's error goes out as Bedrock would answer it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import interlingua_anthropic.bedrock
from conftest import MissingCorpus, cassette, corpus_id, corpus_params, from_corpus, recorded
from interlingua import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
)
from interlingua.testing import Interaction
from interlingua_anthropic import decode_error as anthropic_error
from interlingua_bedrock._errors import decode_error, encode_error, error_event, error_headers

BEDROCK_HOST = re.compile(r"bedrock-runtime\.[a-z0-9-]+\.amazonaws\.com")
HEADER_TYPE = re.compile(r"[A-Za-z]+")


def bedrock_errors(path: Path) -> list[Interaction]:
    return [
        call
        for call in cassette(path).interactions
        if BEDROCK_HOST.fullmatch(call.host or "") and call.response.status >= 400
    ]


ERROR_FILES = corpus_params(
    "bedrock",
    pattern="*.yaml",
    keep=lambda path: bool(bedrock_errors(path)),
    holding="Bedrock error answers",
)


def headers_of(call: Interaction) -> dict[str, str]:
    return {name: ", ".join(values) for name, values in call.response.headers.items()}


@pytest.mark.parametrize("param", ERROR_FILES, ids=corpus_id)
def test_recorded_errors_are_typed(param: Path | MissingCorpus) -> None:
    for call in bedrock_errors(from_corpus(param)):
        status = call.response.status
        headers = headers_of(call)
        error = decode_error(status, call.response.body, headers=headers)
        assert status == 400
        assert isinstance(error, BadRequestError)
        assert (error.provider, error.status) == ("bedrock", status)
        assert error.message == call.response.json["message"]
        header = headers.get("x-amzn-errortype")
        match = HEADER_TYPE.match(header) if header else None
        assert error.type == (match.group(0) if match else None)
        assert error.request_id == headers.get("x-amzn-requestid")
        assert not error.retryable
        assert encode_error(error) == (status, call.response.json)


# The project's error answers: the class each type is, and whether to retry.
ERROR_FIXTURES: dict[str, tuple[type[ProviderError], str, bool]] = {
    "error_throttled.json": (RateLimitError, "ThrottlingException", True),
    "error_access_denied.json": (PermissionDeniedError, "AccessDeniedException", False),
    "error_unrecognized_client.json": (AuthenticationError, "UnrecognizedClientException", False),
    "error_service_unavailable.json": (OverloadedError, "ServiceUnavailableException", True),
    "error_model_error.json": (ServerError, "ModelErrorException", False),
}


@pytest.mark.parametrize("name", sorted(ERROR_FIXTURES))
def test_error_answers_are_typed_by_their_header(name: str) -> None:
    (call,) = recorded(f"bedrock/{name}")
    cls, kind, retryable = ERROR_FIXTURES[name]
    headers = headers_of(call)
    error = decode_error(call.response.status, call.response.body, headers=headers)
    assert type(error) is cls
    assert error.type == kind
    assert error.retryable is retryable
    assert error.message == call.response.json["message"]
    assert error.request_id == headers["x-amzn-requestid"]
    assert encode_error(error) == (call.response.status, call.response.json)
    assert error_headers(error) == {
        "x-amzn-ErrorType": kind,
        "x-amzn-RequestId": headers["x-amzn-requestid"],
    }


def test_the_header_is_read_in_any_case() -> None:
    (call,) = recorded("bedrock/error_unrecognized_client.json")
    value = headers_of(call)["x-amzn-errortype"]
    for name in ("X-Amzn-Errortype", "x-amzn-ErrorType", "X-AMZN-ERRORTYPE"):
        error = decode_error(403, call.response.body, headers={name: value})
        assert isinstance(error, AuthenticationError)
    # Without the header, the status decides: AWS answers an unknown key 403.
    assert type(decode_error(403, call.response.body)) is PermissionDeniedError


def test_a_capitalized_message_field() -> None:
    body = {"Message": "The security token included in the request is expired"}
    error = decode_error(403, body, headers={"x-amzn-ErrorType": "ExpiredTokenException"})
    assert isinstance(error, AuthenticationError)
    assert error.message == body["Message"]


# The exception members of ConverseStream's union, and the class each is.
STREAM_EXCEPTIONS: dict[str, type[ProviderError]] = {
    "throttlingException": RateLimitError,
    "serviceUnavailableException": OverloadedError,
    "internalServerException": ServerError,
    "validationException": BadRequestError,
    "modelStreamErrorException": ServerError,
}


@pytest.mark.parametrize("member", sorted(STREAM_EXCEPTIONS))
def test_stream_exceptions_are_typed_by_their_member(member: str) -> None:
    event = {member: {"message": "The stream failed."}}
    error = decode_error(None, event)
    assert type(error) is STREAM_EXCEPTIONS[member]
    assert error.type == member[0].upper() + member[1:]
    assert (error.status, error.message, error.body) == (None, "The stream failed.", event)
    assert error_event(error) == event


def test_another_providers_error_as_bedrock_answers_it() -> None:
    (call,) = recorded("anthropic/error_rate_limited.json")
    error = anthropic_error(call.response.status, call.response.body)
    message = call.response.json["error"]["message"]
    assert encode_error(error) == (429, {"message": message})
    assert error_headers(error) == {
        "x-amzn-ErrorType": "ThrottlingException",
        "x-amzn-RequestId": call.response.json["request_id"],
    }
    assert error_event(error) == {"throttlingException": {"message": message}}
    unknown = ProviderError("teapot", provider="other", status=418)
    assert error_event(unknown) == {
        "modelStreamErrorException": {
            "message": "teapot",
            "originalStatusCode": 418,
            "originalMessage": "teapot",
        }
    }
    assert error_headers(unknown) == {"x-amzn-ErrorType": "ValidationException"}


# Every type Bedrock answers with, the status it comes with and its class
# (the operations' errors in botocore's model, and AWS's common errors).
ERROR_TYPES: dict[str, tuple[int, type[ProviderError]]] = {
    "ValidationException": (400, BadRequestError),
    "AccessDeniedException": (403, PermissionDeniedError),
    "ResourceNotFoundException": (404, NotFoundError),
    "ModelTimeoutException": (408, ServerError),
    "ModelErrorException": (424, ServerError),
    "ThrottlingException": (429, RateLimitError),
    "ModelNotReadyException": (429, OverloadedError),
    "InternalServerException": (500, ServerError),
    "ServiceUnavailableException": (503, OverloadedError),
    "ServiceQuotaExceededException": (400, RateLimitError),
    "UnrecognizedClientException": (403, AuthenticationError),
    "ExpiredTokenException": (403, AuthenticationError),
    "IncompleteSignature": (403, AuthenticationError),
    "InvalidSignatureException": (403, AuthenticationError),
    "MissingAuthenticationTokenException": (403, AuthenticationError),
}


@pytest.mark.parametrize("kind", sorted(ERROR_TYPES))
def test_each_type_is_its_class(kind: str) -> None:
    status, cls = ERROR_TYPES[kind]
    body = b'{"message":"m"}'
    error = decode_error(status, body, headers={"x-amzn-ErrorType": f"{kind}:http://x/"})
    assert type(error) is cls
    assert error.type == kind
    assert error.retryable is (status in {408, 429} or status >= 500)
    assert encode_error(error) == (status, {"message": "m"})
    assert error_headers(error) == {"x-amzn-ErrorType": kind}
    # Claude's InvokeModel answers errors alike: the same type, the same class.
    invoked = interlingua_anthropic.bedrock.decode_error(
        status, body, headers={"X-Amzn-Errortype": f"{kind}:http://x/"}
    )
    assert (type(invoked), invoked.type, invoked.provider) == (cls, kind, "anthropic-bedrock")
