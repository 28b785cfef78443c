"""Chat Completions stream chunks to `StreamEvent`s.

`decode_stream` takes the parsed `data:` payloads in order (`[DONE]` left
out) or the SDK's chunks; `ChatStreamDecoder` takes them one at a time.

Invariants:

- `accumulate(decode_stream(chunks))` is the `ChatResponse` that
  `decode_response` gives for the body of the same call not streamed, and
  `encode_response` of it is that body.
- The wire numbers tool calls only (`index` >= 0; a dialect that streams
  calls whole may leave it out: `_stream_calls`). Text, refusal, reasoning,
  an audio answer and the deprecated `function_call` each build one part at a
  fixed index below zero, so data for one part never lands on another.
- The usage chunk (`choices: []`; the dialect's `stream_usage` says where)
  gives the usage, with what `TokenUsage` cannot hold of it
  (`UsageEvent.provider_data`); the dialect's `stream_noise` is ignored.
- What the body holds beside the parts is rebuilt: `created`,
  `service_tier`, `system_fingerprint` as the response's `fields` (with the
  stream's start), and top-level fields that come later (`moderation`) with
  the first choice's finish event; choice-level fields (token `logprobs`,
  `content_filter_results`, `stop_reason`) and delta fields the codec does not
  model (`reasoning_content`, text joined) as the choice's and the message's.
  They come with the finish event, and again if more arrive after it.
  A first chunk that names no answer (Azure OpenAI's, of the prompt's filter
  results) gives its fields to the start of the chunk that does.
  Annotations go on the text part, or stay beside the message when there is
  no text, as `decode_response` keeps them.
- Choices other than the first are accumulated apart and come, whole, as
  `AlternativeEvent`s when the stream ends: the response's `alternatives`.
- An error chunk (the dialect's `is_error`) is typed by its `decode_error`,
  an `ErrorEvent`; a chunk that is not what the wire promises raises
  `DecodeError` naming its path (`events[3]...`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, cast

from interlingua import (
    AlternativeEvent,
    ContentPart,
    ErrorEvent,
    FilePart,
    FinishEvent,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    RefusalDelta,
    ResponseDataEvent,
    StreamAccumulator,
    StreamEvent,
    StreamStart,
    TextDelta,
    TextPart,
    ToolCallDelta,
    ToolCallStart,
    UsageEvent,
)
from interlingua.codec import (
    ProviderData,
    ProviderEntry,
    WireReader,
    copy_json,
    decode_events,
    keep,
    other_fields,
)
from interlingua_chat_completions._dialect import ChatCompletionsDialect
from interlingua_chat_completions._finish import decode_finish_reason
from interlingua_chat_completions._parts import part_decoder
from interlingua_chat_completions._response import AUDIO_ANSWER_MEDIA_TYPE
from interlingua_chat_completions._stream_calls import CallReader
from interlingua_chat_completions._think import ThinkStream
from interlingua_chat_completions._wire import (
    RESPONSE_FIELDS,
    AudioAnswer,
    FileEcho,
    MessageShape,
    ResponseEcho,
    TextEcho,
    ToolCallForms,
)

__all__ = [
    "AUDIO_INDEX",
    "FUNCTION_CALL_INDEX",
    "REASONING_INDEX",
    "REFUSAL_INDEX",
    "TEXT_INDEX",
    "ChatStreamDecoder",
    "decode_stream",
]

# Part indexes of what the wire does not number (tool calls take 0, 1, ...).
FUNCTION_CALL_INDEX = -1
TEXT_INDEX = -2
REFUSAL_INDEX = -3
REASONING_INDEX = -4
AUDIO_INDEX = -5
OPAQUE_INDEX = -100  # an opaque content item, and below it the next ones

# Chunk fields that describe the chunk, not the response (and the dialect's noise).
_PER_CHUNK = frozenset({"id", "object", "model", "choices", "usage"})
_CHOICE_MODELLED = frozenset({"index", "delta", "logprobs", "finish_reason"})
_DELTA_MODELLED = frozenset(
    {"role", "content", "refusal", "tool_calls", "function_call", "audio", "annotations"}
)


def decode_stream(events: Iterable[Any], dialect: ChatCompletionsDialect) -> Iterator[StreamEvent]:
    """The stream events of a Chat Completions stream."""
    return decode_events(ChatStreamDecoder(dialect), events)


class ChatStreamDecoder:
    """Turns `dialect`'s chunks into events one at a time; `finish()` after the last chunk."""

    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.read = WireReader(dialect.provider)
        self.count = 0
        self.per_chunk = _PER_CHUNK | dialect.stream_noise
        self.every_chunk = self.per_chunk.union(RESPONSE_FIELDS)
        self.fields: dict[str, Any] = {}
        self.early: dict[str, Any] = {}
        self.identity: tuple[str | None, str | None] | None = None
        self.choices: dict[int, _Choice] = {}
        self.alternatives: dict[int, StreamAccumulator] = {}

    def feed(self, chunk: Any) -> list[StreamEvent]:
        path = f"events[{self.count}]"
        self.count += 1
        chunk = self.read.body(chunk, path)
        if self.dialect.is_error(chunk):
            error = self.dialect.decode_error(None, chunk)
            return [ErrorEvent.from_error(error)]
        events: list[StreamEvent] = []
        if (start := self.start(self.dialect.stream_fields(chunk), path)) is not None:
            events.append(start)
        for index, choice in enumerate(self.read.field(chunk, "choices", path, list, None) or []):
            where = f"{path}.choices[{index}]"
            choice = self.read.object(choice, where)
            number = self.read.field(choice, "index", where, int, None) or 0
            if (state := self.choices.get(number)) is None:
                state = self.choices[number] = _Choice(self.dialect)
            produced = state.events(choice, where, self.read)
            if number == 0:
                events.extend(produced)
            else:
                accumulator = self.alternative(number)
                for event in produced:
                    accumulator.add(event)
        events += self.usage(chunk, path)
        return events

    def finish(self) -> list[StreamEvent]:
        """What is known only once the stream ended: the other choices."""
        numbers = sorted(self.alternatives)
        return [
            AlternativeEvent(index=n, response=self.alternatives[n].response()) for n in numbers
        ]

    def alternative(self, number: int) -> StreamAccumulator:
        if number not in self.alternatives:
            response_id, model = self.identity or (None, None)
            self.alternatives[number] = accumulator = StreamAccumulator()
            accumulator.add(StreamStart(id=response_id, model=model, provider=self.provider))
        return self.alternatives[number]

    def start(self, chunk: Mapping[str, Any], path: str) -> StreamStart | ResponseDataEvent | None:
        """The response's identity and fields on the first chunk; a top-level field
        that comes later, as response data."""
        first = self.identity is None
        if first and chunk.get("id") == "" and not chunk.get("choices"):
            # Quirk: Azure OpenAI streams the prompt's `prompt_filter_results` first, in a
            # chunk with no choice, `id`, `model` and `object` "" and `created` 0 (its
            # content filtering docs): its fields wait for the chunk that names the answer.
            self.early.update(other_fields(chunk, self.every_chunk))
            return None
        if first:
            # The body this stream describes is a `chat.completion`, not a chunk.
            self.fields = {"object": "chat.completion"}
            self.fields.update({key: chunk[key] for key in RESPONSE_FIELDS if key in chunk})
            self.fields.update(self.early)
        elif chunk.keys() <= self.every_chunk:
            return None  # nothing beyond what every chunk says
        extra = {
            key: value
            for key, value in chunk.items()
            if key not in self.per_chunk
            and key not in RESPONSE_FIELDS
            and value is not None
            and self.fields.get(key) != value
        }
        self.fields.update(extra)
        if not first:
            data = keep(self.provider, fields=extra)
            return ResponseDataEvent(provider_data=data) if extra else None
        response_id = self.read.field(chunk, "id", path, str, None)
        model = self.read.field(chunk, "model", path, str, None)
        self.identity = (response_id, model)
        return StreamStart(
            id=response_id,
            model=model,
            provider=self.provider,
            provider_data=keep(self.provider, fields=self.fields),
        )

    def usage(self, chunk: Mapping[str, Any], path: str) -> list[StreamEvent]:
        """The usage a chunk carries, and what `TokenUsage` cannot hold of it."""
        usage = self.dialect.stream_usage(chunk)
        if usage is None:
            return []
        where = f"{path}.usage"
        usage = self.read.object(usage, where)
        decoded, extra = self.dialect.usage.decode_kept(usage, where, self.read)
        data = keep(self.provider, echo=ResponseEcho(usage=extra) if extra else None)
        return [UsageEvent(usage=decoded, provider_data=data)]


