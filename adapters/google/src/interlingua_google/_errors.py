"""Errors: a Google error body <-> interlingua's typed `ProviderError`.

Google answers an error with `{"error": {"code": 400, "message": ...,
"status": "INVALID_ARGUMENT", "details": [...]}}` (the `google.rpc.Status`
of its API design guide). `status` is the error's type, which says no more
than the HTTP status it goes with: the HTTP status picks the subclass
(`ProviderError.for_status`), or the `status` when there is none (an error
inside a stream). A `google.rpc.RetryInfo` detail's `retryDelay` (`"30s"`)
is the retry-after, unless the answer's headers give one (`retry-after`);
a `google.rpc.ErrorInfo`'s `reason` (`API_KEY_INVALID`) is the code.

    status                 HTTP    class
    INVALID_ARGUMENT,      400     BadRequestError
      FAILED_PRECONDITION,
      OUT_OF_RANGE
    UNAUTHENTICATED        401     AuthenticationError
    PERMISSION_DENIED      403     PermissionDeniedError
    NOT_FOUND              404     NotFoundError
    RESOURCE_EXHAUSTED     429     RateLimitError
    CANCELLED              499     ProviderError
    INTERNAL, UNKNOWN      500     ServerError
    UNAVAILABLE            503     OverloadedError
    DEADLINE_EXCEEDED      504     ServerError

Quirk: an invalid Gemini API key is a 400 INVALID_ARGUMENT whose reason is
`API_KEY_INVALID` ("API key not valid. Please pass a valid API key."), not a
401: it is an `AuthenticationError`, as sending it again cannot help.

`encode_error` writes any provider's typed error as Google would answer it:
Google's own body as it came, another's with the status of its HTTP status.
"""

from __future__ import annotations

import re
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
from interlingua.codec import COMMON_ERROR_TYPES, copy_json, error_text, json_or_text
from interlingua_google._wire import PROVIDER, WireDict

__all__ = ["STATUSES", "decode_error", "encode_error", "retry_delay"]

# Google's canonical error codes, the HTTP status each goes with and its class.
STATUSES: dict[str, tuple[int, type[ProviderError]]] = {
    "INVALID_ARGUMENT": (400, BadRequestError),
    "FAILED_PRECONDITION": (400, BadRequestError),
    "OUT_OF_RANGE": (400, BadRequestError),
    "UNAUTHENTICATED": (401, AuthenticationError),
    "PERMISSION_DENIED": (403, PermissionDeniedError),
    "NOT_FOUND": (404, NotFoundError),
    "ABORTED": (409, ProviderError),
    "ALREADY_EXISTS": (409, ProviderError),
    "RESOURCE_EXHAUSTED": (429, RateLimitError),
    "CANCELLED": (499, ProviderError),
    "INTERNAL": (500, ServerError),
    "UNKNOWN": (500, ServerError),
    "DATA_LOSS": (500, ServerError),
    "NOT_IMPLEMENTED": (501, ServerError),
    "UNAVAILABLE": (503, OverloadedError),
    "DEADLINE_EXCEEDED": (504, ServerError),
}
_STATUS_BY_CODE = {code: name for name, (code, _) in reversed(STATUSES.items())}
# Quirk: a bad key is a 400 whose reason is `API_KEY_INVALID` (the docstring's
# words): the reason decides over the status; a `status` name, in a stream only.
_DECODED_TYPES = COMMON_ERROR_TYPES.extend(
    specific={"API_KEY_INVALID": AuthenticationError, "API_KEY_EXPIRED": AuthenticationError},
    generic={name: cls for name, (_, cls) in STATUSES.items()},
)
_RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
_ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


def decode_error(
    status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream), its body, parsed or as text, and its headers."""
    data = json_or_text(body)
    error = data.get("error") if isinstance(data, dict) else None
    error = error if isinstance(error, dict) else {}
    listed = error.get("details")
    details: list[Any] = listed if isinstance(listed, list) else []
    kind = _text(error.get("status"))
    reason = _reason(details)
    fields: dict[str, Any] = {
        "provider": PROVIDER,
        "type": kind,
        "code": reason,
        "body": data,
        "retry_after": retry_delay(details),
    }
    message = _text(error.get("message")) or error_text(status, data)
    return ProviderError.for_status(
        status, message, types=_DECODED_TYPES, headers=headers, **fields
    )


def retry_delay(details: list[Any]) -> float | None:
    """The seconds a `RetryInfo` detail asks to wait (`"retryDelay": "30s"`)."""
    for detail in details:
        if isinstance(detail, dict) and detail.get("@type") == _RETRY_INFO:
            delay = detail.get("retryDelay")
            match = _DURATION.match(delay) if isinstance(delay, str) else None
            if match is not None:
                return float(match.group(1))
    return None


def _reason(details: list[Any]) -> str | None:
    for detail in details:
        if isinstance(detail, dict) and detail.get("@type") == _ERROR_INFO:
            return _text(detail.get("reason"))
    return None


def encode_error(error: ProviderError) -> tuple[int, dict[str, Any]]:
    """The status and body Google would answer `error` with."""
    kind = _status_name(error)
    status = error.status if error.status is not None else STATUSES[kind][0]
    return status, error_body(error, kind, status)


def error_body(
    error: ProviderError, kind: str | None = None, status: int | None = None
) -> WireDict:
    """Google's own body as it came, or one built for another provider's error."""
    body = error.body
    if (
        error.provider == PROVIDER
        and isinstance(body, dict)
        and isinstance(body.get("error"), dict)
    ):
        return copy_json(body)
    kind = kind or _status_name(error)
    code = status if status is not None else error.status or STATUSES[kind][0]
    built: WireDict = {"code": code, "message": error.message, "status": kind}
    if error.retry_after is not None:
        delay = f"{error.retry_after:g}s"
        built["details"] = [{"@type": _RETRY_INFO, "retryDelay": delay}]
    return {"error": built}


def _status_name(error: ProviderError) -> str:
    if error.provider == PROVIDER and error.type in STATUSES:
        return error.type
    if error.status in _STATUS_BY_CODE:
        return _STATUS_BY_CODE[error.status]
    for name, (_, cls) in STATUSES.items():
        if type(error) is cls and cls is not ProviderError:
            return name
    if error.status is not None and 400 <= error.status < 500:
        return "FAILED_PRECONDITION" if error.status != 400 else "INVALID_ARGUMENT"
    return "INTERNAL" if error.status is None or error.status < 503 else "UNAVAILABLE"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
