"""Tool calls in a Chat Completions stream, read and written.

Reading (`CallReader`): each entry of a delta's `tool_calls` is a piece of one
call, named by its `index`; the first piece carries the call's `id`, name and
`type`, the later ones more of its arguments. A dialect that streams each call
whole (`whole_calls`: Mistral) sends it with no `index` (and no `type`): such
calls are told apart by their place in the chunk (two entries of one chunk
are two calls, in their order) and by their id (an entry of a later chunk
with the id of a call already started continues it); each new one takes the
lowest number no call has. Both forms may come in one stream.

Writing (`CallWriter`): the stream's calls are numbered from 0 in the order
they start; each piece goes as it comes, under its call's `index`. For a
dialect that streams calls whole, each call is held until the finish chunk
and written there whole, with no `index`, as that server sends it.

Either way a call is the `tool_calls` entry `encode_tool_call` writes, so a
streamed call accumulates to the call of the answer not streamed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from interlingua import StreamEvent, ToolCallDelta, ToolCallPart, ToolCallStart
from interlingua.codec import WireReader, freeform_piece, keep, kept
from interlingua_chat_completions._calls import (
    answer_custom_tools,
    call_fragment,
    call_kind,
    custom_call,
    decode_arguments,
    encode_tool_call,
    plain_name,
)
from interlingua_chat_completions._dialect import ChatCompletionsDialect

__all__ = ["CallReader", "CallWriter"]


class CallReader:
    """One choice's `tool_calls` pieces to `ToolCallStart` and `ToolCallDelta` events."""

    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.provider = dialect.provider
        self.whole_calls = dialect.whole_calls
        self.numbered_calls = dialect.numbered_calls
        self.started: set[int] = set()  # the numbers of the calls started
        self.ids: dict[str, int] = {}  # a started call's number, by its id
        self.in_chunk: set[int] = set()  # the numbers the current chunk's entries took
        self.custom: set[int] = set()  # the custom calls whose arguments are still open

    def close(self) -> list[StreamEvent]:
        """The end of each custom call's arguments, once its choice is finished."""
        events: list[StreamEvent] = [
            ToolCallDelta(index=index, arguments=freeform_piece("", last=True))
            for index in sorted(self.custom)
        ]
        self.custom = set()
        return events

    def read(self, calls: list[Any], path: str, read: WireReader) -> list[StreamEvent]:
        """The events of one delta's `tool_calls` (at `path`)."""
        self.in_chunk = set()
        events: list[StreamEvent] = []
        for position, call in enumerate(calls):
            where = f"{path}[{position}]"
            events.extend(self.piece(read.object(call, where), where, read))
        return events

    def number(self, call: Mapping[str, Any], path: str, read: WireReader) -> int:
        """The number of the call an entry is a piece of: its `index`, or (a whole
        call) the call of the same id started in an earlier chunk, else a new one."""
        if "index" in call or not self.whole_calls:
            number = read.field(call, "index", path, int)
        else:
            # A whole call: a new one, unless a call of an earlier chunk has its id.
            call_id = read.field(call, "id", path, str, None)
            known = self.ids.get(call_id) if call_id else None
            if known is None or known in self.in_chunk:
                known = next(n for n in itertools.count() if n not in self.started)
            number = known
        self.in_chunk.add(number)
        return number

    def piece(self, call: Mapping[str, Any], path: str, read: WireReader) -> list[StreamEvent]:
        index = self.number(call, path, read)
        kind = "custom" if "custom" in call else "function"
        inner = read.field(call, kind, path, dict, None) or {}
        where = f"{path}.{kind}"
        arguments, forms = decode_arguments(
            inner.get("arguments" if kind == "function" else "input")
        )
        arguments = read.field({"arguments": arguments}, "arguments", where, str, None)
        name = read.field(inner, "name", where, str, None) or ""
        call_id = read.field(call, "id", path, str, None) or ""
        first = index not in self.started
        if kind == "custom":
            # The input, escaped, as the arguments `{"input": ...}` the call decodes to.
            arguments = freeform_piece(arguments or "", first=first)
            self.custom.add(index)
        if not first:
            return [ToolCallDelta(index=index, arguments=arguments)] if arguments else []
        self.started.add(index)
        if call_id:
            self.ids.setdefault(call_id, index)
        # Only the first piece of a call carries its id, name and type.
        if kind == "custom":
            name, forms["type"] = custom_call(name, "")[0], "custom"
        else:
            forms.update(plain_name(name))
        if "type" not in call:
            forms["typed"] = False
        numbered = {"index": index} if self.numbered_calls else None
        data = keep(self.provider, fields=numbered, forms=forms or None)
        return [
            ToolCallStart(
                index=index, id=call_id, name=name, arguments=arguments or "", provider_data=data
            )
        ]


