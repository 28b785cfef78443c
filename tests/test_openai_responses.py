"""The Responses API codec: input items grouped into turns and back, output items
to one assistant message and back, reasoning (summary and encrypted content)
kept for the Responses API alone, and streams accumulated to the response
`response.completed` carries."""

from __future__ import annotations

import copy
import itertools
import json
import re
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.responses import Response

from conftest import (
    FIXTURES,
    assert_sent_as_recorded,
    in_order,
    poison,
    recorded,
    round_trip_sharing_nothing,
    same_json,
)
from interlingua import (
    ChatRequest,
    ChatResponse,
    DecodeError,
    ErrorEvent,
    FilePart,
    FinishEvent,
    FinishReason,
    InvalidDataError,
    InvocationContext,
    Message,
    OpaquePart,
    PartDataEvent,
    RateLimitError,
    ReasoningConfig,
    ReasoningPart,
    RefusalPart,
    ResponseFormat,
    ServerError,
    StreamError,
    StreamStart,
    TextPart,
    TokenUsage,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
    TranslationError,
    TranslationLoss,
    TranslationReport,
    UsageEvent,
    accumulate,
)
from interlingua.testing import load_cassette
from interlingua_openai.responses import (
    PROVIDER,
    OpenAIResponsesClient,
    ResponsesStreamDecoder,
    decode_error,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
)

# A request with `parallel_tool_calls: false` and no tools, answered 200.
WITHOUT_TOOLS = "openai/responses_parallel_tool_calls_without_tools.json"
ENCRYPTED = "gAAAAABp9Qx3Lw7KpT2mVb9RcK4wZs1HnD8PeYx5QaN3uJ6sF0gE2iB7oC4dH1kM8tR5v"
REASONING_ITEM = {
    "id": "rs_068a2c5e9f1b3d7a",
    "type": "reasoning",
    "encrypted_content": ENCRYPTED,
    "summary": [{"type": "summary_text", "text": "**Checking**\n\nCall get_weather."}],
}
CALL_ITEM = {
    "id": "fc_068a2c5e9f1b3d7a",
    "type": "function_call",
    "status": "completed",
    "arguments": '{"city":"Lisbon"}',
    "call_id": "call_Qm4Tz8Lx2Vb6Kc1Wn9Rp5Hs3",
    "name": "get_weather",
}
MESSAGE_ITEM = {
    "id": "msg_068a2c5e9f1b3d7a",
    "type": "message",
    "status": "completed",
    "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": "Light rain."}],
    "role": "assistant",
}
CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "The current weather in a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
    "strict": True,
}

HISTORY: dict[str, Any] = {
    "model": "gpt-5-mini",
    "instructions": "You answer weather questions in one sentence.",
    "input": [
        {"role": "developer", "content": "Use metric units."},
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "Rain in Lisbon? See the map."},
                {
                    "type": "input_image",
                    "image_url": "https://example.com/map.png",
                    "detail": "high",
                },
                {"type": "input_file", "file_id": "file-6F2ksmvXxt4VdoqmHRw6kL"},
            ],
        },
        REASONING_ITEM,
        CALL_ITEM,
        {
            "type": "function_call_output",
            "call_id": CALL_ITEM["call_id"],
            "output": "Light rain, 14 C",
        },
        MESSAGE_ITEM,
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Thanks"}]},
        {
            "type": "web_search_call",
            "id": "ws_1",
            "status": "completed",
            "action": {"type": "search", "query": "x"},
        },
    ],
    "tools": [TOOL, {"type": "web_search"}],
    "tool_choice": {"type": "function", "name": "get_weather"},
    "parallel_tool_calls": False,
    "max_output_tokens": 500,
    "temperature": 1,
    "top_p": 0.9,
    "reasoning": {"effort": "low", "summary": "auto"},
    "text": {
        "format": {
            "type": "json_schema",
            "name": "answer",
            "schema": {"type": "object"},
            "strict": True,
        },
        "verbosity": "low",
    },
    "include": ["reasoning.encrypted_content"],
    "store": False,
    "previous_response_id": "resp_0ac6a4d9",
    "stream": False,
    "truncation": "auto",
}


def response_body(
    output: list[dict[str, Any]], status: str = "completed", **fields: Any
) -> dict[str, Any]:
    return {
        "id": "resp_068a2c5e9f1b3d7a",
        "object": "response",
        "created_at": 1780313220,
        "status": status,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "model": "gpt-5-mini-2025-08-07",
        "output": output,
        "parallel_tool_calls": True,
        "reasoning": {"effort": "low", "summary": "detailed"},
        "store": False,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "usage": {
            "input_tokens": 92,
            "input_tokens_details": {"cached_tokens": 64},
            "output_tokens": 151,
            "output_tokens_details": {"reasoning_tokens": 128},
            "total_tokens": 243,
        },
        **fields,
    }


def test_a_whole_history_decodes_and_encodes_back_exactly() -> None:
    request = decode_request(HISTORY)
    report = TranslationReport()
    assert encode_request(request, report=report) == HISTORY
    assert report.losses == []


