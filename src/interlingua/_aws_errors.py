"""Amazon Bedrock's errors, which its two APIs share: the Converse API
(`interlingua_bedrock`) and Claude's InvokeModel (`interlingua_anthropic.bedrock`)
answer alike, with a body `{"message": "..."}` and the error's type in the
`X-Amzn-Errortype` header, or inside a stream as a member of the event union
(`{"throttlingException": {"message": "..."}}`, the type's first letter in
lower case).

    type                                  HTTP   class                   kind
    ValidationException                   400    BadRequestError         generic
    AccessDeniedException                 403    PermissionDeniedError   generic
    ResourceNotFoundException             404    NotFoundError           generic
    InternalServerException               500    ServerError             generic
    ThrottlingException                   429    RateLimitError          specific
    ServiceQuotaExceededException         400    RateLimitError          specific
    ModelNotReadyException                429    OverloadedError         specific
    ServiceUnavailableException           503    OverloadedError         specific
    ModelTimeoutException                 408    ServerError             specific
    ModelErrorException,                  424    ServerError             specific
      ModelStreamErrorException
    UnrecognizedClientException,          403    AuthenticationError     specific
      ExpiredTokenException, IncompleteSignature,
      InvalidSignatureException, MissingAuthenticationTokenException

`aws_exception` writes any provider's error as a stream's exception member
(`validationException`, `throttlingException`, `serviceUnavailableException`,
`internalServerException` by its class, else `modelStreamErrorException`).

The statuses are the operations' (botocore's model of Bedrock Runtime) and
AWS's common errors'. A specific type decides whatever the status (AWS's
common errors answer a throttled call 400, an unknown key 403), a generic one
only inside a stream (`interlingua.codec.ErrorTypes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua._answer_headers import header_value
from interlingua._errors import (
    AuthenticationError,
    BadRequestError,
    ErrorTypes,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
)
from interlingua._provider_data import copy_json

__all__ = ["AWS_ERRORS", "aws_error_type", "aws_error_types", "aws_exception"]

# Each type: the status Bedrock answers it with, the core class, and whether it is specific.
AWS_ERRORS: dict[str, tuple[int, type[ProviderError], bool]] = {
    "ValidationException": (400, BadRequestError, False),
    "AccessDeniedException": (403, PermissionDeniedError, False),
    "ResourceNotFoundException": (404, NotFoundError, False),
    "InternalServerException": (500, ServerError, False),
    "ThrottlingException": (429, RateLimitError, True),
    "ServiceQuotaExceededException": (400, RateLimitError, True),
    "ModelNotReadyException": (429, OverloadedError, True),
    "ServiceUnavailableException": (503, OverloadedError, True),
    "ModelTimeoutException": (408, ServerError, True),
    "ModelErrorException": (424, ServerError, True),
    "ModelStreamErrorException": (424, ServerError, True),
    # Quirk: AWS answers a key it does not know 403 ("UnrecognizedClientException ...
    # HTTP Status Code: 403", AWS's common errors), a permission's status: the type decides.
    "UnrecognizedClientException": (403, AuthenticationError, True),
    "ExpiredTokenException": (403, AuthenticationError, True),
    "IncompleteSignature": (403, AuthenticationError, True),
    "InvalidSignatureException": (403, AuthenticationError, True),
    "MissingAuthenticationTokenException": (403, AuthenticationError, True),
}


# A stream's exception member for each class; another goes as a model stream error.
_STREAM_MEMBERS: dict[type[ProviderError], str] = {
    BadRequestError: "validationException",
    RateLimitError: "throttlingException",
    OverloadedError: "serviceUnavailableException",
    ServerError: "internalServerException",
}
_MODEL_STREAM_ERROR = "modelStreamErrorException"


def aws_error_types(base: ErrorTypes) -> ErrorTypes:
    """`base` with Bedrock's types, as the header names them and as a stream's members."""
    named = {
        spelling: (cls, specific)
        for name, (_, cls, specific) in AWS_ERRORS.items()
        for spelling in (name, name[:1].lower() + name[1:])
    }
    return base.extend(
        specific={name: cls for name, (cls, specific) in named.items() if specific},
        generic={name: cls for name, (cls, specific) in named.items() if not specific},
    )


def aws_error_type(headers: Mapping[str, str] | None) -> str | None:
    """The error type an answer's `X-Amzn-Errortype` header names, its suffix left out."""
    value = header_value(headers, "x-amzn-errortype")
    # Quirk: Bedrock names an error's type in a header alone, with a suffix after a colon
    # ("x-amzn-ErrorType: ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/",
    # recorded); the body says only {"message": ...}.
    return value.partition(":")[0].strip() or None if value else None


def aws_exception(error: ProviderError, provider: str) -> dict[str, Any]:
    """The stream's exception member for `error`: `provider`'s own as it came;
    another's by its class, else a model stream error with its status."""
    body = error.body
    if error.provider == provider and isinstance(body, dict) and len(body) == 1:
        (member,) = body
        if member[:1].islower() and member[:1].upper() + member[1:] in AWS_ERRORS:
            return copy_json(body)
    member = next(
        (_STREAM_MEMBERS[cls] for cls in type(error).__mro__ if cls in _STREAM_MEMBERS),
        _MODEL_STREAM_ERROR,
    )
    inner: dict[str, Any] = {"message": error.message}
    if member == _MODEL_STREAM_ERROR and error.status is not None:
        inner |= {"originalStatusCode": error.status, "originalMessage": error.message}
    return {member: inner}
