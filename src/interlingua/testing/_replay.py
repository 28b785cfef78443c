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

`across_providers=True` matches a chat request by what it means instead
(`_across`, `_meaning`): a request any SDK the kit answers sends is decoded
into the core, as each recorded chat request is by its own API's adapter,
and they are compared on the messages and the tools, whatever their APIs
(`compare` adds the model, settings, limits... : `COMPARE_OPTIONS`). The
recorded answer goes back in the asking API's format, whole or streamed as
asked, and what that API cannot hold of it is in `losses`. A request that is
not a chat request is matched on `match_on`, as without the option. A
provider-neutral cassette (`NeutralInteraction`s, each call in the core's
terms) is answered so alone.

Used as a context manager (`with replay("fixtures/x.json") as r:`, or
`async with`), it answers every httpx and httpx2 client of the process
through respx, and every botocore client (boto3's) through botocore (an
`Interceptor`): the SDK clients of every provider as the user's code builds
them, with no `http_client` argument. The anthropic and
groq SDKs wrap the `CassetteError` in their connection error (after their
retries); leaving the block then raises the `CassetteError` itself, so a
mismatch is never lost. `client()`/`async_client()` give httpx2 clients
answered by the same replay, and `respond` is a plain handler for any
`MockTransport` or respx route.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from typing import Any

from interlingua._errors import CassetteError
from interlingua._report import TranslationLoss
from interlingua.codec import json_or_text
from interlingua.testing._across import MeaningMatch, Recorded
from interlingua.testing._apis import ChatCall, read_call
from interlingua.testing._cassette import load_cassette
from interlingua.testing._intercept import REPLAYED, Interceptor, response_of
from interlingua.testing._match import DEFAULT_MATCH_ON, Difference, Matcher, SentRequest
from interlingua.testing._records import Cassette, Interaction, NeutralInteraction, RecordedRequest

__all__ = ["REPLAYED", "Replay", "replay"]

_Sent = tuple[ChatCall, dict[str, Any]] | None
"""A sent chat request and its meaning, when matched by meaning."""

_SHOWN_DIFFERENCES = 12


