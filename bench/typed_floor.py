"""The typed floor: a core of plain `__slots__` classes and hand-written codecs.

The least a typed translation layer can cost in Python: the same concepts as
interlingua's core (parts, messages, a request, a response, usage), built
with plain constructors, no validation, no reports, and one hand-written
converter from and to each API's body (Anthropic, Chat Completions, the
Responses API). Like interlingua, it keeps what must go back to one provider
only (signatures, encrypted reasoning, Responses item ids) and leaves it out
for any other, keeps tool-call arguments as the JSON text the model wrote,
and writes the same bodies field for field (`tests/test_bench.py` checks it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bench.dict_baseline import effort

__all__ = [
    "FilePart",
    "Message",
    "ReasoningPart",
    "Request",
    "Response",
    "TextPart",
    "Tool",
    "ToolCallPart",
    "ToolResultPart",
    "Usage",
    "decode_request",
    "decode_response",
    "encode_request",
]

Body = dict[str, Any]

ANTHROPIC, CHAT, RESPONSES = "anthropic", "openai", "openai-responses"


# --- the core ------------------------------------------------------------------


class TextPart:
    __slots__ = ("item_id", "text")

    def __init__(self, text: str, item_id: str | None = None) -> None:
        self.text = text
        self.item_id = item_id  # the Responses API message item it came in


class FilePart:
    __slots__ = ("data", "detail", "media_type", "url")

    def __init__(
        self, media_type: str, data: str | None, url: str | None, detail: str | None = None
    ) -> None:
        self.media_type = media_type
        self.data = data
        self.url = url
        self.detail = detail


class ReasoningPart:
    __slots__ = ("item_id", "provider", "signature", "text")

    def __init__(
        self, text: str, signature: str | None, provider: str, item_id: str | None = None
    ) -> None:
        self.text = text
        self.signature = signature
        self.provider = provider
        self.item_id = item_id


class ToolCallPart:
    __slots__ = ("arguments", "id", "item_id", "name")

    def __init__(self, id: str, name: str, arguments: str, item_id: str | None = None) -> None:
        self.id = id
        self.name = name
        self.arguments = arguments
        self.item_id = item_id


class ToolResultPart:
    __slots__ = ("content", "is_error", "tool_call_id")

    def __init__(self, tool_call_id: str, content: str, is_error: bool = False) -> None:
        self.tool_call_id = tool_call_id
        self.content = content
        self.is_error = is_error


Part = TextPart | FilePart | ReasoningPart | ToolCallPart | ToolResultPart


class Message:
    __slots__ = ("parts", "role")

    def __init__(self, role: str, parts: list[Part]) -> None:
        self.role = role
        self.parts = parts


class Tool:
    __slots__ = ("description", "name", "parameters", "strict")

    def __init__(
        self, name: str, description: str | None, parameters: Body, strict: bool | None
    ) -> None:
        self.name = name
        self.description = description
        self.parameters = parameters
        self.strict = strict


class Request:
    __slots__ = (
        "budget_tokens",
        "effort",
        "max_tokens",
        "messages",
        "model",
        "options",
        "summary",
        "tools",
    )

    def __init__(self, model: str, messages: list[Message], tools: list[Tool]) -> None:
        self.model = model
        self.messages = messages
        self.tools = tools
        self.max_tokens: int | None = None
        self.budget_tokens: int | None = None
        self.effort: str | None = None
        self.summary: str | None = None
        self.options: dict[str, Body] = {}  # body fields one provider alone has


class Usage:
    __slots__ = ("cache_read", "cache_write", "input_tokens", "output_tokens", "reasoning_tokens")

    def __init__(
        self,
        input_tokens: int,
        output_tokens: int,
        cache_read: int = 0,
        cache_write: int = 0,
        reasoning_tokens: int = 0,
    ) -> None:
        self.input_tokens = input_tokens  # every input token, cache reads and writes included
        self.output_tokens = output_tokens
        self.cache_read = cache_read
        self.cache_write = cache_write
        self.reasoning_tokens = reasoning_tokens


class Response:
    __slots__ = ("finish_reason", "id", "message", "model", "raw_finish_reason", "usage")

    def __init__(
        self, id: str, model: str, message: Message, raw_finish_reason: str, usage: Usage
    ) -> None:
        self.id = id
        self.model = model
        self.message = message
        self.raw_finish_reason = raw_finish_reason
        self.finish_reason = FINISH_REASONS.get(raw_finish_reason, "other")
        self.usage = usage


FINISH_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
    "completed": "stop",
    "incomplete": "length",
}


def decode_request(api: str, body: Body) -> Request:
    return _REQUEST_DECODERS[api](body)


def encode_request(api: str, request: Request) -> Body:
    return _REQUEST_ENCODERS[api](request)


def decode_response(api: str, body: Body) -> Response:
    return _RESPONSE_DECODERS[api](body)


def _text_of(content: str | list[Body] | None) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    return "".join(part["text"] for part in content if part["type"] in ("text", "input_text"))


def _arguments(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _data_url(part: FilePart) -> str:
    return part.url or f"data:{part.media_type};base64,{part.data}"


def _file_from_url(url: str, detail: str | None) -> FilePart:
    if url.startswith("data:"):
        header, _, data = url.partition(",")
        return FilePart(header[5:].split(";", 1)[0], data, None, detail)
    return FilePart("image/*", None, url, detail)


def _single_text(parts: Sequence[Part]) -> str | None:
    if len(parts) == 1 and isinstance(parts[0], TextPart):
        return parts[0].text
    return None


# --- Anthropic -----------------------------------------------------------------


def _anthropic_decode(body: Body) -> Request:
    messages: list[Message] = []
    if system := body.get("system"):
        messages.append(Message("system", [TextPart(_text_of(system))]))
    for turn in body["messages"]:
        content = turn["content"]
        if isinstance(content, str):
            messages.append(Message(turn["role"], [TextPart(content)]))
        elif turn["role"] == "user":
            messages += _anthropic_user(content)
        else:
            messages.append(Message("assistant", [_anthropic_part(block) for block in content]))
    tools = [
        Tool(t["name"], t.get("description"), t["input_schema"], t.get("strict"))
        for t in body.get("tools", ())
    ]
    request = Request(body["model"], messages, tools)
    request.max_tokens = body["max_tokens"]
    thinking = body.get("thinking") or {}
    if thinking.get("type") == "enabled":
        request.budget_tokens = thinking["budget_tokens"]
    return request


def _anthropic_user(content: list[Body]) -> list[Message]:
    """A tool message for the turn's tool results, then a user message for the rest."""
    results: list[Part] = []
    parts: list[Part] = []
    for block in content:
        if block["type"] == "tool_result":
            text = _text_of(block.get("content"))
            results.append(ToolResultPart(block["tool_use_id"], text, block.get("is_error", False)))
        else:
            parts.append(_anthropic_part(block))
    messages = [Message("tool", results)] if results else []
    if parts:
        messages.append(Message("user", parts))
    return messages


