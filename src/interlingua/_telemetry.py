"""OpenTelemetry spans and metrics for the clients' calls, in the GenAI semantic
conventions (`interlingua._genai_names`).

With `opentelemetry-api` installed (the `telemetry` extra), each call of a
client (`complete`, `stream`, sync and async) is one CLIENT span named
`chat {model}`, current while the request is sent (an HTTP client's own
spans nest under it), with:

- the request: `gen_ai.operation.name` (`chat`), `gen_ai.provider.name` (the
  conventions' well-known name, an adapter they do not know its own),
  `gen_ai.request.model`, `max_tokens` as the body sent asks (an adapter's
  default included), `temperature`, `top_p`, `top_k`, `stop_sequences`,
  `seed`, `gen_ai.output.type` (a response format asked), `gen_ai.request.stream`;
- the answer: `gen_ai.response.model`, `.id`, `.finish_reasons` (the
  provider's own values, one per choice), `gen_ai.usage.input_tokens` (every
  input token, cached or not), `output_tokens`, the cache counts
  (`cache_read`, `cache_creation`) and the reasoning tokens where the provider
  gave them; a stream's `gen_ai.response.time_to_first_chunk`, in seconds;
- on failure, `error.type`: the provider's error type where its answer gave one
  (`rate_limit_error`, `invalid_request_error`), else the class of the error
  raised (`ProviderConnectionError`, `DecodeError`, `TranslationError`), and
  the span's status ERROR;
- the metrics `gen_ai.client.operation.duration` (s),
  `gen_ai.client.token.usage` (`{token}`, by `gen_ai.token.type`) and, for a
  stream, `gen_ai.client.operation.time_to_first_chunk` (s), with the
  conventions' bucket boundaries.

A stream's span ends when its events do: exhausted, failed (an error event,
a stream cut off) or closed before its end (what arrived is recorded).

Content is left out unless `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`
is `span_only`, `span_and_event` or `true`: then `gen_ai.system_instructions`,
`gen_ai.input.messages` and `gen_ai.output.messages` are on the span, JSON
text (`interlingua._genai_messages`). No log events are emitted: `event_only`
records no content, `span_and_event` the span's alone.

The span in which a request is sent (the call's own, a gateway's above it)
goes with it as W3C trace context (`traceparent`, `tracestate`: `traced`), by
OpenTelemetry's propagators, so the provider's or an upstream gateway's spans
join the caller's trace, as an instrumented HTTP client's would.

Nothing is imported before the first call, and without OpenTelemetry nothing
at all: the calls go through `NO_CALL`, which records nothing. Without a tracer
provider set, the span does not record and only OpenTelemetry's no-op
instruments are called (`bench/telemetry.py` measures the cost).
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from typing import TYPE_CHECKING, Any

from interlingua import _genai_names as names
from interlingua._errors import ProviderError, StreamError
from interlingua._genai_messages import (
    input_messages,
    output_messages,
    system_instructions,
    to_json,
)
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua._stream import (
    ErrorEvent,
    StreamAccumulator,
    StreamEvent,
    StreamStart,
    UsageEvent,
)
from interlingua._usage import TokenUsage

if TYPE_CHECKING:
    from opentelemetry.metrics import Histogram
    from opentelemetry.trace import Span

    from interlingua._limits import OutputLimits

__all__ = ["NO_CALL", "ClientCall", "NoCall", "client_call", "error_type", "traced"]

_SCOPE = "interlingua"


class _Instruments:
    """The tracer and the histograms, made once (proxies until a provider is set)."""

    def __init__(self) -> None:
        from opentelemetry import metrics, propagate, trace

        from interlingua import __version__

        self.trace, self.propagate = trace, propagate
        self.tracer = trace.get_tracer(_SCOPE, __version__)
        meter = metrics.get_meter(_SCOPE, __version__)
        self.token_usage: Histogram = meter.create_histogram(
            names.TOKEN_USAGE, unit="{token}",
            description="Number of input and output tokens used.",
            explicit_bucket_boundaries_advisory=names.TOKEN_BUCKETS,
        )  # fmt: skip
        self.duration: Histogram = meter.create_histogram(
            names.OPERATION_DURATION, unit="s", description="GenAI operation duration.",
            explicit_bucket_boundaries_advisory=names.DURATION_BUCKETS,
        )  # fmt: skip
        self.first_chunk: Histogram = meter.create_histogram(
            names.TIME_TO_FIRST_CHUNK_METRIC, unit="s",
            description="Time to receive the first chunk of a streamed answer.",
            explicit_bucket_boundaries_advisory=names.DURATION_BUCKETS,
        )  # fmt: skip


@cache
def _instruments() -> _Instruments | None:
    try:
        return _Instruments()
    except ImportError:
        return None


class NoCall:
    """A call without OpenTelemetry: records nothing, changes nothing."""

    def sending(self) -> AbstractContextManager[None]:
        return _NOTHING

    def sent(self, body: Mapping[str, Any], limits: OutputLimits) -> None:
        return None

    def finish(self, response: ChatResponse) -> ChatResponse:
        return response

    def watch(self, events: Iterator[StreamEvent]) -> Iterator[StreamEvent]:
        return events

    def watch_async(self, events: AsyncIterator[StreamEvent]) -> AsyncIterator[StreamEvent]:
        return events


_NOTHING: AbstractContextManager[None] = nullcontext()
NO_CALL = NoCall()


def client_call(
    provider: str, request: ChatRequest, *, stream: bool = False
) -> ClientCall | NoCall:
    """The span and measures of one call of `request` to `provider` (the
    conventions' `gen_ai.provider.name`: a client's `provider_name`), started
    now; `NO_CALL` without OpenTelemetry.

    For a client: `with call.sending(): ...` around encoding and sending (an
    error there ends the call), `call.sent(body, limits)` once the body is
    made, then `call.finish(response)`, or `call.watch(events)` for a
    stream's events (the call ends with them)."""
    instruments = _instruments()
    if instruments is None:
        return NO_CALL
    return ClientCall(instruments, provider, request, stream=stream)


