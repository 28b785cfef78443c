"""Responses API error bodies to typed `ProviderError`s, and back.

Error answers are those of Chat Completions (`interlingua_chat_completions._errors`),
named `"openai-responses"`. Inside a stream an error comes as an `error` event
(`{"type": "error", "code", "message", "param"}`: the `type` names the event,
not the error) or as a failed response's `error` (`{"code", "message"}`); the
`code` says what kind (`server_error`, `rate_limit_exceeded`).

`encode_error` writes an error as the API answers one: `{"error": {"message",
"type", "param", "code"}}`, with the error's status, or for one that has none
(met inside a stream) the status its class stands for.
"""

from __future__ import annotations

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
from interlingua.codec import json_or_text, other_fields
from interlingua_chat_completions._errors import error_object, typed_error
from interlingua_openai.responses._wire import PROVIDER

__all__ = ["decode_error", "encode_error"]

# The status of an error that has none, by class: the first that it is, in order.
# An overloaded server answers 503 (the class comes back from its type); one that
# could not be reached, 502 as a gateway says it.
_STATUSES: tuple[tuple[type[ProviderError], int], ...] = (
    (BadRequestError, 400),
    (AuthenticationError, 401),
    (PermissionDeniedError, 403),
    (NotFoundError, 404),
    (RateLimitError, 429),
    (OverloadedError, 503),
    (ProviderConnectionError, 502),
    (ServerError, 500),
)


def decode_error(status: int | None, body: Any) -> ProviderError:
    """The typed error for an error answer, an `error` event, or a failed
    response's `error`: its HTTP status (None inside a stream) and its body."""
    payload = json_or_text(body)
    error = error_object(payload)
    if error is payload and payload.get("type") == "error":
        error = other_fields(payload, ("type",))
    return typed_error(status, payload, error, provider=PROVIDER)


def encode_error(error: ProviderError) -> tuple[int, dict[str, Any]]:
    """The status and body the API answers `error` with."""
    status = error.status
    if status is None:
        status = next((code for kind, code in _STATUSES if isinstance(error, kind)), 500)
    param = error_object(error.body).get("param")
    body = {
        "message": error.message,
        "type": error.type,
        "param": param if isinstance(param, str) else None,
        "code": error.code,
    }
    return status, {"error": body}
