"""Groq error bodies to typed `ProviderError`s.

Groq answers an error with OpenAI's `{"error": {"message", "type", "code"}}`
(read by the Chat Completions codec's `typed_error`), inside a 200 stream too,
where its SDK raises the bare error object. Groq adds:

- `failed_generation` beside a 400 `tool_use_failed` (or
  `json_validate_failed`): the model's own text that Groq could not turn into
  a tool call or valid JSON, kept as the error's `failed_generation` so that
  the caller can repair it;
- its own status 498, the flex tier out of capacity: an `OverloadedError`,
  worth a retry;
- a 413 whose code is `rate_limit_exceeded`: one request larger than the
  tokens-per-minute limit, a `RateLimitError` that no retry mends.

The status picks the subclass, unless a code names a condition it may not
(`capacity_exceeded`, the core's `rate_limit_exceeded` and `invalid_api_key`);
inside a stream (no status) the type does too (`invalid_request_error` is a
`BadRequestError`). The request id comes from the body where it has one,
else from the answer's headers (`x-request-id`), which give the wait and the
rate limits too (`x-ratelimit-*`).
`encode_error` writes OpenAI's body back, with the error's `failed_generation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import (
    BadRequestError,
    OverloadedError,
    ProviderError,
)
from interlingua.codec import COMMON_ERROR_TYPES, json_or_text
from interlingua_chat_completions._errors import (
    error_fields,
    error_object,
    error_status,
    typed_error,
)
from interlingua_groq._wire import PROVIDER

__all__ = ["decode_error", "encode_error"]

# Quirk: Groq's own status for the flex tier at capacity ("requests will fail
# quickly with status 498 and error capacity_exceeded", docs/flex-processing).
_ERRORS_BY_STATUS: dict[int, type[ProviderError]] = {498: OverloadedError}

# Groq's error codes and types the core does not know: the flex tier at
# capacity whatever the status; a request refused, in a stream only.
_DECODED_TYPES = COMMON_ERROR_TYPES.extend(
    specific={"capacity_exceeded": OverloadedError},
    generic={"invalid_request_error": BadRequestError},
)


def decode_error(
    status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream), its body, as JSON text, bytes or parsed, and its headers."""
    payload = json_or_text(body)
    error = error_object(payload)
    typed = typed_error(status, payload, error, provider=PROVIDER, types=_DECODED_TYPES)
    subclass = _ERRORS_BY_STATUS.get(status, type(typed)) if status is not None else type(typed)
    return subclass(
        typed.message,
        provider=PROVIDER,
        status=status,
        type=typed.type,
        code=typed.code,
        body=payload,
        request_id=_request_id(payload, error),
        failed_generation=_generation(error.get("failed_generation")),
        headers=headers,
    )


def encode_error(error: ProviderError) -> tuple[int, dict[str, Any]]:
    """The status and `{"error": {...}}` body of `error` (the in-stream error chunk
    too), with the model's `failed_generation` where the error has one."""
    fields = error_fields(error, PROVIDER)
    if error.failed_generation is not None:
        fields["failed_generation"] = error.failed_generation
    return error_status(error), {"error": fields}


def _request_id(payload: Any, error: Mapping[str, Any]) -> str | None:
    """The id Groq gives the request in the body: the error's `request_id`, or
    the body's beside it (with `created_at`, as ha-groq-cloud-api#20 shows)."""
    outer = payload.get("request_id") if isinstance(payload, dict) else None
    return _text(error.get("request_id")) or _text(outer)


def _generation(value: Any) -> str | None:
    # An empty one is kept: the model generated nothing (a `json_validate_failed`
    # often says `"failed_generation": ""`).
    return value if isinstance(value, str) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
