"""Errors: a Bedrock error answer <-> interlingua's typed `ProviderError`.

Bedrock answers an error with a body `{"message": "..."}` (`Message` in some
AWS answers) and the error's type in a header, `X-Amzn-Errortype`, which may
carry a suffix after a colon
(`ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/`);
header names are read in any case. Inside a stream an error is a member of
the event union, `{"throttlingException": {"message": "..."}}`, whose name is
the type (`ThrottlingException`); `modelStreamErrorException` adds the
model's `originalStatusCode` and `originalMessage`, kept in the body.

Its types and their classes are the core's (`interlingua.codec.AWS_ERRORS`:
Bedrock's InvokeModel answers the same), as is the reading of the header
(`aws_error_type`).

`encode_error` writes any provider's typed error as Bedrock would answer it:
the status and the body; `error_headers` gives the type's header, and
`error_event` the error as a stream's exception member.
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
    AWS_ERRORS,
    COMMON_ERROR_TYPES,
    aws_error_type,
    aws_error_types,
    aws_exception,
    copy_json,
    error_text,
    header_value,
    json_or_text,
)
from interlingua_bedrock._wire import PROVIDER

__all__ = [
    "ERROR_TYPE_HEADER",
    "REQUEST_ID_HEADER",
    "STREAM_EXCEPTIONS",
    "decode_error",
    "encode_error",
    "error_event",
    "error_headers",
    "error_type",
]

ERROR_TYPE_HEADER = "x-amzn-ErrorType"
REQUEST_ID_HEADER = "x-amzn-RequestId"

_DECODED_TYPES = aws_error_types(COMMON_ERROR_TYPES)

# The exceptions a ConverseStream may carry, as members of its event union.
STREAM_EXCEPTIONS = frozenset(
    {
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
        "throttlingException",
        "serviceUnavailableException",
    }
)

# The type of another provider's error: by its status, else its class.
_TYPES_BY_STATUS: dict[int, str] = {
    400: "ValidationException",
    401: "UnrecognizedClientException",
    403: "AccessDeniedException",
    404: "ResourceNotFoundException",
    408: "ModelTimeoutException",
    424: "ModelErrorException",
    429: "ThrottlingException",
    500: "InternalServerException",
    503: "ServiceUnavailableException",
    529: "ServiceUnavailableException",
}
_TYPES_BY_CLASS: dict[type[ProviderError], str] = {
    BadRequestError: "ValidationException",
    AuthenticationError: "UnrecognizedClientException",
    PermissionDeniedError: "AccessDeniedException",
    NotFoundError: "ResourceNotFoundException",
    RateLimitError: "ThrottlingException",
    OverloadedError: "ServiceUnavailableException",
    ServerError: "InternalServerException",
}


def decode_error(
    status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream), its body, parsed or as text (in a stream, the exception member),
    and the answer's headers."""
    data = json_or_text(body)
    kind = aws_error_type(headers)
    error = data if isinstance(data, dict) else {}
    if status is None and kind is None and len(error) == 1:
        ((member, inner),) = error.items()
        if member in STREAM_EXCEPTIONS and isinstance(inner, dict):
            kind, error = member[0].upper() + member[1:], inner
    message = _text(error.get("message")) or _text(error.get("Message"))
    fields: dict[str, Any] = {
        "provider": PROVIDER,
        "type": kind,
        "body": data,
        "request_id": header_value(headers, REQUEST_ID_HEADER.lower()),
    }
    text = message or error_text(status, data)
    return ProviderError.for_status(status, text, types=_DECODED_TYPES, headers=headers, **fields)


def error_type(error: ProviderError) -> str:
    """Bedrock's own type for its error; for another's, the type of its status
    or class, else of its kind of status."""
    if error.provider == PROVIDER and error.type:
        return error.type
    if error.status in _TYPES_BY_STATUS:
        return _TYPES_BY_STATUS[error.status]
    for cls in type(error).__mro__:
        if cls in _TYPES_BY_CLASS:
            return _TYPES_BY_CLASS[cls]
    status = error.status
    return (
        "ValidationException" if status is not None and status < 500 else "InternalServerException"
    )


def encode_error(error: ProviderError) -> tuple[int, dict[str, Any]]:
    """The status and body Bedrock would answer `error` with (its type goes in
    the header `error_headers` gives)."""
    kind = error_type(error)
    known = AWS_ERRORS.get(kind)
    status = error.status if error.status is not None else known[0] if known else 500
    return status, _own_body(error) or {"message": error.message}


def error_headers(error: ProviderError) -> dict[str, str]:
    """The headers Bedrock names an error's type and its request's id in, which
    botocore reads to raise the error's own exception."""
    headers = {ERROR_TYPE_HEADER: error_type(error)}
    if error.request_id:
        headers[REQUEST_ID_HEADER] = error.request_id
    return headers


def error_event(error: ProviderError) -> dict[str, Any]:
    """The stream's exception member for `error` (`interlingua.codec.aws_exception`)."""
    return aws_exception(error, PROVIDER)


def _own_body(error: ProviderError) -> dict[str, Any] | None:
    """A copy of the error body Bedrock sent, when it sent one as an answer."""
    body = error.body
    if error.provider != PROVIDER or not isinstance(body, dict) or error.status is None:
        return None
    return copy_json(body)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
