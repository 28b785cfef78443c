"""A body in one API's format to another's, through the core: requests,
answers, streams and errors, for a gateway that answers a client in its own
format from whichever provider it calls.

    translate_request(body, source="openai", target="anthropic").body
    translate_response(body, source="anthropic", target="openai")
    translate_stream(payloads, source="anthropic", target="openai")   # lazily
    translate_stream(payloads, source="anthropic", target="openai", request=body)
    format_sse(events)                                                # the bytes
    validate_request(request, target="mistral")                       # before sending

The names are the adapters' (`anthropic`, `openai`, `openai-responses`,
`mistral`, `groq`). What the target cannot take is in the result's `losses`,
each with the path of the part it concerns and its level; `strict=True` raises
`TranslationError` on the first instead, `strict="setting"` on the first
setting or content loss, `strict="content"` on the first content loss. A
stream is translated one payload at a time: the first chunk out leaves before
the last one comes in, and an error mid-stream comes out as the target's own
in-stream error.

An adapter that serves streams and errors to a gateway has, beside the six
codec functions, `encode_stream(events, *, report=None, request=None)` (the
core's stream events to its payloads, in order, as `WireEvent`s, as its API
streams them for `request`, the client's: an OpenAI Chat Completions stream
ends with a usage chunk only for a request that asks, `stream_options:
{"include_usage": true}`; with no request, the stream carries the usage) and
`encode_error(error)` (a typed error to its status and body);
`error_headers(api, error)` gives the headers that go with that body, with
the adapter's own where its API names an error's type in a header (Bedrock's
`x-amzn-ErrorType`: the adapter's `error_headers(error)`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from interlingua._adapter import Adapter, get_adapter
from interlingua._errors import AdapterNotFoundError, InvalidDataError
from interlingua._rate_limits import RateLimitFamily, encode_rate_limits
from interlingua._report import (
    LossKind,
    LossLevel,
    Strictness,
    TranslationLoss,
    TranslationReport,
    refuses,
)

if TYPE_CHECKING:
    from interlingua._errors import ProviderError
    from interlingua._request import ChatRequest
    from interlingua._stream import StreamEvent

__all__ = [
    "GatewayAdapter",
    "Problem",
    "Translation",
    "WireEvent",
    "error_headers",
    "format_sse",
    "translate_request",
    "translate_response",
    "translate_stream",
    "validate_request",
]


@dataclass(frozen=True, slots=True)
class WireEvent:
    """One payload of a stream as an API sends it: its JSON `data` (or the text
    of a sentinel such as `[DONE]`), and the SSE `event` name where the API
    gives one (Anthropic's, the Responses API's)."""

    data: dict[str, Any] | str
    event: str | None = None


@runtime_checkable
class GatewayAdapter(Adapter, Protocol):
    """An adapter that also writes streams and errors in its API's format."""

    def encode_stream(
        self,
        events: Iterable[StreamEvent],
        *,
        report: TranslationReport | None = None,
        request: ChatRequest | None = None,
    ) -> Iterator[WireEvent]: ...

    def encode_error(self, error: ProviderError) -> tuple[int, dict[str, Any]]: ...


@dataclass(frozen=True, slots=True)
class Translation:
    """A translated body, and what the target could not take of the source."""

    body: dict[str, Any]
    losses: list[TranslationLoss] = field(default_factory=list)


def _report(target: str, strict: Strictness) -> TranslationReport:
    return TranslationReport(target=target, strict=strict)


def translate_request(
    body: Any,
    *,
    source: str,
    target: str,
    strict: Strictness = False,
    foreign_reasoning: Literal["drop", "text"] = "drop",
) -> Translation:
    """A request body in `source`'s format, as `target`'s. The source's
    reasoning is left out, or sent as marked text with `foreign_reasoning="text"`
    (`ChatRequest.foreign_reasoning`)."""
    request = get_adapter(source).decode_request(body)
    if foreign_reasoning != request.foreign_reasoning:
        request = request.model_copy(update={"foreign_reasoning": foreign_reasoning})
    report = _report(target, strict)
    return Translation(get_adapter(target).encode_request(request, report=report), report.losses)


def translate_response(
    body: Any, *, source: str, target: str, strict: Strictness = False
) -> Translation:
    """An answer body in `source`'s format, as `target`'s."""
    response = get_adapter(source).decode_response(body)
    report = _report(target, strict)
    return Translation(get_adapter(target).encode_response(response, report=report), report.losses)


