"""The clients' OpenTelemetry spans and metrics (`interlingua._telemetry`), read
with the OpenTelemetry SDK's in-memory exporter and reader: every adapter's
client on its recorded traffic (`fixtures/<adapter>/`, replayed to the real
SDK), each attribute against the value read from the wire here, not by the
adapter's decoder; streams, errors, content capture on and off (checked
against the conventions' published JSON schemas, `tests/data/otel/`), and a
run without OpenTelemetry."""

from __future__ import annotations

import dataclasses
import gc
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import jsonschema
import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from conftest import FIXTURES, MissingCorpus, corpus_id, corpus_params, from_corpus
from interlingua import (
    ChatRequest,
    FilePart,
    Message,
    ProviderError,
    ReasoningPart,
    StreamError,
    TextPart,
    ToolCallPart,
    TranslationError,
    TranslationReport,
    accumulate,
    accumulate_async,
    get_adapter,
)
from interlingua._clients import get_client_class
from interlingua._genai_messages import input_messages, system_instructions
from interlingua.client import SDKOptions
from interlingua.testing import Interaction, load_cassette, replay
from otel_sdk import EXPORTER, READER, installed
from test_google_client import client_for as google_client_for

SCHEMAS = Path(__file__).parent / "data" / "otel"
OPTIONS = SDKOptions(api_key="sk-test", region="us-east-1", max_retries=0)
CONTENT = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"

# Each adapter's recorded calls: one answered whole, one streamed.
RECORDED = [
    ("anthropic", "anthropic/tool_round_trip_with_thinking.json"),
    ("anthropic", "anthropic/stream_thinking_tool_use.json"),
    ("anthropic-bedrock", "anthropic-bedrock/thinking_tool_use.json"),
    ("anthropic-vertex", "anthropic-vertex/tool_round_trip_with_thinking.json"),
    ("anthropic-vertex", "anthropic-vertex/stream_text.json"),
    ("bedrock", "bedrock/thinking_tool_use.json"),
    ("cerebras", "cerebras/reasoning_answer.json"),
    ("cerebras", "cerebras/stream_reasoning_answer.json"),
    ("deepseek", "deepseek/thinking_answer.json"),
    ("deepseek", "deepseek/stream_thinking_answer.json"),
    ("google", "google/image_input.json"),
    ("google", "google/stream_parallel_tool_calls.json"),
    ("groq", "groq/reasoning_with_temperature.json"),
    ("groq", "groq/stream_reasoning_usage.json"),
    ("mistral", "mistral/image_input.json"),
    ("mistral", "mistral/stream_tool_call.json"),
    ("ollama", "ollama/reasoning_answer.json"),
    ("ollama", "ollama/stream_reasoning_answer.json"),
    ("openai", "openai/chat_parallel_tool_calls_cached.json"),
    ("openai", "openai/chat_stream_parallel_tool_calls.json"),
    ("openai-compatible", "openai-compatible/answer.json"),
    ("openai-compatible", "openai-compatible/stream_answer.json"),
    ("openai-responses", "openai/responses_agents_sdk.json"),
    ("openrouter", "openrouter/reasoning_details_tool_round_trip.json"),
    ("openrouter", "openrouter/stream_signed_reasoning.json"),
    ("perplexity", "perplexity/citations_answer.json"),
    ("perplexity", "perplexity/stream_think_citations.json"),
    ("xai", "xai/reasoning_content_two_turns.json"),
    ("xai", "xai/stream_reasoning_content.json"),
]
# The conventions' well-known provider names; an adapter they do not name keeps its own.
PROVIDER_NAMES = {
    "anthropic": "anthropic", "anthropic-bedrock": "aws.bedrock",
    "anthropic-vertex": "gcp.vertex_ai", "bedrock": "aws.bedrock", "cerebras": "cerebras",
    "deepseek": "deepseek", "google": "gcp.gemini", "groq": "groq", "mistral": "mistral_ai",
    "ollama": "ollama", "openai": "openai", "openai-compatible": "openai-compatible",
    "openai-responses": "openai", "openrouter": "openrouter", "perplexity": "perplexity",
    "xai": "x_ai",
}  # fmt: skip


@pytest.fixture(autouse=True)
def spans() -> Iterator[InMemorySpanExporter]:
    """The finished spans of the test (one tracer and meter provider for the run)."""
    yield installed()
    EXPORTER.clear()


