"""The Anthropic response codec: a Messages API response body <-> `ChatResponse`."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from anthropic.types import Message as SDKMessage

from interlingua import (
    ChatResponse,
    DecodeError,
    FilePart,
    FinishReason,
    Message,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    TokenUsage,
    ToolCallPart,
    TranslationLoss,
    TranslationReport,
)
from interlingua_anthropic import decode_response, encode_response

USAGE = {
    "input_tokens": 12,
    "cache_creation_input_tokens": 100,
    "cache_read_input_tokens": 2000,
    "cache_creation": {"ephemeral_5m_input_tokens": 100, "ephemeral_1h_input_tokens": 0},
    "output_tokens": 340,
    "output_tokens_details": {"thinking_tokens": 210},
    "server_tool_use": {"web_search_requests": 2, "web_fetch_requests": 0},
    "service_tier": "standard",
    "inference_geo": "not_available",
}


def body_with(**fields: Any) -> dict[str, Any]:
    body = {
        "model": "claude-sonnet-4-5-20250929",
        "id": "msg_01XyZ",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "text", "text": "Hello."}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 10,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 3,
        },
    }
    return {**body, **fields}


def round_trip(body: dict[str, Any]) -> dict[str, Any]:
    return encode_response(decode_response(body), report=TranslationReport(strict=True))


def test_every_block_decodes_to_its_part_and_encodes_back() -> None:
    citation = {
        "type": "web_search_result_location",
        "cited_text": "Rain today.",
        "url": "https://example.com/w",
        "title": "Weather",
        "encrypted_index": "EpABCioI",
    }
    server_call = {
        "type": "server_tool_use",
        "id": "srvtoolu_1",
        "name": "web_search",
        "input": {"query": "rain"},
    }
    server_result = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}
    body = body_with(
        content=[
            {"type": "thinking", "thinking": "Let me search.", "signature": "EqQBsig"},
            {"type": "redacted_thinking", "data": "EmwKAhgB"},
            server_call,
            server_result,
            {"type": "text", "text": "It rains.", "citations": [citation]},
            {
                "type": "tool_use",
                "id": "toolu_1",
                "name": "get_weather",
                "input": {"city": "Oslo", "days": [1, 2]},
            },
        ],
        stop_reason="tool_use",
    )

    response = decode_response(body)

    assert response.message.parts == (
        ReasoningPart(text="Let me search.", signature="EqQBsig", provider="anthropic"),
        ReasoningPart(redacted_data="EmwKAhgB", provider="anthropic"),
        OpaquePart(provider="anthropic", data=server_call),
        OpaquePart(provider="anthropic", data=server_result),
        TextPart(
            text="It rains.", provider_data={"anthropic": {"fields": {"citations": [citation]}}}
        ),
        ToolCallPart(id="toolu_1", name="get_weather", arguments='{"city":"Oslo","days":[1,2]}'),
    )
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert round_trip(body) == body


def test_an_unknown_block_is_kept_whole_and_goes_back_unchanged() -> None:
    unknown = {"type": "hologram", "frames": [{"at": 0, "note": None}], "cache_control": None}
    body = body_with(content=[unknown, {"type": "text", "text": "Done."}])

    response = decode_response(body)

    assert response.message.parts[0] == OpaquePart(provider="anthropic", data=unknown)
    assert round_trip(body) == body


def test_the_sdk_message_object_decodes_like_its_json() -> None:
    body = body_with(
        content=[
            {"type": "hologram", "frames": []},
            {"type": "text", "text": "Hi", "citations": None},
        ],
        usage=USAGE,
        stop_details=None,
    )
    message = SDKMessage.construct(**copy.deepcopy(body))

    assert (
        type(message.content[0]).__name__ == "TextBlock"
    )  # the SDK's stand-in for the unknown block
    assert decode_response(message) == decode_response(body)
    assert encode_response(decode_response(message)) == body


@pytest.mark.parametrize(
    ("stop_reason", "finish_reason"),
    [
        ("end_turn", FinishReason.STOP),
        ("stop_sequence", FinishReason.STOP),
        ("max_tokens", FinishReason.LENGTH),
        ("model_context_window_exceeded", FinishReason.LENGTH),
        ("tool_use", FinishReason.TOOL_CALLS),
        ("pause_turn", FinishReason.PAUSE),
        ("refusal", FinishReason.CONTENT_FILTER),
        ("a_reason_from_next_year", FinishReason.OTHER),
        (None, None),
    ],
)
def test_stop_reasons_map_onto_finish_reasons_and_the_raw_value_is_kept(
    stop_reason: str | None, finish_reason: FinishReason | None
) -> None:
    body = body_with(stop_reason=stop_reason)

    response = decode_response(body)

    assert response.finish_reason is finish_reason
    assert response.raw_finish_reason == stop_reason
    assert round_trip(body) == body


def test_the_stop_sequence_met_is_kept() -> None:
    body = body_with(stop_reason="stop_sequence", stop_sequence="```")

    response = decode_response(body)

    assert response.provider_data == {"anthropic": {"fields": {"stop_sequence": "```"}}}
    assert round_trip(body) == body


def test_usage_counts_every_input_token_and_keeps_the_breakdown() -> None:
    body = body_with(usage=USAGE)

    response = decode_response(body)

    assert response.usage == TokenUsage(
        input_tokens=12 + 100 + 2000,
        output_tokens=340,
        cache_read_tokens=2000,
        cache_write_tokens=100,
        reasoning_tokens=210,
        details={
            "cache_creation.ephemeral_5m_input_tokens": 100,
            "cache_creation.ephemeral_1h_input_tokens": 0,
            "output_tokens_details.thinking_tokens": 210,
            "server_tool_use.web_search_requests": 2,
            "server_tool_use.web_fetch_requests": 0,
        },
    )
    assert response.usage.uncached_input_tokens == 12
    assert response.provider_data["anthropic"]["fields"]["usage"] == {
        "service_tier": "standard",
        "inference_geo": "not_available",
    }
    assert round_trip(body) == body


def test_fields_the_core_does_not_model_are_kept() -> None:
    container = {"id": "container_011", "expires_at": "2026-04-24T11:13:36Z"}
    body = body_with(stop_details={"category": None}, container=container, context_management=None)

    response = decode_response(body)

    assert response.provider_data["anthropic"]["fields"]["container"] == container
    assert round_trip(body) == body


def test_a_response_made_elsewhere_is_written_in_anthropic_terms() -> None:
    response = ChatResponse(
        id="chatcmpl-1",
        model="gpt-5.4",
        provider="openai",
        message=Message.assistant(
            ReasoningPart(text="hidden", provider="openai"),
            RefusalPart(text="I can't help with that."),
            ToolCallPart(id="call_a.b", name="lookup", arguments='{"q": 1}'),
        ),
        finish_reason=FinishReason.TOOL_CALLS,
        raw_finish_reason="tool_calls",
        usage=TokenUsage(
            input_tokens=50,
            cache_read_tokens=20,
            output_tokens=9,
            reasoning_tokens=4,
            details={"completion_tokens_details.audio_tokens": 0},
        ),
        provider_data={"openai": {"fields": {"system_fingerprint": "fp_1"}}},
    )
    report = TranslationReport()

    body = encode_response(response, report=report)

    assert body == {
        "id": "chatcmpl-1",
        "type": "message",
        "role": "assistant",
        "model": "gpt-5.4",
        "content": [
            {"type": "text", "text": "I can't help with that."},
            {"type": "tool_use", "id": "call_ab_085b8b846463", "name": "lookup", "input": {"q": 1}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 30,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 20,
            "output_tokens": 9,
            "output_tokens_details": {"thinking_tokens": 4},
        },
    }
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("message.parts[0]", "dropped"),
        ("message.parts[1]", "transformed"),
        ("message.parts[2].id", "transformed"),
        ("usage.details", "dropped"),
        ("provider_data.openai.fields.system_fingerprint", "dropped"),
    ]


def test_a_finish_reason_without_an_anthropic_value_is_reported() -> None:
    response = ChatResponse(
        provider="mistral", finish_reason=FinishReason.ERROR, raw_finish_reason="error"
    )
    report = TranslationReport()

    body = encode_response(response, report=report)

    assert body["stop_reason"] == "end_turn"
    assert report.losses == [
        TranslationLoss(
            "finish_reason", "transformed", "Anthropic has no error; sent as end_turn", "content"
        )
    ]


@pytest.mark.parametrize(
    ("field", "wire"),
    [
        ("usage", {"input_tokens": 10, "output_tokens": 3}),
        (
            "usage",
            {
                "input_tokens": 10,
                "cache_creation_input_tokens": None,
                "cache_read_input_tokens": None,
                "output_tokens": 3,
            },
        ),
        ("usage", None),
        ("stop_sequence", None),
    ],
    ids=["counts-absent", "counts-null", "usage-null", "stop-sequence-absent"],
)
def test_fields_the_body_left_out_or_sent_as_null_come_back_so(field: str, wire: Any) -> None:
    body = body_with(**{field: wire})
    if field == "stop_sequence":
        del body["stop_sequence"]

    response = decode_response(body)

    # An absent or null count is none used: the input is the body's own count.
    counts = (response.usage.cache_read_tokens, response.usage.cache_write_tokens)
    assert counts == (0, 0)
    if field == "usage" and wire is not None:
        assert response.usage.input_tokens == response.usage.uncached_input_tokens == 10
        assert response.usage.output_tokens == 3
    assert round_trip(body) == body


def test_a_body_without_usage_comes_back_without_it() -> None:
    body = body_with()
    del body["usage"]

    assert round_trip(body) == body


def test_alternatives_are_reported_as_dropped() -> None:
    response = ChatResponse(
        provider="openai",
        message=Message.assistant("One."),
        finish_reason=FinishReason.STOP,
        alternatives=(ChatResponse(message=Message.assistant("Two.")),),
    )
    report = TranslationReport()

    body = encode_response(response, report=report)

    assert body["content"] == [{"type": "text", "text": "One."}]
    assert [(loss.path, loss.kind) for loss in report.losses] == [("alternatives", "dropped")]


def test_a_file_in_a_response_made_elsewhere_is_reported_as_dropped() -> None:
    response = ChatResponse(
        provider="openai",
        message=Message.assistant(FilePart(media_type="image/png", data="iVBORw0KGgo="), "Done."),
        finish_reason=FinishReason.STOP,
    )
    report = TranslationReport()

    body = encode_response(response, report=report)

    assert body["content"] == [{"type": "text", "text": "Done."}]
    assert [(loss.path, loss.kind) for loss in report.losses] == [("message.parts[0]", "dropped")]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"id": "m", "type": "message"}, "content"),
        (body_with(content=[{"text": "no type"}]), "content[0].type"),
        (
            body_with(
                content=[
                    {"type": "text", "text": "a"},
                    {"type": "tool_use", "name": "f", "input": {}},
                ]
            ),
            "content[1].id",
        ),
        (
            body_with(content=[{"type": "tool_use", "id": "t", "name": "f", "input": "{}"}]),
            "content[0].input",
        ),
        (body_with(usage={"input_tokens": "many"}), "usage.input_tokens"),
        (body_with(stop_reason=7), "stop_reason"),
    ],
)
def test_a_body_missing_a_required_field_raises_naming_its_path(
    body: dict[str, Any], path: str
) -> None:
    with pytest.raises(DecodeError) as raised:
        decode_response(body)

    assert raised.value.path == path


def test_something_that_is_no_body_at_all_is_refused() -> None:
    with pytest.raises(DecodeError, match=r"at <root>: expected an object, got an array"):
        decode_response(["not", "a", "body"])
