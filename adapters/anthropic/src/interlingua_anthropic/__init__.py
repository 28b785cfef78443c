"""interlingua adapter for Anthropic's Messages API.

The module is the adapter (`interlingua.get_adapter("anthropic")` returns it):
`PROVIDER` and the six pure codec functions, which never import the
`anthropic` SDK. `AnthropicClient` and `AsyncAnthropicClient` call the API
through the SDK; they are imported, and the SDK with them, on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interlingua_anthropic._errors import decode_error
from interlingua_anthropic._request import decode_request, encode_request
from interlingua_anthropic._response import decode_response, encode_response
from interlingua_anthropic._stream import decode_stream
from interlingua_anthropic._wire import DEFAULT_MAX_TOKENS, PROVIDER

if TYPE_CHECKING:
    from interlingua_anthropic._client import AnthropicClient, AsyncAnthropicClient

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "PROVIDER",
    "AnthropicClient",
    "AsyncAnthropicClient",
    "decode_error",
    "decode_request",
    "decode_response",
    "decode_stream",
    "encode_request",
    "encode_response",
]

_CLIENTS = frozenset({"AnthropicClient", "AsyncAnthropicClient"})


def __getattr__(name: str) -> Any:
    if name in _CLIENTS:
        from interlingua_anthropic import _client

        return getattr(_client, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _CLIENTS)
