"""The OpenRouter adapter on real traffic: every call to OpenRouter's chat
completions in the recorded corpus (`../shared/corpus/compat/openrouter`).

- a request body decodes and encodes back to itself, with nothing reported,
  and what the core models (settings, tools, messages, parts) is what the
  body says; the `reasoning` object's effort, budget and switch are the
  request's reasoning setting, and OpenRouter's own fields (`provider`,
  `models`, `transforms`, `preset`, the rest of `reasoning`, `usage`) the
  request's options, verbatim;
- a response body decodes and encodes back to itself, and the text, each
  reasoning entry (text, signature, encrypted data), the tool calls, the
  finish reason and every usage count and cost are what the body says, read
  here without the adapter;
- a stream accumulates to the answer its chunks describe, rebuilt here from
  the raw chunks (reasoning pieces joined by entry), and encodes back to it;
- an error answer, and the error inside a 200 stream, come out typed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import interlingua_openrouter
from chat_corpus import (
    ChatCorpus,
    answer_facts,
    any_call,
    assert_known,
    assert_request_round_trips,
    assert_response_round_trips,
    assert_stream_is_the_answer,
    assert_stream_written_again,
    grow_call,
    posts_to,
    request_facts,
    wire_finish,
    wire_request_facts,
    wire_usage,
)
from conftest import MissingCorpus, corpus_id, is_answer, is_stream, require_corpus
from interlingua import (
    BadRequestError,
    ChatRequest,
    ChatResponse,
    FilePart,
    Message,
    OpaquePart,
    RateLimitError,
    StreamError,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    accumulate,
)
from interlingua.testing import Interaction
from interlingua_openrouter import PROVIDER, decode_error, decode_stream

FOLDER = "compat/openrouter"
# The request fields of OpenRouter's own, which the core does not model.
OPENROUTER_FIELDS = ("provider", "models", "transforms", "preset", "reasoning", "usage")
# The fields of the `reasoning` object the core's reasoning setting holds.
REASONING_SETTING = ("effort", "max_tokens", "enabled")
# What the corpus's chunks, choices and deltas hold; anything else fails the rebuild.
CHUNK_FIELDS = frozenset({"id", "provider", "model", "object", "created", "choices", "usage"})
CHUNK_FIELDS |= {"system_fingerprint", "service_tier"}
CHOICE_FIELDS = frozenset({"index", "delta", "finish_reason", "native_finish_reason", "logprobs"})
DELTA_FIELDS = frozenset({"role", "content", "reasoning", "reasoning_details", "tool_calls"})
DELTA_FIELDS |= {"annotations"}
# Each reasoning entry's own text, by type, and what it keeps beside it.
DETAIL_TEXT = {"reasoning.text": "text", "reasoning.summary": "summary"}

# The calls to OpenRouter's chat completions (not its Responses API).
OPENROUTER = ChatCorpus((FOLDER,), posts_to("/api/v1/chat/completions", PROVIDER))


def is_error(call: Interaction) -> bool:
    return call.response.status >= 400


def has_stream_error(call: Interaction) -> bool:
    return is_stream(call) and any("error" in p for p in call.response.stream_payloads())


def is_clean_stream(call: Interaction) -> bool:
    return is_stream(call) and not has_stream_error(call)


@pytest.mark.parametrize("path", OPENROUTER.files_with(any_call, "requests"), ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in OPENROUTER.calls(path):
        assert call.request is not None
        assert_request_round_trips(
            interlingua_openrouter, call.request.json, openrouter_request_facts, wire_request
        )


@pytest.mark.parametrize("path", OPENROUTER.files_with(is_answer, "answers"), ids=corpus_id)
def test_every_response_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in filter(is_answer, OPENROUTER.calls(path)):
        assert_response_round_trips(interlingua_openrouter, call.response.json, facts, wire_facts)


@pytest.mark.parametrize("path", OPENROUTER.files_with(is_clean_stream, "streams"), ids=corpus_id)
def test_every_stream_accumulates_to_the_answer_its_chunks_describe(
    path: Path | MissingCorpus,
) -> None:
    for call in filter(is_clean_stream, OPENROUTER.calls(path)):
        payloads = call.response.stream_payloads()
        answer = rebuilt_answer(payloads)
        assert_stream_is_the_answer(interlingua_openrouter, payloads, answer, facts, wire_facts)


@pytest.mark.parametrize("path", OPENROUTER.files_with(is_clean_stream, "streams"), ids=corpus_id)
def test_every_stream_is_written_again_as_openrouter_streams_it(
    path: Path | MissingCorpus,
) -> None:
    for call in filter(is_clean_stream, OPENROUTER.calls(path)):
        assert_stream_written_again(interlingua_openrouter, call.response.stream_payloads())


@pytest.mark.parametrize("path", OPENROUTER.files_with(is_error, "error answers"), ids=corpus_id)
def test_every_error_answer_is_typed_by_its_status(path: Path | MissingCorpus) -> None:
    for call in filter(is_error, OPENROUTER.calls(path)):
        body = call.response.json

        error = decode_error(call.response.status, body)

        assert (error.status, error.code, error.message) == (
            call.response.status,
            str(body["error"]["code"]),
            body["error"]["message"],
        )
        assert error.body == body  # the upstream's `metadata.raw` with it
        assert isinstance(error, RateLimitError) == (call.response.status == 429)
        assert error.retryable == (call.response.status == 429)


@pytest.mark.parametrize(
    "path", OPENROUTER.files_with(has_stream_error, "in-stream errors"), ids=corpus_id
)
def test_an_error_inside_a_200_stream_is_typed_and_keeps_what_arrived(
    path: Path | MissingCorpus,
) -> None:
    for call in filter(has_stream_error, OPENROUTER.calls(path)):
        payloads = call.response.stream_payloads()
        (chunk,) = [payload for payload in payloads if "error" in payload]
        before = payloads[: payloads.index(chunk)]
        thought = "".join(
            detail["text"]
            for payload in before
            for detail in payload["choices"][0]["delta"].get("reasoning_details") or []
        )

        with pytest.raises(StreamError) as caught:
            accumulate(decode_stream(payloads))

        error = caught.value.error
        assert isinstance(error, BadRequestError) == (chunk["error"]["code"] == 400)
        assert (error.status, error.code, error.message, error.body) == (
            None,
            str(chunk["error"]["code"]),
            chunk["error"]["message"],
            chunk,
        )
        assert caught.value.partial is not None
        reasoning = caught.value.partial.message.reasoning
        assert [(part.provider, part.text) for part in reasoning] == [(PROVIDER, thought)]


def test_the_corpus_holds_each_kind_of_openrouter_traffic() -> None:
    require_corpus(FOLDER)
    calls = OPENROUTER.every_call(FOLDER)
    answers = [call.response.json for call in filter(is_answer, calls)]
    messages = [answer["choices"][0]["message"] for answer in answers]
    details = [d["type"] for m in messages for d in m.get("reasoning_details") or []]
    sent = [call.request.json for call in calls if call.request is not None]
    streams = [call.response for call in filter(is_stream, calls)]

    assert (len(calls), len(answers), len(streams)) == (82, 61, 18)
    assert sum(map(is_error, calls)) == 3
    assert sum(map(has_stream_error, calls)) == 1
    assert {"reasoning.text", "reasoning.summary", "reasoning.encrypted"} <= set(details)
    assert any("signature" in d for m in messages for d in m.get("reasoning_details") or [])
    assert all(any(field in body for body in sent) for field in OPENROUTER_FIELDS)
    assert any("cost" in answer["usage"] for answer in answers)
    assert any(
        "cache_write_tokens" in (a["usage"].get("prompt_tokens_details") or {}) for a in answers
    )
    assert any(b": OPENROUTER PROCESSING" in response.body for response in streams)


# --- what the core models, read straight from the wire ---


def openrouter_request_facts(request: ChatRequest) -> dict[str, Any]:
    """`request_facts`, with OpenRouter's messages, its reasoning setting and its own fields."""
    options = request.provider_options.get(PROVIDER, {})
    return {
        **request_facts(request, message_facts),
        "reasoning": None
        if (config := request.reasoning) is None
        else (config.enabled, config.effort, config.budget_tokens),
        "openrouter": {key: options[key] for key in OPENROUTER_FIELDS if key in options},
    }


