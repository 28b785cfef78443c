"""The OpenAI adapters on real traffic: every OpenAI interaction in the recorded
corpus (`../shared/corpus/openai-chat` and `openai-responses`), routed by URL
path to the Chat Completions or the Responses API codec.

- a request body decodes and encodes back to itself, with nothing reported;
- a response body decodes and encodes back to itself, and what the core models
  (text, refusal, tool calls, usage, finish reason) is read from it;
- a stream accumulates to the message its chunks describe, rebuilt here from
  the raw chunks without the adapter; a Responses stream accumulates to the
  very response its `response.completed` event carries;
- an error answer becomes the typed error with its status and message.
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import interlingua_openai
import interlingua_openai.responses
from conftest import MissingCorpus, corpus_id, corpus_params, from_corpus, require_corpus, same_json
from interlingua import (
    AuthenticationError,
    BadRequestError,
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
# Each folder on its own, so a missing one is named even when the other is there.
FILES = corpus_params("openai-chat") + corpus_params("openai-responses")


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


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_request_body_round_trips(path: Path | MissingCorpus) -> None:
    for interaction, codec in interactions(path):
        assert interaction.request is not None
        body = interaction.request.json
        report = TranslationReport()
        assert same_json(codec.encode_request(codec.decode_request(body), report=report), body)
        assert report.losses == []


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_response_body_round_trips(path: Path | MissingCorpus) -> None:
    answers = [(i, codec) for i, codec in successes(path) if not i.is_stream]
    for interaction, codec in answers:
        body = interaction.response.json
        response = codec.decode_response(body)
        assert same_json(
            codec.encode_response(response, report=TranslationReport(strict=True)), body
        )
        expected = chat_facts(body) if codec is interlingua_openai else responses_facts(body)
        assert facts(response) == expected


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_stream_accumulates_to_what_its_chunks_say(path: Path | MissingCorpus) -> None:
    streams = [(i, codec) for i, codec in successes(path) if i.is_stream]
    for interaction, codec in streams:
        payloads = interaction.response.stream_payloads()
        response = accumulate(codec.decode_stream(payloads))
        if codec is interlingua_openai:
            assert facts(response) == chat_stream_facts(payloads)
        else:
            completed = next(p for p in payloads if p["type"] == "response.completed")
            assert response == codec.decode_response(completed["response"])
            assert facts(response)["text"] == "".join(
                p["delta"] for p in payloads if p["type"] == "response.output_text.delta"
            )


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_error_answer_is_a_typed_error(path: Path | MissingCorpus) -> None:
    errors = [(i, codec) for i, codec in interactions(path) if i.response.status >= 400]
    for interaction, codec in errors:
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


def facts(response: Any) -> dict[str, Any]:
    parts = response.message.parts
    return {
        "text": "".join(p.text for p in parts if isinstance(p, TextPart)),
        "refusal": "".join(p.text for p in parts if isinstance(p, RefusalPart)) or None,
        "tool_calls": [(p.id, p.name, p.arguments) for p in parts if isinstance(p, ToolCallPart)],
        "usage": (response.usage.input_tokens, response.usage.output_tokens),
        "finish": response.raw_finish_reason,
    }


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
        "usage": (body["usage"]["prompt_tokens"], body["usage"]["completion_tokens"]),
        "finish": body["choices"][0]["finish_reason"],
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
        "usage": (body["usage"]["input_tokens"], body["usage"]["output_tokens"]),
        "finish": body["status"],
    }


def chat_stream_facts(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """The message a Chat Completions stream describes, read from the raw chunks."""
    text, refusal, finish, usage = "", "", None, (0, 0)
    calls: dict[int, list[str]] = {}
    for chunk in payloads:
        if chunk.get("usage"):
            usage = (chunk["usage"]["prompt_tokens"], chunk["usage"]["completion_tokens"])
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
        "usage": usage,
        "finish": finish,
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