def traced(headers: Mapping[str, str] | None) -> Mapping[str, str] | None:
    """`headers` and the trace context of the span current (`traceparent`), which
    a request goes with; `headers` alone without OpenTelemetry or such a span."""
    instruments = _instruments()
    if instruments is None or not instruments.trace.get_current_span().get_span_context().is_valid:
        return headers
    carrier = dict(headers or {})
    instruments.propagate.inject(carrier)
    return carrier


class ClientCall(NoCall):
    """One call's span and measures, from the request to the end of its answer."""

    def __init__(
        self, instruments: _Instruments, provider: str, request: ChatRequest, *, stream: bool
    ) -> None:
        self._instruments = instruments
        self._started = time.perf_counter()
        self._first_chunk: float | None = None
        self._ended = False
        self._measured = {
            names.OPERATION_NAME: names.CHAT,
            names.PROVIDER_NAME: provider,
            names.REQUEST_MODEL: request.model,
        }
        self.span: Span = instruments.tracer.start_span(
            f"{names.CHAT} {request.model}",
            kind=instruments.trace.SpanKind.CLIENT,
            attributes={**self._measured, **_request_attributes(request, stream)},
        )
        self.recording = self.span.is_recording()
        self._content = self.recording and _captures_content()
        if self._content:
            _set_content(self.span, request)

    def sending(self) -> AbstractContextManager[None]:
        """The span current while the request is made and sent; an error ends the call."""
        return _Sending(self)

    def sent(self, body: Mapping[str, Any], limits: OutputLimits) -> None:
        """Note what the body sent asks (the output tokens, an adapter's default included)."""
        if (most := limits.requested(body)) is not None:
            self.span.set_attribute(names.MAX_TOKENS, most)

    def finish(self, response: ChatResponse) -> ChatResponse:
        """End the call with its answer."""
        self.settle(response.model, response.usage, response)
        return response

    def fail(self, error: BaseException) -> None:
        """End the call with `error`."""
        self.settle(None, None, None, error)

    def settle(
        self,
        model: str | None,
        usage: TokenUsage | None,
        answer: ChatResponse | None,
        error: BaseException | None = None,
    ) -> None:
        """End the call (once): measured by the answer's `model` and `usage`, the
        span told the whole `answer` (where it records) and the `error`."""
        if self._ended:
            return
        self._ended = True
        try:
            self._measure(model, usage, answer, error)
        finally:
            self.span.end()

    def _measure(
        self,
        model: str | None,
        usage: TokenUsage | None,
        answer: ChatResponse | None,
        error: BaseException | None,
    ) -> None:
        measured = dict(self._measured)
        if model:
            measured[names.RESPONSE_MODEL] = model
        if usage is not None and (usage.input_tokens or usage.output_tokens):
            histogram = self._instruments.token_usage
            histogram.record(usage.input_tokens, {**measured, names.TOKEN_TYPE: "input"})
            histogram.record(usage.output_tokens, {**measured, names.TOKEN_TYPE: "output"})
        if answer is not None and self.recording:
            self.span.set_attributes(_response_attributes(answer, failed=error is not None))
            if self._content:
                self.span.set_attribute(names.OUTPUT_MESSAGES, to_json(output_messages(answer)))
        if error is not None:
            measured[names.ERROR_TYPE] = error_type(error)
            self.span.set_attribute(names.ERROR_TYPE, measured[names.ERROR_TYPE])
            self.span.set_status(self._instruments.trace.StatusCode.ERROR, str(error))
        self._instruments.duration.record(time.perf_counter() - self._started, measured)

    def watch(self, events: Iterator[StreamEvent]) -> Iterator[StreamEvent]:
        return _Watched(self, events)

    def watch_async(self, events: AsyncIterator[StreamEvent]) -> AsyncIterator[StreamEvent]:
        return _AsyncWatched(self, events)

    def chunk(self) -> None:
        """Note a stream's event: the first one's time."""
        if self._first_chunk is None:
            self._first_chunk = time.perf_counter() - self._started
            self.span.set_attribute(names.TIME_TO_FIRST_CHUNK, self._first_chunk)
            self._instruments.first_chunk.record(self._first_chunk, self._measured)