def test_the_history_is_grouped_into_turns() -> None:
    request = decode_request(HISTORY)
    instructions, developer, user, model, results, answer, thanks, search = request.messages
    assert instructions.role == "system"
    assert instructions.text == "You answer weather questions in one sentence."
    assert developer.role == "system"
    assert developer.provider_data == {PROVIDER: {"fields": {"role": "developer"}}}
    assert user.parts[1] == FilePart(
        media_type="image/png", url="https://example.com/map.png", detail="high"
    )
    assert user.parts[2].file_id == "file-6F2ksmvXxt4VdoqmHRw6kL"  # type: ignore[union-attr]
    reasoning, call = model.parts
    assert reasoning == ReasoningPart(
        text="**Checking**\n\nCall get_weather.",
        signature=ENCRYPTED,
        provider=PROVIDER,
        provider_data={PROVIDER: {"fields": {"id": "rs_068a2c5e9f1b3d7a"}}},
    )
    assert call == ToolCallPart(
        id="call_Qm4Tz8Lx2Vb6Kc1Wn9Rp5Hs3",
        name="get_weather",
        arguments='{"city":"Lisbon"}',
        provider_data={PROVIDER: {"fields": {"id": "fc_068a2c5e9f1b3d7a", "status": "completed"}}},
    )
    assert results.parts == (
        ToolResultPart(
            tool_call_id=CALL_ITEM["call_id"], content=(TextPart(text="Light rain, 14 C"),)
        ),
    )
    assert answer.text == "Light rain."
    assert thanks.text == "Thanks"
    assert search == Message.assistant(OpaquePart(provider=PROVIDER, data=HISTORY["input"][-1]))
    assert request.tools == (
        ToolSpec(
            name="get_weather",
            description=TOOL["description"],
            parameters=TOOL["parameters"],
            strict=True,
        ),
    )
    assert request.tool_choice == ToolChoice.tool("get_weather")
    assert request.reasoning == ReasoningConfig(effort="low", summary="auto")
    assert request.response_format == ResponseFormat(
        type="json_schema", name="answer", json_schema={"type": "object"}, strict=True
    )
    assert (request.max_tokens, request.temperature, request.stream) == (500, 1, False)
    assert request.options_for(PROVIDER) == {
        # The list in its order, each function tool as its spec's name.
        "tools": ["get_weather", HISTORY["tools"][1]],
        "text": {"verbosity": "low"},
        "include": ["reasoning.encrypted_content"],
        "store": False,
        "previous_response_id": "resp_0ac6a4d9",
        "truncation": "auto",
        "stream": False,
    }


@pytest.mark.parametrize(
    "fields",
    [
        {"input": "Just a string"},
        {"input": []},
        {
            "input": [
                {"role": "user", "content": "a"},
                {"role": "assistant", "content": "b"},
                {"role": "assistant", "content": "c"},
            ]
        },
        {
            "input": [
                CALL,
                {
                    "type": "function_call_output",
                    "call_id": "c1",
                    "output": [{"type": "input_text", "text": "x"}],
                },
            ]
        },
        {
            "input": [
                {
                    "type": "function_call_output",
                    "call_id": "c1",
                    "output": [{"type": "input_image", "image_url": "data:image/png;base64,AA=="}],
                }
            ],
            "previous_response_id": "resp_1",
        },
        {
            "input": [
                {"type": "custom_tool_call", "call_id": "c1", "name": "sql", "input": "SELECT 1"},
                {"type": "custom_tool_call_output", "call_id": "c1", "output": "1"},
            ]
        },
        {
            "input": [
                {
                    "type": "reasoning",
                    "id": "rs_1",
                    "summary": [
                        {"type": "summary_text", "text": "a"},
                        {"type": "summary_text", "text": "b"},
                    ],
                }
            ]
        },
        {"input": [{"type": "item_reference", "id": "msg_1"}]},
        {"reasoning": {"effort": None}},
        {"reasoning": {"summary": "concise"}},
        {"text": {"format": {"type": "json_object"}}},
        {"tool_choice": "required", "tools": [TOOL]},
        {"tool_choice": {"type": "web_search"}},
        {"instructions": None},
        {"stream": True},
    ],
    ids=lambda fields: ",".join(fields) + ":" + str(next(iter(fields.values())))[:30],
)
def test_each_request_form_goes_back_as_it_came(fields: dict[str, Any]) -> None:
    body = {"model": "gpt-5-mini", **fields}
    assert encode_request(decode_request(body)) == body


def test_an_unknown_part_of_a_tool_output_is_kept_whole() -> None:
    video = {"type": "input_video", "video_url": "https://example.com/v.mp4"}
    body = {
        "model": "gpt-5-mini",
        "input": [CALL, {"type": "function_call_output", "call_id": "c1", "output": [video]}],
    }
    request = decode_request(body)
    assert request.messages[1].tool_results[0].content == (
        OpaquePart(provider=PROVIDER, data=video),
    )
    assert encode_request(request) == body


def test_reasoning_and_calls_decode_and_encode_back_exactly() -> None:
    body = response_body([REASONING_ITEM, CALL_ITEM])
    response = decode_response(body)
    assert [part.type for part in response.message.parts] == ["reasoning", "tool_call"]
    assert response.message.reasoning[0].signature == ENCRYPTED
    assert (response.finish_reason, response.raw_finish_reason) == (
        FinishReason.TOOL_CALLS,
        "completed",
    )
    assert (
        response.usage.input_tokens,
        response.usage.cache_read_tokens,
        response.usage.reasoning_tokens,
    ) == (92, 64, 128)
    assert encode_response(response) == body


# The chain of thought in `content` and no summary (DeepSeek, gpt-oss): the
# part's text is the content; a summary, when there is one, is the text.
CHAIN = "The user asks for 2+2."
THOUGHT_ITEMS = [
    {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [],
        "content": [{"type": "reasoning_text", "text": CHAIN}],
    },
    {
        "type": "reasoning",
        "id": "rs_2",
        "summary": [],
        "content": [
            {"type": "reasoning_text", "text": "One."},
            {"type": "reasoning_text", "text": "Two."},
        ],
    },
    {
        "type": "reasoning",
        "id": "rs_3",
        "summary": [{"type": "summary_text", "text": "Adding."}],
        "content": [{"type": "reasoning_text", "text": CHAIN}],
    },
    {"type": "reasoning", "id": "rs_4", "summary": [], "content": []},
]


def test_a_chain_of_thought_in_content_is_the_reasoning_text() -> None:
    body = response_body(THOUGHT_ITEMS)
    response = decode_response(body)
    assert [part.text for part in response.message.reasoning] == [
        CHAIN,
        "One.\n\nTwo.",
        "Adding.",
        "",
    ]
    assert same_json(encode_response(response), body)
    request = ChatRequest(model="gpt-oss-120b", messages=(Message.user("2+2?"), response.message))
    sent = encode_request(request, report=TranslationReport(strict=True))["input"]
    assert sent[1:] == THOUGHT_ITEMS


