"""The benchmark's conversation, answer and stream in Amazon Bedrock's Converse format.

The script of `bench.histories` written as a Converse body for Claude on
Bedrock, shaped like the Converse traffic recorded in
../shared/corpus/bedrock and in the form interlingua writes, so the body
survives decode and encode unchanged: the system prompt as `system` blocks,
`user` and `assistant` messages of content blocks, images as `image` blocks
(base64 in the JSON, as botocore sends bytes), Claude's signed thinking as
`reasoningContent`, calls as `toolUse` blocks and their results as
`toolResult` blocks in the user turn that follows, a user remark after them
in the same turn; Claude's thinking setting in `additionalModelRequestFields`.
The answer is a `converse` answer (its keys in the order Bedrock writes
them), the stream the events boto3's `converse_stream` yields, one dict each
(`{"contentBlockDelta": {...}}`), its texts the events' JSON payloads.
"""

from __future__ import annotations

import json
from typing import Any

from bench.histories import (
    MAX_TOKENS,
    TOOLS,
    Assistant,
    Call,
    Step,
    System,
    ToolResult,
    User,
    script,
    sentence,
    signature,
    token,
)

__all__ = ["MODEL", "build_body", "build_response", "build_stream", "tool_use_id"]

Body = dict[str, Any]

MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"


def tool_use_id(call: Call) -> str:
    """A Converse tool-use id, as Bedrock makes them (`tooluse_` and 22 characters)."""
    return "tooluse_" + token("tooluse", call.n, 22)


def _parsed(value: Any) -> Any:
    """A copy sharing no objects, as a parsed body would."""
    return json.loads(json.dumps(value))


# --- the request ---------------------------------------------------------------


def build_body(size: int) -> Body:
    """The history of `size` Chat Completions messages as a Converse body."""
    steps = script(size)
    system = next(step.text for step in steps if isinstance(step, System))
    tools = [
        {
            "toolSpec": {
                "name": tool["name"],
                "description": tool["description"],
                "inputSchema": {"json": tool["parameters"]},
            }
        }
        for tool in TOOLS
    ]
    body = {
        "messages": _messages(steps),
        "system": [{"text": system}],
        "inferenceConfig": {"maxTokens": MAX_TOKENS},
        "toolConfig": {"tools": tools},
        "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 2048}},
    }
    return _parsed(body)  # type: ignore[no-any-return]


def _messages(steps: list[Step]) -> list[Body]:
    """Messages; tool results and the user text after them share one user turn."""
    messages: list[Body] = []
    pending: list[Body] = []  # the blocks of a user turn that opened with tool results
    for step in steps:
        match step:
            case System():
                continue
            case ToolResult(call, output):
                result = {"toolUseId": tool_use_id(call), "content": [{"text": output}]}
                pending.append({"toolResult": result})
                continue
            case User() if pending:
                pending += _user_blocks(step)
                continue
        if pending:
            messages.append({"role": "user", "content": pending})
            pending = []
        if isinstance(step, User):
            messages.append({"role": "user", "content": _user_blocks(step)})
        elif isinstance(step, Assistant):
            messages.append({"role": "assistant", "content": _assistant_blocks(step)})
    if pending:
        messages.append({"role": "user", "content": pending})
    return messages


def _user_blocks(step: User) -> list[Body]:
    blocks: list[Body] = [{"text": step.text}]
    if step.image is not None:
        blocks.append({"image": {"format": "png", "source": {"bytes": step.image}}})
    return blocks


def _assistant_blocks(step: Assistant) -> list[Body]:
    reasoning = {"reasoningText": {"text": step.thought, "signature": signature(step.n)}}
    return [
        {"reasoningContent": reasoning},
        {"text": step.text},
        *(_tool_use(call) for call in step.calls),
    ]


def _tool_use(call: Call) -> Body:
    return {"toolUse": {"toolUseId": tool_use_id(call), "name": call.name, "input": call.arguments}}


# --- the answer ----------------------------------------------------------------


def _usage(output_tokens: int) -> Body:
    return {
        "cacheReadInputTokenCount": 1024,
        "cacheReadInputTokens": 1024,
        "cacheWriteInputTokenCount": 0,
        "cacheWriteInputTokens": 0,
        "inputTokens": 1812,
        "outputTokens": output_tokens,
        "totalTokens": 1812 + 1024 + output_tokens,
    }


def _answer_calls() -> tuple[Call, ...]:
    return (
        Call(900_000, "get_weather", {"city": "Porto", "unit": "celsius"}),
        Call(900_001, "search_docs", {"query": sentence(3, 6), "limit": 3}),
    )


def build_response() -> Body:
    """One answer (signed thinking, text, two parallel calls, usage) as a Converse answer."""
    reasoning = {"reasoningText": {"signature": signature(900_000), "text": sentence(5, 80)}}
    content = [
        {"reasoningContent": reasoning},
        {"text": sentence(6, 120)},
        *(_tool_use(call) for call in _answer_calls()),
    ]
    body = {
        "metrics": {"latencyMs": 4117},
        "output": {"message": {"content": content, "role": "assistant"}},
        "stopReason": "tool_use",
        "usage": _usage(402),
    }
    return _parsed(body)  # type: ignore[no-any-return]


# --- the stream ----------------------------------------------------------------


def build_stream(chunks: int) -> tuple[list[Body], list[str]]:
    """A ConverseStream of exactly `chunks` events: thinking deltas and its
    signature, text deltas, a tool call's input in pieces, the stop and the
    metadata; the events as boto3 yields them and their payloads as JSON text."""
    deltas = chunks - 8  # beside the start, the signature, the stops and the metadata
    thinking, arguments = deltas // 4, deltas // 10
    text = deltas - thinking - arguments
    words = sentence(0, 60).split(" ")
    call = _answer_calls()[0]
    events: list[Body] = [{"messageStart": {"role": "assistant"}}]
    events += [
        _delta(0, {"reasoningContent": {"text": " " + words[i % 60]}}) for i in range(thinking)
    ]
    events += [
        _delta(0, {"reasoningContent": {"signature": signature(900_001)}}),
        {"contentBlockStop": {"contentBlockIndex": 0}},
    ]
    events += [_delta(1, {"text": " " + words[i % 60]}) for i in range(text)]
    start = {"toolUse": {"toolUseId": tool_use_id(call), "name": call.name}}
    events += [
        {"contentBlockStop": {"contentBlockIndex": 1}},
        {"contentBlockStart": {"contentBlockIndex": 2, "start": start}},
    ]
    events += [_delta(2, {"toolUse": {"input": piece}}) for piece in _pieces(call, arguments)]
    usage = {key: value for key, value in _usage(chunks).items() if "Count" not in key}
    events += [
        {"contentBlockStop": {"contentBlockIndex": 2}},
        {"messageStop": {"stopReason": "tool_use"}},
        {"metadata": {"usage": usage, "metrics": {"latencyMs": 2900}}},
    ]
    written = [json.dumps(next(iter(event.values())), separators=(",", ":")) for event in events]
    return _parsed(events), written  # type: ignore[no-any-return]


def _delta(index: int, delta: Body) -> Body:
    return {"contentBlockDelta": {"contentBlockIndex": index, "delta": delta}}


def _pieces(call: Call, n: int) -> list[str]:
    """The JSON text of the call's arguments, padded and cut into `n` pieces."""
    text = json.dumps({**call.arguments, "note": "x" * (4 * n)})
    size = -(-len(text) // n)
    return [text[i * size : (i + 1) * size] for i in range(n)]
