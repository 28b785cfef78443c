"""The DeepSeek, Cerebras, Ollama and plain OpenAI-compatible adapters on real
traffic: every chat completions call of their folders of the recorded corpus
(`../shared/corpus/compat/<folder>`; `together/` and `other/` are servers that
add nothing of their own, so the plain dialect's).

- a request body decodes and encodes back to itself, with nothing reported,
  and the settings, tools, tool choice and messages the core models (text,
  reasoning, tool calls and results, files) are what the body says, read here
  without the adapter;
- a response body decodes and encodes back to itself, and its text, reasoning,
  tool calls, finish reason and every usage count are what the body says;
- a stream accumulates to what its chunks say (joined here from the raw
  deltas), and encodes to a stream that ends with `[DONE]` and accumulates to
  the same answer.

Reasoning comes in the dialect's field (DeepSeek's `reasoning_content`,
Cerebras' and Ollama's `reasoning`) or, for Cerebras, in `<think>` tags at the
start of an assistant's content; the plain dialect models none, and keeps what
a server adds as it came.
"""

from __future__ import annotations

import functools
import importlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import interlingua_openai
from chat_corpus import (
    ChatCorpus,
    answer_facts,
    any_call,
    assert_request_round_trips,
    assert_response_round_trips,
    assert_stream_written_again,
    grow_call,
    request_facts,
    wire_finish,
    wire_request_facts,
    wire_usage,
)
from conftest import (
    MissingCorpus,
    cassette,
    corpus_id,
    from_corpus,
    is_answer,
    is_stream,
    require_corpus,
    same_json,
)
from interlingua import ChatResponse, TextPart, TranslationReport, accumulate
from interlingua.testing import Interaction

THINK = re.compile(r"<think>(.*?)</think>(.*)", re.DOTALL)
FILE_ITEMS = frozenset({"image_url", "input_audio", "file"})


@dataclass(frozen=True)
class Dialect:
    """What a test reads of a server's wire, without its adapter."""

    module: str
    reasoning_field: str | None
    think_tags: bool = False
    cache_read: str = "prompt_tokens_details.cached_tokens"

    @property
    def adapter(self) -> ModuleType:
        return importlib.import_module(self.module)


DEEPSEEK = Dialect(
    "interlingua_deepseek", "reasoning_content", cache_read="prompt_cache_hit_tokens"
)
CEREBRAS = Dialect("interlingua_cerebras", "reasoning", think_tags=True)
OLLAMA = Dialect("interlingua_ollama", "reasoning")
PLAIN = Dialect("interlingua_openai_compatible", None)
DIALECT_OF_FOLDER = {
    "compat/deepseek": DEEPSEEK,
    "compat/cerebras": CEREBRAS,
    "compat/ollama": OLLAMA,
    "compat/together": PLAIN,
    "compat/other": PLAIN,
}


def dialect_of(path: Path) -> Dialect:
    folder = next(f for f in DIALECT_OF_FOLDER if f"/{f}/" in path.as_posix())
    return DIALECT_OF_FOLDER[folder]


def returns_an_object(call: Interaction) -> bool:
    """Cloudflare's answer to `json_schema`: the content an object (`test_a_content_object`)."""
    if call.is_stream or call.response.status >= 400:
        return False
    return any(isinstance(c["message"].get("content"), dict) for c in call.response.json["choices"])


def is_chat_call(call: Interaction) -> bool:
    """A call to a chat completions endpoint (DeepSeek's Responses API left out)."""
    return (
        call.request is not None
        and call.request.method == "POST"
        and (call.path or "").endswith("/chat/completions")
        and not returns_an_object(call)
    )


SERVERS = ChatCorpus(tuple(DIALECT_OF_FOLDER), is_chat_call)


