"""Shared test fixtures: where the recorded corpus and the project's fixtures live,
and the two ways a test answers a real SDK client with recorded traffic.

* `in_order(interactions).client()` (or `.async_client()`), handed to the SDK
  as its `http_client`: httpx2's mock transport, no patching. Most tests use
  it: a `Replay` that serves its answers in order on method, host and path,
  as the tests assert the bodies sent themselves (and say which differs).
* `respx_httpx2(base_url)`: a respx router that intercepts the SDK's own
  default client; `route.mock(side_effect=replay.respond)` serves a replay.
  A few tests keep this path to prove that respx users can mock the SDKs.

Tests that read the corpus (`../shared/corpus`, or `$INTERLINGUA_CORPUS`) fail
when `CI` is set and the corpus, or the folder they need, is missing or empty;
elsewhere they skip. A test over every file of a folder is parametrized with
`corpus_params(folder)` (`ids=corpus_id`) and opens its parameter with
`from_corpus(param)`; a test that needs a folder calls `require_corpus(folder)`.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import pytest
import respx
from hypothesis import HealthCheck, settings

from interlingua import ChatResponse, TokenUsage, TranslationReport, accumulate, accumulate_async
from interlingua.testing import Cassette, Interaction, Replay, load_cassette

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
# How fast examples are made depends on the machine's other load (CI's is
# shared), not on the code under test: that health check is left out.
settings.register_profile("default", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")

CORPUS = Path(os.environ.get("INTERLINGUA_CORPUS", ROOT.parent / "shared" / "corpus"))

# respx patches httpcore's pools only; the openai and anthropic SDKs send
# through httpx2, whose pools are these (WIRE-NOTES.md, "Transport and mocking").
HTTPX2_POOLS = (
    "httpcore2._sync.connection_pool.ConnectionPool",
    "httpcore2._async.connection_pool.AsyncConnectionPool",
)

RespxHttpx2 = Callable[[str], respx.MockRouter]
T = TypeVar("T")


# An Anthropic request mid tool loop: signed thinking, a call, its result.
ANTHROPIC_TOOL_TURN: dict[str, Any] = {
    "model": "claude-sonnet-4-6",
    "max_tokens": 1024,
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Call the tool.", "signature": "c2ln"},
                {
                    "type": "tool_use",
                    "id": "toolu_01A",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                },
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "Sunny"}],
        },
    ],
}


def fake_key(prefix: str, body: str = "Zy9xWv6uTs3rQp0oNm7l") -> str:
    """A made-up key of a provider's shape (`sk-ant-`, `gsk_`, ...), built when a
    test runs, so that no committed file holds a string shaped like a real key."""
    return prefix + body + body[::-1]


def in_order(interactions: Iterable[Interaction]) -> Replay:
    """A replay serving `interactions` in order, whatever the bodies and queries."""
    return Replay(interactions, match_on=("method", "host", "path"))


def corpus_files(provider_dir: str = "", pattern: str = "*") -> list[Path]:
    """The corpus files below `provider_dir`, sorted; empty when the corpus is absent."""
    base = CORPUS / provider_dir
    if not base.is_dir():
        return []
    return sorted(p for p in base.rglob(pattern) if p.is_file() and p.name != "INDEX.md")


def in_ci() -> bool:
    """Whether `CI` is set to something true (`CI=false`, `CI=0` or `CI=` are not)."""
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no", "off"}


@dataclass(frozen=True)
class MissingCorpus:
    """Stands in for the files of corpus folders that hold none (of what a test
    needs), so a test parametrized over them still runs once: `from_corpus` makes
    that run fail in CI and skip elsewhere."""

    folders: tuple[str, ...]
    holding: str = "files"

    def __str__(self) -> str:
        places = ", ".join(str(CORPUS / folder) for folder in self.folders)
        return f"the recorded corpus has no {self.holding} in {places}"


def corpus_params(
    *folders: str,
    pattern: str = "*",
    keep: Callable[[Path], bool] | None = None,
    holding: str = "files",
) -> list[Path | MissingCorpus]:
    """A parameter list: the files of the corpus `folders` (those `keep` accepts),
    or, when there are none, a single `MissingCorpus` naming the folders and what
    they lack. Pass `ids=corpus_id`; open each parameter with `from_corpus`."""
    folders = folders or ("",)
    files: list[Path | MissingCorpus] = [
        path
        for folder in folders
        for path in corpus_files(folder, pattern)
        if keep is None or keep(path)
    ]
    return files or [MissingCorpus(folders, holding)]


def from_corpus(param: T | MissingCorpus) -> T:
    """A parameter read from the corpus (a file of `corpus_params`, say), as it
    is; for `MissingCorpus` the test fails in CI, naming the folder, and skips
    elsewhere."""
    if isinstance(param, MissingCorpus):
        missing_corpus(str(param))
    return param


def corpus_id(param: object) -> str | None:
    """The test id of a `corpus_params` parameter: the file's path in the corpus,
    or `missing-<folders>`."""
    if isinstance(param, MissingCorpus):
        return "missing-" + "+".join(folder or "corpus" for folder in param.folders)
    if isinstance(param, Path) and param.is_relative_to(CORPUS):
        return param.relative_to(CORPUS).as_posix()
    return None


def require_corpus(folder: str = "") -> Path:
    """The corpus folder `folder` (the whole corpus by default), which must hold
    files. Missing or empty, it fails the test in CI and skips it elsewhere."""
    if not corpus_files(folder):
        missing_corpus(str(MissingCorpus((folder,))))
    return CORPUS / folder


def missing_corpus(message: str) -> NoReturn:
    if in_ci():
        pytest.fail(f"{message} (required when CI is set)")
    pytest.skip(message)


@functools.cache
def cassette(path: Path) -> Cassette:
    """A corpus file, loaded once for every test that reads it."""
    return load_cassette(path)


def is_answer(call: Interaction) -> bool:
    """A whole answer that is not an error."""
    return not call.is_stream and call.response.status < 400


def is_stream(call: Interaction) -> bool:
    """A stream that is not an error."""
    return call.is_stream and call.response.status < 400


def strict() -> TranslationReport:
    """A report that raises at the first loss: for what must go through whole."""
    return TranslationReport(strict=True)


def usage_counts(usage: TokenUsage) -> tuple[int, ...]:
    """Every count of a usage: input, output, total, cache reads and writes, reasoning."""
    return (
        usage.input_tokens,
        usage.output_tokens,
        usage.total_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
        usage.reasoning_tokens,
    )


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON text, so `1` and `1.0`, or a missing and a null key, differ
    as they do on the wire."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def poison(value: Any) -> None:
    """Change every object and array inside `value`, in place."""
    if isinstance(value, dict):
        for item in value.values():
            poison(item)
        value["__poisoned__"] = True
    elif isinstance(value, list):
        for item in value:
            poison(item)
        value.append("__poisoned__")


def round_trip_sharing_nothing(
    decode: Callable[[Any], T], encode: Callable[..., dict[str, Any]], body: dict[str, Any]
) -> T:
    """The value `decode` gives for `body`, checked to encode back to `body`
    exactly while it shares nothing with the body it came from or the ones it
    went to: each of them is changed in place (`poison`) before encoding again."""
    given = copy.deepcopy(body)
    value = decode(given)
    poison(given)
    first = encode(value, report=TranslationReport())
    assert same_json(first, body)
    poison(first)
    assert same_json(encode(value, report=TranslationReport()), body)
    return value


def recorded(name: str) -> tuple[Interaction, ...]:
    """The interactions of `fixtures/<name>`: the project's own recordings,
    hand-made and shaped like real traffic."""
    return load_cassette(FIXTURES / name).interactions


def bodies(interactions: Iterable[Interaction]) -> list[Any]:
    """The JSON body of each recorded request."""
    return [interaction.request.json for interaction in interactions if interaction.request]


def requested(replay: Replay) -> list[str]:
    """`METHOD /path` of each request a replay answered (the query left out:
    the corpus records the anthropic SDK's `?beta=true`)."""
    return [f"{request.method} {request.url.path}" for request in replay.requests]


def assert_sent_as_recorded(replay: Replay, url: str, key: str) -> None:
    """Each request a replay answered was a POST to `url` with `key` as its
    bearer token, and its body is the one recorded."""
    assert replay.sent == bodies(replay.interactions)
    assert [
        (request.method, str(request.url), request.headers["authorization"])
        for request in replay.requests
    ] == [("POST", url, f"Bearer {key}")] * len(replay.interactions)


async def assert_streams_as_recorded(
    client_class: Callable[..., Any], adapter: Any, fixture: str, url: str, key: str
) -> Replay:
    """The async client's stream of the request `fixture` records (over the
    replay of it, with `key`) is the recorded stream as `adapter` decodes it,
    and what it sent is `assert_sent_as_recorded`. The replay, for more checks."""
    replay = in_order(recorded(fixture))
    (interaction,) = replay.interactions
    assert interaction.request is not None
    request = adapter.decode_request(interaction.request.json)

    async with client_class(api_key=key, http_client=replay.async_client()) as client:
        streamed = await accumulate_async(await client.stream(request))

    payloads = interaction.response.stream_payloads()
    assert streamed == accumulate(adapter.decode_stream(payloads))
    assert_sent_as_recorded(replay, url, key)
    return replay


def assert_key_comes_from(
    monkeypatch: pytest.MonkeyPatch, client_class: Callable[[], Any], variable: str, key: str
) -> None:
    """A client built with no key takes it from `variable`, and without it
    fails naming the variable (the `openai` SDK's error)."""
    import openai  # the SDK takes a while to import: only the tests that need it do

    monkeypatch.delenv(variable, raising=False)
    with pytest.raises(openai.OpenAIError, match=variable):
        client_class()
    monkeypatch.setenv(variable, key)
    assert client_class().sdk.api_key == key


def recorded_error(interaction: Interaction) -> tuple[int, str, str]:
    """The status, error type and message of a recorded error answer, read from
    its body (`{"error": {"type", "message"}}`, as Anthropic, OpenAI and Groq write it)."""
    error = interaction.response.json["error"]
    return interaction.response.status, error["type"], error["message"]


def error_facts(error: Any) -> tuple[Any, ...]:
    """`recorded_error` of a provider error."""
    return error.status, error.type, error.message


@dataclass
class Seen:
    """The requests a hand-written handler was given: wrap the handler with
    `seen.answering(handler)` and assert what was sent as for a replay."""

    requests: list[Any] = field(default_factory=list)

    def answering(self, handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def answer(request: Any) -> Any:
            self.requests.append(request)
            return handler(request)

        return answer

    @property
    def sent(self) -> list[Any]:
        """The JSON body of each request."""
        return [json.loads(request.content) for request in self.requests]

    @property
    def paths(self) -> list[str]:
        """`METHOD /path` of each request."""
        return [f"{request.method} {request.url.path}" for request in self.requests]


@pytest.fixture
def corpus() -> Path:
    return require_corpus()


@pytest.fixture
def anyio_backend() -> str:
    """`@pytest.mark.anyio` tests run once, on asyncio (the SDKs' own loop)."""
    return "asyncio"


@pytest.fixture
def respx_httpx2() -> Iterator[RespxHttpx2]:
    """`respx_httpx2(base_url)`: a respx router that intercepts httpx2 too;
    every route it has must be called by the end of the test."""
    respx.mocks.HTTPCoreMocker.add_targets(*HTTPX2_POOLS)
    with ExitStack() as routers:

        def router(base_url: str) -> respx.MockRouter:
            return routers.enter_context(respx.mock(base_url=base_url, assert_all_called=True))

        yield router


def provider_files(
    folders: Mapping[str, str | None], holds: Callable[[Path, str], Any], holding: str
) -> list[Any]:
    """Parameters `(name, path)`: each file of a provider's corpus folder
    (`folders`: name -> folder, None for none), then of `fixtures/<name>`, that
    `holds(path, name)` something to check; a `MissingCorpus` for a corpus
    folder holding none."""
    params = []
    for name, folder in folders.items():
        if folder is None:
            continue
        found = corpus_params(
            folder, keep=lambda path, n=name: bool(holds(path, n)), holding=holding
        )
        params += [pytest.param(name, path, id=f"{name}:{corpus_id(path)}") for path in found]
    for name in folders:
        for path in sorted((FIXTURES / name).glob("*.json")):
            if holds(path, name):
                params.append(pytest.param(name, path, id=f"{name}:fixtures/{path.name}"))
    return params


def pieces(text: str, cuts: list[int]) -> list[str]:
    """`text` cut at each of `cuts` (a stream's deltas, for re-chunking tests)."""
    points = sorted({min(cut, len(text)) for cut in cuts} | {0, len(text)})
    return [text[a:b] for a, b in itertools.pairwise(points)]


# An answer's bookkeeping, which another API's body loses nothing by leaving out:
# its kind, its place, when it was made.
ANSWER_BOOKKEEPING = frozenset(
    {"id", "index", "object", "role", "status", "type", "created", "created_at"}
    | {"completed_at", "createTime", "updateTime"}
)


def answer_fields(response: ChatResponse) -> set[str]:
    """Where another API's encoder reports the fields of `response`'s own it leaves
    out (`provider_data.<provider>.fields.<name>`, and those of an object around
    its message, `...echo.<object>.fields.<name>`: a Chat Completions choice's):
    each that says more than null, false or empty (an object of nothing more too),
    read from what the response keeps."""
    return {
        f"provider_data.{name}.{place}{key}"
        for name, entry in response.provider_data.items()
        for place, fields in _kept_fields(entry)
        for key, value in fields.items()
        if key not in ANSWER_BOOKKEEPING and _says_more(value)
    }


def _says_more(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_says_more(item) for item in value.values())
    return value is not None and value is not False and value not in ("", [])


def _kept_fields(entry: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    echo = entry.get("echo", {})
    objects = [(place, kept) for place, kept in echo.items() if isinstance(kept, dict)]
    return [("fields.", entry.get("fields", {}))] + [
        (f"echo.{place}.fields.", kept["fields"])
        for place, kept in objects
        if isinstance(kept.get("fields"), dict)
    ]


@pytest.fixture
def gateway_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """The gateway's log lines, one a request (`interlingua.gateway`, at INFO)."""
    caplog.set_level(logging.INFO, logger="interlingua.gateway")
    return caplog
