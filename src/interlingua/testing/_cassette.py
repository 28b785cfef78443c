"""Recorded provider traffic, read into plain values.

`load_cassette(path)` reads three kinds of recording into one shape:

* vcrpy cassettes (YAML). A body is `body: {string: ...}` (or a bare
  string), a str or `!!binary` bytes; bytes are gzip-compressed when the
  headers say `Content-Encoding: gzip`.
* pydantic-ai's cassettes, vcrpy files that keep JSON bodies parsed under
  `parsed_body`; the wire body is rebuilt as `json.dumps(parsed_body)`.
* vercel-ai response-body fixtures, which have no request: `*.json` holds
  one response body, `*.chunks.txt` one JSON stream chunk per line.
* interlingua's own recordings (`fixtures/`): a `.json` file whose `format`
  is `interlingua.recording`; see `RECORDING_FORMAT`.
* provider-neutral cassettes, whose `format` is `NEUTRAL_FORMAT`: the calls
  in the core's terms (`_neutral`), given as `Cassette.neutral`.

What it gives is the values of `_records`.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from interlingua._errors import CassetteError, InvalidDataError, format_path
from interlingua.testing._neutral import NEUTRAL_FORMAT, read_neutral
from interlingua.testing._records import (
    AMAZON_EVENT_STREAM,
    LINE_BREAK,
    Cassette,
    Headers,
    Interaction,
    NeutralInteraction,
    RecordedRequest,
    RecordedResponse,
    SSEEvent,
    event_stream_events,
    parse_sse,
)

__all__ = ["RECORDING_FORMAT", "load_cassette"]

RECORDING_FORMAT = "interlingua.recording"
"""The project's own recording file, one JSON object:

    {"format": "interlingua.recording", "version": 1, "description": "...",
     "interactions": [{
        "request": {"method": "POST", "url": "...", "headers": {"name": "value"}, "json": {...}},
        "response": {"status": 200, "headers": {...},
                     "json": {...}                      # a JSON body, or
                     "sse": "event: name\ndata: {...}\n\n..."   # a stream's exact text, or
                     "sse": [{"event": "name", "data": {...} | "[DONE]"}, ...]}}]}

