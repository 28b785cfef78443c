"""The Anthropic adapter on real traffic: every Anthropic interaction in the
recorded corpus (`../shared/corpus/anthropic`).

- a request body decodes and encodes back to itself, with nothing reported;
- a response body decodes and encodes back to itself, and its finish reason
  (with its meaning) and every usage count are what the body says, read here
  without the adapter;
- a stream accumulates to the message its events describe, rebuilt here from
  the raw events without the adapter, and encodes back to that message;
- an error answer becomes the typed error with its status and message.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import (
    MissingCorpus,
    cassette,
    corpus_files,
    corpus_id,
    corpus_params,
    from_corpus,
    is_answer,
    require_corpus,
    usage_counts,
)
from interlingua import (
    AuthenticationError,
    BadRequestError,
    ChatResponse,
    FinishReason,
    NotFoundError,
    ProviderError,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    TranslationReport,
    accumulate,
)
from interlingua.codec import dump_arguments
from interlingua.testing import Interaction
from interlingua_anthropic import (
    decode_error,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
)

FINISH_REASONS = {
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "max_tokens": FinishReason.LENGTH,
    "model_context_window_exceeded": FinishReason.LENGTH,
    "tool_use": FinishReason.TOOL_CALLS,
    "pause_turn": FinishReason.PAUSE,
    "refusal": FinishReason.CONTENT_FILTER,
}
ERRORS_BY_STATUS: dict[int, type[ProviderError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    404: NotFoundError,
}


def messages_calls(param: Path | MissingCorpus) -> list[Interaction]:
    """The file's calls to POST /v1/messages; its other Anthropic calls are
    token counts, checked to be nothing else."""
    calls = []
    for interaction in cassette(from_corpus(param)).for_provider("anthropic"):
        if interaction.path == "/v1/messages":
            calls.append(interaction)
            continue
        assert interaction.path == "/v1/messages/count_tokens"
        assert set(interaction.response.json) == {"input_tokens"}
    return calls


def is_stream(call: Interaction) -> bool:
    return call.is_stream


def is_failure(call: Interaction) -> bool:
    return call.response.status >= 400


def files_with(kind: Callable[[Interaction], bool], holding: str) -> list[Path | MissingCorpus]:
    """The anthropic corpus files holding a call of `kind`."""
    return corpus_params(
        "anthropic", keep=lambda path: any(map(kind, messages_calls(path))), holding=holding
    )


@pytest.mark.parametrize("path", corpus_params("anthropic"), ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in messages_calls(path):
        assert call.request is not None
        body = call.request.json
        report = TranslationReport(strict=True)

        assert encode_request(decode_request(body), report=report) == body
        assert report.losses == []


@pytest.mark.parametrize("path", files_with(is_answer, "answers"), ids=corpus_id)
def test_every_response_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in filter(is_answer, messages_calls(path)):
        body = call.response.json
        response = decode_response(body)

        assert encode_response(response, report=TranslationReport(strict=True)) == body
        assert response.provider == "anthropic"
        assert len(response.message.parts) == len(body["content"])
        assert counts(response) == wire_counts(body)


@pytest.mark.parametrize("path", files_with(is_stream, "streams"), ids=corpus_id)
def test_every_stream_accumulates_to_the_message_its_events_describe(
    path: Path | MissingCorpus,
) -> None:
    for call in filter(is_stream, messages_calls(path)):
        payloads = call.response.stream_payloads()
        message = rebuilt_message(payloads)

        streamed = accumulate(decode_stream(payloads))

        assert with_compact_arguments(streamed) == decode_response(message)
        assert encode_response(streamed, report=TranslationReport(strict=True)) == message
        assert_describes(streamed, message)


@pytest.mark.parametrize("path", files_with(is_failure, "error answers"), ids=corpus_id)
def test_every_error_answer_becomes_the_typed_error(path: Path | MissingCorpus) -> None:
    for call in filter(is_failure, messages_calls(path)):
        body = call.response.json

        error = decode_error(call.response.status, body)

        assert type(error) is ERRORS_BY_STATUS[call.response.status]
        assert error.status == call.response.status
        assert error.message == body["error"]["message"]
        assert error.type == body["error"]["type"]
        assert error.request_id == body["request_id"]
        assert error.body == body


def test_the_corpus_holds_each_kind_of_anthropic_traffic() -> None:
    require_corpus("anthropic")
    calls = [call for path in corpus_files("anthropic") for call in messages_calls(path)]
    streams = list(filter(is_stream, calls))
    failures = list(filter(is_failure, calls))

    assert len(calls) == 36
    assert len(streams) == 12
    assert {call.response.status for call in failures} == {400, 401, 404}


# --- the message a stream describes, rebuilt from its raw events ---


def rebuilt_message(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """What the events say the message is: message_start's message, each block
    grown by its deltas, then message_delta's fields and usage laid over."""
    message: dict[str, Any] = {}
    blocks: dict[int, dict[str, Any]] = {}
    json_text: dict[int, str] = {}
    for payload in payloads:
        match payload["type"]:
            case "message_start":
                message = copy.deepcopy(payload["message"])
            case "content_block_start":
                blocks[payload["index"]] = copy.deepcopy(payload["content_block"])
            case "content_block_delta":
                index, delta = payload["index"], payload["delta"]
                if delta["type"] == "input_json_delta":
                    json_text[index] = json_text.get(index, "") + delta["partial_json"]
                else:
                    grow(blocks[index], delta)
            case "message_delta":
                message.update(payload["delta"])
                message["usage"].update(payload.get("usage") or {})
    for index, text in json_text.items():
        if text:
            blocks[index]["input"] = json.loads(text)
    message["content"] = [blocks[index] for index in sorted(blocks)]
    return message


