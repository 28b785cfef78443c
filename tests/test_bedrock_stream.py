"""Bedrock's ConverseStream, its finish reasons and its usage.

- every recorded ConverseStream (`../shared/corpus/bedrock`), read into the
  events boto3 yields by botocore's own parser, accumulates to the texts,
  reasoning, tool calls, finish and usage its events say (read here without
  the adapter), and encodes back to the same events;
- the project's own streams (`fixtures/bedrock/stream_*.json`, the events as
  boto3 yields them) give what the corpus lacks: an exception member mid-stream,
  citations, cache counts in the metadata, the other stop reasons;
- another provider's stream goes out as Bedrock would stream it, what Bedrock
  cannot take reported;
- every recorded Converse usage object gives the core's counts and is written
  back exactly, and one Claude answer counts the same through Anthropic's API.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import (
    FIXTURES,
    MissingCorpus,
    cassette,
    corpus_id,
    corpus_params,
    from_corpus,
    recorded,
    require_corpus,
    usage_counts,
)
from interlingua import (
    FilePart,
    FinishEvent,
    FinishReason,
    OpaquePart,
    OverloadedError,
    PartEvent,
    RateLimitError,
    ReasoningPart,
    ServerError,
    StreamError,
    StreamStart,
    TextPart,
    TokenUsage,
    ToolCallPart,
    TranslationReport,
    accumulate,
)
from interlingua.codec import overlay
from interlingua.testing import Interaction
from interlingua_anthropic import decode_stream as anthropic_stream
from interlingua_anthropic._usage import decode_usage as anthropic_usage
from interlingua_bedrock._event_stream import read_event_stream
from interlingua_bedrock._finish import finish_reason, stop_reason
from interlingua_bedrock._response import decode_response
from interlingua_bedrock._stream import decode_stream
from interlingua_bedrock._stream_encoder import encode_stream, stream_encoder
from interlingua_bedrock._usage import decode_usage, encode_usage, usage_fields, usage_forms

# Converse's stop reasons and what each means, as this test reads them.
FINISH_REASONS = {
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "max_tokens": FinishReason.LENGTH,
    "model_context_window_exceeded": FinishReason.LENGTH,
    "tool_use": FinishReason.TOOL_CALLS,
    "guardrail_intervened": FinishReason.CONTENT_FILTER,
    "content_filtered": FinishReason.CONTENT_FILTER,
    "malformed_model_output": FinishReason.ERROR,
    "malformed_tool_use": FinishReason.ERROR,
}
BEDROCK_HOST = re.compile(r"bedrock-runtime\.[a-z0-9-]+\.amazonaws\.com")


def bedrock_calls(path: Path, operation: str) -> list[Interaction]:
    """The file's calls to Bedrock Runtime's `operation` (`converse`,
    `converse-stream`) that were answered; other hosts are left out."""
    return [
        call
        for call in cassette(path).interactions
        if BEDROCK_HOST.fullmatch(call.host or "")
        and (call.path or "").endswith(f"/{operation}")
        and call.response.status < 400
    ]


STREAM_FILES = corpus_params(
    "bedrock",
    pattern="*.yaml",
    keep=lambda path: bool(bedrock_calls(path, "converse-stream")),
    holding="ConverseStream recordings",
)
ANSWER_FILES = corpus_params(
    "bedrock",
    pattern="*.yaml",
    keep=lambda path: bool(bedrock_calls(path, "converse")),
    holding="Converse recordings",
)


def recorded_streams(param: Path | MissingCorpus) -> Iterator[list[dict[str, Any]]]:
    for call in bedrock_calls(from_corpus(param), "converse-stream"):
        yield list(read_event_stream(call.response.body))


def fixture_events(name: str) -> list[dict[str, Any]]:
    return list(json.loads((FIXTURES / "bedrock" / name).read_text())["events"])


# --- what a stream's events say, read without the adapter ---


def expected_blocks(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each content block's pieces, by its index, in the order blocks begin."""
    blocks: dict[int, dict[str, Any]] = {}
    for event in events:
        ((kind, payload),) = event.items()
        if kind not in {"contentBlockStart", "contentBlockDelta"}:
            continue
        block = blocks.setdefault(payload["contentBlockIndex"], {})
        if kind == "contentBlockStart":
            block["start"] = payload["start"]
            continue
        ((member, value),) = payload["delta"].items()
        if member == "reasoningContent":
            ((member, value),) = value.items()
            member = f"reasoning.{member}"
        if isinstance(value, str | bytes):
            block[member] = block.get(member, value[:0]) + value
        else:
            block.setdefault(member, []).append(value)
    return blocks


