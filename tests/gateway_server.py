"""The gateway under real uvicorn on a free port of 127.0.0.1, in a thread.

`GatewayServer(app)` serves for the length of a `with` block; `base_url` is
where the SDK clients are pointed. The upstreams are answered in the same
process (a `Replay` whose `pass_hosts` lets the clients' own requests to the
server through), so a test asserts the bodies the gateway sent upstream.
Starting and stopping are bounded: nothing waits for ever.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import Any, TypeVar

import uvicorn

T = TypeVar("T")

LOOPBACK = "127.0.0.1"
_BOUND = 30.0  # seconds a start or a stop may take


_OPENED: list[Any] = []


def opened(client: T) -> T:
    """An SDK client, closed by `close_opened` when the test ends (the modules'
    autouse fixture), so that no socket is left for the collector to find."""
    _OPENED.append(client)
    return client


def close_opened() -> None:
    while _OPENED:
        _OPENED.pop().__exit__(None, None, None)


class GatewayServer:
    def __init__(self, app: Any) -> None:
        config = uvicorn.Config(app, host=LOOPBACK, port=0, log_level="warning", lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    @property
    def base_url(self) -> str:
        port = self._server.servers[0].sockets[0].getsockname()[1]
        return f"http://{LOOPBACK}:{port}"

    def __enter__(self) -> GatewayServer:
        self._thread.start()
        deadline = time.monotonic() + _BOUND
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the gateway did not start")
            time.sleep(0.01)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._server.should_exit = True
        self._thread.join(_BOUND)
        assert not self._thread.is_alive(), "the gateway did not stop"
