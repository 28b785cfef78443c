"""The APIs the gateway serves clients in: which adapter speaks at which path,
and the answers written in a client API's own format (errors, model lists).

An adapter serves clients when it writes answers, streams (one event at a
time: `stream_encoder`) and errors: any installed one does, at
`/<adapter name>/...` (a Groq SDK's `base_url` is `http://host:port/groq`, a
Mistral SDK's `server_url` `http://host:port/mistral`); the APIs whose
paths no other shares are also served where their SDKs post by default.

Amazon Bedrock's Converse API has its model and operation in the URL
(`/model/<model id>/converse`, `/converse-stream`): a boto3 client's
`endpoint_url` is `http://host:port` (or `http://host:port/bedrock`), its
gateway key its AWS access key id (`Gateway.check_key`), and its streams go
in Amazon's event stream (`Framing`: AWS's encoder, from Python 3.12), every
other API's as server-sent events. Claude's InvokeModel and Vertex AI envelopes
(`UPSTREAM_ONLY`) are upstreams only.

Gemini's API has its model and method in the URL, not the body
(`models/<model>:generateContent`, `:streamGenerateContent?alt=sse`,
`:countTokens`), under its version: a google-genai SDK's `base_url` is
`http://host:port/google`, or `http://host:port` (`/v1/models/...` or
`/v1beta/models/...`, which no other API posts to).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, cast, runtime_checkable

from starlette.responses import JSONResponse

from interlingua._adapter import available_adapters, get_adapter
from interlingua._errors import AdapterNotFoundError, ProviderError
from interlingua._gateway import GatewayAdapter, WireEvent, error_headers, format_sse
from interlingua._report import TranslationReport
from interlingua._request import ChatRequest
from interlingua.codec import StreamEncoder

__all__ = [
    "BEDROCK",
    "BEDROCK_METHODS",
    "BEDROCK_PATHS",
    "DEFAULT_PATHS",
    "GEMINI",
    "GEMINI_COUNT",
    "GEMINI_KEY_HEADER",
    "GEMINI_METHODS",
    "GEMINI_MODEL_LISTS",
    "GEMINI_PATHS",
    "UPSTREAM_ONLY",
    "ClientAPI",
    "Framing",
    "client_api",
    "client_apis",
    "error_headers",
    "error_response",
    "framing",
    "models_body",
    "unstreamable",
]

# Where each API's own SDK posts, with its default base URL made the gateway's.
DEFAULT_PATHS = {
    "/v1/messages": "anthropic",
    "/v1/chat/completions": "openai",
    "/v1/responses": "openai-responses",
}

GEMINI = "google"
# `<model>:<method>` after these: under each version where the SDK posts (its
# default `v1`, or `v1beta`), and under `/google/<version>`.
GEMINI_PATHS = (
    "/v1/models/{target:path}",
    "/v1beta/models/{target:path}",
    "/google/{version}/models/{target:path}",
)
GEMINI_METHODS = {"generateContent": False, "streamGenerateContent": True}  # streamed?
GEMINI_COUNT = "countTokens"
# Gemini's model lists; at `/v1/models`, shared, for a client that sends `x-goog-api-key`.
GEMINI_MODEL_LISTS = ("/v1beta/models", "/google/{version}/models")
GEMINI_KEY_HEADER = "x-goog-api-key"

BEDROCK = "bedrock"
# `<model id>/<operation>` after these, where boto3 posts under its `endpoint_url`.
BEDROCK_PATHS = ("/model/{target:path}", "/bedrock/model/{target:path}")
BEDROCK_METHODS = {"converse": False, "converse-stream": True}  # streamed?


@runtime_checkable
class ClientAPI(GatewayAdapter, Protocol):
    """An adapter the gateway answers clients in: a stream one event at a time, as
    its API streams the answer to `request`, the client's (`encode_stream`)."""

    def stream_encoder(
        self, *, report: TranslationReport | None = None, request: ChatRequest | None = None
    ) -> StreamEncoder: ...