def only_span() -> ReadableSpan:
    (span,) = EXPORTER.get_finished_spans()
    return span


# --- the wire, read here ---


def first(cassette: str) -> Interaction:
    return load_cassette(FIXTURES / cassette).interactions[0]


def model_asked(name: str, interaction: Interaction) -> str:
    """The model the recorded request asked: in the body, or in the URL (Gemini, Bedrock)."""
    assert interaction.request is not None
    body = interaction.request.json
    if "model" in body:
        return str(body["model"])
    path = unquote(interaction.request.url.split("?")[0])
    if "/models/" in path:  # Gemini's, and Claude's on Vertex AI
        return path.rsplit("/models/", 1)[1].split(":")[0]
    return path.split("/model/", 1)[1].rsplit("/", 1)[0]


def wire_answer(name: str, interaction: Interaction) -> dict[str, Any]:
    """The answer's attributes as the wire says them: the recorded body, or the
    stream's payloads folded together (the last value of each field wins)."""
    response = interaction.response
    if response.events is None:
        return _answer_said(name, response.json)
    said: dict[str, Any] = {}
    for payload in response.stream_payloads():
        said.update(_chunk_said(name, payload))
    return said


def _answer_said(name: str, body: Any) -> dict[str, Any]:
    if name.startswith("anthropic"):
        return {"id": body["id"], "model": body["model"], "finish": [body["stop_reason"]],
                **_anthropic_usage(body["usage"])}  # fmt: skip
    if name == "bedrock":
        return {"finish": [body["stopReason"]], **_converse_usage(body["usage"])}
    if name == "google":
        return {"id": body.get("responseId"), "model": body.get("modelVersion"),
                "finish": [c["finishReason"] for c in body["candidates"]],
                **_gemini_usage(body["usageMetadata"])}  # fmt: skip
    if name == "openai-responses":
        usage = body["usage"]
        return {"id": body["id"], "model": body["model"], "input": usage["input_tokens"],
                "output": usage["output_tokens"]}  # fmt: skip
    return _chat_said(body, name)


def _converse_usage(usage: dict[str, Any]) -> dict[str, Any]:
    # Converse counts the cache reads and writes apart from `inputTokens`.
    cached = usage.get("cacheReadInputTokens", 0) + usage.get("cacheWriteInputTokens", 0)
    return {"input": usage["inputTokens"] + cached, "output": usage["outputTokens"]}


def _gemini_usage(usage: dict[str, Any]) -> dict[str, Any]:
    # Gemini counts the thinking apart from the candidates: both are output.
    output = usage.get("candidatesTokenCount", 0) + usage.get("thoughtsTokenCount", 0)
    return {"input": usage["promptTokenCount"], "output": output}


def _anthropic_usage(usage: dict[str, Any]) -> dict[str, Any]:
    cached = (usage.get("cache_read_input_tokens") or 0) + (
        usage.get("cache_creation_input_tokens") or 0
    )
    return {"input": usage["input_tokens"] + cached, "output": usage["output_tokens"]}


def _chat_said(body: dict[str, Any], name: str) -> dict[str, Any]:
    said: dict[str, Any] = {"id": body.get("id"), "model": body.get("model")}
    reasons = [choice.get("finish_reason") for choice in body.get("choices", ())]
    if any(reasons):
        said["finish"] = reasons
    if usage := body.get("usage"):
        said |= {"input": usage["prompt_tokens"], "output": usage["completion_tokens"]}
        if name == "xai":  # xAI's completion tokens leave its reasoning tokens out
            details = usage.get("completion_tokens_details") or {}
            said["output"] += details.get("reasoning_tokens", 0)
        if name == "perplexity":  # and Perplexity's its own, counted at the top
            said["output"] += usage.get("reasoning_tokens", 0)
    return {key: value for key, value in said.items() if value is not None}


def _chunk_said(name: str, payload: Any) -> dict[str, Any]:
    if name.startswith("anthropic"):
        kind = payload.get("type")
        if kind == "message_start":
            message = payload["message"]
            return {"id": message["id"], "model": message["model"],
                    **_anthropic_usage(message["usage"])}  # fmt: skip
        if kind == "message_delta":
            return {
                "finish": [payload["delta"]["stop_reason"]],
                "output": payload["usage"]["output_tokens"],
            }
        return {}
    if name == "bedrock":
        if "messageStop" in payload:
            return {"finish": [payload["messageStop"]["stopReason"]]}
        if "metadata" in payload:
            return _converse_usage(payload["metadata"]["usage"])
        return {}
    if name == "google":
        usage = payload.get("usageMetadata")
        said = {"id": payload.get("responseId"), "model": payload.get("modelVersion"),
                **(_gemini_usage(usage) if usage else {})}  # fmt: skip
        reasons = [c["finishReason"] for c in payload.get("candidates", ()) if "finishReason" in c]
        return {k: v for k, v in said.items() if v is not None} | (
            {"finish": reasons} if reasons else {}
        )
    return _chat_said(payload, name)


