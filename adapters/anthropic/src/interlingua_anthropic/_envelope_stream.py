"""Streams in an envelope (Claude on Amazon Bedrock and Vertex AI): Anthropic's
stream events, as each platform carries them.

    payload                                     read as
    `{"chunk": {"bytes": b"<event JSON>"}}`     the Anthropic event in `bytes`, as boto3's
                                                `invoke_model_with_response_stream` yields
                                                it (`interlingua_bedrock.read_event_stream`
                                                reads the raw event stream into these)
    `{"bytes": "<base64 event JSON>"}`          the same, as a `chunk` frame's payload
    `{"<name>Exception": {"message": ...}}`     an exception event: `ErrorEvent`
    an Anthropic event                          itself (Vertex AI's server-sent events,
                                                and the anthropic SDK's Bedrock stream)

Bedrock's last event, `message_stop`, carries `amazon-bedrock-invocationMetrics`
(token counts and latencies): they are the response's `echo` in
`provider_data["anthropic-bedrock"]` (`ResponseDataEvent`), which no other
API's encoder sends and none reports (they are about the call, not its
answer), and the Bedrock stream encoder writes back on `message_stop`.

`encode_stream` writes Anthropic's stream (`AnthropicStreamEncoder`), each
event on Bedrock as the payload of a `chunk` frame (`{"bytes": "<base64>"}`,
the SSE name `chunk`: the frame's `:event-type`), on Vertex AI as it is. An
error ends a Bedrock stream as its exception member, named by the event
(`{"message": ...}`, `throttlingException`: `interlingua.codec.aws_exception`),
not as Anthropic's `error` event.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Iterator
from typing import Any

from interlingua import (
    ChatRequest,
    ErrorEvent,
    FinishEvent,
    ProviderError,
    ResponseDataEvent,
    StreamEvent,
    StreamStart,
    TranslationReport,
    UsageEvent,
    WireEvent,
)
from interlingua.codec import (
    WireReader,
    aws_exception,
    decode_events,
    encode_events,
    keep,
    resolve_report,
)
from interlingua_anthropic._envelope import EnvelopeCodec
from interlingua_anthropic._stream import AnthropicStreamDecoder
from interlingua_anthropic._stream_encoder import AnthropicStreamEncoder

__all__ = ["METRICS", "EnvelopeStreamDecoder", "EnvelopeStreamEncoder", "EnvelopeStreams"]

# Quirk: Bedrock adds the call's metrics to the last event, `message_stop`
# ("amazon-bedrock-invocationMetrics": inputTokenCount, outputTokenCount,
# invocationLatency, firstByteLatency), as recorded InvokeModel streams show.
METRICS = "amazon-bedrock-invocationMetrics"
_CHUNK = "chunk"
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class EnvelopeStreamDecoder:
    """Anthropic's stream decoder behind the platform's chunks."""

    def __init__(self, codec: EnvelopeCodec) -> None:
        self.provider = codec.provider
        self._codec = codec
        self._inner = AnthropicStreamDecoder()
        self._reader = WireReader(codec.provider)
        self._count = 0

    def feed(self, raw: Any) -> list[StreamEvent]:
        path = f"events[{self._count}]"
        self._count += 1
        event = self._event(raw, path)
        if isinstance(event, ProviderError):  # an exception event
            return [*self._inner.finish(), ErrorEvent.from_error(event)]
        if isinstance(event, dict) and event.get("type") == "error":
            error = self._codec.decode_error(None, event)
            return [*self._inner.finish(), ErrorEvent.from_error(error)]
        events = list(self._inner.feed(event))
        if isinstance(event, dict) and event.get("type") == "message_stop" and METRICS in event:
            metrics = {METRICS: event[METRICS]}
            events.append(ResponseDataEvent(provider_data=keep(self.provider, echo=metrics)))
        return events

    def finish(self) -> list[StreamEvent]:
        return list(self._inner.finish())

    def _event(self, raw: Any, path: str) -> Any:
        """The Anthropic event a payload carries (or the error it is)."""
        if not isinstance(raw, dict) or "type" in raw:
            return raw
        if _CHUNK in raw:
            chunk = self._reader.field(raw, _CHUNK, path, dict)
            return self._parsed(chunk.get("bytes"), f"{path}.{_CHUNK}.bytes")
        if "bytes" in raw:
            return self._parsed(raw["bytes"], f"{path}.bytes")
        if len(raw) == 1:
            ((name, member),) = raw.items()
            if name.endswith("Exception"):
                return self._codec.stream_exception(name, member)
        return raw

    def _parsed(self, data: Any, path: str) -> Any:
        """A chunk's event: bytes as boto3 gives them, or base64 text as the frame has it."""
        try:
            if isinstance(data, str):
                data = base64.b64decode(data, validate=True)
            if isinstance(data, bytes | bytearray):
                return json.loads(data)
        except (binascii.Error, ValueError) as exc:
            raise self._reader.error(path, f"not an event's JSON: {exc}") from exc
        raise self._reader.error(path, "expected bytes or base64 text")


