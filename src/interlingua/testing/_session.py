"""One cassette, replayed or recorded as vcrpy's record modes say.

`use_cassette(path, record_mode)` is what the pytest plugin runs around a test:

* `none` (the default): replay only; a request that matches nothing, or any
  request when the file does not exist, fails.
* `once`: replay the file when it exists (as `none`); record it when it does not.
* `new_episodes`: replay what matches, send what does not to the network and
  add it to the file.
* `all`: record everything anew, replacing the file.

pytest-recording's `rewrite` is taken as `all`. What it yields has `sent`,
the JSON bodies the code sent, either way.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from interlingua._errors import CassetteError
from interlingua.testing._cassette import load_cassette
from interlingua.testing._match import DEFAULT_MATCH_ON
from interlingua.testing._record import Recorder
from interlingua.testing._records import Interaction
from interlingua.testing._replay import Replay

__all__ = ["RECORD_MODES", "use_cassette"]

RECORD_MODES = ("none", "once", "new_episodes", "all")
_ALIASES = {"rewrite": "all"}


@contextmanager
def use_cassette(
    path: str | os.PathLike[str],
    record_mode: str = "none",
    *,
    extra: Iterable[str | os.PathLike[str]] = (),
    match_on: Iterable[str] = DEFAULT_MATCH_ON,
    ignore: Iterable[str] = (),
    unordered: Iterable[str] = (),
    allow_playback_repeats: bool = False,
    strict_query: bool = False,
    mask_ids: bool = True,
    remove_headers: Iterable[str] = (),
    across_providers: bool = False,
    compare: Iterable[str] = (),
) -> Iterator[Replay | Recorder]:
    """Replays or records `path` (`.json` or `.yaml`) by `record_mode`; `extra`
    cassettes are replayed as well, never written. `across_providers=True`
    answers chat requests by meaning, in any API (`Replay`)."""
    mode = _ALIASES.get(record_mode, record_mode)
    if mode not in RECORD_MODES:
        raise CassetteError(
            f"unknown record mode {record_mode!r}; known: {', '.join(RECORD_MODES)}"
        )
    file = Path(path)
    if mode == "all" or (mode == "once" and not file.exists()):
        with Recorder(file, mask_ids=mask_ids, remove_headers=remove_headers) as recorder:
            yield recorder
        return
    recorded = load_cassette(file).interactions if file.exists() else ()
    extras: list[Interaction] = [i for name in extra for i in load_cassette(name).interactions]
    replay = Replay(
        [*recorded, *extras],
        match_on=match_on,
        ignore=ignore,
        unordered=unordered,
        allow_playback_repeats=allow_playback_repeats,
        strict_query=strict_query,
        across_providers=across_providers,
        compare=compare,
        source=str(file)
        if file.exists()
        else f"{file} (no such cassette: record it with --record-mode=once)",
    )
    if mode != "new_episodes":
        with replay:
            yield replay
        return
    replay.pass_unmatched = True
    recorder = Recorder(file, mask_ids=mask_ids, remove_headers=remove_headers, keep=recorded)
    with recorder, replay:
        yield replay
