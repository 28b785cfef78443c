"""botocore's clients (boto3's) answered and recorded by the testing kit.

boto3 does not send through httpx: botocore has its own HTTP stack (urllib3),
which respx never sees. While a `Replay`, a `Fake` or a `Recorder` is active,
every request any botocore client sends goes through `answering` or
`recording` instead: the request is handed to the kit as an httpx request
(method, URL, headers, body), so it is matched, answered and kept exactly as
an httpx client's is, and the answer goes back to botocore as its own
`AWSResponse`: the status, the headers and the body's bytes as recorded (an
event stream frame for frame, its CRCs as recorded, read by botocore's own
event-stream reader), so `converse_stream`'s `stream` yields the recorded
events and an error answer raises botocore's `ClientError`.

The place is `Endpoint._send`, the one call through which every botocore
client sends a request (`Endpoint._do_get_response` calls it when no
`before-send` handler answered), patched while a block is active as the kit
patches httpx's transports. botocore's documented `before-send` event could
answer a request too, but a handler reaches only the clients made after it
was registered: each client copies its session's handlers when it is made,
so a client made before the block (at a test module's top, the usual place;
from boto3's default session or any other) holds none, and the kit has no
way to find those clients. A `before-send` handler is also handed the
request only: recording through it would send the request over an HTTP
session of the kit's own, not the client's (its proxies, TLS settings and
timeouts). `Endpoint._send` is given the client's endpoint and returns the
answer, so it reaches every client, whenever and from whatever session it
was made, and a recording goes out exactly as the user's client sends it.
botocore is imported only when it is installed, on entering a block.
"""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any
from unittest import mock

if TYPE_CHECKING:
    from botocore.awsrequest import AWSPreparedRequest, AWSResponse

__all__ = ["answering", "recording"]

Send = Callable[["AWSPreparedRequest"], "AWSResponse"]
Hook = Callable[["AWSPreparedRequest", Send], "AWSResponse"]

_CHUNK = 2**16  # what urllib3 reads at a time


def answering(respond: Callable[[Any], Any], pass_hosts: tuple[str, ...]) -> Any | None:
    """A started patch through which every botocore request is answered by
    `respond` (given an httpx request; it returns an httpx response, or the
    request itself to send it to the network), but those to `pass_hosts`;
    None when botocore is not installed. Stop it to leave."""

    def answer(request: AWSPreparedRequest, send: Send) -> AWSResponse:
        http = http_request(request)
        if http.url.host in pass_hosts:
            return send(request)
        answered = respond(http)
        if answered is http:  # let through (vcrpy's new episodes)
            return send(request)
        return _response(request.url, answered.status_code, answered.headers, answered.content)

    return _patched(answer)


def recording(keep: Callable[[Any, Any], None]) -> Any | None:
    """A started patch through which every botocore request goes to the
    network and is given, with its whole answer, to `keep` (an httpx request
    and response); an answer the kit served is not. None when botocore is not
    installed. Stop it to leave."""

    def record(request: AWSPreparedRequest, send: Send) -> AWSResponse:
        import httpx

        response = send(request)
        if isinstance(response.raw, _Body):
            return response  # the kit's answer (vcrpy's new episodes): not recorded
        content = response.content  # the whole answer; the client reads it from memory
        headers = list(response.headers.items())
        keep(
            http_request(request),
            httpx.Response(response.status_code, headers=headers, content=content),
        )
        return _response(request.url, response.status_code, response.headers, content)

    return _patched(record)


def http_request(request: AWSPreparedRequest) -> Any:
    """botocore's request as an httpx request, its body read (and rewound for a retry)."""
    import httpx

    body: Any = request.body
    if hasattr(body, "read"):
        body = body.read()
        request.reset_stream()
    if isinstance(body, str):
        body = body.encode()
    headers = [(name, _text(value)) for name, value in request.headers.items()]
    return httpx.Request(request.method, request.url, headers=headers, content=body or b"")


class _Body(io.BytesIO):
    """An answer's bytes, read as botocore reads urllib3's: whole (`stream`, for
    a JSON answer or an event stream) or by `read` (a streamed blob)."""

    def stream(self, amt: int = _CHUNK, decode_content: bool | None = None) -> Iterator[bytes]:
        while chunk := self.read(amt):
            yield chunk


def _response(url: str, status: int, headers: Any, content: bytes) -> AWSResponse:
    from botocore.awsrequest import AWSResponse, HTTPHeaders

    fields = HTTPHeaders()
    for name, value in headers.items():
        fields[name] = value
    return AWSResponse(url, status, fields, _Body(content))


def _patched(hook: Hook) -> Any | None:
    if importlib.util.find_spec("botocore") is None:
        return None
    from botocore.endpoint import Endpoint

    send: Callable[[Endpoint, AWSPreparedRequest], AWSResponse] = Endpoint._send  # type: ignore[attr-defined]

    def _send(endpoint: Endpoint, request: AWSPreparedRequest) -> AWSResponse:
        return hook(request, lambda sent: send(endpoint, sent))

    patch = mock.patch.object(Endpoint, "_send", _send)
    patch.start()
    return patch


def _text(value: str | bytes) -> str:
    # botocore sends some header values as bytes; HTTP field values are
    # ISO-8859-1 text (RFC 9110, section 5.5).
    return value.decode("latin-1") if isinstance(value, bytes) else value
