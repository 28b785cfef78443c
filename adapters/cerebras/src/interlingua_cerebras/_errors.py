"""Cerebras error bodies, written back as Cerebras answers them.

Cerebras answers an error with the error object bare, not under `error`:
`{"message", "type", "param", "code"}` (a wrong key: 401 with
`"code": "wrong_api_key"`). The plain Chat Completions reader already takes
a bare object (`error_object`), so decoding is the codec's; `encode_error`
writes that bare object, for a gateway answering a Cerebras client, and a
stream chunk of that shape (no `choices`, a `message` and a `type`) is an
error chunk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ProviderError
from interlingua_cerebras._wire import PROVIDER
from interlingua_chat_completions._errors import error_fields, error_status

__all__ = ["encode_error", "is_error"]


def encode_error(error: ProviderError) -> tuple[int, dict[str, Any]]:
    """The status and bare `{"message", "type", "param", "code"}` body of
    `error` (the in-stream error chunk too)."""
    return error_status(error), error_fields(error, PROVIDER)


def is_error(chunk: Mapping[str, Any]) -> bool:
    """Whether a stream chunk is Cerebras' bare error object."""
    return "choices" not in chunk and isinstance(chunk.get("message"), str) and "type" in chunk