def message_facts(message: Message) -> tuple[Any, ...]:
    parts = message.parts
    results = [part for part in parts if isinstance(part, ToolResultPart)]
    return (
        message.role,
        "".join(part.text for part in parts if isinstance(part, TextPart)),
        [(part.id, part.name, part.arguments) for part in parts if isinstance(part, ToolCallPart)],
        [(result.tool_call_id, result.text) for result in results],
        sum(isinstance(part, FilePart) for part in parts),
        sum(isinstance(part, OpaquePart) for part in parts),
    )


def wire_request(body: dict[str, Any]) -> dict[str, Any]:
    """`openrouter_request_facts` of a request body, read without the adapter."""
    return {
        **wire_request_facts(body, wire_message_facts),
        "reasoning": wire_reasoning_setting(body.get("reasoning")),
        "openrouter": wire_openrouter_fields(body),
    }


def wire_openrouter_fields(body: dict[str, Any]) -> dict[str, Any]:
    """OpenRouter's own fields of a body: the `reasoning` object without what
    the core's reasoning setting holds."""
    fields = {key: body[key] for key in OPENROUTER_FIELDS if key in body}
    reasoning = fields.pop("reasoning", None) or {}
    if rest := {k: v for k, v in reasoning.items() if k not in REASONING_SETTING}:
        fields["reasoning"] = rest
    return fields


def wire_reasoning_setting(wire: dict[str, Any] | None) -> tuple[Any, ...] | None:
    """Whether reasoning is on, its effort and its token budget, as OpenRouter's
    docs read the `reasoning` object: `enabled` defaults to on, but for the
    effort "none"."""
    if wire is None:
        return None
    effort = wire.get("effort")
    return (wire.get("enabled", effort != "none"), effort, wire.get("max_tokens"))


