"""Helpers the adapters share while reading and writing wire bodies.

Nothing here knows any provider: reading a required field with a path-naming
error, turning an SDK object back into its wire dict, keeping the fields the
core does not model (`leftover`, `other_fields`, `overlay`) in the one layout
of `provider_data` (`keep`, `kept`: see `interlingua._provider_data`),
rewriting tool-call ids to fit a provider's rules, deterministically, so a
call and its result stay paired, meeting what a target caps (`_limits`:
the least reasoning a model has, the length of a field, the output tokens
a body asks for), `missing_results`, the results an encoder sends for the
calls a conversation went on without answering, `resolve_report`, the report
an encoder fills (the caller's, or one that warns), and `ErrorTypes`, the
error types and codes that pick a `ProviderError`'s class beside the HTTP
status (`COMMON_ERROR_TYPES`, extended by an adapter; `aws_error_types` and
`aws_exception`, Bedrock's two APIs'); `header_value` finds a header.

Wire bodies and core values never share mutable objects, so changing a body
never changes a frozen request, history or response, nor the other way round;
and neither is copied whole. A decoder reads the body in place and copies
what it keeps, which the core values do themselves: every JSON object a value
holds from the wire (provider data, an opaque block, a tool's schema, settings
kept verbatim) is `OwnedJSON`, copied when the value is made. An encoder
builds a fresh body, and copies what it lays into it from a core value:
`wire_fields` is a copy of a value's kept fields, and the rest goes through
`copy_json`.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, overload

from interlingua._adapter import split_model
from interlingua._answer_headers import header_value
from interlingua._aws_errors import AWS_ERRORS, aws_error_type, aws_error_types, aws_exception
from interlingua._call_ids import fit_tool_call_id, fitted_tool_call_id
from interlingua._elsewhere import (
    created_time,
    derived_id,
    reasoning_as_text,
    report_other_data,
    report_other_fields,
    report_other_providers,
    report_other_response,
    report_other_response_data,
    sent_messages,
    sent_tools,
    signed_by_claude,
)
from interlingua._errors import COMMON_ERROR_TYPES, DecodeError, ErrorTypes, format_path
from interlingua._levels import field_level, file_field_level, format_field_level
from interlingua._limits import ModelRules, OutputLimits, ReasoningOff, fitted_length, sent_off
from interlingua._parts import standard_base64
from interlingua._provider_data import (
    PROVIDER_DATA_SECTIONS,
    ProviderData,
    ProviderEntry,
    copy_json,
    keep,
    kept,
    merge_provider_data,
    wire_fields,
)
from interlingua._report import resolve_report
from interlingua._sanitize import MissingResults, missing_results
from interlingua._tools import FreeformText, freeform_arguments, freeform_input, freeform_piece
from interlingua._usage import usage_numbers

if TYPE_CHECKING:
    from interlingua._gateway import WireEvent
    from interlingua._stream import StreamEvent

__all__ = [
    "AWS_ERRORS",
    "COMMON_ERROR_TYPES",
    "EFFORT_BUDGETS",
    "PROVIDER_DATA_SECTIONS",
    "ErrorTypes",
    "FreeformText",
    "MissingResults",
    "ModelRules",
    "OutputLimits",
    "ProviderData",
    "ProviderEntry",
    "ReasoningOff",
    "StreamDecoder",
    "StreamEncoder",
    "WireReader",
    "as_wire_dict",
    "aws_error_type",
    "aws_error_types",
    "aws_exception",
    "copy_json",
    "created_time",
    "decode_events",
    "depth_checked",
    "derived_id",
    "dump_arguments",
    "effort_for_budget",
    "encode_events",
    "error_text",
    "field_level",
    "file_field_level",
    "fit_tool_call_id",
    "fitted_length",
    "fitted_tool_call_id",
    "format_field_level",
    "format_path",
    "freeform_arguments",
    "freeform_input",
    "freeform_piece",
    "header_value",
    "json_or_text",
    "keep",
    "kept",
    "leftover",
    "merge_provider_data",
    "missing_results",
    "other_fields",
    "overlay",
    "reasoning_as_text",
    "report_other_data",
    "report_other_fields",
    "report_other_providers",
    "report_other_response",
    "report_other_response_data",
    "resolve_report",
    "sent_messages",
    "sent_off",
    "sent_tools",
    "signed_by_claude",
    "standard_base64",
    "usage_numbers",
    "wire_fields",
    "wire_model",
]

T = TypeVar("T")

_MISSING: Any = object()


class StreamDecoder(Protocol):
    """An adapter's stream decoder, fed one payload at a time; `provider` names
    it in its errors."""

    provider: str

    def feed(self, payload: Any) -> Iterable[StreamEvent]: ...

    def finish(self) -> Iterable[StreamEvent]: ...


class StreamEncoder(Protocol):
    """An adapter's stream encoder (for a gateway), fed one core event at a time."""

    def feed(self, event: StreamEvent) -> Iterable[WireEvent]: ...

    def finish(self) -> Iterable[WireEvent]: ...


