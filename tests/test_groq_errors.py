"""Groq's error answers become typed errors: the two the corpus recorded, read
from it, and Groq's documented ones (the source of each is named).

- OpenAI's error object keeps its message, type and code;
- a `tool_use_failed` (or `json_validate_failed`) 400 keeps the model's own
  text, `failed_generation`, for the caller to repair; an in-stream one too,
  through the stream's error event;
- 429, Groq's 498 (flex capacity) and 5xx are worth a retry; 400, 401, 404,
  and a 413 larger than the tokens-per-minute limit are not;
- a proxy's page keeps its text; the request id comes from the body;
- inside a stream (no status) the code or type picks the error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from conftest import require_corpus
from interlingua import (
    AuthenticationError,
    BadRequestError,
    ErrorEvent,
    NotFoundError,
    OverloadedError,
    ProviderError,
    RateLimitError,
    ServerError,
    StreamError,
    accumulate,
)
from interlingua.testing import Interaction, load_cassette
from interlingua_groq import PROVIDER, decode_error, decode_stream

INVALID_REQUEST = "invalid_request_error"
# openai/gpt-oss-120b's tool call, which Groq refused (test_tool_use_failed_error.yaml).
RECORDED_GENERATION = '{"name": "get_something_by_name", "arguments": {\n  "foo": "bar"\n}}'
# tensorzero#1893: an error chunk inside a 200 stream (its cut-off tail left out).
STREAMED_TOOL_USE_FAILED = {
    "error": {
        "message": "Failed to call a function. Please adjust your prompt. "
        "See 'failed_generation' for more details.",
        "type": INVALID_REQUEST,
        "code": "tool_use_failed",
        "failed_generation": "Tool use failed: selected tool get_temperature does not "
        "match forced tool call name self_destruct",
    }
}
RATE_LIMIT_MESSAGE = (
    "Rate limit reached for model `openai/gpt-oss-120b` in organization `org_xxxxxxx` "
    "service tier `on_demand` on tokens per day (TPD): Limit 200000, Used 197117, "
    "Requested 4254. Please try again in 9m52.272s. Need more tokens? Upgrade to Dev "
    "Tier today at https://console.groq.com/settings/billing"
)
TOO_LARGE_MESSAGE = (
    "Request too large for model llama-3.1-8b-instant in organization org_xxxxxxx "
    "service tier on_demand on tokens per minute (TPM): Limit 6000, Requested 12328, "
    "please reduce your message size and try again. Need more tokens? Upgrade to Dev "
    "Tier today at https://console.groq.com/settings/billing"
)
BAD_GATEWAY = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n"
    "</body>\r\n</html>\r\n"
)


@dataclass(frozen=True)
class Case:
    status: int | None
    error: type[ProviderError]
    message: str
    type: str | None = None
    code: str | None = None
    failed_generation: str | None = None
    request_id: str | None = None
    retryable: bool = False


RECORDED = {
    "test_tool_use_failed_error.yaml": Case(
        400,
        BadRequestError,
        "Tool call validation failed: tool call validation failed: parameters for tool "
        "get_something_by_name did not match schema: errors: [missing properties: 'name', "
        "additionalProperties 'foo' not allowed]",
        type=INVALID_REQUEST,
        code="tool_use_failed",
        failed_generation=RECORDED_GENERATION,
    ),
    "test_tool_regular_error.yaml": Case(
        404,
        NotFoundError,
        "The model `non-existent` does not exist or you do not have access to it.",
        type=INVALID_REQUEST,
        code="model_not_found",
    ),
}

DOCUMENTED: dict[str, tuple[Any, Case]] = {
    # the 401 Groq sends for a wrong key, as users quote it
    "401 invalid api key": (
        {
            "error": {
                "message": "Invalid API Key",
                "type": INVALID_REQUEST,
                "code": "invalid_api_key",
            }
        },
        Case(401, AuthenticationError, "Invalid API Key", INVALID_REQUEST, "invalid_api_key"),
    ),
    # a user's log (the tokens-per-day limit): Groq's limits are `tokens`, `rate_limit_exceeded`
    "429 rate limit exceeded": (
        {"error": {"message": RATE_LIMIT_MESSAGE, "type": "tokens", "code": "rate_limit_exceeded"}},
        Case(
            429, RateLimitError, RATE_LIMIT_MESSAGE, "tokens", "rate_limit_exceeded", retryable=True
        ),
    ),
    # ha-groq-cloud-api#27: one request above the TPM limit; waiting never mends it
    "413 above the tokens-per-minute limit": (
        {"error": {"message": TOO_LARGE_MESSAGE, "type": "tokens", "code": "rate_limit_exceeded"}},
        Case(413, RateLimitError, TOO_LARGE_MESSAGE, "tokens", "rate_limit_exceeded"),
    ),
    # console.groq.com/docs/flex-processing: "fail quickly with status 498 and error
    # capacity_exceeded" (the message here stands in for Groq's)
    "498 flex capacity exceeded": (
        {"error": {"message": "Flex tier capacity exceeded", "code": "capacity_exceeded"}},
        Case(
            498,
            OverloadedError,
            "Flex tier capacity exceeded",
            code="capacity_exceeded",
            retryable=True,
        ),
    ),
    # ha-groq-cloud-api#20: a request id beside the error, no failed_generation
    "400 tool_use_failed with a request id": (
        {
            "request_id": "req_01kgpzetg3egxr9y54ttb37bm3",
            "created_at": "2026-02-05T13:21:55.203Z",
            "error": {
                "message": "tool call validation failed: parameters for tool HassTurnOff did "
                "not match schema: errors: [`/domain`: expected array, but got string]",
                "type": INVALID_REQUEST,
                "param": "",
                "code": "tool_use_failed",
            },
        },
        Case(
            400,
            BadRequestError,
            "tool call validation failed: parameters for tool HassTurnOff did not match "
            "schema: errors: [`/domain`: expected array, but got string]",
            INVALID_REQUEST,
            "tool_use_failed",
            request_id="req_01kgpzetg3egxr9y54ttb37bm3",
        ),
    ),
    # users' logs: a tool called though tool_choice was none
    "400 tool_use_failed, a tool called against tool_choice": (
        {
            "error": {
                "message": "Tool choice is none, but model called a tool",
                "type": INVALID_REQUEST,
                "code": "tool_use_failed",
                "failed_generation": '{"name": "repo_browser.print_tree"}',
            }
        },
        Case(
            400,
            BadRequestError,
            "Tool choice is none, but model called a tool",
            INVALID_REQUEST,
            "tool_use_failed",
            failed_generation='{"name": "repo_browser.print_tree"}',
        ),
    ),
    # users' logs: JSON mode's refusal, with an empty generation (kept empty)
    "400 json_validate_failed": (
        {
            "error": {
                "message": "Failed to validate JSON. Please adjust your prompt. "
                "See 'failed_generation' for more details.",
                "type": INVALID_REQUEST,
                "code": "json_validate_failed",
                "failed_generation": "",
            }
        },
        Case(
            400,
            BadRequestError,
            "Failed to validate JSON. Please adjust your prompt. "
            "See 'failed_generation' for more details.",
            INVALID_REQUEST,
            "json_validate_failed",
            failed_generation="",
        ),
    ),
    "502, Cloudflare's page": (
        BAD_GATEWAY,
        Case(502, ServerError, "502 Bad Gateway", retryable=True),  # the page's title
    ),
    "500, an empty body": ("", Case(500, ServerError, "HTTP 500", retryable=True)),
    "in a stream, tool_use_failed": (
        STREAMED_TOOL_USE_FAILED,
        Case(
            None,
            BadRequestError,
            STREAMED_TOOL_USE_FAILED["error"]["message"],
            INVALID_REQUEST,
            "tool_use_failed",
            failed_generation=STREAMED_TOOL_USE_FAILED["error"]["failed_generation"],
        ),
    ),
    # the groq SDK raises an in-stream error with the bare error object as its body
    "in a stream, the bare error object": (
        STREAMED_TOOL_USE_FAILED["error"],
        Case(
            None,
            BadRequestError,
            STREAMED_TOOL_USE_FAILED["error"]["message"],
            INVALID_REQUEST,
            "tool_use_failed",
            failed_generation=STREAMED_TOOL_USE_FAILED["error"]["failed_generation"],
        ),
    ),
    "in a stream, rate limited": (
        {"error": {"message": RATE_LIMIT_MESSAGE, "type": "tokens", "code": "rate_limit_exceeded"}},
        Case(
            None,
            RateLimitError,
            RATE_LIMIT_MESSAGE,
            "tokens",
            "rate_limit_exceeded",
            retryable=True,
        ),
    ),
    "in a stream, flex capacity exceeded": (
        {"error": {"message": "Flex tier capacity exceeded", "code": "capacity_exceeded"}},
        Case(
            None,
            OverloadedError,
            "Flex tier capacity exceeded",
            code="capacity_exceeded",
            retryable=True,
        ),
    ),
}


def recorded_error(name: str) -> Interaction:
    """The one error answer of the corpus file `name` (in CI, a missing file fails)."""
    (path,) = require_corpus("groq").rglob(name)
    (answer,) = [
        call for call in load_cassette(path).for_provider("groq") if call.response.status >= 400
    ]
    return answer


def assert_typed(error: ProviderError, case: Case) -> None:
    assert type(error) is case.error
    assert error.provider == PROVIDER == "groq"
    assert (error.status, error.type, error.code) == (case.status, case.type, case.code)
    assert error.message == case.message
    assert error.failed_generation == case.failed_generation
    assert error.request_id == case.request_id
    assert error.retryable is case.retryable


@pytest.mark.parametrize("name", RECORDED)
def test_a_recorded_error_answer_becomes_the_typed_error(name: str) -> None:
    answer = recorded_error(name)
    case = RECORDED[name]

    error = decode_error(answer.response.status, answer.response.body)

    assert_typed(error, case)
    assert error.body == answer.response.json


@pytest.mark.parametrize(("body", "case"), DOCUMENTED.values(), ids=DOCUMENTED.keys())
def test_a_documented_error_body_becomes_the_typed_error(body: Any, case: Case) -> None:
    error = decode_error(case.status, body)

    assert_typed(error, case)
    assert error.body == body


@pytest.mark.parametrize(("body", "case"), DOCUMENTED.values(), ids=DOCUMENTED.keys())
def test_the_body_may_come_as_bytes_or_text(body: Any, case: Case) -> None:
    text = body if isinstance(body, str) else json.dumps(body)

    for given in (text, text.encode()):
        error = decode_error(case.status, given)

        assert_typed(error, case)
        assert error.body == body


def test_the_error_says_where_the_status_and_type_are() -> None:
    answer = recorded_error("test_tool_regular_error.yaml")

    error = decode_error(404, answer.response.body)

    assert str(error) == (
        "groq 404 invalid_request_error: "
        "The model `non-existent` does not exist or you do not have access to it."
    )


def test_the_stream_error_event_keeps_the_class_and_the_failed_generation() -> None:
    error = decode_error(None, STREAMED_TOOL_USE_FAILED)

    again = ErrorEvent.from_error(error).to_error()

    assert type(again) is type(error) is BadRequestError
    assert (again.message, again.type, again.code, again.status) == (
        error.message,
        INVALID_REQUEST,
        "tool_use_failed",
        None,
    )
    assert again.failed_generation == error.failed_generation is not None
    assert again.body == STREAMED_TOOL_USE_FAILED


def test_an_error_chunk_ends_the_stream_with_the_typed_error() -> None:
    head = {
        "id": "chatcmpl-532a6640-2e18-4a4c-8406-8437a857ce48",
        "object": "chat.completion.chunk",
        "created": 1739948145,
        "model": "llama3-8b-8192",
        "system_fingerprint": "fp_179b0f92c9",
        "choices": [
            {
                "index": 0,
                "delta": {"role": "assistant", "content": "A"},
                "logprobs": None,
                "finish_reason": None,
            }
        ],
        "x_groq": {"id": "req_01jmefve36eajb6c1x6k8ppv5m"},
    }

    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream([head, STREAMED_TOOL_USE_FAILED]))

    error, partial = caught.value.error, caught.value.partial
    assert isinstance(error, BadRequestError)
    assert (error.status, error.type, error.code) == (None, INVALID_REQUEST, "tool_use_failed")
    assert error.failed_generation == STREAMED_TOOL_USE_FAILED["error"]["failed_generation"]
    assert (error.retryable, error.body) == (False, STREAMED_TOOL_USE_FAILED)
    assert partial is not None
    assert partial.text == "A"