def _anthropic_part(block: Body) -> Part:
    match block["type"]:
        case "text":
            return TextPart(block["text"])
        case "image":
            source = block["source"]
            if source["type"] == "base64":
                return FilePart(source["media_type"], source["data"], None)
            return FilePart("image/*", None, source["url"])
        case "thinking":
            return ReasoningPart(block["thinking"], block["signature"], ANTHROPIC)
        case "tool_use":
            return ToolCallPart(block["id"], block["name"], _arguments(block["input"]))
    raise ValueError(f"unknown block {block['type']!r}")


def _anthropic_encode(request: Request) -> Body:
    system = [m.parts[0].text for m in request.messages if m.role == "system"]  # type: ignore[union-attr]
    body: Body = {"model": request.model, "max_tokens": request.max_tokens or 4096}
    if request.budget_tokens:
        body["thinking"] = {"type": "enabled", "budget_tokens": request.budget_tokens}
    elif request.effort:
        body["thinking"] = {"type": "adaptive"}
        body["output_config"] = {"effort": request.effort}
    if system:
        body["system"] = "\n\n".join(system)
    body["messages"] = _anthropic_turns(request.messages)
    if request.tools:
        body["tools"] = [_anthropic_tool(tool) for tool in request.tools]
    return body


def _anthropic_turns(messages: list[Message]) -> list[Body]:
    turns: list[Body] = []
    for message in messages:
        if message.role == "system":
            continue
        blocks = [b for part in message.parts if (b := _anthropic_block(part)) is not None]
        if message.role != "assistant" and turns and turns[-1]["role"] == "user":
            last = turns[-1]["content"]
            if isinstance(last, str):
                turns[-1]["content"] = last = [{"type": "text", "text": last}]
            last += blocks
            continue
        role = "assistant" if message.role == "assistant" else "user"
        single = len(blocks) == 1 and blocks[0]["type"] == "text"
        turns.append({"role": role, "content": blocks[0]["text"] if single else blocks})
    return turns