def check_part(part: Any, block: dict[str, Any]) -> None:
    start = block.get("start", {})
    if start.get("toolUse", {}).get("type") == "server_tool_use":
        # A call the server ran itself: its block whole, its input parsed.
        pieces = "".join(piece["input"] for piece in block["toolUse"])
        assert part == OpaquePart(
            provider="bedrock", data={"toolUse": {**start["toolUse"], "input": json.loads(pieces)}}
        )
    elif "toolUse" in start:
        assert isinstance(part, ToolCallPart)
        assert (part.id, part.name) == (start["toolUse"]["toolUseId"], start["toolUse"]["name"])
        pieces = "".join(piece["input"] for piece in block.get("toolUse", []))
        assert part.arguments == (pieces or "{}")
    elif "toolResult" in start:
        assert isinstance(part, OpaquePart)
        result = {**start["toolResult"], "content": [i for d in block["toolResult"] for i in d]}
        assert part.data == {"toolResult": result}
    elif "reasoning.redactedContent" in block:
        assert isinstance(part, ReasoningPart)
        assert part.redacted_data == base64.b64encode(block["reasoning.redactedContent"]).decode()
    elif "reasoning.text" in block or "reasoning.signature" in block:
        assert isinstance(part, ReasoningPart)
        assert part.text == block.get("reasoning.text", "")
        assert part.signature == block.get("reasoning.signature")
        assert part.provider == "bedrock"
    else:
        assert isinstance(part, TextPart)
        assert part.text == block["text"]


def check_stream(events: list[dict[str, Any]]) -> None:
    """The accumulated response against what the events say."""
    response = accumulate(decode_stream(events))
    blocks = expected_blocks(events)
    assert len(response.message.parts) == len(blocks)
    for part, block in zip(response.message.parts, blocks.values(), strict=True):
        check_part(part, block)
    (stop,) = [event["messageStop"] for event in events if "messageStop" in event]
    assert response.raw_finish_reason == stop["stopReason"]
    assert response.finish_reason == FINISH_REASONS[stop["stopReason"]]
    (metadata,) = [event["metadata"] for event in events if "metadata" in event]
    assert usage_counts(response.usage) == expected_counts(metadata["usage"])
    fields = response.provider_data["bedrock"]["fields"]
    for key in ("metrics", "trace"):
        assert fields.get(key) == metadata.get(key)


def expected_counts(usage: dict[str, Any]) -> tuple[int, ...]:
    """input (every input token), output, total, cache reads, cache writes, reasoning."""
    read = usage.get("cacheReadInputTokens", usage.get("cacheReadInputTokenCount", 0))
    written = usage.get("cacheWriteInputTokens", usage.get("cacheWriteInputTokenCount", 0))
    total = usage["inputTokens"] + read + written
    return (total, usage["outputTokens"], usage["totalTokens"], read, written, 0)


