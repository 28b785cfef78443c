"""OpenAI error bodies to typed `ProviderError`s.

OpenAI answers an error with `{"error": {"message", "type", "param", "code"}}`
(both APIs, and inside a Chat Completions stream); a bare error object is read
alike. The status picks the subclass, or, inside a stream (no status), the
type or code (`rate_limit_exceeded` is a `RateLimitError`). The body is kept as
received; one that is no such object (a proxy's HTML page) gives its text as
the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ProviderError
from interlingua.codec import json_or_text

__all__ = ["decode_error", "error_object", "typed_error"]


def decode_error(status: int | None, body: Any, *, provider: str) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream) and its body, as JSON text, bytes or parsed."""
    payload = json_or_text(body)
    return typed_error(status, payload, error_object(payload), provider=provider)


def typed_error(
    status: int | None, payload: Any, error: Mapping[str, Any], *, provider: str
) -> ProviderError:
    """The typed error that `error` (the error object of `payload`) describes."""
    message = error.get("message")
    if not isinstance(message, str) or not message:
        message = _fallback(status, payload)
    kind, code = error.get("type"), error.get("code")
    return ProviderError.for_status(
        status,
        message,
        provider=provider,
        type=kind if isinstance(kind, str) else None,
        code=None if code is None else str(code),
        body=payload,
    )


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


def _fallback(status: int | None, payload: Any) -> str:
    if isinstance(payload, str) and payload:
        return payload
    return f"HTTP {status}" if status is not None else "an error without a message"
