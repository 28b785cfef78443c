"""Chat Completions stream chunks to `StreamEvent`s.

`decode_stream` takes the parsed `data:` payloads in order (`[DONE]` left
out) or the SDK's `ChatCompletionChunk`s. `ChatStreamDecoder` does the same
one chunk at a time, for a caller that reads the stream itself (the async
client).

Invariants:

- Text and refusal deltas build one part each (index 0); a tool call is
  keyed by its `index`, its id and name taken from the first fragment.
- The usage-only chunk (`choices: []`, with `stream_options.include_usage`)
  gives the usage; `obfuscation` and other per-chunk noise are ignored.
- What the non-streamed body would hold beside the message is rebuilt:
  `created`, `service_tier`, `system_fingerprint` and later top-level
  fields (`moderation`) as the response's `fields`, token `logprobs` as the
  choice's; so `encode_response(accumulate(...))` is a whole
  `chat.completion` body.
- Choices other than the first (`n > 1`) are accumulated apart and given as
  `provider_data[<provider>]["alternatives"]` (dumped `ChatResponse`s): the
  core's accumulator builds one message only.
- An `{"error": ...}` chunk becomes an `ErrorEvent`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from interlingua import (
    ErrorEvent,
    FilePart,
    FinishEvent,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    RefusalDelta,
    StreamAccumulator,
    StreamEvent,
    StreamStart,
    TextDelta,
    ToolCallDelta,
    ToolCallStart,
    UsageEvent,
)
from interlingua.codec import WireReader, as_wire_dict
from interlingua_openai._dialect import OPENAI, ChatCompletionsDialect
from interlingua_openai._response import AUDIO_ANSWER_MEDIA_TYPE, decode_finish_reason, decode_usage

__all__ = ["ChatStreamDecoder", "decode_stream"]

# Chunk fields that describe the chunk, not the response.
_PER_CHUNK = frozenset({"id", "object", "model", "choices", "usage", "obfuscation"})
# Fields the first chunk gives for the whole response.
_FIRST_ONLY = ("created", "service_tier", "system_fingerprint")


def decode_stream(
    events: Iterable[Any], *, dialect: ChatCompletionsDialect = OPENAI
) -> Iterator[StreamEvent]:
    """The stream events of a Chat Completions stream."""
    decoder = ChatStreamDecoder(dialect)
    for chunk in events:
        yield from decoder.feed(chunk)
    yield from decoder.finish()


class ChatStreamDecoder:
    """Turns chunks into events one at a time; `finish()` after the last chunk."""

    def __init__(self, dialect: ChatCompletionsDialect = OPENAI) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.read = WireReader(dialect.provider)
        self.count = 0
        self.fields: dict[str, Any] = {}
        self.choices: dict[int, _Choice] = {}
        self.alternatives: dict[int, StreamAccumulator] = {}

    def feed(self, chunk: Any) -> list[StreamEvent]:
        chunk = as_wire_dict(chunk)
        path = f"events[{self.count}]"
        self.count += 1
        if chunk.get("error") is not None:
            return [self.error(chunk)]
        events: list[StreamEvent] = []
        if (start := self.start(chunk)) is not None:
            events.append(start)
        for index, choice in enumerate(self.read.field(chunk, "choices", path, list, None) or []):
            where = f"{path}.choices[{index}]"
            choice = self.read.object(choice, where)
            number = self.read.field(choice, "index", where, int, None) or 0
            state = self.choices.setdefault(number, _Choice(self.dialect))
            produced = state.events(choice, where, self.read)
            if number == 0:
                events.extend(produced)
            else:
                accumulator = self.alternatives.setdefault(number, StreamAccumulator())
                for event in produced:
                    accumulator.add(event)
        usage = self.dialect.stream_usage(chunk)
        if usage is not None:
            usage = self.read.object(usage, f"{path}.usage")
            events.append(
                UsageEvent(usage=decode_usage(usage, f"{path}.usage", dialect=self.dialect))
            )
        return events

    def finish(self) -> list[StreamEvent]:
        """What is known only once the stream ended: the other choices."""
        if not self.alternatives:
            return []
        answers = [
            self.alternatives[number].response().model_dump(mode="json")
            for number in sorted(self.alternatives)
        ]
        return [StreamStart(provider_data={self.provider: {"alternatives": answers}})]

    def start(self, chunk: Mapping[str, Any]) -> StreamStart | None:
        """The response's identity on the first chunk; after it, a new top-level field."""
        first = not self.fields
        if first:
            # The body this stream describes is a `chat.completion`, not a chunk.
            self.fields = {"object": "chat.completion"}
            self.fields.update({key: chunk[key] for key in _FIRST_ONLY if key in chunk})
        extra = {
            key: value
            for key, value in chunk.items()
            if key not in _PER_CHUNK
            and key not in _FIRST_ONLY
            and value is not None
            and self.fields.get(key) != value
        }
        if not first and not extra:
            return None
        self.fields.update(extra)
        return StreamStart(
            id=self.read.field(chunk, "id", "", str, None),
            model=self.read.field(chunk, "model", "", str, None),
            provider=self.provider,
            provider_data={self.provider: {"fields": dict(self.fields)}},
        )

    def error(self, chunk: Mapping[str, Any]) -> ErrorEvent:
        error = chunk["error"]
        details = error if isinstance(error, dict) else {}
        message = details.get("message")
        kind = details.get("type")
        return ErrorEvent(
            message=message if isinstance(message, str) else str(error),
            error_type=kind if isinstance(kind, str) else None,
            provider=self.provider,
            body=dict(chunk),
        )


