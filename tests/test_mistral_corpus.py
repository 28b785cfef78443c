"""The Mistral adapter on real traffic: every call to Mistral's chat completions
in the recorded corpus (`../shared/corpus/mistral`).

- a request body decodes and encodes back to itself, with nothing reported,
  and the settings, tools and messages the core models are what the body says;
- a response body decodes and encodes back to itself, and what the core models
  (text, thinking, tool calls, every usage count, the finish reason) is what
  the body says, read here without the adapter;
- a stream accumulates to the answer its chunks describe, rebuilt here from
  the raw chunks (the `p` padding left out), and encodes back to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import interlingua_mistral
from chat_corpus import (
    ChatCorpus,
    answer_facts,
    any_call,
    assert_known,
    assert_request_round_trips,
    assert_response_round_trips,
    assert_stream_is_the_answer,
    grow_call,
    posts_to,
    request_facts,
    wire_finish,
    wire_request_facts,
    wire_usage,
)
from conftest import MissingCorpus, corpus_id, is_answer, is_stream, require_corpus
from interlingua import FinishReason
from interlingua.codec import dump_arguments
from interlingua_mistral import PROVIDER

FINISH_REASONS = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "model_length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "error": FinishReason.ERROR,
}
TOOL_CHOICES = {
    "auto": ("auto", None),
    "none": ("none", None),
    "any": ("required", None),
    "required": ("required", None),
}
FILE_CHUNKS = frozenset({"image_url", "document_url", "input_audio"})
# A chunk's fields; `p` is padding of random length (openllmetry's stream).
CHUNK_FIELDS = frozenset({"id", "object", "created", "model", "choices", "usage", "p"})

# The calls to Mistral's chat completions (a file may also hold the OpenAI
# call that built its history).
MISTRAL = ChatCorpus(("mistral",), posts_to("/v1/chat/completions", "mistral"))


@pytest.mark.parametrize("path", MISTRAL.files_with(any_call, "chat calls"), ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in MISTRAL.calls(path):
        assert call.request is not None
        assert_request_round_trips(
            interlingua_mistral, call.request.json, request_facts, wire_request
        )


@pytest.mark.parametrize("path", MISTRAL.files_with(is_answer, "answers"), ids=corpus_id)
def test_every_response_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in filter(is_answer, MISTRAL.calls(path)):
        assert_response_round_trips(
            interlingua_mistral, call.response.json, answer_facts, wire_facts
        )


@pytest.mark.parametrize("path", MISTRAL.files_with(is_stream, "streams"), ids=corpus_id)
def test_every_stream_accumulates_to_the_answer_its_chunks_describe(
    path: Path | MissingCorpus,
) -> None:
    for call in filter(is_stream, MISTRAL.calls(path)):
        payloads = call.response.stream_payloads()
        answer = rebuilt_answer(payloads)
        assert_stream_is_the_answer(interlingua_mistral, payloads, answer, answer_facts, wire_facts)


def test_the_corpus_holds_each_kind_of_mistral_traffic() -> None:
    require_corpus("mistral")
    calls = MISTRAL.every_call("mistral")
    answers = [call.response.json for call in filter(is_answer, calls)]
    usages = [answer["usage"] for answer in answers]

    assert (len(calls), len(answers), len(list(filter(is_stream, calls)))) == (21, 14, 7)
    assert any(isinstance(answer["choices"][0]["message"]["content"], list) for answer in answers)
    assert any("num_cached_tokens" in usage for usage in usages)
    assert any("prompt_tokens_details" in usage for usage in usages)


# --- what the core models, read straight from the wire ---


def wire_request(body: dict[str, Any]) -> dict[str, Any]:
    """Mistral's token limit is `max_tokens` alone, its seed `random_seed`."""
    return wire_request_facts(
        body,
        wire_message_facts,
        max_tokens=("max_tokens",),
        seed="random_seed",
        choices=TOOL_CHOICES,
    )


def wire_message_facts(message: dict[str, Any]) -> tuple[Any, ...]:
    content = message.get("content")
    chunks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    assert {chunk["type"] for chunk in chunks} <= {"text", "thinking"} | FILE_CHUNKS
    text = "".join(chunk["text"] for chunk in chunks if chunk["type"] == "text")
    files = sum(chunk["type"] in FILE_CHUNKS for chunk in chunks)
    if message["role"] == "tool":
        return ("tool", "", [], [], [(message["tool_call_id"], text)], files)
    thinking = [(PROVIDER, thought) for thought, _ in wire_thinking(chunks)]
    return (message["role"], text, thinking, wire_calls(message), [], files)


def wire_thinking(chunks: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    """The text and signature of each `thinking` chunk."""
    return [
        ("".join(inner["text"] for inner in chunk["thinking"]), chunk.get("signature"))
        for chunk in chunks
        if chunk["type"] == "thinking"
    ]


def wire_calls(message: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (call["id"], call["function"]["name"], arguments(call["function"]["arguments"]))
        for call in message.get("tool_calls") or []
    ]


def wire_facts(body: dict[str, Any]) -> dict[str, Any]:
    """`answer_facts` of a chat completion body, read without the adapter."""
    (choice,) = body["choices"]
    message, usage = choice["message"], body["usage"]
    content = message.get("content") or ""
    chunks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    assert {chunk["type"] for chunk in chunks} <= {"text", "thinking"}
    return {
        "answer": (PROVIDER, body["id"], body["model"]),
        "text": "".join(chunk["text"] for chunk in chunks if chunk["type"] == "text"),
        "reasoning": [
            (PROVIDER, thought, signature, None) for thought, signature in wire_thinking(chunks)
        ],
        "tool_calls": wire_calls(message),
        "finish": wire_finish(choice["finish_reason"], FINISH_REASONS),
        "usage": wire_usage(usage, cache_read=cached_tokens(usage)),
    }


def cached_tokens(usage: dict[str, Any]) -> int:
    """Mistral's two names for cache reads: `prompt_tokens_details.cached_tokens`
    (documented) and `num_cached_tokens` (early 2026); none in a body means 0."""
    details = usage.get("prompt_tokens_details") or {}
    if "cached_tokens" in details:
        return int(details["cached_tokens"])
    return int(usage.get("num_cached_tokens", 0))


def arguments(value: str | dict[str, Any]) -> str:
    """A tool call's arguments as the core holds them: Mistral may send an object."""
    return value if isinstance(value, str) else dump_arguments(value)


# --- the answer a stream describes, rebuilt from its raw chunks ---


def rebuilt_answer(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """The non-streamed body the chunks describe, in Mistral's own shape:
    the content deltas joined, tool-call fragments joined by `index`, the last
    finish reason and usage; `tool_calls` null when there are none."""
    head = payloads[0]
    text, finish, usage = "", None, None
    calls: dict[int, dict[str, Any]] = {}
    for chunk in payloads:
        assert_known(chunk, CHUNK_FIELDS, "chunk field")
        usage = chunk.get("usage") or usage
        (choice,) = chunk["choices"]
        delta = choice["delta"]
        content = delta.get("content") or ""
        assert isinstance(content, str), f"a content the corpus was not known to hold: {content}"
        text += content
        for fragment in delta.get("tool_calls") or []:
            grow_call(calls, fragment, indexed=True)
        finish = choice.get("finish_reason") or finish
    message = {
        "role": "assistant",
        "tool_calls": [calls[index] for index in sorted(calls)] or None,
        "content": text,
    }
    return {
        "id": head["id"],
        "created": head["created"],
        "model": head["model"],
        "usage": usage,
        "object": "chat.completion",
        "choices": [{"index": 0, "finish_reason": finish, "message": message}],
    }
