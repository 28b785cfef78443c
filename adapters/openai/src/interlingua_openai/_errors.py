"""OpenAI error bodies to typed `ProviderError`s.

OpenAI answers an error with `{"error": {"message", "type", "param", "code"}}`
(both APIs, and inside a Chat Completions stream). The status picks the
subclass; the body is kept as received.
"""

from __future__ import annotations

from typing import Any

from interlingua import ProviderError
from interlingua.codec import json_or_text

__all__ = ["decode_error"]


def decode_error(status: int | None, body: Any, *, provider: str = "openai") -> ProviderError:
    """The typed error for an error answer: `body` as JSON text, bytes or parsed."""
    payload = json_or_text(body)
    error = _error_object(payload)
    message = error.get("message")
    if not isinstance(message, str) or not message:
        message = payload if isinstance(payload, str) and payload else f"HTTP {status}"
    kind, code = error.get("type"), error.get("code")
    return ProviderError.for_status(
        status,
        message,
        provider=provider,
        type=kind if isinstance(kind, str) else None,
        code=None if code is None else str(code),
        body=payload,
    )


def _error_object(payload: Any) -> dict[str, Any]:
    """`payload["error"]`, or the payload itself when it is the bare error object."""
    if not isinstance(payload, dict):
        return {}
    error = payload.get("error")
    if isinstance(error, dict):
        return error
    return payload if "message" in payload else {}
