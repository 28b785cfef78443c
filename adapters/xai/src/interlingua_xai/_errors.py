"""xAI error bodies to typed `ProviderError`s.

xAI answers an error with `{"code": "<its gRPC status text>", "error":
"<message>"}`: the error is a string, not OpenAI's object (the codec's
`error_object` reads it as the message), and `code` names the kind
(`"Client specified an invalid argument"`, `"The caller does not have
permission to execute the specified operation"`). The body is kept whole.

- Quirk: a bad key is answered 400, not 401 ("Incorrect API key provided:
  xa***. You can obtain an API key from https://console.x.ai.", as users
  report it): an `AuthenticationError` with the 400 kept as its status.
- The status picks the subclass otherwise, as the core does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import AuthenticationError, ProviderError
from interlingua.codec import json_or_text
from interlingua_chat_completions._errors import error_code, error_object, typed_error
from interlingua_xai._wire import PROVIDER

__all__ = ["decode_error"]

_BAD_KEY = "Incorrect API key provided"


def decode_error(
    status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
) -> ProviderError:
    """The typed error for an error answer: its HTTP status (None inside a
    stream), its body, as JSON text, bytes or parsed, and its headers."""
    payload = json_or_text(body)
    typed = typed_error(status, payload, error_object(payload), provider=PROVIDER)
    code = typed.code
    if code is None and isinstance(payload, dict):
        code = error_code(payload.get("code"))
    subclass = AuthenticationError if _BAD_KEY in typed.message else type(typed)
    return subclass(
        typed.message,
        provider=PROVIDER,
        status=status,
        type=typed.type,
        code=code,
        body=payload,
        headers=headers,
    )
