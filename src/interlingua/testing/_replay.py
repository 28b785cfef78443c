"""Replaying recorded traffic to real SDK clients, and keeping what they sent.

`Replay(interactions)` answers each request with the recorded response of the
first unused interaction that matches it (`_match`), byte for byte (status,
headers, decoded body), and keeps every request, so a test asserts the exact
body its code sent. It matches on method, URL and the JSON value of the body
(`DEFAULT_MATCH_ON`), leaving out the query parameters an SDK adds by itself
(`SDK_QUERY_PARAMETERS`) unless `strict_query=True`; `match_on=("method",
"host", "path")` serves the answers in order whatever the bodies, for a test
that checks the bodies sent itself.
A request that matches none raises `CassetteError` naming the closest
recorded request and each field that differs. `replay(cassette)` is the same
`Replay`, read from a file.

Used as a context manager (`with replay("fixtures/x.json") as r:`, or
`async with`), it answers every httpx and httpx2 client of the process
through respx: the SDK clients of all four providers as the user's code builds
them, with no `http_client` argument. The anthropic and groq SDKs wrap the
`CassetteError` in their connection error (after their retries); leaving the
block then raises the `CassetteError` itself, so a mismatch is never lost.
`client()`/`async_client()` give httpx2 clients answered by the same replay,
and `respond` is a plain handler for any `MockTransport` or respx route.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
from collections.abc import Iterable
from types import TracebackType
from typing import Any

from interlingua._errors import CassetteError
from interlingua.codec import json_or_text
from interlingua.testing._cassette import load_cassette
from interlingua.testing._match import DEFAULT_MATCH_ON, Difference, Matcher, SentRequest
from interlingua.testing._records import Cassette, Interaction, RecordedRequest

__all__ = ["REPLAYED", "Replay", "replay"]

REPLAYED = "interlingua.replayed"
"""The extension a replayed response carries, so that a recorder leaves it out."""

# respx patches httpcore's pools; the openai, anthropic and mistralai SDKs send
# through httpx2, whose pools are these (WIRE-NOTES.md, "Transport and mocking").
_HTTPX2_POOLS = (
    "httpcore2._sync.connection_pool.ConnectionPool",
    "httpcore2._async.connection_pool.AsyncConnectionPool",
)
_SHOWN_DIFFERENCES = 12


class Replay:
    """Recorded answers, each served to the request that matches it; `sent`
    holds the JSON bodies sent, `mismatches` the requests refused."""

    def __init__(
        self,
        interactions: Iterable[Interaction],
        *,
        match_on: Iterable[str] = DEFAULT_MATCH_ON,
        ignore: Iterable[str] = (),
        unordered: Iterable[str] = (),
        allow_playback_repeats: bool = False,
        strict_query: bool = False,
        source: str | None = None,
    ) -> None:
        self.interactions = list(interactions)
        self.matcher = Matcher.build(match_on, ignore, unordered, strict_query=strict_query)
        self.allow_playback_repeats = allow_playback_repeats
        self.source = source
        self.requests: list[Any] = []
        self.mismatches: list[CassetteError] = []
        self.pass_unmatched = False
        """Let a request that matches nothing through to the network (new episodes)."""
        self._played: set[int] = set()
        self._lock = threading.Lock()
        self._router: Any = None

    @property
    def sent(self) -> list[Any]:
        """The JSON body of each request answered, in order (None for one
        without, the text for one that is not JSON)."""
        return [
            json_or_text(request.content) if request.content else None for request in self.requests
        ]

    @property
    def done(self) -> bool:
        """Whether every recorded answer was served."""
        return len(self._played) == len(self.interactions)

    def respond(self, request: Any) -> Any:
        """The recorded response for `request`, an httpx or httpx2 request whose
        body was read; the response is of the same library as the request."""
        sent = SentRequest.of(request)
        with self._lock:  # SDK calls from several threads: each answer is served once
            index = self._find(sent)
            if index is None and self.pass_unmatched:
                self.requests.append(request)
                return request  # respx's way to let a request through
            if index is None:
                error = CassetteError(self._mismatch_text(sent))
                self.mismatches.append(error)
                raise error
            self._played.add(index)
            self.requests.append(request)
        recorded = self.interactions[index].response
        # httpx and httpx2 have the same Response; answer in the request's own kind.
        library = sys.modules[type(request).__module__.partition(".")[0]]
        return library.Response(
            recorded.status,
            headers=recorded.replay_headers(),
            content=recorded.body,
            extensions={REPLAYED: True},
        )

    def client(self) -> Any:
        """An `httpx2.Client` answered by this replay."""
        import httpx2

        return httpx2.Client(transport=httpx2.MockTransport(self.respond))

    def async_client(self) -> Any:
        """An `httpx2.AsyncClient` answered by this replay."""
        import httpx2

        return httpx2.AsyncClient(transport=httpx2.MockTransport(self.respond))

    # --- installed through respx ---

    def __enter__(self) -> Replay:
        if self._router is not None:
            raise CassetteError("this replay is active already")
        try:
            import respx
        except ImportError as exc:
            raise CassetteError('replay needs respx: pip install "interlingua[testing]"') from exc
        pools = [pool for pool in _HTTPX2_POOLS if _importable(pool)]
        respx.mocks.HTTPCoreMocker.add_targets(*pools)
        router = respx.mock(assert_all_called=False, assert_all_mocked=True)
        router.route().mock(side_effect=self.respond)
        router.start()
        self._router = router
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        router, self._router = self._router, None
        router.stop(quiet=True)
        if self.mismatches and not isinstance(error, CassetteError):
            # The SDK wrapped it in its connection error, or the code caught that.
            raise CassetteError(str(self.mismatches[0])) from error

    async def __aenter__(self) -> Replay:
        return self.__enter__()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.__exit__(kind, error, traceback)

    # --- matching ---

    def _find(self, sent: SentRequest) -> int | None:
        """The first unused interaction that matches, then (with repeats) a used one."""
        order = sorted(range(len(self.interactions)), key=lambda i: i in self._played)
        for index in order:
            if index in self._played and not self.allow_playback_repeats:
                break
            if not self._differences(sent, self.interactions[index]):
                return index
        return None

    def _differences(self, sent: SentRequest, interaction: Interaction) -> list[Difference]:
        recorded = interaction.request
        if recorded is None:  # a response-only fixture answers any request
            return []
        return [
            *self.matcher.target_differences(sent, recorded.method, recorded.url),
            *self.matcher.body_differences(sent, recorded.body),
        ]

    def _distance(self, sent: SentRequest, recorded: RecordedRequest) -> tuple[int, int]:
        """How far a recorded request is: first by method and URL, then by body."""
        return (
            len(self.matcher.target_differences(sent, recorded.method, recorded.url)),
            len(self.matcher.body_differences(sent, recorded.body)),
        )

    def _mismatch_text(self, sent: SentRequest) -> str:
        where = f"{self.source}: " if self.source else ""
        played = len(self._played)
        if played == len(self.interactions) and not self.allow_playback_repeats:
            head = (
                f"{where}the recording has {len(self.interactions)} answers and a request "
                f"{played + 1} came: {sent.method} {sent.url}"
            )
        else:
            rules = ", ".join(self.matcher.match_on)
            head = f"{where}no recorded request matches {sent.method} {sent.url} (on {rules})"
        scored = [
            (self._distance(sent, item.request), index)
            for index, item in enumerate(self.interactions)
            if item.request is not None
        ]
        if not scored:
            return head
        _, index = min(scored)
        return head + "\n" + self._closest_text(sent, index)

    def _closest_text(self, sent: SentRequest, index: int) -> str:
        recorded = self.interactions[index].request
        assert recorded is not None
        differences = self._differences(sent, self.interactions[index])
        text = f"the closest is interactions[{index}], {recorded.method} {recorded.url}"
        if index in self._played and not self.allow_playback_repeats:
            text += " (answered already; allow_playback_repeats=True answers it again)"
        if not differences:
            return text
        lines = [str(difference) for difference in differences[:_SHOWN_DIFFERENCES]]
        if len(differences) > _SHOWN_DIFFERENCES:
            lines.append(f"... and {len(differences) - _SHOWN_DIFFERENCES} more")
        return text + "; it differs (sent != recorded):\n  " + "\n  ".join(lines)


def replay(
    cassette: str | os.PathLike[str] | Cassette | Iterable[Interaction],
    *,
    match_on: Iterable[str] = DEFAULT_MATCH_ON,
    ignore: Iterable[str] = (),
    unordered: Iterable[str] = (),
    allow_playback_repeats: bool = False,
    strict_query: bool = False,
) -> Replay:
    """A `Replay` of a cassette file (any format `load_cassette` reads), a
    `Cassette` or interactions; enter it to answer every client from it."""
    source: str | None = None
    if isinstance(cassette, (str, os.PathLike)):
        cassette = load_cassette(cassette)
    if isinstance(cassette, Cassette):
        source = str(cassette.path)
        cassette = cassette.interactions
    return Replay(
        cassette,
        match_on=match_on,
        ignore=ignore,
        unordered=unordered,
        allow_playback_repeats=allow_playback_repeats,
        strict_query=strict_query,
        source=source,
    )


def _importable(target: str) -> bool:
    return importlib.util.find_spec(target.partition(".")[0]) is not None
