"""Mistral's error answers become typed errors: the bodies below are Mistral's
own, as users reported them (the issue each comes from is named).

- the error object `{"object": "error", "message", "type", "param", "code"}`
  keeps its type and code (a string of digits, an integer or null);
- a validation error (422) says what is wrong and where, bare
  (`{"detail": [...]}`) or wrapped in the error object's `message`;
- the gateway's bodies (`{"detail": "Unauthorized"}`, `{"message", "request_id"}`)
  and a proxy's text keep their message;
- 429 and 5xx are worth a retry, 400, 401 and 422 are not;
- inside a stream (no status) Mistral's type picks the error, and an error
  chunk ends the stream with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from interlingua import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    ProviderError,
    RateLimitError,
    ServerError,
    StreamError,
    accumulate,
)
from interlingua_mistral import PROVIDER, decode_error, decode_stream

EXTRA = "Extra inputs are not permitted"
RATE_LIMITED = {
    "object": "error",
    "message": "Rate limit exceeded",
    "type": "rate_limited",
    "param": None,
    "code": "1300",
    "raw_status_code": 429,
}  # raycast#31107, cline#9085
TOOLS_DETAIL = [
    {"type": "extra_forbidden", "loc": ["body", "tools"], "msg": EXTRA, "input": []}
]  # php-mistral#76


@dataclass(frozen=True)
class Case:
    status: int | None
    body: Any
    error: type[ProviderError]
    message: str
    type: str | None = None
    code: str | None = None
    request_id: str | None = None
    retryable: bool = False


CASES = {
    # nearai/ironclaw#1241, mistral-vibe#1075
    "tool call id (3280)": Case(
        400,
        {
            "object": "error",
            "message": "Tool call id was turn1_0 but must be a-z, A-Z, 0-9, with a length of 9.",
            "type": "invalid_function_call",
            "param": None,
            "code": "3280",
            "raw_status_code": 400,
        },
        BadRequestError,
        "Tool call id was turn1_0 but must be a-z, A-Z, 0-9, with a length of 9.",
        type="invalid_function_call",
        code="3280",
    ),
    # datapizza-ai#98, onyx#6458
    "message order (3230)": Case(
        400,
        {
            "object": "error",
            "message": "Unexpected role 'user' after role 'tool'",
            "type": "invalid_request_message_order",
            "param": None,
            "code": "3230",
        },
        BadRequestError,
        "Unexpected role 'user' after role 'tool'",
        type="invalid_request_message_order",
        code="3230",
    ),
    # agno#2285, smolagents#757
    "last role, null code": Case(
        400,
        {
            "object": "error",
            "message": "Expected last role User or Tool (or Assistant with prefix True) "
            "for serving but got assistant",
            "type": "invalid_request_error",
            "param": None,
            "code": None,
        },
        BadRequestError,
        "Expected last role User or Tool (or Assistant with prefix True) "
        "for serving but got assistant",
        type="invalid_request_error",
    ),
    "rate limited (1300)": Case(
        429,
        RATE_LIMITED,
        RateLimitError,
        "Rate limit exceeded",
        type="rate_limited",
        code="1300",
        retryable=True,
    ),
    # pydantic-ai#1885
    "gateway rate limit": Case(
        429,
        {"message": "Requests rate limit exceeded"},
        RateLimitError,
        "Requests rate limit exceeded",
        retryable=True,
    ),
    # cline#1734
    "unauthorized with a request id": Case(
        401,
        {"message": "Unauthorized", "request_id": "c61f2f15feca71626a990e3740f99245"},
        AuthenticationError,
        "Unauthorized",
        request_id="c61f2f15feca71626a990e3740f99245",
    ),
    # agent-zero#539
    "unauthorized detail": Case(
        401, {"detail": "Unauthorized"}, AuthenticationError, "Unauthorized"
    ),
    # dyad#883
    "not found detail": Case(404, {"detail": "Not Found"}, NotFoundError, "Not Found"),
    # openclaude#739
    "422, FastAPI's body": Case(
        422,
        {
            "detail": [
                {"type": "extra_forbidden", "loc": ["body", "store"], "msg": EXTRA, "input": False},
                {
                    "type": "extra_forbidden",
                    "loc": ["body", "max_completion_tokens"],
                    "msg": EXTRA,
                    "input": 8192,
                },
            ]
        },
        BadRequestError,
        f"body.store: {EXTRA}; body.max_completion_tokens: {EXTRA}",
    ),
    # eca#231, mistral-go#2, mistralai_client_dart#44
    "422, the error object's message": Case(
        422,
        {
            "object": "error",
            "message": {
                "detail": [
                    {
                        "type": "extra_forbidden",
                        "loc": ["body", "messages", 0, "user", "name"],
                        "msg": EXTRA,
                        "input": "",
                        "url": "https://errors.pydantic.dev/2.6/v/extra_forbidden",
                    }
                ]
            },
            "type": "invalid_request_error",
            "param": None,
            "code": None,
        },
        BadRequestError,
        f"body.messages[0].user.name: {EXTRA}",
        type="invalid_request_error",
    ),
    # php-mistral#76: `object` capitalised, the list twice, an integer code
    "422, detail and a list message": Case(
        422,
        {
            "object": "Error",
            "detail": TOOLS_DETAIL,
            "message": TOOLS_DETAIL,
            "type": "invalid_request_error",
            "code": 3001,
        },
        BadRequestError,
        f"body.tools: {EXTRA}",
        type="invalid_request_error",
        code="3001",
    ),
    # platform-docs-public#7 (2024): the message is the JSON text of the body
    "422, the body as JSON text": Case(
        422,
        {
            "object": "error",
            "message": json.dumps(
                {
                    "detail": [
                        {
                            "type": "extra_forbidden",
                            "loc": ["body", "stream_options"],
                            "msg": EXTRA,
                            "input": {"include_usage": True},
                        }
                    ]
                }
            ),
            "type": "internal_error_proxy",
            "param": None,
            "code": "1000",
        },
        BadRequestError,
        f"body.stream_options: {EXTRA}",
        type="internal_error_proxy",
        code="1000",
    ),
    "a proxy's page": Case(
        502,
        "<html><body><h1>502 Bad Gateway</h1></body></html>\n",
        ServerError,
        "502 Bad Gateway",  # the page's text, without its tags
        retryable=True,
    ),
    "plain text": Case(
        503, "upstream connect error", ServerError, "upstream connect error", retryable=True
    ),
    "an empty body": Case(500, "", ServerError, "HTTP 500", retryable=True),
    "in a stream, rate limited": Case(
        None,
        RATE_LIMITED,
        RateLimitError,
        "Rate limit exceeded",
        type="rate_limited",
        code="1300",
        retryable=True,
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_an_error_body_becomes_the_typed_error(case: Case) -> None:
    error = decode_error(case.status, case.body)

    assert type(error) is case.error
    assert error.provider == PROVIDER == "mistral"
    assert (error.status, error.type, error.code) == (case.status, case.type, case.code)
    assert error.message == case.message
    assert error.request_id == case.request_id
    assert error.retryable is case.retryable
    assert error.body == case.body


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_the_body_may_come_as_bytes_or_text(case: Case) -> None:
    text = case.body if isinstance(case.body, str) else json.dumps(case.body)

    from_bytes = decode_error(case.status, text.encode())
    from_text = decode_error(case.status, text)

    for error in (from_bytes, from_text):
        assert type(error) is case.error
        assert (error.message, error.type, error.code) == (case.message, case.type, case.code)
        assert error.body == case.body


def test_the_error_says_where_the_status_and_type_are() -> None:
    error = decode_error(429, RATE_LIMITED)

    assert str(error) == "mistral 429 rate_limited: Rate limit exceeded"


def test_an_error_object_without_a_message_names_the_status() -> None:
    error = decode_error(400, {"object": "error", "message": "", "type": "x", "code": None})

    assert (type(error), error.message, error.type) == (BadRequestError, "HTTP 400", "x")


def test_an_error_in_a_stream_without_a_type_mistral_knows_is_a_provider_error() -> None:
    body = {"object": "error", "message": "Something broke", "type": "odd", "code": None}

    error = decode_error(None, body)

    assert type(error) is ProviderError
    assert (error.status, error.message, error.retryable) == (None, "Something broke", False)


def test_an_error_chunk_ends_the_stream_with_the_typed_error() -> None:
    head = {
        "id": "3c9f8fbd2dee4436ad162cf548136cac",
        "object": "chat.completion.chunk",
        "created": 1767220872,
        "model": "mistral-large-latest",
        "choices": [
            {"index": 0, "delta": {"role": "assistant", "content": "Hel"}, "finish_reason": None}
        ],
    }

    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream([head, RATE_LIMITED]))

    error, partial = caught.value.error, caught.value.partial
    assert isinstance(error, RateLimitError)
    assert (error.status, error.type, error.code) == (None, "rate_limited", "1300")
    assert (error.message, error.retryable, error.body) == (
        "Rate limit exceeded",
        True,
        RATE_LIMITED,
    )
    assert partial is not None
    assert partial.text == "Hel"
