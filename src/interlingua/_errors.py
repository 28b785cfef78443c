"""The one exception hierarchy of interlingua.

InterlinguaError
 ├── InvalidDataError (ValueError)    a value that breaks the core's rules; names the path
 │    ├── DecodeError                 a provider body that cannot be decoded
 │    └── HistoryFormatError          a saved history of an unknown format or version
 ├── ToolArgumentsError (ValueError)  tool-call arguments that are not a JSON object; keeps the text
 ├── TranslationError                 strict mode: a part the target cannot take, or a change
 ├── ProviderError                    an error answer from a provider: status, type, message, body
 │    ├── BadRequestError             400, 413, 422
 │    ├── AuthenticationError         401
 │    ├── PermissionDeniedError       403
 │    ├── NotFoundError               404
 │    ├── RateLimitError              429
 │    ├── ServerError                 5xx
 │    │    └── OverloadedError        529 (Groq's 498), or an `overloaded_error` type
 │    └── ProviderConnectionError     no answer: the connection failed or timed out
 ├── StreamError                      a stream that broke; keeps the partial response
 ├── AdapterNotFoundError (LookupError)
 ├── CostError (LookupError)          no price: genai-prices not installed, or a provider,
 │                                    model or usage it does not price (named)
 └── CassetteError                    a recording that cannot be read, or a request the
                                      testing kit cannot answer
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError

    from interlingua._rate_limits import RateLimits
    from interlingua._response import ChatResponse

from interlingua._answer_headers import error_facts

__all__ = [
    "COMMON_ERROR_TYPES",
    "AdapterNotFoundError",
    "AuthenticationError",
    "BadRequestError",
    "CassetteError",
    "CostError",
    "DecodeError",
    "ErrorTypes",
    "HistoryFormatError",
    "InterlinguaError",
    "InvalidDataError",
    "NotFoundError",
    "OverloadedError",
    "PermissionDeniedError",
    "ProviderConnectionError",
    "ProviderError",
    "RateLimitError",
    "ServerError",
    "StreamError",
    "ToolArgumentsError",
    "TranslationError",
    "format_path",
    "provider_error_class",
]


class InterlinguaError(Exception):
    """Base class of every error interlingua raises."""


def format_path(loc: Sequence[str | int]) -> str:
    """`("messages", 3, "parts", 1, "type")` -> `messages[3].parts[1].type`."""
    out = ""
    for item in loc:
        if isinstance(item, int):
            out += f"[{item}]"
        else:
            out += f".{item}" if out else item
    return out or "<root>"


class InvalidDataError(InterlinguaError, ValueError):
    """A value that breaks the core's rules.

    `problems` lists each `(path, message)`; the first one leads the text.
    """

    def __init__(self, problems: Sequence[tuple[str, str]], *, subject: str = "value") -> None:
        self.problems: tuple[tuple[str, str], ...] = tuple(problems)
        self.subject = subject
        lines = [f"{path}: {message}" for path, message in self.problems]
        head = f"invalid {subject}"
        if len(lines) == 1:
            super().__init__(f"{head} at {lines[0]}")
        else:
            super().__init__(f"{head} ({len(lines)} problems):\n  " + "\n  ".join(lines))

    @property
    def path(self) -> str:
        """Where the first problem is, as `messages[3].parts[1].type`."""
        return self.problems[0][0] if self.problems else "<root>"

    @classmethod
    def from_validation(
        cls,
        exc: ValidationError,
        *,
        subject: str,
        prefix: Sequence[str | int] = (),
        union_tags: frozenset[str] = frozenset(),
    ) -> InvalidDataError:
        """The error for pydantic's; `union_tags` are the tags of the discriminated
        unions of the model validated, which pydantic puts in an error's place
        (`parts.0.tool_result.tool_call_id`) though they are no key of the JSON."""
        problems = [
            (format_path([*prefix, *_json_loc(error, union_tags)]), _describe(error))
            for error in exc.errors()
        ]
        return cls(problems, subject=subject)


def _json_loc(error: Mapping[str, Any], union_tags: frozenset[str]) -> list[str | int]:
    """The error's place as a path into the JSON: without the union tags, and
    with the index of a part refused by its message's role, which pydantic
    keeps in the error's context."""
    loc: list[str | int] = []
    for item in error["loc"]:
        after_index = bool(loc) and isinstance(loc[-1], int)
        if not (after_index and isinstance(item, str) and item in union_tags):
            loc.append(item)
    if error["type"] == "part_not_allowed":
        loc.append(error["ctx"]["index"])
    return loc


def _describe(error: Mapping[str, Any]) -> str:
    if error["type"] == "value_error" and "error" in error.get("ctx", {}):
        return str(error["ctx"]["error"])
    message = str(error["msg"])
    return message.lower() if error["type"] in {"missing", "extra_forbidden"} else message


