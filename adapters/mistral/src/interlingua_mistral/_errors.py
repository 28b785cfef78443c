"""Mistral error bodies to typed `ProviderError`s.

Mistral answers an error with `{"object": "error", "message", "type", "param",
"code"}`, `code` a string of digits, an integer or null, and sometimes
`raw_status_code`; inside a 200 stream the same object arrives as a chunk.
Its validation errors (422) come as FastAPI's `{"detail": [{"loc", "msg",
...}]}`, bare or as that object's `message` (an object, a list, or the JSON
text of one); its gateway answers `{"detail": "Unauthorized"}` or
`{"message": ..., "request_id": ...}`. The message names each validation
error's place (`body.messages[0].user.name: Extra inputs are not permitted`).
The request id is the body's, else the answer's `mistral-correlation-id` or
`x-kong-request-id` header; the headers give the wait and the rate limits too.

The status picks the subclass, unless the type names a condition it may not
(`rate_limited` is a `RateLimitError`: the core's `COMMON_ERROR_TYPES`);
inside a stream (no status) Mistral's other types do too
(`invalid_request_error` is a `BadRequestError`). The body is kept as
received; one that is no JSON object (a proxy's HTML page) gives its text as
the message.
`encode_error` writes the `{"object": "error", ...}` object back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import (
    AuthenticationError,
    BadRequestError,
    ProviderError,
)
from interlingua.codec import (
    COMMON_ERROR_TYPES,
    error_text,
    format_path,
    header_value,
    json_or_text,
)
from interlingua_chat_completions._errors import (
    error_code,
    error_fields,
    error_object,
    error_status,
)
from interlingua_mistral._wire import PROVIDER

__all__ = ["decode_error", "encode_error"]

# Mistral's error types the core does not know, each saying no more than its
# status: they decide in a stream only.
_DECODED_TYPES = COMMON_ERROR_TYPES.extend(
    generic={
        "authentication_error": AuthenticationError,
        "invalid_request_error": BadRequestError,
    }
)


# Mistral's own names for the request's id (its API and its gateway's).
_REQUEST_ID_HEADERS = ("mistral-correlation-id", "x-kong-request-id")


def decode_error(
    status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream), its body, as JSON text, bytes or parsed, and its headers."""
    payload = json_or_text(body)
    error: Mapping[str, Any] = error_object(payload) or (
        payload if isinstance(payload, dict) else {}
    )
    kind = _text(error.get("type"))
    code = error.get("code")
    fields: dict[str, Any] = {
        "provider": PROVIDER,
        "type": kind,
        "code": error_code(code),
        "body": payload,
        "request_id": _text(error.get("request_id")) or header_value(headers, *_REQUEST_ID_HEADERS),
    }
    message = (
        _message(error.get("message"))
        or _message(error.get("detail"))
        or error_text(status, payload)
    )
    return ProviderError.for_status(
        status, message, types=_DECODED_TYPES, headers=headers, **fields
    )


def encode_error(error: ProviderError) -> tuple[int, dict[str, Any]]:
    """The status and `{"object": "error", ...}` body of `error` (the in-stream
    error chunk too)."""
    return error_status(error), {"object": "error", **error_fields(error, PROVIDER)}


# How far down `_message` looks for the text: a body nested deeper is no error
# shape Mistral sends, and following it would overflow the stack.
_MESSAGE_DEPTH = 8


def _message(value: Any, depth: int = 0) -> str | None:
    """The text of a `message` or `detail`: a string, a validation body or list
    (each error with its place), or the JSON text of one of those."""
    if depth > _MESSAGE_DEPTH:
        return None
    if isinstance(value, str):
        nested = json_or_text(value) if value.lstrip().startswith(("{", "[")) else None
        found = _message(nested, depth + 1) if isinstance(nested, dict | list) else None
        return found or value.strip() or None
    if isinstance(value, dict):
        return _message(value.get("detail"), depth + 1) or _message(value.get("message"), depth + 1)
    if isinstance(value, list):
        problems = [problem for item in value if (problem := _problem(item, depth + 1))]
        return "; ".join(problems) or None
    return None


def _problem(item: Any, depth: int) -> str | None:
    """One FastAPI validation error, `{"loc": [...], "msg": ...}`, as `place: msg`."""
    if not isinstance(item, dict):
        return _message(item, depth)
    message = _text(item.get("msg")) or _text(item.get("message")) or _text(item.get("type"))
    loc = item.get("loc")
    if not isinstance(loc, list) or not loc or message is None:
        return message
    # A place is keys and indexes; anything else in it is shown as `?`.
    place = format_path([part if isinstance(part, int | str) else "?" for part in loc])
    return f"{place}: {message}"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
