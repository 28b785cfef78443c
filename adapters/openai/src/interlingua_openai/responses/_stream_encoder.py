"""Core stream events to the Responses API's typed stream events, as the API
streams the same answer.

`encode_stream(events)` is lazy: `ResponsesStreamEncoder.feed` turns each core
event into the events it allows at once, and `finish` writes the last ones.
Each event carries its `sequence_number`; its SSE `event` name is its `type`.

    response.created, response.in_progress   the response so far, in_progress
    response.output_item.added ... .done     each item and its own events (`_stream_items`)
    response.completed                       (.incomplete, .failed) the whole response

Invariants:

- Every item done, and the final response, is written by `encode_response`'s
  own part codec from the parts accumulated (`StreamAccumulator`), so the two
  never disagree, and `decode_stream` of what is written accumulates to what
  the events given accumulate to.
- An item is done when a part of another item begins, or the stream ends;
  calls started together, before any has arguments, are done together.
  Text and refusal parts in a row share a message item when they came from
  the same one (or were made elsewhere), as `encode_response` groups them; a
  part that opens empty waits for its next event, by which the item it came
  from is known.
- What the API cannot take (another provider's reasoning, a part the model
  does not send here) is left out and reported by that codec; the final
  response reports nothing twice. A delta that comes after its item is done
  is sent all the same, and reported.
- `response.created` (and `response.in_progress`) hold the response as the
  API sends it before any output: its id, `object`, `created_at`, status
  `in_progress`, model, `output: []`, `usage: null`, and the fields the
  stream's start kept (this API's own start keeps the settings it echoes);
  only fields the final response has too, so the two never disagree. What
  the core does not know yet is not written early. A stream made elsewhere
  gets the id and `created_at` of `encode_response` (`_response.Head`), fixed
  at its start and written in its final response too; one that names no
  answer, a random id.
- Every item carries its id from its `added` event on: its own, or for an
  item made elsewhere one derived from the response's id and its `call_id`
  (its place), the same in its done item and the final response
  (`_response.with_id`, which `encode_response` applies to every body).
- An `ErrorEvent` ends the stream: this API's own `error` event is written
  back as one; any other error as `response.failed`, holding what arrived,
  its error's `code` one of this API's and its own type or code as `type`.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Iterator
from typing import Any

from typing_extensions import assert_never

from interlingua import (
    AlternativeEvent,
    ChatRequest,
    ErrorEvent,
    FinishEvent,
    FinishReason,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    RefusalDelta,
    RefusalPart,
    ResponseDataEvent,
    StreamAccumulator,
    StreamEvent,
    StreamStart,
    TextDelta,
    TextPart,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    TranslationLoss,
    TranslationReport,
    UsageEvent,
    WireEvent,
)
from interlingua.codec import copy_json, encode_events, kept, resolve_report
from interlingua_openai.responses._parts import PartEncoder
from interlingua_openai.responses._response import Head, encode_body, head_of
from interlingua_openai.responses._stream_items import (
    CONTENT_KINDS,
    Call,
    Item,
    Message,
    Part,
    Wire,
    item_for,
)
from interlingua_openai.responses._wire import PROVIDER

__all__ = ["ResponsesStreamEncoder", "encode_stream"]

_PartEvents = (
    TextDelta
    | RefusalDelta
    | ReasoningDelta
    | ReasoningSignature
    | ToolCallStart
    | ToolCallDelta
    | PartEvent
)
# The kind of part an event builds (the accumulator's keys; a whole part by its type).
_DELTA_KINDS: dict[type[StreamEvent], str] = {
    TextDelta: "text",
    RefusalDelta: "refusal",
    ReasoningDelta: "reasoning",
    ReasoningSignature: "reasoning",
    ToolCallStart: "tool_call",
    ToolCallDelta: "tool_call",
}
_PART_KINDS: dict[type[object], str] = {
    TextPart: "text",
    RefusalPart: "refusal",
    ReasoningPart: "reasoning",
    ToolCallPart: "tool_call",
}
# The fields a response opens with, as the API writes `response.created`.
_CREATED_HEAD = ("id", "object", "created_at")
# The event that ends a stream, by the final response's status.
_ENDINGS = {"incomplete": "response.incomplete", "failed": "response.failed"}
# The `code` of a failed response whose error has none of this API's, by its class.
_FAILURE_CODES = {"RateLimitError": "rate_limit_exceeded"}
# The codes of a failed response's `error` (the SDK's `ResponseError.code`).
_ERROR_CODES = frozenset(
    {
        "server_error",
        "rate_limit_exceeded",
        "invalid_prompt",
        "data_residency_mismatch",
        "bio_policy",
        "misalignment_policy_violation",
        "vector_store_timeout",
        "invalid_image",
        "invalid_image_format",
        "invalid_base64_image",
        "invalid_image_url",
        "image_too_large",
        "image_too_small",
        "image_parse_error",
        "image_content_policy_violation",
        "invalid_image_mode",
        "image_file_too_large",
        "unsupported_image_media_type",
        "empty_image_file",
        "failed_to_download_image",
        "image_file_not_found",
    }
)


def encode_stream(
    events: Iterable[StreamEvent],
    *,
    report: TranslationReport | None = None,
    request: ChatRequest | None = None,
) -> Iterator[WireEvent]:
    """The Responses API stream events for core stream events, one event at a
    time; losses go to `report`. `request`, the one the stream answers, changes
    nothing: the API's stream gives the usage whatever the request
    (`response.completed`)."""
    return encode_events(ResponsesStreamEncoder(report=report), events)


def stream_encoder(
    *, report: TranslationReport | None = None, request: ChatRequest | None = None
) -> ResponsesStreamEncoder:
    """An encoder fed one event at a time, for a gateway whose events arrive one by
    one (`encode_stream` is it over an iterable)."""
    return ResponsesStreamEncoder(report=report)


def _unnamed() -> Head:
    """The head of a stream that names no answer: nothing it carries says which
    answer it is, so a random id in this API's form, and the time now."""
    return Head(f"resp_{secrets.token_hex(25)}", int(time.time()))


