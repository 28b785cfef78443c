"""Typed errors written as each Chat Completions dialect answers them, for a
gateway: `encode_error(error)` gives the HTTP status and the error body.

- every recorded error answer (the corpus and `fixtures/`) of OpenAI's Chat
  Completions, Mistral, Groq and Cerebras, decoded, encoded and decoded
  again, is the same error: class, status, type, code, message, failed
  generation;
- OpenAI and Groq write `{"error": {"message", "type", "param", "code"}}`
  (Groq with `failed_generation`), Mistral `{"object": "error", ...}`,
  Cerebras the error object bare, in an answer and in a stream alike;
- an error without a status (from a stream, or a connection that failed) is
  answered with the status its class stands for.
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import interlingua_anthropic
import interlingua_cerebras
import interlingua_groq
import interlingua_mistral
import interlingua_openai
from conftest import FIXTURES, MissingCorpus, from_corpus, provider_files
from interlingua import (
    AuthenticationError,
    BadRequestError,
    ErrorEvent,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderConnectionError,
    ProviderError,
    RateLimitError,
    ServerError,
    StreamError,
    StreamStart,
    TextDelta,
    accumulate,
)
from interlingua.testing import Cassette, load_cassette

DIALECTS: dict[str, ModuleType] = {
    "openai": interlingua_openai,
    "mistral": interlingua_mistral,
    "groq": interlingua_groq,
    "cerebras": interlingua_cerebras,
}


@functools.cache
def cassette(path: Path) -> Cassette:
    return load_cassette(path)


def error_answers(path: Path, provider: str) -> list[tuple[int, Any]]:
    """The status and body of each error answer from `provider` the file holds."""
    return [
        (call.response.status, call.response.json)
        for call in cassette(path).for_provider(provider)
        if call.response.status >= 400 and not call.is_stream
    ]


# The corpus records no Mistral or Cerebras error (their fixtures do).
ERROR_FILES = provider_files(
    {"openai": "openai-chat", "groq": "groq", "mistral": None, "cerebras": None},
    error_answers,
    "errors",
)


def described(error: ProviderError) -> tuple[Any, ...]:
    return (
        type(error),
        error.status,
        error.type,
        error.code,
        error.message,
        error.failed_generation,
    )


@pytest.mark.parametrize(("name", "path"), ERROR_FILES)
def test_every_recorded_error_encodes_to_a_body_that_decodes_to_it(
    name: str, path: Path | MissingCorpus
) -> None:
    codec = DIALECTS[name]
    for status, body in error_answers(from_corpus(path), name):
        error = codec.decode_error(status, body)

        again = codec.decode_error(*codec.encode_error(error))

        assert described(again) == described(error)


def test_each_dialect_writes_its_own_error_body() -> None:
    openai = interlingua_openai.decode_error(
        400,
        {"error": {"message": "Unsupported value", "type": "invalid_request_error",
                   "param": "messages[0].role", "code": "unsupported_value"}},
    )  # fmt: skip
    assert interlingua_openai.encode_error(openai) == (
        400,
        {"error": {"message": "Unsupported value", "type": "invalid_request_error",
                   "param": "messages[0].role", "code": "unsupported_value"}},
    )  # fmt: skip
    groq = interlingua_groq.decode_error(
        400,
        {"error": {"message": "Tool call validation failed", "type": "invalid_request_error",
                   "code": "tool_use_failed", "failed_generation": '{"name": "f"}'}},
    )  # fmt: skip
    assert interlingua_groq.encode_error(groq) == (
        400,
        {"error": {"message": "Tool call validation failed", "type": "invalid_request_error",
                   "param": None, "code": "tool_use_failed", "failed_generation": '{"name": "f"}'}},
    )  # fmt: skip
    mistral = interlingua_mistral.decode_error(
        429,
        {"object": "error", "message": "Rate limit exceeded", "type": "rate_limited",
         "param": None, "code": "1300", "raw_status_code": 429},
    )  # fmt: skip
    assert interlingua_mistral.encode_error(mistral) == (
        429,
        {"object": "error", "message": "Rate limit exceeded", "type": "rate_limited",
         "param": None, "code": "1300"},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("error_class", "status"),
    [
        (BadRequestError, 400),
        (AuthenticationError, 401),
        (PermissionDeniedError, 403),
        (NotFoundError, 404),
        (RateLimitError, 429),
        (ServerError, 500),
        (OverloadedError, 503),
        (ProviderConnectionError, 502),
        (ProviderError, 500),
    ],
)
def test_an_error_without_a_status_gets_its_classs(
    error_class: type[ProviderError], status: int
) -> None:
    error = error_class("went wrong", provider="anthropic", type="some_error")
    for codec in DIALECTS.values():
        assert codec.encode_error(error)[0] == status


def test_another_providers_error_keeps_its_status_message_and_type() -> None:
    error = interlingua_anthropic.decode_error(
        529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    )
    for codec in DIALECTS.values():
        status, body = codec.encode_error(error)
        again = codec.decode_error(status, body)
        assert (status, type(again), again.type, again.message) == (
            529,
            OverloadedError,
            "overloaded_error",
            "Overloaded",
        )
        in_stream = codec.decode_error(None, body)  # the same body as an in-stream chunk
        assert (type(in_stream), in_stream.message) == (OverloadedError, "Overloaded")


def test_cerebras_writes_its_error_object_bare_in_an_answer_and_a_stream() -> None:
    path = FIXTURES / "cerebras" / "error_wrong_api_key.json"
    [(status, wire)] = error_answers(path, "cerebras")
    error = interlingua_cerebras.decode_error(status, wire)

    encoded_status, body = interlingua_cerebras.encode_error(error)

    assert (encoded_status, body) == (status, wire)  # bare: no `error` wrapper
    assert described(interlingua_cerebras.decode_error(encoded_status, body)) == described(error)
    events = [
        StreamStart(id="chatcmpl-1", model="gpt-oss-120b", provider="cerebras"),
        TextDelta(text="Hel"),
        ErrorEvent.from_error(error),
    ]
    chunks = [event.data for event in interlingua_cerebras.encode_stream(events)]
    assert chunks[-1] == wire
    with pytest.raises(StreamError) as caught:
        accumulate(interlingua_cerebras.decode_stream(chunks))
    in_stream = interlingua_cerebras.decode_error(None, wire)  # the chunk is read as the body
    assert described(caught.value.error) == described(in_stream)
    assert described(caught.value.error)[2:] == described(error)[2:]  # all but class, status
    assert caught.value.partial.message.text == "Hel"