def _anthropic_block(part: Part) -> Body | None:
    match part:
        case TextPart():
            return {"type": "text", "text": part.text}
        case FilePart(data=None):
            return {"type": "image", "source": {"type": "url", "url": part.url}}
        case FilePart():
            source = {"type": "base64", "media_type": part.media_type, "data": part.data}
            return {"type": "image", "source": source}
        case ReasoningPart(provider="anthropic"):
            return {"type": "thinking", "thinking": part.text, "signature": part.signature}
        case ReasoningPart():
            return None  # another provider's reasoning goes back there only
        case ToolCallPart():
            arguments = json.loads(part.arguments or "{}")
            return {"type": "tool_use", "id": part.id, "name": part.name, "input": arguments}
        case ToolResultPart():
            block: Body = {
                "type": "tool_result",
                "tool_use_id": part.tool_call_id,
                "content": part.content,
            }
            if part.is_error:
                block["is_error"] = True
            return block


def _anthropic_tool(tool: Tool) -> Body:
    body: Body = {"name": tool.name, "input_schema": tool.parameters}
    if tool.description is not None:
        body["description"] = tool.description
    if tool.strict is not None:
        body["strict"] = tool.strict
    return body


def _anthropic_decode_response(body: Body) -> Response:
    message = Message("assistant", [_anthropic_part(block) for block in body["content"]])
    usage = body["usage"]
    cache_read = usage.get("cache_read_input_tokens") or 0
    cache_write = usage.get("cache_creation_input_tokens") or 0
    total_input = usage["input_tokens"] + cache_read + cache_write
    counts = Usage(total_input, usage["output_tokens"], cache_read, cache_write)
    return Response(body["id"], body["model"], message, body["stop_reason"], counts)


# --- Chat Completions ----------------------------------------------------------


def _chat_decode(body: Body) -> Request:
    messages = [_chat_message(message) for message in body["messages"]]
    tools = [
        Tool(f["name"], f.get("description"), f.get("parameters") or {}, f.get("strict"))
        for f in (tool["function"] for tool in body.get("tools", ()))
    ]
    request = Request(body["model"], messages, tools)
    request.max_tokens = body.get("max_completion_tokens") or body.get("max_tokens")
    request.effort = body.get("reasoning_effort")
    return request


def _chat_message(message: Body) -> Message:
    role = message["role"]
    content = message.get("content")
    if role in ("system", "developer"):
        return Message("system", [TextPart(_text_of(content))])
    if role == "tool":
        return Message("tool", [ToolResultPart(message["tool_call_id"], _text_of(content))])
    if isinstance(content, str):
        parts: list[Part] = [TextPart(content)] if content or role == "user" else []
    else:
        parts = [_chat_part(part) for part in content or ()]
    for call in message.get("tool_calls") or ():
        function = call["function"]
        parts.append(ToolCallPart(call["id"], function["name"], function["arguments"]))
    return Message(role, parts)


def _chat_part(part: Body) -> Part:
    if part["type"] == "text":
        return TextPart(part["text"])
    image = part["image_url"]
    return _file_from_url(image["url"], image.get("detail"))


def _chat_encode(request: Request) -> Body:
    messages: list[Body] = []
    for message in request.messages:
        if message.role == "tool":
            messages += (_chat_tool_message(part) for part in message.parts)  # type: ignore[arg-type]
        else:
            messages.append(_chat_wire_message(message))
    body: Body = {"model": request.model, "messages": messages}
    if request.tools:
        body["tools"] = [_chat_tool(tool) for tool in request.tools]
    if request.max_tokens is not None:
        body["max_completion_tokens"] = request.max_tokens
    if request.effort or request.budget_tokens:
        body["reasoning_effort"] = request.effort or effort(request.budget_tokens or 0)
    return body