class _Once(TranslationReport):
    """Passes each distinct loss on to `report` once: the final response is
    written again from parts the stream has written, and reported, already."""

    __slots__ = ("inner", "seen")

    def __init__(self, report: TranslationReport) -> None:
        super().__init__(target=report.target)
        self.inner = report
        self.seen: set[TranslationLoss] = set()

    def _add(self, loss: TranslationLoss) -> None:
        if loss not in self.seen:
            self.seen.add(loss)
            record = self.inner.dropped if loss.kind == "dropped" else self.inner.transformed
            record(loss.path, loss.reason)


class ResponsesStreamEncoder:
    """Turns core stream events into Responses API stream events, one at a time."""

    def __init__(self, report: TranslationReport | None = None) -> None:
        self.report = _Once(resolve_report(report, PROVIDER))
        self.wire = Wire(PartEncoder(self.report, output=True))
        self.whole = StreamAccumulator()
        self.parts: dict[tuple[int, str], Part] = {}
        self.latest: dict[int, Part] = {}  # the part last begun at each index
        self.pending: Part | None = None  # a part opened empty, not on the wire yet
        self.open: list[Item] = []  # one item, or calls started together
        self.head: Head | None = None  # a response made elsewhere: its id and time
        self.started = False
        self.ended = False

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        if self.ended:
            return []
        if isinstance(event, StreamStart):
            self.whole.add(event)
            return [] if self.started else self.start()
        out = [] if self.started else self.start()
        self.whole.add(event)
        match event:
            case (
                TextDelta()
                | RefusalDelta()
                | ReasoningDelta()
                | ReasoningSignature()
                | ToolCallStart()
                | ToolCallDelta()
                | PartEvent()
            ):
                return out + self.part_event(event)
            case PartDataEvent():
                return out + self.part_data(event)
            case ErrorEvent():
                return out + self.fail(event)
            case UsageEvent() | FinishEvent() | ResponseDataEvent() | AlternativeEvent():
                return out  # the final response carries them
            case _:
                assert_never(event)

    def finish(self) -> list[WireEvent]:
        """The items still open, then the whole response."""
        if self.ended:
            return []
        self.ended = True
        out = [] if self.started else self.start()
        out += self.settle() + self.close_open()
        response = encode_body(self.whole.response(), self.report, self.head)
        ending = _ENDINGS.get(str(response.get("status")), "response.completed")
        return [*out, self.wire.emit(ending, response=response)]

    def start(self) -> list[WireEvent]:
        self.started = True
        so_far = self.whole.response()
        if "fields" not in kept(so_far, PROVIDER):
            # Made elsewhere: the id and time written now are the final response's.
            self.head = head_of(so_far) if so_far.id is not None else _unnamed()
        body = encode_body(so_far, self.report, self.head)
        self.wire.response_id = body["id"]
        # As the API opens a stream, in its order: nothing output, nothing counted
        # yet; in progress, unless this API's own start said otherwise (`queued`).
        head = {key: body.pop(key) for key in _CREATED_HEAD if key in body}
        head["status"] = body.pop("status", "in_progress")
        response = {**head, **body, "output": [], "usage": None}
        return [
            self.wire.emit("response.created", response=response),
            self.wire.emit("response.in_progress", response=copy_json(response)),
        ]

    # --- parts ---

    def part_event(self, event: _PartEvents) -> list[WireEvent]:
        if isinstance(event, PartEvent):
            key = (event.index, f"part:{len(self.parts)}")
            kind = _PART_KINDS.get(type(event.part), "whole")
        else:
            key = (event.index, _DELTA_KINDS[type(event)])
            kind = key[1]
        part = self.parts.get(key)
        out = [] if part is not None and part is self.pending else self.settle()
        if part is None:
            part = self.parts[key] = self.latest[event.index] = Part(len(self.parts), kind)
        part.events.add(event)
        if not part.placed:
            if isinstance(event, TextDelta | RefusalDelta | ReasoningDelta) and not event.text:
                self.pending = part  # opened empty: placed when the item it is of is known
                return out
            out += self.place(part)
        if part.item is None:
            return out  # left out of the wire
        if part.done:
            self.late(part, "came after its part of the output was done; sent after it")
        return out + part.item.delta(part, event)

    def part_data(self, event: PartDataEvent) -> list[WireEvent]:
        part = self.latest.get(event.index)
        out = [] if part is not None and part is self.pending else self.settle()
        if part is not None:
            part.events.add(event)
            if part.done and event.provider == PROVIDER:
                self.late(
                    part, "its data came after its output item was done; in the response only"
                )
        return out

    def late(self, part: Part, reason: str) -> None:
        if not part.late:
            part.late = True
            self.report.transformed(f"message.parts[{part.position}]", reason, "hint")

    def settle(self) -> list[WireEvent]:
        """Places the part that waits, an event of another having come."""
        return [] if self.pending is None else self.place(self.pending)

    def place(self, part: Part) -> list[WireEvent]:
        """Puts a new part on the wire: in the open message when it is text that
        continues it, else in an item of its own, once the open ones are done."""
        part.placed = True
        self.pending = None
        last = self.open[-1] if self.open else None
        if isinstance(last, Message) and last.continued_by(part):
            return last.add(part)
        # Calls started together, before any has arguments, stay open side by side.
        together = part.kind == "tool_call" and isinstance(last, Call) and not last.streamed
        out = [] if together else self.close_open()
        if part.kind in CONTENT_KINDS:
            item: Item = Message(self.wire, part)
        elif (encoded := self.begun(part)) is None:
            return out  # left out, and reported
        else:
            item = item_for(self.wire, part, encoded)
        self.open.append(item)
        return out + item.open(part)

    def begun(self, part: Part) -> dict[str, Any] | None:
        """The item a part that is not text begins (None: left out, and reported)."""
        encoder = self.wire.opening if part.kind == "tool_call" else self.wire.encoder
        return encoder.assistant_item(part.built(), "message", part.position)

    def close_open(self) -> list[WireEvent]:
        done, self.open = self.open, []
        return [event for item in done for event in item.close()]

    # --- the end ---

    def fail(self, event: ErrorEvent) -> list[WireEvent]:
        """This API's own `error` event as it came; any other error as a failed response."""
        self.ended = True
        body = event.body if isinstance(event.body, dict) else {}
        if event.provider == PROVIDER and body.get("type") == "error":
            param = body.get("param")
            return [self.wire.emit("error", code=event.code, message=event.message, param=param)]
        failed = self.whole.response().model_copy(update={"finish_reason": FinishReason.ERROR})
        # Failed, whatever status the start's fields said.
        response = {**encode_body(failed, self.report, self.head), "status": "failed"}
        if response.get("error") is None:
            response["error"] = _failure(event)
        return [self.wire.emit("response.failed", response=response)]


def _failure(event: ErrorEvent) -> dict[str, Any]:
    """A failed response's `error` for another API's error: a `code` of this
    API's (the error's own, its class's, else `server_error`), and the error's
    own type (or code) as its `type`, as the API records an error's original type."""
    given = event.code or event.error_type
    if given in _ERROR_CODES:
        return {"code": given, "message": event.message}
    code = _FAILURE_CODES.get(event.error_class or "", "server_error")
    error: dict[str, Any] = {"code": code, "message": event.message}
    if given is not None:
        error["type"] = event.error_type or given
    return error
