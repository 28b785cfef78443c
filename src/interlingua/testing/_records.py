"""Recorded interactions as plain values: what `load_cassette` gives, whatever
the file it read, and what `Replay` serves.

Every body is the bytes a client would have read (decompressed); `json` is
that body parsed, or None; `events` is set exactly when the body is a
server-sent-event stream. Header names are lower-case and every header value
is a tuple of strings. A provider-neutral cassette holds `NeutralInteraction`s
instead: the core's values, not bytes. These types are pure values.

`provider_of(url, body)` places a recorded request (by its URL) or answer (by
its body's shape) with the adapter of its API. Amazon Bedrock's are placed by
their path, `/model/{modelId}/{operation}`: Converse (`converse`,
`converse-stream`) is `bedrock`'s; InvokeModel (`invoke`,
`invoke-with-response-stream`) carries the model's own body, Anthropic's
Messages (`anthropic-bedrock`) for a Claude model, none the kit knows for
the others; each where its adapter is installed. Their streamed answers are
Amazon's binary event stream (`application/vnd.amazon.eventstream`), read
into events by the Bedrock adapter's `read_event_stream` (botocore's own
reader) where it is installed (`event_stream_events`).
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from interlingua._adapter import Adapter, available_adapters, get_adapter
from interlingua._errors import CassetteError, ProviderError
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua._sse import DONE
from interlingua._stream import StreamEvent, accumulate

__all__ = [
    "AMAZON_EVENT_STREAM",
    "LINE_BREAK",
    "Cassette",
    "Headers",
    "Interaction",
    "NeutralInteraction",
    "RecordedRequest",
    "RecordedResponse",
    "SSEEvent",
    "bedrock_target",
    "event_stream_events",
    "parse_sse",
    "provider_of",
]

Headers = Mapping[str, tuple[str, ...]]
_PROVIDERS_BY_HOST: dict[str, str] = {
    "api.openai.com": "openai",
    "api.anthropic.com": "anthropic",
    "api.mistral.ai": "mistral",
    "api.groq.com": "groq",
    "generativelanguage.googleapis.com": "google",
    "aiplatform.googleapis.com": "google",
    # OpenAI-compatible servers with hosts of their own (a local Ollama, a router name none).
    "api.deepseek.com": "deepseek",
    "api.cerebras.ai": "cerebras",
    "ollama.com": "ollama",
    "openrouter.ai": "openrouter",
    "api.x.ai": "xai",
    "api.perplexity.ai": "perplexity",
}
# Azure OpenAI's hosts: `<resource>.openai.azure.com` (and an AI Foundry resource's
# `<resource>.cognitiveservices.azure.com`), the deployment in the path, OpenAI's wire.
_AZURE_OPENAI_HOSTS = (".openai.azure.com", ".cognitiveservices.azure.com")
# Vertex AI's hosts are regional: `<region>-aiplatform.googleapis.com`.
_REGIONAL_HOSTS: dict[str, str] = {"-aiplatform.googleapis.com": "google"}
# Amazon Bedrock Runtime's too: `bedrock-runtime[-fips].<region>.amazonaws.com`.
_BEDROCK_HOST = re.compile(r"bedrock-runtime(?:-fips)?\.[a-z0-9-]+\.amazonaws\.com")
_BEDROCK = "bedrock"
# Bedrock's paths: `/model/{modelId}/{operation}`, the model id percent-encoded
# by botocore (`us.amazon.nova-micro-v1%3A0`), not by every SDK.
_BEDROCK_PATH = re.compile(
    r"/model/([^/]+)/(converse|converse-stream|invoke|invoke-with-response-stream)$"
)
# Amazon's binary event stream, and the Bedrock operations that answer with one.
AMAZON_EVENT_STREAM = "application/vnd.amazon.eventstream"
_STREAMED_OPERATIONS = {
    "converse-stream": "ConverseStream",
    "invoke-with-response-stream": "InvokeModelWithResponseStream",
}
# A model id naming a Claude model (bare, a cross-region profile, an ARN).
_CLAUDE = re.compile(r"(?:^|[./])anthropic\.")

# The body is replayed already decoded, so its recorded framing no longer holds.
_NOT_REPLAYED = frozenset({"content-encoding", "content-length", "transfer-encoding", "set-cookie"})

LINE_BREAK = re.compile(r"\r\n|\r|\n")

# How a request's path ends -> the adapter of its API (Chat Completions: by host, below).
_PATH_ENDS = (
    ("/messages", "anthropic"),
    ("/responses", "openai-responses"),
    (":generateContent", "google"),
    (":streamGenerateContent", "google"),
)
# A field an answer body alone has, and its value (None: any) -> the adapter that wrote it.
_ANSWER_FIELDS = (
    ("type", "message", "anthropic"),
    ("object", "response", "openai-responses"),
    ("choices", None, "openai"),
    ("candidates", None, "google"),
    ("promptFeedback", None, "google"),
)


@dataclass(frozen=True, slots=True)
class SSEEvent:
    """One server-sent event: its `event:` name (None when absent) and its data.

    An event of Amazon's event stream is one too: its name the member of the
    stream's union it is (`messageStart`, `chunk`), its data the event as boto3
    yields it, as JSON (`{"messageStart": {"role": "assistant"}}`; a blob in
    base64, as the frame carries it)."""

    event: str | None
    data: str

    def json(self) -> Any:
        """The data parsed as JSON."""
        return json.loads(self.data)


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """The request as recorded; `url` has its `#fragment` removed."""

    method: str
    url: str
    headers: Headers
    body: bytes | None
    json: Any | None


@dataclass(frozen=True, slots=True)
class RecordedResponse:
    """The response as a client would have read it."""

    status: int
    headers: Headers
    body: bytes
    json: Any | None
    events: tuple[SSEEvent, ...] | None

    def stream_payloads(self) -> list[Any]:
        """Each event's data parsed as JSON, leaving out the `[DONE]` sentinel."""
        if self.events is None:
            raise CassetteError("the response is not an event stream")
        payloads: list[Any] = []
        for index, event in enumerate(self.events):
            if event.data.strip() == DONE:
                continue
            try:
                payloads.append(event.json())
            except ValueError as exc:
                raise CassetteError(f"events[{index}].data is not JSON: {exc}") from exc
        return payloads

    def joined_headers(self) -> dict[str, str]:
        """The headers, each one's values joined as HTTP joins them (`a, b`)."""
        return {name: ", ".join(values) for name, values in self.headers.items()}

    def replay_headers(self) -> dict[str, str]:
        """Headers fit to serve `body` to an HTTP client again."""
        joined = self.joined_headers().items()
        headers = {name: value for name, value in joined if name not in _NOT_REPLAYED}
        headers.setdefault("content-type", self._default_content_type())
        return headers

    def _default_content_type(self) -> str:
        if self.events is not None:
            return "text/event-stream"
        if self.json is not None:
            return "application/json"
        return "application/octet-stream"


