"""Stream events, and the accumulator that turns any stream into a response.

Every adapter's `decode_stream` yields these events. They are provider
neutral: the same events give the same `ChatResponse` whichever adapter made
them, and a stream accumulates to the response the non-streamed call gives.

Deltas carry an `index`: the position of the part they build in the
provider's own numbering. Parts are ordered by their first event, and a text
part and a tool call may share an index without clashing.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, get_args

from pydantic import Field

from interlingua._base import CoreModel, ProviderData, provider_data_field
from interlingua._errors import ProviderError, StreamError, provider_error_class
from interlingua._finish import FinishReason
from interlingua._messages import Message
from interlingua._parts import ContentPart, ReasoningPart, RefusalPart, TextPart, ToolCallPart
from interlingua._provider_data import ProviderEntry, copy_json, merge_provider_data
from interlingua._report import TranslationLoss
from interlingua._response import ChatResponse
from interlingua._usage import TokenUsage

__all__ = [
    "EVENT_TYPES",
    "AlternativeEvent",
    "ErrorEvent",
    "FinishEvent",
    "PartDataEvent",
    "PartEvent",
    "ReasoningDelta",
    "ReasoningSignature",
    "RefusalDelta",
    "ResponseDataEvent",
    "StreamAccumulator",
    "StreamEvent",
    "StreamStart",
    "TextDelta",
    "ToolCallDelta",
    "ToolCallStart",
    "UsageEvent",
    "accumulate",
    "accumulate_async",
]


class StreamStart(CoreModel):
    """The response's id, model and provider, known before any content."""

    type: Literal["start"] = "start"
    id: str | None = None
    model: str | None = None
    provider: str | None = None
    provider_data: ProviderData = provider_data_field()

    def over(self, earlier: StreamStart) -> StreamStart:
        """This start, with the id, model and provider it lacks taken from `earlier`."""
        return StreamStart(
            id=self.id or earlier.id,
            model=self.model or earlier.model,
            provider=self.provider or earlier.provider,
        )


class TextDelta(CoreModel):
    type: Literal["text_delta"] = "text_delta"
    index: int = 0
    text: str


class ReasoningDelta(CoreModel):
    type: Literal["reasoning_delta"] = "reasoning_delta"
    index: int = 0
    text: str
    provider: str | None = None


class ReasoningSignature(CoreModel):
    """The signature that closes a reasoning part (sent back to `provider` only)."""

    type: Literal["reasoning_signature"] = "reasoning_signature"
    index: int = 0
    signature: str
    provider: str | None = None


class RefusalDelta(CoreModel):
    type: Literal["refusal_delta"] = "refusal_delta"
    index: int = 0
    text: str


class ToolCallStart(CoreModel):
    """A tool call begins; some providers send the first arguments with it."""

    type: Literal["tool_call_start"] = "tool_call_start"
    index: int = 0
    id: str
    name: str
    arguments: str = ""
    provider_data: ProviderData = provider_data_field()


class ToolCallDelta(CoreModel):
    type: Literal["tool_call_delta"] = "tool_call_delta"
    index: int = 0
    arguments: str


class PartEvent(CoreModel):
    """A part that arrives whole (redacted reasoning, a file, an opaque block).

    `malformed` says why a part was kept as it came although it is not valid
    (a provider block whose streamed JSON did not parse); the response then
    flags it in its `warnings`.
    """

    type: Literal["part"] = "part"
    index: int = 0
    part: ContentPart
    malformed: str | None = None


class PartDataEvent(CoreModel):
    """Provider data for the part last begun at `index` (citations, say): `data`
    is laid over what the part keeps for `provider`, section by section."""

    type: Literal["part_data"] = "part_data"
    index: int = 0
    provider: str
    data: ProviderEntry


class ResponseDataEvent(CoreModel):
    """Provider data of the response as a whole that arrives after its start
    (a field a later chunk adds); laid over what the response keeps."""

    type: Literal["response_data"] = "response_data"
    provider_data: ProviderData


class UsageEvent(CoreModel):
    """The usage so far; a later usage event replaces an earlier one.
    `provider_data` is what the response keeps of the usage object beside the
    counts (laid over the response's, as a `FinishEvent`'s is)."""

    type: Literal["usage"] = "usage"
    usage: TokenUsage
    provider_data: ProviderData = provider_data_field()


class FinishEvent(CoreModel):
    type: Literal["finish"] = "finish"
    finish_reason: FinishReason
    raw_finish_reason: str | None = None
    provider_data: ProviderData = provider_data_field()