# Each adapter's answer to `isinstance(adapter, ClientAPI)`, by name: the check
# looks up every method of the protocol, too slow to repeat on every request.
_serves: dict[str, tuple[object, bool]] = {}


# APIs the gateway calls and serves no client in: Claude's InvokeModel and Vertex AI
# envelopes, whose clients are the anthropic SDK's own (to Anthropic's API here).
UPSTREAM_ONLY = frozenset({"anthropic-bedrock", "anthropic-vertex"})


def client_api(name: str) -> ClientAPI | None:
    """The adapter `name`, if it is installed and serves clients."""
    if name in UPSTREAM_ONLY:
        return None
    try:
        adapter = get_adapter(name)
    except AdapterNotFoundError:
        return None
    checked = _serves.get(name)
    if checked is None or checked[0] is not adapter:  # first asked, or registered anew
        checked = _serves[name] = (adapter, isinstance(adapter, ClientAPI))
    return cast(ClientAPI, adapter) if checked[1] else None


def client_apis() -> list[str]:
    """The installed adapters that serve clients, each imported and checked once (at
    start-up: the first request in an API then costs what the next ones do)."""
    return [name for name in available_adapters() if client_api(name) is not None]


@dataclass(frozen=True, slots=True)
class Framing:
    """How an API's stream goes over HTTP: its media type, and its payloads' bytes."""

    media_type: str
    write: Callable[[Iterable[WireEvent]], bytes]


def _sse(events: Iterable[WireEvent]) -> bytes:
    return b"".join(format_sse(events))


def _amazon_frames(events: Iterable[WireEvent]) -> bytes:
    """Converse's events, each a whole member of its union, as event-stream frames."""
    from interlingua_bedrock import write_event_stream

    return b"".join(write_event_stream(e.data for e in events if isinstance(e.data, dict)))


SSE = Framing("text/event-stream", _sse)
AMAZON_EVENT_STREAM = Framing("application/vnd.amazon.eventstream", _amazon_frames)


def framing(name: str) -> Framing:
    """The framing of the API `name`'s streams."""
    return AMAZON_EVENT_STREAM if name == BEDROCK else SSE


def unstreamable(name: str) -> str | None:
    """Why the gateway cannot stream in the API `name` (None: it can)."""
    if name != BEDROCK or client_api(name) is None:
        return None
    from interlingua_bedrock import can_write_event_streams

    if can_write_event_streams():
        return None
    return (
        "the gateway streams Converse's answers in Amazon's event stream, written by "
        "AWS's encoder: pip install smithy-aws-event-stream (Python 3.12 or later)"
    )


def error_response(api: ClientAPI, error: ProviderError) -> JSONResponse:
    """`error` as `api` answers it: its status and body, with `error_headers`."""
    status, body = api.encode_error(error)
    return JSONResponse(body, status_code=status, headers=error_headers(api.PROVIDER, error))


def models_body(names: list[str], api: str) -> dict[str, Any]:
    """The configured model names as a model list in `api`'s shape: Anthropic's,
    Gemini's, or OpenAI's (which the other SDKs read)."""
    data: list[dict[str, Any]]
    if api == GEMINI:
        methods = [*GEMINI_METHODS, GEMINI_COUNT]
        models = [
            {"name": f"models/{name}", "displayName": name, "supportedGenerationMethods": methods}
            for name in names
        ]
        return {"models": models}
    if api == "anthropic":
        data = [
            {
                "type": "model",
                "id": name,
                "display_name": name,
                "created_at": "1970-01-01T00:00:00Z",
            }
            for name in names
        ]
        first, last = (names[0], names[-1]) if names else (None, None)
        return {"data": data, "has_more": False, "first_id": first, "last_id": last}
    data = [
        {"id": name, "object": "model", "created": 0, "owned_by": "interlingua"} for name in names
    ]
    return {"object": "list", "data": data}
