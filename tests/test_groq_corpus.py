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
    is_stream,
    require_corpus,
    same_json,
)
from interlingua import (
    ChatRequest,
    ChatResponse,
    FilePart,
    FinishReason,
    Message,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    TranslationReport,
    accumulate,
)
from interlingua.testing import Interaction
from interlingua_groq import (
    PROVIDER,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
)

CHAT_COMPLETIONS = "/openai/v1/chat/completions"
FINISH_REASONS = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "content_filter": FinishReason.CONTENT_FILTER,
}
TOOL_CHOICES = {"auto": ("auto", None), "none": ("none", None), "required": ("required", None)}
TIMINGS = ("queue_time", "prompt_time", "completion_time", "total_time")
THINK = re.compile(r"<think>(.*?)</think>(.*)", re.DOTALL)
# What the corpus's chunks and deltas hold; anything else fails the rebuild.
CHUNK_FIELDS = frozenset({"id", "object", "created", "model", "system_fingerprint", "choices"})
CHUNK_FIELDS |= {"x_groq", "service_tier", "usage_breakdown"}
DELTA_FIELDS = frozenset({"role", "content", "reasoning", "tool_calls"})


def chat_calls(param: Path | MissingCorpus) -> list[Interaction]:
    """The file's calls to Groq's chat completions; a response-only file's
    one answer (it has no request) among them."""
    return [
        call
        for call in cassette(from_corpus(param)).interactions
        if call.request is None
        or (
            call.provider == "groq"
            and call.request.method == "POST"
            and call.path == CHAT_COMPLETIONS
        )
    ]


def has_request(call: Interaction) -> bool:
    return call.request is not None


def files_with(kind: Callable[[Interaction], bool], holding: str) -> list[Path | MissingCorpus]:
    """The groq corpus files holding a call of `kind`."""
    return corpus_params(
        "groq", keep=lambda path: any(map(kind, chat_calls(path))), holding=holding
    )


