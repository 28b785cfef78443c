"""interlingua's pytest plugin: each marked test replays its own cassette.

Installed with `interlingua[testing]` (entry point `pytest11`), it follows
pytest-recording's conventions:

* `@pytest.mark.interlingua` (or asking for the `interlingua_cassette`
  fixture) runs the test inside `use_cassette`: every SDK client (boto3's
  too) is answered from
  `<interlingua_cassette_dir>/<interlingua_cassette_name>.json` (or `.yaml`,
  a vcrpy or pytest-recording cassette, loaded as it is). The fixture's value
  has `sent`, the JSON bodies the code sent.
* The marker's arguments name more cassettes (relative to the folder) to
  replay as well; its keywords are `use_cassette`'s options (`match_on`,
  `ignore`, `unordered`, `allow_playback_repeats`, `strict_query`,
  `mask_ids`, `remove_headers`, `across_providers`, `compare`) and `format`
  (`json` or `yaml`, for a new recording). `across_providers=True` answers
  the test's chat requests by what they mean, in whatever API the code now
  speaks: a cassette recorded against one provider serves the code moved to
  another.
  The `interlingua_config` fixture gives the same keywords to a whole module
  or folder; the marker's win.
* `interlingua_cassette_dir` is `cassettes/<module name>/` beside the test
  module by default; `interlingua_cassette_name` the test's name (with its
  class, and its parameters' id).
* The `fake_provider` fixture is an active `interlingua.testing.Fake`: every
  SDK client the test builds is answered by its `handler` (set it: a function
  of the `ChatRequest`), or by the answers put in its `responses`.
* `--record-mode`: vcrpy's modes, `none` by default, `once`, `new_episodes`,
  `all`. When pytest-recording is installed it owns the option (same name,
  same modes) and both plugins read it.

Importing this module imports pytest alone: the testing kit is imported when
a test uses it, so the plugin costs a run that does not use it nothing.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from interlingua.testing._fake import Fake
    from interlingua.testing._record import Recorder
    from interlingua.testing._replay import Replay

MARKER = "interlingua"
_SUFFIXES = {"json": ".json", "yaml": ".yaml"}
_UNSAFE = re.compile(r"[<>?%*:|\"'/\\\s]")
_ACTIVE = pytest.StashKey[Any]()


def pytest_addoption(parser: pytest.Parser) -> None:
    if importlib.util.find_spec("pytest_recording") is not None:
        return  # pytest-recording adds the same `--record-mode`; two would clash
    parser.getgroup("interlingua").addoption(
        "--record-mode",
        action="store",
        default="none",
        choices=("none", "once", "new_episodes", "all"),
        help="How cassettes are used (vcrpy's record modes); 'none' by default.",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(*cassettes, **options): replay the test's cassette (or record it, "
        "by --record-mode) for every SDK client the test builds",
    )


@pytest.fixture(scope="module")
def interlingua_cassette_dir(request: pytest.FixtureRequest) -> Path:
    """Where the module's cassettes are: `cassettes/<module name>/` beside it."""
    module = Path(str(request.node.path))
    return module.parent / "cassettes" / module.stem


@pytest.fixture
def interlingua_cassette_name(request: pytest.FixtureRequest) -> str:
    """The test's name, with its class, made safe for a file name."""
    name = request.node.name
    if request.cls is not None:
        name = f"{request.cls.__name__}.{name}"
    return _UNSAFE.sub("-", name)


@pytest.fixture(scope="module")
def interlingua_config() -> dict[str, Any]:
    """Options for every cassette of the module; override it in a conftest or module."""
    return {}


@pytest.fixture
def interlingua_record_mode(request: pytest.FixtureRequest) -> str:
    """`--record-mode`, `none` when no plugin has added it."""
    return str(request.config.getoption("record_mode", default="none"))


@pytest.fixture
def interlingua_cassette(
    request: pytest.FixtureRequest,
    interlingua_cassette_dir: Path,
    interlingua_cassette_name: str,
    interlingua_config: dict[str, Any],
    interlingua_record_mode: str,
) -> Iterator[Replay | Recorder]:
    """The test's cassette, replayed (or recorded) while the test runs."""
    from interlingua.testing._session import use_cassette

    marker = request.node.get_closest_marker(MARKER)
    names, keywords = (marker.args, marker.kwargs) if marker else ((), {})
    options = {**interlingua_config, **keywords}
    suffix = _SUFFIXES.get(options.pop("format", "json"), ".json")
    path = _existing(interlingua_cassette_dir / interlingua_cassette_name, suffix)
    extra = [interlingua_cassette_dir / name for name in names]
    with use_cassette(path, interlingua_record_mode, extra=extra, **options) as cassette:
        request.node.stash[_ACTIVE] = cassette
        yield cassette


@pytest.fixture
def fake_provider(request: pytest.FixtureRequest) -> Iterator[Fake]:
    """A fake provider answering every SDK client while the test runs: set its
    `handler`, or add answers to its `responses`."""
    from interlingua.testing._fake import Fake

    with Fake() as provider:
        request.node.stash[_ACTIVE] = provider
        yield provider


@pytest.fixture(autouse=True)
def _interlingua_marker(request: pytest.FixtureRequest) -> None:
    """The marker alone brings the cassette in."""
    if request.node.get_closest_marker(MARKER) is not None:
        request.getfixturevalue("interlingua_cassette")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test that failed with the SDK's wrapping of a mismatch (or of a fake
    provider's failure) fails with the mismatch itself (the anthropic and groq
    SDKs say "Connection error.")."""
    try:
        return (yield)
    except Exception as error:
        failures = getattr(item.stash.get(_ACTIVE, None), "failures", None)
        if not failures or any(error is failure for failure in failures):
            raise
        first = failures[0]
        failures.clear()  # reported here, not again on leaving the cassette
        raise first from error


def _existing(stem: Path, suffix: str) -> Path:
    """The cassette of that name that exists (ours or vcrpy's), else a new one."""
    for candidate in (".json", ".yaml", ".yml"):
        path = stem.with_name(stem.name + candidate)
        if path.exists():
            return path
    return stem.with_name(stem.name + suffix)