def test_the_output_goes_back_as_input_unchanged() -> None:
    response = decode_response(response_body([REASONING_ITEM, CALL_ITEM]))
    answer = Message.tool_result(CALL_ITEM["call_id"], "Light rain")
    request = ChatRequest(
        model="gpt-5-mini",
        messages=(Message.user("Rain in Lisbon?"), response.message, answer),
    )
    assert encode_request(request, report=TranslationReport(strict=True))["input"] == [
        {"role": "user", "content": "Rain in Lisbon?"},
        REASONING_ITEM,
        CALL_ITEM,
        {"type": "function_call_output", "call_id": CALL_ITEM["call_id"], "output": "Light rain"},
    ]


def test_a_history_the_responses_api_would_reject_is_refused_before_sending() -> None:
    call = Message.assistant(ToolCallPart(id="call_1", name="f", arguments="{}"))
    with pytest.raises(InvalidDataError) as caught:
        encode_request(ChatRequest(model="gpt-5-mini", messages=(Message.user("Hi"), call)))
    assert caught.value.path == "messages[1].parts[0]"
    orphan = (Message.tool_result("call_0", "ok"),)
    with pytest.raises(InvalidDataError, match="answers no open tool call"):
        encode_request(ChatRequest(model="gpt-5-mini", messages=orphan))
    continued = ChatRequest(
        model="gpt-5-mini",
        messages=orphan,
        provider_options={PROVIDER: {"previous_response_id": "resp_1"}},
    )
    assert encode_request(continued)["input"] == [
        {"type": "function_call_output", "call_id": "call_0", "output": "ok"}
    ]


@pytest.mark.parametrize(
    ("status", "details", "reason", "raw"),
    [
        ("completed", None, FinishReason.STOP, "completed"),
        ("incomplete", {"reason": "max_output_tokens"}, FinishReason.LENGTH, "max_output_tokens"),
        ("incomplete", {"reason": "content_filter"}, FinishReason.CONTENT_FILTER, "content_filter"),
        ("failed", None, FinishReason.ERROR, "failed"),
        ("cancelled", None, FinishReason.OTHER, "cancelled"),
        ("in_progress", None, None, "in_progress"),
    ],
)
def test_status_and_incomplete_details_give_the_finish_reason(
    status: str, details: dict[str, Any] | None, reason: FinishReason | None, raw: str
) -> None:
    body = response_body([MESSAGE_ITEM], status, incomplete_details=details)
    response = decode_response(body)
    assert (response.finish_reason, response.raw_finish_reason) == (reason, raw)
    assert encode_response(response) == body


def test_a_refusal_and_an_unknown_output_item() -> None:
    refusal = {
        "id": "msg_2",
        "type": "message",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "refusal", "refusal": "I can't."}],
    }
    search = {"id": "ws_1", "type": "web_search_call", "status": "completed"}
    body = response_body([search, refusal])
    response = decode_response(body)
    assert response.message.parts[0] == OpaquePart(provider=PROVIDER, data=search)
    assert response.message.parts[1].type == "refusal"
    assert encode_response(response) == body


def test_the_sdks_response_decodes_like_its_json() -> None:
    body = response_body(
        [REASONING_ITEM, CALL_ITEM],
        tools=[],
        tool_choice="auto",
        top_p=1.0,
        temperature=1.0,
        metadata={},
    )
    # Built the way the SDK builds what it receives: leniently, nested models and all.
    sdk_object = Response.construct(**copy.deepcopy(body))
    assert isinstance(sdk_object, Response)
    assert decode_response(sdk_object) == decode_response(body)


def test_a_response_made_elsewhere_gets_the_output_item_shapes() -> None:
    response = ChatResponse(
        id="msg_01",
        model="claude-sonnet-4-5",
        provider="anthropic",
        message=Message.assistant("Hello", ToolCallPart(id="toolu_01", name="f", arguments="{}")),
        finish_reason=FinishReason.LENGTH,
        usage=TokenUsage(input_tokens=10, output_tokens=5),
    )
    body = encode_response(response)
    message_id, call_id = (item["id"] for item in body["output"])
    assert body == {
        "id": body["id"],
        "object": "response",
        "created_at": body["created_at"],
        "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"},
        "model": "claude-sonnet-4-5",
        "output": [
            {
                "id": message_id,
                "type": "message",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Hello", "annotations": []}],
            },
            {
                "id": call_id,
                "type": "function_call",
                "call_id": "toolu_01",
                "name": "f",
                "arguments": "{}",
                "status": "completed",
            },
        ],
        # What every response echoes of its request: the API's defaults here.
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": 10,
            "output_tokens": 5,
            "total_tokens": 15,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }
    Response.model_validate_json(json.dumps(body), strict=True)
    # Ids as the API gives them, derived from Anthropic's message id and the call's id.
    assert re.fullmatch(r"resp_[0-9a-f]{50}", body["id"])
    assert re.fullmatch(r"msg_[0-9a-f]{50}", message_id)
    assert re.fullmatch(r"fc_[0-9a-f]{50}", call_id)
    assert encode_response(response)["output"] == body["output"]
    # Anthropic's answer says not when it was made: the time of writing.
    assert abs(body["created_at"] - time.time()) < 60