JSON bodies are kept as JSON values so that they read and diff well; the wire
bytes are rebuilt from them (`json.dumps`). A stream is kept as its exact text
(what `record` writes) or, in hand-made files, as a list of events rebuilt as
`event:`/`data:` lines. Any other body, of a request or a response, is kept as
`"text"` (UTF-8) or `"base64"`.
"""

_Loc = tuple[str | int, ...]


def load_cassette(path: str | os.PathLike[str]) -> Cassette:
    """Read a vcrpy cassette (`.yaml`), a vercel-ai fixture (`.json`,
    `.chunks.txt`) or one of interlingua's recordings, wire or neutral (`.json`).

    Raises `CassetteError` naming the file, and the place in it, for anything
    that cannot be read.
    """
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise CassetteError(f"{file}: cannot read the file: {exc.strerror or exc}") from exc
    try:
        interactions, neutral = _read(file.name, data)
    except _ShapeError as exc:
        raise CassetteError(f"{file}: {format_path(exc.loc)}: {exc.message}") from exc.__cause__
    except InvalidDataError as exc:  # a neutral cassette's values, with their place
        raise CassetteError(f"{file}: {exc}") from None
    return Cassette(path=file, interactions=interactions, neutral=neutral)


class _ShapeError(Exception):
    """Raised while reading; `load_cassette` adds the file name."""

    def __init__(self, loc: _Loc, message: str) -> None:
        self.loc = loc
        self.message = message
        super().__init__(message)


def _read(name: str, data: bytes) -> tuple[tuple[Interaction, ...], tuple[NeutralInteraction, ...]]:
    if name.endswith(".chunks.txt"):
        return (Interaction(request=None, response=_chunks_response(data)),), ()
    if name.endswith(".json"):
        response = _body_response(data)
        document = response.json if isinstance(response.json, dict) else {}
        if document.get("format") == RECORDING_FORMAT:
            return _recording_interactions(document), ()
        if document.get("format") == NEUTRAL_FORMAT:
            return (), read_neutral(document)
        return (Interaction(request=None, response=response),), ()
    if name.endswith((".yaml", ".yml")):
        return _cassette_interactions(_load_yaml(data)), ()
    raise _ShapeError((), "not a recording: expected .yaml, .yml, .json or .chunks.txt")


# --- vercel-ai fixtures: a response body only, assumed to be a 200 ---


def _body_response(data: bytes) -> RecordedResponse:
    try:
        parsed = json.loads(data)
    except ValueError as exc:
        raise _ShapeError((), f"not JSON: {exc}") from exc
    return RecordedResponse(status=200, headers={}, body=data, json=parsed, events=None)


def _chunks_response(data: bytes) -> RecordedResponse:
    events: list[SSEEvent] = []
    for number, line in enumerate(LINE_BREAK.split(_text(data, ())), start=1):
        if not line.strip():
            continue
        try:
            json.loads(line)
        except ValueError as exc:
            raise _ShapeError((f"line {number}",), f"not JSON: {exc}") from exc
        events.append(SSEEvent(event=None, data=line))
    if not events:
        raise _ShapeError((), "no chunks")
    body = "".join(f"data: {event.data}\n\n" for event in events).encode()
    return RecordedResponse(status=200, headers={}, body=body, json=None, events=tuple(events))


# --- interlingua recordings ---


def _recording_interactions(document: Mapping[str, Any]) -> tuple[Interaction, ...]:
    if document.get("version") != 1:
        raise _ShapeError(("version",), f"unknown version {document.get('version')!r}")
    items = _sequence(document.get("interactions"), ("interactions",))
    return tuple(_recorded_pair(item, ("interactions", i)) for i, item in enumerate(items))


def _recorded_pair(raw: object, loc: _Loc) -> Interaction:
    item = _mapping(raw, loc)
    request = _mapping(item.get("request"), (*loc, "request"))
    response = _mapping(item.get("response"), (*loc, "response"))
    body, parsed = _plain_body(request, (*loc, "request"))
    url = _string(request.get("url"), (*loc, "request", "url"))
    return Interaction(
        request=RecordedRequest(
            method=_string(request.get("method", "POST"), (*loc, "request", "method")).upper(),
            url=url,
            headers=_plain_headers(request.get("headers"), (*loc, "request", "headers")),
            body=body or None,
            json=parsed,
        ),
        response=_recorded_response(response, url, (*loc, "response")),
    )


def _recorded_response(item: Mapping[str, object], url: str, loc: _Loc) -> RecordedResponse:
    status = item.get("status")
    if not isinstance(status, int) or isinstance(status, bool):
        raise _ShapeError((*loc, "status"), f"expected an integer, got {_kind(status)}")
    headers = _plain_headers(item.get("headers"), (*loc, "headers"))
    text = item.get("sse")
    if isinstance(text, str):
        return RecordedResponse(status, headers, text.encode(), None, parse_sse(text))
    if "sse" in item:
        events = tuple(
            _recorded_event(raw, (*loc, "sse", i))
            for i, raw in enumerate(_sequence(item["sse"], (*loc, "sse")))
        )
        body = "".join(
            (f"event: {e.event}\n" if e.event else "") + f"data: {e.data}\n\n" for e in events
        )
        return RecordedResponse(status, headers, body.encode(), None, events)
    body_bytes, parsed = _plain_body(item, loc)
    if _header(headers, "content-type").partition(";")[0].strip().lower() == AMAZON_EVENT_STREAM:
        return RecordedResponse(
            status, headers, body_bytes, None, _amazon_events(body_bytes, url, loc)
        )
    return RecordedResponse(status, headers, body_bytes, parsed, None)


def _plain_body(item: Mapping[str, object], loc: _Loc) -> tuple[bytes, Any | None]:
    """The bytes and JSON of a body kept as `json`, `text` or `base64` (or none)."""
    if item.get("json") is not None:
        return json.dumps(item["json"]).encode(), item["json"]
    if "text" in item:
        return _string(item["text"], (*loc, "text")).encode(), None
    if "base64" in item:
        try:
            return base64.b64decode(_string(item["base64"], (*loc, "base64")), validate=True), None
        except ValueError as exc:
            raise _ShapeError((*loc, "base64"), f"not base64: {exc}") from exc
    return b"", None


def _recorded_event(raw: object, loc: _Loc) -> SSEEvent:
    item = _mapping(raw, loc)
    data = item.get("data")
    event = item.get("event")
    if event is not None and not isinstance(event, str):
        raise _ShapeError((*loc, "event"), f"expected a string, got {_kind(event)}")
    return SSEEvent(event=event, data=data if isinstance(data, str) else json.dumps(data))


def _plain_headers(raw: object, loc: _Loc) -> dict[str, tuple[str, ...]]:
    if raw is None:
        return {}
    return {
        name.lower(): (_string(value, (*loc, name)),) for name, value in _mapping(raw, loc).items()
    }


# --- vcrpy cassettes ---


def _load_yaml(data: bytes) -> object:
    try:
        import yaml
    except ImportError as exc:
        raise CassetteError(
            'reading a cassette needs PyYAML: pip install "interlingua[testing]"'
        ) from exc
    try:
        return yaml.safe_load(data)
    except yaml.YAMLError as exc:
        raise _ShapeError((), f"not valid YAML: {exc}") from exc


def _cassette_interactions(document: object) -> tuple[Interaction, ...]:
    top = _mapping(document, ())
    items = _sequence(top.get("interactions"), ("interactions",))
    return tuple(_interaction(item, ("interactions", i)) for i, item in enumerate(items))


def _interaction(raw: object, loc: _Loc) -> Interaction:
    item = _mapping(raw, loc)
    request = _request(item.get("request"), (*loc, "request"))
    return Interaction(
        request=request,
        response=_response(item.get("response"), request.url, (*loc, "response")),
    )


def _request(raw: object, loc: _Loc) -> RecordedRequest:
    item = _mapping(raw, loc)
    headers = _headers(item.get("headers"), (*loc, "headers"))
    url = _string(item.get("uri"), (*loc, "uri"))
    body, parsed, _ = _body(item, headers, url, loc)
    return RecordedRequest(
        method=_string(item.get("method"), (*loc, "method")).upper(),
        # The Mistral SDK records `.../chat/completions#stream`.
        url=url.partition("#")[0],
        headers=headers,
        body=body or None,
        json=parsed,
    )


def _response(raw: object, url: str, loc: _Loc) -> RecordedResponse:
    item = _mapping(raw, loc)
    headers = _headers(item.get("headers"), (*loc, "headers"))
    body, parsed, events = _body(item, headers, url, loc)
    return RecordedResponse(
        status=_status(item.get("status"), (*loc, "status")),
        headers=headers,
        body=body or b"",
        json=parsed,
        events=events,
    )


def _status(raw: object, loc: _Loc) -> int:
    code = _mapping(raw, loc).get("code")
    if not isinstance(code, int) or isinstance(code, bool):
        raise _ShapeError((*loc, "code"), f"expected an integer, got {_kind(code)}")
    return code


def _headers(raw: object, loc: _Loc) -> dict[str, tuple[str, ...]]:
    if raw is None:
        return {}
    headers: dict[str, tuple[str, ...]] = {}
    for name, value in _mapping(raw, loc).items():
        # vcrpy writes a list per header; some recorders write a bare string.
        raw_values = [value] if isinstance(value, str) else _sequence(value, (*loc, name))
        values = [_header_value(item, (*loc, name, i)) for i, item in enumerate(raw_values)]
        key = name.lower()
        headers[key] = (*headers.get(key, ()), *values)
    return headers


def _body(
    item: Mapping[str, object], headers: Headers, url: str, loc: _Loc
) -> tuple[bytes | None, Any | None, tuple[SSEEvent, ...] | None]:
    """The decoded body, its JSON and its events, from `parsed_body` or `body`."""
    raw = item.get("body")
    # pydantic-ai's serializer writes a few request bodies as the JSON itself, a
    # mapping with no `string`, where the others have `parsed_body`.
    inline = isinstance(raw, Mapping) and raw and "string" not in raw
    if "parsed_body" in item or inline:
        key = "parsed_body" if "parsed_body" in item else "body"
        parsed = item[key]
        try:
            rebuilt = json.dumps(parsed).encode()
        except (TypeError, ValueError) as exc:
            raise _ShapeError((*loc, key), f"not JSON data: {exc}") from exc
        return rebuilt, parsed, None
    loc = (*loc, "body")
    body = _decompress(_raw_body(item.get("body"), loc), headers, loc)
    if not body:
        return body, None, None
    media_type = _header(headers, "content-type").partition(";")[0].strip().lower()
    if media_type == "text/event-stream" or body.lstrip().startswith((b"event:", b"data:")):
        return body, None, parse_sse(_text(body, loc))
    if media_type == AMAZON_EVENT_STREAM:
        return body, None, _amazon_events(body, url, loc)
    return body, _json_body(body, media_type, loc), None


def _amazon_events(body: bytes, url: str, loc: _Loc) -> tuple[SSEEvent, ...] | None:
    """An Amazon event stream's events, where the Bedrock adapter reads them."""
    try:
        return event_stream_events(body, url)
    except CassetteError as exc:
        raise _ShapeError(loc, str(exc)) from exc


