"""Calling OpenAI: `complete` and `stream` (and their async twins) over the
official `openai` SDK, through `interlingua.client`, for Chat Completions here
(the endpoint `interlingua_chat_completions` gives) and the Responses API in
`interlingua_openai.responses`.

Pass your own SDK client, or the options to build one
(`OpenAIClient(api_key=..., max_retries=0)`): the SDK keeps its key, base URL,
retries, timeouts and HTTP client. The body sent is exactly
`encode_request(request)` with `stream` set by the method called (and, for a
Chat Completions stream, `stream_options: {"include_usage": true}` unless the
request sets `stream_options`), through the SDK's generic `post`, the request
`chat.completions.create` makes without rebuilding the body from its own
arguments.

`CompatibleClient` and `AsyncCompatibleClient` are the same clients for a
server that speaks OpenAI's wire under its own address and key (DeepSeek,
Cerebras, Ollama, any OpenAI-compatible server): a `CompatibleServer` gives its
default base URL and the environment variables of its key and URL, and the
SDK client built for it reads no `OPENAI_*` variable, so nothing of an OpenAI
account (its key, organization, project or custom headers) is sent there.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import httpx2
import openai

from interlingua.client import (
    AsyncChatClient,
    ChatClient,
    ErrorDecoder,
    SDKBinding,
    sdk_client,
    stainless_binding,
)
from interlingua_chat_completions import chat_completions_endpoint, chat_error_payload
from interlingua_openai._dialect import CODEC
from interlingua_openai._wire import API_HEADERS

__all__ = [
    "AsyncCompatibleClient",
    "AsyncOpenAIClient",
    "CompatibleClient",
    "CompatibleServer",
    "OpenAIClient",
    "compatible_binding",
    "finishes_with_usage",
    "sdk_binding",
]


def sdk_binding(
    decode_error: ErrorDecoder,
    error_payload: Callable[[Any], Any],
) -> SDKBinding:
    """The openai SDK, for an endpoint whose errors `decode_error` types, and
    whose in-stream error event `error_payload` rebuilds from the body the SDK
    raised with."""
    return stainless_binding(
        openai,
        decode_error=decode_error,
        error_payload=error_payload,
        transport_error=httpx2.TransportError,
        # What the SDK's own `create` methods send: the bearer key, not the admin key.
        post_options={"security": {"bearer_auth": True}},
    )


CHAT_COMPLETIONS = replace(chat_completions_endpoint(CODEC), api_headers=API_HEADERS)
SDK = sdk_binding(CODEC.decode_error, chat_error_payload)


class OpenAIClient(ChatClient):
    """Chat calls to OpenAI's Chat Completions API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK

    def __init__(self, client: openai.OpenAI | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, openai.OpenAI))


class AsyncOpenAIClient(AsyncChatClient):
    """Chat calls to OpenAI's Chat Completions API, awaited (asyncio or trio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK

    def __init__(self, client: openai.AsyncOpenAI | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, openai.AsyncOpenAI))


@dataclass(frozen=True)
class CompatibleServer:
    """Where an OpenAI-compatible server is, and where its key is found.

    `base_url` is the default address (None: the caller must give one, as an
    option or in `base_url_variable`); `api_key_variable` the environment
    variable of its key. `placeholder_key` is sent when no key is given, for a
    server that needs none (Ollama's documentation uses `"ollama"`); without
    one a missing key is an error naming the variable.
    """

    provider: str
    base_url: str | None
    api_key_variable: str
    base_url_variable: str | None = None
    placeholder_key: str | None = None

    def sdk_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """`options` for the openai SDK's client, with this server's address and key."""
        built = dict(options)
        if built.get("base_url") is None:
            built["base_url"] = self._setting("base_url", self.base_url_variable, self.base_url)
        if built.get("api_key") is None:
            built["api_key"] = self._setting("api_key", self.api_key_variable, self.placeholder_key)
        # Quirk: the SDK adds OPENAI_ORG_ID, OPENAI_PROJECT_ID and OPENAI_CUSTOM_HEADERS
        # from the environment to every request; an OpenAI account's are not this server's.
        headers = _openai_headers_left_out(built["api_key"])
        built["default_headers"] = {**headers, **built.get("default_headers", {})}
        return built

    def _setting(self, option: str, variable: str | None, default: str | None) -> str:
        """The value of `option`: its variable's, else the default; else an error naming both."""
        found = os.environ.get(variable) if variable else None
        if found:
            return found
        if default is not None:
            return default
        where = f"set {variable} or pass" if variable else "pass"
        raise openai.OpenAIError(f"no {option} for {self.provider!r}: {where} {option}=...")

    def client(self, client: openai.OpenAI | None, options: dict[str, Any]) -> openai.OpenAI:
        """The user's SDK client, or one built for this server from `options`."""
        if client is not None:
            return sdk_client(client, options, openai.OpenAI)  # type: ignore[no-any-return]
        return openai.OpenAI(**self.sdk_options(options))

    def async_client(
        self, client: openai.AsyncOpenAI | None, options: dict[str, Any]
    ) -> openai.AsyncOpenAI:
        if client is not None:
            return sdk_client(client, options, openai.AsyncOpenAI)  # type: ignore[no-any-return]
        return openai.AsyncOpenAI(**self.sdk_options(options))


def _openai_headers_left_out(api_key: Any) -> dict[str, Any]:
    """The headers the SDK would add from an OpenAI account's environment, left
    out; an `Authorization` among them is the server's own key instead."""
    headers: dict[str, Any] = {
        "OpenAI-Organization": openai.Omit(),
        "OpenAI-Project": openai.Omit(),
    }
    for line in os.environ.get("OPENAI_CUSTOM_HEADERS", "").split("\n"):
        name = line.partition(":")[0].strip() if ":" in line else ""
        if name:
            headers[name] = openai.Omit()
        if name.lower() == "authorization" and isinstance(api_key, str):
            headers[name] = f"Bearer {api_key}"
    return headers


def finishes_with_usage(chunk: Any) -> bool:
    """Whether a Chat Completions chunk ends a whole answer: it carries the usage,
    and every choice in it has finished. The `Endpoint.last_payload` of a server
    whose streams may end there, with no `[DONE]`."""
    if not isinstance(chunk, dict) or not chunk.get("usage"):
        return False
    choices = chunk.get("choices") or []
    return all(isinstance(choice, dict) and choice.get("finish_reason") for choice in choices)


def compatible_binding(
    decode_error: ErrorDecoder,
) -> SDKBinding:
    """The openai SDK's binding for a Chat Completions server whose errors
    `decode_error` types (its codec's)."""
    return sdk_binding(decode_error, chat_error_payload)


class CompatibleClient(ChatClient):
    """Chat calls to an OpenAI-compatible server: a subclass gives its
    `endpoint`, `binding` and `server`."""

    server: ClassVar[CompatibleServer]

    def __init__(self, client: openai.OpenAI | None = None, **options: Any) -> None:
        super().__init__(self.server.client(client, options))


class AsyncCompatibleClient(AsyncChatClient):
    """`CompatibleClient`, awaited (asyncio or trio)."""

    server: ClassVar[CompatibleServer]

    def __init__(self, client: openai.AsyncOpenAI | None = None, **options: Any) -> None:
        super().__init__(self.server.async_client(client, options))