def encode_events(encoder: StreamEncoder, events: Iterable[StreamEvent]) -> Iterator[WireEvent]:
    """Every event through `encoder`, then what it holds at the end, lazily: the
    body of each adapter's `encode_stream`, as `decode_events` is of `decode_stream`."""
    for event in events:
        yield from encoder.feed(event)
    yield from encoder.finish()


def decode_events(decoder: StreamDecoder, payloads: Iterable[Any]) -> Iterator[StreamEvent]:
    """Every payload through `decoder`, then what it holds at the end: the body of
    each adapter's `decode_stream`. A payload nested too deeply is a `DecodeError`
    at `events[<index>]...` (`depth_checked`)."""
    for index, payload in enumerate(payloads):
        with depth_checked(payload, decoder.provider, f"events[{index}]"):
            events = decoder.feed(payload)
        yield from events
    yield from decoder.finish()


class depth_checked:  # a `with` statement's, lower case like `contextlib.suppress`
    """`with depth_checked(body, provider):` around a decoder: a body nested
    deeper than Python's stack allows (a decoder, `copy_json`, `json.dumps` and
    `==` all recurse) raises `DecodeError` at the path to its deepest value,
    not `RecursionError`. It costs nothing until the stack overflows."""

    __slots__ = ("body", "path", "provider")

    def __init__(self, body: Any, provider: str, path: str = "") -> None:
        self.body, self.provider, self.path = body, provider, path

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is not None and issubclass(kind, RecursionError):
            depth, steps = _deepest(self.body)
            # Its first steps name the field the deep value came in; the full path could be
            # longer than the message worth reading.
            where = format_path([*([self.path] if self.path else []), *steps[:_PATH_STEPS]])
            message = f"holds a value nested {depth} levels deep, too deep to decode"
            raise DecodeError(where, message, provider=self.provider) from None


_PATH_STEPS = 16


def _deepest(value: Any) -> tuple[int, list[str | int]]:
    """The depth of the deepest object or array in `value`, and the path to it;
    walked with a list for a stack, so any depth is measured."""
    best: tuple[int, Any] = (0, None)
    stack: list[tuple[Any, int, Any]] = [(value, 0, None)]  # value, depth, path as (step, parent)
    while stack:
        item, depth, node = stack.pop()
        if depth > best[0]:
            best = (depth, node)
        if isinstance(item, dict):
            stack.extend((child, depth + 1, (key, node)) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, depth + 1, (i, node)) for i, child in enumerate(item))
    steps: list[str | int] = []
    node = best[1]
    while node is not None:
        steps.append(node[0] if isinstance(node[0], int) else str(node[0]))
        node = node[1]
    return best[0], steps[::-1]


