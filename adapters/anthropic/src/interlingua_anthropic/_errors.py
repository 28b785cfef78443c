"""Errors: an Anthropic error body <-> interlingua's typed `ProviderError`.

Anthropic answers an error with `{"type": "error", "error": {"type": ...,
"message": ...}, "request_id": ...}`; the status picks the subclass, unless
the type names a condition it may not (`overloaded_error`, `rate_limit_error`:
the core's `COMMON_ERROR_TYPES`); the error type alone picks it when there is
no status (an error event inside a stream: `invalid_request_error` is a
`BadRequestError`, `api_error` a `ServerError`). A body that is not such an
object (a proxy's HTML page) is kept as it came, and the message says what
little is known. The answer's headers, where the caller has them, give the
request id where the body has none (`request-id`), the wait (`retry-after`)
and the rate limits (`anthropic-ratelimit-*`).

`encode_error` writes any provider's typed error as Anthropic would answer
it: Anthropic's own body as it came, another's with the Anthropic error type
of its status or class (`ERROR_TYPES`).
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
    ProviderError,
    RateLimitError,
    ServerError,
)
from interlingua.codec import (
    COMMON_ERROR_TYPES,
    ErrorTypes,
    copy_json,
    error_text,
    json_or_text,
)
from interlingua_anthropic._wire import PROVIDER, WireDict

__all__ = [
    "DECODED_TYPES",
    "ERROR_TYPES",
    "decode_error",
    "encode_error",
    "error_event",
    "read_error",
]

# Anthropic's error types, the status it answers each with and the core class
# for it (its "HTTP errors" page and the SDK's `ErrorType`), in that order.
ERROR_TYPES: dict[str, tuple[int, type[ProviderError]]] = {
    "invalid_request_error": (400, BadRequestError),
    "authentication_error": (401, AuthenticationError),
    "billing_error": (402, ProviderError),
    "permission_error": (403, PermissionDeniedError),
    "not_found_error": (404, NotFoundError),
    "request_too_large": (413, BadRequestError),
    "rate_limit_error": (429, RateLimitError),
    "api_error": (500, ServerError),
    "timeout_error": (504, ServerError),
    "overloaded_error": (529, OverloadedError),
}
_TYPES_BY_STATUS = {status: name for name, (status, _) in ERROR_TYPES.items()}
# The type of an error by its class, where its status names none: the first listed.
_TYPES_BY_CLASS = {
    cls: name for name, (_, cls) in reversed(ERROR_TYPES.items()) if cls is not ProviderError
}
_API_ERROR = "api_error"
# Anthropic's types but the common specific ones say no more than their status:
# they decide in a stream only.
DECODED_TYPES = COMMON_ERROR_TYPES.extend(
    generic={name: cls for name, (_, cls) in ERROR_TYPES.items()}
)


def decode_error(
    status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream), its body, parsed or as text, and its headers."""
    return read_error(status, body, headers=headers)


def read_error(
    status: int | None,
    body: Any,
    *,
    headers: Mapping[str, str] | None = None,
    provider: str = PROVIDER,
    types: ErrorTypes = DECODED_TYPES,
) -> ProviderError:
    """`decode_error` for an API that answers with Anthropic's error bodies under
    another name and with error types of its own beside Anthropic's (Claude on
    Amazon Bedrock and on Vertex AI: `interlingua_anthropic.bedrock`, `.vertex`)."""
    data = json_or_text(body)
    error = data.get("error") if isinstance(data, dict) else None
    error = error if isinstance(error, dict) else {}
    details = error.get("details")
    kind = _text(error.get("type"))
    message = _text(error.get("message")) or error_text(status, data)
    fields: dict[str, Any] = {
        "provider": provider,
        "type": kind,
        "code": _text(details.get("error_code")) if isinstance(details, dict) else None,
        "body": data,
        "request_id": _text(data.get("request_id")) if isinstance(data, dict) else None,
    }
    return ProviderError.for_status(status, message, types=types, headers=headers, **fields)


def encode_error(error: ProviderError) -> tuple[int, dict[str, Any]]:
    """The status and body Anthropic would answer `error` with."""
    kind = error_type(error)
    known = ERROR_TYPES.get(kind)
    status = error.status if error.status is not None else known[0] if known else 500
    return status, _own_body(error) or {**_built(error, kind), "request_id": error.request_id}


def error_event(error: ProviderError) -> WireDict:
    """The `error` event of a stream for `error`."""
    return _own_body(error) or _built(error, error_type(error))


def error_type(error: ProviderError) -> str:
    """Anthropic's own type for its error; for another's, the type of its status
    or class, else of its kind of status."""
    if error.provider == PROVIDER and error.type:
        return error.type
    status = error.status
    if status in _TYPES_BY_STATUS:
        return _TYPES_BY_STATUS[status]
    if type(error) in _TYPES_BY_CLASS:
        return _TYPES_BY_CLASS[type(error)]
    # Anthropic's errors page: invalid_request_error is also "for other 4XX status codes".
    return "invalid_request_error" if status is not None and 400 <= status < 500 else _API_ERROR


def _built(error: ProviderError, kind: str) -> WireDict:
    return {"type": "error", "error": {"type": kind, "message": error.message}}


def _own_body(error: ProviderError) -> WireDict | None:
    """A copy of the error body Anthropic sent, when it sent one."""
    body = error.body
    if error.provider != PROVIDER or not isinstance(body, dict):
        return None
    if body.get("type") != "error" or not isinstance(body.get("error"), dict):
        return None
    return copy_json(body)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