def answer_of(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The Converse answer the events describe, as `converse` would have given it."""
    content = []
    for block in expected_blocks(events).values():
        start = block.get("start", {})
        if "toolUse" in start:
            pieces = "".join(piece["input"] for piece in block.get("toolUse", []))
            content.append({"toolUse": {**start["toolUse"], "input": json.loads(pieces or "{}")}})
        elif "toolResult" in start:
            items = [item for delta in block["toolResult"] for item in delta]
            content.append({"toolResult": {**start["toolResult"], "content": items}})
        elif "reasoning.redactedContent" in block:
            content.append(
                {"reasoningContent": {"redactedContent": block["reasoning.redactedContent"]}}
            )
        elif "reasoning.text" in block or "reasoning.signature" in block:
            text = {"text": block.get("reasoning.text", "")}
            if "reasoning.signature" in block:
                text["signature"] = block["reasoning.signature"]
            content.append({"reasoningContent": {"reasoningText": text}})
        elif "citation" in block:
            cited = {"content": [{"text": block["text"]}], "citations": block["citation"]}
            content.append({"citationsContent": cited})
        else:
            content.append({"text": block["text"]})
    (stop,) = [event["messageStop"] for event in events if "messageStop" in event]
    (metadata,) = [event["metadata"] for event in events if "metadata" in event]
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        **stop,
        **metadata,
    }


def without_arguments(parts: tuple[Any, ...]) -> list[Any]:
    """The parts, a tool call's arguments parsed: a stream keeps them as the
    model streamed them, an answer writes them compactly."""
    return [
        (part.id, part.name, part.parsed_arguments(), part.provider_data)
        if isinstance(part, ToolCallPart)
        else part
        for part in parts
    ]


def check_answer(events: list[dict[str, Any]]) -> None:
    """The accumulated stream is the answer its events describe, decoded."""
    streamed = accumulate(decode_stream(events))
    answered = decode_response(answer_of(events))
    assert without_arguments(streamed.message.parts) == without_arguments(answered.message.parts)
    assert streamed.model_copy(update={"message": answered.message}) == answered


def check_round_trip(events: list[dict[str, Any]]) -> None:
    """The decoded events encode back to the recorded ones, each named by its
    member, and decode again to the same events and the same response."""
    decoded = list(decode_stream(events))
    report = TranslationReport()
    wire = list(encode_stream(decoded, report=report))
    assert [item.data for item in wire] == events
    assert [item.event for item in wire] == [next(iter(event)) for event in events]
    assert not report.losses
    again = list(decode_stream([item.data for item in wire]))
    assert again == decoded


# --- the corpus ---


@pytest.mark.parametrize("param", STREAM_FILES, ids=corpus_id)
def test_recorded_stream_accumulates_to_what_its_events_say(param: Path | MissingCorpus) -> None:
    for events in recorded_streams(param):
        check_stream(events)
        check_answer(events)


@pytest.mark.parametrize("param", STREAM_FILES, ids=corpus_id)
def test_recorded_stream_encodes_back_to_its_events(param: Path | MissingCorpus) -> None:
    for events in recorded_streams(param):
        check_round_trip(events)
        decoded = list(decode_stream(events))
        twice = accumulate(decode_stream(item.data for item in encode_stream(decoded)))
        assert twice == accumulate(decoded)


@pytest.mark.parametrize("param", ANSWER_FILES, ids=corpus_id)
def test_recorded_usage_counts_and_writes_back(param: Path | MissingCorpus) -> None:
    for call in bedrock_calls(from_corpus(param), "converse"):
        usage = call.response.json["usage"]
        decoded = decode_usage(usage)
        assert usage_counts(decoded) == expected_counts(usage)
        written = encode_usage(
            decoded, own=True, report=TranslationReport(), counts=usage_forms(usage)
        )
        assert overlay(written, usage_fields(usage)) == usage


# --- the project's own streams ---


def test_an_exception_mid_stream_keeps_what_arrived() -> None:
    events = fixture_events("stream_throttled.json")
    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream(events))
    error = caught.value.error
    assert isinstance(error, RateLimitError)
    assert error.type == "ThrottlingException"
    assert error.status is None
    assert error.message == events[-1]["throttlingException"]["message"]
    assert caught.value.partial is not None
    assert caught.value.partial.message.parts == (TextPart(text="Grey breath on the bay"),)
    check_round_trip(events)


def test_a_model_stream_error_keeps_the_model_status() -> None:
    events = fixture_events("stream_model_stream_error.json")
    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream(events))
    error = caught.value.error
    assert isinstance(error, ServerError)
    assert error.type == "ModelStreamErrorException"
    assert error.body == events[-1]
    assert error.body["modelStreamErrorException"]["originalStatusCode"] == 500
    assert caught.value.partial is not None
    (reasoning,) = caught.value.partial.message.parts
    assert isinstance(reasoning, ReasoningPart)
    assert reasoning.text == "The user asks for a proof that there are infinitely many primes."
    check_round_trip(events)


def test_citations_and_cache_counts() -> None:
    events = fixture_events("stream_citations.json")
    check_stream(events)
    check_answer(events)
    response = accumulate(decode_stream(events))
    (text,) = response.message.parts
    citation = events[3]["contentBlockDelta"]["delta"]["citation"]
    assert text.provider_data["bedrock"] == {
        "fields": {"citations": [citation]},
        "forms": {"block": "citationsContent"},
    }
    usage = response.usage
    assert (usage.input_tokens, usage.cache_read_tokens, usage.cache_write_tokens) == (
        12 + 1612 + 210,
        1612,
        210,
    )
    assert usage.total_tokens == 1853
    assert usage.details == {"cacheDetails.5m": 210}
    check_round_trip(events)


@pytest.mark.parametrize(
    "name", ["stream_context_window_exceeded.json", "stream_content_filtered.json"]
)
def test_other_stop_reasons(name: str) -> None:
    events = fixture_events(name)
    check_stream(events)
    check_answer(events)
    (stop,) = [event["messageStop"] for event in events if "messageStop" in event]
    response = accumulate(decode_stream(events))
    fields = response.provider_data["bedrock"].get("fields", {})
    if "additionalModelResponseFields" in stop:
        assert fields["additionalModelResponseFields"] == stop["additionalModelResponseFields"]
    check_round_trip(events)


def redacted_delta(content: bytes | str) -> dict[str, Any]:
    delta = {"reasoningContent": {"redactedContent": content}}
    return {"contentBlockDelta": {"delta": delta, "contentBlockIndex": 0}}


def test_redacted_content_as_json_text_reads_as_bytes() -> None:
    secret = b"\x12\x9f opaque"
    as_bytes = [redacted_delta(secret)]
    as_text = [redacted_delta(base64.b64encode(secret).decode())]
    decoded = list(decode_stream(as_bytes))
    assert list(decode_stream(as_text)) == decoded
    (part,) = accumulate(decoded).message.parts
    assert isinstance(part, ReasoningPart)
    assert base64.b64decode(part.redacted_data or "") == secret
    wire = [item.data for item in encode_stream(decoded)]
    assert wire[1] == as_bytes[0]


# --- another provider's stream ---


def test_an_anthropic_stream_goes_out_as_converse_events() -> None:
    (call,) = recorded("anthropic/stream_thinking_tool_use.json")
    events = list(anthropic_stream(call.response.stream_payloads()))
    report = TranslationReport()
    wire = [item.data for item in encode_stream(events, report=report)]
    assert wire[0] == {"messageStart": {"role": "assistant"}}
    assert [next(iter(event)) for event in wire][-2:] == ["messageStop", "metadata"]
    assert wire[-2] == {"messageStop": {"stopReason": "tool_use"}}
    starts = [event["contentBlockStart"] for event in wire if "contentBlockStart" in event]
    assert starts == [
        {
            "start": {
                "toolUse": {"toolUseId": "toolu_01OsLoQw5Nc8Vr2Kx7Jb4Tm", "name": "get_weather"}
            },
            "contentBlockIndex": 1,
        },
        {
            "start": {
                "toolUse": {"toolUseId": "toolu_01BgNr6Yt3Hw9Lc5Qd2Sx8Z", "name": "get_weather"}
            },
            "contentBlockIndex": 2,
        },
    ]
    # Claude's thinking on Anthropic's API goes back there only, as in an answer.
    deltas = [event["contentBlockDelta"]["delta"] for event in wire if "contentBlockDelta" in event]
    assert not [delta for delta in deltas if "reasoningContent" in delta]
    losses = {loss.path: loss.level for loss in report.losses}
    assert losses["message.parts[0]"] == "setting"
    source, sent = accumulate(events), accumulate(decode_stream(wire))
    assert [type(part) for part in sent.message.parts] == [TextPart, ToolCallPart, ToolCallPart]
    assert sent.message.parts[0].text == source.message.parts[1].text
    assert [(p.id, p.name, p.arguments) for p in sent.message.parts[1:]] == [
        (p.id, p.name, p.arguments) for p in source.message.parts[2:]
    ]
    # Converse counts no reasoning tokens apart: they stay in the output's count.
    assert usage_counts(sent.usage)[:5] == usage_counts(source.usage)[:5]
    assert source.usage.reasoning_tokens
    assert losses["usage.reasoning_tokens"] == "hint"


def test_whole_parts_go_as_an_answer_writes_them() -> None:
    citation = {"title": "manual", "sourceContent": [{"text": "Two years."}], "location": {}}
    cited = {
        "bedrock": {"fields": {"citations": [citation]}, "forms": {"block": "citationsContent"}}
    }
    parts = [
        TextPart(text="Two years.", provider_data=cited),
        ReasoningPart(text="Short.", signature="sig", provider="bedrock"),
        ToolCallPart(id="call 1/x", name="lookup", arguments='{"q": "warranty"}'),
        FilePart(media_type="image/png", url="https://example.com/a.png"),
    ]
    stream = [
        StreamStart(provider="openai"),
        *(PartEvent(index=k, part=part) for k, part in enumerate(parts)),
        FinishEvent(finish_reason=FinishReason.TOOL_CALLS, raw_finish_reason="tool_calls"),
    ]
    report = TranslationReport()
    wire = [item.data for item in encode_stream(stream, report=report)]
    deltas = [event["contentBlockDelta"] for event in wire if "contentBlockDelta" in event]
    assert [(delta["contentBlockIndex"], delta["delta"]) for delta in deltas] == [
        (0, {"text": "Two years."}),
        (0, {"citation": citation}),
        (1, {"reasoningContent": {"text": "Short."}}),
        (1, {"reasoningContent": {"signature": "sig"}}),
        (2, {"toolUse": {"input": '{"q": "warranty"}'}}),
    ]
    (start,) = [
        event["contentBlockStart"]["start"] for event in wire if "contentBlockStart" in event
    ]
    # Converse's toolUseId alphabet (the API reference's ToolUseBlock): the id is rewritten.
    assert start["toolUse"]["name"] == "lookup"
    assert re.fullmatch(r"[a-zA-Z0-9_.:-]{1,64}", start["toolUse"]["toolUseId"])
    assert wire[-1] == {"messageStop": {"stopReason": "tool_use"}}
    losses = {loss.path: (loss.kind, loss.level) for loss in report.losses}
    assert losses == {
        "message.parts[2].id": ("transformed", "hint"),
        "message.parts[3]": ("dropped", "content"),
    }
    sent = accumulate(decode_stream(wire))
    assert sent.message.parts[:2] == tuple(parts[:2])


def test_another_providers_error_ends_the_stream_as_an_exception_member() -> None:
    (call,) = recorded("anthropic/stream_overloaded.json")
    events = list(anthropic_stream(call.response.stream_payloads()))
    encoder = stream_encoder(report=TranslationReport())
    wire = [item.data for event in events for item in encoder.feed(event)]
    assert list(encoder.finish()) == []
    assert wire[-1] == {"serviceUnavailableException": {"message": "Overloaded"}}
    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream(wire))
    assert isinstance(caught.value.error, OverloadedError)
    assert caught.value.error.retryable


# --- finish reasons and usage ---


@pytest.mark.parametrize("raw", sorted(FINISH_REASONS))
def test_stop_reasons_both_ways(raw: str) -> None:
    assert finish_reason(raw) == FINISH_REASONS[raw]
    report = TranslationReport()
    assert stop_reason(FINISH_REASONS[raw], raw, provider="anthropic", report=report) == raw
    assert not report.losses


def test_a_stop_reason_bedrock_has_no_value_for() -> None:
    assert finish_reason("something_new") == FinishReason.OTHER
    own = stop_reason(
        FinishReason.OTHER, "something_new", provider="bedrock", report=TranslationReport()
    )
    assert own == "something_new"
    report = TranslationReport()
    paused = stop_reason(FinishReason.PAUSE, "pause_turn", provider="anthropic", report=report)
    assert paused == "end_turn"
    assert [loss.path for loss in report.losses] == ["finish_reason"]


def test_one_claude_answer_counts_the_same_through_anthropic_and_bedrock() -> None:
    # The two calls of a cache write then a cache read, as Converse counted them;
    # Anthropic's usage of the same answer gives the uncached input, the cache
    # writes and the cache reads apart, as Converse does.
    path = require_corpus("bedrock") / "pydantic-ai" / "test_bedrock_cache_write_and_read.yaml"
    calls = bedrock_calls(path, "converse")
    assert len(calls) == 2
    for call in calls:
        usage = call.response.json["usage"]
        through_anthropic = anthropic_usage(
            {
                "input_tokens": usage["inputTokens"],
                "cache_creation_input_tokens": usage["cacheWriteInputTokens"],
                "cache_read_input_tokens": usage["cacheReadInputTokens"],
                "output_tokens": usage["outputTokens"],
            },
            "usage",
        )
        assert usage_counts(decode_usage(usage)) == usage_counts(through_anthropic)
        assert decode_usage(usage).total_tokens == usage["totalTokens"]


def test_another_providers_usage_writes_the_counts_and_reports_the_rest() -> None:
    usage = TokenUsage(
        input_tokens=120,
        output_tokens=40,
        cache_read_tokens=100,
        reasoning_tokens=25,
        details={"output_tokens_details.reasoning_tokens": 25},
    )
    report = TranslationReport()
    written = encode_usage(usage, own=False, report=report)
    assert written == {
        "inputTokens": 20,
        "outputTokens": 40,
        "totalTokens": 160,
        "cacheReadInputTokens": 100,
    }
    assert sorted(loss.path for loss in report.losses) == [
        "usage.details",
        "usage.reasoning_tokens",
    ]
