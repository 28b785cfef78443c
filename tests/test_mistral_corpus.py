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
from interlingua.codec import dump_arguments
from interlingua.testing import Interaction
from interlingua_mistral import (
    PROVIDER,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
)

CHAT_COMPLETIONS = "/v1/chat/completions"
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


def chat_calls(param: Path | MissingCorpus) -> list[Interaction]:
    """The file's calls to POST /v1/chat/completions (a file may also hold the
    OpenAI call that built its history)."""
    return [
        call
        for call in cassette(from_corpus(param)).for_provider("mistral")
        if call.request is not None
        and call.request.method == "POST"
        and call.path == CHAT_COMPLETIONS
    ]


def files_with(kind: Callable[[Interaction], bool], holding: str) -> list[Path | MissingCorpus]:
    """The mistral corpus files holding a call of `kind`."""
    return corpus_params(
        "mistral", keep=lambda path: any(map(kind, chat_calls(path))), holding=holding
    )


@pytest.mark.parametrize("path", files_with(lambda _: True, "chat calls"), ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in chat_calls(path):
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


def test_the_corpus_holds_each_kind_of_mistral_traffic() -> None:
    require_corpus("mistral")
    calls = [call for path in corpus_files("mistral") for call in chat_calls(path)]
    answers = [call.response.json for call in filter(is_answer, calls)]
    usages = [answer["usage"] for answer in answers]

    assert (len(calls), len(answers), len(list(filter(is_stream, calls)))) == (21, 14, 7)
    assert any(isinstance(answer["choices"][0]["message"]["content"], list) for answer in answers)
    assert any("num_cached_tokens" in usage for usage in usages)
    assert any("prompt_tokens_details" in usage for usage in usages)


# --- what the core models, read straight from the wire ---


def request_facts(request: ChatRequest) -> dict[str, Any]:
    choice = request.tool_choice
    return {
        "model": request.model,
        "settings": (
            request.max_tokens,
            request.temperature,
            request.top_p,
            request.seed,
            request.stream,
        ),
        "tools": [tool.name for tool in request.tools],
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
        [part.text for part in parts if isinstance(part, ReasoningPart)],
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
    return {
        "model": body["model"],
        "settings": (
            body.get("max_tokens"),
            body.get("temperature"),
            body.get("top_p"),
            body.get("random_seed"),
            body.get("stream", False),
        ),
        "tools": [tool["function"]["name"] for tool in body.get("tools") or []],
        "tool_choice": choice,
        "messages": [wire_message_facts(message) for message in body["messages"]],
    }


def wire_message_facts(message: dict[str, Any]) -> tuple[Any, ...]:
    content = message.get("content")
    chunks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    assert {chunk["type"] for chunk in chunks} <= {"text", "thinking"} | FILE_CHUNKS
    text = "".join(chunk["text"] for chunk in chunks if chunk["type"] == "text")
    files = sum(chunk["type"] in FILE_CHUNKS for chunk in chunks)
    if message["role"] == "tool":
        return ("tool", "", [], [], [(message["tool_call_id"], text)], files)
    calls = [
        (call["id"], call["function"]["name"], arguments(call["function"]["arguments"]))
        for call in message.get("tool_calls") or []
    ]
    thinking = [
        "".join(inner["text"] for inner in chunk["thinking"])
        for chunk in chunks
        if chunk["type"] == "thinking"
    ]
    return (message["role"], text, thinking, calls, [], files)


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
    }


def wire_facts(body: dict[str, Any]) -> dict[str, Any]:
    """`facts` of a chat completion body, read without the adapter."""
    (choice,) = body["choices"]
    message, usage = choice["message"], body["usage"]
    content = message.get("content") or ""
    chunks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    assert {chunk["type"] for chunk in chunks} <= {"text", "thinking"}
    calls = [
        (call["id"], call["function"]["name"], arguments(call["function"]["arguments"]))
        for call in message.get("tool_calls") or []
    ]
    return {
        "answer": (PROVIDER, body["id"], body["model"]),
        "text": "".join(chunk["text"] for chunk in chunks if chunk["type"] == "text"),
        "reasoning": [
            (
                PROVIDER,
                "".join(inner["text"] for inner in chunk["thinking"]),
                chunk.get("signature"),
            )
            for chunk in chunks
            if chunk["type"] == "thinking"
        ],
        "tool_calls": calls,
        "finish": (
            FINISH_REASONS.get(choice["finish_reason"], FinishReason.OTHER),
            choice["finish_reason"],
        ),
        "usage": (
            usage["prompt_tokens"],
            usage["completion_tokens"],
            usage["total_tokens"],
            cached_tokens(usage),
            0,
            (usage.get("completion_tokens_details") or {}).get("reasoning_tokens", 0),
        ),
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
        assert set(chunk) <= CHUNK_FIELDS, (
            f"a chunk field the corpus was not known to hold: {chunk}"
        )
        usage = chunk.get("usage") or usage
        (choice,) = chunk["choices"]
        delta = choice["delta"]
        content = delta.get("content") or ""
        assert isinstance(content, str), f"a content the corpus was not known to hold: {content}"
        text += content
        for fragment in delta.get("tool_calls") or []:
            grow_call(calls, fragment)
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


def grow_call(calls: dict[int, dict[str, Any]], fragment: dict[str, Any]) -> None:
    """One tool-call fragment added to the call of its `index` (the id and name
    come in the first; Mistral usually sends the call whole)."""
    index = fragment.get("index", 0)
    function = fragment.get("function") or {}
    call = calls.setdefault(index, {"function": {"arguments": "", "name": ""}, "index": index})
    call["function"]["name"] = call["function"]["name"] or function.get("name", "")
    call["function"]["arguments"] += function.get("arguments") or ""
    for field in ("id", "type"):
        if fragment.get(field):
            call.setdefault(field, fragment[field])