def test_ids_of_a_response_made_elsewhere_are_stable_and_distinct() -> None:
    def answer(upstream_id: str, call_ids: list[str]) -> ChatResponse:
        calls = [ToolCallPart(id=call, name="f", arguments="{}") for call in call_ids]
        return ChatResponse(
            id=upstream_id, provider="anthropic", message=Message.assistant("Hi", *calls)
        )

    first = encode_response(answer("msg_01", ["toolu_01", "toolu_02"]))
    other = encode_response(answer("msg_02", ["toolu_01", "toolu_02"]))
    ids = [first["id"], *(item["id"] for item in first["output"])]
    others = [other["id"], *(item["id"] for item in other["output"])]
    assert ids == [encode_response(answer("msg_01", ["toolu_01", "toolu_02"]))["id"], *ids[1:]]
    assert len(set(ids)) == len(ids) == 4  # the response, its message, its two calls
    assert not set(ids) & set(others)  # another answer: other ids, the same call ids too
    # A call's item id says which call it is, wherever it stands in the answer.
    alone = encode_response(answer("msg_01", ["toolu_02"]))
    assert alone["output"][1]["id"] == first["output"][2]["id"]
    # A response already named in this API's form keeps its id.
    named = answer("resp_0ecff685e411ca7b0069e063569c7c819bbc74c80d853802e6", [])
    assert encode_response(named)["id"] == named.id


def test_the_fixture_stream_accumulates_to_the_completed_response() -> None:
    (interaction,) = load_cassette(
        FIXTURES / "openai" / "responses_stream_reasoning.json"
    ).interactions
    payloads = interaction.response.stream_payloads()
    response = accumulate(decode_stream(payloads))
    assert response == decode_response(payloads[-1]["response"])
    reasoning, text = response.message.parts
    assert reasoning.text == (  # type: ignore[union-attr]
        "**Answering briefly**\n\nThe capital is Lisbon; I need three words."
        "\n\n**Wording it**\n\nLisbon is capital."
    )
    assert reasoning.signature is not None
    assert reasoning.signature.startswith("gAAAAA")
    assert text.text == "Lisbon, Portugal's capital."  # type: ignore[union-attr]
    assert encode_response(response) == payloads[-1]["response"]


def test_a_stream_decodes_one_event_at_a_time() -> None:
    done = response_body([CALL_ITEM])
    events = [
        {"type": "response.created", "response": response_body([], "in_progress", usage=None)},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**CALL_ITEM, "arguments": "", "status": "in_progress"},
        },
        {
            "type": "response.function_call_arguments.delta",
            "output_index": 0,
            "delta": '{"city":"Lisbon"}',
        },
        {"type": "response.output_item.done", "output_index": 0, "item": CALL_ITEM},
        {"type": "response.completed", "response": done},
    ]
    decoder = ResponsesStreamDecoder()
    fields = {key: done[key] for key in done if key not in ("id", "model", "output", "usage")}
    # The start keeps the created response's fields; the final response's replace them.
    created = {**fields, "status": "in_progress"}
    assert [decoder.feed(event) for event in events] == [
        [
            StreamStart(
                id="resp_068a2c5e9f1b3d7a",
                model="gpt-5-mini-2025-08-07",
                provider=PROVIDER,
                provider_data={PROVIDER: {"fields": created}},
            )
        ],
        [
            ToolCallStart(
                index=0,
                id=CALL_ITEM["call_id"],
                name="get_weather",
                provider_data={PROVIDER: {"fields": {"id": "fc_068a2c5e9f1b3d7a"}}},
            )
        ],
        [ToolCallDelta(index=0, arguments='{"city":"Lisbon"}')],
        [
            PartDataEvent(
                index=0,
                provider=PROVIDER,
                data={"fields": {"id": "fc_068a2c5e9f1b3d7a", "status": "completed"}},
            )
        ],
        [
            UsageEvent(
                usage=TokenUsage(
                    input_tokens=92,
                    output_tokens=151,
                    total_tokens=243,
                    cache_read_tokens=64,
                    reasoning_tokens=128,
                    details={
                        "input_tokens_details.cached_tokens": 64,
                        "output_tokens_details.reasoning_tokens": 128,
                    },
                )
            ),
            FinishEvent(
                finish_reason=FinishReason.TOOL_CALLS,
                raw_finish_reason="completed",
                provider_data={PROVIDER: {"fields": fields}},
            ),
        ],
    ]
    assert decoder.finish() == []


def test_a_stream_whose_items_arrive_only_when_done() -> None:
    events = [
        {"type": "response.created", "response": response_body([], "in_progress", usage=None)},
        {"type": "response.output_item.done", "output_index": 0, "item": REASONING_ITEM},
        {"type": "response.output_item.done", "output_index": 1, "item": CALL_ITEM},
        {"type": "response.completed", "response": response_body([REASONING_ITEM, CALL_ITEM])},
    ]
    response = accumulate(decode_stream(events))
    assert response == decode_response(events[-1]["response"])


def test_an_error_event_and_a_failed_response_raise_with_the_partial_answer() -> None:
    delta = {
        "type": "response.output_text.delta",
        "output_index": 0,
        "content_index": 0,
        "delta": "Half",
    }
    added = {
        "type": "response.content_part.added",
        "output_index": 0,
        "content_index": 0,
        "part": {"type": "output_text", "text": ""},
    }
    error = {
        "type": "error",
        "code": "server_error",
        "message": "Something went wrong.",
        "param": None,
    }
    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream([added, delta, error]))
    assert caught.value.partial is not None
    assert caught.value.partial.text == "Half"
    assert isinstance(caught.value.error, ServerError)
    assert caught.value.error.code == "server_error"
    assert caught.value.error.retryable
    failed = response_body(
        [], "failed", error={"code": "server_error", "message": "The model failed."}
    )
    with pytest.raises(StreamError, match="The model failed"):
        accumulate(decode_stream([added, delta, {"type": "response.failed", "response": failed}]))


def test_in_stream_errors_are_typed_by_decode_error() -> None:
    event = {
        "type": "error",
        "code": "rate_limit_exceeded",
        "message": "Rate limit reached for gpt-5-mini.",
        "param": None,
    }
    (error_event,) = ResponsesStreamDecoder().feed(event)
    assert error_event == ErrorEvent.from_error(decode_error(None, event))
    error = error_event.to_error()
    assert isinstance(error, RateLimitError)
    # The event's `type` names the event, not the error.
    assert (error.message, error.type, error.code, error.provider, error.body) == (
        "Rate limit reached for gpt-5-mini.",
        None,
        "rate_limit_exceeded",
        PROVIDER,
        event,
    )
    failed = response_body([], "failed", error={"code": "server_error", "message": "It failed."})
    events = ResponsesStreamDecoder().feed({"type": "response.failed", "response": failed})
    assert events[-1] == ErrorEvent.from_error(decode_error(None, failed["error"]))
    assert isinstance(events[-1], ErrorEvent)
    assert (events[-1].message, events[-1].code) == ("It failed.", "server_error")


