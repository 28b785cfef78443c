"""The upstreams: a request's route, the SDK clients that reach each upstream
(found through the registry, built once per provider and options), and the
call that falls back to the next upstream on a retryable error.

The configured routes' upstreams are readied at start-up (`ready`): each
adapter imported and its SDK client built, which the first request would
otherwise pay for (importing an SDK takes up to a second). An upstream whose
client cannot be built then (its key's variable unset) answers its routes'
requests with the error it gives; a `provider:model` no route names is
readied by its first request.

A fallback happens only before anything went to the client: for a stream,
until its first event came (an error event first is an error like any other).
What the upstream could not take is in the attempt's `losses`; in strict mode
it is found before sending, by encoding once more, and refuses the request
when a loss is of the level strict mode refuses (`strict = "content"`: a
content loss; `true`: any).
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anyio

from interlingua._adapter import available_adapters, get_adapter, split_model
from interlingua._clients import get_client_class
from interlingua._errors import InterlinguaError, ProviderConnectionError, ProviderError
from interlingua._report import Strictness, TranslationLoss, TranslationReport, refuses
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua._stream import ErrorEvent, StreamEvent
from interlingua.client import AsyncChatClient, SDKOptions
from interlingua.gateway._config import GatewayConfig, UpstreamOptions
from interlingua.gateway._errors import bad_request, no_route, timed_out, unavailable

__all__ = ["Attempt", "Target", "Upstreams", "describe_losses"]


@dataclass(frozen=True, slots=True)
class Target:
    """One upstream a request may go to: the adapter and the model it is asked for."""

    provider: str
    model: str

    @property
    def name(self) -> str:
        return f"{self.provider}:{self.model}"


@dataclass
class Attempt:
    """The upstream that answered, what it could not take, and its answer: a whole
    response, or a stream's first event and the rest."""

    target: Target
    losses: list[TranslationLoss]
    upstream_seconds: float
    response: ChatResponse | None = None
    first: StreamEvent | None = None
    events: Any = None  # the AsyncEventStream after `first`
    fallbacks: list[str] = field(default_factory=list)  # the upstreams that failed, why


def describe_losses(losses: list[TranslationLoss]) -> list[str]:
    """Each loss as the log line gives it: `<path>: <kind> (<level>): <reason>`."""
    return [loss.described() for loss in losses]


