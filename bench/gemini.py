"""The benchmark's conversation, answer and stream in Gemini's wire format.

The script of `bench.histories` written as a `generateContent` body, shaped
like the Gemini traffic recorded in ../shared/corpus/google and in the form
interlingua writes, so the body survives decode and encode unchanged: the
system prompt as `systemInstruction`, `user` and `model` contents, images as
`inlineData`, thoughts as `thought: true` text parts, the turn's thought
signature on its first function call (on its answer's text when it makes no
call, as Gemini 3 sends them), calls without ids (the Gemini API gives none)
and their results as `functionResponse` parts named after the call, in the
user turn that follows; a user remark after them is a turn of its own.
"""

from __future__ import annotations

import base64
import hashlib
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
    token,
)

__all__ = ["MODEL", "build_body", "build_response", "build_stream", "thought_signature"]

Body = dict[str, Any]

MODEL = "gemini-2.5-flash"


def thought_signature(n: int) -> str:
    """A Gemini thought signature (base64, a few hundred characters)."""
    digest = hashlib.sha512(f"gsig:{n}".encode()).digest()
    return base64.b64encode(b"\n\x9c\x02" + digest * 4).decode()


def _parsed(value: Any) -> Any:
    """A copy sharing no objects, as a parsed body would."""
    return json.loads(json.dumps(value))


# --- the request ---------------------------------------------------------------


def build_body(size: int) -> Body:
    """The history of `size` Chat Completions messages as a `generateContent` body."""
    steps = script(size)
    system = next(step.text for step in steps if isinstance(step, System))
    declarations = [
        {
            "name": tool["name"],
            "description": tool["description"],
            "parametersJsonSchema": tool["parameters"],
        }
        for tool in TOOLS
    ]
    body = {
        "contents": _contents(steps),
        "systemInstruction": {"parts": [{"text": system}]},
        "tools": [{"functionDeclarations": declarations}],
        "generationConfig": {
            "maxOutputTokens": MAX_TOKENS,
            "thinkingConfig": {"includeThoughts": True, "thinkingBudget": 2048},
        },
    }
    return _parsed(body)  # type: ignore[no-any-return]


def _contents(steps: list[Step]) -> list[Body]:
    contents: list[Body] = []
    results: list[Body] = []  # the function responses of the user turn being gathered
    for step in steps:
        if isinstance(step, ToolResult):
            results.append(_function_response(step))
            continue
        if results:
            contents.append({"role": "user", "parts": results})
            results = []
        match step:
            case System():
                continue
            case User(text, image):
                parts: list[Body] = [{"text": text}]
                if image is not None:
                    parts.append({"inlineData": {"mimeType": "image/png", "data": image}})
                contents.append({"role": "user", "parts": parts})
            case Assistant():
                contents.append({"role": "model", "parts": _model_parts(step)})
    if results:
        contents.append({"role": "user", "parts": results})
    return contents


def _model_parts(step: Assistant) -> list[Body]:
    calls = [_function_call(call) for call in step.calls]
    answer: Body = {"text": step.text}
    signed = calls[0] if calls else answer
    signed["thoughtSignature"] = thought_signature(step.n)
    return [{"text": step.thought, "thought": True}, answer, *calls]


def _function_call(call: Call) -> Body:
    return {"functionCall": {"name": call.name, "args": call.arguments}}


def _function_response(step: ToolResult) -> Body:
    return {"functionResponse": {"name": step.call.name, "response": {"output": step.output}}}


# --- the answer ----------------------------------------------------------------


def _usage(output_tokens: int) -> Body:
    return {
        "promptTokenCount": 2836,
        "candidatesTokenCount": output_tokens,
        "totalTokenCount": 2836 + output_tokens + 128,
        "cachedContentTokenCount": 1024,
        "promptTokensDetails": [
            {"modality": "TEXT", "tokenCount": 2612},
            {"modality": "IMAGE", "tokenCount": 224},
        ],
        "cacheTokensDetails": [{"modality": "TEXT", "tokenCount": 1024}],
        "thoughtsTokenCount": 128,
    }


def build_response() -> Body:
    """One answer (a thought, text, two parallel calls, usage) as a Gemini response."""
    calls = [
        {"functionCall": {"name": "get_weather", "args": {"city": "Porto", "unit": "celsius"}}},
        {"functionCall": {"name": "search_docs", "args": {"query": sentence(3, 6), "limit": 3}}},
    ]
    calls[0]["thoughtSignature"] = thought_signature(900_000)
    parts = [{"text": sentence(5, 80), "thought": True}, {"text": sentence(6, 120)}, *calls]
    candidate = {
        "content": {"parts": parts, "role": "model"},
        "finishReason": "STOP",
        "index": 0,
    }
    body = {
        "candidates": [candidate],
        "usageMetadata": _usage(402),
        "modelVersion": MODEL,
        "responseId": token("gresp", 1, 23),
    }
    return _parsed(body)  # type: ignore[no-any-return]


# --- the stream ----------------------------------------------------------------


def build_stream(chunks: int) -> tuple[list[Body], list[str]]:
    """A streamed answer of exactly `chunks` SSE payloads (`?alt=sse`): thought
    deltas, text deltas, and last a function call arriving whole with its
    signature, the finish and the usage; the payloads parsed and as JSON text."""
    thoughts = (chunks - 1) // 4
    texts = chunks - 1 - thoughts
    words = sentence(0, 60).split(" ")
    payloads = [_chunk([{"text": " " + words[i % 60], "thought": True}]) for i in range(thoughts)]
    payloads += [_chunk([{"text": " " + words[i % 60]}]) for i in range(texts)]
    call = {"functionCall": {"name": "get_weather", "args": {"city": "Porto", "unit": "celsius"}}}
    last = _chunk([{**call, "thoughtSignature": thought_signature(900_001)}])
    last["candidates"][0]["finishReason"] = "STOP"
    last["usageMetadata"] = _usage(chunks)
    payloads.append(last)
    written = [json.dumps(payload, separators=(",", ":")) for payload in payloads]
    return [json.loads(text) for text in written], written


def _chunk(parts: list[Body]) -> Body:
    return {
        "candidates": [{"content": {"parts": parts, "role": "model"}, "index": 0}],
        "usageMetadata": {"promptTokenCount": 2836, "totalTokenCount": 2836},
        "modelVersion": MODEL,
        "responseId": token("gresp", 2, 23),
    }
