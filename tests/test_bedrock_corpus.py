"""The Bedrock adapter on real traffic: every Converse call in the recorded
corpus (`../shared/corpus/bedrock`), `converse` and `converse-stream` alike
(the request bodies are the same).

- a request body decodes and encodes back to itself, compared as parsed JSON
  (pydantic-ai stored botocore's raw JSON text, chatlas and openllmetry
  re-serialized theirs), with nothing reported, and its messages, parts,
  tool calls and results, tools and settings are what the body says, read
  here without the adapter;
- an answer decodes and encodes back to itself (pydantic-ai sorted its keys:
  compared as parsed JSON), and its parts, finish reason (raw and its
  meaning) and every usage count are what the body says;
- the model id is the URL's, percent-encoded by botocore: the request is told
  it, and no body carries one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

import interlingua_anthropic as anthropic_adapter
from conftest import MissingCorpus, cassette, corpus_id, corpus_params, from_corpus, same_json
from interlingua import (
    ChatRequest,
    ChatResponse,
    FilePart,
    FinishReason,
    OpaquePart,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    TranslationReport,
)
from interlingua.testing import Interaction
from interlingua_bedrock import decode_request, decode_response, encode_request, encode_response

OPERATIONS = ("/converse", "/converse-stream")
# The meaning of each `stopReason` the corpus holds, as the API reference gives it.
FINISH_REASONS = {
    "end_turn": FinishReason.STOP,
    "tool_use": FinishReason.TOOL_CALLS,
    "max_tokens": FinishReason.LENGTH,
    "guardrail_intervened": FinishReason.CONTENT_FILTER,
}
MEDIA = ("image", "document", "video")


def converse_calls(param: Path | MissingCorpus) -> list[Interaction]:
    """The file's Converse calls (not its downloads, nor other APIs' calls)."""
    return [
        call
        for call in cassette(from_corpus(param)).interactions
        if (call.host or "").startswith("bedrock-runtime.")
        and (call.path or "").endswith(OPERATIONS)
    ]


def is_answer(call: Interaction) -> bool:
    return (call.path or "").endswith("/converse") and call.response.status == 200


def files_with(kind: Any, holding: str) -> list[Path | MissingCorpus]:
    return corpus_params(
        "bedrock",
        pattern="*.yaml",
        keep=lambda path: any(map(kind, converse_calls(path))),
        holding=holding,
    )


def model_id(call: Interaction) -> str:
    """The model id of the call's URL: `/model/<id>/converse`, percent-decoded."""
    path = call.path or ""
    return unquote(path.split("/model/", 1)[1].rsplit("/", 1)[0])


# --- requests ---