class _Sending:
    """`ClientCall.sending`: the span current, and the call failed by an error."""

    def __init__(self, call: ClientCall) -> None:
        self._call = call
        self._current = call._instruments.trace.use_span(
            call.span, end_on_exit=False, record_exception=False, set_status_on_exception=False
        )

    def __enter__(self) -> None:
        self._current.__enter__()

    def __exit__(self, kind: Any, error: BaseException | None, traceback: Any) -> None:
        if error is not None:
            self._call.fail(error)
        self._current.__exit__(kind, error, traceback)


class _Arrived:
    """What arrived of a stream: the whole answer where the span records, else
    only what the metrics read (the model, the usage), which costs next to nothing."""

    def __init__(self, call: ClientCall) -> None:
        self.call = call
        self._answer = StreamAccumulator()
        self._model: str | None = None
        self._usage: TokenUsage | None = None

    def note(self, event: StreamEvent) -> None:
        self.call.chunk()
        if self.call.recording:
            self._answer.add(event)
        elif isinstance(event, StreamStart):
            self._model = event.model or self._model
        elif isinstance(event, UsageEvent):
            self._usage = event.usage
        if isinstance(event, ErrorEvent):
            self.end(event.to_error(), whole=False)

    def __del__(self) -> None:
        # Its stream dropped unclosed before its end: the call ends with what arrived.
        self.end(whole=False)

    def end(self, error: BaseException | None = None, *, whole: bool = True) -> None:
        """End the call: the stream over (`whole`), closed before its end, or failed."""
        if not self.call.recording:
            self.call.settle(self._model, self._usage, None, error)
            return
        answer = self._answer.finished() if whole and error is None else self._answer.response()
        self.call.settle(answer.model, answer.usage, answer, error)