def wire_message_facts(message: dict[str, Any]) -> tuple[Any, ...]:
    content = message.get("content")
    items = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    text = "".join(item["text"] for item in items if item["type"] == "text")
    files = sum(item["type"] in ("image_url", "file") for item in items)
    other = sum(item["type"] not in ("text", "image_url", "file") for item in items)
    if message["role"] == "tool":
        return ("tool", "", [], [(message["tool_call_id"], text)], files, other)
    return (message["role"], text, wire_calls(message), [], files, other)


def wire_calls(message: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (call["id"], call["function"]["name"], call["function"].get("arguments", "{}"))
        for call in message.get("tool_calls") or []
    ]


def facts(response: ChatResponse) -> dict[str, Any]:
    costs = {k: v for k, v in response.usage.details.items() if k.startswith("cost")}
    return {**answer_facts(response), "costs": costs}


def wire_facts(body: dict[str, Any]) -> dict[str, Any]:
    """`facts` of a chat completion body, read without the adapter."""
    (choice,) = body["choices"]
    message, usage = choice["message"], body["usage"]
    content = message.get("content") or ""
    assert isinstance(content, str), f"a content the corpus was not known to hold: {content}"
    finish = choice["finish_reason"]
    prompt = usage.get("prompt_tokens_details") or {}
    costs = {f"cost_details.{k}": v for k, v in (usage.get("cost_details") or {}).items()}
    if "cost" in usage:
        costs["cost"] = usage["cost"]
    return {
        "answer": (PROVIDER, body["id"], body["model"]),
        "text": content,
        "reasoning": wire_reasoning(message),
        "tool_calls": wire_calls(message),
        "finish": wire_finish(finish),
        "usage": wire_usage(
            usage,
            cache_read=prompt.get("cached_tokens", 0),
            cache_write=prompt.get("cache_write_tokens", 0),
        ),
        "costs": {k: v for k, v in costs.items() if v is not None},
    }


def wire_reasoning(message: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Each `reasoning_details` entry (its text, signature, encrypted data), or
    the `reasoning` text alone where there are none."""
    details = message.get("reasoning_details") or []
    if not details:
        text = message.get("reasoning")
        return [] if text is None else [(PROVIDER, text, None, None)]
    return [
        (
            PROVIDER,
            detail.get(DETAIL_TEXT.get(detail["type"], ""), None) or "",
            detail.get("signature") if detail["type"] == "reasoning.text" else None,
            detail.get("data") if detail["type"] == "reasoning.encrypted" else None,
        )
        for detail in details
    ]


# --- the answer a stream describes, rebuilt from its raw chunks ---


def rebuilt_answer(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """The non-streamed body the chunks describe, in OpenRouter's shape: the
    deltas joined (tool-call fragments by `index`, reasoning pieces by entry),
    the last finish reasons, the usage of the chunk that carries it."""
    head = payloads[0]
    text, thinking, finish, native = "", "", None, None
    calls: dict[int, dict[str, Any]] = {}
    details: dict[tuple[Any, str], dict[str, Any]] = {}
    annotations: list[Any] = []
    usage = None
    for chunk in payloads:
        assert_known(chunk, CHUNK_FIELDS, "chunk field")
        usage = chunk.get("usage") or usage
        for choice in chunk["choices"]:
            assert_known(choice, CHOICE_FIELDS, "choice")
            delta = choice["delta"]
            assert_known(delta, DELTA_FIELDS, "delta")
            text += delta.get("content") or ""
            thinking += delta.get("reasoning") or ""
            annotations += delta.get("annotations") or []
            for fragment in delta.get("tool_calls") or []:
                grow_call(calls, fragment)
            for piece in delta.get("reasoning_details") or []:
                grow_detail(details, piece)
            finish = choice.get("finish_reason") or finish
            native = choice.get("native_finish_reason") or native
    message: dict[str, Any] = {"role": "assistant", "content": text or None, "refusal": None}
    message["reasoning"] = thinking or None
    if details:
        message["reasoning_details"] = list(details.values())
    if annotations:
        message["annotations"] = annotations
    if calls:
        message["tool_calls"] = [calls[index] for index in sorted(calls)]
    if text or not calls:
        message["content"] = text
    answer = {key: head[key] for key in ("id", "provider", "created", "model") if key in head}
    answer.update({key: head[key] for key in ("system_fingerprint", "service_tier") if key in head})
    choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": finish}
    choice["native_finish_reason"] = native
    return {**answer, "object": "chat.completion", "choices": [choice], "usage": usage}


def grow_detail(details: dict[tuple[Any, str], dict[str, Any]], piece: dict[str, Any]) -> None:
    """One piece of a reasoning entry added to the entry of its `index` and
    `type`: its text and signature joined, its other fields as they first came."""
    entry = details.setdefault((piece.get("index"), piece["type"]), {})
    for key, value in piece.items():
        if key in ("text", "summary", "signature") and isinstance(value, str):
            entry[key] = entry.get(key, "") + value
        else:
            entry.setdefault(key, value)
