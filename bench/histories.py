"""Deterministic conversations, responses and streams in each API's wire format.

A history of `size` messages is one script of steps (`System`, `User`,
`Assistant`, `ToolResult`) written out three ways: a Chat Completions body, an
Anthropic Messages body and a Responses API body, each shaped like the traffic
recorded in ../shared/corpus and in the form interlingua writes, so a body
survives decode and encode unchanged. Reasoning goes where a format has a
place for it: Anthropic's signed thinking blocks, the Responses API's
reasoning items with encrypted content; Chat Completions has none. The core
`ChatRequest` of a history is what each API's `decode_request` makes of its
body.

`size` counts Chat Completions messages: the system prompt, then cycles of
ten (a user turn, with an image every other cycle; two parallel tool calls
and their results; a third call whose result a user remark follows, merged
into one Anthropic user turn; answers), cut to `size`.

Every body goes through `json.loads(json.dumps(...))`, so it shares no
objects, as a parsed request body would not.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "APIS",
    "API_MODELS",
    "History",
    "Stream",
    "build_history",
    "build_responses",
    "build_streams",
]

Body = dict[str, Any]

APIS = ("anthropic", "chat", "responses")
API_MODELS = {"anthropic": "claude-sonnet-4-5", "chat": "gpt-4o", "responses": "gpt-5-mini"}
MAX_TOKENS = 4096

_PROSE = (
    "the weather in Lisbon turns with the Atlantic wind while the harbour keeps its own "
    "small climate of salt fog and sudden light over the river where ferries cross twice "
    "an hour and the trams climb slowly past the old walls towards the castle"
)
_WORDS = tuple(_PROSE.split(" "))
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

TOOLS: tuple[Body, ...] = (
    {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
            "required": ["city"],
            "additionalProperties": False,
        },
    },
    {
        "name": "search_docs",
        "description": "Search the travel guide; returns the best passages.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["query"],
            "additionalProperties": False,
        },
    },
)


# --- the script ----------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A tool call; `n` numbers it across the history and makes its ids."""

    n: int
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class System:
    text: str


@dataclass(frozen=True)
class User:
    text: str
    image: str | None  # base64 PNG data


@dataclass(frozen=True)
class Assistant:
    n: int
    thought: str
    text: str
    calls: tuple[Call, ...]


@dataclass(frozen=True)
class ToolResult:
    call: Call
    output: str


Step = System | User | Assistant | ToolResult


def script(size: int) -> list[Step]:
    """The first `size` steps: the system prompt, then cycles of ten."""
    if size < 2:
        raise ValueError("a history needs at least 2 messages")
    steps: list[Step] = [System(text="You are a travel assistant. " + sentence(0, 24))]
    cycle = 0
    while len(steps) < size:
        steps += _cycle(cycle)
        cycle += 1
    return steps[:size]


def _cycle(k: int) -> list[Step]:
    weather = Call(3 * k, "get_weather", {"city": "Lisbon", "unit": "celsius"})
    search = Call(3 * k + 1, "search_docs", {"query": sentence(k, 6), "limit": 3})
    follow = Call(3 * k + 2, "search_docs", {"query": sentence(k + 1, 5), "limit": 5})
    return [
        User(text=f"Question {k}: " + sentence(k, 30), image=image(k) if k % 2 == 0 else None),
        Assistant(4 * k, sentence(k, 60), "Let me check both.", (weather, search)),
        ToolResult(weather, json.dumps({"city": "Lisbon", "temp_c": 14 + k % 9, "sky": "rain"})),
        ToolResult(search, json.dumps({"passages": [sentence(k + 2, 20), sentence(k + 3, 20)]})),
        Assistant(4 * k + 1, sentence(k + 4, 40), "One more search.", (follow,)),
        ToolResult(follow, json.dumps({"passages": [sentence(k + 5, 25)]})),
        User(text="Also mind the ferry times. " + sentence(k + 6, 10), image=None),
        Assistant(4 * k + 2, sentence(k + 7, 50), sentence(k + 8, 70), ()),
        User(text="Thanks. " + sentence(k + 9, 15), image=None),
        Assistant(4 * k + 3, sentence(k + 10, 30), sentence(k + 11, 40), ()),
    ]


