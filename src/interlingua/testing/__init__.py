"""Helpers for testing against recorded provider traffic.

`load_cassette` reads a vcrpy cassette (both the standard and pydantic-ai's
`parsed_body` flavour), a vercel-ai response-body fixture or one of
interlingua's own recordings (`RECORDING_FORMAT`) into frozen
values: a `Cassette` of `Interaction`s, each a `RecordedRequest` (None for a
response-only fixture) and a `RecordedResponse` with its body decoded, its
JSON parsed and, for a stream, its `SSEEvent`s split. A provider-neutral
cassette (`NEUTRAL_FORMAT`) keeps each call in the core's terms instead:
`Cassette.neutral` gives its `NeutralInteraction`s, each a `ChatRequest` and
its `ChatResponse` (or stream events, or error), with the provider and model
it was recorded from.

`replay(cassette)` answers the real SDK clients of every provider from a
cassette while it is active, through respx (boto3's through botocore, an
event stream frame for frame), with the user's code unchanged;
it is a `Replay`, which keeps the requests sent (`sent`), and can also be
handed to one SDK client (`http_client=replay.client()`). With
`across_providers=True` it answers a chat request by what it means, whatever
the API it was recorded in and the API the code now speaks: both are decoded
into the core and compared on their `meaning` (messages and tools; `compare`
adds more, `COMPARE_OPTIONS`), and the recorded answer goes back in the
asking API's format, whole or streamed as asked.

`fake(handler)` answers them without a recording: each chat request, decoded
into a `ChatRequest`, gets what `handler(request)` returns (a `ChatResponse`,
stream events, or a `ProviderError` as the API's error answer) in the asking
API's own format, whole or streamed as asked; `fake(responses=[...])`
answers with a fixed sequence. It is a `Fake`, which keeps the requests
(`requests`).

`record(path)` sends the requests to the network and writes what came back
(boto3's too), credentials removed (`write_cassette`: `.json` the project's format, `.yaml`
a vcrpy cassette; `neutral=True` a provider-neutral cassette, each call in
the core's terms). `use_cassette(path, record_mode)` does either by vcrpy's
record modes; the pytest plugin (`interlingua.testing.pytest_plugin`) runs it
around a test, and its `fake_provider` fixture gives a `Fake`.
`find_secrets`/`check_no_secrets` look for keys (AWS credentials and SigV4
signatures too), bearer tokens and cookies left in cassettes.

Reading and writing YAML needs PyYAML, replaying and faking respx
(`pip install "interlingua[testing]"`); importing this module needs neither.
"""

from interlingua.testing._cassette import RECORDING_FORMAT, load_cassette
from interlingua.testing._fake import Fake, FakeAnswer, fake
from interlingua.testing._match import DEFAULT_MATCH_ON, SDK_QUERY_PARAMETERS
from interlingua.testing._meaning import COMPARE_OPTIONS, meaning
from interlingua.testing._neutral import NEUTRAL_FORMAT, NEUTRAL_VERSION
from interlingua.testing._record import MASK, MASKED_HEADERS, REMOVED_HEADERS, Recorder, record
from interlingua.testing._records import (
    Cassette,
    Interaction,
    NeutralInteraction,
    RecordedRequest,
    RecordedResponse,
    SSEEvent,
    parse_sse,
)
from interlingua.testing._replay import Replay, replay
from interlingua.testing._secrets import SecretFinding, check_no_secrets, find_secrets
from interlingua.testing._session import RECORD_MODES, use_cassette
from interlingua.testing._write import write_cassette

__all__ = [
    "COMPARE_OPTIONS",
    "DEFAULT_MATCH_ON",
    "MASK",
    "MASKED_HEADERS",
    "NEUTRAL_FORMAT",
    "NEUTRAL_VERSION",
    "RECORDING_FORMAT",
    "RECORD_MODES",
    "REMOVED_HEADERS",
    "SDK_QUERY_PARAMETERS",
    "Cassette",
    "Fake",
    "FakeAnswer",
    "Interaction",
    "NeutralInteraction",
    "RecordedRequest",
    "RecordedResponse",
    "Recorder",
    "Replay",
    "SSEEvent",
    "SecretFinding",
    "check_no_secrets",
    "fake",
    "find_secrets",
    "load_cassette",
    "meaning",
    "parse_sse",
    "record",
    "replay",
    "use_cassette",
    "write_cassette",
]
