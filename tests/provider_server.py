"""A stand-in for a provider's API on 127.0.0.1, for the recorder's tests.

`ProviderServer(answers)` serves, for each `(method, path)`, its recorded
`RecordedResponse`s in turn (status, headers and body as written, streams
flushed event by event) and keeps every request it received, so a test can check that the
credentials reached the server and were left out of the cassette. It runs in
a thread for the length of a `with` block and answers only on the loopback.
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from interlingua.testing import RecordedResponse

# What a real provider adds and the recorder must not write, or must mask.
SECRET_RESPONSE_HEADERS = {
    "set-cookie": "__cf_bm=Zm9vYmFyYmF6cXV4cXV1eA; path=/; HttpOnly",
    "openai-organization": "org-7fA3kq9LmN2pX4rT",
    "openai-project": "proj_Yb8cVd3eF6gH9jK2",
    "anthropic-organization-id": "1f3e5d7c-9b2a-4c6e-8f0d-2a4b6c8e0f12",
}


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class ProviderServer:
    """Serves `answers` ((method, path) -> responses, in turn) on a free port of 127.0.0.1."""

    def __init__(
        self,
        answers: Mapping[tuple[str, str], Sequence[RecordedResponse]],
        *,
        gzip_json: bool = False,
    ) -> None:
        self.answers = {key: list(responses) for key, responses in answers.items()}
        self.gzip_json = gzip_json
        self.received: list[Received] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> ProviderServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self._answer()

            def do_GET(self) -> None:
                self._answer()

            def log_message(self, format: str, *args: Any) -> None:
                pass  # quiet

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                path = urlsplit(self.path).path
                headers = {name.lower(): value for name, value in self.headers.items()}
                server.received.append(Received(self.command, path, headers, body))
                waiting = server.answers.get((self.command, path))
                answer = waiting.pop(0) if waiting else None
                if answer is None:
                    self._send(404, {"content-type": "application/json"}, b'{"error": "no route"}')
                    return
                headers = answer.replay_headers() | SECRET_RESPONSE_HEADERS
                if answer.events is not None and headers["content-type"] == "text/event-stream":
                    self._stream(answer, headers)
                    return
                content = answer.body
                if server.gzip_json:
                    content = gzip.compress(content)
                    headers["content-encoding"] = "gzip"
                self._send(answer.status, headers, content)

            def _send(self, status: int, headers: Mapping[str, str], content: bytes) -> None:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def _stream(self, answer: RecordedResponse, headers: Mapping[str, str]) -> None:
                self.send_response(answer.status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("connection", "close")
                self.end_headers()
                for piece in answer.body.split(b"\n\n"):
                    if piece:
                        self.wfile.write(piece + b"\n\n")
                        self.wfile.flush()
                self.close_connection = True

        return Handler