def test_an_error_answer_is_typed() -> None:
    body = {
        "error": {
            "message": "Incorrect API key provided: test.",
            "type": "invalid_request_error",
            "param": None,
            "code": "invalid_api_key",
        }
    }
    error = decode_error(401, body)
    assert (type(error).__name__, error.status, error.code, error.provider) == (
        "AuthenticationError",
        401,
        "invalid_api_key",
        PROVIDER,
    )


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"input": []}, "model"),
        ({"model": "m", "input": [{"role": "robot", "content": "x"}]}, "input[0].role"),
        (
            {"model": "m", "input": [{"type": "function_call", "name": "f", "arguments": "{}"}]},
            "input[0].call_id",
        ),
        (
            {"model": "m", "input": [{"type": "function_call_output", "call_id": "c"}]},
            "input[0].output",
        ),
        (
            {"model": "m", "input": [{"role": "user", "content": [{"type": "input_image"}]}]},
            "input[0].content[0]",
        ),
        ({"model": "m", "input": [{"type": "reasoning", "id": "rs_1"}]}, "input[0].summary"),
        ({"model": "m", "tools": [{"type": "function"}]}, "tools[0].name"),
    ],
)
def test_a_request_that_cannot_be_decoded_names_the_path(body: dict[str, Any], path: str) -> None:
    with pytest.raises(DecodeError) as caught:
        decode_request(body)
    assert caught.value.path == path
    assert caught.value.provider == PROVIDER


def test_a_response_that_cannot_be_decoded_names_the_path() -> None:
    body = response_body([REASONING_ITEM, {**CALL_ITEM, "name": None}])
    with pytest.raises(DecodeError) as caught:
        decode_response(body)
    assert caught.value.path == "output[1].name"


def test_malformed_arguments_in_a_stream_are_kept_and_flagged() -> None:
    bad = {**CALL_ITEM, "arguments": '{"city": '}
    events = [
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**bad, "arguments": "", "status": "in_progress"},
        },
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": '{"city": '},
        {"type": "response.output_item.done", "output_index": 0, "item": bad},
        {"type": "response.completed", "response": response_body([bad])},
    ]
    response = accumulate(decode_stream(events))
    assert response.message.tool_calls[0].arguments == '{"city": '
    assert [w.kind for w in response.warnings] == ["malformed"]


def test_the_context_names_the_user_and_the_session() -> None:
    request = ChatRequest(
        model="gpt-5-mini",
        messages=(Message.user("Hi"),),
        context=InvocationContext(user_id="user-42", session_id="chat-9"),
    )
    assert encode_request(request) == {
        "model": "gpt-5-mini",
        "input": [{"role": "user", "content": "Hi"}],
        "safety_identifier": "user-42",
        "prompt_cache_key": "chat-9",
    }


TEXT = "Lisbon, Portugal's capital — by the Tagus."


@given(st.lists(st.integers(min_value=0, max_value=len(TEXT)), max_size=10))
def test_re_chunking_the_text_deltas_changes_nothing(cuts: list[int]) -> None:
    points = sorted({0, len(TEXT), *cuts})
    message = {
        **MESSAGE_ITEM,
        "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": TEXT}],
    }
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": response_body([], "in_progress", usage=None)},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**message, "content": [], "status": "in_progress"},
        },
        {
            "type": "response.content_part.added",
            "output_index": 0,
            "content_index": 0,
            "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""},
        },
    ]
    events += [
        {
            "type": "response.output_text.delta",
            "output_index": 0,
            "content_index": 0,
            "delta": TEXT[a:b],
        }
        for a, b in itertools.pairwise(points)
    ]
    events += [
        {"type": "response.output_item.done", "output_index": 0, "item": message},
        {"type": "response.completed", "response": response_body([message])},
    ]
    response = accumulate(decode_stream(events))
    assert response == decode_response(events[-1]["response"])
    assert response.text == TEXT


# --- what the wire cannot hold is reported, never dropped silently ---

PNG = "iVBORw0KGgo="
PDF = "JVBERi0xLjQ="


def losses(report: TranslationReport) -> list[tuple[str, str]]:
    return [(loss.path, loss.kind) for loss in report.losses]


def test_a_decoded_file_id_points_into_openais_file_store() -> None:
    request = decode_request(HISTORY)
    file = request.messages[2].parts[2]
    assert isinstance(file, FilePart)
    assert (file.file_id, file.provider) == ("file-6F2ksmvXxt4VdoqmHRw6kL", "openai")


def test_a_file_id_of_another_providers_store_is_left_out_and_reported() -> None:
    theirs = FilePart(media_type="application/pdf", file_id="file_011", provider="anthropic")
    ours = FilePart(media_type="application/pdf", file_id="file-2", provider="openai")
    request = ChatRequest(model="gpt-5-mini", messages=(Message.user("Read", theirs, ours),))
    report = TranslationReport()
    assert encode_request(request, report=report)["input"][0]["content"] == [
        {"type": "input_text", "text": "Read"},
        {"type": "input_file", "file_id": "file-2"},
    ]
    assert losses(report) == [("messages[0].parts[1]", "dropped")]