def _raw_body(raw: object, loc: _Loc) -> bytes | None:
    if isinstance(raw, Mapping):
        loc = (*loc, "string")
        raw = raw.get("string")
    if raw is None or isinstance(raw, bytes):
        return raw
    if isinstance(raw, str):
        return raw.encode()
    raise _ShapeError(loc, f"expected a string or bytes, got {_kind(raw)}")


def _decompress(body: bytes | None, headers: Headers, loc: _Loc) -> bytes | None:
    encoding = _header(headers, "content-encoding").strip().lower()
    if body is None or encoding in {"", "identity"}:
        return body
    if encoding not in {"gzip", "x-gzip"}:
        raise _ShapeError(loc, f"unsupported Content-Encoding {encoding!r}")
    try:
        return gzip.decompress(body)
    except (OSError, EOFError, zlib.error) as exc:
        raise _ShapeError(loc, f"Content-Encoding is gzip but the body is not: {exc}") from exc


def _json_body(body: bytes, media_type: str, loc: _Loc) -> Any | None:
    """The body parsed, None when it is not JSON; an error when it claims JSON and is not."""
    claims_json = media_type == "application/json" or media_type.endswith("+json")
    try:
        return json.loads(body)
    except ValueError as exc:
        if claims_json:
            message = f"Content-Type is {media_type} but the body is not JSON: {exc}"
            raise _ShapeError(loc, message) from exc
        return None


