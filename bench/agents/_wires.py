"""The scripted upstream's answers, written by hand in each upstream API's wire
shape: a whole body, the stream's events (`(event name or None, data)`), and a
rate-limit error body with its headers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.agents._script import (
    Answer,
    Tool,
    chat_reading,
    gemini_reading,
    messages_reading,
    responses_reading,
)

Event = tuple[str | None, dict[str, Any] | str]
USAGE_IN, USAGE_OUT = 21, 9
CALL_ID = "call_7Hq2Lx9Rv4Tb"


def chat_whole(answer: Answer, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.text or None}
    if answer.tool is not None:
        message["tool_calls"] = [
            {
                "id": CALL_ID,
                "type": "function",
                "function": {"name": answer.tool, "arguments": json.dumps(answer.arguments)},
            }
        ]
    return {
        "id": "chatcmpl-script",
        "object": "chat.completion",
        "created": 1767225600,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if answer.tool else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": USAGE_IN,
            "completion_tokens": USAGE_OUT,
            "total_tokens": USAGE_IN + USAGE_OUT,
        },
    }


def chat_stream(answer: Answer, model: str) -> list[Event]:
    head = {"id": "chatcmpl-script", "object": "chat.completion.chunk", "created": 1767225600}
    head["model"] = model

    def chunk(delta: dict[str, Any], finish: str | None = None) -> Event:
        return None, {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": ""})]
    if answer.tool is not None:
        arguments = json.dumps(answer.arguments)
        call = {"index": 0, "id": CALL_ID, "type": "function"}
        events.append(chunk({"tool_calls": [{**call, "function": {"name": answer.tool}}]}))
        for piece in (arguments[:10], arguments[10:]):
            events.append(chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}))
        events.append(chunk({}, "tool_calls"))
    else:
        for piece in _pieces(answer.text):
            events.append(chunk({"content": piece}))
        events.append(chunk({}, "stop"))
    usage = {"prompt_tokens": USAGE_IN, "completion_tokens": USAGE_OUT}
    events.append((None, {**head, "choices": [], "usage": usage}))
    events.append((None, "[DONE]"))
    return events


def messages_whole(answer: Answer, model: str) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": answer.text}
    if answer.tool is not None:
        block = {"type": "tool_use", "id": "toolu_7Hq2Lx9Rv4Tb", "name": answer.tool}
        block["input"] = answer.arguments
    return {
        "id": "msg_script",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [block],
        "stop_reason": "tool_use" if answer.tool else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": USAGE_IN, "output_tokens": USAGE_OUT},
    }


def messages_stream(answer: Answer, model: str) -> list[Event]:
    whole = messages_whole(answer, model)
    start = {**whole, "content": [], "stop_reason": None, "usage": {**whole["usage"]}}
    start["usage"]["output_tokens"] = 1
    block = whole["content"][0]
    if answer.tool is not None:
        opened = {**block, "input": {}}
        arguments = json.dumps(answer.arguments)
        deltas = [{"type": "input_json_delta", "partial_json": p} for p in _pieces(arguments)]
    else:
        opened = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": p} for p in _pieces(answer.text)]
    events: list[Event] = [
        ("message_start", {"type": "message_start", "message": start}),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": opened},
        ),
        ("ping", {"type": "ping"}),
    ]
    for delta in deltas:
        events.append(
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta})
        )
    stop = {"stop_reason": whole["stop_reason"], "stop_sequence": None}
    return [
        *events,
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": stop, "usage": {"output_tokens": 9}}),
        ("message_stop", {"type": "message_stop"}),
    ]


def _responses_item(answer: Answer) -> dict[str, Any]:
    if answer.tool is not None:
        return {
            "type": "function_call",
            "id": "fc_script",
            "call_id": CALL_ID,
            "name": answer.tool,
            "arguments": json.dumps(answer.arguments),
            "status": "completed",
        }
    part = {"type": "output_text", "text": answer.text, "annotations": []}
    return {
        "type": "message",
        "id": "msg_script",
        "role": "assistant",
        "status": "completed",
        "content": [part],
    }


def responses_whole(answer: Answer, model: str) -> dict[str, Any]:
    usage = {
        "input_tokens": USAGE_IN,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": USAGE_OUT,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": USAGE_IN + USAGE_OUT,
    }
    return {
        "id": "resp_script",
        "object": "response",
        "created_at": 1767225600,
        "status": "completed",
        "model": model,
        "output": [_responses_item(answer)],
        "usage": usage,
    }


def responses_stream(answer: Answer, model: str) -> list[Event]:
    whole = responses_whole(answer, model)
    item = whole["output"][0]
    started = {**whole, "status": "in_progress", "output": [], "usage": None}
    events: list[Event] = [
        ("response.created", {"type": "response.created", "response": started}),
        ("response.in_progress", {"type": "response.in_progress", "response": started}),
    ]
    at = {"output_index": 0, "item_id": item["id"]}
    if answer.tool is not None:
        opened = {**item, "arguments": "", "status": "in_progress"}
        events.append(_responses_event("response.output_item.added", output_index=0, item=opened))
        for piece in _pieces(item["arguments"]):
            events.append(
                _responses_event("response.function_call_arguments.delta", **at, delta=piece)
            )
        done = {**at, "arguments": item["arguments"]}
        events.append(_responses_event("response.function_call_arguments.done", **done))
    else:
        opened = {**item, "content": [], "status": "in_progress"}
        events.append(_responses_event("response.output_item.added", output_index=0, item=opened))
        part = {"type": "output_text", "text": "", "annotations": []}
        events.append(
            _responses_event("response.content_part.added", **at, content_index=0, part=part)
        )
        for piece in _pieces(answer.text):
            events.append(
                _responses_event("response.output_text.delta", **at, content_index=0, delta=piece)
            )
        text = {**at, "content_index": 0, "text": answer.text}
        events.append(_responses_event("response.output_text.done", **text))
        done_part = {**part, "text": answer.text}
        events.append(
            _responses_event("response.content_part.done", **at, content_index=0, part=done_part)
        )
    events.append(_responses_event("response.output_item.done", output_index=0, item=item))
    events.append(_responses_event("response.completed", response=whole))
    return [(name, {**data, "sequence_number": n}) for n, (name, data) in enumerate(events)]  # type: ignore[dict-item]


def _responses_event(kind: str, **fields: Any) -> tuple[str, dict[str, Any]]:
    return kind, {"type": kind, **fields}


def gemini_whole(answer: Answer, model: str) -> dict[str, Any]:
    part: dict[str, Any] = {"text": answer.text}
    if answer.tool is not None:
        part = {"functionCall": {"name": answer.tool, "args": answer.arguments}}
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": USAGE_IN,
            "candidatesTokenCount": USAGE_OUT,
            "totalTokenCount": USAGE_IN + USAGE_OUT,
        },
        "modelVersion": model,
        "responseId": "script",
    }


def gemini_stream(answer: Answer, model: str) -> list[Event]:
    whole = gemini_whole(answer, model)
    if answer.tool is not None:
        return [(None, whole)]
    head = {"modelVersion": model, "responseId": "script"}
    pieces = _pieces(answer.text)
    events: list[Event] = [
        (
            None,
            {
                "candidates": [{"content": {"role": "model", "parts": [{"text": p}]}, "index": 0}],
                **head,
            },
        )
        for p in pieces[:-1]
    ]
    last = {**whole["candidates"][0], "content": {"role": "model", "parts": [{"text": pieces[-1]}]}}
    events.append((None, {**whole, "candidates": [last]}))
    return events


def _pieces(text: str) -> list[str]:
    """`text` in three pieces (one for short text): a stream of several deltas."""
    if len(text) < 6:
        return [text]
    third = len(text) // 3
    return [text[:third], text[third : 2 * third], text[2 * third :]]


# --- the APIs ---

RATE_LIMITED = "Rate limit reached for requests: please try again in 1s."


@dataclass(frozen=True)
class Wire:
    """One upstream API: the gateway's adapter name, how to read, how to answer."""

    adapter: str
    read: Callable[[dict[str, Any]], tuple[list[Tool], list[str], dict[str, Any] | None]]
    whole: Callable[[Answer, str], dict[str, Any]]
    stream: Callable[[Answer, str], list[Event]]
    rate_limited: dict[str, Any]
    rate_headers: dict[str, str]