def test_detail_and_filename_go_where_the_wire_has_a_field_and_are_reported_elsewhere() -> None:
    request = ChatRequest(
        model="gpt-5-mini",
        messages=(
            Message.user(
                FilePart(media_type="image/png", data=PNG, detail="low", filename="a.png"),
                FilePart(media_type="application/pdf", data=PDF, detail="high", filename="a.pdf"),
            ),
        ),
    )
    report = TranslationReport()
    assert encode_request(request, report=report)["input"][0]["content"] == [
        {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "low"},
        {
            "type": "input_file",
            "file_data": f"data:application/pdf;base64,{PDF}",
            "filename": "a.pdf",
            "detail": "high",
        },
    ]
    assert losses(report) == [("messages[0].parts[0].filename", "dropped")]
    assert encode_request(decode_request(encode_request(request, report=TranslationReport()))) == (
        encode_request(request, report=TranslationReport())
    )


def test_audio_is_left_out_of_input_messages_and_reported() -> None:
    wav = FilePart(media_type="audio/wav", data="UklGRg==")
    request = ChatRequest(model="gpt-5-mini", messages=(Message.user("Hear", wav),))
    report = TranslationReport()
    assert encode_request(request, report=report)["input"] == [
        {"role": "user", "content": [{"type": "input_text", "text": "Hear"}]}
    ]
    assert losses(report) == [("messages[0].parts[1]", "dropped")]


def test_an_input_audio_part_on_the_wire_is_kept_whole() -> None:
    audio = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}
    body = {"model": "gpt-5-mini", "input": [{"role": "user", "content": [audio]}]}
    request = decode_request(body)
    assert request.messages[0].parts == (OpaquePart(provider=PROVIDER, data=audio),)
    assert encode_request(request, report=TranslationReport(strict=True)) == body


def test_response_format_and_reasoning_fields_the_wire_cannot_hold_are_reported() -> None:
    request = ChatRequest(
        model="gpt-5-mini",
        response_format=ResponseFormat(type="json_object", name="x", strict=True),
        reasoning=ReasoningConfig(effort="low", budget_tokens=1024),
    )
    report = TranslationReport()
    body = encode_request(request, report=report)
    assert (body["text"], body["reasoning"]) == (
        {"format": {"type": "json_object"}},
        {"effort": "low"},
    )
    assert losses(report) == [
        ("reasoning.budget_tokens", "dropped"),
        ("response_format.name", "dropped"),
        ("response_format.strict", "dropped"),
    ]
    nameless = ChatRequest(
        model="gpt-5-mini",
        response_format=ResponseFormat(type="json_schema", json_schema={"type": "object"}),
        reasoning=ReasoningConfig(enabled=False),
    )
    report = TranslationReport()
    body = encode_request(nameless, report=report)
    assert body["text"]["format"]["name"] == "response"
    # gpt-5-mini cannot turn reasoning off ("do not support none"): its least effort.
    assert body["reasoning"] == {"effort": "minimal"}
    assert losses(report) == [
        ("reasoning.enabled", "transformed"),
        ("response_format.name", "transformed"),
    ]


def test_settings_the_responses_api_lacks_are_reported_even_when_zero() -> None:
    report = TranslationReport()
    request = ChatRequest(model="gpt-5-mini", seed=0, top_k=0, stop=())
    assert encode_request(request, report=report) == {"model": "gpt-5-mini"}
    assert losses(report) == [("top_k", "dropped"), ("seed", "dropped")]


def test_a_token_limit_below_sixteen_is_raised_to_it_and_reported() -> None:
    # "Invalid 'max_output_tokens': integer below minimum value. Expected a value
    # >= 16, but got 5 instead." (400)
    request = ChatRequest(model="gpt-5-mini", max_tokens=5)
    report = TranslationReport()
    assert encode_request(request, report=report) == {
        "model": "gpt-5-mini",
        "max_output_tokens": 16,
    }
    assert losses(report) == [("max_tokens", "transformed")]
    assert "at least 16" in report.losses[0].reason
    assert request.max_tokens == 5
    with pytest.raises(TranslationError) as caught:
        encode_request(request, report=TranslationReport(strict=True))
    assert (caught.value.path, caught.value.kind) == ("max_tokens", "transformed")
    report = TranslationReport()
    limit = ChatRequest(model="gpt-5-mini", max_tokens=16)
    assert encode_request(limit, report=report)["max_output_tokens"] == 16
    assert not report


@pytest.mark.parametrize(
    ("choice", "reported"),
    [
        (ToolChoice.auto(), []),
        (ToolChoice.none(), []),
        (ToolChoice.required(), [("tool_choice", "dropped")]),
        (ToolChoice.tool("get_weather"), [("tool_choice", "dropped")]),
    ],
)
def test_tool_settings_without_tools_are_left_out_and_a_choice_that_asks_for_a_call_reported(
    choice: ToolChoice, reported: list[tuple[str, str]]
) -> None:
    """Without tools, `auto`, `none` and how calls are made mean nothing: left out
    unsaid; a choice that asks for a call, which no tool can answer, is reported."""
    request = ChatRequest(model="gpt-5-mini", tool_choice=choice, parallel_tool_calls=True)
    report = TranslationReport()
    assert encode_request(request, report=report) == {"model": "gpt-5-mini"}
    assert losses(report) == reported


def test_the_apis_own_tool_settings_without_tools_go_back_as_they_came() -> None:
    # A client that sends `parallel_tool_calls: false` on every call, tools or none:
    # the API answers 200, echoing it beside `tools: []`.
    replay = in_order(recorded(WITHOUT_TOOLS))
    (interaction,) = replay.interactions
    assert interaction.request is not None
    body = interaction.request.json
    assert "tools" not in body
    assert interaction.response.json["parallel_tool_calls"] == body["parallel_tool_calls"]
    for sent, choice in ((body, None), ({**body, "tool_choice": "none"}, ToolChoice.none())):
        request = decode_request(sent)
        assert (request.parallel_tool_calls, request.tool_choice) == (
            sent["parallel_tool_calls"],
            choice,
        )
        assert same_json(encode_request(request, report=TranslationReport(strict=True)), sent)

    with OpenAIResponsesClient(api_key="sk-test", http_client=replay.client()) as client:
        answer = client.complete(decode_request(body), report=TranslationReport(strict=True))

    assert answer == decode_response(interaction.response.json)
    assert_sent_as_recorded(replay, "https://api.openai.com/v1/responses", "sk-test")


