"""`interlingua convert` and `interlingua validate`: a file of one API's format
read (`_files`), sent through the core, written in another's, with the losses.

A request body converts to the target's request, an answer body to its answer,
a recorded stream to its stream (server-sent events stay server-sent events, a
JSON array of payloads stays an array) and a saved history to the target's
request for it. In strict mode the first loss it refuses raises `TranslationError`.

`to_neutral` converts a cassette (any format `load_cassette` reads) to a
provider-neutral one (`--to neutral`): each chat call in the core's terms,
decoded by the adapter of the API it went to. A call no adapter reads (a file
upload, a response alone) is left out, and said on standard error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interlingua._errors import InterlinguaError, TranslationError
from interlingua._gateway import Problem, format_sse, translate_stream, validate_request
from interlingua._history import ChatHistory
from interlingua._report import Strictness, TranslationLoss, TranslationReport
from interlingua._request import ChatRequest
from interlingua.cli._files import (
    InputError,
    Source,
    adapter,
    load_cassette_text,
    one_line,
    read_text,
)

__all__ = [
    "NEUTRAL",
    "Converted",
    "convert",
    "describe_problem",
    "to_json",
    "to_neutral",
    "validate",
]

NEUTRAL = "neutral"
"""The target `--to` names for a provider-neutral cassette."""

_FIXES = {
    "dropped": "encoding leaves it out",
    "transformed": "encoding changes it",
    "malformed": "sent as it is",
    None: "mend the history before sending",
}


@dataclass(frozen=True)
class Converted:
    """The converted text for standard output, and what the target could not take."""

    output: str
    losses: list[TranslationLoss] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What was left out that is no translation loss (a call no adapter reads)."""


def to_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def convert(
    source: Source, *, origin: str | None, target: str, strict: Strictness, model: str | None
) -> Converted:
    """`source` (in `origin`'s format; None for a history) as `target`'s."""
    report = TranslationReport(target=target, strict=strict)
    encoder = adapter(target)
    if source.kind == "stream":
        return _convert_stream(source, _origin(source, origin), target, report)
    try:
        if source.kind == "response":
            answer = adapter(_origin(source, origin)).decode_response(source.value)
            body = encoder.encode_response(answer, report=report)
        else:
            body = encoder.encode_request(request_of(source, origin, model), report=report)
    except TranslationError:
        raise
    except InterlinguaError as error:
        raise InputError(f"{source.name}: {one_line(error)}") from error
    return Converted(to_json(body), report.losses)


def request_of(source: Source, origin: str | None, model: str | None) -> ChatRequest:
    """The request a request body or a saved history stands for, its model
    replaced by `model` where one is given (a history has none of its own)."""
    if source.kind == "history":
        if model is None:
            raise InputError(f"{source.name}: a saved history names no model: pass --model")
        history = ChatHistory.from_document(source.value)
        return ChatRequest(model=model, messages=tuple(history.messages))
    if source.kind != "request":
        raise InputError(f"{source.name}: expected a request body or a saved history")
    request = adapter(_origin(source, origin)).decode_request(source.value)
    if model is not None:
        return request.model_copy(update={"model": model})
    if not request.model:  # Gemini's is in the URL, not the body
        raise InputError(f"{source.name}: the request body names no model: pass --model")
    return request


def _origin(source: Source, origin: str | None) -> str:
    if origin is None:
        raise InputError(f"{source.name}: a {source.kind} body needs --from (its API's adapter)")
    return origin


def _convert_stream(
    source: Source, origin: str, target: str, report: TranslationReport
) -> Converted:
    adapter(origin)
    try:
        events = list(translate_stream(source.value, source=origin, target=target, report=report))
    except TypeError as error:
        raise InputError(str(error)) from None
    except TranslationError:
        raise
    except InterlinguaError as error:
        raise InputError(f"{source.name}: {one_line(error)}") from error
    if source.sse:
        return Converted(b"".join(format_sse(events)).decode(), report.losses)
    payloads = [event.data for event in events if not isinstance(event.data, str)]
    return Converted(to_json(payloads), report.losses)


def validate(
    source: Source,
    *,
    origin: str | None,
    target: str,
    model: str | None,
    strict: Strictness = True,
) -> list[Problem]:
    """What `target` would refuse in the request `source` holds (those of a
    level `strict` counts)."""
    adapter(target)
    try:
        request = request_of(source, origin, model)
        return validate_request(request, target=target, strict=strict)
    except InterlinguaError as error:
        raise InputError(f"{source.name}: {one_line(error)}") from error


def describe_problem(problem: Problem) -> str:
    """A problem on one line: its place, its level, the target's rule, what encoding does."""
    return f"{problem.path} ({problem.level}): {problem.rule} ({_FIXES[problem.fix]})"


def to_neutral(path: str) -> Converted:
    """The cassette at `path` (`-`: standard input) as a provider-neutral cassette."""
    from interlingua.testing._neutral import neutral_interaction, neutral_text
    from interlingua.testing._records import NeutralInteraction, provider_of

    name, text = read_text(path)
    cassette = load_cassette_text(name, path, text)
    description = f"Converted by interlingua convert from {Path(name).name}."
    if cassette.neutral:
        return Converted(neutral_text(cassette.neutral, description=description))
    calls: list[NeutralInteraction] = []
    notes: list[str] = []
    for index, interaction in enumerate(cassette.interactions):
        request = interaction.request
        if request is None or provider_of(request.url, None) is None:
            what = "a response alone" if request is None else f"{request.method} {request.url}"
            notes.append(f"{name}: interactions[{index}]: left out, no adapter reads it ({what})")
            continue
        try:
            calls.append(neutral_interaction(interaction))
        except InterlinguaError as error:
            raise InputError(f"{name}: interactions[{index}]: {one_line(error)}") from error
    if not calls:
        raise InputError(f"{name}: no call that an adapter reads, nothing to convert")
    return Converted(neutral_text(calls, description=description), notes=notes)