class AlternativeEvent(CoreModel):
    """Another choice of a call that asked for several (OpenAI's `n`), whole;
    it becomes one of the response's `alternatives`, in `index` order."""

    type: Literal["alternative"] = "alternative"
    index: int
    response: ChatResponse


class ErrorEvent(CoreModel):
    """An error the provider sent inside the stream. Adapters make it from the
    typed error their `decode_error` gives (`from_error`); `accumulate` raises
    it as the `error` of a `StreamError`. `error_class` names the core class
    that `decode_error` chose, so that `to_error` gives that class back."""

    type: Literal["error"] = "error"
    message: str
    error_type: str | None = None
    error_class: str | None = None
    code: str | None = None
    status: int | None = None
    provider: str | None = None
    request_id: str | None = None
    failed_generation: str | None = None
    body: Any = None

    @classmethod
    def from_error(cls, error: ProviderError) -> ErrorEvent:
        return cls(
            message=error.message,
            error_type=error.type,
            error_class=type(error).__name__,
            code=error.code,
            status=error.status,
            provider=error.provider,
            request_id=error.request_id,
            failed_generation=error.failed_generation,
            body=copy_json(error.body),
        )

    def to_error(self, provider: str | None = None) -> ProviderError:
        """The typed error, as the adapter's `decode_error` typed it (without an
        `error_class` of the core's, as the status or error type says)."""
        fields: dict[str, Any] = {
            "provider": self.provider or provider or "unknown",
            "status": self.status,
            "type": self.error_type,
            "code": self.code,
            "body": self.body,
            "request_id": self.request_id,
            "failed_generation": self.failed_generation,
        }
        chosen = provider_error_class(self.error_class)
        if chosen is not None:
            return chosen(self.message, **fields)
        return ProviderError.for_status(message=self.message, **fields)


StreamEvent = Annotated[
    StreamStart
    | TextDelta
    | ReasoningDelta
    | ReasoningSignature
    | RefusalDelta
    | ToolCallStart
    | ToolCallDelta
    | PartEvent
    | PartDataEvent
    | ResponseDataEvent
    | UsageEvent
    | FinishEvent
    | AlternativeEvent
    | ErrorEvent,
    Field(discriminator="type"),
]


# The `type` of every stream event: the tags of the `StreamEvent` union.
EVENT_TYPES = frozenset(
    event.model_fields["type"].default for event in get_args(get_args(StreamEvent)[0])
)


@dataclass(slots=True)
class _PartBuilder:
    kind: str
    chunks: list[str] = field(default_factory=list)
    signature: str | None = None
    provider: str | None = None
    tool_id: str = ""
    tool_name: str = ""
    whole: ContentPart | None = None
    malformed: str | None = None
    provider_data: ProviderData = field(default_factory=dict)

    def build(self) -> ContentPart:
        text = "".join(self.chunks)
        data = self.provider_data
        match self.kind:
            case "text":
                return TextPart(text=text, provider_data=data)
            case "reasoning":
                return ReasoningPart(
                    text=text, signature=self.signature, provider=self.provider, provider_data=data
                )
            case "refusal":
                return RefusalPart(text=text, provider_data=data)
            case "tool_call":
                # An empty argument stream means a call without arguments.
                return ToolCallPart(
                    id=self.tool_id, name=self.tool_name, arguments=text or "{}", provider_data=data
                )
            case _:
                assert self.whole is not None
                if data and hasattr(self.whole, "provider_data"):
                    merged = merge_provider_data(self.whole.provider_data, data)
                    return self.whole.model_copy(update={"provider_data": merged})
                return self.whole


