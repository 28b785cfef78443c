"""The Google adapter on real traffic: every Gemini API and Vertex AI model call
in the recorded corpus (`../shared/corpus/google`): `:generateContent`,
`:streamGenerateContent` (server-sent events and JSON arrays) and `:countTokens`.

- a request body decodes and encodes back to itself, compared as JSON text,
  with nothing reported, and its messages, tools and settings are what the
  body says, read here in either spelling without the adapter;
- a response body decodes and encodes back to itself, and its finish reason
  (with its meaning), every usage count and its parts are what the body says;
- a stream accumulates to the response its chunks describe, rebuilt here from
  the raw chunks without the adapter, encodes back to it, and goes through
  `encode_stream` and back unchanged;
- an error answer becomes the typed error with its status and message.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import (
    MissingCorpus,
    corpus_files,
    corpus_id,
    corpus_params,
    from_corpus,
    require_corpus,
    same_json,
)
from interlingua import (
    AuthenticationError,
    BadRequestError,
    ChatRequest,
    ChatResponse,
    FilePart,
    FinishReason,
    NotFoundError,
    OpaquePart,
    ProviderError,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    TranslationReport,
    accumulate,
)
from interlingua.testing import Cassette, Interaction, load_cassette
from interlingua_google import (
    decode_error,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
    encode_stream,
)

METHODS = (":generateContent", ":streamGenerateContent", ":countTokens")
FINISH_REASONS = {
    "STOP": FinishReason.STOP,
    "MAX_TOKENS": FinishReason.LENGTH,
    "SAFETY": FinishReason.CONTENT_FILTER,
    "MODEL_ARMOR": FinishReason.CONTENT_FILTER,
    "UNEXPECTED_TOOL_CALL": FinishReason.ERROR,
}
ERRORS_BY_STATUS: dict[int, type[ProviderError]] = {400: BadRequestError, 404: NotFoundError}
_UPPER = re.compile(r"(?<=[a-z0-9])([A-Z])")


@functools.cache
def cassette(path: Path) -> Cassette:
    return load_cassette(path)


def model_calls(param: Path | MissingCorpus) -> list[Interaction]:
    """The file's model calls to Google's hosts (not its `cachedContents` or
    `fileSearchStores` calls, nor the other hosts' traffic)."""
    return [
        call
        for call in cassette(from_corpus(param)).for_provider("google")
        if (call.path or "").endswith(METHODS)
    ]


def is_generation(call: Interaction) -> bool:
    return not (call.path or "").endswith(":countTokens")


def is_answer(call: Interaction) -> bool:
    return is_generation(call) and not is_streamed(call) and call.response.status == 200


def is_streamed(call: Interaction) -> bool:
    return (call.path or "").endswith(":streamGenerateContent")


def is_stream(call: Interaction) -> bool:
    return is_streamed(call) and call.response.status == 200


def is_failure(call: Interaction) -> bool:
    return call.response.status >= 400


def chunks(call: Interaction) -> list[dict[str, Any]]:
    """A stream's chunks: its events' data (`?alt=sse`), or its JSON array."""
    if call.is_stream:
        return call.response.stream_payloads()
    assert isinstance(call.response.json, list)
    return call.response.json


def files_with(kind: Callable[[Interaction], bool], holding: str) -> list[Path | MissingCorpus]:
    return corpus_params(
        "google", keep=lambda path: any(map(kind, model_calls(path))), holding=holding
    )


def field(wire: dict[str, Any], name: str, default: Any = None) -> Any:
    """A field in either spelling (`thoughtSignature` or `thought_signature`)."""
    return wire.get(name, wire.get(_UPPER.sub(r"_\1", name).lower(), default))


# --- requests ---


@pytest.mark.parametrize("path", files_with(lambda _: True, "model calls"), ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in model_calls(path):
        assert call.request is not None
        body = call.request.json
        report = TranslationReport()

        request = decode_request(body)

        assert same_json(encode_request(request, report=report), body)
        assert report.losses == []
        assert request_facts(request) == wire_request_facts(body)


def request_facts(request: ChatRequest) -> dict[str, Any]:
    return {
        "roles": [message.role for message in request.messages],
        "parts": [kind(part) for message in request.messages for part in message.parts],
        "tools": [tool.name for tool in request.tools],
        "settings": (request.temperature, request.top_p, request.max_tokens, request.stop),
        "format": request.response_format.type if request.response_format else None,
    }


def wire_request_facts(body: dict[str, Any]) -> dict[str, Any]:
    """What the body says, read without the adapter: each content's role (a
    `user` content's function responses a `tool` message before the rest)."""
    roles: list[str] = []
    parts: list[str] = []
    system = field(body, "systemInstruction")
    if system is not None:
        roles.append("system")
        parts += ["text"] * len(system.get("parts", []))
    for content in body["contents"]:
        wire_parts = content.get("parts", [])
        kinds = [wire_kind(part, content.get("role", "user")) for part in wire_parts]
        parts += kinds
        if content.get("role") == "model":
            roles.append("assistant")
            continue
        runs = [k == "tool_result" for k in kinds]
        roles += [
            "tool" if results else "user"
            for k, results in enumerate(runs)
            if k == 0 or runs[k - 1] != results
        ] or ["user"]
    generation = field(body, "generationConfig", {})
    tools = [
        declaration["name"]
        for tool in body.get("tools", [])
        for declaration in field(tool, "functionDeclarations", [])
    ]
    settings = (
        generation.get("temperature"),
        field(generation, "topP"),
        field(generation, "maxOutputTokens"),
        tuple(field(generation, "stopSequences", ())),
    )
    # JSON mode, with a schema (JSON Schema or Google's OpenAPI subset) or without.
    schemas = [field(generation, name) for name in ("responseJsonSchema", "responseSchema")]
    format = None
    if field(generation, "responseMimeType") == "application/json":
        format = "json_schema" if any(schemas) else "json_object"
    return {"roles": roles, "parts": parts, "tools": tools, "settings": settings, "format": format}


def wire_kind(part: dict[str, Any], role: str) -> str:
    if "text" in part:
        return "reasoning" if part.get("thought") is True and role == "model" else "text"
    for name, core in (
        ("inlineData", "file"),
        ("fileData", "file"),
        ("functionCall", "tool_call"),
        ("functionResponse", "tool_result"),
    ):
        if field(part, name) is not None:
            return core
    return "opaque"


def kind(part: Any) -> str:
    return str(part.type)


# --- responses ---


@pytest.mark.parametrize("path", files_with(is_answer, "answers"), ids=corpus_id)
def test_every_response_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in filter(is_answer, model_calls(path)):
        body = call.response.json

        response = decode_response(body)

        assert same_json(encode_response(response, report=TranslationReport(strict=True)), body)
        assert_describes(response, body)


def assert_describes(response: ChatResponse, body: dict[str, Any]) -> None:
    """Checks read straight off the body, field by field."""
    assert response.provider == "google"
    assert response.id == body.get("responseId")
    assert response.model == body.get("modelVersion")
    candidates = body.get("candidates") or []
    wire_parts = candidates[0].get("content", {}).get("parts", []) if candidates else []
    assert len(response.message.parts) == len(wire_parts)
    for part, wire in zip(response.message.parts, wire_parts, strict=True):
        assert_part(part, wire)
    assert finish(response) == wire_finish(body)
    assert counts(response) == wire_counts(body.get("usageMetadata") or {})
    assert len(response.alternatives) == max(len(candidates) - 1, 0)


def assert_part(part: Any, wire: dict[str, Any]) -> None:
    match part:
        case ReasoningPart():
            assert wire.get("thought") is True
            assert (part.text, part.signature) == (wire["text"], wire.get("thoughtSignature"))
        case TextPart():
            assert part.text == wire["text"]
            assert part.provider_data.get("google", {}).get("fields", {}).get(
                "thoughtSignature"
            ) == wire.get("thoughtSignature")
        case ToolCallPart():
            call = wire["functionCall"]
            assert part.name == call["name"]
            assert part.parsed_arguments() == call.get("args", {})
            assert part.id == call.get("id", part.id)
        case FilePart():
            inline = wire.get("inlineData")
            assert (part.media_type, part.data) == (inline["mimeType"], inline["data"])
        case OpaquePart():
            assert part.data == wire
        case _:
            raise AssertionError(f"a part the corpus was not known to hold: {part}")


def finish(response: ChatResponse) -> tuple[Any, Any]:
    return response.finish_reason, response.raw_finish_reason


def wire_finish(body: dict[str, Any]) -> tuple[Any, Any]:
    candidates = body.get("candidates")
    if not candidates:
        reason = body.get("promptFeedback", {}).get("blockReason")
        return (FinishReason.CONTENT_FILTER if reason else None), reason
    raw = candidates[0].get("finishReason")
    if raw is None:
        return None, None
    parts = candidates[0].get("content", {}).get("parts", [])
    if raw == "STOP" and any("functionCall" in part for part in parts):
        return FinishReason.TOOL_CALLS, raw
    return FINISH_REASONS[raw], raw


def counts(response: ChatResponse) -> tuple[int, ...]:
    usage = response.usage
    return (
        usage.input_tokens,
        usage.output_tokens,
        usage.total_tokens,
        usage.cache_read_tokens,
        usage.reasoning_tokens,
    )


def wire_counts(usage: dict[str, Any]) -> tuple[int, ...]:
    """Google's counts: the prompt (with its tool-use prompt) in, the candidates
    and thoughts out, cached content a part of the prompt."""
    thoughts = usage.get("thoughtsTokenCount", 0)
    return (
        usage.get("promptTokenCount", 0) + usage.get("toolUsePromptTokenCount", 0),
        usage.get("candidatesTokenCount", 0) + thoughts,
        usage.get("totalTokenCount", 0),
        usage.get("cachedContentTokenCount", 0),
        thoughts,
    )


# --- streams ---


@pytest.mark.parametrize("path", files_with(is_stream, "streams"), ids=corpus_id)
def test_every_stream_accumulates_to_the_response_its_chunks_describe(
    path: Path | MissingCorpus,
) -> None:
    for call in filter(is_stream, model_calls(path)):
        payloads = chunks(call)
        described = rebuilt_response(payloads)

        streamed = accumulate(decode_stream(payloads))

        assert streamed == decode_response(described)
        assert same_json(
            encode_response(streamed, report=TranslationReport(strict=True)), described
        )
        assert_describes(streamed, described)
        again = [event.data for event in encode_stream(decode_stream(payloads))]
        assert accumulate(decode_stream(again)) == streamed


def rebuilt_response(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """The response the chunks describe: each chunk's fields laid over the
    earlier ones', the first candidate's likewise, and its parts in order, a
    text (or thought) part grown by the next ones of its kind until one
    carries a signature."""
    response: dict[str, Any] = {}
    candidate: dict[str, Any] = {}
    content: dict[str, Any] = {}
    parts: list[dict[str, Any]] = []
    for payload in payloads:
        response.update({key: value for key, value in payload.items() if key != "candidates"})
        for wire in payload.get("candidates", [])[:1]:
            candidate.update({key: value for key, value in wire.items() if key != "content"})
            if "content" in wire:
                content.update({k: v for k, v in wire["content"].items() if k != "parts"})
                content.setdefault("parts", [])
                for part in wire["content"].get("parts", []):
                    grow(parts, copy.deepcopy(part))
    if "candidates" in response or candidate:
        if content:
            candidate["content"] = {**content, "parts": parts} if "parts" in content else content
        response["candidates"] = [candidate]
    return response


def grow(parts: list[dict[str, Any]], part: dict[str, Any]) -> None:
    last = parts[-1] if parts else None
    texts = last is not None and "text" in last and "text" in part
    if texts and last.get("thought") == part.get("thought") and "thoughtSignature" not in last:
        last["text"] += part.pop("text")
        last.update(part)
    else:
        parts.append(part)


# --- errors ---


@pytest.mark.parametrize("path", files_with(is_failure, "error answers"), ids=corpus_id)
def test_every_error_answer_becomes_the_typed_error(path: Path | MissingCorpus) -> None:
    for call in filter(is_failure, model_calls(path)):
        body = json.loads(call.response.body)  # a stream's error too is one JSON object

        error = decode_error(call.response.status, body)

        reason = [d.get("reason") for d in body["error"].get("details", []) if "reason" in d]
        expected = AuthenticationError if "API_KEY_INVALID" in reason else None
        assert type(error) is (expected or ERRORS_BY_STATUS[call.response.status])
        assert error.status == call.response.status == body["error"]["code"]
        assert error.message == body["error"]["message"]
        assert error.type == body["error"]["status"]
        assert error.body == body
        assert not error.retryable


def test_the_corpus_holds_each_kind_of_gemini_traffic() -> None:
    require_corpus("google")
    calls = [call for path in corpus_files("google", "*.yaml") for call in model_calls(path)]
    hosts = {call.host for call in calls}

    assert len(calls) == 159
    assert len([call for call in calls if is_streamed(call) and call.response.status == 200]) == 45
    assert len([call for call in calls if not is_generation(call)]) == 2
    assert {call.response.status for call in calls if is_failure(call)} == {400, 404}
    assert "generativelanguage.googleapis.com" in hosts
    assert any(host.endswith("aiplatform.googleapis.com") for host in hosts if host)
    assert any(not call.is_stream for call in calls if is_stream(call))  # JSON arrays


def test_a_snake_case_body_goes_back_in_snake_case() -> None:
    require_corpus("google")
    calls = model_calls(require_corpus("google") / "llm-gemini/test_tools.yaml")
    body = calls[-1].request.json
    assert "function_call" in json.dumps(body)

    request = decode_request(body)

    call = request.messages[1].parts[0]
    assert isinstance(call, ToolCallPart)
    assert call.name == body["contents"][1]["parts"][0]["function_call"]["name"]
    result = request.messages[2].parts[0]
    assert isinstance(result, ToolResultPart)
    assert result.tool_call_id == call.id
    assert "function_call" in json.dumps(encode_request(request, report=TranslationReport()))
