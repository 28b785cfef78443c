"""Chat requests and answers over HTTP, in every API the testing kit answers:
the one place that knows which API an SDK's request speaks and how that API
writes an answer.

    read_call(method, url, body)  -> ChatCall     the API (an adapter's name) and
                                                  the ChatRequest the body carries
    answer_call(call, answer)     -> HTTPAnswer   a ChatResponse, stream events or a
                                                  ProviderError as that API's answer

The API is found by the URL (`api_of_url`): `.../messages` Anthropic's,
`.../responses` OpenAI's Responses, `...:generateContent` and
`...:streamGenerateContent` Gemini's (whose model and streaming are in the
URL), and `.../chat/completions` the Chat Completions server of the host
(`api.groq.com`: groq, `api.mistral.ai`: mistral, `api.x.ai`: xai, ...; any
other host: openai), each by its installed adapter. A request the kit cannot
place (another path, an adapter not installed, a body its adapter cannot
read) raises `CassetteError` naming the method and URL.

An answer goes back as the request asked: a `ChatResponse` whole, or, to a
streamed request, as the API streams it (`response_events`, then the
adapter's `encode_stream`, framed by `format_sse`); stream events whole to a
request that is not streamed (joined by `accumulate`; one that ends in an
error event answers as that error), streamed otherwise; a `ProviderError`
as the API's error answer (`encode_error`: its status and body, with
`error_headers`). What the API cannot hold of the answer is in the answer's
`losses`. A streamed Bedrock call (`converse-stream`,
`invoke-with-response-stream`) is answered in Amazon's binary event stream,
written by the Bedrock adapter (`write_event_stream`, with AWS's encoder); where
that encoder is not installed (before Python 3.12) the kit raises `CassetteError`
rather than write the frames by hand (a recording of the same API answers it
with its recorded bytes).

The fake provider (`interlingua.testing.fake`) answers every request through
these two functions; whatever else answers an SDK's request in the SDK's own
API from the core's values (a replay across providers) reads and writes
through them too, not through a second reading of URLs and bodies.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from interlingua._adapter import get_adapter
from interlingua._errors import (
    AdapterNotFoundError,
    CassetteError,
    InvalidDataError,
    ProviderError,
    StreamError,
)
from interlingua._gateway import GatewayAdapter, WireEvent, error_headers, format_sse
from interlingua._parts import ContentPart, ReasoningPart, RefusalPart, TextPart, ToolCallPart
from interlingua._report import TranslationLoss, TranslationReport
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua._stream import (
    AlternativeEvent,
    FinishEvent,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningSignature,
    RefusalDelta,
    StreamEvent,
    StreamStart,
    TextDelta,
    ToolCallStart,
    UsageEvent,
    accumulate,
)
from interlingua.testing._records import AMAZON_EVENT_STREAM, api_of_url, bedrock_target

__all__ = [
    "Answer",
    "ChatCall",
    "HTTPAnswer",
    "answer_call",
    "api_of_url",
    "read_call",
    "response_events",
]

Answer = ChatResponse | Sequence[StreamEvent] | ProviderError
"""What a chat request is answered with: the response, its stream's events, or an error."""

# How a request's path ends -> the adapter of its API (Chat Completions: by host, below).
_GEMINI_STREAM = "streamGenerateContent"
_JSON = "application/json"
_EVENT_STREAM = "text/event-stream"


@dataclass(frozen=True, slots=True)
class ChatCall:
    """A chat request as an SDK sent it: the API it speaks (its adapter's
    name), where it went, its JSON body, and the `ChatRequest` the body carries."""

    api: str
    method: str
    url: str
    body: Any
    request: ChatRequest


@dataclass(frozen=True, slots=True)
class HTTPAnswer:
    """An answer as the API sends it, and what the API could not hold of it."""

    status: int
    headers: dict[str, str]
    body: bytes
    losses: tuple[TranslationLoss, ...] = ()


def read_call(method: str, url: str, body: bytes | None) -> ChatCall:
    """The API of a request and the `ChatRequest` it carries; `CassetteError`
    for a request the kit cannot place."""
    where = f"{method} {url}"
    api = api_of_url(url) if method.upper() == "POST" else None
    if api is None:
        raise CassetteError(
            f"the testing kit answers chat requests only, in the APIs it knows by URL: {where}"
        )
    adapter = _adapter(api, where)
    try:
        document = json.loads(body or b"")
        request = adapter.decode_request(document)
    except (ValueError, InvalidDataError) as error:
        raise CassetteError(f"{where}: the {api} adapter cannot read the body: {error}") from error
    if api == "google":  # the model and the method are in the URL
        model, _, verb = urlsplit(url).path.rpartition("/models/")[2].rpartition(":")
        request = request.model_copy(update={"model": model, "stream": verb == _GEMINI_STREAM})
    elif (bedrock := bedrock_target(url)) is not None:  # Bedrock's too
        model, operation = bedrock
        request = request.model_copy(
            update={"model": model, "stream": operation.endswith("-stream")}
        )
    return ChatCall(api, method.upper(), url, document, request)