def sentence(seed: int, words: int) -> str:
    start = seed * 7 % len(_WORDS)
    chosen = (_WORDS[(start + i) % len(_WORDS)] for i in range(words))
    return " ".join(chosen).capitalize() + "."


def token(kind: str, n: int, length: int, alphabet: str = _ALPHABET) -> str:
    """A deterministic id-like string: the same `kind` and `n` give the same token."""
    digest = hashlib.blake2b(f"{kind}:{n}".encode(), digest_size=64).digest()
    return "".join(alphabet[byte % len(alphabet)] for byte in digest[:length])


def image(k: int) -> str:
    """A small PNG (a kilobyte of base64), different for each `k`."""
    body = hashlib.blake2b(f"image:{k}".encode(), digest_size=64).digest() * 12
    return base64.b64encode(b"\x89PNG\r\n\x1a\n" + body).decode("ascii")


def signature(n: int) -> str:
    """An Anthropic thinking signature (base64, a few hundred characters)."""
    return "Eq" + base64.b64encode(hashlib.sha512(f"sig:{n}".encode()).digest() * 5).decode()


def encrypted(n: int) -> str:
    """A Responses API `encrypted_content` (Fernet-like, about 1.4 KB)."""
    raw = hashlib.sha512(f"enc:{n}".encode()).digest() * 16
    return "gAAAAAB" + base64.urlsafe_b64encode(raw).decode()


def chat_call_id(call: Call) -> str:
    return "call_" + token("call", call.n, 24)


def anthropic_call_id(call: Call) -> str:
    return "toolu_01" + token("toolu", call.n, 22)


def item_id(prefix: str, n: int) -> str:
    return f"{prefix}_" + token(prefix, n, 48, "0123456789abcdef")


def data_url(data: str) -> str:
    return "data:image/png;base64," + data


# --- Chat Completions ----------------------------------------------------------


def chat_body(steps: list[Step]) -> Body:
    return {
        "model": API_MODELS["chat"],
        "messages": [_chat_message(step) for step in steps],
        "tools": [{"type": "function", "function": dict(tool)} for tool in TOOLS],
        "max_completion_tokens": MAX_TOKENS,
    }


def _chat_message(step: Step) -> Body:
    match step:
        case System(text):
            return {"role": "system", "content": text}
        case User(text, None):
            return {"role": "user", "content": text}
        case User(text, str() as data):
            parts = [{"type": "text", "text": text}]
            return {"role": "user", "content": [*parts, _chat_image(data)]}
        case Assistant(_, _, text, calls):
            message: Body = {"role": "assistant", "content": text}
            if calls:
                message["tool_calls"] = [_chat_tool_call(call) for call in calls]
            return message
        case ToolResult(call, output):
            return {"role": "tool", "tool_call_id": chat_call_id(call), "content": output}
    raise AssertionError(step)


def _chat_image(data: str) -> Body:
    return {"type": "image_url", "image_url": {"url": data_url(data)}}


def _chat_tool_call(call: Call) -> Body:
    function = {"name": call.name, "arguments": json.dumps(call.arguments)}
    return {"id": chat_call_id(call), "type": "function", "function": function}


# --- Anthropic -----------------------------------------------------------------


def anthropic_body(steps: list[Step]) -> Body:
    system = next(step.text for step in steps if isinstance(step, System))
    return {
        "model": API_MODELS["anthropic"],
        "max_tokens": MAX_TOKENS,
        "system": system,
        "messages": list(_anthropic_turns(steps)),
        "tools": [_anthropic_tool(tool) for tool in TOOLS],
        "thinking": {"type": "enabled", "budget_tokens": 2048},
    }


