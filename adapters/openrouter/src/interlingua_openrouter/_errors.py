"""OpenRouter error bodies to typed `ProviderError`s.

OpenRouter answers an error with `{"error": {"code", "message", "metadata"},
"user_id"}`: the `code` is the HTTP status as a number, and `metadata` says
more (`provider_name` and the upstream's `raw` text for an upstream error,
`reasons` and `flagged_input` for moderation). Its documented codes
(docs/api-reference/errors): 400, 401, 402 (no credits left), 403 (input
flagged by moderation), 408, 429, 502 (the model is down or answered
badly), 503 (no provider meets the routing). The body is kept whole.

- The status picks the subclass as the core does; a 402 is a `RateLimitError`
  that no retry mends (the account is out of credit, as OpenAI's
  `insufficient_quota`).
- Inside a 200 stream (no status) the error's numeric `code` picks it:
  `{"error": {"code": 400, "message": "Token limit reached"}}` is a
  `BadRequestError` with no status.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ProviderError, RateLimitError
from interlingua.codec import json_or_text
from interlingua_chat_completions._errors import error_object, typed_error
from interlingua_openrouter._wire import PROVIDER

__all__ = ["decode_error"]

# Quirk: "402: Your account or API key has insufficient credits" (docs/api-reference/errors).
_ERRORS_BY_STATUS: dict[int, type[ProviderError]] = {402: RateLimitError}


def decode_error(
    status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream), its body, as JSON text, bytes or parsed, and its headers."""
    payload = json_or_text(body)
    error = error_object(payload)
    typed = typed_error(status, payload, error, provider=PROVIDER)
    return _subclass(status, error.get("code"), typed)(
        typed.message,
        provider=PROVIDER,
        status=status,
        type=typed.type,
        code=typed.code,
        body=payload,
        headers=headers,
    )


def _subclass(status: int | None, code: Any, typed: ProviderError) -> type[ProviderError]:
    """The class for the status, or in a stream for the status the `code` names."""
    number = status if status is not None else code
    if type(number) is not int:
        return type(typed)
    if number in _ERRORS_BY_STATUS:
        return _ERRORS_BY_STATUS[number]
    if status is not None:
        return type(typed)
    return type(ProviderError.for_status(number, typed.message, provider=PROVIDER))
