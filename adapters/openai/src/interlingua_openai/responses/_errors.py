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

from collections.abc import Mapping
from typing import Any

from interlingua import (
    ProviderError,
)
from interlingua.codec import json_or_text, other_fields
from interlingua_chat_completions import _errors as chat_errors
from interlingua_chat_completions._errors import error_object, typed_error
from interlingua_openai.responses._wire import PROVIDER

__all__ = ["decode_error", "encode_error"]


def decode_error(
    status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
) -> ProviderError:
    """The typed error for an error answer, an `error` event, or a failed
    response's `error`: its HTTP status (None inside a stream), its body and
    its headers."""
    payload = json_or_text(body)
    error = error_object(payload)
    if error is payload and payload.get("type") == "error":
        error = other_fields(payload, ("type",))
    return typed_error(status, payload, error, provider=PROVIDER, headers=headers)


def encode_error(error: ProviderError) -> tuple[int, dict[str, Any]]:
    """The status and body the API answers `error` with (Chat Completions' form)."""
    return chat_errors.encode_error(error, provider=PROVIDER)