def _anthropic_turns(steps: list[Step]) -> Iterator[Body]:
    """Turns; tool results and the user text after them share one user turn."""
    pending: list[Body] = []  # the blocks of a user turn that opened with tool results
    for step in steps:
        match step:
            case System():
                continue
            case ToolResult(call, output):
                pending.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": anthropic_call_id(call),
                        "content": output,
                    }
                )
                continue
            case User() if pending:
                pending += _anthropic_user_blocks(step)
                continue
        if pending:
            yield {"role": "user", "content": pending}
            pending = []
        yield _anthropic_turn(step)
    if pending:
        yield {"role": "user", "content": pending}


def _anthropic_turn(step: Step) -> Body:
    match step:
        case User(text, None):
            return {"role": "user", "content": text}
        case User():
            return {"role": "user", "content": _anthropic_user_blocks(step)}
        case Assistant(n, thought, text, calls):
            thinking = {"type": "thinking", "thinking": thought, "signature": signature(n)}
            uses = [_anthropic_tool_use(call) for call in calls]
            return {
                "role": "assistant",
                "content": [thinking, {"type": "text", "text": text}, *uses],
            }
    raise AssertionError(step)


def _anthropic_user_blocks(step: User) -> list[Body]:
    blocks: list[Body] = [{"type": "text", "text": step.text}]
    if step.image is not None:
        source = {"type": "base64", "media_type": "image/png", "data": step.image}
        blocks.append({"type": "image", "source": source})
    return blocks


def _anthropic_tool_use(call: Call) -> Body:
    return {
        "type": "tool_use",
        "id": anthropic_call_id(call),
        "name": call.name,
        "input": call.arguments,
    }


def _anthropic_tool(tool: Body) -> Body:
    return {
        "name": tool["name"],
        "description": tool["description"],
        "input_schema": tool["parameters"],
    }


# --- Responses API -------------------------------------------------------------


def responses_body(steps: list[Step]) -> Body:
    return {
        "model": API_MODELS["responses"],
        "input": [item for step in steps for item in _responses_items(step)],
        "tools": [{"type": "function", **tool, "strict": True} for tool in TOOLS],
        "max_output_tokens": MAX_TOKENS,
        "reasoning": {"effort": "medium", "summary": "auto"},
        "include": ["reasoning.encrypted_content"],
        "store": False,
    }


def _responses_items(step: Step) -> list[Body]:
    match step:
        case System(text):
            return [{"role": "system", "content": text}]
        case User(text, None):
            return [{"role": "user", "content": text}]
        case User(text, str() as data):
            image_part = {"type": "input_image", "image_url": data_url(data), "detail": "auto"}
            return [{"role": "user", "content": [{"type": "input_text", "text": text}, image_part]}]
        case Assistant(n, thought, text, calls):
            return [
                _responses_reasoning(n, thought),
                _responses_message(n, text),
                *(_responses_call(call) for call in calls),
            ]
        case ToolResult(call, output):
            return [
                {"type": "function_call_output", "call_id": chat_call_id(call), "output": output}
            ]
    raise AssertionError(step)


def _responses_reasoning(n: int, thought: str) -> Body:
    return {
        "type": "reasoning",
        "id": item_id("rs", n),
        "summary": [{"type": "summary_text", "text": thought}],
        "encrypted_content": encrypted(n),
    }


