"""The OpenAI adapters on real traffic: every OpenAI interaction in the recorded
corpus (`../shared/corpus/openai-chat` and `openai-responses`), routed by URL
path to the Chat Completions or the Responses API codec.

- a request body decodes and encodes back to itself, with nothing reported;
- a response body decodes and encodes back to itself, and what the core models
  (text, refusal, tool calls, every usage count, the finish reason and its
  meaning) is read from it without the adapter;
- a stream accumulates to the message its chunks describe, rebuilt here from
  the raw chunks without the adapter; a Responses stream accumulates to the
  very response its `response.completed` event carries;
- an error answer becomes the typed error with its status and message.

Each test is parametrized over the files holding what it checks (answers,
streams, errors), chosen when the tests are collected.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import interlingua_openai
import interlingua_openai.responses
from conftest import (
    MissingCorpus,
    corpus_id,
    corpus_params,
    from_corpus,
    require_corpus,
    same_json,
    usage_counts,
)
from interlingua import (
    AuthenticationError,
    BadRequestError,
    ChatResponse,
    FinishReason,
    NotFoundError,
    ProviderError,
    RefusalPart,
    TextPart,
    ToolCallPart,
    TranslationReport,
    accumulate,
)
from interlingua.testing import Cassette, Interaction, load_cassette

ERRORS_BY_STATUS: dict[int, type[ProviderError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    404: NotFoundError,
}
CODECS: dict[str, ModuleType] = {
    "/v1/chat/completions": interlingua_openai,
    "/v1/responses": interlingua_openai.responses,
}
CHAT_FINISH_REASONS = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "function_call": FinishReason.TOOL_CALLS,
    "content_filter": FinishReason.CONTENT_FILTER,
}
# A Responses `status`; `completed` with a call in the output means tool calls.
RESPONSES_STATUSES = {
    "completed": FinishReason.STOP,
    "failed": FinishReason.ERROR,
    "cancelled": FinishReason.OTHER,
}
RESPONSES_INCOMPLETE = {
    "max_output_tokens": FinishReason.LENGTH,
    "content_filter": FinishReason.CONTENT_FILTER,
}
FOLDERS = ("openai-chat", "openai-responses")


@functools.cache
def cassette(path: Path) -> Cassette:
    return load_cassette(path)


def interactions(param: Path | MissingCorpus) -> list[tuple[Interaction, ModuleType]]:
    path = from_corpus(param)
    found = [
        (interaction, CODECS[interaction.path or ""])
        for interaction in cassette(path).for_provider("openai")
        if interaction.path in CODECS
    ]
    assert found, f"{path.name} holds no OpenAI API interaction"
    return found


def successes(path: Path | MissingCorpus) -> list[tuple[Interaction, ModuleType]]:
    return [(i, codec) for i, codec in interactions(path) if i.response.status < 400]


def is_answer(interaction: Interaction) -> bool:
    return not interaction.is_stream and interaction.response.status < 400


def is_stream(interaction: Interaction) -> bool:
    return interaction.is_stream and interaction.response.status < 400


def is_failure(interaction: Interaction) -> bool:
    return interaction.response.status >= 400


def of_kind(
    kind: Callable[[Interaction], bool], path: Path | MissingCorpus
) -> list[tuple[Interaction, ModuleType]]:
    return [(i, codec) for i, codec in interactions(path) if kind(i)]


def files_with(
    kind: Callable[[Interaction], bool], holding: str = "files"
) -> list[Path | MissingCorpus]:
    """The files of each folder holding an interaction of `kind`; each folder on
    its own, so a missing one is named even when the other is there."""
    return [
        param
        for folder in FOLDERS
        for param in corpus_params(
            folder, keep=lambda path: bool(of_kind(kind, path)), holding=holding
        )
    ]


FILES = files_with(lambda _: True)


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_request_body_round_trips(path: Path | MissingCorpus) -> None:
    for interaction, codec in interactions(path):
        assert interaction.request is not None
        body = interaction.request.json
        report = TranslationReport()
        assert same_json(codec.encode_request(codec.decode_request(body), report=report), body)
        assert report.losses == []


@pytest.mark.parametrize("path", files_with(is_answer, "answers"), ids=corpus_id)
def test_every_response_body_round_trips(path: Path | MissingCorpus) -> None:
    for interaction, codec in of_kind(is_answer, path):
        body = interaction.response.json
        response = codec.decode_response(body)
        assert same_json(
            codec.encode_response(response, report=TranslationReport(strict=True)), body
        )
        expected = chat_facts(body) if codec is interlingua_openai else responses_facts(body)
        assert facts(response) == expected


@pytest.mark.parametrize("path", files_with(is_stream, "streams"), ids=corpus_id)
def test_every_stream_accumulates_to_what_its_chunks_say(path: Path | MissingCorpus) -> None:
    for interaction, codec in of_kind(is_stream, path):
        payloads = interaction.response.stream_payloads()
        response = accumulate(codec.decode_stream(payloads))
        if codec is interlingua_openai:
            assert facts(response) == chat_stream_facts(payloads)
        else:
            completed = next(p for p in payloads if p["type"] == "response.completed")
            assert facts(response) == responses_facts(completed["response"])
            assert response == codec.decode_response(completed["response"])
            assert facts(response)["text"] == "".join(
                p["delta"] for p in payloads if p["type"] == "response.output_text.delta"
            )


@pytest.mark.parametrize("path", files_with(is_failure, "error answers"), ids=corpus_id)
def test_every_error_answer_is_a_typed_error(path: Path | MissingCorpus) -> None:
    for interaction, codec in of_kind(is_failure, path):
        status, body = interaction.response.status, interaction.response.json
        error = codec.decode_error(status, interaction.response.body)
        assert type(error) is ERRORS_BY_STATUS[status]
        assert error.status == status
        assert error.message == body["error"]["message"]
        assert error.type == body["error"]["type"]
        assert error.provider == codec.PROVIDER


def test_the_corpus_covers_both_apis_and_every_kind_of_answer() -> None:
    require_corpus("openai-chat")
    require_corpus("openai-responses")
    found = [(i, codec) for path in FILES for i, codec in interactions(path)]
    chat = [i for i, codec in found if codec is interlingua_openai]
    responses = [i for i, codec in found if codec is interlingua_openai.responses]
    assert len(chat) >= 50
    assert len(responses) >= 5
    for group in (chat, responses):
        assert any(i.is_stream for i in group)
        assert any(i.response.status >= 400 for i in group)
        assert any(not i.is_stream and i.response.status < 400 for i in group)


# --- what the core models, read straight from the wire ---


def facts(response: ChatResponse) -> dict[str, Any]:
    parts = response.message.parts
    usage = response.usage
    return {
        "text": "".join(p.text for p in parts if isinstance(p, TextPart)),
        "refusal": "".join(p.text for p in parts if isinstance(p, RefusalPart)) or None,
        "tool_calls": [(p.id, p.name, p.arguments) for p in parts if isinstance(p, ToolCallPart)],
        "usage": usage_counts(usage),
        "finish": (response.finish_reason, response.raw_finish_reason),
    }


def wire_usage(usage: dict[str, Any] | None, input_name: str, output_name: str) -> tuple[int, ...]:
    """The six counts of an OpenAI usage object (`prompt_tokens` and
    `completion_tokens`, or the Responses API's `input_tokens` and
    `output_tokens`): the input counts the cached tokens already, the output
    the reasoning ones; no usage means nothing counted."""
    if usage is None:
        return (0, 0, 0, 0, 0, 0)
    inputs = usage.get(f"{input_name}_details") or {}
    outputs = usage.get(f"{output_name}_details") or {}
    total = usage.get("total_tokens", usage[input_name] + usage[output_name])
    return (
        usage[input_name],
        usage[output_name],
        total,
        inputs.get("cached_tokens", 0),
        inputs.get("cache_write_tokens", 0),
        outputs.get("reasoning_tokens", 0),
    )


def chat_finish(raw: str | None) -> tuple[FinishReason | None, str | None]:
    return (None if raw is None else CHAT_FINISH_REASONS.get(raw, FinishReason.OTHER), raw)


def responses_finish(body: dict[str, Any]) -> tuple[FinishReason | None, str | None]:
    status = body["status"]
    if status == "incomplete":
        why = (body.get("incomplete_details") or {}).get("reason") or "incomplete"
        return RESPONSES_INCOMPLETE.get(why, FinishReason.OTHER), why
    calls = any(item["type"] in ("function_call", "custom_tool_call") for item in body["output"])
    if status == "completed" and calls:
        return FinishReason.TOOL_CALLS, status
    return RESPONSES_STATUSES.get(status), status


def chat_facts(body: dict[str, Any]) -> dict[str, Any]:
    message = body["choices"][0]["message"]
    calls = [
        (c["id"], c["function"]["name"], c["function"]["arguments"])
        for c in message.get("tool_calls") or []
    ]
    if legacy := message.get("function_call"):
        calls.append(("", legacy["name"], legacy["arguments"]))
    return {
        "text": message.get("content") or "",
        "refusal": message.get("refusal"),
        "tool_calls": calls,
        "usage": wire_usage(body["usage"], "prompt_tokens", "completion_tokens"),
        "finish": chat_finish(body["choices"][0]["finish_reason"]),
    }


def responses_facts(body: dict[str, Any]) -> dict[str, Any]:
    text = [
        part["text"]
        for item in body["output"]
        if item["type"] == "message"
        for part in item["content"]
        if part["type"] == "output_text"
    ]
    calls = [
        (item["call_id"], item["name"], item["arguments"])
        for item in body["output"]
        if item["type"] == "function_call"
    ]
    return {
        "text": "".join(text),
        "refusal": None,
        "tool_calls": calls,
        "usage": wire_usage(body["usage"], "input_tokens", "output_tokens"),
        "finish": responses_finish(body),
    }


def chat_stream_facts(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """The message a Chat Completions stream describes, read from the raw chunks."""
    text, refusal, finish, usage = "", "", None, None
    calls: dict[int, list[str]] = {}
    for chunk in payloads:
        usage = chunk.get("usage") or usage
        for choice in chunk["choices"]:
            delta = choice["delta"]
            text += delta.get("content") or ""
            refusal += delta.get("refusal") or ""
            for call in delta.get("tool_calls") or []:
                entry = calls.setdefault(call["index"], [call.get("id", ""), "", ""])
                entry[1] = entry[1] or call.get("function", {}).get("name", "")
                entry[2] += call.get("function", {}).get("arguments", "")
            finish = choice.get("finish_reason") or finish
    return {
        "text": text,
        "refusal": refusal or None,
        "tool_calls": [tuple(calls[index]) for index in sorted(calls)],
        "usage": wire_usage(usage, "prompt_tokens", "completion_tokens"),
        "finish": chat_finish(finish),
    }


def test_a_corpus_stream_keeps_its_finish_reason_and_usage_details() -> None:
    name = "test_max_tokens__openai_gpt_4o_completions__stream.yaml"
    (path,) = require_corpus("openai-chat").rglob(name)
    ((interaction, codec),) = interactions(path)
    response = accumulate(codec.decode_stream(interaction.response.stream_payloads()))
    assert response.finish_reason is FinishReason.LENGTH
    assert response.usage.details["completion_tokens_details.rejected_prediction_tokens"] == 0
    assert (
        codec.encode_response(response)["usage"]
        == interaction.response.stream_payloads()[-1]["usage"]
    )


# OpenAI calls recorded among another provider's traffic (a Responses call that
# builds the history of a Mistral test).
ELSEWHERE = corpus_params(
    "mistral",
    "anthropic",
    "groq",
    pattern="*.yaml",
    keep=lambda path: b"api.openai.com" in path.read_bytes(),
    holding="OpenAI calls",
)


@pytest.mark.parametrize("path", ELSEWHERE, ids=corpus_id)
def test_openai_calls_recorded_elsewhere_round_trip_too(path: Path | MissingCorpus) -> None:
    for interaction, codec in successes(path):
        body = interaction.request.json
        assert same_json(codec.encode_request(codec.decode_request(body)), body)
        answer = interaction.response.json
        assert same_json(codec.encode_response(codec.decode_response(answer)), answer)