def _chat_tool_message(part: ToolResultPart) -> Body:
    return {"role": "tool", "tool_call_id": part.tool_call_id, "content": part.content}


def _chat_wire_message(message: Message) -> Body:
    parts = [p for p in message.parts if not isinstance(p, ReasoningPart | ToolCallPart)]
    calls = [p for p in message.parts if isinstance(p, ToolCallPart)]
    wire: Body = {"role": message.role}
    if calls:
        wire["tool_calls"] = [_chat_tool_call(call) for call in calls]
    text = _single_text(parts)
    if text is not None:
        wire["content"] = text
    elif parts:
        wire["content"] = [_chat_content_part(part) for part in parts]  # type: ignore[arg-type]
    else:
        wire["content"] = None
    return wire


def _chat_tool_call(call: ToolCallPart) -> Body:
    function = {"name": call.name, "arguments": call.arguments}
    return {"id": call.id, "type": "function", "function": function}


def _chat_content_part(part: TextPart | FilePart) -> Body:
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    image: Body = {"url": _data_url(part)}
    if part.detail is not None:
        image["detail"] = part.detail
    return {"type": "image_url", "image_url": image}


def _chat_tool(tool: Tool) -> Body:
    function: Body = {"name": tool.name}
    if tool.description is not None:
        function["description"] = tool.description
    function["parameters"] = tool.parameters
    if tool.strict is not None:
        function["strict"] = tool.strict
    return {"type": "function", "function": function}


def _chat_decode_response(body: Body) -> Response:
    choice = body["choices"][0]
    message = _chat_message(choice["message"])
    usage = body["usage"]
    details = usage.get("prompt_tokens_details") or {}
    reasoning = (usage.get("completion_tokens_details") or {}).get("reasoning_tokens") or 0
    counts = Usage(
        usage["prompt_tokens"],
        usage["completion_tokens"],
        details.get("cached_tokens") or 0,
        0,
        reasoning,
    )
    return Response(body["id"], body["model"], message, choice["finish_reason"], counts)


# --- Responses API -------------------------------------------------------------


def _responses_decode(body: Body) -> Request:
    messages: list[Message] = []
    for item in body["input"]:
        _responses_add(messages, item)
    tools = [
        Tool(t["name"], t.get("description"), t.get("parameters") or {}, t.get("strict"))
        for t in body.get("tools", ())
    ]
    request = Request(body["model"], messages, tools)
    request.max_tokens = body.get("max_output_tokens")
    reasoning = body.get("reasoning") or {}
    request.effort = reasoning.get("effort")
    request.summary = reasoning.get("summary")
    options: Body = {key: body[key] for key in ("include", "store") if key in body}
    if options:
        request.options[RESPONSES] = options
    return request


def _responses_add(messages: list[Message], item: Body) -> None:
    """Items of one assistant turn (reasoning, message, calls) share one message,
    as consecutive tool outputs do."""
    kind = item.get("type", "message")
    role = "tool" if kind == "function_call_output" else item.get("role", "assistant")
    if kind != "message" or role == "assistant":
        part = _responses_part(kind, item)
        if messages and messages[-1].role == role:
            messages[-1].parts.append(part)
        else:
            messages.append(Message(role, [part]))
        return
    content = item["content"]
    if isinstance(content, str):
        messages.append(Message(role, [TextPart(content)]))
    else:
        messages.append(Message(role, [_responses_input(part) for part in content]))


def _responses_part(kind: str, item: Body) -> Part:
    match kind:
        case "reasoning":
            text = "".join(summary["text"] for summary in item["summary"])
            return ReasoningPart(text, item.get("encrypted_content"), RESPONSES, item.get("id"))
        case "function_call":
            return ToolCallPart(item["call_id"], item["name"], item["arguments"], item.get("id"))
        case "function_call_output":
            return ToolResultPart(item["call_id"], _text_of(item["output"]))
        case "message":
            content = item["content"]
            text = content if isinstance(content, str) else _text_of_output(content)
            return TextPart(text, item.get("id"))
    raise ValueError(f"unknown item {kind!r}")


def _text_of_output(content: list[Body]) -> str:
    return "".join(part["text"] for part in content if part["type"] == "output_text")


