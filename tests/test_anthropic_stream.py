"""The Anthropic stream decoder: server-sent events -> interlingua stream events."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

import pytest
from anthropic.types import RawMessageStreamEvent
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from conftest import FIXTURES
from interlingua import (
    DecodeError,
    FinishReason,
    OpaquePart,
    OverloadedError,
    ReasoningPart,
    StreamError,
    TextPart,
    TokenUsage,
    ToolCallPart,
    TranslationReport,
    accumulate,
)
from interlingua.testing import load_cassette
from interlingua_anthropic import decode_stream, encode_response

STREAM = FIXTURES / "anthropic" / "stream_thinking_tool_use.json"


def fixture_payloads(path: Path = STREAM) -> list[dict[str, Any]]:
    return load_cassette(path).interactions[0].response.stream_payloads()


def start(**usage: int) -> dict[str, Any]:
    counts = {
        "input_tokens": 10,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 1,
    }
    return {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-haiku-4-5",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {**counts, **usage},
        },
    }


def block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def delta(index: int, **fields: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": fields}


def stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def finish(reason: str, **usage: Any) -> dict[str, Any]:
    return {
        "type": "message_delta",
        "delta": {"stop_reason": reason, "stop_sequence": None},
        "usage": usage,
    }


def test_a_stream_with_thinking_text_and_tool_calls_accumulates_to_the_whole_answer() -> None:
    response = accumulate(decode_stream(fixture_payloads()))

    reasoning, text, oslo, bergen = response.message.parts
    assert isinstance(reasoning, ReasoningPart)
    assert reasoning.text == "Two cities, so two calls to get_weather: Oslo first, then Bergen."
    assert reasoning.signature is not None
    assert reasoning.signature.startswith("EqMCCkYIChgCKkC")
    assert reasoning.provider == "anthropic"
    assert text == TextPart(text="I'll look up both cities.")
    assert oslo == ToolCallPart(
        id="toolu_01OsLoQw5Nc8Vr2Kx7Jb4Tm",
        name="get_weather",
        arguments='{"city": "Oslo"}',
        provider_data={"anthropic": {"forms": {"caller": "direct"}}},
    )
    assert isinstance(bergen, ToolCallPart)
    assert bergen.parsed_arguments() == {"city": "Bergen"}
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert response.raw_finish_reason == "tool_use"
    assert response.usage == TokenUsage(
        input_tokens=618,
        output_tokens=143,
        reasoning_tokens=24,
        details={
            "cache_creation.ephemeral_5m_input_tokens": 0,
            "cache_creation.ephemeral_1h_input_tokens": 0,
            "output_tokens_details.thinking_tokens": 24,
        },
    )
    assert response.provider_data == {
        "anthropic": {
            "fields": {
                "stop_sequence": None,
                "stop_details": None,
                "usage": {"service_tier": "standard", "inference_geo": "not_available"},
            }
        }
    }
    assert response.warnings == ()


def test_the_events_name_each_step() -> None:
    kinds = [event.type for event in decode_stream(fixture_payloads())]

    assert kinds == [
        "start", "usage",
        "reasoning_delta",
        "reasoning_delta", "reasoning_delta", "reasoning_signature",
        "text_delta", "text_delta", "text_delta",
        "tool_call_start", "tool_call_delta", "tool_call_delta", "tool_call_delta",
        "tool_call_start", "tool_call_delta", "tool_call_delta", "tool_call_delta",
        "usage", "finish",
    ]  # fmt: skip


def test_the_sdk_event_objects_decode_like_their_json() -> None:
    payloads = fixture_payloads()
    adapter: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)
    # The SDK yields no ping events: it has no type for them.
    events = [adapter.validate_python(copy.deepcopy(p)) for p in payloads if p["type"] != "ping"]

    assert list(decode_stream(events)) == list(decode_stream(payloads))


def test_malformed_tool_arguments_are_kept_as_they_came_and_flagged() -> None:
    payloads = [
        start(),
        block_start(0, {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}),
        delta(0, type="input_json_delta", partial_json='{"city": "Os'),
        delta(0, type="input_json_delta", partial_json="lo"),
        stop(0),
        finish("max_tokens", output_tokens=20),
    ]

    response = accumulate(decode_stream(payloads))

    assert response.message.parts == (
        ToolCallPart(id="toolu_1", name="get_weather", arguments='{"city": "Oslo'),
    )
    assert [(w.path, w.kind) for w in response.warnings] == [
        ("message.parts[0].arguments", "malformed")
    ]
    report = TranslationReport()
    assert encode_response(response, report=report)["content"][0]["input"] == {}
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("message.parts[0]", "transformed")
    ]


def test_an_error_event_raises_a_stream_error_that_keeps_what_arrived() -> None:
    payloads = (
        load_cassette(FIXTURES / "anthropic" / "stream_overloaded.json")
        .interactions[0]
        .response.stream_payloads()
    )

    with pytest.raises(StreamError) as raised:
        accumulate(decode_stream(payloads))

    assert isinstance(raised.value.error, OverloadedError)
    assert raised.value.error.retryable
    assert raised.value.error.message == "Overloaded"
    assert raised.value.partial is not None
    assert raised.value.partial.id == "msg_01Fg3Wn8Rk5Tq2Lb7Hx4Mz9C"
    assert raised.value.partial.text == "Grey breath on the bay"


def test_citations_arrive_one_by_one_and_join_the_text_block() -> None:
    first = {
        "type": "char_location",
        "cited_text": "a",
        "document_index": 0,
        "start_char_index": 0,
        "end_char_index": 1,
    }
    second = {**first, "cited_text": "b"}
    payloads = [
        start(),
        block_start(0, {"type": "text", "text": "", "citations": []}),
        delta(0, type="citations_delta", citation=first),
        delta(0, type="text_delta", text="A and "),
        delta(0, type="citations_delta", citation=second),
        delta(0, type="text_delta", text="B."),
        stop(0),
        finish("end_turn", output_tokens=5),
    ]

    response = accumulate(decode_stream(payloads))

    assert response.message.parts == (
        TextPart(
            text="A and B.", provider_data={"anthropic": {"fields": {"citations": [first, second]}}}
        ),
    )


def test_a_server_tool_block_is_held_until_its_stop_and_a_redacted_block_comes_whole() -> None:
    search = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
    payloads = [
        start(),
        block_start(0, {"type": "redacted_thinking", "data": "EmwKAhgB"}),
        stop(0),
        block_start(1, search),
        delta(1, type="input_json_delta", partial_json='{"query": '),
        {"type": "ping"},
        delta(1, type="input_json_delta", partial_json='"fog"}'),
        stop(1),
        block_start(
            2, {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}
        ),
        stop(2),
        finish("pause_turn", output_tokens=9, server_tool_use={"web_search_requests": 1}),
        {"type": "message_stop"},
    ]

    response = accumulate(decode_stream(payloads))

    assert response.message.parts == (
        ReasoningPart(redacted_data="EmwKAhgB", provider="anthropic"),
        OpaquePart(provider="anthropic", data={**search, "input": {"query": "fog"}}),
        OpaquePart(
            provider="anthropic",
            data={"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
        ),
    )
    assert response.finish_reason is FinishReason.PAUSE
    assert response.usage.details == {"server_tool_use.web_search_requests": 1}


def test_a_block_still_open_when_the_stream_ends_is_kept() -> None:
    payloads = [
        start(),
        block_start(
            0, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
        ),
        delta(0, type="input_json_delta", partial_json='{"query": "f'),
    ]

    response = accumulate(decode_stream(payloads))

    assert response.message.parts == (
        OpaquePart(
            provider="anthropic",
            data={
                "type": "server_tool_use",
                "id": "srvtoolu_1",
                "name": "web_search",
                "input": '{"query": "f',
            },
        ),
    )
    assert response.finish_reason is None


def test_usage_in_message_delta_replaces_the_counts_of_message_start() -> None:
    payloads = [
        start(input_tokens=2247, output_tokens=26),
        finish("end_turn", input_tokens=2254, cache_creation_input_tokens=17269, output_tokens=110),
    ]

    response = accumulate(decode_stream(payloads))

    assert (response.usage.input_tokens, response.usage.cache_write_tokens) == (2254 + 17269, 17269)
    assert response.usage.output_tokens == 110


def test_null_usage_counts_in_message_delta_keep_the_counts_of_message_start() -> None:
    payloads = [
        start(input_tokens=2247, cache_read_input_tokens=100, output_tokens=1),
        finish(
            "end_turn",
            input_tokens=None,
            cache_creation_input_tokens=None,
            cache_read_input_tokens=None,
            output_tokens=110,
        ),
    ]

    response = accumulate(decode_stream(payloads))

    assert response.usage.input_tokens == 2247 + 100
    assert response.usage.cache_read_tokens == 100
    assert response.usage.output_tokens == 110


def test_message_delta_fields_beside_delta_and_usage_are_kept() -> None:
    edits = {"applied_edits": [{"type": "clear_tool_uses_20250919", "cleared_tool_uses": 2}]}
    payloads = [
        start(),
        block_start(0, {"type": "text", "text": "Hi"}),
        stop(0),
        {**finish("end_turn", output_tokens=2), "context_management": edits},
    ]

    response = accumulate(decode_stream(payloads))

    assert response.provider_data["anthropic"]["fields"]["context_management"] == edits
    assert encode_response(response)["context_management"] == edits


def test_a_message_delta_without_a_stop_reason_starts_nothing_new() -> None:
    payloads = [
        start(),
        {"type": "message_delta", "delta": {}, "usage": {"output_tokens": 5}},
        finish("end_turn", output_tokens=7),
    ]

    kinds = [event.type for event in decode_stream(payloads)]

    assert kinds == ["start", "usage", "usage", "usage", "finish"]


def test_a_null_usage_in_message_start_does_not_break_the_stream() -> None:
    first = start()
    first["message"]["usage"] = None
    payloads = [first, finish("end_turn", output_tokens=7)]

    response = accumulate(decode_stream(payloads))

    assert response.usage.output_tokens == 7


def test_a_thinking_block_cut_off_before_its_signature_has_none() -> None:
    payloads = [
        start(),
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        delta(0, type="thinking_delta", thinking="Let me see"),
    ]

    response = accumulate(decode_stream(payloads))

    assert response.message.parts == (
        ReasoningPart(text="Let me see", signature=None, provider="anthropic"),
    )


def test_a_server_tool_block_whose_json_deltas_are_empty_keeps_its_empty_input() -> None:
    search = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
    payloads = [
        start(),
        block_start(0, search),
        delta(0, type="input_json_delta", partial_json=""),
        delta(0, type="input_json_delta", partial_json=""),
        stop(0),
        finish("pause_turn", output_tokens=3),
    ]

    response = accumulate(decode_stream(payloads))

    assert response.message.parts == (OpaquePart(provider="anthropic", data=search),)


def test_a_held_block_whose_text_is_null_takes_its_text_deltas() -> None:
    block = {"type": "hologram", "text": None}
    payloads = [
        start(),
        block_start(0, block),
        delta(0, type="text_delta", text="shine"),
        stop(0),
        finish("end_turn", output_tokens=3),
    ]

    response = accumulate(decode_stream(payloads))

    assert response.message.parts == (
        OpaquePart(provider="anthropic", data={"type": "hologram", "text": "shine"}),
    )


def test_a_malformed_server_tool_input_is_flagged() -> None:
    search = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
    payloads = [
        start(),
        block_start(0, search),
        delta(0, type="input_json_delta", partial_json='{"query": "f'),
        stop(0),
        finish("max_tokens", output_tokens=3),
    ]

    response = accumulate(decode_stream(payloads))

    assert [(w.path, w.kind) for w in response.warnings] == [("message.parts[0]", "malformed")]
    assert response.message.parts[0].data["input"] == '{"query": "f'  # type: ignore[union-attr]


def test_unknown_event_and_delta_types_are_skipped() -> None:
    payloads = [
        start(),
        {"type": "message_ornament", "shine": True},
        block_start(0, {"type": "text", "text": "Hi"}),
        delta(0, type="sparkle_delta", sparkle=1),
        stop(0),
        finish("end_turn", output_tokens=1),
    ]

    response = accumulate(decode_stream(payloads))

    assert response.message.parts == (TextPart(text="Hi"),)


@pytest.mark.parametrize(
    ("event", "path"),
    [
        ({"index": 0}, "events[1].type"),
        (
            {"type": "content_block_delta", "index": 0, "delta": {"text": "x"}},
            "events[1].delta.type",
        ),
        (
            {"type": "content_block_delta", "delta": {"type": "text_delta", "text": "x"}},
            "events[1].index",
        ),
        (
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "tool_use", "input": {}},
            },
            "events[1].content_block.id",
        ),
        ({"type": "message_delta", "delta": {"stop_reason": 3}}, "events[1].stop_reason"),
    ],
)
def test_an_event_missing_a_required_field_raises_naming_its_path(
    event: dict[str, Any], path: str
) -> None:
    with pytest.raises(DecodeError) as raised:
        list(decode_stream([start(), event]))

    assert raised.value.path == path


# --- a stream re-chunked accumulates to the same response ---


def rechunked(payloads: list[dict[str, Any]], cuts: st.DataObject) -> list[dict[str, Any]]:
    """The stream with each block's text and JSON deltas joined and cut again elsewhere."""
    kinds = {"text_delta": "text", "input_json_delta": "partial_json"}
    joined: dict[tuple[int, str], str] = {}
    for payload in payloads:
        if payload["type"] == "content_block_delta" and payload["delta"]["type"] in kinds:
            key = (payload["index"], payload["delta"]["type"])
            joined[key] = joined.get(key, "") + payload["delta"][kinds[key[1]]]
    out: list[dict[str, Any]] = []
    for payload in payloads:
        if payload["type"] == "content_block_delta" and payload["delta"]["type"] in kinds:
            key = (payload["index"], payload["delta"]["type"])
            if key in joined:
                text = joined.pop(key)
                out += [
                    delta(key[0], **{"type": key[1], kinds[key[1]]: piece})
                    for piece in split(text, cuts)
                ]
            continue
        out.append(payload)
    return out


def split(text: str, cuts: st.DataObject) -> list[str]:
    points = sorted(cuts.draw(st.sets(st.integers(0, len(text)), max_size=6)))
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


@settings(max_examples=60, deadline=None)
@given(cuts=st.data())
def test_re_chunking_text_and_json_deltas_accumulates_to_the_same_response(
    cuts: st.DataObject,
) -> None:
    payloads = fixture_payloads()

    assert accumulate(decode_stream(rechunked(payloads, cuts))) == accumulate(
        decode_stream(payloads)
    )