@dataclass(frozen=True, slots=True)
class Interaction:
    """One request and its response; `request` is None for a response-only fixture."""

    request: RecordedRequest | None
    response: RecordedResponse

    @property
    def host(self) -> str | None:
        return None if self.request is None else urlsplit(self.request.url).hostname

    @property
    def path(self) -> str | None:
        """The URL path, without the query."""
        return None if self.request is None else urlsplit(self.request.url).path

    @property
    def provider(self) -> str | None:
        """The provider whose API host it went to (`openai`, `anthropic`, `mistral`, `groq`,
        `google`, `deepseek`, `cerebras`, `ollama`'s cloud, `openrouter`, `xai`,
        `perplexity`, `bedrock`); None for any other host."""
        return provider_of_host(self.host or "")

    @property
    def is_stream(self) -> bool:
        """Whether the response is a server-sent-event stream."""
        return self.response.events is not None


@dataclass(frozen=True, slots=True)
class NeutralInteraction:
    """One recorded call in the core's terms, as a provider-neutral cassette keeps it.

    `provider` is the adapter of the API it was recorded from, `model` the model
    asked for (Gemini's from the URL), `status` the answer's HTTP status. A
    whole answer is `response`; a streamed one is `events`, in order, and
    `response` is what they accumulate to; an error answer is `error`, the
    core's typed error, and `response` None.
    """

    provider: str
    model: str
    status: int
    request: ChatRequest
    answer: ChatResponse | None = None
    events: tuple[StreamEvent, ...] | None = None
    error: ProviderError | None = None

    def __post_init__(self) -> None:
        given = [self.answer is not None, self.events is not None, self.error is not None]
        if given.count(True) != 1:
            raise ValueError("a neutral interaction holds one of answer, events or error")

    @property
    def is_stream(self) -> bool:
        return self.events is not None

    @property
    def response(self) -> ChatResponse | None:
        """The answer, a stream accumulated (its error raised as `StreamError`)."""
        return self.answer if self.events is None else accumulate(self.events)


@dataclass(frozen=True, slots=True)
class Cassette:
    """The interactions of one recording file, in recorded order. A
    provider-neutral cassette has no wire interactions: its calls are `neutral`."""

    path: Path
    interactions: tuple[Interaction, ...]
    neutral: tuple[NeutralInteraction, ...] = ()

    def for_provider(self, name: str) -> tuple[Interaction, ...]:
        """The interactions with `name`'s API host (image downloads and others left out)."""
        providers = {*_PROVIDERS_BY_HOST.values(), *_REGIONAL_HOSTS.values(), _BEDROCK}
        if name not in providers:
            known = ", ".join(sorted(providers))
            raise ValueError(f"unknown provider {name!r}; known: {known}")
        return tuple(i for i in self.interactions if i.provider == name)


