"""Provider-neutral cassettes: recorded calls kept in the core's terms.

A neutral cassette is one JSON object (`NEUTRAL_FORMAT`):

    {"format": "interlingua.neutral_cassette", "version": 1, "history_version": 5,
     "description": "...",
     "interactions": [{
        "provider": "anthropic", "model": "claude-sonnet-4-5", "status": 200,
        "request": {...},            # a ChatRequest
        "response": {...}            # a whole answer: a ChatResponse, or
        "events": [{...}, ...]       # a streamed one: its StreamEvents in order, or
        "error": {...}}]}            # an error answer: the core's error (an ErrorEvent)

`provider` is the adapter of the API the call was recorded from (`provider_of`)
and `model` the model it asked for. Each value is written as the core dumps it
to JSON (pydantic's JSON mode, `None` left out, as a saved history is): text
stays text, only a file's own bytes are base64. The keys keep the models' field
order and the file is indented, so it reads and diffs well, and writing the same
calls twice gives the same bytes. Messages are in a saved history's form of
`history_version`; in a file of an older one, the requests' messages and the
answers' are migrated on reading, as a history's are (`interlingua._migrations`).
No header is kept, so no credential is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, NoReturn

from pydantic import TypeAdapter, ValidationError

from interlingua._adapter import get_adapter
from interlingua._base import validate
from interlingua._errors import CassetteError, InterlinguaError, InvalidDataError, format_path
from interlingua._history import HISTORY_VERSION, migrated_messages
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua._stream import ErrorEvent, StreamEvent
from interlingua.testing._records import (
    Interaction,
    NeutralInteraction,
    bedrock_target,
    provider_of,
)

__all__ = [
    "NEUTRAL_FORMAT",
    "NEUTRAL_VERSION",
    "neutral_document",
    "neutral_interaction",
    "neutral_text",
    "read_neutral",
]

NEUTRAL_FORMAT = "interlingua.neutral_cassette"
NEUTRAL_VERSION = 1

_SUBJECT = "neutral cassette"
# Gemini names the model in the URL: `.../models/<model>:generateContent`.
_MODEL_IN_URL = re.compile(r"/models/([^/:]+):")
_Loc = tuple[str | int, ...]


def neutral_interaction(interaction: Interaction) -> NeutralInteraction:
    """A recorded call decoded by the adapter of the API it went to.

    Raises `CassetteError` for a call no adapter reads (no request, an API
    none knows, a body that is not a chat request), and the adapter's
    `DecodeError` for a body it cannot decode.
    """
    request, response = interaction.request, interaction.response
    if request is None:
        raise CassetteError("a response alone has no request to keep")
    where = f"{request.method} {request.url}"
    provider = provider_of(request.url, None)
    if provider is None:
        raise CassetteError(f"{where}: no adapter reads this API")
    if not isinstance(request.json, dict):
        raise CassetteError(f"{where}: the request body is not a JSON object")
    codec = get_adapter(provider)
    chat = codec.decode_request(request.json)
    model = chat.model or _model_in_url(request.url)
    if response.status >= 400:
        body = (
            response.json if response.json is not None else response.body.decode("utf-8", "replace")
        )
        error = codec.decode_error(response.status, body, headers=response.joined_headers())
        return NeutralInteraction(provider, model, response.status, chat, error=error)
    payloads = response.json if response.events is None else response.stream_payloads()
    # Gemini's `:streamGenerateContent` without `alt=sse` answers one JSON array of chunks.
    if isinstance(payloads, list):
        events = tuple(codec.decode_stream(payloads))
        return NeutralInteraction(provider, model, response.status, chat, events=events)
    answer = codec.decode_response(response.json)
    return NeutralInteraction(provider, model, response.status, chat, answer=answer)


def _model_in_url(url: str) -> str:
    """Gemini's model (`/models/<model>:<method>`) or Bedrock's (`/model/<id>/<operation>`)."""
    if found := _MODEL_IN_URL.search(url):
        return found.group(1)
    bedrock = bedrock_target(url)
    return bedrock[0] if bedrock else ""


def neutral_document(
    items: Iterable[NeutralInteraction], *, description: str = "Recorded by interlingua.testing."
) -> dict[str, Any]:
    """The JSON document of a neutral cassette holding `items`."""
    return {
        "format": NEUTRAL_FORMAT,
        "version": NEUTRAL_VERSION,
        "history_version": HISTORY_VERSION,
        "description": description,
        "interactions": [_item(item) for item in items],
    }


def neutral_text(items: Iterable[NeutralInteraction], *, description: str | None = None) -> str:
    """The text of a neutral cassette file: the document, indented, with a final newline."""
    extra = {} if description is None else {"description": description}
    document = neutral_document(items, **extra)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, which JSON from a provider may hold
        return json.dumps(document, indent=2, ensure_ascii=True) + "\n"
    return text


def _item(item: NeutralInteraction) -> dict[str, Any]:
    kept: dict[str, Any] = {
        "provider": item.provider,
        "model": item.model,
        "status": item.status,
        "request": _request(item.request),
    }
    if item.error is not None:
        kept["error"] = _dump(ErrorEvent.from_error(item.error))
    elif item.events is not None:
        kept["events"] = [_dump(event) for event in item.events]
    elif item.answer is not None:
        kept["response"] = _dump(item.answer)
    return kept


def _request(request: ChatRequest) -> dict[str, Any]:
    kept: dict[str, Any] = _dump(request)
    if request.context is not None:  # a field the core's dumps leave out (a call's own)
        kept["context"] = _dump(request.context)
    return kept


def _dump(value: Any) -> Any:
    return value.model_dump(mode="json", exclude_none=True)


# --- reading ---


def read_neutral(document: Mapping[str, Any]) -> tuple[NeutralInteraction, ...]:
    """The calls of a neutral cassette's document, its messages migrated to this
    version. Raises `InvalidDataError` naming the place of what is wrong."""
    _version(document, "version", NEUTRAL_VERSION)
    history_version = _version(document, "history_version", HISTORY_VERSION)
    items = document.get("interactions")
    if not isinstance(items, list):
        _fail(("interactions",), "expected a list")
    return tuple(
        _interaction(item, history_version, ("interactions", index))
        for index, item in enumerate(items)
    )


def _version(document: Mapping[str, Any], key: str, newest: int) -> int:
    version = document.get(key)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        _fail((key,), f"expected a positive integer, got {version!r}")
    if version > newest:
        _fail((key,), f"written by a newer interlingua ({version}); this one reads up to {newest}")
    return version


def _interaction(raw: Any, history_version: int, loc: _Loc) -> NeutralInteraction:
    if not isinstance(raw, dict):
        _fail(loc, f"expected an object, got {type(raw).__name__}")
    item = _migrated(raw, history_version)
    provider, model, status = item.get("provider"), item.get("model"), item.get("status")
    if not isinstance(provider, str) or not isinstance(model, str):
        _fail((*loc, "provider" if not isinstance(provider, str) else "model"), "expected a string")
    if not isinstance(status, int) or isinstance(status, bool):
        _fail((*loc, "status"), f"expected an integer, got {status!r}")
    answers = [key for key in ("response", "events", "error") if key in item]
    if len(answers) != 1:
        _fail(loc, f"expected one of response, events or error, found {answers or 'none'}")
    request = validate(ChatRequest, item.get("request"), subject=_SUBJECT, prefix=(*loc, "request"))
    key = answers[0]
    return NeutralInteraction(
        provider, model, status, request, **_answer(key, item[key], provider, (*loc, key))
    )


def _answer(key: str, raw: Any, provider: str, loc: _Loc) -> dict[str, Any]:
    """The answer's field of a `NeutralInteraction`, read from the document's `key`."""
    match key:
        case "response":
            return {"answer": validate(ChatResponse, raw, subject=_SUBJECT, prefix=loc)}
        case "events":
            return {"events": _events(raw, loc)}
        case _:
            error = validate(ErrorEvent, raw, subject=_SUBJECT, prefix=loc)
            return {"error": error.to_error(provider)}


def _events(raw: Any, loc: _Loc) -> tuple[StreamEvent, ...]:
    if not isinstance(raw, list):
        _fail(loc, "expected a list")
    try:
        return tuple(_event_list().validate_python(raw))
    except ValidationError as exc:
        raise InvalidDataError.from_validation(exc, subject=_SUBJECT, prefix=loc) from None


@cache
def _event_list() -> TypeAdapter[list[StreamEvent]]:
    return TypeAdapter(list[StreamEvent])


def _migrated(item: dict[str, Any], version: int) -> dict[str, Any]:
    """The interaction with its messages in this version's form."""
    if version == HISTORY_VERSION:
        return item
    item = dict(item)
    request = item.get("request")
    if isinstance(request, dict) and isinstance(request.get("messages"), list):
        item["request"] = {**request, "messages": _messages(request["messages"], version)}
    response = item.get("response")
    if isinstance(response, dict) and isinstance(response.get("message"), dict):
        item["response"] = {**response, "message": _messages([response["message"]], version)[0]}
    return item


def _messages(messages: list[Any], version: int) -> list[Any]:
    try:
        return migrated_messages(messages, version)
    except InterlinguaError as error:
        raise InvalidDataError([("history_version", str(error))], subject=_SUBJECT) from None


def _fail(loc: _Loc, message: str) -> NoReturn:
    raise InvalidDataError([(format_path(loc), message)], subject=_SUBJECT)
