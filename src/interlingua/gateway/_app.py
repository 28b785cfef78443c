"""The ASGI application: each client API at its path, the gateway's keys
checked, the body bounded and read, the request routed upstream, and the
answer written back in the client's format with the losses and the time the
gateway added in headers, one log line per request. A body going to its own
API goes as it came (`interlingua.gateway._upstream`); its answer is read by
the upstream's decoder and written by the client API's encoder all the same.

Headers on every answer the gateway routed:

    x-interlingua-upstream       the upstream that answered (`provider:model`)
    x-interlingua-losses         what it could not take: `<n>; <path> <kind> <level>, ...`
    x-interlingua-answer-losses  what the client's API could not take of the answer
    x-interlingua-overhead-ms    the time spent in the gateway, the upstream's left out
    x-interlingua-cost           what a whole answer cost in US dollars, by genai-prices
                                 (`ChatResponse.cost`); absent where it has no price,
                                 and on a stream, whose headers leave before its usage
                                 comes: its cost is in the log line alone

With the `telemetry` extra, each request is one OpenTelemetry SERVER span
(OpenTelemetry's ASGI middleware), which continues the client's `traceparent`;
each upstream call, a fallback's each, is a CLIENT span under it, in the GenAI
conventions (`interlingua._telemetry`), and sends the trace on to the upstream.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from interlingua._cost import ready_prices
from interlingua._errors import DecodeError, InterlinguaError, InvalidDataError, ProviderError
from interlingua._report import TranslationLoss, TranslationReport
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua.gateway._apis import (
    BEDROCK,
    BEDROCK_METHODS,
    BEDROCK_PATHS,
    DEFAULT_PATHS,
    GEMINI,
    GEMINI_COUNT,
    GEMINI_KEY_HEADER,
    GEMINI_METHODS,
    GEMINI_MODEL_LISTS,
    GEMINI_PATHS,
    ClientAPI,
    client_api,
    client_apis,
    error_response,
    framing,
    models_body,
    unstreamable,
)
from interlingua.gateway._config import KEYS_VARIABLE, ConfigError, GatewayConfig
from interlingua.gateway._count import count_tokens, counted_request
from interlingua.gateway._errors import (
    bad_request,
    not_found,
    too_large,
    unreadable_answer,
    wrong_key,
)
from interlingua.gateway._log import RequestLog, log_unready
from interlingua.gateway._stream import LiveStream, translated, until_disconnect
from interlingua.gateway._upstream import Attempt, ClientBody, Upstreams, describe_losses

__all__ = ["Gateway", "create_app"]

_MAX_HEADER_LOSSES = 20
_CLIENT_GONE = 499
_AWS_SIGNATURE = "AWS4-HMAC-SHA256 "  # boto3's `Authorization`: SigV4


class Gateway:
    """The request handlers over one configuration and its upstreams."""

    def __init__(self, config: GatewayConfig, upstreams: Upstreams) -> None:
        self.config = config
        self.upstreams = upstreams
        self.keys = tuple(key.encode() for key in config.gateway_keys())
        if not self.keys:
            raise ConfigError(
                f"no gateway keys: set {KEYS_VARIABLE} (comma-separated) or `keys` in the config"
            )

    def ready(self) -> None:
        """Before the first request: the client APIs' adapters imported, and the routed
        upstreams' adapters and SDK clients (`Upstreams.ready`), and genai-prices'
        data where it is installed, so that the first request costs what the next
        ones do. An upstream that cannot be readied is said once in the log; its
        routes answer with its error."""
        client_apis()
        ready_prices()
        routed = self.upstreams.routed()
        for provider, error in self.upstreams.ready().items():
            log_unready(provider, routed[provider], error, self.config.log)

    # --- what every request goes through ---

    def check_key(self, request: Request) -> None:
        """One of the gateway's keys, as `x-api-key`, `x-goog-api-key` (Google's
        SDK), `Authorization: Bearer`, or the access key id of an AWS signature
        (boto3's: `aws_access_key_id`), compared in constant time with every key."""
        headers = request.headers
        presented = headers.get("x-api-key", headers.get(GEMINI_KEY_HEADER))
        authorization = request.headers.get("authorization", "")
        if presented is None and authorization[:7].lower() == "bearer ":
            presented = authorization[7:].strip()
        elif presented is None and authorization.startswith(_AWS_SIGNATURE):
            presented = _access_key_id(authorization)
        given = (presented or "").encode()
        matched = False
        for key in self.keys:
            matched |= hmac.compare_digest(given, key)
        if not matched:
            raise wrong_key()

    async def read_json(self, request: Request) -> Any:
        limit = self.config.max_body_bytes
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > limit:
            raise too_large(limit)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise too_large(limit)
        try:
            return json.loads(body)
        except (ValueError, UnicodeDecodeError) as error:
            raise bad_request(f"the body is not JSON: {error}") from error

    def decode(self, api: ClientAPI, body: Any) -> ChatRequest:
        if not isinstance(body, dict):
            raise bad_request("the body is not a JSON object")
        try:
            return api.decode_request(body)
        except InvalidDataError as error:
            raise bad_request(str(error)) from error

    # --- the endpoints ---

    async def chat(
        self, request: Request, name: str, *, model: str | None = None, stream: bool = False
    ) -> Response:
        """A chat request in the API `name`; `model` and `stream` where that API has
        them in the URL (Gemini's)."""
        api = client_api(name)
        log = RequestLog(request.method, request.url.path, api=name)
        if api is None:
            return self._finish(log, JSONResponse({"error": f"no client API {name!r}"}, 404))
        try:
            self.check_key(request)
            body = await self.read_json(request)
            chat_request = self.decode(api, body)
            if model is not None:
                chat_request = chat_request.model_copy(update={"model": model, "stream": stream})
            log.model = chat_request.model
            asked = ClientBody(name, body, request.headers.items())
            call = self.upstreams.call(chat_request, strict=self.config.strict, asked=asked)
            attempt = await until_disconnect(request.receive, call)
        except ProviderError as error:
            log.error = str(error)
            return self._finish(log, error_response(api, error))
        except DecodeError as error:  # the upstream's answer, which its decoder cannot read
            return self.refuse(log, name, unreadable_answer(str(error)))
        except InterlinguaError as error:  # the request, which the upstream's API cannot take
            return self.refuse(log, name, bad_request(str(error)))
        if attempt is None:
            return self._gone(log)
        self._note(log, attempt)
        if attempt.response is None:
            return self._stream(api, name, chat_request, attempt, log)
        report = TranslationReport(target=name)
        body = api.encode_response(attempt.response, report=report)
        log.answer_losses = describe_losses(report.losses)
        if attempt.response.usage is not None:
            log.note_usage(attempt.response.usage)
        headers = self._headers(attempt, log, answer_losses=report.losses)
        if (cost := self._cost(log, attempt, attempt.response)) is not None:
            headers["x-interlingua-cost"] = cost
        return self._finish(log, JSONResponse(body, headers=headers))

    def _stream(
        self, api: ClientAPI, name: str, request: ChatRequest, attempt: Attempt, log: RequestLog
    ) -> Response:
        """The upstream's stream as the client's API streams the answer to `request`
        (its usage only where that API would send it); the log has the usage whatever
        the client asked, read from the upstream's events."""
        report = TranslationReport(target=name)
        encoder = api.stream_encoder(report=report, request=request)
        framed = framing(name)
        chunks = translated(attempt, encoder, framed, log)
        log.status = 200

        def on_close() -> None:
            log.answer_losses = describe_losses(report.losses)
            if log.token_usage is not None:
                self._cost(log, attempt, None)
            log.write(self.config.log)

        return LiveStream(
            chunks,
            media_type=framed.media_type,
            headers=self._headers(attempt, log),
            closing=attempt.events.aclose,
            on_close=on_close,
        )

    async def count(self, request: Request, name: str, *, model: str | None = None) -> Response:
        """A token count in the API `name` (`COUNTING_APIS`), answered by an
        upstream of that API; `model` where the API has it in the URL."""
        api = client_api(name)
        log = RequestLog(request.method, request.url.path, api=name)
        if api is None:
            return self._finish(log, JSONResponse({"error": f"no client API {name!r}"}, 404))
        try:
            self.check_key(request)
            body = await self.read_json(request)
            chat_request = self.decode(api, counted_request(name, body))
            if model is not None:
                chat_request = chat_request.model_copy(update={"model": model})
            log.model = chat_request.model
            asked = ClientBody(name, body, request.headers.items())
            counted = count_tokens(self.upstreams, chat_request, asked)
            answered = await until_disconnect(request.receive, counted)
        except ProviderError as error:
            log.error = str(error)
            return self._finish(log, error_response(api, error))
        if answered is None:
            return self._gone(log)
        target, answer = answered
        log.upstream = target.name
        return self._finish(log, JSONResponse(answer))

    async def models(self, request: Request, name: str | None = None) -> Response:
        """The model list in the API `name`'s shape; without one, in the shape of
        the API whose SDK sent the request (`_model_list_api`)."""
        if name is None:
            name = _model_list_api(request)
        log = RequestLog(request.method, request.url.path, api=name)
        try:
            self.check_key(request)
        except ProviderError as error:
            return self.refuse(log, name, error)
        names = self.config.model_names()
        return self._finish(log, JSONResponse(models_body(names, name)))

    async def gemini(self, request: Request) -> Response:
        """`<model>:<method>` of Gemini's API: a chat, streamed or not, or a count."""
        model, _, method = request.path_params["target"].rpartition(":")
        if method == GEMINI_COUNT and model:
            return await self.count(request, GEMINI, model=model)
        stream = GEMINI_METHODS.get(method)
        log = RequestLog(request.method, request.url.path, api=GEMINI, model=model or None)
        if stream is None or not model:
            known = ", ".join([*GEMINI_METHODS, GEMINI_COUNT])
            return self.refuse(
                log, GEMINI, not_found(f"no method {method!r}: the gateway serves {known}")
            )
        if stream and request.query_params.get("alt") != "sse":
            message = (
                "the gateway streams Gemini's answers as server-sent events: ask with ?alt=sse"
            )
            return self.refuse(log, GEMINI, bad_request(message))
        return await self.chat(request, GEMINI, model=model, stream=stream)

    async def converse(self, request: Request) -> Response:
        """`<model id>/<operation>` of Bedrock's Converse API: a chat, streamed or not."""
        model, _, method = request.path_params["target"].rpartition("/")
        stream = BEDROCK_METHODS.get(method)
        log = RequestLog(request.method, request.url.path, api=BEDROCK, model=model or None)
        if stream is None or not model:
            known = ", ".join(BEDROCK_METHODS)
            return self.refuse(
                log, BEDROCK, not_found(f"no operation {method!r}: the gateway serves {known}")
            )
        if stream and (why := unstreamable(BEDROCK)):
            return self.refuse(log, BEDROCK, bad_request(why))
        return await self.chat(request, BEDROCK, model=model, stream=stream)

    def refuse(self, log: RequestLog, name: str, error: ProviderError) -> Response:
        """`error` in the API `name`'s format (OpenAI's if it is not installed)."""
        api = client_api(name) or client_api("openai")
        assert api is not None
        log.error = str(error)
        return self._finish(log, error_response(api, error))

    # --- answers ---

    def _note(self, log: RequestLog, attempt: Attempt) -> None:
        log.upstream = attempt.target.name
        log.upstream_ms = attempt.upstream_seconds * 1000
        log.losses = describe_losses(attempt.losses)
        log.fallbacks = attempt.fallbacks

    @staticmethod
    def _cost(log: RequestLog, attempt: Attempt, response: ChatResponse | None) -> str | None:
        """The answer's cost noted in the log (None: it has no price): its model is
        the answer's (a stream's, from its start), else the one the upstream was asked for."""
        if response is not None:
            log.note_start(response.model, response.provider_data)
        return log.note_cost(attempt.target.model, attempt.target.provider)

    def _headers(
        self, attempt: Attempt, log: RequestLog, answer_losses: Sequence[TranslationLoss] = ()
    ) -> dict[str, str]:
        headers = {"x-interlingua-upstream": attempt.target.name}
        if attempt.losses:
            headers["x-interlingua-losses"] = _losses_header(attempt.losses)
        if answer_losses:
            headers["x-interlingua-answer-losses"] = _losses_header(answer_losses)
        headers["x-interlingua-overhead-ms"] = f"{log.settle_overhead():.3f}"
        return headers

    def _gone(self, log: RequestLog) -> Response:
        """The client disconnected before the answer: the upstream call was
        cancelled, and nginx's 499 (client closed request) is logged."""
        log.error = "the client disconnected: the upstream call was cancelled"
        return self._finish(log, Response(status_code=_CLIENT_GONE))

    def _finish(self, log: RequestLog, response: Response) -> Response:
        log.status = response.status_code
        log.write(self.config.log)
        return response


def _access_key_id(authorization: str) -> str | None:
    """The access key id an AWS signature names (`Credential=<id>/<date>/...`): botocore
    sends no bearer token over plain HTTP, so boto3's gateway key is its key id. The
    gateway knows no secret to check the signature with: the id is the key, as a
    bearer token is."""
    _, found, credential = authorization.partition("Credential=")
    return credential.partition("/")[0] if found else None


def _model_list_api(request: Request) -> str:
    """Whose model list `GET /v1/models` is: Anthropic's for a client that sends
    `anthropic-version`, Gemini's for one that sends its key as Google's SDK does,
    else OpenAI's (which the other SDKs read)."""
    if "anthropic-version" in request.headers:
        return "anthropic"
    return GEMINI if GEMINI_KEY_HEADER in request.headers else "openai"


def _losses_header(losses: Sequence[TranslationLoss]) -> str:
    """`<count>; <path> <kind> <level>, ...` in ASCII (a header's reasons would be too long)."""
    shown = [f"{loss.path} {loss.kind} {loss.level}" for loss in losses[:_MAX_HEADER_LOSSES]]
    more = ", ..." if len(losses) > _MAX_HEADER_LOSSES else ""
    text = f"{len(losses)}; {', '.join(shown)}{more}"
    return text.encode("ascii", "replace").decode("ascii")


def create_app(
    config: GatewayConfig, *, replay: str | Path | None = None, default_key: str | None = None
) -> Starlette:
    """The gateway as an ASGI app. With `replay`, every upstream is answered from
    that recording (any format `interlingua.testing.load_cassette` reads) instead
    of the providers, by method and path, again and again."""
    upstreams = Upstreams(config, default_key=default_key or ("replay" if replay else None))
    gateway = Gateway(config, upstreams)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        with _replaying(replay):
            gateway.ready()
            await anyio.lowlevel.checkpoint()  # anyio's loop backend, which the handlers use
            yield
            await upstreams.aclose()

    def chat_at(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return await gateway.chat(request, name)

        return endpoint

    async def prefixed(request: Request) -> Response:
        return await gateway.chat(request, request.path_params["api"])

    async def anthropic_count(request: Request) -> Response:
        return await gateway.count(request, "anthropic")

    async def gemini_models(request: Request) -> Response:
        return await gateway.models(request, GEMINI)

    routes = [
        Route("/v1/messages/count_tokens", anthropic_count, methods=["POST"]),
        *(Route(path, chat_at(name), methods=["POST"]) for path, name in DEFAULT_PATHS.items()),
        Route("/v1/models", gateway.models, methods=["GET"]),
        *(Route(path, gateway.gemini, methods=["POST"]) for path in GEMINI_PATHS),
        *(Route(path, gemini_models, methods=["GET"]) for path in GEMINI_MODEL_LISTS),
        *(Route(path, gateway.converse, methods=["POST"]) for path in BEDROCK_PATHS),
        Route("/{api}/{rest:path}", prefixed, methods=["POST"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=_traced())
    app.state.gateway = gateway
    return app


def _traced() -> list[Middleware]:
    """OpenTelemetry's ASGI middleware, where the `telemetry` extra installed it:
    each request one SERVER span, continuing the trace its client sent
    (`traceparent`), its upstream calls under it; nothing without it."""
    try:
        from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware
    except ImportError:
        return []
    # Not a span of its own for each message received and sent: the request's is enough.
    return [Middleware(OpenTelemetryMiddleware, exclude_spans=["receive", "send"])]


def _replaying(path: str | Path | None) -> Any:
    if path is None:
        return nullcontext()
    from interlingua.testing import replay

    return replay(path, match_on=("method", "path"), allow_playback_repeats=True)