def _responses_message(n: int, text: str) -> Body:
    return {
        "type": "message",
        "id": item_id("msg", n),
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def _responses_call(call: Call) -> Body:
    return {
        "type": "function_call",
        "id": item_id("fc", call.n),
        "call_id": chat_call_id(call),
        "name": call.name,
        "arguments": json.dumps(call.arguments),
    }


# --- what the benchmark takes --------------------------------------------------


@dataclass(frozen=True)
class History:
    """One conversation of `size` messages as each API's request body."""

    size: int
    bodies: dict[str, Body]  # keyed by API: "anthropic", "chat", "responses"
    texts: dict[str, str]  # the same bodies as JSON text


def build_history(size: int) -> History:
    steps = script(size)
    written = {
        "anthropic": anthropic_body(steps),
        "chat": chat_body(steps),
        "responses": responses_body(steps),
    }
    texts = {api: json.dumps(body) for api, body in written.items()}
    return History(size, {api: json.loads(text) for api, text in texts.items()}, texts)


def _answer_calls() -> tuple[Call, ...]:
    return (
        Call(900_000, "get_weather", {"city": "Porto", "unit": "celsius"}),
        Call(900_001, "search_docs", {"query": sentence(3, 6), "limit": 3}),
    )


def build_responses() -> dict[str, Body]:
    """One answer (reasoning, text, two tool calls, usage) as each API's response body."""
    thought, text, calls = sentence(5, 80), sentence(6, 120), _answer_calls()
    written = {
        "anthropic": _anthropic_response(thought, text, calls),
        "chat": _chat_response(text, calls),
        "responses": _responses_response(thought, text, calls),
    }
    return json.loads(json.dumps(written))  # type: ignore[no-any-return]


def _anthropic_response(thought: str, text: str, calls: tuple[Call, ...]) -> Body:
    thinking = {"type": "thinking", "thinking": thought, "signature": signature(900_000)}
    return {
        "id": "msg_01" + token("msg", 1, 22),
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [thinking, {"type": "text", "text": text}, *map(_anthropic_tool_use, calls)],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 1812,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 1024,
            "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
            "output_tokens": 402,
            "service_tier": "standard",
        },
    }


def _chat_response(text: str, calls: tuple[Call, ...]) -> Body:
    message = {
        "role": "assistant",
        "content": text,
        "tool_calls": [_chat_tool_call(call) for call in calls],
        "refusal": None,
        "annotations": [],
    }
    choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": "tool_calls"}
    return {
        "id": "chatcmpl-" + token("chatcmpl", 1, 29),
        "object": "chat.completion",
        "created": 1766084439,
        "model": "gpt-4o-2024-08-06",
        "choices": [choice],
        "usage": _chat_usage(),
        "service_tier": "default",
        "system_fingerprint": "fp_e413f45763",
    }


