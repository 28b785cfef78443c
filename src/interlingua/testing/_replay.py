"""Replaying recorded traffic to a real SDK client, and keeping what it sent.

`Replay(interactions)` answers each request with the next recorded response,
byte for byte (status, headers, decoded body), and keeps every request the
client sent, so a test asserts the exact body its code would have sent:

    replay = Replay(load_cassette("fixtures/anthropic/image_input.json").interactions)
    sdk = anthropic.Anthropic(api_key="test", http_client=replay.client())
    ...
    assert replay.sent[0] == {"model": ..., "messages": [...]}

`client()`/`async_client()` give httpx2 clients (the transport of the openai,
anthropic and mistralai SDKs); `respond` is a plain handler for any
`MockTransport` or a respx route's `side_effect` (groq's httpx).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

from interlingua._errors import CassetteError
from interlingua.testing._cassette import Interaction

__all__ = ["Replay"]


class Replay:
    """Recorded answers, served in order; `sent` holds the JSON bodies sent."""

    def __init__(self, interactions: Iterable[Interaction]) -> None:
        self.interactions = list(interactions)
        self.requests: list[Any] = []

    @property
    def sent(self) -> list[Any]:
        """The JSON body of each request sent, in order (None for one without)."""
        return [
            json.loads(request.content) if request.content else None for request in self.requests
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
        recorded = self.interactions[len(self.requests)].response
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