class EnvelopeStreamEncoder:
    """Anthropic's stream encoder, its events in the platform's chunks."""

    def __init__(self, codec: EnvelopeCodec, report: TranslationReport | None = None) -> None:
        self._provider = codec.provider
        self._chunked = not codec.envelope.stream_in_body  # Bedrock's frames
        self._inner = AnthropicStreamEncoder(resolve_report(report, codec.provider))
        self._metrics: Any = None

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        match event:
            case StreamStart() | ResponseDataEvent() | UsageEvent() | FinishEvent():
                echo = event.provider_data.get(self._provider, {}).get("echo", {})
                self._metrics = echo.get(METRICS, self._metrics)
            case ErrorEvent() if self._chunked:
                # Bedrock ends a stream with an exception frame, not a chunk.
                error = aws_exception(event.to_error(self._provider), self._provider)
                ((member, value),) = error.items()
                wires = [wire for wire in self._inner.feed(event) if wire.event != "error"]
                return [*map(self._wire, wires), WireEvent(value, member)]
            case _:
                pass
        return [self._wire(wire) for wire in self._inner.feed(event)]

    def finish(self) -> list[WireEvent]:
        return [self._wire(wire) for wire in self._inner.finish()]

    def _wire(self, wire: WireEvent) -> WireEvent:
        data = wire.data
        if isinstance(data, dict) and data.get("type") == "message_stop" and self._metrics:
            data = {**data, METRICS: self._metrics}
        if not self._chunked or not isinstance(data, dict):
            return WireEvent(data, wire.event)
        text = _COMPACT.encode(data).encode()
        return WireEvent({"bytes": base64.b64encode(text).decode("ascii")}, _CHUNK)


class EnvelopeStreams:
    """The stream verbs of one envelope's adapter."""

    def __init__(self, codec: EnvelopeCodec) -> None:
        self.codec = codec

    def decoder(self) -> EnvelopeStreamDecoder:
        return EnvelopeStreamDecoder(self.codec)

    def decode_stream(self, payloads: Iterable[Any]) -> Iterator[StreamEvent]:
        """The stream events for the platform's payloads (see the module)."""
        return decode_events(EnvelopeStreamDecoder(self.codec), payloads)

    def encode_stream(
        self,
        events: Iterable[StreamEvent],
        *,
        report: TranslationReport | None = None,
        request: ChatRequest | None = None,
    ) -> Iterator[WireEvent]:
        """The platform's payloads for a stream's events, lazily; `request`
        changes nothing, as on Anthropic's API."""
        return encode_events(EnvelopeStreamEncoder(self.codec, report), events)

    def stream_encoder(
        self, *, report: TranslationReport | None = None, request: ChatRequest | None = None
    ) -> EnvelopeStreamEncoder:
        """An encoder fed one event at a time (`encode_stream` over an iterable)."""
        return EnvelopeStreamEncoder(self.codec, report)