class Upstreams:
    """The routes of `config`, and a client per upstream, kept for the process's life."""

    def __init__(self, config: GatewayConfig, *, default_key: str | None = None) -> None:
        self.config = config
        self.default_key = default_key  # for a replay, which needs no real key
        self._clients: dict[tuple[str, SDKOptions], AsyncChatClient] = {}
        # Looking the installed adapters up reads every distribution's metadata:
        # done once here, and again only for a name not found (one registered since).
        self._providers = frozenset(available_adapters())

    def known(self, provider: str) -> bool:
        if provider not in self._providers:
            self._providers = frozenset(available_adapters())
        return provider in self._providers

    def routed(self) -> dict[str, list[str]]:
        """Each provider the configured routes' upstreams name, and those routes, in order."""
        routes: dict[str, list[str]] = {}
        for name, route in self.config.models.items():
            for upstream in route.upstreams:
                provider, _ = split_model(upstream)
                if provider is not None and name not in routes.setdefault(provider, []):
                    routes[provider].append(name)
        return routes

    def ready(self) -> dict[str, ProviderError]:
        """Each routed upstream's adapter imported and its SDK client built, as its
        first request would; the upstreams whose client cannot be built, and why."""
        failed: dict[str, ProviderError] = {}
        for provider in self.routed():
            try:
                self.client(provider)  # its adapter imported first (`get_client_class`)
            except ProviderError as error:
                failed[provider] = error
        return failed

    def route(self, model: str) -> list[Target]:
        """The upstreams for a model name a client asked for, in order."""
        configured = self.config.models.get(model)
        names = configured.upstreams if configured is not None else (model,)
        targets = []
        for name in names:
            provider, bare = split_model(name)
            if provider is None or not self.known(provider):
                raise no_route(model)
            targets.append(Target(provider, bare))
        return targets

    def options(self, provider: str) -> SDKOptions:
        given = self.config.upstreams.get(provider, UpstreamOptions())
        api_key = self.default_key
        if given.api_key_env is not None:
            api_key = os.environ.get(given.api_key_env)
            if api_key is None:
                raise unavailable(provider, f"the variable {given.api_key_env} is not set")
        return SDKOptions(
            api_key=api_key,
            base_url=given.base_url,
            timeout=given.timeout or self.config.timeout,
            max_retries=given.max_retries,
        )

    @property
    def clients(self) -> dict[str, AsyncChatClient]:
        """The SDK clients built so far, by provider."""
        return {provider: client for (provider, _), client in self._clients.items()}

    def client(self, provider: str) -> AsyncChatClient:
        options = self.options(provider)
        key = (provider, options)
        if key not in self._clients:
            try:
                self._clients[key] = get_client_class(provider, asynchronous=True).connect(options)
            except InterlinguaError as error:
                raise unavailable(provider, str(error)) from error
            except Exception as error:  # the SDK refusing its options (no key in its variable)
                raise unavailable(provider, f"{type(error).__name__}: {error}") from error
        return self._clients[key]

    async def aclose(self) -> None:
        clients, self._clients = self._clients, {}
        for client in clients.values():
            await client.close()

    async def call(self, request: ChatRequest, *, strict: Strictness) -> Attempt:
        """The first answer of the request's upstreams, falling back on retryable errors."""
        targets = self.route(request.model)
        failed: list[str] = []
        for index, target in enumerate(targets):
            try:
                attempt = await self._attempt(target, request, strict=strict)
            except ProviderError as error:
                if not error.retryable or index == len(targets) - 1:
                    raise
                failed.append(f"{target.name}: {error}")
                continue
            attempt.fallbacks = failed
            return attempt
        raise AssertionError("a route has at least one upstream")  # pragma: no cover

    async def _attempt(
        self, target: Target, request: ChatRequest, *, strict: Strictness
    ) -> Attempt:
        sent = request.model_copy(update={"model": target.model})
        if strict:
            refuse_losses(target, sent, strict)
        client = self.client(target.provider)
        report = TranslationReport(target=target.provider)
        timeout = self.options(target.provider).timeout or self.config.timeout
        started = time.perf_counter()
        try:
            with anyio.fail_after(timeout):
                attempt = await _send(client, sent, report, target)
        except TimeoutError as error:
            raise timed_out(target.name, timeout) from error
        except ProviderConnectionError as error:
            raise _with_status(error, target) from error
        attempt.upstream_seconds = time.perf_counter() - started
        return attempt


async def _send(
    client: AsyncChatClient, request: ChatRequest, report: TranslationReport, target: Target
) -> Attempt:
    if not request.stream:
        response = await client.complete(request, report=report)
        return Attempt(target, report.losses, 0.0, response=response)
    events = await client.stream(request, report=report)
    try:
        first = await _first(events, target.provider)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await events.aclose()
        raise
    return Attempt(target, report.losses, 0.0, first=first, events=events)


async def _first(events: AsyncIterator[StreamEvent], provider: str) -> StreamEvent:
    first = await events.__anext__()
    if isinstance(first, ErrorEvent):
        raise first.to_error(provider)
    return first


def refuse_losses(target: Target, request: ChatRequest, strict: Strictness) -> None:
    """Strict mode: a 400 naming each part `target` could not take at a level
    `strict` refuses, before sending."""
    report = TranslationReport(target=target.provider)
    get_adapter(target.provider).encode_request(request, report=report)
    if refused := [loss for loss in report.losses if refuses(strict, loss.level)]:
        named = "; ".join(describe_losses(refused))
        raise bad_request(f"strict: the upstream {target.name} cannot take it all: {named}")


def _with_status(error: ProviderConnectionError, target: Target) -> ProviderError:
    """A connection error as the gateway answers it: 504 for a timeout, else 502."""
    if error.status is not None:
        return error
    cause: BaseException | None = error.__cause__
    while cause is not None and "Timeout" not in type(cause).__name__:
        cause = cause.__cause__
    status = 504 if cause is not None else 502
    return ProviderConnectionError(
        error.message, provider=error.provider, status=status, request_id=error.request_id
    )