class Replay(Interceptor):
    """Recorded answers, each served to the request that matches it; `sent`
    holds the JSON bodies sent, `mismatches` the requests refused."""

    def __init__(
        self,
        interactions: Iterable[Recorded],
        *,
        match_on: Iterable[str] = DEFAULT_MATCH_ON,
        ignore: Iterable[str] = (),
        unordered: Iterable[str] = (),
        allow_playback_repeats: bool = False,
        strict_query: bool = False,
        source: str | None = None,
        pass_hosts: Iterable[str] = (),
        across_providers: bool = False,
        compare: Iterable[str] = (),
    ) -> None:
        super().__init__(pass_hosts=pass_hosts)
        self.interactions = list(interactions)
        if not across_providers and any(
            isinstance(item, NeutralInteraction) for item in self.interactions
        ):
            raise CassetteError(
                f"{source or 'the cassette'}: a provider-neutral cassette is answered by "
                "meaning: replay it with across_providers=True"
            )
        self.matcher = Matcher.build(match_on, ignore, unordered, strict_query=strict_query)
        self.meanings = MeaningMatch(self.interactions, compare) if across_providers else None
        """How chat requests are matched by meaning (None: on `match_on`)."""
        self.losses: list[TranslationLoss] = []
        """What an asking API could not hold of the recorded answers it was given."""
        self.allow_playback_repeats = allow_playback_repeats
        self.source = source
        self.requests: list[Any] = []
        self.mismatches = self.failures
        """The requests refused, each a `CassetteError`."""
        self.pass_unmatched = False
        """Let a request that matches nothing through to the network (new episodes)."""
        self._played: set[int] = set()
        self._lock = threading.Lock()

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
        call = self._chat_call(sent)
        with self._lock:  # SDK calls from several threads: each answer is served once
            index = self._find(sent, call)
            if index is None and self.pass_unmatched:
                self.requests.append(request)
                return request  # respx's way to let a request through
            if index is None:
                raise self.failed(CassetteError(self._mismatch_text(sent, call)))
            self._played.add(index)
            self.requests.append(request)
        if call is not None and self.meanings is not None:
            try:
                translated = self.meanings.answer(call[0], index)
            except CassetteError as error:
                raise self.failed(error) from None
            if translated is not None:
                self.losses += translated.losses
                return response_of(request, translated.status, translated.headers, translated.body)
        interaction = self.interactions[index]
        assert isinstance(interaction, Interaction)  # a neutral one is answered by meaning
        recorded = interaction.response
        return response_of(request, recorded.status, recorded.replay_headers(), recorded.body)

    # --- matching ---

    def _chat_call(self, sent: SentRequest) -> tuple[ChatCall, dict[str, Any]] | None:
        """A chat request and its meaning, when matched by meaning; None otherwise."""
        if self.meanings is None:
            return None
        try:
            call = read_call(sent.method, sent.url, sent.body)
        except CassetteError:
            return None  # not a chat request: matched on `match_on`
        return call, self.meanings.view(call.request)

    def _find(self, sent: SentRequest, call: _Sent) -> int | None:
        """The first unused interaction that matches, then (with repeats) a used one."""
        order = sorted(range(len(self.interactions)), key=lambda i: i in self._played)
        for index in order:
            if index in self._played and not self.allow_playback_repeats:
                break
            if not self._differences(sent, call, index):
                return index
        return None

    def _differences(self, sent: SentRequest, call: _Sent, index: int) -> list[Difference]:
        if call is not None and self.meanings is not None:
            return self.meanings.differences(call[1], index)
        interaction = self.interactions[index]
        assert isinstance(interaction, Interaction)  # a neutral one is matched by meaning
        recorded = interaction.request
        if recorded is None:  # a response-only fixture answers any request
            return []
        return [
            *self.matcher.target_differences(sent, recorded.method, recorded.url),
            *self.matcher.body_differences(sent, recorded.body),
        ]

    def _distance(self, sent: SentRequest, call: _Sent, index: int) -> tuple[int, int]:
        """How far a recorded request is: first by method and URL, then by body
        (by meaning: how many of its fields differ)."""
        if call is not None and self.meanings is not None:
            chat = self.meanings.recorded(index) is not None
            return (0 if chat else 1, len(self._differences(sent, call, index)))
        recorded = self.interactions[index].request
        assert isinstance(recorded, RecordedRequest)
        return (
            len(self.matcher.target_differences(sent, recorded.method, recorded.url)),
            len(self.matcher.body_differences(sent, recorded.body)),
        )

    def _mismatch_text(self, sent: SentRequest, call: _Sent) -> str:
        where = f"{self.source}: " if self.source else ""
        played = len(self._played)
        if played == len(self.interactions) and not self.allow_playback_repeats:
            head = (
                f"{where}the recording has {len(self.interactions)} answers and a request "
                f"{played + 1} came: {sent.method} {sent.url}"
            )
        else:
            rules = "on " + ", ".join(self.matcher.match_on)
            if call is not None:
                rules = f"by meaning, {call[0].api}'s request in the core"
            head = f"{where}no recorded request matches {sent.method} {sent.url} ({rules})"
        scored = [
            (self._distance(sent, call, index), index)
            for index, item in enumerate(self.interactions)
            if item.request is not None
        ]
        if not scored:
            return head
        _, index = min(scored)
        return head + "\n" + self._closest_text(sent, call, index)

    def _closest_text(self, sent: SentRequest, call: _Sent, index: int) -> str:
        interaction = self.interactions[index]
        differences = self._differences(sent, call, index)
        if isinstance(interaction, NeutralInteraction):
            text = (
                f"the closest is interactions[{index}], a call to {interaction.provider} "
                "recorded in the core's terms"
            )
        else:
            assert interaction.request is not None
            recorded = interaction.request
            text = f"the closest is interactions[{index}], {recorded.method} {recorded.url}"
        if call is not None and self.meanings is not None:
            chat = self.meanings.recorded(index)
            text += f" ({chat[0].api}'s request in the core)" if chat and chat[0].api else ""
        if index in self._played and not self.allow_playback_repeats:
            text += " (answered already; allow_playback_repeats=True answers it again)"
        if not differences:
            return text
        lines = [str(difference) for difference in differences[:_SHOWN_DIFFERENCES]]
        if len(differences) > _SHOWN_DIFFERENCES:
            lines.append(f"... and {len(differences) - _SHOWN_DIFFERENCES} more")
        return text + "; it differs (sent != recorded):\n  " + "\n  ".join(lines)


def replay(
    cassette: str | os.PathLike[str] | Cassette | Iterable[Recorded],
    *,
    match_on: Iterable[str] = DEFAULT_MATCH_ON,
    ignore: Iterable[str] = (),
    unordered: Iterable[str] = (),
    allow_playback_repeats: bool = False,
    strict_query: bool = False,
    pass_hosts: Iterable[str] = (),
    across_providers: bool = False,
    compare: Iterable[str] = (),
) -> Replay:
    """A `Replay` of a cassette file (any format `load_cassette` reads), a
    `Cassette` or interactions; enter it to answer every client from it (but
    those of `pass_hosts`, which go to the network: a local server under test).
    `across_providers=True` matches chat requests by meaning, in any API
    (`Replay`): a provider-neutral cassette is answered only so."""
    source: str | None = None
    if isinstance(cassette, (str, os.PathLike)):
        cassette = load_cassette(cassette)
    if isinstance(cassette, Cassette):
        source = str(cassette.path)
        cassette = cassette.neutral or cassette.interactions
    return Replay(
        cassette,
        match_on=match_on,
        ignore=ignore,
        unordered=unordered,
        allow_playback_repeats=allow_playback_repeats,
        strict_query=strict_query,
        source=source,
        pass_hosts=pass_hosts,
        across_providers=across_providers,
        compare=compare,
    )
