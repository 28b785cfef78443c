"""Recording real traffic to a cassette, with the secrets left out.

`record(path)` is a context manager: while it is active, every request an
httpx or httpx2 client (the SDK clients of every provider) or a botocore
client (boto3's) sends goes out to the network as usual, and each answer is
read whole and kept; on leaving, the interactions are written to `path`
(`write_cassette`: `.json` the project's format, `.yaml` a vcrpy cassette;
with `neutral=True`, a `.json` cassette in the core's terms, each call decoded
by its API's adapter, which keeps no header at all). The credentials are never
written: `authorization` (a bearer key, or AWS's SigV4 signature and key id),
`proxy-authorization`, `x-api-key`, `api-key`, `x-goog-api-key`,
`x-amz-security-token`, `cookie` and `set-cookie` are removed, a key in the
URL's query (the Gemini API's `?key=`) becomes `MASK`, and with `mask_ids`
(the default) the organisation and project ids are replaced by `MASK`.

The hook is each library's HTTP transport (`HTTPTransport.handle_request` and
its async twin), above the pools that respx patches: a response that a
`Replay` or a `Fake` served is left out (it carries `REPLAYED`), so recording and
replaying combine (vcrpy's `new_episodes`). botocore's are recorded through
botocore's own send (`_botocore.recording`), their answers' bytes as they
came (an event stream frame for frame).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import Any
from unittest import mock
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from interlingua._sdk_errors import CREDENTIAL_HEADERS, CREDENTIAL_PARAMS
from interlingua.codec import json_or_text
from interlingua.testing._botocore import recording
from interlingua.testing._intercept import REPLAYED
from interlingua.testing._records import (
    AMAZON_EVENT_STREAM,
    Interaction,
    NeutralInteraction,
    RecordedRequest,
    RecordedResponse,
    SSEEvent,
    event_stream_events,
    parse_sse,
)
from interlingua.testing._write import cassette_format, write_cassette

__all__ = ["MASK", "MASKED_HEADERS", "REMOVED_HEADERS", "Recorder", "record", "scrubbed_url"]

REMOVED_HEADERS = frozenset({*CREDENTIAL_HEADERS, "cookie", "set-cookie"})
"""Headers never written: the credentials a request carries and the cookies."""

_STREAMS = frozenset({"text/event-stream", AMAZON_EVENT_STREAM})

MASKED_HEADERS = frozenset(
    {
        "openai-organization",
        "openai-project",
        "anthropic-organization-id",
        "x-groq-organization",
        "mistral-organization",
    }
)
"""Headers naming an account's organisation or project; their values become `MASK`."""

MASK = "masked"
_LIBRARIES = ("httpx", "httpx2")


class Recorder:
    """What went over the wire while it was active; `interactions` holds them,
    scrubbed, and leaving it writes them (after `keep`) to `path`."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        mask_ids: bool = True,
        remove_headers: Iterable[str] = (),
        keep: Iterable[Interaction | NeutralInteraction] = (),
        neutral: bool = False,
    ) -> None:
        self.path = Path(path)
        self.neutral = neutral
        cassette_format(self.path, neutral=neutral)  # a wrong suffix fails before anything is sent
        self.removed = REMOVED_HEADERS | {name.lower() for name in remove_headers}
        self.masked = MASKED_HEADERS if mask_ids else frozenset()
        self.kept = list(keep)
        self.interactions: list[Interaction] = []
        self._patches: list[Any] = []

    @property
    def sent(self) -> list[Any]:
        """The JSON body of each request recorded (None for one without)."""
        return [
            json_or_text(i.request.body) if i.request and i.request.body else None
            for i in self.interactions
        ]

    def __enter__(self) -> Recorder:
        for name in _LIBRARIES:
            if importlib.util.find_spec(name) is None:
                continue
            library = __import__(name)
            for cls, method, wrap in (
                (library.HTTPTransport, "handle_request", self._sync_hook),
                (library.AsyncHTTPTransport, "handle_async_request", self._async_hook),
            ):
                patch = mock.patch.object(cls, method, wrap(getattr(cls, method)))
                patch.start()
                self._patches.append(patch)
        if (botocore := recording(self._keep)) is not None:
            self._patches.append(botocore)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        while self._patches:
            self._patches.pop().stop()
        if self.interactions:
            write_cassette(self.path, [*self.kept, *self.interactions], neutral=self.neutral)

    async def __aenter__(self) -> Recorder:
        return self.__enter__()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.__exit__(kind, error, traceback)

    def _sync_hook(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def handle_request(transport: Any, request: Any) -> Any:
            request.read()
            response = original(transport, request)
            if not response.extensions.get(REPLAYED):
                response.read()  # the whole answer, decoded; the client reads it from memory
                self._keep(request, response)
            return response

        return handle_request

    def _async_hook(self, original: Callable[..., Any]) -> Callable[..., Any]:
        async def handle_async_request(transport: Any, request: Any) -> Any:
            await request.aread()
            response = await original(transport, request)
            if not response.extensions.get(REPLAYED):
                await response.aread()
                self._keep(request, response)
            return response

        return handle_async_request

    def _keep(self, request: Any, response: Any) -> None:
        body = bytes(request.content)
        content = bytes(response.content)
        media_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
        url = scrubbed_url(str(request.url))
        events = _events(content, media_type, url)
        self.interactions.append(
            Interaction(
                request=RecordedRequest(
                    method=request.method.upper(),
                    url=url,
                    headers=self._scrubbed(request.headers),
                    body=body or None,
                    json=_json(body),
                ),
                response=RecordedResponse(
                    status=response.status_code,
                    headers=self._scrubbed(response.headers),
                    body=content,
                    json=None if media_type in _STREAMS else _json(content),
                    events=events,
                ),
            )
        )

    def _scrubbed(self, headers: Any) -> dict[str, tuple[str, ...]]:
        kept: dict[str, tuple[str, ...]] = {}
        for name, value in headers.multi_items():
            key = name.lower()
            if key in self.removed:
                continue
            kept[key] = (*kept.get(key, ()), MASK if key in self.masked else value)
        return kept


def record(
    path: str | os.PathLike[str],
    *,
    mask_ids: bool = True,
    remove_headers: Iterable[str] = (),
    neutral: bool = False,
) -> Recorder:
    """A `Recorder` writing to `path` (`.json`: the project's format, `.yaml`:
    a vcrpy cassette; with `neutral`, a `.json` cassette in the core's terms);
    enter it to record."""
    return Recorder(path, mask_ids=mask_ids, remove_headers=remove_headers, neutral=neutral)


def scrubbed_url(url: str) -> str:
    """`url` with the value of each key in its query (`?key=...`) as `MASK`."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if not any(name in CREDENTIAL_PARAMS for name, _ in pairs):
        return url
    query = urlencode(
        [(name, MASK if name in CREDENTIAL_PARAMS else value) for name, value in pairs]
    )
    return urlunsplit(parts._replace(query=query))


def _events(content: bytes, media_type: str, url: str) -> tuple[SSEEvent, ...] | None:
    """A streamed answer's events: server-sent events, or an Amazon event stream's."""
    if media_type == "text/event-stream":
        return parse_sse(content.decode("utf-8", "replace"))
    if media_type == AMAZON_EVENT_STREAM:
        return event_stream_events(content, url)
    return None


def _json(body: bytes) -> Any | None:
    if not body:
        return None
    value = json_or_text(body)
    return None if isinstance(value, str) else value
