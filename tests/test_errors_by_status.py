"""Every adapter's `decode_error`: the HTTP status names the class of an error
whose type is generic, and a type or code that names a condition decides over
the status (the core's `ErrorTypes`).

A generic type says only the broad kind of error (`api_error`, `server_error`,
Google's `INTERNAL`): Ollama's OpenAI-compatible layer gives `api_error` to
every status but 400 and 404, a bad key included. It picks the class only
inside a stream, where there is no status. Each body is written in the
adapter's own error shape; the Chat Completions servers whose own shape has no
type (xAI, OpenRouter) are given OpenAI's, which their decoders read too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from interlingua import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
    get_adapter,
)


def chat_body(status: int | None, kind: str, message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def bare_body(status: int | None, kind: str, message: str) -> dict[str, Any]:  # Cerebras'
    return {"message": message, "type": kind, "param": None, "code": None}


def mistral_body(status: int | None, kind: str, message: str) -> dict[str, Any]:
    return {"object": "error", "message": message, "type": kind, "param": None, "code": None}


def anthropic_body(status: int | None, kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def google_body(status: int | None, kind: str, message: str) -> dict[str, Any]:
    return {"error": {"code": status or 500, "message": message, "status": kind}}


Shape = Callable[[int | None, str, str], dict[str, Any]]
CHAT_TYPES = ("api_error", "server_error")
# adapter -> its error body's shape, and the generic types it is checked with
ADAPTERS: dict[str, tuple[Shape, tuple[str, ...]]] = {
    "openai": (chat_body, CHAT_TYPES),
    "openai-responses": (chat_body, CHAT_TYPES),
    "groq": (chat_body, CHAT_TYPES),
    "deepseek": (chat_body, CHAT_TYPES),
    "ollama": (chat_body, CHAT_TYPES),
    "openai-compatible": (chat_body, CHAT_TYPES),
    "perplexity": (chat_body, CHAT_TYPES),
    "openrouter": (chat_body, CHAT_TYPES),
    "xai": (chat_body, CHAT_TYPES),
    "cerebras": (bare_body, CHAT_TYPES),
    "mistral": (mistral_body, (*CHAT_TYPES, "invalid_request_error")),
    "anthropic": (anthropic_body, ("api_error", "invalid_request_error")),
    "google": (google_body, ("INTERNAL", "UNKNOWN")),
}
STATUSES: dict[int, type[ProviderError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    422: BadRequestError,
    429: RateLimitError,
    500: ServerError,
    502: ServerError,
    503: ServerError,
    529: OverloadedError,
}
# The class a generic type stands for inside a stream.
IN_STREAM: dict[str, type[ProviderError]] = {
    "api_error": ServerError,
    "server_error": ServerError,
    "invalid_request_error": BadRequestError,
    "INTERNAL": ServerError,
    "UNKNOWN": ServerError,
}

CASES = [
    pytest.param(name, kind, status, id=f"{name}:{status}:{kind}")
    for name, (_, kinds) in ADAPTERS.items()
    for kind in kinds
    for status in STATUSES
]


@pytest.mark.parametrize(("name", "kind", "status"), CASES)
def test_the_status_names_the_class_of_an_error_with_a_generic_type(
    name: str, kind: str, status: int
) -> None:
    shape, _ = ADAPTERS[name]
    body = shape(status, kind, "Unauthorized")

    error = get_adapter(name).decode_error(status, body)

    assert type(error) is STATUSES[status]
    assert (error.provider, error.status, error.type, error.message) == (
        name,
        status,
        kind,
        "Unauthorized",
    )
    assert error.body == body
    assert error.retryable is (status == 429 or status >= 500)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        pytest.param(name, kind, id=f"{name}:{kind}")
        for name, (_, kinds) in ADAPTERS.items()
        for kind in kinds
    ],
)
def test_a_generic_type_names_the_class_inside_a_stream(name: str, kind: str) -> None:
    shape, _ = ADAPTERS[name]

    error = get_adapter(name).decode_error(None, shape(None, kind, "It broke."))

    assert type(error) is IN_STREAM[kind]
    assert (error.status, error.type, error.message) == (None, kind, "It broke.")


# A type or code that names a condition, with the status it comes with, and the
# class it stands for there and inside a stream alike: (adapter, status, body, class).
SPECIFIC = [
    pytest.param(
        "anthropic", 529, anthropic_body(529, "overloaded_error", "Overloaded"), OverloadedError,
        id="anthropic:529:overloaded_error",
    ),
    pytest.param(  # one request over the tokens-per-minute limit: no wait mends it
        "groq", 413,
        {"error": {"message": "Request too large for model `llama-3.3-70b-versatile` in "
                   "organization `org_01` service tier `on_demand` on tokens per minute (TPM): "
                   "Limit 12000, Requested 18211, please reduce your message size and try again.",
                   "type": "tokens", "code": "rate_limit_exceeded"}},
        RateLimitError, id="groq:413:rate_limit_exceeded",
    ),
    pytest.param(
        "groq", 401,
        {"error": {"message": "Invalid API Key", "type": "invalid_request_error",
                   "code": "invalid_api_key"}},
        AuthenticationError, id="groq:401:invalid_api_key",
    ),
    pytest.param(
        "openai", 429,
        {"error": {"message": "You exceeded your current quota, please check your plan and "
                   "billing details.", "type": "insufficient_quota", "param": None,
                   "code": "insufficient_quota"}},
        RateLimitError, id="openai:429:insufficient_quota",
    ),
    pytest.param(
        "google", 400,
        {"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.",
                   "status": "INVALID_ARGUMENT",
                   "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                                "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]}},
        AuthenticationError, id="google:400:API_KEY_INVALID",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("name", "status", "body", "cls"), SPECIFIC)
def test_a_specific_type_or_code_decides_with_a_status_or_without(
    name: str, status: int, body: dict[str, Any], cls: type[ProviderError]
) -> None:
    error = get_adapter(name).decode_error(status, body)
    in_stream = get_adapter(name).decode_error(None, body)

    assert (type(error), error.status) == (cls, status)
    assert (type(in_stream), in_stream.status) == (cls, None)