def translate_stream(
    payloads: Iterable[Any],
    *,
    source: str,
    target: str,
    report: TranslationReport | None = None,
    request: Any = None,
) -> Iterator[WireEvent]:
    """A stream's payloads in `source`'s format (parsed `data:` JSON, in order),
    as `target`'s `WireEvent`s, one payload at a time; losses go to `report`.
    `request` is the body in `target`'s format the stream answers, whose
    asking for the usage or not the stream follows (`encode_stream`)."""
    encoder = get_adapter(target)
    if not isinstance(encoder, GatewayAdapter):
        raise TypeError(f"the {target!r} adapter writes no streams (it has no encode_stream)")
    asked = None if request is None else encoder.decode_request(request)
    events = get_adapter(source).decode_stream(payloads)
    # An empty report is falsy (`TranslationReport.__bool__`): compared with None.
    report = _report(target, False) if report is None else report
    return encoder.encode_stream(events, report=report, request=asked)


def format_sse(events: Iterable[WireEvent]) -> Iterator[bytes]:
    """Each event as the bytes of one server-sent event, as the APIs frame them:
    its `event:` line where it has a name, its data as compact JSON."""
    for event in events:
        data = event.data if isinstance(event.data, str) else _compact(event.data)
        head = f"event: {event.event}\n" if event.event is not None else ""
        yield f"{head}data: {data}\n\n".encode()


def _compact(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Problem:
    """What a provider would refuse in a request as it stands: where (`path`,
    the message, part and field), the provider's `rule`, and what encoding for
    it does (`fix`: the part left out or changed, and reported; None when the
    request cannot be sent until the history is mended), and the `level` of
    what is lost (`content` where the request cannot be sent)."""

    path: str
    rule: str
    fix: LossKind | None
    level: LossLevel = "content"


def validate_request(
    request: ChatRequest, *, target: str, strict: Strictness = True
) -> list[Problem]:
    """The problems `target` would answer `request` with a 400 for, found before
    sending. Encoding for `target` fixes and reports each one with a `fix`; the
    others raise `InvalidDataError` there (`interlingua.sanitize` mends most).
    `strict` says which fixed ones count, as strict mode would refuse them:
    `True` all, `"setting"` those of a setting or content, `"content"` those
    of content; a problem encoding cannot fix counts always."""
    report = _report(target, False)
    try:
        get_adapter(target).encode_request(request, report=report)
    except InvalidDataError as error:
        return [Problem(path, rule, None) for path, rule in error.problems]
    return [
        Problem(loss.path, loss.reason, loss.kind, loss.level)
        for loss in report.losses
        if refuses(strict, loss.level)
    ]


# Whose names of the rate-limit headers each client API's SDKs read: Anthropic's
# (`anthropic-ratelimit-*`) for its own; none for Gemini's and Bedrock's, which have
# none (Gemini's SDK reads the wait from the body's `RetryInfo`); OpenAI's
# (`x-ratelimit-*`, which Groq's and the other Chat Completions APIs share) for the others.
_RATE_LIMIT_NAMES: dict[str, RateLimitFamily | None] = {
    "anthropic": "anthropic",
    "google": None,
    "bedrock": None,
}


def error_headers(api: str, error: ProviderError) -> dict[str, str]:
    """What `error` says its answer's headers held (an upstream's, for a
    gateway), in the headers the SDKs of the client API `api` read, and no other:

    - its request id, as `request-id` (Anthropic's) and `x-request-id` (the others');
    - the wait it asked for, as `retry-after` (whole seconds, rounded up: HTTP's
      form) and `retry-after-ms` (which the Stainless SDKs, openai's and
      anthropic's, read first);
    - the rate limits it reported, in the names of `api`'s family (`_RATE_LIMIT_NAMES`).
    """
    headers: dict[str, str] = {}
    if error.request_id:
        headers |= {"request-id": error.request_id, "x-request-id": error.request_id}
    if error.retry_after is not None:
        seconds = error.retry_after
        headers["retry-after"] = str(math.ceil(round(seconds, 3)))
        headers["retry-after-ms"] = str(math.ceil(round(seconds * 1000, 3)))
    family = _RATE_LIMIT_NAMES.get(api, "openai")
    if family is not None:
        headers |= encode_rate_limits(error.rate_limits, family)
    return headers | _own_error_headers(api, error)


def _own_error_headers(api: str, error: ProviderError) -> dict[str, str]:
    """The headers of an adapter whose API names an error's type in one (its
    `error_headers(error)`: Bedrock's `x-amzn-ErrorType`, which botocore reads)."""
    try:
        own = getattr(get_adapter(api), "error_headers", None)
    except AdapterNotFoundError:
        return {}
    return dict(own(error)) if callable(own) else {}
