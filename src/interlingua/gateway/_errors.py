"""The gateway's own refusals, as typed errors that each client API writes in
its own format (`encode_error`): a wrong key, a body too large or not JSON, a
model with no route, an upstream that does not answer in time, a count no
upstream of the route can make, an upstream stream that broke.

They are `ProviderError`s of the provider `interlingua-gateway`, typed and
coded as OpenAI types its own (which the Chat Completions encoders write as
they are; Anthropic's gives each the type of its status); an upstream's own
errors go back with the upstream's status, type, message and request id.

A stream that breaks after its first event ends the client's stream with its
API's error event (`broken_stream`), whose message says which upstream and
what happened, after how many of its events (`N`, the payloads read from it):

    cut off         the upstream X's stream was cut off after N events (<why>)
    timed out       the upstream X's stream timed out after N events: no event came in S s
    unreadable      the upstream X sent an unreadable payload: invalid <api> body at events[N]...
    its own error   the upstream X sent an error after N events: <its type>: <its message>
"""

from __future__ import annotations

from interlingua._errors import (
    AuthenticationError,
    BadRequestError,
    DecodeError,
    InterlinguaError,
    NotFoundError,
    ProviderConnectionError,
    ProviderError,
    ServerError,
)

__all__ = [
    "GATEWAY",
    "bad_request",
    "broken_stream",
    "cannot_count",
    "is_timeout",
    "no_route",
    "not_found",
    "timed_out",
    "too_large",
    "unavailable",
    "unreadable_answer",
    "upstream_error",
    "wrong_key",
]

GATEWAY = "interlingua-gateway"
_INVALID = "invalid_request_error"
_SERVER = "server_error"


def wrong_key() -> ProviderError:
    return AuthenticationError(
        "invalid gateway key: send one of the gateway's keys as x-api-key or Authorization: Bearer",
        provider=GATEWAY,
        status=401,
        type=_INVALID,
        code="invalid_api_key",
    )


def too_large(limit: int) -> ProviderError:
    return BadRequestError(
        f"the request body is larger than the gateway takes ({limit} bytes)",
        provider=GATEWAY,
        status=413,
        type=_INVALID,
        code="request_too_large",
    )


def bad_request(message: str) -> ProviderError:
    return BadRequestError(message, provider=GATEWAY, status=400, type=_INVALID)


def no_route(model: str) -> ProviderError:
    return NotFoundError(
        f"model {model!r} has no route: name it in the gateway's [models], "
        "or ask for 'provider:model'",
        provider=GATEWAY,
        status=404,
        type=_INVALID,
        code="model_not_found",
    )


def not_found(message: str) -> ProviderError:
    return NotFoundError(message, provider=GATEWAY, status=404, type=_INVALID)


def cannot_count(model: str, reason: str) -> ProviderError:
    """A token count that no upstream of the model's route can make (`_count`)."""
    return NotFoundError(
        f"tokens cannot be counted for {model!r} here: {reason}",
        provider=GATEWAY,
        status=404,
        type=_INVALID,
        code="count_not_supported",
    )


def timed_out(upstream: str, seconds: float) -> ProviderError:
    return ProviderConnectionError(
        f"the upstream {upstream} gave no answer in {seconds:g} s",
        provider=GATEWAY,
        status=504,
        type=_SERVER,
        code="timeout",
    )


def unavailable(upstream: str, reason: str) -> ProviderError:
    return ServerError(
        f"the upstream {upstream} cannot be used: {reason}",
        provider=GATEWAY,
        status=502,
        type=_SERVER,
    )


def broken_stream(
    upstream: str, error: InterlinguaError, *, received: int, timeout: float
) -> ProviderError:
    """The error that ends a client's stream when the upstream's broke after its
    first event: `error`, raised reading it, `received` payloads in; `timeout`
    the upstream's read timeout."""
    after = _events(received)
    if isinstance(error, ProviderConnectionError) and is_timeout(error):
        return ProviderConnectionError(
            f"the upstream {upstream}'s stream timed out after {after}: "
            f"no event came in {timeout:g} s",
            provider=GATEWAY,
            status=504,
            type=_SERVER,
            code="timeout",
        )
    if isinstance(error, ProviderConnectionError):
        return ProviderConnectionError(
            f"the upstream {upstream}'s stream was cut off after {after} ({error.message})",
            provider=GATEWAY,
            status=502,
            type=_SERVER,
        )
    if isinstance(error, ProviderError):
        return upstream_error(upstream, error, after=received)
    if isinstance(error, DecodeError):
        message = f"the upstream {upstream} sent an unreadable payload: {error}"
    else:  # what the client's API could not be given of it
        message = f"the upstream {upstream}'s stream could not be passed on after {after}: {error}"
    return ServerError(message, provider=GATEWAY, status=502, type=_SERVER)


def upstream_error(upstream: str, error: ProviderError, *, after: int) -> ProviderError:
    """The upstream's own error, sent in its stream after `after` payloads,
    typed as it was, its message naming the upstream and the error's type."""
    kind = f"{error.type}: " if error.type else ""
    return type(error)(
        f"the upstream {upstream} sent an error after {_events(after)}: {kind}{error.message}",
        provider=error.provider,
        status=error.status,
        type=error.type,
        code=error.code,
        request_id=error.request_id,
        failed_generation=error.failed_generation,
        retry_after=error.retry_after,
        rate_limits=error.rate_limits,
    )


def is_timeout(error: ProviderConnectionError) -> bool:
    """Whether the connection error is a timeout (the HTTP client's, under it)."""
    cause: BaseException | None = error.__cause__
    while cause is not None and "Timeout" not in type(cause).__name__:
        cause = cause.__cause__
    return cause is not None


def _events(count: int) -> str:
    return f"{count} event" if count == 1 else f"{count} events"


def unreadable_answer(reason: str) -> ProviderError:
    return ServerError(
        f"the upstream's answer could not be read: {reason}",
        provider=GATEWAY,
        status=502,
        type=_SERVER,
    )