def json_or_text(body: Any) -> Any:
    """An error answer's body as JSON when it is JSON text or bytes, else the text
    (a proxy's HTML page, say); anything already parsed as it is."""
    if isinstance(body, bytes | bytearray):
        body = bytes(body).decode("utf-8", errors="replace")
    if isinstance(body, str):
        try:
            return json.loads(body)
        except (ValueError, RecursionError):
            return body
    return body


# An error page's title, its tags and its runs of white space.
_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_TAGS = re.compile(r"<!--.*?-->|<(script|style)\b.*?</\1\s*>|<[^>]*>", re.IGNORECASE | re.DOTALL)
_SPACE = re.compile(r"\s+")
ERROR_TEXT_LIMIT = 300


def error_text(status: int | None, payload: Any) -> str:
    """The message of an error answer whose body is no error object of the
    provider's: its text, trimmed (an HTML page's title, or its text without
    tags, on one line, at most `ERROR_TEXT_LIMIT` characters); a number or a
    JSON string as its text; else `HTTP <status>`."""
    if isinstance(payload, bool) or payload is None:
        text = "" if payload is None else json.dumps(payload)
    elif isinstance(payload, int | float):
        text = json.dumps(payload)
    elif isinstance(payload, str):
        title = _TITLE.search(payload)
        text = title.group(1) if title else _TAGS.sub(" ", payload) if "<" in payload else payload
        text = html.unescape(_SPACE.sub(" ", text)).strip()
    else:
        text = ""
    if len(text) > ERROR_TEXT_LIMIT:
        text = text[: ERROR_TEXT_LIMIT - 1].rstrip() + "…"
    if text:
        return text
    return f"HTTP {status}" if status is not None else "an error without a message"


def as_wire_dict(body: Any, *, by_alias: bool = False) -> dict[str, Any]:
    """A wire body as a fresh plain dict: a copy of a mapping, an SDK (pydantic)
    object as the JSON it was built from (`exclude_unset`, so no field the
    provider did not send appears).

    SDKs build responses leniently: an unknown block may sit in a field typed
    for another, and pydantic warns while dumping it. The dump is still the JSON
    received, so those warnings are silenced.
    """
    if isinstance(body, Mapping):
        return copy_json(dict(body))
    dump = getattr(body, "model_dump", None)
    if callable(dump):
        result = dump(mode="json", exclude_unset=True, by_alias=by_alias, warnings=False)
        if isinstance(result, dict):
            return result
    raise TypeError(f"expected a JSON object or an SDK model, got {type(body).__name__}")


