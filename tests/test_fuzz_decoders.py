"""Fuzzing every adapter's decoders with recorded bodies gone wrong.

Each example takes a body recorded in `fixtures/` or the corpus (a request, a
response, a stream, an error answer) and breaks it in one place: a field
removed, a value of another JSON type, a megabyte string, a list or object
nested 10,000 levels deep, an unknown `type`, or, for what may come as text,
the JSON cut short or made invalid UTF-8. Whatever comes in:

- a request, response or stream decodes, or raises an `InvalidDataError`
  (`DecodeError` mostly) whose path names the place, and names `<root>` only
  when the body itself was replaced; never a `KeyError`, `TypeError`,
  `AttributeError`, `IndexError`, `RecursionError` or any other exception;
- a stream's events accumulate, or the stream carried the provider's error;
- an error answer always decodes to a `ProviderError`: an error decoder never
  raises, whatever the body.

The suite runs a short derandomized run (`SHORT_RUN` examples a test). A longer,
random one is started by hand: `HYPOTHESIS_PROFILE=fuzz uv run pytest
tests/test_fuzz_decoders.py` (`FUZZ_EXAMPLES` a test, `INTERLINGUA_FUZZ_EXAMPLES`
to change that).
"""

from __future__ import annotations

import copy
import functools
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, corpus_files, require_corpus
from interlingua import InvalidDataError, ProviderError, StreamError, accumulate, get_adapter
from interlingua.testing import load_cassette

# adapter -> (corpus folder, host's provider, how its URL paths end, fixtures folder)
ADAPTERS: dict[str, tuple[str, str, str | tuple[str, ...], str]] = {
    "anthropic": ("anthropic", "anthropic", "/v1/messages", "anthropic"),
    "openai": ("openai-chat", "openai", "/v1/chat/completions", "openai"),
    "openai-responses": ("openai-responses", "openai", "/v1/responses", "openai"),
    "mistral": ("mistral", "mistral", "/v1/chat/completions", "mistral"),
    "groq": ("groq", "groq", "/openai/v1/chat/completions", "groq"),
    "openrouter": ("compat/openrouter", "openrouter", "/api/v1/chat/completions", "openrouter"),
    "bedrock": ("bedrock", "bedrock", ("/converse", "/converse-stream"), "bedrock"),
    # No recorded traffic: the project's own fixtures alone.
    "xai": ("xai", "xai", "/v1/chat/completions", "xai"),
    "perplexity": ("perplexity", "perplexity", "/chat/completions", "perplexity"),
}
UNRECORDED = frozenset({"xai", "perplexity"})  # no corpus folder of their own
KINDS = ("request", "response", "stream", "error")

SHORT_RUN = 25
FUZZ_EXAMPLES = int(os.environ.get("INTERLINGUA_FUZZ_EXAMPLES", "3000"))
LONG_RUN = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES if LONG_RUN else SHORT_RUN,
    derandomize=not LONG_RUN,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

HUGE = "\u00e9x" * 500_000  # a megabyte of text, not all ASCII
DEPTH = 10_000
OTHER_VALUES: tuple[Any, ...] = (
    None, True, False, 0, -1, 2**70, 1.5, float("nan"), float("inf"),
    "", "x", "\ud800", [], [None], {}, {"x": 1}, {"type": "fuzz_unknown_block"},
)  # fmt: skip
UNKNOWN_TYPE = "fuzz_unknown_block"


