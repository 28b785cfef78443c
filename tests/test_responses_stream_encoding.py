"""The Responses API's `encode_stream` and `encode_error`: a gateway answering
in this API's format.

- Every recorded Responses stream, decoded and encoded again, accumulates to
  what the recording accumulates to, writes its items and final response
  exactly, and, where the core holds the stream's content whole, the same
  event types in the same order; the SSE bytes read back as the same events.
- The encoder is lazy: the first event leaves before the last one comes in.
- A recorded Anthropic or Chat Completions stream, encoded for the Responses
  API, accumulates to the same text, tool calls, usage and finish; what the
  Responses API cannot take is reported, and never sent as text.
- An error mid-stream ends the stream with the API's own failure event, which
  decodes back to the same error; `encode_error` of every recorded error
  answer decodes back to an equal error.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interlingua_anthropic
import interlingua_openai
import interlingua_openai.responses as responses
from conftest import (
    CORPUS,
    FIXTURES,
    MissingCorpus,
    answer_fields,
    corpus_id,
    corpus_params,
    from_corpus,
    same_json,
    usage_counts,
)
from interlingua import (
    AlternativeEvent,
    ChatResponse,
    ErrorEvent,
    FinishEvent,
    FinishReason,
    GatewayAdapter,
    Message,
    OverloadedError,
    PartEvent,
    ProviderConnectionError,
    ProviderError,
    RateLimitError,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    RefusalDelta,
    RefusalPart,
    ServerError,
    StreamError,
    StreamEvent,
    StreamStart,
    TextDelta,
    TextPart,
    TokenUsage,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    TranslationError,
    TranslationReport,
    UsageEvent,
    WireEvent,
    accumulate,
    format_sse,
    get_adapter,
    translate_stream,
)
from interlingua.testing import Interaction, load_cassette, parse_sse
from interlingua_openai.responses import PROVIDER

RESPONSES_PATH = "/v1/responses"


@functools.cache
def recorded_streams(path: Path) -> list[list[dict[str, Any]]]:
    """The payloads of each Responses stream a recording holds."""
    return [
        list(interaction.response.stream_payloads())
        for interaction in load_cassette(path).interactions
        if interaction.path == RESPONSES_PATH and interaction.is_stream
    ]


def one_summary_each(path: Path | MissingCorpus) -> bool:
    """Whether every reasoning item of the recording has at most one summary part:
    the core keeps several joined, and the stream writes them as one."""
    if isinstance(path, MissingCorpus):
        return True
    return all(
        len(item.get("summary", [])) <= 1
        for payloads in recorded_streams(path)
        for item in payloads[-1]["response"]["output"]
        if item["type"] == "reasoning"
    )


def stream_id(param: object) -> str | None:
    return corpus_id(param) or (param.name if isinstance(param, Path) else None)


STREAMS: list[Path | MissingCorpus] = [
    *corpus_params(
        "openai-responses",
        keep=lambda path: bool(recorded_streams(path)),
        holding="Responses streams",
    ),
    *(path for path in sorted((FIXTURES / "openai").glob("responses_*")) if recorded_streams(path)),
]
WHOLE = [path for path in STREAMS if one_summary_each(path)]


def streams_of(param: Path | MissingCorpus) -> list[list[dict[str, Any]]]:
    found = recorded_streams(from_corpus(param))
    assert found
    return found


def encoded(events: Iterable[StreamEvent], report: TranslationReport | None = None) -> list[Any]:
    """The payloads `encode_stream` writes, as JSON read back (nothing shared)."""
    wire = responses.encode_stream(events, report=TranslationReport() if report is None else report)
    return [json.loads(json.dumps(event.data)) for event in wire]


def of_type(payloads: list[Any], kind: str) -> list[Any]:
    return [payload for payload in payloads if payload["type"] == kind]


# What `response.created` holds of a response, whoever made the stream.
CREATED_FIELDS = {"id", "object", "created_at", "status", "model", "output", "usage"}
ITEM_PREFIXES = {"function_call": "fc_", "custom_tool_call": "ctc_", "reasoning": "rs_"}


def check_opened_as_the_api_opens(payloads: list[Any]) -> None:
    """`response.created` and `.in_progress` hold the response before any output,
    with only fields the final response has too."""
    created, in_progress = payloads[0], payloads[1]
    assert (created["type"], in_progress["type"]) == ("response.created", "response.in_progress")
    response = created["response"]
    assert set(response) >= CREATED_FIELDS
    assert response["object"] == "response"
    assert isinstance(response["created_at"], int)
    assert response["status"] == "in_progress"
    assert (response["output"], response["usage"]) == ([], None)
    assert in_progress["response"] == response
    final = payloads[-1]["response"]
    assert set(response) <= set(final)
    assert (response["id"], response["model"]) == (final["id"], final["model"])


def check_written_as_the_api_writes(payloads: list[Any]) -> None:
    """Numbered in order; opened as the API opens; each item done as it began,
    with the same id in every event of it, and as the final response holds it."""
    assert [p["sequence_number"] for p in payloads] == list(range(len(payloads)))
    if payloads[-1]["type"] != "error":
        check_opened_as_the_api_opens(payloads)
    added = of_type(payloads, "response.output_item.added")
    done = of_type(payloads, "response.output_item.done")
    assert [p["output_index"] for p in added] == [p["output_index"] for p in done]
    assert [p["output_index"] for p in added] == list(range(len(added)))
    assert [p["item"]["type"] for p in added] == [p["item"]["type"] for p in done]
    ids = {}
    for began, ended in zip(added, done, strict=True):
        kind = began["item"]["type"]
        assert began["item"].get("id") == ended["item"].get("id")
        if kind in ITEM_PREFIXES or kind == "message":
            assert began["item"]["id"].startswith(ITEM_PREFIXES.get(kind, "msg_"))
        if kind in ("function_call", "custom_tool_call"):
            assert began["item"]["call_id"] == ended["item"]["call_id"]
        ids[began["output_index"]] = began["item"].get("id")
    for payload in payloads:
        if "item_id" in payload:
            assert payload["item_id"] == ids[payload["output_index"]]
    assert [p["item"] for p in done] == payloads[-1]["response"]["output"]


# --- recorded Responses streams, through the core and back ---


@pytest.mark.parametrize("path", STREAMS, ids=stream_id)
def test_a_recorded_stream_encodes_to_one_that_accumulates_the_same(
    path: Path | MissingCorpus,
) -> None:
    for payloads in streams_of(path):
        report = TranslationReport(strict=True)
        written = encoded(responses.decode_stream(payloads), report)
        decoded_again = accumulate(responses.decode_stream(written))
        assert decoded_again == accumulate(responses.decode_stream(payloads))
        check_written_as_the_api_writes(written)
        # Opened with the response the API created, settings and all.
        assert same_json(written[0], payloads[0])
        assert same_json(written[1], payloads[1])
        assert same_json(written[-1], {**payloads[-1], "sequence_number": len(written) - 1})
        recorded_added = [p["item"] for p in of_type(payloads, "response.output_item.added")]
        written_added = [p["item"] for p in of_type(written, "response.output_item.added")]
        assert [(i["type"], i["id"]) for i in written_added] == [
            (i["type"], i["id"]) for i in recorded_added
        ]
        for item, recorded in zip(written_added, recorded_added, strict=True):
            if item["type"] == "function_call":
                assert same_json(item, recorded)
        recorded_items = [p["item"] for p in of_type(payloads, "response.output_item.done")]
        assert [p["item"] for p in of_type(written, "response.output_item.done")] == recorded_items


@pytest.mark.parametrize("path", WHOLE, ids=stream_id)
def test_the_event_types_come_in_the_order_the_api_sends_them(path: Path | MissingCorpus) -> None:
    for payloads in streams_of(path):
        written = encoded(responses.decode_stream(payloads))
        assert [p["type"] for p in written] == [p["type"] for p in payloads]


def test_several_summary_parts_are_streamed_as_one() -> None:
    recording = FIXTURES / "openai" / "responses_stream_reasoning.json"
    assert not one_summary_each(recording)
    (payloads,) = recorded_streams(recording)
    written = encoded(responses.decode_stream(payloads))
    reasoning = [p["type"] for p in written if p.get("output_index") == 0]
    assert reasoning == [
        "response.output_item.added",
        "response.reasoning_summary_part.added",
        *["response.reasoning_summary_text.delta"] * 6,  # the blank line between them is one
        "response.reasoning_summary_text.done",
        "response.reasoning_summary_part.done",
        "response.output_item.done",
    ]
    done = of_type(written, "response.output_item.done")[0]["item"]
    assert len(done["summary"]) == 2
    assert done["encrypted_content"].startswith("gAAAAA")
    added = of_type(written, "response.output_item.added")[0]["item"]
    assert added == {"type": "reasoning", "summary": [], "id": done["id"]}


@pytest.mark.parametrize("path", STREAMS, ids=stream_id)
def test_the_sse_bytes_read_back_as_the_same_events(path: Path | MissingCorpus) -> None:
    for payloads in streams_of(path):
        events = list(responses.encode_stream(responses.decode_stream(payloads)))
        text = b"".join(format_sse(events)).decode()
        assert [(e.event, json.loads(e.data)) for e in parse_sse(text)] == [
            (e.event, e.data) for e in events
        ]
        assert all(isinstance(e.data, dict) and e.event == e.data["type"] for e in events)


def test_the_first_event_leaves_before_the_last_one_comes_in() -> None:
    (payloads,) = recorded_streams(FIXTURES / "openai" / "responses_stream_reasoning.json")
    taken: list[int] = []

    def arriving() -> Iterator[dict[str, Any]]:
        for number, payload in enumerate(payloads):
            taken.append(number)
            yield payload

    stream = responses.encode_stream(responses.decode_stream(arriving()))
    assert taken == []
    first = next(stream)
    assert first.event == "response.created"
    assert taken == [0]
    for event in stream:
        if event.event == "response.output_text.delta":
            break
    assert len(taken) < len(payloads)


# --- streams from other APIs ---

OTHER_APIS: dict[str, tuple[str, str, ModuleType]] = {
    "anthropic": ("anthropic", "/v1/messages", interlingua_anthropic),
    "openai-chat": ("openai", "/v1/chat/completions", interlingua_openai),
}


def api_of(path: Path) -> str:
    """The corpus folder, named after the API, a recording is in."""
    return path.relative_to(CORPUS).parts[0]


def other_streams(path: Path) -> list[Interaction]:
    provider, endpoint, _ = OTHER_APIS[api_of(path)]
    return [
        interaction
        for interaction in load_cassette(path).for_provider(provider)
        if interaction.path == endpoint
        and interaction.is_stream
        and interaction.response.status < 400
    ]


OTHER_STREAMS = [
    param
    for folder in OTHER_APIS
    for param in corpus_params(
        folder, pattern="*.yaml", keep=lambda path: bool(other_streams(path)), holding="streams"
    )
]


def facts(response: ChatResponse) -> dict[str, Any]:
    usage = response.usage
    return {
        "text": response.text,
        "calls": [(call.name, call.arguments) for call in response.message.tool_calls],
        "usage": usage_counts(usage),
        "finish": response.finish_reason,
    }


@pytest.mark.parametrize("path", OTHER_STREAMS, ids=corpus_id)
def test_a_stream_of_another_api_accumulates_to_the_same_answer(
    path: Path | MissingCorpus,
) -> None:
    recording = from_corpus(path)
    _, _, codec = OTHER_APIS[api_of(recording)]
    for interaction in other_streams(recording):
        payloads = interaction.response.stream_payloads()
        source = accumulate(codec.decode_stream(payloads))
        report = TranslationReport()
        written = encoded(codec.decode_stream(payloads), report)
        assert facts(accumulate(responses.decode_stream(written))) == facts(source)
        check_written_as_the_api_writes(written)
        left_out = {f"message.parts[{k}]": part for k, part in enumerate(source.message.parts)}
        answer = {loss.path for loss in report.losses if loss.path.startswith("provider_data.")}
        assert answer == answer_fields(source)  # the other API's answer's own fields, by name
        for loss in report.losses:
            assert loss.kind == "dropped"
            if loss.path in answer:
                continue
            if loss.path.startswith("usage.details."):  # the other API's own breakdown
                assert source.usage.details[loss.path.removeprefix("usage.details.")]
                continue
            part_path, _, wire_field = loss.path.partition(".provider_data.")
            if wire_field:  # a field of the source API's, by name
                provider, _, key = wire_field.partition(".fields.")
                assert key in left_out[part_path].provider_data[provider]["fields"]
            else:
                assert left_out[loss.path].type in ("reasoning", "opaque")
        sent = json.dumps(written)
        for part in source.message.reasoning:
            assert not part.text or part.text not in sent, "reasoning sent as text"


def test_the_gateway_translates_a_stream_into_this_api() -> None:
    assert isinstance(get_adapter("openai-responses"), GatewayAdapter)
    events = [
        {"type": "message_start", "message": {"id": "msg_01Xq", "model": "claude", "usage": {}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {}},
        {"type": "message_stop"},
    ]
    written = [
        event.data
        for event in translate_stream(events, source="anthropic", target="openai-responses")
    ]
    assert [p["type"] for p in written] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert written[4]["delta"] == "Hi"
    final = written[-1]["response"]
    # An id in this API's form, derived from Anthropic's: the same answer, the same id.
    assert re.fullmatch(r"resp_[0-9a-f]{50}", final["id"])
    again = translate_stream(events, source="anthropic", target="openai-responses")
    assert [event.data["response"]["id"] for event in again if "response" in event.data] == [
        final["id"]
    ] * 3
    # Anthropic's stream says not when it was made: the time of writing.
    assert abs(final["created_at"] - time.time()) < 60
    # Opened as the API opens a response: what is known of it, nothing output yet,
    # and the settings every response echoes (their defaults: the request is not here).
    assert (
        written[0]["response"]
        == written[1]["response"]
        == {
            "id": final["id"],
            "object": "response",
            "created_at": final["created_at"],
            "status": "in_progress",
            "model": "claude",
            "output": [],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": None,
        }
    )
    # The message item gets the id `encode_response` gives it, from its start.
    assert final["output"][0]["id"] == written[2]["item"]["id"]
    assert re.fullmatch(r"msg_[0-9a-f]{50}", final["output"][0]["id"])


# --- what the wire cannot take, reported once ---


def test_reasoning_of_another_provider_is_left_out_and_reported_once() -> None:
    events: list[StreamEvent] = [
        StreamStart(id="msg_1", model="claude", provider="anthropic"),
        ReasoningDelta(index=0, text="Let me think.", provider="anthropic"),
        ReasoningSignature(index=0, signature="sig", provider="anthropic"),
        TextDelta(index=1, text="Hello"),
        FinishEvent(finish_reason=FinishReason.STOP),
    ]
    report = TranslationReport()
    written = encoded(events, report)
    assert "think" not in json.dumps(written)
    assert not [p for p in written if "reasoning" in p["type"]]
    assert [(loss.path, loss.kind) for loss in report.losses] == [("message.parts[0]", "dropped")]
    with pytest.raises(TranslationError):
        # Strict: raised when the part is met, before the answer is written.
        next(
            e
            for e in responses.encode_stream(events, report=TranslationReport(strict=True))
            if e.event == "response.output_text.delta"
        )


def test_calls_started_together_stream_side_by_side() -> None:
    events: list[StreamEvent] = [
        ToolCallStart(index=0, id="call_1", name="a"),
        ToolCallStart(index=1, id="call_2", name="b"),
        ToolCallDelta(index=0, arguments='{"x":1}'),
        ToolCallDelta(index=1, arguments='{"y":2}'),
        FinishEvent(finish_reason=FinishReason.TOOL_CALLS),
    ]
    report = TranslationReport()
    written = encoded(events, report)
    assert [(p["type"], p.get("output_index")) for p in written[2:-1]] == [
        ("response.output_item.added", 0),
        ("response.output_item.added", 1),
        ("response.function_call_arguments.delta", 0),
        ("response.function_call_arguments.delta", 1),
        ("response.function_call_arguments.done", 0),
        ("response.output_item.done", 0),
        ("response.function_call_arguments.done", 1),
        ("response.output_item.done", 1),
    ]
    assert report.losses == []
    check_written_as_the_api_writes(written)
    back = accumulate(responses.decode_stream(written))
    assert facts(back) == facts(accumulate(events))


def test_a_call_made_elsewhere_gets_an_item_id_derived_from_its_call_id() -> None:
    payloads = [
        {"type": "message_start", "message": {"id": "msg_01", "model": "claude", "usage": {}}},
        *(
            event
            for index, call_id in enumerate(["toolu_01A", "toolu_01B"])
            for event in (
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "tool_use", "id": call_id, "name": "f", "input": {}},
                },
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": '{"n":1}'},
                },
                {"type": "content_block_stop", "index": index},
            )
        ),
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {}},
        {"type": "message_stop"},
    ]
    written = encoded(interlingua_anthropic.decode_stream(payloads))
    check_written_as_the_api_writes(written)
    added = [p["item"] for p in of_type(written, "response.output_item.added")]
    assert [item["call_id"] for item in added] == ["toolu_01A", "toolu_01B"]
    first, second = (item["id"] for item in added)
    assert first != second
    assert all(re.fullmatch(r"fc_[0-9a-f]{50}", item_id) for item_id in (first, second))
    assert [p["item_id"] for p in of_type(written, "response.function_call_arguments.delta")] == [
        first,
        second,
    ]
    assert [item["id"] for item in written[-1]["response"]["output"]] == [first, second]
    # The same call gets the same id, wherever it stands in the answer.
    alone = encoded(interlingua_anthropic.decode_stream([*payloads[:1], *payloads[4:]]))
    assert [item["id"] for item in alone[-1]["response"]["output"]] == [second]
    # Decoded again, each call keeps its id and call id.
    calls = accumulate(responses.decode_stream(written)).message.tool_calls
    assert [(call.id, call.provider_data[PROVIDER]["fields"]["id"]) for call in calls] == [
        ("toolu_01A", first),
        ("toolu_01B", second),
    ]


def test_what_a_stream_cannot_say_is_reported_never_a_crash() -> None:
    # A spoken answer (Chat Completions' `audio`): no part the Responses API streams.
    (audio,) = interlingua_openai.decode_response(
        {
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "audio": {"id": "a1", "data": "AAA=", "transcript": "Hi"},
                    },
                    "finish_reason": "stop",
                }
            ]
        }
    ).message.parts
    events: list[StreamEvent] = [
        TextDelta(index=0, text="Checking"),
        ToolCallStart(index=0, id="call_1", name="a", arguments="{}"),
        TextDelta(index=0, text=" the weather."),  # after its item was done
        PartEvent(index=9, part=audio),
        AlternativeEvent(index=1, response=ChatResponse(message=Message.assistant("Other"))),
        FinishEvent(finish_reason=FinishReason.TOOL_CALLS),
    ]
    report = TranslationReport()
    written = encoded(events, report)
    back = accumulate(responses.decode_stream(written))
    assert facts(back) == facts(accumulate(events))
    assert back.text == "Checking the weather."
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("message.parts[0]", "transformed"),
        ("message.parts[2]", "dropped"),
        ("alternatives[0]", "dropped"),
    ]


def test_a_custom_tool_call_streams_its_input() -> None:
    call = {"type": "custom_tool_call", "id": "ctc_1", "status": "completed"}
    call |= {"call_id": "call_7", "name": "sql", "input": "SELECT 1"}
    response = {"id": "resp_1", "object": "response", "model": "gpt-5", "status": "completed"}
    payloads = [
        {
            "type": "response.created",
            "response": {**response, "status": "in_progress", "output": []},
        },
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**call, "status": "in_progress", "input": ""},
        },
        {"type": "response.custom_tool_call_input.delta", "output_index": 0, "delta": "SELECT 1"},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.completed", "response": {**response, "output": [call]}},
    ]
    written = encoded(responses.decode_stream(payloads))
    assert [p["type"] for p in written[2:-1]] == [
        "response.output_item.added",
        "response.custom_tool_call_input.delta",
        "response.custom_tool_call_input.done",
        "response.output_item.done",
    ]
    assert written[2]["item"]["input"] == ""
    assert written[4]["input"] == "SELECT 1"
    assert written[5]["item"] == call
    assert accumulate(responses.decode_stream(written)) == accumulate(
        responses.decode_stream(payloads)
    )


def test_a_length_finish_ends_the_stream_incomplete() -> None:
    events: list[StreamEvent] = [
        StreamStart(id="chatcmpl-1", model="gpt-4o", provider="openai"),
        TextDelta(text="Half"),
        FinishEvent(finish_reason=FinishReason.LENGTH, raw_finish_reason="length"),
        UsageEvent(usage=TokenUsage(input_tokens=3, output_tokens=16)),
    ]
    written = encoded(events)
    assert written[-1]["type"] == "response.incomplete"
    assert written[-1]["response"]["incomplete_details"] == {"reason": "max_output_tokens"}
    back = accumulate(responses.decode_stream(written))
    assert (back.text, back.finish_reason, back.usage.total_tokens) == (
        "Half",
        FinishReason.LENGTH,
        19,
    )


# --- errors ---


def described(error: ProviderError | None) -> tuple[Any, ...]:
    assert error is not None
    return (type(error), error.status, error.message, error.type, error.code)


def failure(written: list[Any]) -> StreamError:
    with pytest.raises(StreamError) as raised:
        accumulate(responses.decode_stream(written))
    return raised.value


def test_an_error_of_another_api_mid_stream_ends_it_as_a_failed_response() -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    payloads = [
        {"type": "message_start", "message": {"id": "msg_1", "model": "claude", "usage": {}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
        overloaded,
        {"type": "content_block_stop", "index": 0},
    ]
    with pytest.raises(StreamError) as source:
        accumulate(interlingua_anthropic.decode_stream(payloads))
    written = encoded(interlingua_anthropic.decode_stream(payloads))
    assert [p["type"] for p in written][-1] == "response.failed"
    # A code of this API's (the SDK's `ResponseError` takes no other), Anthropic's type beside.
    assert written[-1]["response"]["error"] == {
        "code": "server_error",
        "message": "Overloaded",
        "type": "overloaded_error",
    }
    assert written[-1]["response"]["status"] == "failed"
    failed, recorded = failure(written), source.value
    assert type(failed.error) is type(recorded.error) is OverloadedError
    assert failed.error.message == recorded.error.message == "Overloaded"
    assert failed.error.type == recorded.error.type
    assert failed.partial is not None
    assert failed.partial.text == "Hi"


def test_this_apis_own_error_event_goes_back_as_it_came() -> None:
    (payloads,) = recorded_streams(FIXTURES / "openai" / "responses_stream_reasoning.json")
    error = {
        "type": "error",
        "code": "rate_limit_exceeded",
        "message": "Rate limit reached",
        "param": None,
        "sequence_number": 20,
    }
    cut = [*payloads[:20], error, *payloads[20:]]
    written = encoded(responses.decode_stream(cut))
    assert written[-1] == {**error, "sequence_number": len(written) - 1}
    source, again = failure(cut).error, failure(written).error
    assert type(again) is type(source) is RateLimitError
    assert described(again) == described(source)


def test_a_failed_response_goes_back_as_it_came() -> None:
    (payloads,) = recorded_streams(FIXTURES / "openai" / "responses_stream_reasoning.json")
    failed = {
        **payloads[-1]["response"],
        "status": "failed",
        "error": {"code": "server_error", "message": "The server had an error"},
    }
    cut = [*payloads[:-1], {"type": "response.failed", "response": failed, "sequence_number": 99}]
    written = encoded(responses.decode_stream(cut))
    assert written[-1]["type"] == "response.failed"
    assert same_json(written[-1]["response"], failed)
    error = failure(written).error
    assert type(error) is ServerError
    assert error.message == "The server had an error"


ERROR_SOURCES: dict[str, tuple[str, str, ModuleType]] = {
    **OTHER_APIS,
    "openai-responses": ("openai", RESPONSES_PATH, responses),
}


def error_answers(path: Path) -> list[Interaction]:
    provider, endpoint, _ = ERROR_SOURCES[api_of(path)]
    return [
        interaction
        for interaction in load_cassette(path).for_provider(provider)
        if interaction.path == endpoint and interaction.response.status >= 400
    ]


ERROR_ANSWERS = [
    param
    for folder in ERROR_SOURCES
    for param in corpus_params(
        folder, pattern="*.yaml", keep=lambda path: bool(error_answers(path)), holding="errors"
    )
]


@pytest.mark.parametrize("path", ERROR_ANSWERS, ids=corpus_id)
def test_every_recorded_error_answer_encodes_to_one_that_decodes_the_same(
    path: Path | MissingCorpus,
) -> None:
    recording = from_corpus(path)
    folder = api_of(recording)
    _, _, codec = ERROR_SOURCES[folder]
    for interaction in error_answers(recording):
        status = interaction.response.status
        error = codec.decode_error(status, interaction.response.body)
        written = responses.encode_error(error)
        assert described(responses.decode_error(*written)) == described(error)
        if folder.startswith("openai"):
            assert same_json(written, [status, interaction.response.json])


@pytest.mark.parametrize(
    ("error", "status", "decoded"),
    [
        (
            OverloadedError("Overloaded", provider="anthropic", type="overloaded_error"),
            503,
            OverloadedError,
        ),
        (
            RateLimitError("Slow down", provider="groq", code="rate_limit_exceeded"),
            429,
            RateLimitError,
        ),
        (ProviderConnectionError("No answer", provider="openai"), 502, ServerError),
        (ProviderError("Odd", provider="mistral"), 500, ServerError),
    ],
)
def test_an_error_without_a_status_gets_the_one_its_class_stands_for(
    error: ProviderError, status: int, decoded: type[ProviderError]
) -> None:
    written = responses.encode_error(error)
    assert written == (
        status,
        {
            "error": {
                "message": error.message,
                "type": error.type,
                "param": None,
                "code": error.code,
            }
        },
    )
    assert type(responses.decode_error(*written)) is decoded


def test_an_error_event_of_this_api_keeps_its_param() -> None:
    event = ErrorEvent.from_error(
        responses.decode_error(
            None, {"type": "error", "code": "invalid_prompt", "message": "No", "param": "input"}
        )
    )
    status, body = responses.encode_error(event.to_error())
    assert (status, body["error"]["param"], body["error"]["code"]) == (
        500,
        "input",
        "invalid_prompt",
    )


def test_encode_stream_takes_any_iterable_and_writes_wire_events() -> None:
    written = list(responses.encode_stream(iter([TextDelta(text="Hi")])))
    assert all(isinstance(event, WireEvent) for event in written)
    first = written[0].data
    assert isinstance(first, dict)
    assert first["response"]["usage"] is None
    assert written[-1].event == "response.completed"


# --- any stream ---

chunks = st.lists(st.text(max_size=5), max_size=4)
parts = st.one_of(
    st.tuples(st.sampled_from(["text", "refusal"]), chunks),
    st.tuples(st.just("reasoning"), chunks, st.sampled_from([PROVIDER, "anthropic"])),
    st.tuples(st.just("call"), chunks, st.booleans()),
)


def core_events(drawn: list[tuple[Any, ...]]) -> list[StreamEvent]:
    """A stream of the drawn parts, each at its own index; calls drawn `True`
    start together with the call before them, all before any arguments."""
    events: list[StreamEvent] = [StreamStart(id="r1", model="m", provider="x")]
    calls: list[list[StreamEvent]] = []  # started together: each one's start and deltas

    def flush() -> None:
        events.extend(call[0] for call in calls)
        events.extend(delta for call in calls for delta in call[1:])
        calls.clear()

    for index, (kind, pieces, *extra) in enumerate(drawn):
        if kind != "call" or not extra[0]:
            flush()
        match kind:
            case "call":
                start = ToolCallStart(index=index, id=f"call_{index}", name="f")
                calls.append([start, *(ToolCallDelta(index=index, arguments=p) for p in pieces)])
            case "reasoning":
                events += [ReasoningDelta(index=index, text=p, provider=extra[0]) for p in pieces]
                events.append(ReasoningSignature(index=index, signature="sig", provider=extra[0]))
            case _:
                delta = TextDelta if kind == "text" else RefusalDelta
                events += [delta(index=index, text=p) for p in ["", *pieces]]
    flush()
    return [*events, FinishEvent(finish_reason=FinishReason.STOP)]


def kept_here(response: ChatResponse) -> list[tuple[Any, ...]]:
    """What the Responses API takes of an answer, part by part: text, refusals
    and calls, and its own reasoning with its signature (empty text left out)."""
    kept: list[tuple[Any, ...]] = []
    for part in response.message.parts:
        match part:
            case ToolCallPart():
                kept.append((part.id, part.name, part.arguments))
            case ReasoningPart() if part.provider == PROVIDER:
                kept.append((part.type, part.text, part.signature))
            case TextPart() | RefusalPart() if part.text:
                kept.append((part.type, part.text))
    return kept


@settings(max_examples=100)
@given(st.lists(parts, max_size=6))
def test_any_stream_is_written_so_that_it_accumulates_the_same(
    drawn: list[tuple[Any, ...]],
) -> None:
    events = core_events(drawn)
    report = TranslationReport()
    written = encoded(events, report)
    check_written_as_the_api_writes(written)
    back = accumulate(responses.decode_stream(written))
    source = accumulate(events)
    assert kept_here(back) == kept_here(source)
    assert {loss.kind for loss in report.losses} <= {"dropped"}
