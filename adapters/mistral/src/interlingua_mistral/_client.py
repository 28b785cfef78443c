"""Calling Mistral: `complete` and `stream` (and their async twins) over the
official `mistralai` SDK, through `interlingua.client`.

Pass your own SDK client, or the options to build one
(`MistralClient(api_key=..., retry_config=...)`; an HTTP client of your own
goes in the `Mistral` you build, whose option of that name is `client` too):
the SDK keeps its key, server, retries, timeouts, headers and HTTP client, and
raises its own errors for an error status, which come out typed. The body sent is exactly
`encode_request(request)` with `stream` set by the method called (Mistral
takes no `stream_options`: its streams end with usage unasked).

Quirk: the SDK has no generic `post`, and `chat.complete`/`chat.stream`
rebuild the body from typed arguments (unknown fields dropped, keys reordered,
`prefix: false` and `type: "function"` added) and read the answer into models
that drop fields and reject a body without `usage`. So the call goes through
them with placeholder arguments and two hooks of the SDK's own, which act
only inside this adapter's calls: one puts the exact body (and the headers
the caller gives) in the request before the SDK's other hooks (tracing) see
it, the other hands the HTTP response back once the SDK has taken it as a
success (after its retries), before it is parsed. The answer is read as
JSON; a stream's events from the response's lines
(`interlingua.client.SSEStream`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

import httpx2
from mistralai.client import Mistral, errors
from mistralai.client._hooks.types import (
    AfterSuccessContext,
    AfterSuccessHook,
    BeforeRequestContext,
    BeforeRequestHook,
)

from interlingua.client import (
    AsyncChatClient,
    AsyncSSEStream,
    ChatClient,
    SDKBinding,
    SDKOptions,
    SSEStream,
    sdk_client,
    set_stream,
)
from interlingua_chat_completions import chat_completions_endpoint
from interlingua_mistral._dialect import CODEC

__all__ = ["AsyncMistralClient", "MistralClient"]

# The body of this adapter's call in progress, and the headers it goes with; None outside one.
_CALL: ContextVar[tuple[bytes, Mapping[str, str]] | None] = ContextVar(
    "interlingua_mistral_call", default=None
)
# The SDK's request for a call is built from these and never sent.
_PLACEHOLDER: dict[str, Any] = {"model": "", "messages": []}


class _Answered(Exception):
    """The SDK took `response` as a success: it goes to the client unparsed."""

    def __init__(self, response: httpx2.Response) -> None:
        super().__init__("the answer, handed past the SDK's parsing")
        self.response = response


class _ExactBody(BeforeRequestHook, AfterSuccessHook):
    """The two hooks; they do nothing outside this adapter's calls."""

    def before_request(
        self, hook_ctx: BeforeRequestContext, request: httpx2.Request
    ) -> httpx2.Request | Exception:
        call = _CALL.get()
        if call is None:
            return request
        body, extra = call
        headers = request.headers.copy()
        headers.pop("content-length", None)  # the length of the body it had
        headers.update(extra)
        return httpx2.Request(
            request.method,
            request.url,
            headers=headers,
            content=body,
            extensions=request.extensions,
        )

    def after_success(
        self, hook_ctx: AfterSuccessContext, response: httpx2.Response
    ) -> httpx2.Response | Exception:
        return response if _CALL.get() is None else _Answered(response)


_HOOKS = _ExactBody()


def _hooked(sdk: Mistral) -> Mistral:
    """`sdk` with this adapter's hooks, installed on its first call."""
    # The hooks are the SDK's private API; `Mistral.__init__` reaches them the same way.
    hooks = sdk.sdk_configuration.__dict__["_hooks"]
    if _HOOKS not in hooks.before_request_hooks:
        hooks.before_request_hooks.insert(0, _HOOKS)
        hooks.register_after_success_hook(_HOOKS)
    return sdk


def _wire(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


class _Exchange:
    """One call's answer, as the after-success hook handed it over."""

    response: httpx2.Response | None = None

    def answer(self) -> httpx2.Response:
        if self.response is None:
            raise RuntimeError("the mistralai SDK parsed the answer: its hooks were removed")
        return self.response


@contextmanager
def _exact(body: dict[str, Any], headers: Mapping[str, str]) -> Iterator[_Exchange]:
    """The SDK's call in the block sends `body`, `headers` beside the SDK's own;
    its answer is the exchange's."""
    exchange = _Exchange()
    token = _CALL.set((_wire(body), headers))
    try:
        yield exchange
    except _Answered as answered:
        exchange.response = answered.response
    finally:
        _CALL.reset(token)


class _HookedCalls:
    """`interlingua.client.SDKTransport` over `chat.complete` and `chat.stream`
    (the path is theirs: /v1/chat/completions)."""

    def send(
        self,
        sdk: Mistral,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any:
        chat = _hooked(sdk).chat
        with _exact(body, headers) as exchange:
            (chat.stream if stream else chat.complete)(**_PLACEHOLDER)
        response = exchange.answer()
        return SSEStream(response, sdk) if stream else response.json()

    async def send_async(
        self,
        sdk: Mistral,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any:
        chat = _hooked(sdk).chat
        # The SDK runs its hooks in a worker thread, which gets a copy of this context.
        with _exact(body, headers) as exchange:
            await (chat.stream_async if stream else chat.complete_async)(**_PLACEHOLDER)
        response = exchange.answer()
        return AsyncSSEStream(response, sdk) if stream else response.json()

    # The SDK has no `close()`: leaving its `with` block closes the HTTP clients it built.
    def close(self, sdk: Mistral) -> None:
        with sdk:
            pass

    async def close_async(self, sdk: Mistral) -> None:
        async with sdk:
            pass


# Quirk: Mistral takes no `stream_options` (a 422 `extra_forbidden`); usage comes on the last chunk.
CHAT_COMPLETIONS = replace(chat_completions_endpoint(CODEC), prepare=set_stream)


def _options(options: SDKOptions) -> dict[str, Any]:
    """`SDKOptions` as `Mistral`'s arguments: its base URL is `server_url`, its timeout
    `timeout_ms`; it retries only when given a `retry_config`, so `max_retries` has
    nothing to turn off."""
    given = {
        "api_key": options.api_key,
        "server_url": options.base_url,
        "timeout_ms": None if options.timeout is None else round(options.timeout * 1000),
    }
    return {name: value for name, value in given.items() if value is not None}


SDK = SDKBinding(
    # `SDKError` (any 4xx/5xx) and `HTTPValidationError` (422) alike.
    status_error=errors.MistralError,
    # Raised by the HTTP client as it is, through the SDK's hooks.
    connection_error=httpx2.TransportError,
    decode_error=CODEC.decode_error,
    error_body=lambda exc: exc.body,
    # The stream is read from its raw lines: an error event reaches the decoder as it came.
    in_stream_payload=lambda exc: None,
    transport=_HookedCalls(),
    options=_options,
)


class MistralClient(ChatClient):
    """Chat calls to Mistral's chat completions API."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK

    def __init__(self, client: Mistral | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, Mistral))


class AsyncMistralClient(AsyncChatClient):
    """Chat calls to Mistral's chat completions API, awaited (asyncio)."""

    endpoint = CHAT_COMPLETIONS
    binding = SDK

    def __init__(self, client: Mistral | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, Mistral))