class StreamAccumulator:
    """Builds a `ChatResponse` from stream events, one `add` at a time.

    `response()` may be called at any point, which is how a broken stream keeps
    what arrived.
    """

    def __init__(self) -> None:
        self._parts: dict[tuple[int, str], _PartBuilder] = {}
        self._latest: dict[int, _PartBuilder] = {}
        self._id: str | None = None
        self._model: str | None = None
        self._provider: str | None = None
        self._usage = TokenUsage()
        self._finish: FinishReason | None = None
        self._raw_finish: str | None = None
        self._provider_data: ProviderData = {}
        self._alternatives: dict[int, ChatResponse] = {}
        self.error: ErrorEvent | None = None

    def _builder(self, index: int, kind: str) -> _PartBuilder:
        key = (index, kind)
        if key not in self._parts:
            self._parts[key] = self._latest[index] = _PartBuilder(kind)
        return self._parts[key]

    def _merge_data(self, data: ProviderData) -> None:
        if data:
            self._provider_data = merge_provider_data(self._provider_data, data)

    def add(self, event: StreamEvent) -> None:
        match event:
            case StreamStart():
                self._id = event.id or self._id
                self._model = event.model or self._model
                self._provider = event.provider or self._provider
                self._merge_data(event.provider_data)
            case TextDelta():
                self._builder(event.index, "text").chunks.append(event.text)
            case ReasoningDelta():
                builder = self._builder(event.index, "reasoning")
                builder.chunks.append(event.text)
                builder.provider = event.provider or builder.provider
            case ReasoningSignature():
                builder = self._builder(event.index, "reasoning")
                builder.signature = (builder.signature or "") + event.signature
                builder.provider = event.provider or builder.provider
            case RefusalDelta():
                self._builder(event.index, "refusal").chunks.append(event.text)
            case ToolCallStart():
                builder = self._builder(event.index, "tool_call")
                builder.tool_id, builder.tool_name = event.id, event.name
                builder.chunks.append(event.arguments)
                builder.provider_data = merge_provider_data(
                    builder.provider_data, event.provider_data
                )
            case ToolCallDelta():
                self._builder(event.index, "tool_call").chunks.append(event.arguments)
            case PartEvent():
                builder = self._builder(event.index, f"part:{len(self._parts)}")
                builder.whole, builder.malformed = event.part, event.malformed
            case PartDataEvent():
                if (target := self._latest.get(event.index)) is not None:
                    target.provider_data = merge_provider_data(
                        target.provider_data, {event.provider: event.data}
                    )
            case ResponseDataEvent():
                self._merge_data(event.provider_data)
            case UsageEvent():
                self._usage = event.usage
                self._merge_data(event.provider_data)
            case FinishEvent():
                self._finish, self._raw_finish = event.finish_reason, event.raw_finish_reason
                self._merge_data(event.provider_data)
            case AlternativeEvent():
                self._alternatives[event.index] = event.response
            case ErrorEvent():
                self.error = event

    def response(self) -> ChatResponse:
        """The response as far as the events went."""
        builders = list(self._parts.values())
        warnings = tuple(
            TranslationLoss(f"message.parts[{index}]", "malformed", builder.malformed)
            for index, builder in enumerate(builders)
            if builder.malformed is not None
        )
        parts = tuple(builder.build() for builder in builders)
        return ChatResponse(
            id=self._id,
            model=self._model,
            provider=self._provider,
            message=Message(role="assistant", parts=parts),
            finish_reason=self._finish,
            raw_finish_reason=self._raw_finish,
            usage=self._usage,
            alternatives=tuple(self._alternatives[k] for k in sorted(self._alternatives)),
            warnings=warnings,
            provider_data=self._provider_data,
        )

    def finished(self) -> ChatResponse:
        """The response of a stream that has ended; flagged when it never said
        why it stopped."""
        response = self.response()
        if response.finish_reason is not None:
            return response
        cut = TranslationLoss(
            "finish_reason",
            "malformed",
            "the stream ended without a finish reason; it may be cut off",
        )
        return response.model_copy(update={"warnings": (*response.warnings, cut)})

    def error_for(self) -> StreamError | None:
        """The error to raise when the stream carried one."""
        if self.error is None:
            return None
        provider_error = self.error.to_error(self._provider)
        return StreamError(
            f"the stream ended in an error: {provider_error}",
            partial=self.response(),
            error=provider_error,
        )


def accumulate(events: Iterable[StreamEvent]) -> ChatResponse:
    """The `ChatResponse` a stream of events describes.

    An error event, or an exception while the stream is read, raises
    `StreamError` whose `partial` holds what had arrived. A stream that ends
    without saying why it stopped (a connection closed early, cleanly) gives
    what arrived with a `malformed` warning on `finish_reason`: it may be cut off.
    """
    accumulator = StreamAccumulator()
    try:
        for event in events:
            accumulator.add(event)
            if (error := accumulator.error_for()) is not None:
                raise error
    except StreamError:
        raise
    except Exception as exc:
        raise _broken(accumulator, exc) from exc
    return accumulator.finished()


async def accumulate_async(events: AsyncIterable[StreamEvent]) -> ChatResponse:
    """`accumulate` for an async stream."""
    accumulator = StreamAccumulator()
    try:
        async for event in events:
            accumulator.add(event)
            if (error := accumulator.error_for()) is not None:
                raise error
    except StreamError:
        raise
    except Exception as exc:
        raise _broken(accumulator, exc) from exc
    return accumulator.finished()


def _broken(accumulator: StreamAccumulator, exc: Exception) -> StreamError:
    error = exc if isinstance(exc, ProviderError) else None
    return StreamError(f"the stream broke off: {exc}", partial=accumulator.response(), error=error)
