"""What every Chat Completions client shares, with no SDK: the endpoint of a
codec's server, and how a request is prepared for a call streamed or not.

An adapter's own `_client.py` adds its SDK's binding (`interlingua.client.
SDKBinding`) and the two client classes; the body sent is exactly
`encode_request(request)` with `stream` set by the method called, and, for a
stream, `stream_options: {"include_usage": true}` unless the request sets
`stream_options`. A server that takes no `stream_options` (Mistral, Groq: they
report usage unasked) replaces the endpoint's `prepare` with `set_stream`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interlingua import ChatRequest
from interlingua.client import Endpoint
from interlingua_chat_completions._codec import ChatCompletionsCodec
from interlingua_chat_completions._rules import STREAM_ONLY_OPTIONS
from interlingua_chat_completions._wire import CHAT_COMPLETIONS_PATH, OUTPUT_LIMITS

__all__ = ["chat_completions_endpoint", "chat_error_payload", "chat_prepare"]


def chat_prepare(provider: str) -> Callable[[ChatRequest, bool], ChatRequest]:
    """The `Endpoint.prepare` of a Chat Completions endpoint whose options are
    `provider`'s: streams ask for the usage chunk, unless the request sets
    `stream_options`; a call that is not streamed sends none (`_rules`)."""

    def prepare(request: ChatRequest, stream: bool) -> ChatRequest:
        options = dict(request.options_for(provider))
        if stream:
            options.setdefault("stream_options", {"include_usage": True})
        else:
            for name in STREAM_ONLY_OPTIONS:
                options.pop(name, None)
        others = {k: v for k, v in request.provider_options.items() if k != provider}
        provider_options = {**others, provider: options} if options else others
        return request.model_copy(update={"stream": stream, "provider_options": provider_options})

    return prepare


def chat_error_payload(body: Any) -> dict[str, Any]:
    """The in-stream error event an SDK raised with `body`, as the wire had it."""
    return {"error": body if isinstance(body, dict) else {"message": str(body)}}


def chat_completions_endpoint(codec: ChatCompletionsCodec) -> Endpoint:
    """The Chat Completions endpoint of `codec`'s server."""
    return Endpoint(
        provider=codec.PROVIDER,
        path=CHAT_COMPLETIONS_PATH,
        encode_request=codec.encode_request,
        decode_response=codec.decode_response,
        stream_decoder=codec.stream_decoder,
        limits=OUTPUT_LIMITS,
        prepare=chat_prepare(codec.PROVIDER),
    )
