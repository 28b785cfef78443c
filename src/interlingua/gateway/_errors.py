"""The gateway's own refusals, as typed errors that each client API writes in
its own format (`encode_error`): a wrong key, a body too large or not JSON, a
model with no route, an upstream that does not answer in time.

They are `ProviderError`s of the provider `interlingua-gateway`, typed and
coded as OpenAI types its own (which the Chat Completions encoders write as
they are; Anthropic's gives each the type of its status); an upstream's own
errors go back with the upstream's status, type, message and request id.
"""

from __future__ import annotations

from interlingua._errors import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    ProviderConnectionError,
    ProviderError,
    ServerError,
)

__all__ = [
    "GATEWAY",
    "bad_request",
    "cannot_count",
    "no_route",
    "not_found",
    "timed_out",
    "too_large",
    "unavailable",
    "unreadable",
    "unreadable_answer",
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


def cannot_count(upstream: str, api: str) -> ProviderError:
    return NotFoundError(
        f"the upstream {upstream} cannot count tokens: only a {api} upstream can",
        provider=GATEWAY,
        status=404,
        type=_INVALID,
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


def unreadable(reason: str) -> ProviderError:
    return ServerError(
        f"the upstream's stream could not be read: {reason}",
        provider=GATEWAY,
        status=502,
        type=_SERVER,
    )


def unreadable_answer(reason: str) -> ProviderError:
    return ServerError(
        f"the upstream's answer could not be read: {reason}",
        provider=GATEWAY,
        status=502,
        type=_SERVER,
    )