def test_a_tool_without_strict_is_sent_not_strict_unless_it_came_so_from_this_api() -> None:
    # The Responses API takes an omitted `strict` as true; the core's None means "not said".
    request = ChatRequest(
        model="gpt-5-mini",
        messages=(Message.user("Hi"),),
        tools=(ToolSpec(name="lookup", parameters={"type": "object"}),),
    )
    assert encode_request(request)["tools"] == [
        {"type": "function", "name": "lookup", "parameters": {"type": "object"}, "strict": False}
    ]
    body = {
        "model": "gpt-5-mini",
        "input": "Hi",
        "tools": [{"type": "function", "name": "lookup", "parameters": {"type": "object"}}],
    }
    assert encode_request(decode_request(body)) == body


def test_only_a_first_system_message_becomes_the_instructions() -> None:
    flagged = {PROVIDER: {"forms": {"instructions": True}}}
    request = ChatRequest(
        model="gpt-5-mini",
        messages=(
            Message.system("Be brief.", provider_data=flagged),
            Message.system("Be kind.", provider_data=flagged),
            Message.user("Hi"),
            Message.system("Now be verbose.", provider_data=flagged),
        ),
    )
    report = TranslationReport()
    body = encode_request(request, report=report)
    assert body["instructions"] == "Be brief."
    assert body["input"] == [
        {"role": "system", "content": "Be kind."},
        {"role": "user", "content": "Hi"},
        {"role": "system", "content": "Now be verbose."},
    ]
    assert losses(report) == [("messages[1]", "transformed"), ("messages[3]", "transformed")]


def test_a_refusal_made_elsewhere_goes_back_as_refusal_content() -> None:
    # An assistant input message takes `output_text` and `refusal` content ("Invalid
    # value: 'input_text'. Supported values are: 'output_text' and 'refusal'.").
    request = ChatRequest(
        model="gpt-5-mini",
        messages=(Message.user("Pick the lock."), Message.assistant(RefusalPart(text="No."))),
    )
    assert encode_request(request, report=TranslationReport(strict=True))["input"][1] == {
        "role": "assistant",
        "content": [{"type": "refusal", "refusal": "No."}],
    }


def test_empty_text_made_elsewhere_is_left_out_and_the_apis_own_goes_back() -> None:
    # Mistral sends `content: ""` beside its tool calls; the Responses API takes no
    # empty message.
    call = ToolCallPart(id="call_1", name="get_weather", arguments='{"city":"Oslo"}')
    request = ChatRequest(
        model="gpt-5-mini",
        messages=(
            Message.user("Weather in Oslo?"),
            Message.assistant(TextPart(text=""), call),
            Message.tool_result("call_1", "snow"),
        ),
    )
    report = TranslationReport()

    body = encode_request(request, report=report)

    assert [item.get("type", item.get("role")) for item in body["input"]] == [
        "user",
        "function_call",
        "function_call_output",
    ]
    assert report.losses == [
        TranslationLoss(
            "messages[1].parts[0]",
            "dropped",
            "empty text; the Responses API takes no empty message",
            "hint",
        )
    ]
    own = {
        "model": "gpt-5-mini",
        "input": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": ""},
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": ""}],
            },
        ],
    }
    assert encode_request(decode_request(own), report=TranslationReport(strict=True)) == own


def test_a_response_with_alternatives_or_a_finish_the_api_lacks_is_reported() -> None:
    other = ChatResponse(message=Message.assistant("Two."), finish_reason=FinishReason.STOP)
    response = ChatResponse(
        provider="anthropic",
        message=Message.assistant("One."),
        finish_reason=FinishReason.PAUSE,
        raw_finish_reason="pause_turn",
        alternatives=(other,),
    )
    report = TranslationReport()
    body = encode_response(response, report=report)
    assert body["status"] == "completed"
    assert losses(report) == [("finish_reason", "transformed"), ("alternatives[0]", "dropped")]
    unfinished = encode_response(ChatResponse(message=Message.assistant("Half")))
    assert unfinished["status"] == "in_progress"
    assert decode_response(unfinished).finish_reason is None


def test_a_message_item_with_a_part_the_core_does_not_model_streams_without_repeating() -> None:
    odd = {"type": "output_audio_ref", "id": "au_1"}
    message = {
        **MESSAGE_ITEM,
        "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": "Hi"}, odd],
    }
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": response_body([], "in_progress", usage=None)},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**message, "content": [], "status": "in_progress"},
        },
        {
            "type": "response.content_part.added",
            "output_index": 0,
            "content_index": 0,
            "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""},
        },
        {
            "type": "response.output_text.delta",
            "output_index": 0,
            "content_index": 0,
            "delta": "Hi",
        },
        {"type": "response.content_part.added", "output_index": 0, "content_index": 1, "part": odd},
        {"type": "response.output_item.done", "output_index": 0, "item": message},
        {"type": "response.completed", "response": response_body([message])},
    ]
    response = accumulate(decode_stream(events))
    assert response == decode_response(events[-1]["response"])
    assert [part.type for part in response.message.parts] == ["text", "opaque"]
    assert same_json(encode_response(response), events[-1]["response"])


@pytest.mark.parametrize(
    ("events", "path"),
    [
        (["[DONE]"], "events[0]"),
        (
            [
                {
                    "type": "response.output_item.added",
                    "output_index": 0,
                    "item": {**CALL, "call_id": 5},
                }
            ],
            "events[0].item.call_id",
        ),
        (
            [
                {
                    "type": "response.output_item.added",
                    "output_index": 0,
                    "item": {**CALL, "arguments": ["{}"]},
                }
            ],
            "events[0].item.arguments",
        ),
        (
            [
                {
                    "type": "response.content_part.added",
                    "output_index": 0,
                    "content_index": 0,
                    "part": {"type": "output_text", "text": 5},
                }
            ],
            "events[0].part.text",
        ),
    ],
)
def test_an_event_that_cannot_be_decoded_names_the_path(events: list[Any], path: str) -> None:
    with pytest.raises(DecodeError) as caught:
        list(decode_stream(events))
    assert caught.value.path == path