@pytest.mark.parametrize("path", files_with(has_request, "requests"), ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in filter(has_request, chat_calls(path)):
        assert call.request is not None
        body = call.request.json
        report = TranslationReport()

        request = decode_request(body)

        assert same_json(encode_request(request, report=report), body)
        assert report.losses == []
        assert request_facts(request) == wire_request_facts(body)


@pytest.mark.parametrize("path", files_with(is_answer, "answers"), ids=corpus_id)
def test_every_response_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in filter(is_answer, chat_calls(path)):
        body = call.response.json

        response = decode_response(body)

        assert same_json(encode_response(response, report=TranslationReport(strict=True)), body)
        assert facts(response) == wire_facts(body)


@pytest.mark.parametrize("path", files_with(is_stream, "streams"), ids=corpus_id)
def test_every_stream_accumulates_to_the_answer_its_chunks_describe(
    path: Path | MissingCorpus,
) -> None:
    for call in filter(is_stream, chat_calls(path)):
        payloads = call.response.stream_payloads()
        answer = rebuilt_answer(payloads)

        streamed = accumulate(decode_stream(payloads))

        assert facts(streamed) == wire_facts(answer)
        assert streamed == decode_response(answer)
        assert same_json(encode_response(streamed, report=TranslationReport(strict=True)), answer)


def test_the_corpus_holds_each_kind_of_groq_traffic() -> None:
    require_corpus("groq")
    calls = [call for path in corpus_files("groq") for call in chat_calls(path)]
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


def request_facts(request: ChatRequest) -> dict[str, Any]:
    choice, form = request.tool_choice, request.response_format
    return {
        "model": request.model,
        "settings": (
            request.max_tokens,
            request.temperature,
            request.top_p,
            request.seed,
            request.stream,
        ),
        "response_format": None
        if form is None
        else (form.type, form.name, form.description, form.json_schema, form.strict),
        "tools": [(tool.name, tool.description, tool.parameters) for tool in request.tools],
        "tool_choice": None if choice is None else (choice.mode, choice.name),
        "messages": [message_facts(message) for message in request.messages],
    }


def message_facts(message: Message) -> tuple[Any, ...]:
    parts = message.parts
    results = [part for part in parts if isinstance(part, ToolResultPart)]
    files = [part for part in parts if isinstance(part, FilePart)]
    files += [item for result in results for item in result.content if isinstance(item, FilePart)]
    return (
        message.role,
        "".join(part.text for part in parts if isinstance(part, TextPart)),
        [(part.provider, part.text) for part in parts if isinstance(part, ReasoningPart)],
        [(part.id, part.name, part.arguments) for part in parts if isinstance(part, ToolCallPart)],
        [(result.tool_call_id, result.text) for result in results],
        len(files),
    )


def wire_request_facts(body: dict[str, Any]) -> dict[str, Any]:
    """`request_facts` of a request body, read without the adapter."""
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        choice = ("tool", choice["function"]["name"])
    elif choice is not None:
        choice = TOOL_CHOICES[choice]
    functions = [tool["function"] for tool in body.get("tools") or []]
    return {
        "model": body["model"],
        "settings": (
            body.get("max_completion_tokens", body.get("max_tokens")),
            body.get("temperature"),
            body.get("top_p"),
            body.get("seed"),
            body.get("stream", False),
        ),
        "response_format": wire_response_format(body.get("response_format")),
        "tools": [(f["name"], f.get("description"), f.get("parameters")) for f in functions],
        "tool_choice": choice,
        "messages": [wire_message_facts(message) for message in body["messages"]],
    }


def wire_response_format(form: dict[str, Any] | None) -> tuple[Any, ...] | None:
    if form is None:
        return None
    schema = form.get("json_schema") or {}
    return (
        form["type"],
        schema.get("name"),
        schema.get("description"),
        schema.get("schema"),
        schema.get("strict"),
    )


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
    parts = response.message.parts
    usage = response.usage
    return {
        "answer": (response.provider, response.id, response.model),
        "text": "".join(part.text for part in parts if isinstance(part, TextPart)),
        "reasoning": [
            (part.provider, part.text, part.signature)
            for part in parts
            if isinstance(part, ReasoningPart)
        ],
        "tool_calls": [
            (part.id, part.name, part.arguments) for part in parts if isinstance(part, ToolCallPart)
        ],
        "finish": (response.finish_reason, response.raw_finish_reason),
        "usage": (
            usage.input_tokens,
            usage.output_tokens,
            usage.total_tokens,
            usage.cache_read_tokens,
            usage.cache_write_tokens,
            usage.reasoning_tokens,
        ),
        "timings": {name: usage.details.get(name) for name in TIMINGS},
    }


def wire_facts(body: dict[str, Any]) -> dict[str, Any]:
    """`facts` of a chat completion body, read without the adapter."""
    (choice,) = body["choices"]
    message, usage = choice["message"], body["usage"]
    content = message.get("content") or ""
    assert isinstance(content, str), f"a content the corpus was not known to hold: {content}"
    reasoning, text = split_reasoning(message, content)
    finish = choice["finish_reason"]
    return {
        "answer": (PROVIDER, body["id"], body["model"]),
        "text": text,
        "reasoning": [(provider, thought, None) for provider, thought in reasoning],
        "tool_calls": wire_calls(message),
        "finish": (FINISH_REASONS.get(finish, FinishReason.OTHER), finish),
        "usage": (
            usage["prompt_tokens"],
            usage["completion_tokens"],
            usage["total_tokens"],
            (usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0),
            0,
            (usage.get("completion_tokens_details") or {}).get("reasoning_tokens", 0),
        ),
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
        assert set(chunk) <= CHUNK_FIELDS, (
            f"a chunk field the corpus was not known to hold: {chunk}"
        )
        x_groq.update(chunk.get("x_groq") or {})
        (choice,) = chunk["choices"]
        delta = choice["delta"]
        assert set(delta) <= DELTA_FIELDS, f"a delta the corpus was not known to hold: {delta}"
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


def grow_call(calls: dict[int, dict[str, Any]], fragment: dict[str, Any]) -> None:
    """One tool-call fragment added to the call of its `index` (the id, type and
    name come in the first)."""
    function = fragment.get("function") or {}
    call = calls.setdefault(fragment["index"], {"function": {"arguments": "", "name": ""}})
    call["function"]["name"] = call["function"]["name"] or function.get("name", "")
    call["function"]["arguments"] += function.get("arguments") or ""
    for field in ("id", "type"):
        if fragment.get(field):
            call.setdefault(field, fragment[field])
