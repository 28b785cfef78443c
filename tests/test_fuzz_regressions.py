"""What fuzzing the decoders found (`test_fuzz_decoders.py`), each kept as a plain test.

- A body nested deeper than Python's stack allows is a `DecodeError` at the
  path to its deepest value (its first steps), for requests, responses and
  each payload of a stream; bodies nested as deep as real ones still decode.
- An error body whose `code` is no string or number, or whose FastAPI
  `detail` is nested without end, still gives a `ProviderError`.
- A usage count of NaN or infinity (Python's `json` reads them) is no count.
"""

from __future__ import annotations

from typing import Any

import pytest

from interlingua import DecodeError, ProviderError, get_adapter

DEPTH = 10_000


def nested(depth: int, *, objects: bool = False) -> Any:
    value: Any = {} if objects else []
    for _ in range(depth):
        value = {"a": value} if objects else [value]
    return value


def chat_request(extra: dict[str, Any]) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": "Hi"}], **extra}


def chat_response(usage: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    message = {"role": "assistant", "content": "Hello"}
    choice = {"index": 0, "message": message, "finish_reason": "stop"}
    body = {"id": "c1", "object": "chat.completion", "model": "m", "choices": [choice], **extra}
    return body | ({"usage": usage} if usage is not None else {})


REQUESTS = {
    "anthropic": lambda deep: {
        "model": "m",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "Hi"}],
        "extra": deep,
    },
    "openai": lambda deep: chat_request({"extra": deep}),
    "mistral": lambda deep: chat_request({"extra": deep}),
    "groq": lambda deep: chat_request({"extra": deep}),
    "openai-responses": lambda deep: {"model": "m", "input": "Hi", "extra": deep},
}
RESPONSES = {
    "anthropic": lambda deep: {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "Hello"}],
        "stop_reason": "end_turn",
        "extra": deep,
    },
    "openai": lambda deep: chat_response(extra=deep),
    "mistral": lambda deep: chat_response(extra=deep),
    "groq": lambda deep: chat_response(extra=deep),
    "openai-responses": lambda deep: {
        "id": "resp_1",
        "object": "response",
        "model": "m",
        "status": "completed",
        "output": [],
        "extra": deep,
    },
}
STREAMS = {
    "anthropic": lambda deep: [
        {"type": "ping"},
        {"type": "message_start", "message": {"id": "m1", "content": [], "extra": deep}},
    ],
    "openai": lambda deep: [{"id": "c1", "choices": []}, {"id": "c1", "choices": [], "x": deep}],
    "mistral": lambda deep: [{"id": "c1", "choices": []}, {"id": "c1", "choices": [], "x": deep}],
    "groq": lambda deep: [{"id": "c1", "choices": []}, {"id": "c1", "choices": [], "x": deep}],
    "openai-responses": lambda deep: [
        {"type": "response.created", "response": {"id": "r", "output": [], "x": deep}}
    ],
}


@pytest.mark.parametrize("objects", [False, True], ids=["lists", "objects"])
@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_a_request_nested_too_deeply_is_a_decode_error_at_its_field(
    name: str, objects: bool
) -> None:
    with pytest.raises(DecodeError) as raised:
        get_adapter(name).decode_request(REQUESTS[name](nested(DEPTH, objects=objects)))
    assert raised.value.path.startswith("extra")
    assert f"nested {DEPTH + 1} levels deep, too deep to decode" in str(raised.value)
    assert raised.value.provider == name


@pytest.mark.parametrize("name", sorted(RESPONSES))
def test_a_response_nested_too_deeply_is_a_decode_error_at_its_field(name: str) -> None:
    body = RESPONSES[name](nested(DEPTH))
    with pytest.raises(DecodeError) as raised:
        get_adapter(name).decode_response(body)
    assert raised.value.path == "extra" + "[0]" * 15


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_a_stream_payload_nested_too_deeply_is_a_decode_error_at_its_event(name: str) -> None:
    payloads = STREAMS[name](nested(DEPTH))
    with pytest.raises(DecodeError) as raised:
        list(get_adapter(name).decode_stream(payloads))
    assert raised.value.path.startswith(f"events[{len(payloads) - 1}].")
    assert raised.value.provider == name


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_bodies_nested_as_deep_as_real_ones_decode(name: str) -> None:
    # A tool schema or metadata a hundred levels deep is far beyond any seen.
    request = get_adapter(name).decode_request(REQUESTS[name](nested(100, objects=True)))
    assert request.model == "m"


@pytest.mark.parametrize("name", ["openai", "mistral", "groq", "openai-responses"])
@pytest.mark.parametrize("code", [["nested", ["list"]], {"a": 1}, True, nested(DEPTH)])
def test_an_error_code_that_is_no_string_or_number_is_no_code(name: str, code: Any) -> None:
    body = {"error": {"message": "Bad key", "type": "invalid_request_error", "code": code}}
    error = get_adapter(name).decode_error(401, body)
    assert isinstance(error, ProviderError)
    assert (error.status, error.message, error.code) == (401, "Bad key", None)


@pytest.mark.parametrize("code", ["3051", 3051])
def test_an_error_code_that_is_a_string_or_number_is_kept_as_text(code: Any) -> None:
    body = {"object": "error", "message": "Bad", "type": "invalid_request_error", "code": code}
    assert get_adapter("mistral").decode_error(400, body).code == "3051"


def test_a_mistral_detail_nested_without_end_still_gives_an_error() -> None:
    detail: Any = "deep"
    for _ in range(DEPTH):
        detail = {"detail": detail}
    error = get_adapter("mistral").decode_error(422, {"detail": [nested(DEPTH), detail]})
    assert (error.status, error.message) == (422, "HTTP 422")


def test_a_mistral_place_that_is_no_key_or_index_is_shown_as_a_question_mark() -> None:
    body = {"detail": [{"loc": ["body", nested(DEPTH), 2], "msg": "Field required"}]}
    error = get_adapter("mistral").decode_error(422, body)
    assert error.message == "body.?[2]: Field required"


@pytest.mark.parametrize("name", ["openai", "mistral", "groq"])
@pytest.mark.parametrize("count", [float("nan"), float("inf")])
def test_a_usage_count_of_nan_or_infinity_is_no_count(name: str, count: float) -> None:
    usage = {
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "total_tokens": 15,
        "prompt_tokens_details": {"cached_tokens": count, "audio_tokens": 1},
        "completion_tokens_details": {"reasoning_tokens": count},
    }
    response = get_adapter(name).decode_response(chat_response(usage))
    assert response.usage.cache_read_tokens == 0
    assert response.usage.reasoning_tokens == 0
    assert response.usage.details == {"prompt_tokens_details.audio_tokens": 1}
