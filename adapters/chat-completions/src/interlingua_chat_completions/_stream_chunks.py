"""The chunks of a Chat Completions stream written for a dialect's server: the frame
`ChatStreamEncoder` (`_stream_encoder`) puts each delta in, and the chunks that wait
for the end.

- Every chunk repeats the response's `id`, `object`, `created`, `model` and
  `RESPONSE_FIELDS`; the response's other fields go on the next chunk out (`start`).
  A stream made elsewhere with no id gets a random one of this API's form, and an
  empty `model` where it has none.
- The role chunk, `delta: {"role": "assistant", "content": ""}` (and `refusal: null`
  where the dialect has the field), comes before the answer's first (`begin`); each
  delta of the first choice is a chunk of its own (`emit`).
- The last chunks wait for the last event (`closing`): the finish chunk, with the
  tool calls held whole and the text's annotations, then the usage, on it or in a
  chunk of its own (`choices: []`) as the dialect puts it (`usage_chunk`,
  `stream_usage_fields`). The usage goes only where the server would send it
  (`usage`: `ChatCompletionsDialect.streams_usage` of the request answered): an
  OpenAI client that did not ask (`stream_options.include_usage`) gets no chunk
  without choices, which code reading every chunk's `choices[0]` would trip on.
  Nothing is reported of a usage not sent: the request asked for none.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from interlingua import (
    FinishEvent,
    FinishReason,
    StreamStart,
    TranslationReport,
    UsageEvent,
    WireEvent,
)
from interlingua.codec import (
    ProviderData,
    copy_json,
    kept,
    overlay,
    report_other_response_data,
)
from interlingua_chat_completions._dialect import ChatCompletionsDialect
from interlingua_chat_completions._finish import encode_finish_reason
from interlingua_chat_completions._response import ID_PREFIX, created_of
from interlingua_chat_completions._stream_calls import CallWriter
from interlingua_chat_completions._wire import CHUNK_OBJECT, RESPONSE_FIELDS

__all__ = ["ChunkWriter"]

_Finish = tuple[FinishReason | None, str | None, str | None]  # meaning, wire word, who made it


class ChunkWriter:
    """The chunks of one response of `dialect`'s, and what its last ones hold."""

    def __init__(
        self, dialect: ChatCompletionsDialect, report: TranslationReport, *, usage: bool
    ) -> None:
        self.dialect, self.provider, self.report = dialect, dialect.provider, report
        self.with_usage = usage  # whether the last chunks carry the usage
        self.head: dict[str, Any] = {"object": CHUNK_OBJECT, "created": created_of({})}
        self.fields: dict[str, Any] = {}  # the response's fields beside the head
        self.pending: dict[str, Any] = {}  # top-level fields for the next chunk
        self.source: str | None = None  # the provider the events came from
        self.started = self.listed = False
        self.seen: set[str] = set()  # the other providers' fields reported
        self.calls = CallWriter(dialect)  # the tool calls, numbered or held whole
        self.finish_event: FinishEvent | None = None
        self.finish_data: ProviderData = {}
        self.annotations: list[Any] = []
        self.usage: dict[str, Any] | None = None

    def chunk(self, choices: list[dict[str, Any]], **fields: Any) -> WireEvent:
        """A chunk of the response with `choices`, and the fields waiting for one."""
        chunk = {**self.head, "choices": choices, **self.pending, **fields}
        self.pending = {}
        return WireEvent(data=chunk)

    def choice(
        self, delta: dict[str, Any], finish_reason: str | None = None, *, index: int = 0
    ) -> dict[str, Any]:
        defaults = copy_json(dict(self.dialect.choice_defaults))
        return {"index": index, "delta": delta, **defaults, "finish_reason": finish_reason}

    def begin(self) -> list[WireEvent]:
        """The role chunk, before the answer's first."""
        if self.started:
            return []
        self.started = True
        delta: dict[str, Any] = {"role": "assistant", "content": ""}
        if self.dialect.refusal_field:
            delta["refusal"] = None
        return [self.chunk([self.choice(delta)])]

    def emit(self, delta: dict[str, Any]) -> list[WireEvent]:
        """The chunk of one delta of the first choice (after the role chunk)."""
        if isinstance(delta.get("content"), list):
            self.listed = True
        return [*self.begin(), self.chunk([self.choice(delta)])]

    def start(self, event: StreamStart) -> list[WireEvent]:
        """The response's identity, in every chunk; its own fields, in the first."""
        self.source = event.provider
        report_other_response_data(event.provider_data, self.provider, self.report, self.seen)
        entry = kept(event, self.provider)
        fields = copy_json(dict(entry.get("fields", {"created": created_of(event.provider_data)})))
        fields.pop("object", None)
        repeated = {key: fields.pop(key) for key in RESPONSE_FIELDS if key in fields}
        head: dict[str, Any] = {}
        if event.id is not None:
            head["id"] = event.id
        elif "fields" not in entry:
            # Made elsewhere with no id (Bedrock's Converse): one of this API's form.
            head["id"] = f"{ID_PREFIX}{secrets.token_hex(25)}"
        head["object"] = CHUNK_OBJECT
        if "created" in repeated:
            head["created"] = repeated.pop("created")
        if event.model is not None or "fields" not in entry:
            head["model"] = event.model or ""
        self.head = {**head, **repeated}
        self.fields.update(fields)
        self.pending.update(fields)
        return self.begin()

    def keep_usage(self, event: UsageEvent) -> None:
        """The usage, as the dialect writes it, for the last chunks (where they carry it)."""
        if not self.with_usage:
            return
        report_other_response_data(event.provider_data, self.provider, self.report, self.seen)
        elsewhere = self.source != self.provider
        usage = self.dialect.usage.encode(event.usage, elsewhere=elsewhere)
        extra = kept(event, self.provider).get("echo", {}).get("usage")
        self.usage = overlay(usage, copy_json(extra)) if extra else usage

    def closing(self) -> list[WireEvent]:
        """The chunks held back: the finish chunk, the usage (on it, or apart)."""
        choices = [self.finish_choice()] if self.finish_event is not None else []
        if held := self.calls.finish():
            # Calls held whole go on the finish chunk (Mistral's `content: null` beside).
            last = {"content": None} if self.dialect.whole_calls else {}
            delta = {**last, "tool_calls": held, **(choices[0]["delta"] if choices else {})}
            choices = [{**choices[0], "delta": delta}] if choices else [self.choice(delta)]
        usage = {}
        if self.usage is not None:
            usage = self.dialect.stream_usage_fields(self.usage, self.fields)
        if choices and not self.dialect.usage_chunk:
            return [self.chunk(choices, **usage)]
        closing = [self.chunk(choices)] if choices or self.pending else []
        if usage:
            closing.append(self.chunk([], **usage))
        return closing

    def finish_choice(self) -> dict[str, Any]:
        """The first choice's last chunk, with the text's annotations."""
        event = self.finish_event
        assert event is not None
        finish = (event.finish_reason, event.raw_finish_reason, self.source)
        echo = self.finish_data.get(self.provider, {}).get("echo", {})
        choice = self.last_choice(0, finish, echo, listed=self.listed)
        if self.annotations:
            choice["delta"]["annotations"] = self.annotations
        return choice

    def last_choice(
        self, index: int, finish: _Finish, echo: Mapping[str, Any], *, listed: bool, where: str = ""
    ) -> dict[str, Any]:
        """A choice's last chunk: its finish reason (its meaning, the wire's word,
        who made it), and the choice's and the message's fields kept in `echo`."""
        message = echo.get("message", {})
        delta = copy_json(message.get("fields", {}))
        if message.get("content") == "list" and not listed:
            # The text came as content items: an empty one says so.
            delta["content"] = [{"type": "text", "text": ""}]
        reason, raw, made_by = finish
        wire = encode_finish_reason(
            reason,
            raw,
            made_by=made_by,
            provider=self.provider,
            reasons=self.dialect.finish_reasons,
            report=self.report,
            path=f"{where}finish_reason",
        )
        choice = self.choice(delta, wire, index=index)
        choice.update(copy_json(echo.get("choice", {}).get("fields", {})))
        return choice