class _Watched(Iterator[StreamEvent]):
    """A stream's events, watched: the call ends when they do, or on `close()`."""

    def __init__(self, call: ClientCall, events: Iterator[StreamEvent]) -> None:
        self._events = events
        self._arrived = _Arrived(call)

    def __next__(self) -> StreamEvent:
        try:
            event = next(self._events)
        except StopIteration:
            self._arrived.end()
            raise
        except BaseException as error:
            self._arrived.end(error)
            raise
        self._arrived.note(event)
        return event

    def close(self) -> None:
        self._arrived.end(whole=False)
        close: Callable[[], object] | None = getattr(self._events, "close", None)
        if close is not None:
            close()


class _AsyncWatched(AsyncIterator[StreamEvent]):
    """`_Watched` for an async stream; `aclose()` ends the call."""

    def __init__(self, call: ClientCall, events: AsyncIterator[StreamEvent]) -> None:
        self._events = events
        self._arrived = _Arrived(call)

    async def __anext__(self) -> StreamEvent:
        try:
            event = await self._events.__anext__()
        except StopAsyncIteration:
            self._arrived.end()
            raise
        except BaseException as error:
            self._arrived.end(error)
            raise
        self._arrived.note(event)
        return event

    async def aclose(self) -> None:
        self._arrived.end(whole=False)
        aclose: Callable[[], Any] | None = getattr(self._events, "aclose", None)
        if aclose is not None:
            await aclose()


def error_type(error: BaseException) -> str:
    """`error.type` for `error`: the provider's error type where its answer gave
    one, else the class of the error (a module-qualified name outside interlingua
    and the builtins)."""
    if isinstance(error, StreamError) and error.error is not None:
        error = error.error
    if isinstance(error, ProviderError) and error.type:
        return error.type
    kind = type(error)
    if kind.__module__ == "builtins" or kind.__module__.startswith("interlingua"):
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"


def _captures_content() -> bool:
    value = os.environ.get(names.CAPTURE_CONTENT_VARIABLE, "")
    return value.strip().lower() in names.SPAN_CONTENT


def _set_content(span: Span, request: ChatRequest) -> None:
    if instructions := system_instructions(request):
        span.set_attribute(names.SYSTEM_INSTRUCTIONS, to_json(instructions))
    span.set_attribute(names.INPUT_MESSAGES, to_json(input_messages(request)))


def _request_attributes(request: ChatRequest, stream: bool) -> dict[str, Any]:
    asked: dict[str, Any] = {
        names.MAX_TOKENS: request.max_tokens,
        names.TEMPERATURE: request.temperature,
        names.TOP_P: request.top_p,
        names.TOP_K: request.top_k,
        names.SEED: request.seed,
        names.STOP_SEQUENCES: list(request.stop) or None,
        names.REQUEST_STREAM: stream or None,
    }
    if request.response_format is not None:
        asked[names.OUTPUT_TYPE] = "text" if request.response_format.type == "text" else "json"
    return {name: value for name, value in asked.items() if value is not None}


def _response_attributes(response: ChatResponse, *, failed: bool) -> dict[str, Any]:
    """The answer's attributes; `failed`: the call ended in an error."""
    choices = (response, *response.alternatives)
    reasons = [reason for choice in choices if (reason := _reason(choice, failed))]
    usage = response.usage
    counted = usage.input_tokens or usage.output_tokens
    said = {
        names.RESPONSE_MODEL: response.model,
        names.RESPONSE_ID: response.id,
        names.RESPONSE_FINISH_REASONS: reasons or None,
        names.INPUT_TOKENS: usage.input_tokens if counted else None,
        names.OUTPUT_TOKENS: usage.output_tokens if counted else None,
        names.CACHE_READ_INPUT_TOKENS: usage.cache_read_tokens or None,
        names.CACHE_CREATION_INPUT_TOKENS: usage.cache_write_tokens or None,
        names.REASONING_OUTPUT_TOKENS: usage.reasoning_tokens or None,
    }
    return {name: value for name, value in said.items() if value is not None}


def _reason(choice: ChatResponse, failed: bool) -> str | None:
    """The provider's finish reason of `choice` (else the core's); for one that
    never finished, the conventions' `error` where the call failed, else none
    (a stream its reader closed before its end)."""
    if choice.finish_reason is None:
        return "error" if failed else None
    return choice.raw_finish_reason or choice.finish_reason.value
