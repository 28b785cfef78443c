"""Replaying recorded traffic to a real SDK client, and keeping what it sent.

`Replay(interactions)` answers each request with the next recorded response,
byte for byte (status, headers, decoded body), and keeps every request the
client sent, so a test asserts the exact body its code would have sent:

    replay = Replay(load_cassette("fixtures/anthropic/image_input.json").interactions)
    sdk = anthropic.Anthropic(api_key="test", http_client=replay.client())
    ...
    assert replay.sent[0] == {"model": ..., "messages": [...]}

A request must go where the recorded one went (method and path), or the
replay refuses it with `CassetteError`; through an SDK, that surfaces as the
SDK's connection error, the `CassetteError` in its causes.
`client()`/`async_client()` give httpx2 clients (the transport of the openai,
anthropic and mistralai SDKs); `respond` is a plain handler for any
`MockTransport` or a respx route's `side_effect` (groq's httpx).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from interlingua._errors import CassetteError
from interlingua.codec import json_or_text
from interlingua.testing._records import Interaction

__all__ = ["Replay"]


class Replay:
    """Recorded answers, served in order; `sent` holds the JSON bodies sent."""

    def __init__(self, interactions: Iterable[Interaction]) -> None:
        self.interactions = list(interactions)
        self.requests: list[Any] = []

    @property
    def sent(self) -> list[Any]:
        """The JSON body of each request sent, in order (None for one without,
        the text for one that is not JSON)."""
        return [
            json_or_text(request.content) if request.content else None for request in self.requests
        ]

    @property
    def done(self) -> bool:
        """Whether every recorded answer was served."""
        return len(self.requests) == len(self.interactions)

    def respond(self, request: Any) -> Any:
        """The next recorded response for `request`, an httpx or httpx2 request;
        the response is of the same library as the request."""
        if len(self.requests) == len(self.interactions):
            raise CassetteError(
                f"the recording has {len(self.interactions)} answers and a request "
                f"{len(self.interactions) + 1} came: {request.method} {request.url}"
            )
        interaction = self.interactions[len(self.requests)]
        _check_target(interaction, request, len(self.requests))
        recorded = interaction.response
        self.requests.append(request)
        # httpx and httpx2 have the same Response; answer in the request's own kind.
        library = sys.modules[type(request).__module__.partition(".")[0]]
        return library.Response(
            recorded.status, headers=recorded.replay_headers(), content=recorded.body
        )

    def client(self) -> Any:
        """An `httpx2.Client` answered by this replay."""
        import httpx2

        return httpx2.Client(transport=httpx2.MockTransport(self.respond))

    def async_client(self) -> Any:
        """An `httpx2.AsyncClient` answered by this replay."""
        import httpx2

        return httpx2.AsyncClient(transport=httpx2.MockTransport(self.respond))


def _check_target(interaction: Interaction, request: Any, index: int) -> None:
    """The request goes where the recorded one went (method, host and path; the
    query, such as the SDKs' `?beta=true`, is not compared): two providers share
    `/v1/chat/completions`."""
    recorded = interaction.request
    if recorded is None:
        return
    expected = (recorded.method, interaction.host, interaction.path)
    got = (request.method, request.url.host, request.url.path)
    if expected != got:
        raise CassetteError(
            f"request {index + 1} went to {got[0]} {got[1]}{got[2]}; "
            f"the recording answers {expected[0]} {expected[1]}{expected[2]}"
        )