class WireReader:
    """Reads fields of one provider's JSON, raising `DecodeError` with the path."""

    __slots__ = ("provider",)

    def __init__(self, provider: str) -> None:
        self.provider = provider

    def error(self, path: str, message: str) -> DecodeError:
        return DecodeError(path, message, provider=self.provider)

    def body(self, value: Any, path: str = "<root>") -> dict[str, Any]:
        """A whole body as a dict: a dict as it is (read in place; the decoder
        copies what it keeps), another mapping or an SDK object as the JSON it
        holds; anything else is a `DecodeError` at `path`."""
        if type(value) is dict:
            return value
        if isinstance(value, Mapping) or callable(getattr(value, "model_dump", None)):
            value = as_wire_dict(value)
        return self.object(value, path)

    def object(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(path, f"expected an object, got {_json_type(value)}")
        return value

    def array(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(path, f"expected an array, got {_json_type(value)}")
        return value

    @overload
    def field(self, body: Mapping[str, Any], key: str, path: str, kind: type[T]) -> T: ...

    @overload
    def field(
        self, body: Mapping[str, Any], key: str, path: str, kind: type[T], default: T | None
    ) -> T | None: ...

    def field(
        self,
        body: Mapping[str, Any],
        key: str,
        path: str,
        kind: type[T],
        default: Any = _MISSING,
    ) -> T | None:
        """`body[key]`, checked to be a `kind`; `path` names `body` itself.

        Without a default the field is required; with one, a missing or null
        field gives the default.
        """
        value = body.get(key)
        if value is None:
            if default is _MISSING:
                raise self.error(_joined(path, key), "required field is missing")
            return default  # type: ignore[no-any-return]
        if type(value) is kind:
            return value
        # A JSON number may be written without a fraction (`"temperature": 1`);
        # bool is an int in Python, and never what a number field means.
        accepted: tuple[type[Any], ...] = (int, float) if kind is float else (kind,)
        if not isinstance(value, accepted) or (kind in {int, float} and isinstance(value, bool)):
            where = _joined(path, key)
            raise self.error(where, f"expected {_json_name(kind)}, got {_json_type(value)}")
        return value  # type: ignore[no-any-return]


def _joined(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _json_name(kind: type[Any]) -> str:
    return {str: "a string", int: "an integer", float: "a number", bool: "a boolean"}.get(
        kind, "an object" if kind is dict else "an array" if kind is list else kind.__name__
    )


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return _json_name(type(value))


def wire_model(model: str, provider: str) -> str:
    """The model id to send to `provider`: its own `"provider:"` routing prefix
    taken off (`"anthropic:claude-sonnet-4-5"` -> `"claude-sonnet-4-5"`); any
    other model string is the provider's to read, and goes as it is."""
    routed, bare = split_model(model)
    return bare if routed == provider else model


# `json.dumps` with options builds an encoder per call; one built once writes the same.
_ARGUMENTS_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dump_arguments(value: Any) -> str:
    """Tool arguments given as an object (Anthropic's `input`), as JSON text."""
    return _ARGUMENTS_ENCODER.encode(value)


def leftover(wire: Mapping[str, Any], modeled: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of `wire` that `modeled` does not give back, objects compared
    field by field. A field `modeled` gives with another value is the core's to
    decide and is not kept.

    With `overlay`: for a wire object `w` and the object `m` that encoding the
    core's reading of `w` gives, `overlay(m, leftover(w, m)) == w`. Adapters keep
    `leftover(...)` in a `provider_data` or `provider_options` slot, which is how
    `encode(decode(body)) == body` holds for fields interlingua has never heard of.
    """
    rest: dict[str, Any] = {}
    for key, value in wire.items():
        if key not in modeled:
            rest[key] = value
        elif type(value) is dict and isinstance(modeled[key], dict):
            inner = leftover(value, modeled[key])
            if inner:
                rest[key] = inner
    return rest


def other_fields(wire: Mapping[str, Any], modeled: Iterable[str]) -> dict[str, Any]:
    """The fields of `wire` outside `modeled`, verbatim: what an object keeps
    when the codec rebuilds the `modeled` ones itself (where `leftover` compares
    with an encoding instead)."""
    skip = frozenset(modeled)
    return {key: value for key, value in wire.items() if key not in skip}


def overlay(modeled: Mapping[str, Any], extras: Mapping[str, Any]) -> dict[str, Any]:
    """`modeled` with the fields of `extras` it lacks filled in, objects merged."""
    merged = dict(modeled)
    for key, value in extras.items():
        if key not in merged:
            merged[key] = value
        elif isinstance(value, dict) and isinstance(merged[key], dict):
            merged[key] = overlay(merged[key], value)
    return merged


# A thinking token budget and a reasoning effort say one thing, how much the
# model may think: a budget up to 4,096 tokens is `low`, up to 16,384
# `medium`, more `high`; and an effort is the budget at its top (`high`: 32,768).
EFFORT_BUDGETS: dict[str, int] = {"low": 4096, "medium": 16384, "high": 32768}


def effort_for_budget(budget_tokens: int) -> str:
    """The reasoning effort a thinking token budget means (`EFFORT_BUDGETS`)."""
    return next((e for e, top in EFFORT_BUDGETS.items() if budget_tokens <= top), "high")
