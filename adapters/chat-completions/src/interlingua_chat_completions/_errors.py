"""OpenAI error bodies to typed `ProviderError`s, and back.

OpenAI answers an error with `{"error": {"message", "type", "param", "code"}}`
(both APIs, and inside a Chat Completions stream); a bare error object is read
alike. The subclass is the core's rule (`interlingua.codec.ErrorTypes`): a
specific type or code (`rate_limit_exceeded`, `insufficient_quota`,
`invalid_api_key`) decides; else the status (a 401 `api_error` is an
`AuthenticationError`); else, inside a stream (no status), a generic type
(`server_error` is a `ServerError`). The body is kept as received; one that is
no such object (a proxy's HTML page) gives its text as the message. The
answer's headers, where the caller has them, give the request id, the wait
and the rate limits (`ProviderError`'s `headers`).

`encode_error` writes a typed error as that body, for a gateway answering in
OpenAI's format: its status is the error's own, or the one its class stands
for (`error_status`: a `RateLimitError` 429, a connection that failed 502);
`param` is the one of the body it came in, when that body names one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderConnectionError,
    ProviderError,
    RateLimitError,
    ServerError,
)
from interlingua.codec import ErrorTypes, error_text, json_or_text

__all__ = [
    "decode_error",
    "encode_error",
    "error_code",
    "error_fields",
    "error_object",
    "error_status",
    "typed_error",
]

# The status an error without one of its own (an in-stream error, a failed
# connection) is answered with, by the first of its classes found here.
_STATUS_BY_CLASS: dict[type[ProviderError], int] = {
    BadRequestError: 400,
    AuthenticationError: 401,
    PermissionDeniedError: 403,
    NotFoundError: 404,
    RateLimitError: 429,
    OverloadedError: 503,
    ServerError: 500,
    ProviderConnectionError: 502,  # the gateway's upstream did not answer
}


def decode_error(
    status: int | None, body: Any, *, provider: str, headers: Mapping[str, str] | None = None
) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream), its body, as JSON text, bytes or parsed, and its headers."""
    payload = json_or_text(body)
    return typed_error(status, payload, error_object(payload), provider=provider, headers=headers)


def typed_error(
    status: int | None,
    payload: Any,
    error: Mapping[str, Any],
    *,
    provider: str,
    types: ErrorTypes | None = None,
    headers: Mapping[str, str] | None = None,
) -> ProviderError:
    """The typed error that `error` (the error object of `payload`) describes,
    its class picked by `types` (the server's own, else the common ones), with
    what the answer's `headers` say."""
    message = error.get("message")
    if not isinstance(message, str) or not message:
        message = error_text(status, payload)
    kind, code = error.get("type"), error.get("code")
    return ProviderError.for_status(
        status,
        message,
        provider=provider,
        type=kind if isinstance(kind, str) else None,
        code=error_code(code),
        body=payload,
        types=types,
        headers=headers,
    )


def error_code(code: Any) -> str | None:
    """An error's `code` as text: a string or a number (Groq's and Mistral's); any
    other value is no code (its text could be as long, or as deep, as the body)."""
    return str(code) if isinstance(code, str | int | float) and not isinstance(code, bool) else None


def error_object(payload: Any) -> dict[str, Any]:
    """`payload["error"]`, or the payload itself when it is the bare error object."""
    if not isinstance(payload, dict):
        return {}
    error = payload.get("error")
    if isinstance(error, dict):
        return error
    if isinstance(error, str) and error:
        return {"message": error}  # a proxy's `{"error": "..."}`
    return payload if "message" in payload else {}


def error_status(error: ProviderError) -> int:
    """The HTTP status to answer `error` with: its own, or its class's (else 500)."""
    if error.status is not None:
        return error.status
    found = (_STATUS_BY_CLASS.get(cls) for cls in type(error).__mro__)
    return next((status for status in found if status is not None), 500)


def error_fields(error: ProviderError, provider: str) -> dict[str, Any]:
    """The `message`, `type`, `param` and `code` of `error`'s error object; the
    `param` is the body's, when it names one (OpenAI's two APIs, Mistral, Groq)."""
    param = error_object(error.body).get("param")
    return {
        "message": error.message,
        "type": error.type,
        "param": param if isinstance(param, str) else None,
        "code": error.code,
    }


def encode_error(error: ProviderError, *, provider: str) -> tuple[int, dict[str, Any]]:
    """The status and `{"error": {...}}` body of `error` (also the in-stream error chunk)."""
    return error_status(error), {"error": error_fields(error, provider)}