def _adapter(api: str, where: str) -> GatewayAdapter:
    try:
        adapter = get_adapter(api)
    except AdapterNotFoundError as error:
        raise CassetteError(f"{where}: {error}") from error
    if not isinstance(adapter, GatewayAdapter):
        raise CassetteError(f"{where}: the {api} adapter writes no answers (no encode_stream)")
    return adapter


def answer_call(call: ChatCall, answer: Answer) -> HTTPAnswer:
    """`answer` as the API of `call` sends it, whole or streamed as the call asked."""
    adapter = _adapter(call.api, f"{call.method} {call.url}")
    if isinstance(answer, ProviderError):
        return _error_answer(call.api, adapter, answer)
    report = TranslationReport(target=call.api)
    if call.request.stream:
        events = response_events(answer) if isinstance(answer, ChatResponse) else answer
        wire = adapter.encode_stream(events, report=report, request=call.request)
        bedrock = bedrock_target(call.url)
        if bedrock is None:
            content_type, body = _EVENT_STREAM, b"".join(format_sse(wire))
        else:
            content_type, body = AMAZON_EVENT_STREAM, _amazon_event_stream(call, wire, bedrock[1])
        return HTTPAnswer(200, {"content-type": content_type}, body, tuple(report.losses))
    if not isinstance(answer, ChatResponse):
        try:
            answer = accumulate(answer)
        except StreamError as error:
            if error.error is None:
                raise
            return _error_answer(call.api, adapter, error.error)
    encoded = adapter.encode_response(answer, report=report)
    body = json.dumps(encoded, ensure_ascii=False).encode()
    return HTTPAnswer(200, {"content-type": _JSON}, body, tuple(report.losses))


def _amazon_event_stream(call: ChatCall, wire: Iterable[WireEvent], path: str) -> bytes:
    """A streamed Bedrock answer's frames (`interlingua_bedrock.write_event_stream`):
    Converse's events are whole union members; InvokeModel's are the member's
    value, named by the event."""
    converse = path == "converse-stream"
    members = (
        event.data if converse else {str(event.event): event.data}
        for event in wire
        if isinstance(event.data, dict)
    )
    try:
        from interlingua_bedrock import write_event_stream

        operation = "ConverseStream" if converse else "InvokeModelWithResponseStream"
        return b"".join(write_event_stream(members, operation))
    except ImportError as error:  # the Bedrock adapter, or AWS's encoder it writes with
        raise CassetteError(
            f"{call.method} {call.url}: a streamed Bedrock call is answered by a recording "
            f"of its own API alone, as recorded, where the kit cannot write Amazon's event "
            f"stream ({error}); it writes no frames by hand"
        ) from error


def _error_answer(api: str, adapter: GatewayAdapter, error: ProviderError) -> HTTPAnswer:
    status, body = adapter.encode_error(error)
    headers = {"content-type": _JSON, **error_headers(api, error)}
    return HTTPAnswer(status, headers, json.dumps(body, ensure_ascii=False).encode())


def response_events(response: ChatResponse) -> list[StreamEvent]:
    """The stream events of a response: `accumulate` gives the response back."""
    events: list[StreamEvent] = [
        StreamStart(
            id=response.id,
            model=response.model,
            provider=response.provider,
            provider_data=response.provider_data,
        )
    ]
    for index, part in enumerate(response.message.parts):
        events += _part_events(index, part)
    events += [
        AlternativeEvent(index=index, response=alternative)
        for index, alternative in enumerate(response.alternatives, start=1)
    ]
    if response.finish_reason is not None:
        events.append(
            FinishEvent(
                finish_reason=response.finish_reason,
                raw_finish_reason=response.raw_finish_reason,
            )
        )
    events.append(UsageEvent(usage=response.usage))
    return events


def _part_events(index: int, part: ContentPart) -> list[StreamEvent]:
    """A part as the deltas that build it, or whole where no delta does."""
    events: list[StreamEvent]
    match part:
        case TextPart():
            events = [TextDelta(index=index, text=part.text)]
        case RefusalPart():
            events = [RefusalDelta(index=index, text=part.text)]
        case ReasoningPart() if part.redacted_data is None:
            events = [ReasoningDelta(index=index, text=part.text, provider=part.provider)]
            if part.signature is not None:
                signature = ReasoningSignature(
                    index=index, signature=part.signature, provider=part.provider
                )
                events.append(signature)
        case ToolCallPart():
            return [
                ToolCallStart(
                    index=index,
                    id=part.id,
                    name=part.name,
                    arguments=part.arguments,
                    provider_data=part.provider_data,
                )
            ]
        case _:
            return [PartEvent(index=index, part=part)]
    return events + [
        PartDataEvent(index=index, provider=provider, data=data)
        for provider, data in part.provider_data.items()
    ]
