"""The one way the testing kit answers the SDK clients: every httpx and httpx2
client of the process, through respx, while an `Interceptor` is active.

An `Interceptor` answers each request with `respond(request)` (an httpx or
httpx2 request whose body was read; the answer is a response of the same
library, or the request itself to let it through to the network). Used as a
context manager, sync or async, it patches the connection pools of both
libraries (the openai, anthropic and mistralai SDKs send through httpx2, the
groq and google-genai SDKs through httpx), so the SDK clients are answered
as the user's code builds them, with no `http_client` argument; requests to
`pass_hosts` go to the network (a local server under test). botocore's
clients (boto3's), which send through urllib3, are answered by the same
`respond` (`_botocore.answering`).

An error `respond` raises is kept in `failures`: the anthropic and groq SDKs
wrap it in their connection error (after their retries), and code may catch
that; leaving the block then raises the first failure, so it is never lost.
`Replay` and `Fake` are interceptors; `client()`/`async_client()` give httpx2
clients answered by the same `respond`, for one SDK client alone.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from types import TracebackType
from typing import Any

from typing_extensions import Self

from interlingua._errors import CassetteError
from interlingua.testing._botocore import answering

__all__ = ["REPLAYED", "Interceptor", "response_of"]

REPLAYED = "interlingua.replayed"
"""The extension every response the testing kit serves carries, so that a recorder leaves it out."""

# respx patches httpcore's pools; the openai, anthropic and mistralai SDKs send
# through httpx2, whose pools are these (WIRE-NOTES.md, "Transport and mocking").
_HTTPX2_POOLS = (
    "httpcore2._sync.connection_pool.ConnectionPool",
    "httpcore2._async.connection_pool.AsyncConnectionPool",
)


class Interceptor:
    """Answers every HTTP client of the process with `respond` while active."""

    def __init__(self, *, pass_hosts: Iterable[str] = ()) -> None:
        self.pass_hosts = tuple(pass_hosts)
        """Hosts whose requests go to the network, unanswered (a server the test runs)."""
        self.failures: list[Exception] = []
        """The errors `respond` raised, which an SDK may have wrapped or the code caught."""
        self._router: Any = None
        self._botocore: Any = None

    def respond(self, request: Any) -> Any:
        """The answer to `request`, an httpx or httpx2 request whose body was read."""
        raise NotImplementedError

    def failed(self, error: Exception) -> Exception:
        """`error`, kept to be raised on leaving; `raise self.failed(error)` in `respond`."""
        self.failures.append(error)
        return error

    def client(self) -> Any:
        """An `httpx2.Client` answered by `respond`."""
        import httpx2

        return httpx2.Client(transport=httpx2.MockTransport(self.respond))

    def async_client(self) -> Any:
        """An `httpx2.AsyncClient` answered by `respond`."""
        import httpx2

        return httpx2.AsyncClient(transport=httpx2.MockTransport(self.respond))

    def __enter__(self) -> Self:
        if self._router is not None:
            raise CassetteError(f"this {type(self).__name__.lower()} is active already")
        try:
            import respx
        except ImportError as exc:
            raise CassetteError(
                f'{type(self).__name__.lower()} needs respx: pip install "interlingua[testing]"'
            ) from exc
        pools = [pool for pool in _HTTPX2_POOLS if _importable(pool)]
        respx.mocks.HTTPCoreMocker.add_targets(*pools)
        router = respx.mock(assert_all_called=False, assert_all_mocked=True)
        for host in self.pass_hosts:
            router.route(host=host).pass_through()
        router.route().mock(side_effect=self.respond)
        router.start()
        self._router = router
        self._botocore = answering(self.respond, self.pass_hosts)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        router, self._router = self._router, None
        router.stop(quiet=True)
        if self._botocore is not None:
            self._botocore.stop()
        if self.failures and not any(error is failure for failure in self.failures):
            # The SDK wrapped it in its connection error, or the code caught that.
            raise self.failures[0] from error

    async def __aenter__(self) -> Self:
        return self.__enter__()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.__exit__(kind, error, traceback)


def response_of(request: Any, status: int, headers: dict[str, str], body: bytes) -> Any:
    """The kit's answer to `request`, a response of the request's own library
    (httpx and httpx2 have the same `Response`), marked `REPLAYED`."""
    library = importlib.import_module(type(request).__module__.partition(".")[0])
    return library.Response(status, headers=headers, content=body, extensions={REPLAYED: True})


def _importable(target: str) -> bool:
    return importlib.util.find_spec(target.partition(".")[0]) is not None