def _chat_usage() -> Body:
    return {
        "prompt_tokens": 2836,
        "completion_tokens": 402,
        "total_tokens": 3238,
        "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def _responses_response(thought: str, text: str, calls: tuple[Call, ...]) -> Body:
    output = [
        _responses_reasoning(900_000, thought),
        _responses_message(900_000, text),
        *({**_responses_call(call), "status": "completed"} for call in calls),
    ]
    return _responses_envelope(output, "completed")


def _responses_envelope(output: list[Body], status: str) -> Body:
    """A Responses API response object, every field as the API sends it."""
    done = status == "completed"
    tools = [{"type": "function", **tool, "strict": True} for tool in TOOLS]
    usage = {
        "input_tokens": 2836,
        "input_tokens_details": {"cached_tokens": 1024},
        "output_tokens": 402,
        "output_tokens_details": {"reasoning_tokens": 128},
        "total_tokens": 3238,
    }
    return {
        "id": "resp_" + token("resp", 1, 50, "0123456789abcdef"),
        "object": "response",
        "created_at": 1769718259,
        "status": status,
        "background": False,
        "billing": {"payer": "developer"},
        "completed_at": 1769718261 if done else None,
        "error": None,
        "frequency_penalty": 0.0,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": MAX_TOKENS,
        "max_tool_calls": None,
        "model": "gpt-5-mini-2025-08-07",
        "output": output,
        "parallel_tool_calls": True,
        "presence_penalty": 0.0,
        "previous_response_id": None,
        "prompt_cache_key": None,
        "prompt_cache_retention": None,
        "reasoning": {"effort": "medium", "summary": "auto"},
        "safety_identifier": None,
        "service_tier": "default",
        "store": False,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto",
        "tools": tools,
        "top_logprobs": 0,
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": usage if done else None,
        "user": None,
        "metadata": {},
    }


# --- streams -------------------------------------------------------------------


@dataclass(frozen=True)
class Stream:
    """One streamed answer: the SSE data payloads, parsed and as JSON text."""

    payloads: list[Body]
    texts: list[str]


def build_streams(chunks: int = 1000) -> dict[str, Stream]:
    """Each API's stream of exactly `chunks` payloads: reasoning (where the API
    streams it), text and a tool call, shaped like the recorded ones."""
    written = {
        "anthropic": _anthropic_stream(chunks),
        "chat": _chat_stream(chunks),
        "responses": _responses_stream(chunks),
    }
    streams = {}
    for api, payloads in written.items():
        assert len(payloads) == chunks, (api, len(payloads))
        texts = [json.dumps(payload, separators=(",", ":")) for payload in payloads]
        streams[api] = Stream([json.loads(text) for text in texts], texts)
    return streams


def _split(deltas: int, shares: tuple[int, ...]) -> tuple[int, ...]:
    """`deltas` split in proportion to `shares`, the remainder to the last."""
    total = sum(shares)
    counts = [deltas * share // total for share in shares[:-1]]
    return (*counts, deltas - sum(counts))


def _words(n: int) -> Iterator[str]:
    for i in range(n):
        yield " " + _WORDS[i % len(_WORDS)]


def _json_pieces(arguments: dict[str, Any], n: int) -> list[str]:
    """The JSON text of `arguments`, padded and cut into `n` pieces."""
    text = json.dumps({**arguments, "note": "x" * (4 * n)})
    size = -(-len(text) // n)
    return [text[i * size : (i + 1) * size] for i in range(n)]


def _anthropic_stream(chunks: int) -> list[Body]:
    thinking, text, arguments = _split(chunks - 12, (25, 65, 10))
    call = _answer_calls()[0]
    events: list[Body] = [_anthropic_message_start(), {"type": "ping"}]
    events += _anthropic_block(
        0,
        {"type": "thinking", "thinking": "", "signature": ""},
        [{"type": "thinking_delta", "thinking": w} for w in _words(thinking)]
        + [{"type": "signature_delta", "signature": signature(900_001)}],
    )
    events += _anthropic_block(
        1, {"type": "text", "text": ""}, [{"type": "text_delta", "text": w} for w in _words(text)]
    )
    use = {"type": "tool_use", "id": anthropic_call_id(call), "name": call.name, "input": {}}
    pieces = ["", *_json_pieces(call.arguments, arguments)]
    events += _anthropic_block(
        2, use, [{"type": "input_json_delta", "partial_json": p} for p in pieces]
    )
    usage = {
        "input_tokens": 1812,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 1024,
        "output_tokens": chunks,
    }
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": usage,
        }
    )
    events.append({"type": "message_stop"})
    return events


def _anthropic_message_start() -> Body:
    usage = {
        "input_tokens": 1812,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 1024,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 8,
        "service_tier": "standard",
    }
    message: Body = {
        "model": "claude-sonnet-4-5-20250929",
        "id": "msg_01" + token("msg", 2, 22),
        "type": "message",
        "role": "assistant",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    return {"type": "message_start", "message": message}


def _anthropic_block(index: int, block: Body, deltas: list[Body]) -> list[Body]:
    start = {"type": "content_block_start", "index": index, "content_block": block}
    middle = [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
    return [start, *middle, {"type": "content_block_stop", "index": index}]


def _chat_stream(chunks: int) -> list[Body]:
    text, arguments = _split(chunks - 4, (85, 15))
    call = _answer_calls()[0]
    start = {
        "index": 0,
        "id": chat_call_id(call),
        "type": "function",
        "function": {"name": call.name, "arguments": ""},
    }
    deltas: list[tuple[Body, str | None]] = [
        ({"role": "assistant", "content": "", "refusal": None}, None)
    ]
    deltas += [({"content": w}, None) for w in _words(text)]
    deltas.append(({"tool_calls": [start]}, None))
    deltas += [
        ({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}, None)
        for p in _json_pieces(call.arguments, arguments)
    ]
    deltas.append(({}, "tool_calls"))
    chunk_list = [
        _chat_chunk(n, [{"index": 0, "delta": d, "logprobs": None, "finish_reason": f}], None)
        for n, (d, f) in enumerate(deltas)
    ]
    chunk_list.append(_chat_chunk(len(deltas), [], _chat_usage()))
    return chunk_list


def _chat_chunk(n: int, choices: list[Body], usage: Body | None) -> Body:
    return {
        "id": "chatcmpl-" + token("chatcmpl", 2, 29),
        "object": "chat.completion.chunk",
        "created": 1766084439,
        "model": "gpt-4o-2024-08-06",
        "service_tier": "default",
        "system_fingerprint": "fp_e413f45763",
        "choices": choices,
        "usage": usage,
        "obfuscation": token("obf", n, n % 15),
    }


def _responses_stream(chunks: int) -> list[Body]:
    thought, text, arguments = _split(chunks - 16, (25, 65, 10))
    call = _answer_calls()[0]
    reasoning = _responses_reasoning(900_001, "".join(_words(thought)))
    message = _responses_message(900_001, "".join(_words(text)))
    function = {**_responses_call(call), "status": "completed"}
    pieces = _json_pieces(call.arguments, arguments)
    function["arguments"] = "".join(pieces)
    in_progress = _responses_envelope([], "in_progress")
    events: list[Body] = [
        {"type": "response.created", "response": in_progress},
        {"type": "response.in_progress", "response": in_progress},
    ]
    events += _responses_reasoning_events(0, reasoning, thought)
    events += _responses_message_events(1, message, text)
    events += _responses_call_events(2, function, pieces)
    events.append(
        {
            "type": "response.completed",
            "response": _responses_envelope([reasoning, message, function], "completed"),
        }
    )
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def _responses_reasoning_events(index: int, item: Body, deltas: int) -> list[Body]:
    where = {"item_id": item["id"], "output_index": index, "summary_index": 0}
    text = item["summary"][0]["text"]
    added = {**item, "summary": [], "encrypted_content": None}
    return [
        {"type": "response.output_item.added", "item": added, "output_index": index},
        {
            "type": "response.reasoning_summary_part.added",
            **where,
            "part": {"type": "summary_text", "text": ""},
        },
        *(
            {
                "type": "response.reasoning_summary_text.delta",
                **where,
                "delta": w,
                "obfuscation": token("obf", i, i % 15),
            }
            for i, w in enumerate(_words(deltas))
        ),
        {"type": "response.reasoning_summary_text.done", **where, "text": text},
        {
            "type": "response.reasoning_summary_part.done",
            **where,
            "part": {"type": "summary_text", "text": text},
        },
        {"type": "response.output_item.done", "item": item, "output_index": index},
    ]


def _responses_message_events(index: int, item: Body, deltas: int) -> list[Body]:
    where = {"item_id": item["id"], "output_index": index, "content_index": 0}
    part = item["content"][0]
    added = {**item, "status": "in_progress", "content": []}
    return [
        {"type": "response.output_item.added", "item": added, "output_index": index},
        {
            "type": "response.content_part.added",
            **where,
            "part": {**part, "text": "", "logprobs": []},
        },
        *(
            {
                "type": "response.output_text.delta",
                **where,
                "delta": w,
                "logprobs": [],
                "obfuscation": token("obf", i, i % 15),
            }
            for i, w in enumerate(_words(deltas))
        ),
        {"type": "response.output_text.done", **where, "text": part["text"], "logprobs": []},
        {"type": "response.content_part.done", **where, "part": {**part, "logprobs": []}},
        {"type": "response.output_item.done", "item": item, "output_index": index},
    ]


def _responses_call_events(index: int, item: Body, pieces: list[str]) -> list[Body]:
    where = {"item_id": item["id"], "output_index": index}
    added = {**item, "status": "in_progress", "arguments": ""}
    return [
        {"type": "response.output_item.added", "item": added, "output_index": index},
        *(
            {
                "type": "response.function_call_arguments.delta",
                **where,
                "delta": p,
                "obfuscation": token("obf", i, i % 15),
            }
            for i, p in enumerate(pieces)
        ),
        {"type": "response.function_call_arguments.done", **where, "arguments": item["arguments"]},
        {"type": "response.output_item.done", "item": item, "output_index": index},
    ]