def grow(block: dict[str, Any], delta: dict[str, Any]) -> None:
    match delta["type"]:
        case "text_delta":
            block["text"] += delta["text"]
        case "thinking_delta":
            block["thinking"] += delta["thinking"]
        case "signature_delta":
            block["signature"] += delta["signature"]
        case "citations_delta":
            block["citations"] = [*(block.get("citations") or []), delta["citation"]]
        case other:
            raise AssertionError(f"a delta the corpus was not known to hold: {other}")


def with_compact_arguments(response: ChatResponse) -> ChatResponse:
    """Tool arguments as a response body would write them (a stream keeps the
    model's own whitespace)."""
    parts = tuple(
        part.model_copy(update={"arguments": dump_arguments(json.loads(part.arguments))})
        if isinstance(part, ToolCallPart)
        else part
        for part in response.message.parts
    )
    message = response.message.model_copy(update={"parts": parts})
    return response.model_copy(update={"message": message})


def assert_describes(response: ChatResponse, message: dict[str, Any]) -> None:
    """Checks read straight off the rebuilt message, field by field."""
    parts = response.message.parts
    for part, block in zip(parts, message["content"], strict=True):
        match block["type"]:
            case "text":
                assert isinstance(part, TextPart)
                assert part.text == block["text"]
            case "thinking":
                assert isinstance(part, ReasoningPart)
                assert (part.text, part.signature) == (block["thinking"], block["signature"])
            case "redacted_thinking":
                assert isinstance(part, ReasoningPart)
                assert part.redacted_data == block["data"]
            case "tool_use":
                assert isinstance(part, ToolCallPart)
                assert (part.id, part.name) == (block["id"], block["name"])
                assert part.parsed_arguments() == block["input"]
    assert counts(response) == wire_counts(message)
    assert response.id == message["id"]


def counts(response: ChatResponse) -> dict[str, Any]:
    return {
        "finish": (response.finish_reason, response.raw_finish_reason),
        "usage": usage_counts(response.usage),
    }


def wire_counts(message: dict[str, Any]) -> dict[str, Any]:
    """`counts` of a message body, read without the adapter: Anthropic's
    `input_tokens` leaves out the cache reads and writes that the core's
    input counts; thinking tokens are part of the output."""
    usage, stop_reason = message["usage"], message["stop_reason"]
    written = usage.get("cache_creation_input_tokens") or 0
    read = usage.get("cache_read_input_tokens") or 0
    inputs = usage["input_tokens"] + written + read
    thinking = (usage.get("output_tokens_details") or {}).get("thinking_tokens", 0)
    return {
        "finish": (FINISH_REASONS.get(stop_reason, FinishReason.OTHER), stop_reason),
        "usage": (
            inputs,
            usage["output_tokens"],
            inputs + usage["output_tokens"],
            read,
            written,
            thinking,
        ),
    }
