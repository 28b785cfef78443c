"""The error hierarchy: one root, typed provider errors, paths that name the place."""

from __future__ import annotations

import pytest

import interlingua
from interlingua import (
    AuthenticationError,
    BadRequestError,
    DecodeError,
    InterlinguaError,
    InvalidDataError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
    TranslationError,
)
from interlingua._errors import format_path
from interlingua.codec import COMMON_ERROR_TYPES


def test_every_exported_error_derives_from_the_root() -> None:
    errors = [
        getattr(interlingua, name)
        for name in interlingua.__all__
        if name.endswith("Error") and isinstance(getattr(interlingua, name), type)
    ]
    assert len(errors) >= 15
    assert all(issubclass(error, InterlinguaError) for error in errors)


@pytest.mark.parametrize(
    ("status", "cls", "retryable"),
    [
        (400, BadRequestError, False),
        (401, AuthenticationError, False),
        (404, NotFoundError, False),
        (422, BadRequestError, False),
        (429, RateLimitError, True),
        (500, ServerError, True),
        (503, ServerError, True),
        (529, OverloadedError, True),
        (418, ProviderError, False),
    ],
)
def test_a_status_picks_the_provider_error(
    status: int, cls: type[ProviderError], retryable: bool
) -> None:
    body = {"error": {"message": "m"}}
    error = ProviderError.for_status(
        status, "m", provider="anthropic", type="t", body=body, request_id="req_1"
    )
    assert type(error) is cls
    assert (error.status, error.message, error.body, error.request_id) == (
        status,
        "m",
        body,
        "req_1",
    )
    assert error.retryable is retryable
    assert str(error) == f"anthropic {status} t: m"


def test_an_in_stream_error_type_picks_the_error_without_a_status() -> None:
    error = ProviderError.for_status(None, "busy", provider="anthropic", type="overloaded_error")
    assert isinstance(error, OverloadedError)
    assert error.retryable
    invalid = ProviderError.for_status(None, "bad", provider="x", type="invalid_request_error")
    assert type(invalid) is ProviderError
    assert not invalid.retryable


def test_a_decode_error_names_the_provider_and_path() -> None:
    error = DecodeError("messages[1].content[0].id", "required field is missing", provider="p")
    assert isinstance(error, InvalidDataError)
    assert isinstance(error, ValueError)
    assert error.path == "messages[1].content[0].id"
    assert str(error) == "invalid p body at messages[1].content[0].id: required field is missing"


def test_several_problems_are_listed() -> None:
    error = InvalidDataError([("a", "x"), ("b[0]", "y")], subject="thing")
    assert str(error) == "invalid thing (2 problems):\n  a: x\n  b[0]: y"
    assert error.path == "a"


def test_translation_error_says_what_and_where() -> None:
    error = TranslationError("messages[2].parts[0]", "dropped", "no audio", target="anthropic")
    assert (
        str(error) == "messages[2].parts[0]: cannot send to anthropic (dropped, content): no audio"
    )


@pytest.mark.parametrize(
    ("loc", "path"),
    [
        (("messages", 3, "parts", 1, "type"), "messages[3].parts[1].type"),
        ((0, "a"), "[0].a"),
        ((), "<root>"),
    ],
)
def test_format_path(loc: tuple[str | int, ...], path: str) -> None:
    assert format_path(loc) == path


def test_openai_in_stream_error_types_are_typed_too() -> None:
    assert isinstance(
        ProviderError.for_status(None, "m", provider="openai", type="server_error"), ServerError
    )
    limited = ProviderError.for_status(None, "m", provider="openai", type="rate_limit_exceeded")
    assert isinstance(limited, RateLimitError)
    assert limited.retryable


def test_a_quota_that_ran_out_is_not_retried() -> None:
    error = ProviderError.for_status(429, "quota", provider="openai", code="insufficient_quota")
    assert isinstance(error, RateLimitError)
    assert not error.retryable


@pytest.mark.parametrize(
    ("status", "kind", "code", "cls"),
    [
        # A generic type: the status names the class; without one, the type does.
        (401, "api_error", None, AuthenticationError),
        (403, "api_error", None, PermissionDeniedError),
        (404, "server_error", None, NotFoundError),
        (429, "api_error", None, RateLimitError),
        (400, "server_error", None, BadRequestError),
        (402, "api_error", None, ProviderError),
        (502, "api_error", None, ServerError),
        (529, "api_error", None, OverloadedError),
        (None, "api_error", None, ServerError),
        # A specific type or code: it names the class whatever the status.
        (500, "overloaded_error", None, OverloadedError),
        (413, "tokens", "rate_limit_exceeded", RateLimitError),
        (None, "insufficient_quota", "insufficient_quota", RateLimitError),
        (None, "invalid_request_error", "invalid_api_key", AuthenticationError),
        # The code before the type: the narrower.
        (None, "server_error", "rate_limit_exceeded", RateLimitError),
    ],
)
def test_a_specific_type_decides_over_the_status_and_a_generic_one_only_without(
    status: int | None, kind: str, code: str | None, cls: type[ProviderError]
) -> None:
    error = ProviderError.for_status(status, "m", provider="p", type=kind, code=code)
    assert type(error) is cls
    assert (error.status, error.type, error.code) == (status, kind, code)
    assert COMMON_ERROR_TYPES.error_class(status, kind, code) is cls


def test_a_provider_s_own_types_are_laid_over_the_common_ones() -> None:
    types = COMMON_ERROR_TYPES.extend(
        specific={"capacity_exceeded": OverloadedError},
        generic={"invalid_request_error": BadRequestError},
    )
    assert types.error_class(503, None, "capacity_exceeded") is OverloadedError
    assert types.error_class(None, "invalid_request_error", None) is BadRequestError
    assert types.error_class(404, "invalid_request_error", None) is NotFoundError
    assert types.error_class(401, "api_error", None) is AuthenticationError
    # The common ones are left as they were.
    assert COMMON_ERROR_TYPES.error_class(None, "invalid_request_error", None) is ProviderError
    error = ProviderError.for_status(
        None, "m", provider="p", type="invalid_request_error", types=types
    )
    assert type(error) is BadRequestError