@dataclass
class Recorded:
    """An adapter's recorded bodies, by kind; `from_corpus` counts the corpus's."""

    bodies: dict[str, list[Any]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    from_corpus: int = 0


@functools.cache
def recorded(name: str) -> Recorded:
    folder, provider, path, fixtures = ADAPTERS[name]
    found = Recorded()
    files = [*corpus_files(folder, "*"), *sorted((FIXTURES / fixtures).glob("*.json"))]
    for file in files:
        before = sum(map(len, found.bodies.values()))
        for interaction in load_cassette(file).interactions:
            request = interaction.request
            if request is not None and not (
                interaction.provider == provider and (interaction.path or "").endswith(path)
            ):
                continue
            if request is not None and request.json is not None:
                found.bodies["request"].append(request.json)
            response = interaction.response
            fixture = response.json if request is None else None
            if isinstance(fixture, dict) and isinstance(fixture.get("events"), list):
                found.bodies["stream"].append(fixture["events"])  # as boto3 yields them
                continue
            if response.status >= 400:
                body = response.json if response.json is not None else response.body
                found.bodies["error"].append((response.status, body))
            elif response.events is not None:
                found.bodies["stream"].append(response.stream_payloads())
            elif response.json is not None:
                found.bodies["response"].append(response.json)
        if not file.is_relative_to(FIXTURES):
            found.from_corpus += sum(map(len, found.bodies.values())) - before
    return found


# --- breaking a body in one place ---

Path = tuple[str | int, ...]


def places(value: Any, path: Path = ()) -> Iterator[Path]:
    """Every place in a JSON value, the value itself first."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*path, index))


def nested(depth: int, *, objects: bool) -> Any:
    value: Any = {} if objects else []
    for _ in range(depth):
        value = {"a": value} if objects else [value]
    return value


def at(value: Any, path: Path) -> Any:
    for step in path:
        value = value[step]
    return value


MUTATIONS = ("remove", "other_type", "huge", "deep_list", "deep_object", "unknown_type")


@dataclass(frozen=True)
class Broken:
    body: Any
    what: str  # for the failure message
    at_root: bool


def break_body(data: st.DataObject, body: Any) -> Broken:
    """`body` (a copy of it) broken in one place that `data` picks."""
    body = copy.deepcopy(body)
    mutation = data.draw(st.sampled_from(MUTATIONS), label="mutation")
    if mutation == "unknown_type":
        typed = [p for p in places(body) if isinstance(at(body, p), dict) and "type" in at(body, p)]
        if typed:
            path = data.draw(st.sampled_from(typed), label="path")
            at(body, path)["type"] = UNKNOWN_TYPE
            return Broken(body, f"{UNKNOWN_TYPE!r} at {path}", at_root=False)
        mutation = "other_type"
    path = data.draw(st.sampled_from(list(places(body))), label="path")
    if mutation == "remove" and path:
        container = at(body, path[:-1])
        del container[path[-1]]
        return Broken(body, f"removed {path}", at_root=False)
    value = replacement(data, mutation)
    if not path:
        return Broken(value, f"the body replaced by {mutation}", at_root=True)
    at(body, path[:-1])[path[-1]] = value
    return Broken(body, f"{mutation} at {path}", at_root=False)


def replacement(data: st.DataObject, mutation: str) -> Any:
    if mutation == "huge":
        return HUGE
    if mutation in {"deep_list", "deep_object"}:
        return nested(DEPTH, objects=mutation == "deep_object")
    return data.draw(st.sampled_from(OTHER_VALUES), label="value")


def as_text(data: st.DataObject, body: Any) -> Broken:
    """An error body as the bytes or text a proxy or a broken connection gives."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    cut = data.draw(st.integers(0, len(raw)), label="cut")
    form = data.draw(st.sampled_from(["truncated", "invalid_utf8", "text"]), label="form")
    if form == "truncated":
        return Broken(raw[:cut], f"cut at byte {cut}", at_root=True)
    if form == "invalid_utf8":
        return Broken(raw[:cut] + b"\xff\xc3(" + raw[cut:], f"bad UTF-8 at {cut}", at_root=True)
    return Broken(raw[:cut].decode("utf-8", "replace"), f"text cut at {cut}", at_root=True)


# --- what may come out ---


E = TypeVar("E", bound=Exception)


def raised(call: Callable[[], object], kind: type[E]) -> E | None:
    """The `kind` error that `call` raises, or None; any other error fails the test."""
    try:
        call()
    except kind as error:
        return error
    return None


def decodes_or_names_the_place(decode: Callable[[], object], broken: Broken) -> None:
    error = raised(decode, InvalidDataError)
    if error is not None:
        assert error.path, f"{broken.what}: {error!r} names no place"
        assert error.path in str(error), f"{broken.what}: {error} does not say where"
        assert broken.at_root or error.path != "<root>", f"{broken.what}: {error} at <root>"


def pick(data: st.DataObject, name: str, kind: str) -> Any:
    bodies = recorded(name).bodies[kind]
    assert bodies, f"no recorded {name} {kind}"
    return bodies[data.draw(st.integers(0, len(bodies) - 1), label="recorded")]


@pytest.mark.parametrize("name", sorted(ADAPTERS))
@FUZZ
@given(data=st.data())
def test_a_broken_request_decodes_or_names_the_place(name: str, data: st.DataObject) -> None:
    broken = break_body(data, pick(data, name, "request"))
    decodes_or_names_the_place(lambda: get_adapter(name).decode_request(broken.body), broken)


@pytest.mark.parametrize("name", sorted(ADAPTERS))
@FUZZ
@given(data=st.data())
def test_a_broken_response_decodes_or_names_the_place(name: str, data: st.DataObject) -> None:
    broken = break_body(data, pick(data, name, "response"))
    decodes_or_names_the_place(lambda: get_adapter(name).decode_response(broken.body), broken)


def broken_stream(data: st.DataObject, payloads: list[Any]) -> Broken:
    """A stream with one payload broken, or one left out, repeated or the rest cut off."""
    payloads = list(payloads)
    index = data.draw(st.integers(0, len(payloads) - 1), label="payload")
    change = data.draw(st.sampled_from(["break", "break", "drop", "repeat", "cut"]), label="change")
    if change == "break":
        broken = break_body(data, payloads[index])
        payloads[index] = broken.body
        return Broken(payloads, f"events[{index}]: {broken.what}", at_root=False)
    if change == "drop":
        del payloads[index]
    elif change == "repeat":
        payloads.insert(index, payloads[index])
    else:
        payloads = payloads[:index]
    return Broken(payloads, f"events[{index}] {change}", at_root=False)


@pytest.mark.parametrize("name", sorted(ADAPTERS))
@FUZZ
@given(data=st.data())
def test_a_broken_stream_decodes_or_names_the_place(name: str, data: st.DataObject) -> None:
    broken = broken_stream(data, pick(data, name, "stream"))
    events: list[Any] = []

    def decode() -> None:
        events.extend(get_adapter(name).decode_stream(broken.body))

    decodes_or_names_the_place(decode, broken)
    error = raised(lambda: accumulate(events), StreamError)
    if error is not None:  # only for a stream that ended in the provider's error
        assert error.error is not None, f"{broken.what}: {error!r}"


STATUSES = (None, 400, 401, 403, 404, 413, 429, 500, 503, 529, 200, 0, 999)


@pytest.mark.parametrize("name", sorted(ADAPTERS))
@FUZZ
@given(data=st.data())
def test_a_broken_error_body_still_gives_a_provider_error(name: str, data: st.DataObject) -> None:
    _, body = pick(data, name, "error")
    status = data.draw(st.sampled_from(STATUSES), label="status")
    as_json = not isinstance(body, bytes) and data.draw(st.booleans(), label="as_json")
    broken = break_body(data, body) if as_json else as_text(data, body)
    error = get_adapter(name).decode_error(status, broken.body)
    assert isinstance(error, ProviderError), broken.what
    assert error.status == status, broken.what
    assert error.message, broken.what


@pytest.mark.parametrize("name", sorted(set(ADAPTERS) - UNRECORDED))
def test_every_kind_of_body_is_fuzzed_from_fixtures_and_the_corpus(name: str) -> None:
    require_corpus(ADAPTERS[name][0])
    found = recorded(name)
    assert all(found.bodies[kind] for kind in KINDS), {k: len(v) for k, v in found.bodies.items()}
    assert found.from_corpus > 0


@pytest.mark.parametrize("name", sorted(UNRECORDED))
def test_every_kind_of_body_of_an_unrecorded_api_is_fuzzed_from_fixtures(name: str) -> None:
    found = recorded(name)
    assert all(found.bodies[kind] for kind in KINDS), {k: len(v) for k, v in found.bodies.items()}
    assert found.from_corpus == 0