class DecodeError(InvalidDataError):
    """A provider's request, response or stream event that cannot be decoded.

    The path is a path into the provider's JSON body.
    """

    def __init__(self, path: str, message: str, *, provider: str) -> None:
        self.provider = provider
        super().__init__([(path, message)], subject=f"{provider} body")


class HistoryFormatError(InvalidDataError):
    """A saved history whose `format` or `version` this interlingua cannot read."""

    def __init__(self, message: str, *, path: str = "<root>") -> None:
        super().__init__([(path, message)], subject="chat history file")


class ToolArgumentsError(InterlinguaError, ValueError):
    """Tool-call arguments that are not a JSON object. `arguments` keeps the raw text."""

    def __init__(self, message: str, *, arguments: str, tool_call_id: str | None = None) -> None:
        self.arguments = arguments
        self.tool_call_id = tool_call_id
        where = f" of tool call {tool_call_id!r}" if tool_call_id else ""
        super().__init__(f"arguments{where} are not a JSON object: {message}")


class TranslationError(InterlinguaError):
    """Raised in strict mode when a part would be dropped or changed on the wire;
    `level` is the loss's (`content`, `setting` or `hint`)."""

    def __init__(
        self, path: str, kind: str, reason: str, *, target: str, level: str = "content"
    ) -> None:
        self.path = path
        self.kind = kind
        self.reason = reason
        self.target = target
        self.level = level
        if target:
            super().__init__(f"{path}: cannot send to {target} ({kind}, {level}): {reason}")
        else:  # a report no encoder filled: `sanitize`'s
            super().__init__(f"{path}: {kind} ({level}): {reason}")