@pytest.mark.parametrize("body", ["[DONE]", [1, 2]])
def test_a_body_that_is_no_object_is_a_decode_error(body: Any) -> None:
    with pytest.raises(DecodeError):
        decode_response(body)
    with pytest.raises(DecodeError):
        decode_request(body)


# Objects and arrays at every place an encoder lays something the request holds.
NESTED_ITEM = {"x_meta": {"tags": ["a"]}}
NESTED: dict[str, Any] = {
    "model": "gpt-5-mini",
    "input": [
        {
            "role": "user",
            **NESTED_ITEM,
            "content": [
                {"type": "input_text", "text": "Look.", "x_note": {"by": ["me"]}},
                {"type": "input_image", "image_url": "https://example.com/a.png", **NESTED_ITEM},
                {"type": "input_video", "video_url": {"url": "https://example.com/v.mp4"}},
            ],
        },
        {
            **REASONING_ITEM,
            "summary": [{"type": "summary_text", "text": "a"}, {"type": "x", "x": [1]}],
            **NESTED_ITEM,
        },
        {**CALL_ITEM, **NESTED_ITEM},
        {
            "type": "function_call_output",
            "call_id": CALL_ITEM["call_id"],
            "output": [{"type": "input_text", "text": "1"}, {"type": "x_blob", "b": [1]}],
            **NESTED_ITEM,
        },
        {
            **MESSAGE_ITEM,
            **NESTED_ITEM,
            "content": [
                {"type": "output_text", "text": "See.", "annotations": [{"type": "x", "i": [1]}]},
                {"type": "x_chart", "points": [1]},
            ],
        },
        {"type": "web_search_call", "id": "ws_1", "action": {"type": "search", "query": "x"}},
        {"role": "assistant", "content": "Sure.", **NESTED_ITEM},
        {
            **MESSAGE_ITEM,
            "id": "msg_2",
            **NESTED_ITEM,
            "content": [{"type": "x_chart", "points": [1]}, {"type": "output_text", "text": "."}],
        },
    ],
    "tools": [TOOL, {"type": "web_search", "filters": {"allowed_domains": ["example.com"]}}],
    "reasoning": {"effort": "low", "summary": "auto", "x_budget": {"max": [1]}},
    "text": {"format": {"type": "json_schema", "name": "a", "schema": {"required": ["a"]}}},
    "include": ["reasoning.encrypted_content"],
    "metadata": {"team": "weather"},
}


def test_a_body_shares_nothing_with_the_request_it_came_from_or_went_to() -> None:
    round_trip_sharing_nothing(decode_request, encode_request, NESTED)
    # Function tools alone, sent from the request's specs.
    tools = decode_request({"model": "gpt-5-mini", "tools": [copy.deepcopy(TOOL)]})
    poison(encode_request(tools))
    assert encode_request(tools)["tools"] == [TOOL]


def test_a_body_shares_nothing_with_the_response_it_came_from_or_went_to() -> None:
    refusal = {**MESSAGE_ITEM, "content": [{"type": "refusal", "refusal": "No.", "x": [1]}]}
    output = [NESTED["input"][1], NESTED["input"][2], NESTED["input"][4], refusal]
    original = response_body(output, tools=[NESTED["tools"][1]])
    original["usage"]["output_tokens_details"]["x_tier"] = {"name": "flex"}
    round_trip_sharing_nothing(decode_response, encode_response, original)
    # A response made elsewhere: its status and details come from the finish reason.
    elsewhere = ChatResponse(provider="anthropic", finish_reason=FinishReason.LENGTH)
    first = encode_response(elsewhere, report=TranslationReport())
    poison(first)
    again = encode_response(elsewhere, report=TranslationReport())
    assert again["incomplete_details"] == {"reason": "max_output_tokens"}


@pytest.mark.parametrize(
    "entry",
    [
        {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": None},
        {"type": "input_image", "image_url": "https://x/y.png", "filename": "y.png"},
        {"type": "input_image", "file_id": "file-1", "x_crop": {"w": [1]}},
        {"type": "input_file", "file_data": PDF, "filename": "raw.pdf"},
        {"type": "input_file", "file_url": "https://x/a.pdf", "filename": None},
        {"type": "input_file", "file_data": f"data:image/png;base64,{PNG}", "file_id": None},
        {"type": "input_text", "text": "a", "x_note": None},
    ],
    ids=[
        "a null detail",
        "a filename on an image",
        "a field beside a file id",
        "bare base64 file data",
        "a null filename",
        "an image sent as a file, a null file id",
        "text with a null field",
    ],
)
def test_what_a_content_entry_has_beside_what_the_codec_writes_goes_back(
    entry: dict[str, Any],
) -> None:
    body = {"model": "gpt-5-mini", "input": [{"role": "user", "content": [entry]}]}
    assert same_json(encode_request(decode_request(body), report=TranslationReport()), body)


@pytest.mark.parametrize("source", ["url", "data"])
def test_a_video_is_no_input_file(source: str) -> None:
    """Gemini watches a video by URL (a YouTube link) or inline; the Responses
    API's input_file takes documents: the video is left out, a content loss."""
    where = {"url": "https://youtu.be/lCdaVNyHtjU"} if source == "url" else {"data": "AAAAIGZ0eXA="}
    video = FilePart(media_type="video/mp4", **where)
    request = ChatRequest(
        model="gpt-4.1-mini", messages=(Message.user(TextPart(text="Explain this video"), video),)
    )
    report = TranslationReport()

    body = encode_request(request, report=report)

    (message,) = body["input"]
    assert message["content"] == [{"type": "input_text", "text": "Explain this video"}]
    assert [(loss.path, loss.kind, loss.level) for loss in report.losses] == [
        ("messages[0].parts[1]", "dropped", "content")
    ]