@pytest.mark.parametrize("path", SERVERS.files_with(any_call, "requests"), ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    dialect = dialect_of(from_corpus(path))
    wire = functools.partial(wire_request, dialect=dialect)
    for call in SERVERS.calls(path):
        assert call.request is not None
        assert_request_round_trips(dialect.adapter, call.request.json, request_facts, wire)


@pytest.mark.parametrize("path", SERVERS.files_with(is_answer, "answers"), ids=corpus_id)
def test_every_response_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    dialect = dialect_of(from_corpus(path))
    wire = functools.partial(wire_facts, dialect=dialect)
    for call in filter(is_answer, SERVERS.calls(path)):
        assert_response_round_trips(dialect.adapter, call.response.json, facts, wire)


@pytest.mark.parametrize("path", SERVERS.files_with(is_stream, "streams"), ids=corpus_id)
def test_every_stream_accumulates_to_what_its_chunks_say(path: Path | MissingCorpus) -> None:
    dialect = dialect_of(from_corpus(path))
    for call in filter(is_stream, SERVERS.calls(path)):
        payloads = call.response.stream_payloads()

        streamed = accumulate(dialect.adapter.decode_stream(payloads))

        assert facts(streamed) == wire_facts(joined_chunks(payloads, dialect), dialect)
        assert_stream_written_again(dialect.adapter, payloads)


def test_a_content_object_is_its_json_text_and_goes_back_an_object() -> None:
    # Quirk: Cloudflare Workers AI answers `json_schema` with the content as an object,
    # where other servers send its JSON text.
    path = require_corpus("compat/other") / "chatlas/test_cloudflare_data_extraction.yaml"
    answers = [call for call in cassette(path).interactions if returns_an_object(call)]
    assert len(answers) == 3
    for call in answers:
        body = call.response.json
        content = body["choices"][0]["message"]["content"]

        response = PLAIN.adapter.decode_response(body)

        [text] = [part for part in response.message.parts if isinstance(part, TextPart)]
        assert json.loads(text.text) == content
        strict = TranslationReport(strict=True)
        assert same_json(PLAIN.adapter.encode_response(response, report=strict), body)
        # Written for a server that sends text, it is the JSON text.
        chat = interlingua_openai.encode_response(response, report=TranslationReport())
        assert json.loads(chat["choices"][0]["message"]["content"]) == content


def test_the_corpus_holds_each_kind_of_traffic_the_dialects_model() -> None:
    for folder in DIALECT_OF_FOLDER:
        require_corpus(folder)
    calls = {folder: SERVERS.every_call(folder) for folder in DIALECT_OF_FOLDER}
    counts = {folder: len(found) for folder, found in calls.items()}
    assert counts == {
        "compat/deepseek": 16,
        "compat/cerebras": 12,
        "compat/ollama": 5,
        "compat/together": 1,
        "compat/other": 58,
    }
    sent = [m for call in calls["compat/deepseek"] for m in call.request.json["messages"]]  # type: ignore[union-attr]
    assert any("reasoning_content" in m and m.get("tool_calls") for m in sent)
    answers = [c.response.json for c in calls["compat/deepseek"] if is_answer(c)]
    assert all("prompt_cache_hit_tokens" in a["usage"] for a in answers)
    sent = [m for call in calls["compat/cerebras"] for m in call.request.json["messages"]]  # type: ignore[union-attr]
    assert any(isinstance(m.get("content"), str) and THINK.match(m["content"]) for m in sent)
    assert any("reasoning" in m for m in sent)
    assert sum(is_stream(c) for found in calls.values() for c in found) == 39


# --- what the core models, read straight from the wire ---


def wire_request(body: dict[str, Any], dialect: Dialect) -> dict[str, Any]:
    """`request_facts` of a request body, read without the adapter: the token
    limit `max_tokens` before `max_completion_tokens`."""
    messages = functools.partial(wire_message_facts, dialect=dialect)
    return wire_request_facts(body, messages, max_tokens=("max_tokens", "max_completion_tokens"))


def wire_message_facts(message: dict[str, Any], dialect: Dialect) -> tuple[Any, ...]:
    content = message.get("content")
    items = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    text = "".join(item["text"] for item in items if item["type"] == "text")
    files = sum(item["type"] in FILE_ITEMS for item in items)
    role = "system" if message["role"] == "developer" else message["role"]
    if role == "tool":
        return ("tool", "", [], [], [(message["tool_call_id"], text)], files)
    reasoning, text = split_reasoning(message, text, dialect)
    return (role, text, reasoning, wire_calls(message), [], files)


def split_reasoning(
    message: dict[str, Any], text: str, dialect: Dialect
) -> tuple[list[tuple[str, str]], str]:
    """An assistant message's reasoning (the dialect's field, or the `<think>`
    its content opens with, tags and the newlines around it left out) and the
    text that is left."""
    provider = dialect.adapter.PROVIDER
    field = dialect.reasoning_field
    reasoning = [message[field]] if field and message.get(field) is not None else []
    if message["role"] == "assistant" and dialect.think_tags and (think := THINK.match(text)):
        reasoning.append(think.group(1).strip("\n"))
        text = think.group(2).lstrip("\n")
    return [(provider, thought) for thought in reasoning], text


def wire_calls(message: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (call.get("id") or "", call["function"]["name"], call["function"]["arguments"])
        for call in message.get("tool_calls") or []
    ]


def facts(response: ChatResponse) -> dict[str, Any]:
    return {**answer_facts(response), "counts": dict(response.usage.details)}


def wire_facts(body: dict[str, Any], dialect: Dialect) -> dict[str, Any]:
    """`facts` of a chat completion body, read without the adapter."""
    (choice,) = body["choices"]
    message, usage = choice["message"], body.get("usage")
    content = message.get("content") or ""
    assert isinstance(content, str), f"a content the corpus was not known to hold: {content}"
    reasoning, text = split_reasoning(message, content, dialect)
    counts = {
        f"{group}.{key}": value
        for group in ("prompt_tokens_details", "completion_tokens_details")
        for key, value in ((usage or {}).get(group) or {}).items()
        if isinstance(value, int)
    }
    if usage and dialect is DEEPSEEK:
        counts.update({key: usage[key] for key in DEEPSEEK_COUNTS if key in usage})
    cache_read = counts.get(dialect.cache_read, (usage or {}).get(dialect.cache_read, 0))
    return {
        "answer": (dialect.adapter.PROVIDER, body.get("id"), body.get("model")),
        "text": text,
        "reasoning": [(provider, thought, None, None) for provider, thought in reasoning],
        "tool_calls": wire_calls(message),
        "finish": wire_finish(choice["finish_reason"]),
        # A server that counts nothing (an error turned answer, say) counts 0.
        "usage": wire_usage(usage, cache_read=cache_read) if usage else (0,) * 6,
        "counts": counts,
    }


DEEPSEEK_COUNTS = ("prompt_cache_hit_tokens", "prompt_cache_miss_tokens")


def joined_chunks(payloads: list[dict[str, Any]], dialect: Dialect) -> dict[str, Any]:
    """The answer the chunks describe: the deltas joined (tool-call fragments by
    `index`), the last finish reason, the usage of the chunk that carries it."""
    text, thinking, finish, usage = "", "", None, None
    calls: dict[int, dict[str, Any]] = {}
    field = dialect.reasoning_field
    for chunk in payloads:
        usage = chunk.get("usage") or usage
        for choice in chunk["choices"]:
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            thinking += (delta.get(field) or "") if field else ""
            for fragment in delta.get("tool_calls") or []:
                grow_call(calls, fragment)
            finish = choice.get("finish_reason") or finish
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if thinking:
        message[str(field)] = thinking
    for call in calls.values():  # a streamed call with no argument text has `{}` (the core's rule)
        call["function"]["arguments"] = call["function"]["arguments"] or "{}"
    message["tool_calls"] = [calls[index] for index in sorted(calls)]
    head = payloads[0]
    return {
        "id": head.get("id"),
        "model": head.get("model"),
        "choices": [{"message": message, "finish_reason": finish}],
        "usage": usage,
    }
