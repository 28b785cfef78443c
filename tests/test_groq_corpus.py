"""The Groq adapter on real traffic: every call to Groq's chat completions in
the recorded corpus (`../shared/corpus/groq`), and its response-only file.

- a request body decodes and encodes back to itself, with nothing reported,
  and the settings, tools and messages the core models are what the body says;
- a response body decodes and encodes back to itself (`executed_tools`,
  `x_groq` and the rest kept), and what the core models (text, reasoning, tool
  calls, every usage count and timing, the finish reason) is what the body
  says, read here without the adapter;
- a stream accumulates to the answer its chunks describe, rebuilt here from
  the raw chunks (usage from the last chunk's `x_groq.usage`), and encodes
  back to it.

Reasoning comes in `message.reasoning`, or, in Groq's raw format, inside
`<think>...</think>` at the start of the content: the text then holds the
answer alone, and the reasoning (without the tags and the newlines around
it) is a `ReasoningPart` of Groq's.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import interlingua_groq
from chat_corpus import (
    ChatCorpus,
    answer_facts,
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
from interlingua import ChatResponse
from interlingua.testing import Interaction
from interlingua_groq import PROVIDER

TIMINGS = ("queue_time", "prompt_time", "completion_time", "total_time")
THINK = re.compile(r"<think>(.*?)</think>(.*)", re.DOTALL)
# What the corpus's chunks and deltas hold; anything else fails the rebuild.
CHUNK_FIELDS = frozenset({"id", "object", "created", "model", "system_fingerprint", "choices"})
CHUNK_FIELDS |= {"x_groq", "service_tier", "usage_breakdown"}
DELTA_FIELDS = frozenset({"role", "content", "reasoning", "tool_calls"})

_posted = posts_to("/openai/v1/chat/completions", "groq")
# The calls to Groq's chat completions; a response-only file's one answer (it
# has no request) among them.
GROQ = ChatCorpus(("groq",), lambda call: call.request is None or _posted(call))


def has_request(call: Interaction) -> bool:
    return call.request is not None


@pytest.mark.parametrize("path", GROQ.files_with(has_request, "requests"), ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in filter(has_request, GROQ.calls(path)):
        assert call.request is not None
        assert_request_round_trips(interlingua_groq, call.request.json, request_facts, wire_request)


@pytest.mark.parametrize("path", GROQ.files_with(is_answer, "answers"), ids=corpus_id)
def test_every_response_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in filter(is_answer, GROQ.calls(path)):
        assert_response_round_trips(interlingua_groq, call.response.json, facts, wire_facts)


@pytest.mark.parametrize("path", GROQ.files_with(is_stream, "streams"), ids=corpus_id)
def test_every_stream_accumulates_to_the_answer_its_chunks_describe(
    path: Path | MissingCorpus,
) -> None:
    for call in filter(is_stream, GROQ.calls(path)):
        payloads = call.response.stream_payloads()
        answer = rebuilt_answer(payloads)
        assert_stream_is_the_answer(interlingua_groq, payloads, answer, facts, wire_facts)


def test_the_corpus_holds_each_kind_of_groq_traffic() -> None:
    require_corpus("groq")
    calls = GROQ.every_call("groq")
    answers = [call.response.json for call in filter(is_answer, calls)]
    messages = [answer["choices"][0]["message"] for answer in answers]
    sent = [m for call in calls if call.request for m in call.request.json["messages"]]

    assert (len(calls), len(answers), len(list(filter(is_stream, calls)))) == (16, 13, 1)
    assert sum(call.response.status >= 400 for call in calls) == 2
    assert any("executed_tools" in message for message in messages)
    assert any("reasoning" in message for message in messages)
    assert any(len(message.get("tool_calls") or []) > 1 for message in messages)
    assert any(isinstance(m.get("content"), str) and THINK.fullmatch(m["content"]) for m in sent)
    assert any("cached_tokens" in (a["usage"].get("prompt_tokens_details") or {}) for a in answers)


# --- what the core models, read straight from the wire ---


def wire_request(body: dict[str, Any]) -> dict[str, Any]:
    return wire_request_facts(body, wire_message_facts)


def wire_message_facts(message: dict[str, Any]) -> tuple[Any, ...]:
    content = message.get("content")
    items = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    assert {item["type"] for item in items} <= {"text", "image_url"}, items
    text = "".join(item["text"] for item in items if item["type"] == "text")
    files = sum(item["type"] == "image_url" for item in items)
    if message["role"] == "tool":
        return ("tool", "", [], [], [(message["tool_call_id"], text)], files)
    reasoning, text = split_reasoning(message, text)
    return (message["role"], text, reasoning, wire_calls(message), [], files)


def split_reasoning(message: dict[str, Any], text: str) -> tuple[list[tuple[str, str]], str]:
    """An assistant message's reasoning (its `reasoning` field, or the `<think>`
    its content opens with, tags and the newlines around it left out) and the
    text that is left."""
    reasoning = [message["reasoning"]] if message.get("reasoning") else []
    if message["role"] == "assistant" and (think := THINK.fullmatch(text)):
        reasoning.append(think.group(1).strip("\n"))
        text = think.group(2).lstrip("\n")
    return [(PROVIDER, thought) for thought in reasoning], text


def wire_calls(message: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (call["id"], call["function"]["name"], call["function"]["arguments"])
        for call in message.get("tool_calls") or []
    ]


def facts(response: ChatResponse) -> dict[str, Any]:
    usage = response.usage
    return {
        **answer_facts(response),
        "timings": {name: usage.details.get(name) for name in TIMINGS},
    }


def wire_facts(body: dict[str, Any]) -> dict[str, Any]:
    """`facts` of a chat completion body, read without the adapter."""
    (choice,) = body["choices"]
    message, usage = choice["message"], body["usage"]
    content = message.get("content") or ""
    assert isinstance(content, str), f"a content the corpus was not known to hold: {content}"
    reasoning, text = split_reasoning(message, content)
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0)
    return {
        "answer": (PROVIDER, body["id"], body["model"]),
        "text": text,
        "reasoning": [(provider, thought, None, None) for provider, thought in reasoning],
        "tool_calls": wire_calls(message),
        "finish": wire_finish(choice["finish_reason"]),
        "usage": wire_usage(usage, cache_read=cached),
        "timings": {name: usage.get(name) for name in TIMINGS},
    }


# --- the answer a stream describes, rebuilt from its raw chunks ---


def rebuilt_answer(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """The non-streamed body the chunks describe, in Groq's own shape: the
    deltas joined (tool-call fragments by `index`), the last finish reason,
    the usage from the last chunk's `x_groq.usage`, `x_groq` without it; a
    message without `content` when it only calls tools."""
    head = payloads[0]
    text, thinking, finish, logprobs = "", "", None, None
    x_groq: dict[str, Any] = {}
    calls: dict[int, dict[str, Any]] = {}
    for chunk in payloads:
        assert_known(chunk, CHUNK_FIELDS, "chunk field")
        x_groq.update(chunk.get("x_groq") or {})
        (choice,) = chunk["choices"]
        delta = choice["delta"]
        assert_known(delta, DELTA_FIELDS, "delta")
        text += delta.get("content") or ""
        thinking += delta.get("reasoning") or ""
        for fragment in delta.get("tool_calls") or []:
            grow_call(calls, fragment)
        finish = choice.get("finish_reason") or finish
        logprobs = choice.get("logprobs", logprobs)
    message: dict[str, Any] = {"role": "assistant"}
    if text or not calls:
        message["content"] = text
    if thinking:
        message["reasoning"] = thinking
    if calls:
        message["tool_calls"] = [calls[index] for index in sorted(calls)]
    answer = {
        key: head[key] for key in ("id", "created", "model", "system_fingerprint") if key in head
    }
    usage = payloads[-1]["x_groq"]["usage"]
    x_groq.pop("usage")
    return {
        **answer,
        "object": "chat.completion",
        "choices": [
            {"index": 0, "message": message, "logprobs": logprobs, "finish_reason": finish}
        ],
        "usage": usage,
        "x_groq": x_groq,
    }
