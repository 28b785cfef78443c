"""The upstreams: a request's route, the SDK clients that reach each upstream
(found through the registry, built once per provider and options), and the
call that falls back to the next upstream on a retryable error.

A body going to its own API goes as it came (`ClientBody`): to an upstream
whose adapter is the client's API, the client's JSON body is sent as it is,
with the upstream's model and its output tokens capped, and the API's own
headers the client sent (`anthropic-beta`, `anthropic-version`, `OpenAI-Beta`:
the endpoint's `api_headers`). The rules and fits of encoding are for what came
from another API; what a client wrote for this one, the provider judges, so
nothing of it is reported but a cap, and strict mode refuses none of it. To
an upstream of another API (a fallback's), the request is encoded for it.
Either way the answer is read by the upstream's decoder, and written back by
the client API's encoder.

The configured routes' upstreams are readied at start-up (`ready`): each
adapter imported and its SDK client built, which the first request would
otherwise pay for (importing an SDK takes up to a second). An upstream whose
client cannot be built then (its key's variable unset) answers its routes'
requests with the error it gives; a `provider:model` no route names is
readied by its first request.

A fallback happens only before anything went to the client: for a stream,
until its first event came (an error event first is an error like any other).
What the upstream could not take is in the attempt's `losses`; in strict mode
it is found before sending a request encoded for its upstream, by encoding
once more, and refuses the request
when a loss is of the level strict mode refuses (`strict = "content"`: a
content loss; `true`: any).

With OpenTelemetry, each upstream call (a fallback's each) is a CLIENT span
under the request's SERVER span, a body sent as it is too, and sends the
trace on (`traceparent`).
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio

from interlingua._adapter import available_adapters, get_adapter, split_model
from interlingua._clients import get_client_class
from interlingua._errors import InterlinguaError, ProviderConnectionError, ProviderError
from interlingua._event_stream import AsyncEventStream
from interlingua._report import Strictness, TranslationLoss, TranslationReport, refuses
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua._stream import ErrorEvent, StreamEvent
from interlingua._telemetry import client_call
from interlingua.client import AsyncChatClient, Endpoint, SDKOptions
from interlingua.gateway._config import ASKED, GatewayConfig, UpstreamOptions
from interlingua.gateway._errors import bad_request, is_timeout, no_route, timed_out, unavailable

__all__ = ["Attempt", "ClientBody", "Target", "Upstreams", "describe_losses"]


@dataclass(frozen=True, slots=True)
class Target:
    """One upstream a request may go to: the adapter, the model it is asked for,
    and the most output tokens it may be asked for (its route's or its own)."""

    provider: str
    model: str
    max_output_tokens: int | None = None

    @property
    def name(self) -> str:
        return f"{self.provider}:{self.model}"


@dataclass(frozen=True, slots=True)
class ClientBody:
    """A request as its client sent it: its API (the adapter's name), its JSON
    body, and its headers (names in lower case, in the order they came)."""

    api: str
    body: dict[str, Any]
    headers: Sequence[tuple[str, str]] = ()

    def headers_for(self, names: Iterable[str]) -> dict[str, str]:
        """The client's headers of `names` (in lower case), a repeated one's
        values joined as HTTP joins them."""
        wanted = frozenset(names)
        found: dict[str, list[str]] = {}
        for name, value in self.headers:
            if name in wanted:
                found.setdefault(name, []).append(value)
        return {name: ",".join(values) for name, values in found.items()}


@dataclass
class Attempt:
    """The upstream that answered, what it could not take, and its answer: a whole
    response, or a stream's first event and the rest (read within `timeout`
    seconds of each other)."""

    target: Target
    losses: list[TranslationLoss]
    upstream_seconds: float
    response: ChatResponse | None = None
    first: StreamEvent | None = None
    events: Any = None  # the AsyncEventStream after `first`
    fallbacks: list[str] = field(default_factory=list)  # the upstreams that failed, why
    timeout: float = 0.0


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
        """The upstreams for a model name a client asked for, in order: its own
        route, else the provider it names, else the pattern it matches."""
        route = self.config.models.get(model)
        if route is None:
            provider, _ = split_model(model)
            if provider is None or not self.known(provider):
                route = self.config.route_for(model)
        names = route.upstreams if route is not None else (model,)
        targets = []
        for name in names:
            provider, bare = split_model(name)
            if provider is None or not self.known(provider):
                raise no_route(model)
            limits = (route.max_output_tokens if route is not None else None, self._cap(provider))
            most = min((limit for limit in limits if limit is not None), default=None)
            targets.append(Target(provider, model if bare == ASKED else bare, most))
        return targets

    def _cap(self, provider: str) -> int | None:
        options = self.config.upstreams.get(provider)
        return options.max_output_tokens if options is not None else None

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
            region=given.region,
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

    async def call(
        self, request: ChatRequest, *, strict: Strictness, asked: ClientBody | None = None
    ) -> Attempt:
        """The first answer of the request's upstreams, falling back on retryable
        errors; `asked` is the request as its client sent it, which goes as it is
        to an upstream of its API."""
        targets = self.route(request.model)
        failed: list[str] = []
        for index, target in enumerate(targets):
            own = asked if asked is not None and asked.api == target.provider else None
            try:
                attempt = await self._attempt(target, request, strict=strict, own=own)
            except ProviderError as error:
                if not error.retryable or index == len(targets) - 1:
                    raise
                failed.append(f"{target.name}: {error}")
                continue
            attempt.fallbacks = failed
            return attempt
        raise AssertionError("a route has at least one upstream")  # pragma: no cover

    async def _attempt(
        self, target: Target, request: ChatRequest, *, strict: Strictness, own: ClientBody | None
    ) -> Attempt:
        """One upstream's answer: to `own`, the client's body for this upstream's
        API, sent as it is; else to the request encoded for it."""
        report = TranslationReport(target=target.provider)
        routed = request.model_copy(update={"model": target.model})
        sent = capped(routed, target, report)
        if strict and own is None:
            refuse_losses(target, sent, strict)
        client = self.client(target.provider)
        # The client's body is capped where the request was, and so reported.
        most = target.max_output_tokens if sent.max_tokens != routed.max_tokens else None
        as_is = None if own is None else _as_is(client.endpoint, own, sent, most)
        timeout = self.options(target.provider).timeout or self.config.timeout
        started = time.perf_counter()
        try:
            with anyio.fail_after(timeout):
                attempt = await _send(client, sent, report, target, as_is)
        except TimeoutError as error:
            raise timed_out(target.name, timeout) from error
        except ProviderConnectionError as error:
            raise _with_status(error, target) from error
        attempt.upstream_seconds = time.perf_counter() - started
        attempt.timeout = timeout
        return attempt


# A client's body as it goes: the body, its path and the API's headers.
_AsIs = tuple[dict[str, Any], str, dict[str, str]]


async def _send(
    client: AsyncChatClient,
    request: ChatRequest,
    report: TranslationReport,
    target: Target,
    as_is: _AsIs | None,
) -> Attempt:
    """The upstream's answer to `request`, or to the client's body `as_is`,
    read by its decoder alike; each call one CLIENT span (`client_call`)."""
    if as_is is not None:
        return await _send_as_is(client, request, report, target, as_is)
    if not request.stream:
        response = await client.complete(request, report=report)
        return Attempt(target, report.losses, 0.0, response=response)
    return await _streamed(await client.stream(request, report=report), report, target)


async def _send_as_is(
    client: AsyncChatClient,
    request: ChatRequest,
    report: TranslationReport,
    target: Target,
    as_is: _AsIs,
) -> Attempt:
    """The answer to the client's body `as_is` (which asks what `request` does),
    its span made as the client's `complete` and `stream` make theirs."""
    call = client_call(client.provider_name, request, stream=request.stream)
    with call.sending():
        call.sent(as_is[0], client.endpoint.limits)
        if not request.stream:
            response = call.finish(await client.complete_body(*as_is))
            return Attempt(target, report.losses, 0.0, response=response)
        events = await client.stream_body(*as_is)
    return await _streamed(events.watched(call.watch_async), report, target)


async def _streamed(events: AsyncEventStream, report: TranslationReport, target: Target) -> Attempt:
    """The attempt of a stream, once its first event came."""
    try:
        first = await _first(events, target.provider)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await events.aclose()
        raise
    return Attempt(target, report.losses, 0.0, first=first, events=events)


def _as_is(endpoint: Endpoint, own: ClientBody, request: ChatRequest, most: int | None) -> _AsIs:
    """The client's body as it goes for `request`: on its model, its output tokens
    capped at `most` (`Endpoint.as_is`), to its path (Gemini's names the model and
    whether it streams), with the API's own headers the client sent."""
    body = endpoint.as_is(own.body, request.model, most=most)
    path = endpoint.path_for(request, stream=request.stream)
    return body, path, own.headers_for(endpoint.api_headers)


async def _first(events: AsyncIterator[StreamEvent], provider: str) -> StreamEvent:
    first = await events.__anext__()
    if isinstance(first, ErrorEvent):
        raise first.to_error(provider)
    return first


def capped(request: ChatRequest, target: Target, report: TranslationReport) -> ChatRequest:
    """`request` asking for at most the target's `max_output_tokens`, and for a
    reasoning budget below it (the budget is part of the output, and Anthropic
    refuses one not below `max_tokens`), each change reported as a setting. A
    body sent as it is gets the same cap in its API's own fields (`Endpoint.as_is`),
    reported here alike."""
    most = target.max_output_tokens
    if most is None or request.max_tokens is None or request.max_tokens <= most:
        return request
    report.transformed(
        "max_tokens",
        f"{request.max_tokens} asked, sent as {most}: the most {target.name} is routed to give",
        "setting",
    )
    update: dict[str, Any] = {"max_tokens": most}
    budget = request.reasoning.budget_tokens if request.reasoning is not None else None
    if request.reasoning is not None and budget is not None and budget >= most:
        report.transformed(
            "reasoning.budget_tokens",
            f"{budget} asked, sent as {most - 1}: below max_tokens {most}",
            "setting",
        )
        update["reasoning"] = request.reasoning.model_copy(update={"budget_tokens": most - 1})
    return request.model_copy(update=update)


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
    status = 504 if is_timeout(error) else 502
    return ProviderConnectionError(
        error.message, provider=error.provider, status=status, request_id=error.request_id
    )