OPENAI_RATE = {
    "error": {
        "message": RATE_LIMITED,
        "type": "requests",
        "param": None,
        "code": "rate_limit_exceeded",
    }
}
OPENAI_RATE_HEADERS = {
    "x-ratelimit-limit-requests": "500",
    "x-ratelimit-remaining-requests": "0",
    "x-ratelimit-reset-requests": "1s",
}

WIRES = {
    "openai": Wire(
        "openai", chat_reading, chat_whole, chat_stream, OPENAI_RATE, OPENAI_RATE_HEADERS
    ),
    "anthropic": Wire(
        "anthropic",
        messages_reading,
        messages_whole,
        messages_stream,
        {"type": "error", "error": {"type": "rate_limit_error", "message": RATE_LIMITED}},
        {"anthropic-ratelimit-requests-limit": "50", "anthropic-ratelimit-requests-remaining": "0"},
    ),
    "google": Wire(
        "google",
        gemini_reading,
        gemini_whole,
        gemini_stream,
        {"error": {"code": 429, "message": RATE_LIMITED, "status": "RESOURCE_EXHAUSTED"}},
        {},
    ),
    "openai-responses": Wire(
        "openai-responses",
        responses_reading,
        responses_whole,
        responses_stream,
        OPENAI_RATE,
        OPENAI_RATE_HEADERS,
    ),
}
