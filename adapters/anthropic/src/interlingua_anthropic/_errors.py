"""Error answers: an Anthropic error body -> interlingua's typed `ProviderError`.

Anthropic answers an error with `{"type": "error", "error": {"type": ...,
"message": ...}, "request_id": ...}`; the status picks the subclass
(`ProviderError.for_status`), or the error type when there is no status (an
error event inside a stream: `overloaded_error` is an `OverloadedError`).
A body that is not such an object (a proxy's HTML page) is kept as it came,
and the message says what little is known.
"""

from __future__ import annotations

from typing import Any

from interlingua import ProviderError
from interlingua.codec import json_or_text
from interlingua_anthropic._wire import PROVIDER

__all__ = ["decode_error"]


def decode_error(status: int | None, body: Any) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream) and its body, parsed or as text."""
    data = json_or_text(body)
    error = data.get("error") if isinstance(data, dict) else None
    error = error if isinstance(error, dict) else {}
    details = error.get("details")
    return ProviderError.for_status(
        status,
        _text(error.get("message")) or _fallback(status, data),
        provider=PROVIDER,
        type=_text(error.get("type")),
        code=_text(details.get("error_code")) if isinstance(details, dict) else None,
        body=data,
        request_id=_text(data.get("request_id")) if isinstance(data, dict) else None,
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _fallback(status: int | None, data: Any) -> str:
    if isinstance(data, str) and data.strip():
        return data.strip()[:200]
    return f"HTTP {status}" if status is not None else "an error without a message"
