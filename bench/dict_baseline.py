"""The dict-to-dict floor: Chat Completions and Anthropic bodies converted directly.

What a competent engineer writes for a gateway that speaks these two APIs
only: one pass over the body, plain dicts, no intermediate form, no checks
beyond what the code needs to run. The system prompt goes to the top level,
`image_url` data URLs become base64 image sources, `tool_calls` become
`tool_use` blocks (`json.loads` of the arguments), tool messages become
`tool_result` blocks merged into user turns, and signed thinking, which
Chat Completions has no place for, is left out. The output is what
interlingua writes for the same input, field for field (`tests/test_bench.py`
checks it), so the floor does the same work.
"""

from __future__ import annotations

import json
import time
from typing import Any

__all__ = [
    "anthropic_request_to_chat",
    "anthropic_response_to_chat",
    "chat_request_to_anthropic",
    "chat_response_to_anthropic",
]

Body = dict[str, Any]

DEFAULT_MAX_TOKENS = 4096
_STOP_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "refusal": "content_filter",
}
_FINISH_REASONS = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "content_filter": "refusal",
}


# --- Chat Completions to Anthropic ---------------------------------------------


def chat_request_to_anthropic(body: Body, model: str) -> Body:
    system: list[str] = []
    turns: list[Body] = []
    for message in body["messages"]:
        role = message["role"]
        if role in ("system", "developer"):
            system.append(_text(message["content"]))
        elif role == "user":
            _add_user(turns, _user_blocks(message["content"]))
        elif role == "assistant":
            turns.append({"role": "assistant", "content": _assistant_content(message)})
        else:  # tool
            result = {
                "type": "tool_result",
                "tool_use_id": message["tool_call_id"],
                "content": _text(message["content"]),
            }
            _add_user(turns, [result])
    out: Body = {"model": model, "max_tokens": _max_tokens(body)}
    if system:
        out["system"] = "\n\n".join(system)
    out["messages"] = turns
    if tools := body.get("tools"):
        out["tools"] = [_anthropic_tool(tool["function"]) for tool in tools]
    return out


def _max_tokens(body: Body) -> int:
    return body.get("max_completion_tokens") or body.get("max_tokens") or DEFAULT_MAX_TOKENS


def _text(content: str | list[Body] | None) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    return "".join(part["text"] for part in content if part["type"] == "text")


def _add_user(turns: list[Body], blocks: list[Body] | str) -> None:
    """A user turn; one right after another user turn (tool results) joins it."""
    if turns and turns[-1]["role"] == "user":
        last = turns[-1]
        if isinstance(last["content"], str):
            last["content"] = [{"type": "text", "text": last["content"]}]
        if isinstance(blocks, str):
            blocks = [{"type": "text", "text": blocks}]
        last["content"].extend(blocks)
    else:
        turns.append({"role": "user", "content": blocks})


def _user_blocks(content: str | list[Body]) -> list[Body] | str:
    if isinstance(content, str):
        return content
    return [_user_block(part) for part in content]


def _user_block(part: Body) -> Body:
    if part["type"] == "text":
        return {"type": "text", "text": part["text"]}
    url = part["image_url"]["url"]
    if url.startswith("data:"):
        header, _, data = url.partition(",")
        media_type = header[5:].split(";", 1)[0]
        return {
            "type": "image",
            "source": {"type": "base64", "media_type": media_type, "data": data},
        }
    return {"type": "image", "source": {"type": "url", "url": url}}


def _assistant_content(message: Body) -> str | list[Body]:
    content = message.get("content")
    calls = message.get("tool_calls")
    if not calls and isinstance(content, str):
        return content
    blocks: list[Body] = []
    if text := _text(content):
        blocks.append({"type": "text", "text": text})
    for call in calls or ():
        function = call["function"]
        blocks.append(
            {
                "type": "tool_use",
                "id": call["id"],
                "name": function["name"],
                "input": json.loads(function["arguments"] or "{}"),
            }
        )
    return blocks


def _anthropic_tool(function: Body) -> Body:
    tool = {"name": function["name"], "input_schema": function.get("parameters") or {}}
    if "description" in function:
        tool["description"] = function["description"]
    if "strict" in function:
        tool["strict"] = function["strict"]
    return tool


# --- Anthropic to Chat Completions ---------------------------------------------


def anthropic_request_to_chat(body: Body, model: str) -> Body:
    messages: list[Body] = []
    if system := body.get("system"):
        messages.append({"role": "system", "content": _text(system)})
    for turn in body["messages"]:
        if turn["role"] == "user":
            messages += _chat_user(turn["content"])
        else:
            messages.append(_chat_assistant(turn["content"]))
    out: Body = {"model": model, "messages": messages}
    if tools := body.get("tools"):
        out["tools"] = [_chat_tool(tool) for tool in tools]
    out["max_completion_tokens"] = body["max_tokens"]
    if budget := (body.get("thinking") or {}).get("budget_tokens"):
        out["reasoning_effort"] = effort(budget)
    return out