class ProviderError(InterlinguaError):
    """An error answer from a provider's API.

    `status` is the HTTP status (None for an error event inside a stream),
    `type` and `code` the provider's own error type and code, `body` the
    decoded body exactly as received, `request_id` the provider's id of the
    request, `retry_after` the seconds it asked to wait before the next one
    and `rate_limits` the limits it reported (`interlingua.RateLimits`), where
    it gave them, in its body or in the answer's `headers` (not kept; read by
    `interlingua._answer_headers.error_facts`). `failed_generation` is the model's
    own output that the provider refused after generating it (Groq's
    `tool_use_failed`: the tool call's raw text), kept for the caller to repair.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        status: int | None = None,
        type: str | None = None,
        code: str | None = None,
        body: Any = None,
        request_id: str | None = None,
        failed_generation: str | None = None,
        retry_after: float | None = None,
        rate_limits: RateLimits | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.message = message
        self.provider = provider
        self.status = status
        self.type = type
        self.code = code
        self.body = body
        self.failed_generation = failed_generation
        self.request_id, self.retry_after, self.rate_limits = error_facts(
            headers, request_id, retry_after, rate_limits
        )
        where = f"{provider} {status}" if status is not None else provider
        kind = f" {type}" if type else ""
        super().__init__(f"{where}{kind}: {message}")

    @property
    def retryable(self) -> bool:
        """Whether sending the same request again may succeed."""
        if self.type in _FINAL_TYPES or self.code in _FINAL_TYPES:
            return False
        if self.status is None:  # inside a stream: its type chose its class
            return isinstance(self, RateLimitError | ServerError)
        return self.status in {408, 409, 429} or self.status >= 500

    @classmethod
    def for_status(
        cls,
        status: int | None,
        message: str,
        *,
        provider: str,
        type: str | None = None,
        code: str | None = None,
        body: Any = None,
        request_id: str | None = None,
        failed_generation: str | None = None,
        retry_after: float | None = None,
        types: ErrorTypes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> ProviderError:
        """The subclass that the HTTP status (None inside a stream), the
        provider's error type and its code say, by `types` (the provider's
        `ErrorTypes`; `COMMON_ERROR_TYPES` by default)."""
        subclass = (types or COMMON_ERROR_TYPES).error_class(status, type, code)
        return subclass(
            message,
            provider=provider,
            status=status,
            type=type,
            code=code,
            body=body,
            request_id=request_id,
            failed_generation=failed_generation,
            retry_after=retry_after,
            headers=headers,
        )


class BadRequestError(ProviderError):
    """The provider rejected the request as malformed (400, 413, 422)."""


class AuthenticationError(ProviderError):
    """The API key is missing or wrong (401)."""


class PermissionDeniedError(ProviderError):
    """The key may not use this resource (403)."""


class NotFoundError(ProviderError):
    """The model or resource does not exist (404)."""


class RateLimitError(ProviderError):
    """Too many requests or tokens (429)."""


class ServerError(ProviderError):
    """The provider failed (5xx)."""


class OverloadedError(ServerError):
    """The provider is temporarily overloaded (Anthropic's 529, Groq's 498). Worth a
    retry, whatever status the provider gives it."""

    @property
    def retryable(self) -> bool:
        return True


class ProviderConnectionError(ProviderError):
    """No answer came: the connection failed or timed out. Worth a retry."""

    @property
    def retryable(self) -> bool:
        return True


_ERRORS_BY_STATUS: dict[int, type[ProviderError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    413: BadRequestError,
    422: BadRequestError,
    429: RateLimitError,
    529: OverloadedError,
}


@dataclass(frozen=True, slots=True)
class ErrorTypes:
    """The error types and codes that name a class of `ProviderError`, beside
    the HTTP status, in two kinds:

    - `specific`: a condition that the status may not name, which decides
      whatever the status (an `overloaded_error` is worth a retry with any
      status; Groq answers one request over its tokens-per-minute limit 413
      `rate_limit_exceeded`);
    - `generic`: only the broad kind of error, which the status names better
      (Ollama answers a bad key 401 `api_error`, OpenAI 401
      `invalid_request_error`): it decides only where there is no status, for
      an error inside a stream.

    So a class is found by a specific type or code, else by the status, else
    (no status) by a generic type or code; the code first, as the narrower
    (OpenAI's `invalid_api_key` of an `invalid_request_error`).
    `COMMON_ERROR_TYPES` holds the names several providers share; an adapter
    adds its own (`COMMON_ERROR_TYPES.extend(...)`) and passes them to
    `ProviderError.for_status`.
    """

    specific: Mapping[str, type[ProviderError]] = field(default_factory=dict)
    generic: Mapping[str, type[ProviderError]] = field(default_factory=dict)

    def extend(
        self,
        *,
        specific: Mapping[str, type[ProviderError]] | None = None,
        generic: Mapping[str, type[ProviderError]] | None = None,
    ) -> ErrorTypes:
        """These types with a provider's own laid over them."""
        return ErrorTypes(
            {**self.specific, **(specific or {})}, {**self.generic, **(generic or {})}
        )

    def error_class(
        self, status: int | None, kind: str | None, code: str | None
    ) -> type[ProviderError]:
        """The class of an error answered with `status` (None inside a stream),
        of type `kind` and code `code`."""
        found = _named(self.specific, kind, code)
        if found is None and status is not None:
            return _subclass_for_status(status)
        return found or _named(self.generic, kind, code) or ProviderError


def _named(
    table: Mapping[str, type[ProviderError]], kind: str | None, code: str | None
) -> type[ProviderError] | None:
    return table.get(code or "") or table.get(kind or "")


# The names Anthropic's, OpenAI's and Mistral's errors share.
COMMON_ERROR_TYPES = ErrorTypes(
    specific={
        "overloaded_error": OverloadedError,
        "rate_limit_error": RateLimitError,
        "rate_limit_exceeded": RateLimitError,
        "rate_limited": RateLimitError,
        "insufficient_quota": RateLimitError,  # a 429 that no wait mends (OpenAI)
        "invalid_api_key": AuthenticationError,
    },
    generic={
        "api_error": ServerError,
        "server_error": ServerError,
    },
)

# A 429 that no wait mends: the account is out of credit (OpenAI).
_FINAL_TYPES = frozenset({"insufficient_quota"})

_PROVIDER_ERRORS: dict[str, type[ProviderError]] = {
    cls.__name__: cls
    for cls in (ProviderError, BadRequestError, AuthenticationError, PermissionDeniedError,
                NotFoundError, RateLimitError, ServerError, OverloadedError,
                ProviderConnectionError)
}  # fmt: skip


def provider_error_class(name: str | None) -> type[ProviderError] | None:
    """The core's `ProviderError` class called `name`, for an error carried as
    data (a stream's `ErrorEvent`); None for any other name."""
    return _PROVIDER_ERRORS.get(name or "")


def _subclass_for_status(status: int | None) -> type[ProviderError]:
    if status is None:
        return ProviderError
    return _ERRORS_BY_STATUS.get(status, ServerError if status >= 500 else ProviderError)


class StreamError(InterlinguaError):
    """A stream that ended in an error or broke off.

    `partial` is the response accumulated from what did arrive; `error` the
    provider's error when the stream carried one.
    """

    def __init__(
        self,
        message: str,
        *,
        partial: ChatResponse | None = None,
        error: ProviderError | None = None,
    ) -> None:
        self.partial = partial
        self.error = error
        super().__init__(message)


class AdapterNotFoundError(InterlinguaError, LookupError):
    """No adapter is registered under the name asked for."""


class CostError(InterlinguaError, LookupError):
    """No price for a call: genai-prices is not installed, or it does not price what is named."""


class CassetteError(InterlinguaError):
    """A recorded interaction file that cannot be read, or a request the testing
    kit cannot answer (none recorded matches it; a fake provider cannot place it)."""