def _responses_input(part: Body) -> Part:
    if part["type"] == "input_text":
        return TextPart(part["text"])
    return _file_from_url(part["image_url"], part.get("detail"))


def _responses_encode(request: Request) -> Body:
    items: list[Body] = []
    for message in request.messages:
        if message.role in ("assistant", "tool"):
            items += (i for part in message.parts if (i := _responses_item(part)) is not None)
        else:
            items.append(_responses_input_message(message))
    body: Body = {"model": request.model, "input": items}
    if request.tools:
        body["tools"] = [_responses_tool(tool) for tool in request.tools]
    if request.max_tokens is not None:
        body["max_output_tokens"] = request.max_tokens
    if request.effort or request.summary or request.budget_tokens:
        meant = effort(request.budget_tokens) if request.budget_tokens else None
        reasoning = {"effort": request.effort or meant, "summary": request.summary}
        body["reasoning"] = {key: value for key, value in reasoning.items() if value}
    body.update(request.options.get(RESPONSES, {}))
    return body


def _responses_input_message(message: Message) -> Body:
    text = _single_text(message.parts)
    if text is not None:
        return {"role": message.role, "content": text}
    content = [_responses_content(part) for part in message.parts]  # type: ignore[arg-type]
    return {"role": message.role, "content": content}


def _responses_content(part: TextPart | FilePart) -> Body:
    if isinstance(part, TextPart):
        return {"type": "input_text", "text": part.text}
    image: Body = {"type": "input_image", "image_url": _data_url(part)}
    if part.detail is not None:
        image["detail"] = part.detail
    return image


def _responses_item(part: Part) -> Body | None:
    match part:
        case TextPart(item_id=None):
            return {"role": "assistant", "content": part.text}
        case TextPart():
            output = {"type": "output_text", "text": part.text, "annotations": []}
            return {
                "type": "message",
                "id": part.item_id,
                "role": "assistant",
                "status": "completed",
                "content": [output],
            }
        case ReasoningPart(provider="openai-responses"):
            return _responses_reasoning(part)
        case ToolCallPart():
            return _responses_call(part)
        case ToolResultPart():
            return {
                "type": "function_call_output",
                "call_id": part.tool_call_id,
                "output": part.content,
            }
    return None  # reasoning from another provider, or a file the API takes from users only


def _responses_reasoning(part: ReasoningPart) -> Body:
    item: Body = {"type": "reasoning"}
    if part.item_id is not None:
        item["id"] = part.item_id
    item["summary"] = [{"type": "summary_text", "text": part.text}] if part.text else []
    if part.signature is not None:
        item["encrypted_content"] = part.signature
    return item


def _responses_call(part: ToolCallPart) -> Body:
    item: Body = {
        "type": "function_call",
        "call_id": part.id,
        "name": part.name,
        "arguments": part.arguments,
    }
    if part.item_id is not None:
        item["id"] = part.item_id
    return item


def _responses_tool(tool: Tool) -> Body:
    body: Body = {"type": "function", "name": tool.name}
    if tool.description is not None:
        body["description"] = tool.description
    body["parameters"] = tool.parameters
    body["strict"] = bool(tool.strict)
    return body


def _responses_decode_response(body: Body) -> Response:
    messages: list[Message] = []
    for item in body["output"]:
        _responses_add(messages, item)
    message = messages[0] if messages else Message("assistant", [])
    usage = body["usage"]
    counts = Usage(
        usage["input_tokens"],
        usage["output_tokens"],
        usage["input_tokens_details"]["cached_tokens"],
        0,
        usage["output_tokens_details"]["reasoning_tokens"],
    )
    calls = any(isinstance(part, ToolCallPart) for part in message.parts)
    finish = "tool_calls" if calls else body["status"]
    return Response(body["id"], body["model"], message, finish, counts)


_REQUEST_DECODERS = {
    "anthropic": _anthropic_decode,
    "chat": _chat_decode,
    "responses": _responses_decode,
}
_REQUEST_ENCODERS = {
    "anthropic": _anthropic_encode,
    "chat": _chat_encode,
    "responses": _responses_encode,
}
_RESPONSE_DECODERS = {
    "anthropic": _anthropic_decode_response,
    "chat": _chat_decode_response,
    "responses": _responses_decode_response,
}