@pytest.mark.parametrize("path", files_with(lambda _: True, "Converse calls"), ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in converse_calls(path):
        assert call.request is not None
        body = call.request.json
        report = TranslationReport()

        request = decode_request(body)

        assert same_json(encode_request(request, report=report), body)
        assert report.losses == []
        assert "model" not in body
        assert request.model == ""
        assert request_facts(request) == wire_request_facts(body)


@pytest.mark.parametrize("path", files_with(lambda _: True, "Converse calls"), ids=corpus_id)
def test_the_requests_bedrock_refused_are_caught_before_sending(path: Path | MissingCorpus) -> None:
    """Told its model (the URL's), a body Bedrock took goes as it is; one it
    refused for its content is changed on the wire, each change reported; a
    model id Bedrock does not know is its own to judge."""
    for call in converse_calls(path):
        assert call.request is not None
        body = call.request.json
        report = TranslationReport()

        request = decode_request(body, model=model_id(call))
        sent = encode_request(request, report=report)

        assert request.model == model_id(call)
        assert "model" not in sent
        if call.response.status == 200:
            assert report.losses == []
            assert same_json(sent, body)
        else:
            refused = json.loads(call.response.body)["message"]
            assert bool(report.losses) == ("model identifier" not in refused), refused


def request_facts(request: ChatRequest) -> dict[str, Any]:
    parts = [part for message in request.messages for part in message.parts]
    return {
        "roles": [message.role for message in request.messages],
        "parts": [part.type for part in parts],
        "texts": [part.text for part in parts if isinstance(part, TextPart)],
        "calls": [
            (part.id, part.name, part.parsed_arguments())
            for part in parts
            if isinstance(part, ToolCallPart)
        ],
        "results": [
            (part.tool_call_id, part.is_error, len(part.content))
            for part in parts
            if isinstance(part, ToolResultPart)
        ],
        "reasoning": [
            (part.text, part.signature, part.redacted_data)
            for part in parts
            if isinstance(part, ReasoningPart)
        ],
        "tools": [tool.name for tool in request.tools],
        "settings": (request.temperature, request.top_p, request.max_tokens, request.stop),
        "choice": request.tool_choice.mode if request.tool_choice else None,
        "format": request.response_format.json_schema if request.response_format else None,
    }


def wire_request_facts(body: dict[str, Any]) -> dict[str, Any]:
    """What the body says, read without the adapter: a user turn's toolResult
    blocks a `tool` message before the rest; a cache point no part of its own."""
    roles: list[str] = []
    blocks: list[tuple[str, dict[str, Any]]] = []
    system = [block for block in body.get("system", []) if "cachePoint" not in block]
    if system:
        roles.append("system")
        blocks += [("system", block) for block in system]
    for turn in body["messages"]:
        content = [(turn["role"], block) for block in turn["content"] if "cachePoint" not in block]
        blocks += content
        if turn["role"] == "assistant":
            roles.append("assistant")
            continue
        kinds = ["toolResult" in block for _, block in content]
        roles += [
            "tool" if result else "user"
            for k, result in enumerate(kinds)
            if k == 0 or kinds[k - 1] != result
        ] or ["user"]
    tool_config = body.get("toolConfig", {})
    inference = body.get("inferenceConfig", {})
    schema = body.get("outputConfig", {}).get("textFormat", {}).get("structure", {})
    return {
        "roles": roles,
        "parts": [wire_kind(role, block) for role, block in blocks],
        "texts": [text for role, block in blocks for text in wire_texts(role, block)],
        "calls": [
            (use["toolUseId"], use["name"], use["input"])
            for _, block in blocks
            if (use := block.get("toolUse")) and use.get("type") != "server_tool_use"
        ],
        "results": [
            (result["toolUseId"], result.get("status") == "error", len(result["content"]))
            for role, block in blocks
            if role == "user" and (result := block.get("toolResult"))
        ],
        "reasoning": [
            wire_reasoning(block["reasoningContent"])
            for _, block in blocks
            if "reasoningContent" in block
        ],
        "tools": [
            tool["toolSpec"]["name"] for tool in tool_config.get("tools", []) if "toolSpec" in tool
        ],
        "settings": (
            inference.get("temperature"),
            inference.get("topP"),
            inference.get("maxTokens"),
            tuple(inference.get("stopSequences", ())),
        ),
        "choice": {"auto": "auto", "any": "required", "tool": "tool", None: None}[
            next(iter(tool_config.get("toolChoice", {None: 0})))
        ],
        "format": json.loads(schema["jsonSchema"]["schema"]) if schema else None,
    }


def wire_kind(role: str, block: dict[str, Any]) -> str:
    (member, value), *_ = block.items()
    match member:
        case "text" | "guardContent":
            return "text"
        case "toolUse":
            return "opaque" if value.get("type") == "server_tool_use" else "tool_call"
        case "toolResult":
            return "tool_result" if role == "user" else "opaque"
        case "reasoningContent":
            return "reasoning"
        case _ if member in MEDIA:
            return "file"
        case _:
            return "opaque"


def wire_texts(role: str, block: dict[str, Any]) -> list[str]:
    if "text" in block:
        return [block["text"]]
    if "guardContent" in block:
        return [block["guardContent"]["text"]["text"]]
    return []


def wire_reasoning(content: dict[str, Any]) -> tuple[Any, ...]:
    text = content.get("reasoningText", {})
    return (text.get("text", ""), text.get("signature"), content.get("redactedContent"))


# --- answers ---


@pytest.mark.parametrize("path", files_with(is_answer, "answers"), ids=corpus_id)
def test_every_answer_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in filter(is_answer, converse_calls(path)):
        body = call.response.json

        response = decode_response(body)

        assert same_json(encode_response(response, report=TranslationReport(strict=True)), body)
        assert_describes(response, body)


def assert_describes(response: ChatResponse, body: dict[str, Any]) -> None:
    """Checks read straight off the body, field by field."""
    assert (response.provider, response.id, response.model) == ("bedrock", None, None)
    blocks = body["output"]["message"]["content"]
    assert len(response.message.parts) == len(blocks)
    for part, block in zip(response.message.parts, blocks, strict=True):
        assert_part(part, block)
    raw = body["stopReason"]
    assert (response.finish_reason, response.raw_finish_reason) == (FINISH_REASONS[raw], raw)
    assert counts(response) == wire_counts(body["usage"])
    assert response.provider_data["bedrock"]["fields"]["metrics"] == body["metrics"]


def assert_part(part: Any, block: dict[str, Any]) -> None:
    match part:
        case TextPart():
            assert part.text == block["text"]
        case ToolCallPart():
            use = block["toolUse"]
            assert (part.id, part.name) == (use["toolUseId"], use["name"])
            assert part.parsed_arguments() == use["input"]
        case ReasoningPart():
            assert (part.text, part.signature, part.redacted_data) == wire_reasoning(
                block["reasoningContent"]
            )
            assert part.provider == "bedrock"
        case OpaquePart():
            assert part.data == block
            assert block.get("toolUse", block.get("toolResult", {})).get("type") in (
                "server_tool_use",
                "nova_code_interpreter_result",
            )
        case _:
            raise AssertionError(f"a part the corpus was not known to hold: {part}")


def counts(response: ChatResponse) -> tuple[int, ...]:
    usage = response.usage
    return (
        usage.input_tokens,
        usage.output_tokens,
        usage.total_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
        usage.reasoning_tokens,
    )


def wire_counts(usage: dict[str, Any]) -> tuple[int, ...]:
    """Converse's counts: `inputTokens` leaves out the cache reads and writes,
    each given under its newer name and its older `...Count` one alike."""
    read = usage.get("cacheReadInputTokens", usage.get("cacheReadInputTokenCount", 0))
    written = usage.get("cacheWriteInputTokens", usage.get("cacheWriteInputTokenCount", 0))
    assert read == usage.get("cacheReadInputTokenCount", read)
    assert written == usage.get("cacheWriteInputTokenCount", written)
    return (
        usage["inputTokens"] + read + written,
        usage["outputTokens"],
        usage["totalTokens"],
        read,
        written,
        0,
    )


def claude_answer(call: Interaction) -> bool:
    return is_answer(call) and "anthropic.claude" in model_id(call)


@pytest.mark.parametrize("path", files_with(claude_answer, "Claude answers"), ids=corpus_id)
def test_a_claude_answer_counts_alike_through_converse_and_anthropic_s_api(
    path: Path | MissingCorpus,
) -> None:
    """Converse's `inputTokens` leaves out cache reads and writes as Anthropic's
    `input_tokens` does: the same counts give the same `TokenUsage`."""
    for call in filter(claude_answer, converse_calls(path)):
        usage = call.response.json["usage"]
        messages_api = {
            "id": "msg_bdrk_01",
            "type": "message",
            "role": "assistant",
            "model": model_id(call),
            "content": [],
            "stop_reason": "end_turn",
            "usage": {
                "input_tokens": usage["inputTokens"],
                "cache_creation_input_tokens": usage.get("cacheWriteInputTokens", 0),
                "cache_read_input_tokens": usage.get("cacheReadInputTokens", 0),
                "output_tokens": usage["outputTokens"],
            },
        }

        via_converse = decode_response(call.response.json).usage
        via_anthropic = anthropic_adapter.decode_response(messages_api).usage

        assert via_converse.model_copy(update={"details": {}}) == via_anthropic


def test_the_corpus_holds_each_kind_of_converse_traffic() -> None:
    calls = [
        call
        for path in files_with(lambda _: True, "Converse calls")
        for call in converse_calls(path)
    ]
    answers = [call for call in calls if is_answer(call)]
    parts = [
        type(part) for call in answers for part in decode_response(call.response.json).message.parts
    ]

    assert len(calls) == 155
    assert len(answers) == 135
    assert {FilePart, ToolResultPart} <= {
        type(part)
        for call in calls
        for message in decode_request(call.request.json).messages
        for part in message.parts
    }
    assert {TextPart, ToolCallPart, ReasoningPart, OpaquePart} <= set(parts)