def provider_of_host(host: str) -> str | None:
    """The provider whose API `host` is (a Vertex AI or Bedrock region's host too), or None."""
    if (provider := _PROVIDERS_BY_HOST.get(host)) is not None:
        return provider
    if _BEDROCK_HOST.fullmatch(host):
        return _BEDROCK
    return next((name for suffix, name in _REGIONAL_HOSTS.items() if host.endswith(suffix)), None)


def api_of_url(url: str) -> str | None:
    """The adapter of the chat API a request to `url` speaks, or None: by its
    path, and for Chat Completions by its host (`_chat_server`)."""
    parts = urlsplit(url)
    host, path = parts.hostname or "", parts.path
    if path.endswith("/chat/completions"):
        if host.endswith(_AZURE_OPENAI_HOSTS):  # a resource's name is its owner's: no server's
            return "openai"
        return _chat_server(host)
    if target := bedrock_target(url):
        return _bedrock_api(*target)
    return next((provider for end, provider in _PATH_ENDS if path.endswith(end)), None)


def provider_of(url: str | None, body: Any) -> str | None:
    """The adapter of the API a request went to (by its `url`), or that wrote
    an answer `body` (by its shape, where there is no URL); None if unknown."""
    if url is not None:
        return api_of_url(url)
    if not isinstance(body, dict):
        return None
    return next(
        (
            provider
            for field, value, provider in _ANSWER_FIELDS
            if field in body and (value is None or body[field] == value)
        ),
        None,
    )


def bedrock_target(url: str) -> tuple[str, str] | None:
    """The model id (unescaped) and the operation (`converse`, `converse-stream`,
    `invoke`, `invoke-with-response-stream`) of a Bedrock path; None for another."""
    found = _BEDROCK_PATH.search(urlsplit(url).path)
    return (unquote(found.group(1)), found.group(2)) if found else None


def _bedrock_api(model_id: str, operation: str) -> str | None:
    """Converse is Bedrock's own API; InvokeModel takes the model's body. Each
    only where its adapter is installed and reads its bodies (the kit names no
    API that no adapter reads)."""
    if operation.startswith("converse"):
        api = _BEDROCK
    elif _CLAUDE.search(model_id):
        api = "anthropic-bedrock"
    else:
        return None
    installed = api in available_adapters() and isinstance(get_adapter(api), Adapter)
    return api if installed else None


def _chat_server(host: str) -> str:
    """The installed Chat Completions adapter a host is the server of, by name
    (`api.groq.com`: groq, `api.x.ai`: xai); OpenAI's for any other."""
    labels = host.split(".")
    names = {*labels, "".join(labels[-2:])}
    known = (name for name in available_adapters() if name.replace("-", "") in names)
    return next(known, "openai")


def event_stream_events(body: bytes, url: str | None) -> tuple[SSEEvent, ...] | None:
    """The events of an Amazon event stream answering a request to `url` (a
    Bedrock stream's operation, by its path; `ConverseStream` where it names
    none), read by the Bedrock adapter's `read_event_stream`; None where that
    adapter is not installed. `CassetteError` for bytes that are no event stream."""
    read = _event_stream_reader()
    if read is None:
        return None
    target = bedrock_target(url or "")
    operation = _STREAMED_OPERATIONS.get(target[1] if target else "", "ConverseStream")
    try:
        events = list(read(body, operation))
    except Exception as exc:  # botocore's framing and parsing errors, of no common class
        raise CassetteError(f"the {AMAZON_EVENT_STREAM} body cannot be read: {exc}") from exc
    return tuple(
        SSEEvent(event=next(iter(event), None), data=json.dumps(event, default=_blob))
        for event in events
    )


def _event_stream_reader() -> Any | None:
    if _BEDROCK not in available_adapters():
        return None
    return getattr(get_adapter(_BEDROCK), "read_event_stream", None)


def _blob(value: object) -> str:
    """A blob of an event (`chunk.bytes`) as the frame's JSON carries it: base64."""
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"{type(value).__name__} is not JSON")


def parse_sse(text: str) -> tuple[SSEEvent, ...]:
    """Server-sent events, as the HTML spec's event-stream interpretation reads them.

    One difference: a last event with no blank line after it is kept, not discarded.
    """
    events: list[SSEEvent] = []
    name: str | None = None
    data: list[str] = []
    for line in LINE_BREAK.split(text.removeprefix("\ufeff")):
        if not line:
            if data:
                events.append(SSEEvent(event=name or None, data="\n".join(data)))
            name, data = None, []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
        # `id`, `retry` and unknown fields do not change the event's content.
    if data:
        events.append(SSEEvent(event=name or None, data="\n".join(data)))
    return tuple(events)
