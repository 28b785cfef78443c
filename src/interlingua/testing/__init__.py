"""Helpers for testing against recorded provider traffic.

`load_cassette` reads a vcrpy cassette (both the standard and pydantic-ai's
`parsed_body` flavour), a vercel-ai response-body fixture or one of
interlingua's own recordings (`RECORDING_FORMAT`) into frozen
values: a `Cassette` of `Interaction`s, each a `RecordedRequest` (None for a
response-only fixture) and a `RecordedResponse` with its body decoded, its
JSON parsed and, for a stream, its `SSEEvent`s split.

`Replay(interactions)` serves the recorded answers to a real SDK client (an
httpx2 client, or a handler for any mock transport) and keeps the requests it
sent, so a test asserts the exact body its code would send.

Reading YAML needs PyYAML (`pip install "interlingua[testing]"`); importing
this module does not.
"""

from interlingua.testing._cassette import RECORDING_FORMAT, load_cassette
from interlingua.testing._records import (
    Cassette,
    Interaction,
    RecordedRequest,
    RecordedResponse,
    SSEEvent,
    parse_sse,
)
from interlingua.testing._replay import Replay

__all__ = [
    "RECORDING_FORMAT",
    "Cassette",
    "Interaction",
    "RecordedRequest",
    "RecordedResponse",
    "Replay",
    "SSEEvent",
    "load_cassette",
    "parse_sse",
]