def assert_said_as_the_wire(span: ReadableSpan, name: str, interaction: Interaction) -> None:
    attributes = span.attributes or {}
    said = wire_answer(name, interaction)
    expected = {
        "gen_ai.response.id": said.get("id"),
        "gen_ai.response.model": said.get("model"),
        "gen_ai.response.finish_reasons": tuple(said["finish"]) if "finish" in said else None,
        "gen_ai.usage.input_tokens": said.get("input"),
        "gen_ai.usage.output_tokens": said.get("output"),
    }
    for key, value in expected.items():
        if value is not None:
            assert attributes.get(key) == value, key


def assert_asked_as_the_wire(span: ReadableSpan, name: str, interaction: Interaction) -> None:
    assert interaction.request is not None
    body = interaction.request.json
    attributes = span.attributes or {}
    assert span.name == f"chat {model_asked(name, interaction)}"
    assert span.kind is SpanKind.CLIENT
    assert attributes["gen_ai.operation.name"] == "chat"
    assert attributes["gen_ai.provider.name"] == PROVIDER_NAMES[name]
    assert attributes["gen_ai.request.model"] == model_asked(name, interaction)
    settings = body.get("inferenceConfig") or body.get("generationConfig") or body
    tokens = [settings.get(key) for key in ("max_tokens", "max_completion_tokens",
              "max_output_tokens", "maxTokens", "maxOutputTokens")]  # fmt: skip
    assert attributes.get("gen_ai.request.max_tokens") == next((t for t in tokens if t), None)
    assert attributes.get("gen_ai.request.temperature") == settings.get("temperature")
    assert attributes.get("gen_ai.request.top_p") == settings.get("top_p", settings.get("topP"))


def connect(name: str, interaction: Interaction, monkeypatch: pytest.MonkeyPatch, *,
            asynchronous: bool = False) -> Any:  # fmt: skip
    """The adapter's client, built as an application builds it, for where the
    recorded request went (a Vertex AI project and region, a server's address)."""
    assert interaction.request is not None
    url = interaction.request.url
    options = OPTIONS
    if name == "anthropic-vertex":
        monkeypatch.setenv("ANTHROPIC_VERTEX_PROJECT_ID", url.split("/projects/")[1].split("/")[0])
        options = dataclasses.replace(OPTIONS, region=url.split("/locations/")[1].split("/")[0])
    if name == "openai-compatible":
        options = dataclasses.replace(OPTIONS, base_url=url.rsplit("/chat/completions", 1)[0])
    return get_client_class(name, asynchronous=asynchronous).connect(options)  # type: ignore[call-overload]


def recorded_request(name: str, interaction: Interaction) -> ChatRequest:
    assert interaction.request is not None
    request = get_adapter(name).decode_request(interaction.request.json)
    return request.model_copy(update={"model": model_asked(name, interaction)})


# --- every adapter's client ---