def effort(budget: int) -> str:
    """The effort a thinking budget means, as interlingua maps it."""
    return "low" if budget <= 4096 else "medium" if budget <= 16384 else "high"


def _chat_user(content: str | list[Body]) -> list[Body]:
    """Tool results as tool messages, then what else the turn said as a user message."""
    if isinstance(content, str):
        return [{"role": "user", "content": content}]
    messages: list[Body] = []
    parts: list[Body] = []
    for block in content:
        kind = block["type"]
        if kind == "tool_result":
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": block["tool_use_id"],
                    "content": _text(block.get("content")),
                }
            )
        elif kind == "text":
            parts.append({"type": "text", "text": block["text"]})
        elif kind == "image":
            parts.append({"type": "image_url", "image_url": {"url": _image_url(block["source"])}})
    if len(parts) == 1 and parts[0]["type"] == "text":
        messages.append({"role": "user", "content": parts[0]["text"]})
    elif parts:
        messages.append({"role": "user", "content": parts})
    return messages


def _image_url(source: Body) -> str:
    if source["type"] == "base64":
        return f"data:{source['media_type']};base64,{source['data']}"
    return source["url"]  # type: ignore[no-any-return]


def _chat_assistant(content: str | list[Body]) -> Body:
    if isinstance(content, str):
        return {"role": "assistant", "content": content}
    texts = [block["text"] for block in content if block["type"] == "text"]
    message: Body = {"role": "assistant"}
    calls = [_chat_tool_call(block) for block in content if block["type"] == "tool_use"]
    if calls:
        message["tool_calls"] = calls
    if len(texts) == 1:
        message["content"] = texts[0]
    elif texts:
        message["content"] = [{"type": "text", "text": text} for text in texts]
    else:
        message["content"] = None
    return message


def _chat_tool_call(block: Body) -> Body:
    arguments = json.dumps(block["input"], ensure_ascii=False, separators=(",", ":"))
    function = {"name": block["name"], "arguments": arguments}
    return {"id": block["id"], "type": "function", "function": function}


def _chat_tool(tool: Body) -> Body:
    function = {"name": tool["name"]}
    if "description" in tool:
        function["description"] = tool["description"]
    function["parameters"] = tool["input_schema"]
    if "strict" in tool:
        function["strict"] = tool["strict"]
    return {"type": "function", "function": function}


# --- responses, both ways ------------------------------------------------------


def anthropic_response_to_chat(body: Body) -> Body:
    content = body["content"]
    texts = [block["text"] for block in content if block["type"] == "text"]
    message: Body = {
        "role": "assistant",
        "content": "".join(texts) if texts else None,
        "refusal": None,
        "annotations": [],
    }
    calls = [_chat_tool_call(block) for block in content if block["type"] == "tool_use"]
    if calls:
        message["tool_calls"] = calls
    finish = _STOP_REASONS.get(body["stop_reason"], "stop")
    choice = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
    return {
        "object": "chat.completion",
        "created": int(time.time()),  # Anthropic has no creation time: the time of writing
        "id": body["id"],
        "model": body["model"],
        "choices": [choice],
        "usage": _chat_usage(body["usage"]),
    }


def _chat_usage(usage: Body) -> Body:
    cache_read = usage.get("cache_read_input_tokens") or 0
    cache_write = usage.get("cache_creation_input_tokens") or 0
    prompt = usage["input_tokens"] + cache_read + cache_write
    details: Body = {"cached_tokens": cache_read}
    if cache_write:
        details["cache_write_tokens"] = cache_write
    return {
        "prompt_tokens": prompt,
        "completion_tokens": usage["output_tokens"],
        "total_tokens": prompt + usage["output_tokens"],
        "prompt_tokens_details": details,
    }


def chat_response_to_anthropic(body: Body) -> Body:
    choice = body["choices"][0]
    message = choice["message"]
    content: list[Body] = []
    if text := _text(message.get("content")):
        content.append({"type": "text", "text": text})
    for call in message.get("tool_calls") or ():
        function = call["function"]
        arguments = json.loads(function["arguments"] or "{}")
        content.append(
            {"type": "tool_use", "id": call["id"], "name": function["name"], "input": arguments}
        )
    return {
        "id": body["id"],
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": content,
        "stop_reason": _FINISH_REASONS.get(choice["finish_reason"], "end_turn"),
        "usage": _anthropic_usage(body["usage"]),
        "stop_sequence": None,
    }


def _anthropic_usage(usage: Body) -> Body:
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0
    return {
        "input_tokens": usage["prompt_tokens"] - cached,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": cached,
        "output_tokens": usage["completion_tokens"],
    }