class _Choice:
    """The state of one choice across chunks."""

    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.calls: set[int] = set()
        self.logprobs: dict[str, Any] | None = None
        self.annotations: list[Any] = []
        self.audio: dict[str, Any] = {}

    def events(self, choice: Mapping[str, Any], path: str, read: WireReader) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        delta = read.field(choice, "delta", path, dict, None) or {}
        self.deltas(delta, f"{path}.delta", read, events)
        self.add_logprobs(choice.get("logprobs"))
        raw = read.field(choice, "finish_reason", path, str, None)
        if raw is not None:
            events.extend(self.finish(raw))
        return events

    def deltas(
        self, delta: Mapping[str, Any], path: str, read: WireReader, events: list[StreamEvent]
    ) -> None:
        field = self.dialect.reasoning_field
        if field is not None and (text := read.field(delta, field, path, str, None)):
            events.append(ReasoningDelta(text=text, provider=self.provider))
        if text := read.field(delta, "content", path, str, None):
            events.append(TextDelta(text=text))
        if text := read.field(delta, "refusal", path, str, None):
            events.append(RefusalDelta(text=text))
        if annotations := read.field(delta, "annotations", path, list, None):
            self.annotations.extend(annotations)
            data = {"annotations": list(self.annotations)}
            events += [TextDelta(text=""), PartDataEvent(provider=self.provider, data=data)]
        if audio := read.field(delta, "audio", path, dict, None):
            self.add_audio(audio)
        for index, call in enumerate(read.field(delta, "tool_calls", path, list, None) or []):
            where = f"{path}.tool_calls[{index}]"
            events.extend(self.tool_call(read.object(call, where), where, read))
        if (call := read.field(delta, "function_call", path, dict, None)) is not None:
            events.extend(self.function_call(call))

    def tool_call(self, call: Mapping[str, Any], path: str, read: WireReader) -> list[StreamEvent]:
        index = read.field(call, "index", path, int)
        function = call.get("function") or {}
        arguments = function.get("arguments") or ""
        if index in self.calls:
            return [ToolCallDelta(index=index, arguments=arguments)] if arguments else []
        self.calls.add(index)
        # Only the first fragment of a call carries its id and name.
        return [
            ToolCallStart(
                index=index,
                id=call.get("id") or "",
                name=function.get("name") or "",
                arguments=arguments,
            )
        ]

    def function_call(self, call: Mapping[str, Any]) -> list[StreamEvent]:
        # The deprecated `functions` API streams one call, with no id.
        arguments = call.get("arguments") or ""
        if -1 in self.calls:
            return [ToolCallDelta(index=-1, arguments=arguments)] if arguments else []
        self.calls.add(-1)
        data = {self.provider: {"function_call": True}}
        name = call.get("name") or ""
        return [ToolCallStart(index=-1, id="", name=name, arguments=arguments, provider_data=data)]

    def add_logprobs(self, logprobs: Any) -> None:
        if not isinstance(logprobs, dict):
            return
        if self.logprobs is None:
            self.logprobs = {}
        for key, entries in logprobs.items():
            kept = self.logprobs.get(key)
            if isinstance(entries, list) and isinstance(kept, list):
                kept.extend(entries)
            elif isinstance(entries, list) or key not in self.logprobs:
                self.logprobs[key] = list(entries) if isinstance(entries, list) else entries

    def add_audio(self, audio: Mapping[str, Any]) -> None:
        for key, value in audio.items():
            if key in ("data", "transcript") and isinstance(value, str):
                self.audio[key] = self.audio.get(key, "") + value
            elif value is not None:
                self.audio[key] = value

    def finish(self, raw: str) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        if "data" in self.audio:
            details = {key: value for key, value in self.audio.items() if key != "data"}
            part = FilePart(
                media_type=AUDIO_ANSWER_MEDIA_TYPE,
                data=self.audio["data"],
                provider_data={self.provider: {"audio": details}},
            )
            events.append(PartEvent(part=part))
        data = {}
        if self.logprobs is not None:
            data = {self.provider: {"choice": {"fields": {"logprobs": self.logprobs}}}}
        reason = decode_finish_reason(raw, dialect=self.dialect)
        assert reason is not None
        events.append(FinishEvent(reason=reason, raw_reason=raw, provider_data=data))
        return events