@pytest.mark.parametrize(("name", "cassette"), RECORDED, ids=[c for _, c in RECORDED])
def test_each_client_call_is_one_client_span_saying_what_the_wire_said(
    name: str, cassette: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    interaction = first(cassette)
    request = recorded_request(name, interaction)
    with replay(FIXTURES / cassette):
        client = connect(name, interaction, monkeypatch)
        if interaction.response.events is None:
            client.complete(request)
        else:
            events = client.stream(request)
            assert EXPORTER.get_finished_spans() == ()  # open until the stream ends
            accumulate(events)
    span = only_span()
    assert_asked_as_the_wire(span, name, interaction)
    assert_said_as_the_wire(span, name, interaction)
    assert span.status.status_code is StatusCode.UNSET
    streamed = interaction.response.events is not None
    assert (span.attributes or {}).get("gen_ai.request.stream") is (True if streamed else None)
    assert ("gen_ai.response.time_to_first_chunk" in (span.attributes or {})) is streamed


def converse_streams(path: Path) -> list[Interaction]:
    return [
        call
        for call in load_cassette(path).interactions
        if (call.path or "").endswith("/converse-stream") and call.response.status == 200
    ]


@pytest.mark.parametrize(
    "path",
    corpus_params("bedrock", pattern="*.yaml", keep=lambda path: bool(converse_streams(path)),
                  holding="ConverseStream calls"),
    ids=corpus_id,
)  # fmt: skip
def test_a_converse_stream_is_one_client_span_saying_what_the_wire_said(
    path: Path | MissingCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    for interaction in converse_streams(from_corpus(path)):
        request = recorded_request("bedrock", interaction)
        with replay([interaction]):
            events = connect("bedrock", interaction, monkeypatch).stream(request)
            assert EXPORTER.get_finished_spans() == ()  # open until the stream ends
            accumulate(events)
        span = only_span()
        assert_asked_as_the_wire(span, "bedrock", interaction)
        assert_said_as_the_wire(span, "bedrock", interaction)
        assert "gen_ai.response.time_to_first_chunk" in (span.attributes or {})
        EXPORTER.clear()


def test_a_gemini_call_on_vertex_ai_is_vertex_ai_s() -> None:
    cassette = "google/vertex_safety_blocked.json"
    interaction = first(cassette)
    assert interaction.request is not None
    assert "aiplatform.googleapis.com" in interaction.request.url
    with replay(FIXTURES / cassette) as played:
        client, model = google_client_for(interaction, played)
        request = recorded_request("google", interaction).model_copy(update={"model": model})
        client.complete(request)
    assert played.sent == [interaction.request.json]
    assert (only_span().attributes or {})["gen_ai.provider.name"] == "gcp.vertex_ai"


def test_the_cache_counts_are_parts_of_the_input_tokens_as_the_wire_says() -> None:
    interaction = first("openai/chat_parallel_tool_calls_cached.json")
    usage = interaction.response.json["usage"]
    with replay(FIXTURES / "openai/chat_parallel_tool_calls_cached.json"):
        get_client_class("openai").connect(OPTIONS).complete(
            recorded_request("openai", interaction)
        )
    attributes = only_span().attributes or {}
    cached = usage["prompt_tokens_details"]["cached_tokens"]
    assert cached > 0
    assert attributes["gen_ai.usage.cache_read.input_tokens"] == cached
    assert attributes["gen_ai.usage.input_tokens"] == usage["prompt_tokens"]


def test_anthropic_cache_reads_and_writes_count_in_the_input_and_apart() -> None:
    cassette = "anthropic/tool_round_trip_with_thinking.json"
    interaction = load_cassette(FIXTURES / cassette).interactions[1]
    usage = interaction.response.json["usage"]
    with replay(FIXTURES / cassette):
        client = get_client_class("anthropic").connect(OPTIONS)
        client.complete(recorded_request("anthropic", interaction))
    attributes = only_span().attributes or {}
    read, written = usage["cache_read_input_tokens"], usage["cache_creation_input_tokens"]
    assert read > 0 and written > 0  # noqa: PT018
    assert attributes["gen_ai.usage.cache_read.input_tokens"] == read
    assert attributes["gen_ai.usage.cache_creation.input_tokens"] == written
    assert attributes["gen_ai.usage.input_tokens"] == usage["input_tokens"] + read + written


# --- errors ---


def test_an_error_answer_ends_the_span_with_the_provider_s_error_type() -> None:
    interaction = first("anthropic/error_rate_limited.json")
    with replay(FIXTURES / "anthropic/error_rate_limited.json"):
        client = get_client_class("anthropic").connect(OPTIONS)
        with pytest.raises(ProviderError):
            client.complete(recorded_request("anthropic", interaction))
    span = only_span()
    assert (span.attributes or {})["error.type"] == interaction.response.json["error"]["type"]
    assert span.status.status_code is StatusCode.ERROR


def test_an_error_inside_a_stream_ends_the_span_with_its_type() -> None:
    interaction = first("groq/stream_error.json")
    (error,) = [p["error"] for p in interaction.response.stream_payloads() if "error" in p]
    with replay(FIXTURES / "groq/stream_error.json"):
        client = get_client_class("groq").connect(OPTIONS)
        with pytest.raises(StreamError):
            accumulate(client.stream(recorded_request("groq", interaction)))
    span = only_span()
    assert (span.attributes or {})["error.type"] == error["type"]
    assert span.status.status_code is StatusCode.ERROR


def test_a_request_refused_before_sending_ends_the_span_with_the_error_class() -> None:
    request = ChatRequest(
        model="mistral-small-latest",
        messages=(
            Message(
                role="user",
                parts=(
                    TextPart(text="What happens here?"),
                    FilePart(media_type="video/mp4", url="https://example.com/clip.mp4"),
                ),
            ),
        ),
    )
    client = get_client_class("mistral").connect(OPTIONS)
    with pytest.raises(TranslationError):
        client.complete(request, report=TranslationReport(strict=True))
    span = only_span()
    assert (span.attributes or {})["error.type"] == "TranslationError"


def test_a_stream_closed_early_ends_its_span_then() -> None:
    cassette = "openai/chat_stream_parallel_tool_calls.json"
    with replay(FIXTURES / cassette):
        client = get_client_class("openai").connect(OPTIONS)
        events = client.stream(recorded_request("openai", first(cassette)))
        next(events)
        assert EXPORTER.get_finished_spans() == ()
        events.close()
    span = only_span()
    assert "error.type" not in (span.attributes or {})
    assert "gen_ai.response.time_to_first_chunk" in (span.attributes or {})
    # It never finished, nor failed: no reason is said for it.
    assert "gen_ai.response.finish_reasons" not in (span.attributes or {})
    assert span.status.status_code is StatusCode.UNSET


@pytest.mark.anyio
async def test_an_async_stream_dropped_unclosed_ends_its_span() -> None:
    cassette = "groq/stream_reasoning_usage.json"
    async with replay(FIXTURES / cassette):
        client = get_client_class("groq", asynchronous=True).connect(OPTIONS)
        events = await client.stream(recorded_request("groq", first(cassette)))
        await events.__anext__()
        assert EXPORTER.get_finished_spans() == ()
        del events
        gc.collect()
        span = only_span()
    assert span.end_time is not None
    assert "gen_ai.response.time_to_first_chunk" in (span.attributes or {})


# --- async ---


@pytest.mark.anyio
async def test_the_async_client_s_calls_are_spans_too() -> None:
    whole, streamed = "groq/reasoning_with_temperature.json", "groq/stream_reasoning_usage.json"
    for cassette in (whole, streamed):
        async with replay(FIXTURES / cassette):
            client = get_client_class("groq", asynchronous=True).connect(OPTIONS)
            request = recorded_request("groq", first(cassette))
            if cassette == whole:
                await client.complete(request)
            else:
                await accumulate_async(await client.stream(request))
        span = only_span()
        assert_asked_as_the_wire(span, "groq", first(cassette))
        assert_said_as_the_wire(span, "groq", first(cassette))
        EXPORTER.clear()


# --- metrics ---


def points(name: str, model: str) -> list[Any]:
    data = READER.get_metrics_data()
    assert data is not None
    return [
        point
        for resource in data.resource_metrics
        for scope in resource.scope_metrics
        for metric in scope.metrics
        if metric.name == name
        for point in metric.data.data_points
        if point.attributes.get("gen_ai.request.model") == model
    ]


def test_the_metrics_count_tokens_by_type_and_time_the_call() -> None:
    cassette = "xai/stream_reasoning_content.json"
    interaction = first(cassette)
    request = recorded_request("xai", interaction)
    tokens = {
        p.attributes["gen_ai.token.type"]: p.sum
        for p in points("gen_ai.client.token.usage", request.model)
    }
    with replay(FIXTURES / cassette):
        accumulate(get_client_class("xai").connect(OPTIONS).stream(request))
    said = wire_answer("xai", interaction)
    after = {
        p.attributes["gen_ai.token.type"]: p.sum
        for p in points("gen_ai.client.token.usage", request.model)
    }
    assert after["input"] - tokens.get("input", 0) == said["input"]
    assert after["output"] - tokens.get("output", 0) == said["output"]
    (duration,) = points("gen_ai.client.operation.duration", request.model)
    assert duration.explicit_bounds[:3] == (0.01, 0.02, 0.04)
    assert duration.attributes["gen_ai.provider.name"] == "x_ai"
    (first_chunk,) = points("gen_ai.client.operation.time_to_first_chunk", request.model)
    assert first_chunk.count >= 1


# --- content ---


def schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / f"gen-ai-{name}.json").read_text())