class _Choice:
    """The state of one choice across chunks."""

    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.reasoning_field = dialect.reasoning_field
        self.reasoning_stream = dialect.reasoning_stream()
        reasoning_keys = dialect.reasoning_keys
        if self.reasoning_stream is not None:
            reasoning_keys = self.reasoning_stream.keys
        self.modelled = _DELTA_MODELLED | reasoning_keys
        self.calls = CallReader(dialect)
        self.has_text = False
        self.annotations: list[Any] = []
        self.audio: dict[str, Any] = {}
        self.choice_fields: dict[str, Any] = {}
        self.message_fields: dict[str, Any] = {}
        self.raw: str | None = None
        self.sent: Any = None
        self.parts = part_decoder(dialect)
        self.listed = False  # `content` came as a list of items
        self.opaque = 0  # opaque items seen
        think = dialect.think_tags
        self.think = ThinkStream(self.provider, TEXT_INDEX, REASONING_INDEX) if think else None

    def events(self, choice: Mapping[str, Any], path: str, read: WireReader) -> list[StreamEvent]:
        delta = read.field(choice, "delta", path, dict, None) or {}
        events = self.deltas(delta, f"{path}.delta", read)
        if not choice.keys() <= _CHOICE_MODELLED or isinstance(choice.get("logprobs"), dict):
            for key, value in choice.items():
                if key == "logprobs" and isinstance(value, dict):
                    _gather(self.choice_fields, key, value, _logprobs)
                elif key not in _CHOICE_MODELLED:
                    _gather(self.choice_fields, key, value, _latest)
        raw = read.field(choice, "finish_reason", path, str, None)
        if raw is not None and self.raw is None:
            self.raw = raw
            events.extend(self.calls.close())
            events.extend(self.thought(self.think.finish()) if self.think else ())
            events.extend(self.audio_part())
        if self.raw is not None:
            events.extend(self.closing())
        return events

    def deltas(self, delta: Mapping[str, Any], path: str, read: WireReader) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        field = self.reasoning_field
        if self.reasoning_stream is not None:
            events.extend(self.reasoning_stream.feed(delta, path, read))
        elif field is not None and (text := read.field(delta, field, path, str, None)):
            events.append(ReasoningDelta(index=REASONING_INDEX, text=text, provider=self.provider))
        if delta.get("content"):
            events.extend(self.content(delta["content"], f"{path}.content", read))
        if "refusal" in delta and (text := read.field(delta, "refusal", path, str, None)):
            events.append(RefusalDelta(index=REFUSAL_INDEX, text=text))
        if "annotations" in delta:
            self.annotations.extend(read.field(delta, "annotations", path, list, None) or [])
        if "audio" in delta and (audio := read.field(delta, "audio", path, dict, None)) is not None:
            self.add_audio(audio, f"{path}.audio", read)
        if "tool_calls" in delta:
            calls = read.field(delta, "tool_calls", path, list, None) or []
            events.extend(self.calls.read(calls, f"{path}.tool_calls", read))
        if "function_call" in delta:
            call = read.field(delta, "function_call", path, dict, None)
            if call is not None:
                events.extend(self.function_call(call, f"{path}.function_call", read))
        if not delta.keys() <= self.modelled:
            for key, value in delta.items():
                if key not in self.modelled:
                    _gather(self.message_fields, key, value, _joined)
        return events

    def content(self, content: Any, path: str, read: WireReader) -> list[StreamEvent]:
        """A `content` delta: text, or (some servers) a list of items, each a
        piece of the part it continues (Mistral's thinking, then its text)."""
        if isinstance(content, str) and self.think is not None:
            return self.thought(self.think.feed(content))
        if isinstance(content, str):
            self.has_text = True
            return [TextDelta(index=TEXT_INDEX, text=content)]
        self.listed = True
        events: list[StreamEvent] = []
        for i, item in enumerate(read.array(content, path)):
            part = self.parts.assistant_item(item, f"{path}[{i}]")
            events.extend(self.piece(TextPart(**part) if isinstance(part, dict) else part))
        return events

    def thought(self, events: list[StreamEvent]) -> list[StreamEvent]:
        """The events of content split at `<think>` tags (`_think`)."""
        self.has_text = self.has_text or any(isinstance(e, TextDelta) for e in events)
        return events

    def piece(self, part: ContentPart) -> list[StreamEvent]:
        """The events of one content item, decoded as a part."""
        events: list[StreamEvent] = []
        match part:
            case TextPart():
                self.has_text, index = True, TEXT_INDEX
                events.append(TextDelta(index=index, text=part.text))
            case ReasoningPart():
                index = REASONING_INDEX
                events.append(ReasoningDelta(index=index, text=part.text, provider=part.provider))
                if part.signature is not None:
                    events.append(ReasoningSignature(index=index, signature=part.signature))
            case _:
                self.opaque += 1
                return [PartEvent(index=OPAQUE_INDEX - self.opaque, part=part)]
        if entry := part.provider_data.get(self.provider):
            events.append(PartDataEvent(index=index, provider=self.provider, data=entry))
        return events

    def function_call(
        self, call: Mapping[str, Any], path: str, read: WireReader
    ) -> list[StreamEvent]:
        # The deprecated `functions` API streams one call, with no id.
        arguments = read.field(call, "arguments", path, str, None) or ""
        name = read.field(call, "name", path, str, None) or ""
        if FUNCTION_CALL_INDEX in self.calls.started:
            return (
                [ToolCallDelta(index=FUNCTION_CALL_INDEX, arguments=arguments)] if arguments else []
            )
        self.calls.started.add(FUNCTION_CALL_INDEX)
        data = keep(self.provider, forms=ToolCallForms(function_call=True))
        return [
            ToolCallStart(
                index=FUNCTION_CALL_INDEX, id="", name=name, arguments=arguments, provider_data=data
            )
        ]

    def add_audio(self, audio: Mapping[str, Any], path: str, read: WireReader) -> None:
        for key in ("data", "transcript"):
            if (piece := read.field(audio, key, path, str, None)) is not None:
                self.audio[key] = self.audio.get(key, "") + piece
        self.audio.update(
            {k: v for k, v in audio.items() if k not in ("data", "transcript") and v is not None}
        )

    def audio_part(self) -> list[StreamEvent]:
        if "data" not in self.audio:
            return []
        details = cast("AudioAnswer", other_fields(self.audio, ("data",)))
        part = FilePart(
            media_type=AUDIO_ANSWER_MEDIA_TYPE,
            data=self.audio["data"],
            provider_data=keep(self.provider, echo=FileEcho(audio=details)),
        )
        return [PartEvent(index=AUDIO_INDEX, part=part)]

    def closing(self) -> list[StreamEvent]:
        """The finish event with what the body keeps beside the parts, when that
        changed since it was last given (fields may follow the finish reason)."""
        state = (self.choice_fields, self.message_fields, self.annotations, self.listed)
        if state == self.sent:
            return []
        self.sent = copy_json(state)
        events: list[StreamEvent] = [self.finish_event(self.finish_data())]
        if self.annotations and self.has_text:
            annotations: ProviderEntry = {"echo": {**TextEcho(annotations=list(self.annotations))}}
            events.append(PartDataEvent(index=TEXT_INDEX, provider=self.provider, data=annotations))
        return events

    def finish_event(self, data: ProviderData) -> FinishEvent:
        """The finish event of this choice, with `data` for the response."""
        reason = decode_finish_reason(self.raw, self.dialect.finish_reasons)
        assert reason is not None
        return FinishEvent(finish_reason=reason, raw_finish_reason=self.raw, provider_data=data)

    def finish_data(self) -> ProviderData:
        """The choice's and the message's fields, as `decode_response` keeps them."""
        echo: ResponseEcho = {}
        if self.choice_fields:
            echo["choice"] = {"fields": copy_json(self.choice_fields)}
        message = copy_json(self.message_fields)
        if self.annotations and not self.has_text:
            message["annotations"] = list(self.annotations)
        shape: MessageShape = {"fields": message} if message else {}
        if self.listed:
            shape["content"] = "list"
        if shape:
            echo["message"] = shape
        return keep(self.provider, echo=echo)


def _gather(target: dict[str, Any], key: str, value: Any, merge: Callable[[Any, Any], Any]) -> None:
    """Adds one chunk's `value` of `key`; a null says nothing once a value came."""
    if value is None:
        target.setdefault(key, None)
    else:
        old = target.get(key)
        target[key] = value if old is None else merge(old, value)


def _joined(old: Any, new: Any) -> Any:
    """A delta field: text and lists arrive in pieces."""
    pieces = type(old) is type(new) and isinstance(new, str | list)
    return old + new if pieces else new


def _latest(old: Any, new: Any) -> Any:
    """A choice field: each chunk says the latest (objects, the latest of each key)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return {**old, **new}
    return new


def _logprobs(old: Any, new: Any) -> Any:
    """Token logprobs: each list grows by the chunk's entries."""
    merged = dict(old)
    for key, value in new.items():
        if isinstance(value, list) and isinstance(merged.get(key), list):
            merged[key] = merged[key] + value
        elif value is not None or key not in merged:
            merged[key] = value
    return merged
