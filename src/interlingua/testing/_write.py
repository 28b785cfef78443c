"""Writing interactions to a file: the project's recording format, a vcrpy
cassette, or a provider-neutral cassette.

`write_cassette(path, interactions)` picks the format by the file's suffix:
`.json` is `RECORDING_FORMAT` (JSON bodies as values, a stream as its exact
text), `.yaml`/`.yml` a vcrpy cassette that vcrpy and pytest-recording load as
it is. Bodies are written decoded, so the headers that framed the wire bytes
(`content-encoding`, `content-length`, `transfer-encoding`) are left out.
With `neutral=True` (a `.json` file) each call is written in the core's terms
instead (`NEUTRAL_FORMAT`), decoded by the adapter of the API it went to.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterable
from http import HTTPStatus
from pathlib import Path
from typing import Any

from interlingua._errors import CassetteError, InterlinguaError
from interlingua.testing._cassette import RECORDING_FORMAT
from interlingua.testing._neutral import neutral_interaction, neutral_text
from interlingua.testing._records import (
    AMAZON_EVENT_STREAM,
    Headers,
    Interaction,
    NeutralInteraction,
    RecordedRequest,
    RecordedResponse,
)

__all__ = ["cassette_format", "write_cassette"]

_FRAMING = frozenset({"content-encoding", "content-length", "transfer-encoding"})
_FORMATS = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}


def cassette_format(path: str | os.PathLike[str], *, neutral: bool = False) -> str:
    """`json` or `yaml`, by the suffix; a `CassetteError` for any other (for a
    neutral cassette, for any but `.json`)."""
    suffix = Path(path).suffix.lower()
    if neutral and suffix != ".json":
        raise CassetteError(f"{path}: a provider-neutral cassette is a .json file")
    if suffix not in _FORMATS:
        raise CassetteError(f"{path}: a cassette is a .json recording or a .yaml vcrpy cassette")
    return _FORMATS[suffix]


def write_cassette(
    path: str | os.PathLike[str],
    interactions: Iterable[Interaction | NeutralInteraction],
    *,
    neutral: bool = False,
) -> None:
    """Writes `interactions` (each with its request) to `path`, making its folder.

    With `neutral`, in the core's terms: a call that no adapter decodes (an API
    none knows, a body that is not a chat request) raises `CassetteError`
    naming it, as it cannot be kept so. Only a neutral cassette takes
    `NeutralInteraction`s.
    """
    file = Path(path)
    kind = cassette_format(file, neutral=neutral)
    if neutral:
        text = neutral_text(_neutral(interactions))
    elif kind == "json":
        text = json.dumps(_recording(_wire(interactions)), indent=2, ensure_ascii=False) + "\n"
    else:
        text = _vcr_text(_wire(interactions))
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")


def _neutral(items: Iterable[Interaction | NeutralInteraction]) -> list[NeutralInteraction]:
    calls: list[NeutralInteraction] = []
    for index, item in enumerate(items):
        if isinstance(item, NeutralInteraction):
            calls.append(item)
            continue
        try:
            calls.append(neutral_interaction(item))
        except InterlinguaError as error:
            raise CassetteError(f"interactions[{index}]: {error}") from error
    return calls


def _wire(items: Iterable[Interaction | NeutralInteraction]) -> list[Interaction]:
    given = list(items)
    wire = [item for item in given if isinstance(item, Interaction)]
    if len(wire) != len(given):
        raise CassetteError("a call in the core's terms is written to a neutral cassette only")
    return wire


# --- the project's format ---


def _recording(interactions: list[Interaction]) -> dict[str, Any]:
    return {
        "format": RECORDING_FORMAT,
        "version": 1,
        "description": "Recorded by interlingua.testing.record.",
        "interactions": [
            {
                "request": _recorded_request(_request_of(i)),
                "response": _recorded_response(i.response),
            }
            for i in interactions
        ],
    }


def _recorded_request(request: RecordedRequest) -> dict[str, Any]:
    item: dict[str, Any] = {
        "method": request.method,
        "url": request.url,
        "headers": _plain_headers(request.headers),
    }
    return item | _body_fields(request.body or b"", request.json)


def _recorded_response(response: RecordedResponse) -> dict[str, Any]:
    item: dict[str, Any] = {"status": response.status, "headers": _plain_headers(response.headers)}
    if response.events is not None and not _is_amazon_event_stream(response):
        return item | {"sse": response.body.decode("utf-8", "replace")}
    return item | _body_fields(response.body, response.json)


def _is_amazon_event_stream(response: RecordedResponse) -> bool:
    """An Amazon event stream is binary: kept as its bytes (`base64`), not as text."""
    media_type = response.joined_headers().get("content-type", "").partition(";")[0]
    return media_type.strip().lower() == AMAZON_EVENT_STREAM


def _body_fields(body: bytes, parsed: Any) -> dict[str, Any]:
    if parsed is not None:
        return {"json": parsed}
    if not body:
        return {}
    try:
        return {"text": body.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(body).decode("ascii")}


def _plain_headers(headers: Headers) -> dict[str, str]:
    return {name: ", ".join(values) for name, values in headers.items() if name not in _FRAMING}


# --- vcrpy cassettes ---


def _vcr_text(interactions: list[Interaction]) -> str:
    try:
        import yaml
    except ImportError as exc:
        raise CassetteError(
            'writing a cassette needs PyYAML: pip install "interlingua[testing]"'
        ) from exc
    document = {"interactions": [_vcr_interaction(i) for i in interactions], "version": 1}
    return str(yaml.safe_dump(document, allow_unicode=True, sort_keys=False))


def _vcr_interaction(interaction: Interaction) -> dict[str, Any]:
    request, response = _request_of(interaction), interaction.response
    return {
        "request": {
            "body": _vcr_body(request.body) if request.body else None,
            "headers": _vcr_headers(request.headers),
            "method": request.method,
            "uri": request.url,
        },
        "response": {
            "body": {"string": _vcr_body(response.body)},
            "headers": _vcr_headers(response.headers),
            "status": {"code": response.status, "message": _reason(response.status)},
        },
    }


def _vcr_body(body: bytes) -> str | bytes:
    """Text where the body is UTF-8 (it reads and diffs well), else bytes (`!!binary`)."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body


def _vcr_headers(headers: Headers) -> dict[str, list[str]]:
    return {name: list(values) for name, values in headers.items() if name not in _FRAMING}


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def _request_of(interaction: Interaction) -> RecordedRequest:
    if interaction.request is None:
        raise CassetteError("an interaction without its request cannot be written")
    return interaction.request
