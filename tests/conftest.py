"""Shared test fixtures: where the recorded corpus and the project's fixtures live,
and the two ways a test answers a real SDK client with recorded traffic.

* `Replay(interactions).client()` (or `.async_client()`), handed to the SDK as
  its `http_client`: httpx2's mock transport, no patching. Most tests use it.
* `respx_httpx2(base_url)`: a respx router that intercepts the SDK's own
  default client; `route.mock(side_effect=replay.respond)` serves a replay.
  A few tests keep this path to prove that respx users can mock the SDKs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import respx

from interlingua.testing import Interaction, Replay, load_cassette

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
CORPUS = Path(os.environ.get("INTERLINGUA_CORPUS", ROOT.parent / "shared" / "corpus"))

# respx patches httpcore's pools only; the openai and anthropic SDKs send
# through httpx2, whose pools are these (WIRE-NOTES.md, "Transport and mocking").
HTTPX2_POOLS = (
    "httpcore2._sync.connection_pool.ConnectionPool",
    "httpcore2._async.connection_pool.AsyncConnectionPool",
)

RespxHttpx2 = Callable[[str], respx.MockRouter]


def corpus_files(provider_dir: str = "", pattern: str = "*") -> list[Path]:
    """The corpus files below `provider_dir`, sorted; empty when the corpus is absent."""
    base = CORPUS / provider_dir
    if not base.is_dir():
        return []
    return sorted(p for p in base.rglob(pattern) if p.is_file() and p.name != "INDEX.md")


def require_corpus() -> Path:
    """The corpus folder. In CI a missing corpus fails the test; elsewhere it skips."""
    if CORPUS.is_dir():
        return CORPUS
    if os.environ.get("CI"):
        pytest.fail(f"the recorded corpus is required in CI and is missing at {CORPUS}")
    pytest.skip(f"the recorded corpus is not at {CORPUS}")


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