# --- small readers ---


def _header(headers: Headers, name: str) -> str:
    values = headers.get(name, ())
    return values[0] if values else ""


def _text(data: bytes, loc: _Loc) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _ShapeError(loc, f"not UTF-8 text: {exc}") from exc


def _mapping(raw: object, loc: _Loc) -> Mapping[str, object]:
    if not isinstance(raw, Mapping) or not all(isinstance(key, str) for key in raw):
        raise _ShapeError(loc, f"expected a mapping with string keys, got {_kind(raw)}")
    return raw


def _sequence(raw: object, loc: _Loc) -> Sequence[object]:
    if not isinstance(raw, list):
        raise _ShapeError(loc, f"expected a list, got {_kind(raw)}")
    return raw


def _header_value(raw: object, loc: _Loc) -> str:
    # botocore's recordings keep header values as the bytes sent (`!!binary`);
    # HTTP field values are ISO-8859-1 text (RFC 9110, section 5.5).
    return raw.decode("latin-1") if isinstance(raw, bytes) else _string(raw, loc)


def _string(raw: object, loc: _Loc) -> str:
    if not isinstance(raw, str):
        raise _ShapeError(loc, f"expected a string, got {_kind(raw)}")
    return raw


def _kind(value: object) -> str:
    return "nothing" if value is None else type(value).__name__