# A call held whole to the finish chunk: its first event, and its argument pieces.
_Held = tuple[ToolCallStart, list[str]]


class CallWriter:
    """A stream's tool calls as the dialect's chunks write them; see the module doc."""

    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.provider = dialect.provider
        # Quirk: a streamed call is a function's (the openai SDK's `ChoiceDeltaToolCall`
        # has no custom type): one made elsewhere goes so; OpenAI's own, as it came.
        self.custom_tools = answer_custom_tools(server_takes_them=False)
        self.whole_calls = dialect.whole_calls
        self.numbers = itertools.count()  # the wire's `index` of the first choice's calls
        self.written: dict[int, tuple[str, int]] = {}  # a call's kind and number, by event index
        self.held: list[_Held | dict[str, Any]] = []  # the calls for the finish chunk
        self.pieces: dict[int, list[str]] = {}  # a held call's arguments, by event index

    def start(self, event: ToolCallStart) -> dict[str, Any] | None:
        """The delta of a call's first piece; None when the call is held whole (a
        custom call too: its input is written from the arguments complete)."""
        if self.whole_calls or self.is_custom(event):
            self.pieces[event.index] = pieces = [event.arguments]
            self.held.append((event, pieces))
            return None
        delta = self.numbered({"tool_calls": [self.call(event, event.arguments)]})
        (call,) = delta["tool_calls"]
        self.written[event.index] = ("custom" if "custom" in call else "function", call["index"])
        return delta

    def is_custom(self, event: ToolCallStart) -> bool:
        forms = kept(event, self.provider).get("forms", {})
        return call_kind(event.name, forms, self.custom_tools) == "custom"

    def more(self, index: int, arguments: str) -> dict[str, Any] | None:
        """The delta of more of a call's arguments; None when the call is held whole."""
        if (pieces := self.pieces.get(index)) is not None:
            pieces.append(arguments)
            return None
        kind, number = self.written[index]
        return {"tool_calls": [call_fragment(kind, number, arguments)]}

    def hold(self, delta: dict[str, Any]) -> dict[str, Any]:
        """A delta of whole parts of the first choice, its calls numbered on, or
        taken out of it to be held whole."""
        if self.whole_calls and "tool_calls" in delta:
            self.held.extend(delta.pop("tool_calls"))
        return self.numbered(delta)

    def finish(self) -> list[dict[str, Any]]:
        """The calls held whole, their arguments complete; none after."""
        calls = [
            held if isinstance(held, dict) else self.call(held[0], "".join(held[1]))
            for held in self.held
        ]
        self.held, self.pieces = [], {}
        return self.numbered({"tool_calls": calls})["tool_calls"] if calls else []

    def numbered(
        self, delta: dict[str, Any], numbers: Iterator[int] | None = None
    ) -> dict[str, Any]:
        """`delta` with each call's `index` first, the next of `numbers` (else the
        stream's), over one it kept; where calls stream whole, with none."""
        if "tool_calls" in delta:
            numbers = self.numbers if numbers is None else numbers
            calls = [
                {k: v for k, v in call.items() if k != "index"} for call in delta["tool_calls"]
            ]
            whole = self.whole_calls
            delta["tool_calls"] = [
                call if whole else {"index": next(numbers), **call} for call in calls
            ]
        return delta

    def call(self, event: ToolCallStart, arguments: str) -> dict[str, Any]:
        """The `tool_calls` entry of a call, with `arguments`."""
        part = ToolCallPart(
            id=event.id, name=event.name, arguments=arguments, provider_data=event.provider_data
        )
        return encode_tool_call(part, part.id, kept(event, self.provider), self.custom_tools)
