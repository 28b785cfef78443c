"""What an SDK's exception adds to the typed error made from its body.

- The headers of its answer (`error_headers`), which the adapter's
  `decode_error` reads as any caller's (the request id, the wait asked for,
  the rate limits: `interlingua._answer_headers`), and the request id the
  SDK's exception names itself.
- The credentials the request carried (its `authorization`, `x-api-key` or
  `api-key` header) are masked wherever the answer echoed them: in the typed
  error's message, text and body, and in the SDK's exception chained to it,
  so that no key reaches a log line or a traceback through an error.

No SDK is imported: exceptions are read by their attributes (`response`,
`headers` and `request` as httpx, httpx2 and the SDKs name them).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from interlingua._errors import ProviderError

__all__ = [
    "CREDENTIAL_HEADERS",
    "CREDENTIAL_PARAMS",
    "MASK",
    "error_headers",
    "mask_secrets",
    "note_answer",
    "request_id",
    "sent_secrets",
    "status_code",
]

MASK = "[redacted]"

# The headers a provider's SDK sends its key in (OpenAI, Groq, Mistral: a bearer
# token; Anthropic: `x-api-key` or a bearer token; Azure: `api-key`; Google:
# `x-goog-api-key`, or the `key` of the URL's query; AWS: a SigV4 `authorization`,
# or a bearer Bedrock API key, and a temporary credential's `x-amz-security-token`).
CREDENTIAL_HEADERS = (
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "api-key",
    "x-goog-api-key",
    "x-amz-security-token",
)
# The query parameters a key may travel in (the Gemini API's `?key=`).
CREDENTIAL_PARAMS = ("key",)
# Shorter values are no key (`Bearer x` in a test), and masking them would mangle text.
_SHORTEST_SECRET = 8


def note_answer(error: ProviderError, exc: BaseException, *, request_id: str | None) -> None:
    """`error`, decoded from the answer of the SDK's status error `exc` (its
    body and headers), with the request id the SDK names where the answer
    gave none, and the credentials the request carried masked wherever the
    answer echoed them."""
    error.request_id = error.request_id or request_id
    mask_secrets(error, exc, sent_secrets(exc))


def error_headers(exc: BaseException) -> Mapping[str, str]:
    """The headers of the answer an SDK's status error was made from (openai,
    anthropic and groq: its `response`; mistralai: its `headers`)."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        headers = getattr(exc, "headers", None)
    return headers if isinstance(headers, Mapping) else {}


def status_code(exc: BaseException) -> int | None:
    """The HTTP status of an SDK's status error: its `status_code` (openai,
    anthropic, groq, mistralai)."""
    found = getattr(exc, "status_code", None)
    return found if isinstance(found, int) else None


def request_id(exc: BaseException) -> str | None:
    """The SDK error's own `request_id` (openai, anthropic: read from the
    answer's headers, which `decode_error` reads too)."""
    found = getattr(exc, "request_id", None)
    return found if isinstance(found, str) and found else None


def sent_secrets(exc: BaseException) -> list[str]:
    """The credentials the request of an SDK error carried, from its headers."""
    request = _request(exc)
    headers = getattr(request, "headers", None)
    if not isinstance(headers, Mapping):
        return []
    secrets = list(_query_secrets(getattr(request, "url", None)))
    for name in CREDENTIAL_HEADERS:
        value = headers.get(name)
        if not isinstance(value, str):
            continue
        scheme, _, token = value.strip().partition(" ")
        for secret in (token.strip() or scheme, value.strip()):
            if len(secret) >= _SHORTEST_SECRET:
                secrets.append(secret)
    # The longest first, so that a key inside a header value is masked whole.
    return sorted(set(secrets), key=len, reverse=True)


def _query_secrets(url: Any) -> Iterator[str]:
    """The keys in a request URL's query (`?key=...`)."""
    for name, value in parse_qsl(urlsplit(str(url or "")).query):
        if name in CREDENTIAL_PARAMS and len(value) >= _SHORTEST_SECRET:
            yield value


def _request(exc: BaseException) -> Any:
    try:  # httpx's and httpx2's errors raise when they were made without one
        request = getattr(exc, "request", None)
    except RuntimeError:
        request = None
    for answer in ("raw_response", "response"):  # mistralai, google-genai: the answer's request
        if request is None:
            try:
                request = getattr(getattr(exc, answer, None), "request", None)
            except RuntimeError:
                request = None
    return request


def mask_secrets(error: ProviderError, cause: BaseException, secrets: Iterable[str]) -> None:
    """`error` and the SDK exception `cause` it was made from (and the ones
    under it), in place, with each of `secrets` masked wherever they hold it."""
    secrets = tuple(secrets)
    if not secrets:
        return
    error.message = _masked(error.message, secrets)
    error.body = _masked(error.body, secrets)
    error.failed_generation = _masked(error.failed_generation, secrets)
    error.request_id = _masked(error.request_id, secrets)
    error.args = _masked(error.args, secrets)
    for exc in _chain(cause):
        exc.args = _masked(exc.args, secrets)
        # The SDKs' own fields of their errors (`message`, `body`, anthropic's `api_message`).
        for name, value in list(vars(exc).items()):
            if isinstance(value, str | dict | list | tuple):
                setattr(exc, name, _masked(value, secrets))


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and the exceptions it was raised from or while handling (the HTTP
    client's, under an SDK's connection error), each once."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _masked(value: Any, secrets: tuple[str, ...]) -> Any:
    """A copy of `value` (text, or JSON data) with `secrets` masked."""
    if isinstance(value, str):
        for secret in secrets:
            value = value.replace(secret, MASK)
        return value
    if isinstance(value, dict):
        return {_masked(key, secrets): _masked(item, secrets) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_masked(item, secrets) for item in value)
    return value