def assert_follows(value: Any, name: str) -> None:
    """`value` valid against the conventions' schema `name`, and each part
    against its own definition (the schema lets an unknown part through as generic)."""
    document = schema(name)
    jsonschema.validate(value, document)
    kinds = {
        definition["properties"]["type"]["const"]: key
        for key, definition in document["$defs"].items()
        if "const" in definition.get("properties", {}).get("type", {})
    }
    parts = value if name == "system-instructions" else [p for m in value for p in m["parts"]]
    for part in parts:
        if part["type"] in kinds:
            definition = f"#/$defs/{kinds[part['type']]}"
            jsonschema.validate(part, {"$defs": document["$defs"], "$ref": definition})


def test_content_is_left_out_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONTENT, raising=False)
    cassette = "anthropic/tool_round_trip_with_thinking.json"
    with replay(FIXTURES / cassette):
        get_client_class("anthropic").connect(OPTIONS).complete(
            recorded_request("anthropic", first(cassette))
        )
    assert not {k for k in only_span().attributes or {} if k.endswith(("messages", "instructions"))}


@pytest.mark.parametrize("value", ["event_only", "no_content", "false"])
def test_content_stays_off_the_span_unless_asked_there(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(CONTENT, value)
    cassette = "anthropic/tool_round_trip_with_thinking.json"
    with replay(FIXTURES / cassette):
        get_client_class("anthropic").connect(OPTIONS).complete(
            recorded_request("anthropic", first(cassette))
        )
    assert "gen_ai.input.messages" not in (only_span().attributes or {})


@pytest.mark.parametrize("value", ["span_only", "span_and_event", "true"])
def test_content_on_the_span_follows_the_conventions_schemas(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(CONTENT, value)
    cassette = "anthropic/tool_round_trip_with_thinking.json"
    interaction = load_cassette(FIXTURES / cassette).interactions[1]  # the turn after the tool ran
    request = recorded_request("anthropic", interaction)
    with replay(FIXTURES / cassette):
        get_client_class("anthropic").connect(OPTIONS).complete(request)
    attributes = only_span().attributes or {}
    inputs = json.loads(str(attributes["gen_ai.input.messages"]))
    outputs = json.loads(str(attributes["gen_ai.output.messages"]))
    assert_follows(inputs, "input-messages")
    assert_follows(outputs, "output-messages")
    assert_follows(json.loads(str(attributes["gen_ai.system_instructions"])), "system-instructions")
    sent = interaction.request.json if interaction.request else {}
    assert len(inputs) == len(sent["messages"])
    said = interaction.response.json
    wire_kinds = {"text": "text", "thinking": "reasoning", "tool_use": "tool_call"}
    assert [p["type"] for p in outputs[0]["parts"]] == [
        wire_kinds[b["type"]] for b in said["content"]
    ]
    calls = [(b["id"], b["name"], b["input"]) for b in said["content"] if b["type"] == "tool_use"]
    assert [
        (p["id"], p["name"], p["arguments"])
        for p in outputs[0]["parts"]
        if p["type"] == "tool_call"
    ] == calls
    sent_results = [
        (block["tool_use_id"], block["content"])
        for message in sent["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block["type"] == "tool_result"
    ]
    results = [
        (p["id"], p["response"])
        for m in inputs
        for p in m["parts"]
        if p["type"] == "tool_call_response"
    ]
    assert results == sent_results
    assert json.loads(str(attributes["gen_ai.system_instructions"])) == [
        {"type": "text", "content": sent["system"]}
    ]


def test_every_kind_of_part_has_the_conventions_form() -> None:
    image = FilePart(media_type="image/png", data="aGVsbG8=")
    request = ChatRequest(
        model="any-model",
        messages=(
            Message.system("Answer briefly."),
            Message(role="user", parts=(
                TextPart(text="What are these?"), image,
                FilePart(media_type="application/pdf", url="https://example.com/a.pdf"),
                FilePart(media_type="audio/wav", file_id="file-7", provider="openai"),
            )),
            Message(role="assistant", parts=(
                ReasoningPart(text="Look first.", signature="c2ln", provider="anthropic"),
                ToolCallPart(id="call_1", name="look", arguments='{"at": "image"'),
            )),
            Message.tool_result("call_1", [TextPart(text="a cat"), image]),
            Message.system("Now in French."),
        ),
    )  # fmt: skip
    inputs = input_messages(request)
    assert_follows(inputs, "input-messages")
    assert_follows(system_instructions(request), "system-instructions")
    assert system_instructions(request) == [{"type": "text", "content": "Answer briefly."}]
    assert [message["role"] for message in inputs] == ["user", "assistant", "tool", "system"]
    user, assistant, tool, _ = inputs
    assert user["parts"][1:] == [
        {"type": "blob", "mime_type": "image/png", "modality": "image", "content": image.data},
        {"type": "uri", "mime_type": "application/pdf", "modality": "document",
         "uri": "https://example.com/a.pdf"},
        {"type": "file", "mime_type": "audio/wav", "modality": "audio", "file_id": "file-7"},
    ]  # fmt: skip
    reasoning, call = assistant["parts"]
    assert reasoning == {"type": "reasoning", "content": "Look first."}
    assert call["arguments"] == '{"at": "image"'  # not JSON: the text as the model wrote it
    (result,) = tool["parts"]
    assert result["id"] == "call_1"
    assert [part["type"] for part in result["response"]] == ["text", "blob"]


# --- the trace context sent ---


def traceparent(span: ReadableSpan) -> str:
    """W3C's `traceparent` for `span`, written here from its ids."""
    context = span.get_span_context()
    assert context is not None
    return f"00-{context.trace_id:032x}-{context.span_id:016x}-{context.trace_flags:02x}"


@pytest.mark.parametrize(
    ("adapter", "cassette"),
    [
        ("anthropic", "anthropic/tool_round_trip_with_thinking.json"),
        ("google", "google/stream_parallel_tool_calls.json"),
        ("mistral", "mistral/image_input.json"),
        ("bedrock", "bedrock/thinking_tool_use.json"),
    ],
)
def test_a_request_goes_with_its_span_s_trace_context(adapter: str, cassette: str) -> None:
    interaction = first(cassette)
    tracer = trace.get_tracer("an application")
    with replay(FIXTURES / cassette) as played, tracer.start_as_current_span("agent turn"):
        client = get_client_class(adapter).connect(OPTIONS)
        request = recorded_request(adapter, interaction)
        if interaction.is_stream:
            accumulate(client.stream(request))
        else:
            client.complete(request)

    (sent,) = played.requests
    call, turn = EXPORTER.get_finished_spans()
    assert call.kind is SpanKind.CLIENT
    assert call.parent is not None
    assert call.parent.span_id == turn.context.span_id
    assert sent.headers["traceparent"] == traceparent(call)


def test_without_opentelemetry_the_clients_work_and_nothing_is_imported() -> None:
    code = """
import sys
sys.modules["opentelemetry"] = None  # as if it were not installed
from interlingua import ChatRequest, Message, accumulate
from interlingua._clients import get_client_class
from interlingua.client import SDKOptions
from interlingua import _telemetry
from interlingua.testing import replay
fixture = sys.argv[1]
with replay(fixture) as played:
    client = get_client_class("groq").connect(SDKOptions(api_key="sk-test", max_retries=0))
    from interlingua_groq import decode_request
    from interlingua.testing import load_cassette
    request = decode_request(load_cassette(fixture).interactions[0].request.json)
    response = client.complete(request)
assert response.usage.output_tokens > 0
assert _telemetry._instruments() is None
assert "traceparent" not in played.requests[0].headers
# A call records nothing: it goes through the call that does nothing.
print(_telemetry.client_call("groq", request) is _telemetry.NO_CALL)
"""
    fixture = str(FIXTURES / "groq/reasoning_with_temperature.json")
    result = subprocess.run(
        [sys.executable, "-c", code, fixture], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "True"


def test_importing_a_client_imports_no_opentelemetry_until_a_call() -> None:
    code = (
        "import sys, interlingua, interlingua.client, interlingua_groq\n"
        "interlingua_groq.GroqClient\n"
        "print(sorted(name for name in sys.modules if name.startswith('opentelemetry')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_the_bench_measures_each_call_against_the_same_call_without_telemetry() -> None:
    script = Path(__file__).resolve().parents[1] / "bench" / "telemetry.py"
    result = subprocess.run(
        [sys.executable, str(script), "--quick"], capture_output=True, text=True, check=True
    )
    _, *rows = result.stdout.strip().splitlines()
    assert [row[:40].strip() for row in rows] == [
        "complete, no tracer provider",
        "stream, no tracer provider",
        "complete, SDK tracer provider",
    ]
    assert all(float(row.split()[-1]) > 0 for row in rows)
