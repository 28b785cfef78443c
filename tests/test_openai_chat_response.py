"""Chat Completions response bodies: the answer, refusal, tool calls, audio,
several choices, usage and finish reasons, decoded and encoded back exactly;
the SDK's `ChatCompletion` decodes like the JSON it was built from."""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest
from openai.types.chat import ChatCompletion

from conftest import round_trip_sharing_nothing, same_json
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
    TranslationReport,
)
from interlingua.codec import WireReader, leftover
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_chat_completions._usage import CHAT_USAGE
from interlingua_openai import decode_response, encode_response

USAGE = {
    "prompt_tokens": 1300,
    "completion_tokens": 250,
    "total_tokens": 1550,
    "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
    "completion_tokens_details": {
        "reasoning_tokens": 192,
        "audio_tokens": 0,
        "accepted_prediction_tokens": 0,
        "rejected_prediction_tokens": 0,
    },
}


def completion(message: dict[str, Any], finish: str = "stop", **fields: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-DhQ2mKx7Vb4Tn9Lc3Wq8Rz1Ps6Ye",
        "object": "chat.completion",
        "created": 1780312844,
        "model": "gpt-4.1-2025-04-14",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": copy.deepcopy(USAGE),
        "service_tier": "default",
        "system_fingerprint": "fp_6f2eabb9a5",
        **fields,
    }


def answer(**fields: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "refusal": None, "annotations": [], **fields}


TOOL_CALLS = [
    {
        "id": "call_a",
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'},
    },
    {
        "id": "call_b",
        "type": "function",
        "function": {"name": "get_time", "arguments": '{"city":"Oslo"}'},
    },
]


def test_a_text_answer() -> None:
    body = completion(answer(content="Foggy, 4 °C."))
    response = decode_response(body)
    assert response.message == Message.assistant("Foggy, 4 °C.")
    assert (response.id, response.model, response.provider) == (
        "chatcmpl-DhQ2mKx7Vb4Tn9Lc3Wq8Rz1Ps6Ye",
        "gpt-4.1-2025-04-14",
        "openai",
    )
    assert response.finish_reason is FinishReason.STOP
    assert response.provider_data == {
        "openai": {
            "fields": {
                "object": "chat.completion",
                "created": 1780312844,
                "service_tier": "default",
                "system_fingerprint": "fp_6f2eabb9a5",
            }
        }
    }
    assert encode_response(response) == body


def test_usage_counts_cached_tokens_as_input_and_keeps_every_detail() -> None:
    usage = decode_response(completion(answer(content="x"))).usage
    assert usage == TokenUsage(
        input_tokens=1300,
        output_tokens=250,
        total_tokens=1550,
        cache_read_tokens=1024,
        reasoning_tokens=192,
        details={
            "prompt_tokens_details.cached_tokens": 1024,
            "prompt_tokens_details.audio_tokens": 0,
            "completion_tokens_details.reasoning_tokens": 192,
            "completion_tokens_details.audio_tokens": 0,
            "completion_tokens_details.accepted_prediction_tokens": 0,
            "completion_tokens_details.rejected_prediction_tokens": 0,
        },
    )
    assert usage.uncached_input_tokens == 276


def test_usage_from_another_provider_fills_the_openai_details() -> None:
    response = ChatResponse(
        message=Message.assistant("hi"),
        finish_reason=FinishReason.STOP,
        usage=TokenUsage(
            input_tokens=900,
            output_tokens=40,
            cache_read_tokens=600,
            cache_write_tokens=200,
            reasoning_tokens=10,
            details={"cache_creation.ephemeral_5m_input_tokens": 200},
        ),
    )
    report = TranslationReport()
    assert encode_response(response, report=report)["usage"] == {
        "prompt_tokens": 900,
        "completion_tokens": 40,
        "total_tokens": 940,
        "prompt_tokens_details": {"cached_tokens": 600, "cache_write_tokens": 200},
        "completion_tokens_details": {"reasoning_tokens": 10},
    }
    # Anthropic's cache lifetimes have no field in Chat Completions' usage.
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("usage.details.cache_creation.ephemeral_5m_input_tokens", "dropped")
    ]


def test_a_refusal_is_kept_apart_from_text() -> None:
    body = completion(answer(refusal="I can't help with that."))
    response = decode_response(body)
    assert response.message.parts == (RefusalPart(text="I can't help with that."),)
    assert response.text == ""
    assert encode_response(response) == body


def test_parallel_tool_calls() -> None:
    body = completion(answer(tool_calls=TOOL_CALLS), "tool_calls")
    response = decode_response(body)
    assert response.message.tool_calls == (
        ToolCallPart(id="call_a", name="get_weather", arguments='{"city":"Oslo"}'),
        ToolCallPart(id="call_b", name="get_time", arguments='{"city":"Oslo"}'),
    )
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert encode_response(response) == body


def test_annotations_live_on_the_text_they_annotate() -> None:
    citation = {
        "type": "url_citation",
        "url_citation": {"start_index": 0, "end_index": 5, "title": "Met", "url": "https://met.no"},
    }
    body = completion(answer(content="Foggy.", annotations=[citation]))
    response = decode_response(body)
    assert response.message.parts == (
        TextPart(text="Foggy.", provider_data={"openai": {"echo": {"annotations": [citation]}}}),
    )
    assert encode_response(response) == body


def test_an_audio_answer_is_a_file_with_its_transcript() -> None:
    audio = {"id": "audio_6f2e", "data": "UklGRg==", "expires_at": 1780316444, "transcript": "Hi!"}
    body = completion(answer(audio=audio))
    response = decode_response(body)
    assert response.message.parts == (
        FilePart(
            media_type="audio/*",
            data="UklGRg==",
            provider_data={
                "openai": {
                    "echo": {
                        "audio": {"id": "audio_6f2e", "expires_at": 1780316444, "transcript": "Hi!"}
                    }
                }
            },
        ),
    )
    assert encode_response(response) == body


def test_every_choice_is_kept() -> None:
    body = completion(answer(content="One."))
    second = {
        "index": 1,
        "message": answer(content="Two."),
        "logprobs": None,
        "finish_reason": "length",
    }
    body["choices"].append(second)
    response = decode_response(body)
    assert response.text == "One."
    (other,) = response.alternatives
    assert (other.text, other.finish_reason, other.raw_finish_reason) == (
        "Two.",
        FinishReason.LENGTH,
        "length",
    )
    assert encode_response(response) == body


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("stop", FinishReason.STOP),
        ("length", FinishReason.LENGTH),
        ("tool_calls", FinishReason.TOOL_CALLS),
        ("content_filter", FinishReason.CONTENT_FILTER),
        ("function_call", FinishReason.TOOL_CALLS),
        ("something_new", FinishReason.OTHER),
    ],
)
def test_finish_reasons_keep_the_raw_value(raw: str, reason: FinishReason) -> None:
    body = completion(answer(content="x"), raw)
    response = decode_response(body)
    assert (response.finish_reason, response.raw_finish_reason) == (reason, raw)
    assert encode_response(response) == body


def test_an_old_body_without_the_newer_fields_goes_back_without_them() -> None:
    body = {
        "id": "chatcmpl-8wq4AUDD36geK9Za8cccowhObkV9H",
        "object": "chat.completion",
        "created": 1709033858,
        "model": "gpt-4-0613",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "function_call": {"name": "f", "arguments": "{}"},
                },
                "finish_reason": "function_call",
            }
        ],
        "usage": {"prompt_tokens": 82, "completion_tokens": 16, "total_tokens": 98},
    }
    response = decode_response(body)
    assert response.message.parts == (
        ToolCallPart(
            id="",
            name="f",
            arguments="{}",
            provider_data={"openai": {"forms": {"function_call": True}}},
        ),
    )
    assert encode_response(response) == body


def test_logprobs_and_unknown_fields_are_kept() -> None:
    body = completion(answer(content="Hi", executed=True), x_trace="t-1")
    body["choices"][0]["logprobs"] = {
        "content": [{"token": "Hi", "logprob": -0.1, "bytes": [72, 105], "top_logprobs": []}],
        "refusal": None,
    }
    response = decode_response(body)
    assert encode_response(response) == body
    assert (
        response.provider_data["openai"]["echo"]["choice"]["fields"]["logprobs"]["content"][0][
            "token"
        ]
        == "Hi"
    )


def test_the_sdks_chat_completion_decodes_like_its_json() -> None:
    body = completion(answer(tool_calls=TOOL_CALLS), "tool_calls")
    sdk_object = ChatCompletion.model_validate(copy.deepcopy(body))
    assert decode_response(sdk_object) == decode_response(body)


def test_a_response_from_another_provider_gets_the_canonical_shape() -> None:
    response = ChatResponse(
        id="msg_01",
        model="claude-sonnet-4-5",
        provider="anthropic",
        message=Message.assistant(
            ReasoningPart(text="hmm", signature="sig", provider="anthropic"),
            "Hello ",
            "there.",
            ToolCallPart(id="toolu_01", name="f", arguments="{}"),
        ),
        finish_reason=FinishReason.PAUSE,
        raw_finish_reason="pause_turn",
        usage=TokenUsage(input_tokens=10, output_tokens=5),
    )
    report = TranslationReport()
    before = int(time.time())
    body = encode_response(response, report=report)
    # Anthropic's answer says not when it was made: the time of writing.
    assert before <= body["created"] <= time.time()
    assert body == {
        "id": "msg_01",
        "object": "chat.completion",
        "created": body["created"],
        "model": "claude-sonnet-4-5",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "Hello there.",
                    "refusal": None,
                    "annotations": [],
                    "tool_calls": [
                        {
                            "id": "toolu_01",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                },
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("message.parts[0]", "dropped"),
        ("finish_reason", "transformed"),
    ]


def test_a_dialect_with_a_reasoning_field_reads_it() -> None:
    groq_like = ChatCompletionsDialect(
        provider="groq", reasoning_field="reasoning", message_defaults={}
    )
    body = completion({"role": "assistant", "content": "4", "reasoning": "2 + 2"})
    del body["service_tier"]
    groq = ChatCompletionsCodec(groq_like)
    response = groq.decode_response(body)
    assert response.message.parts == (
        ReasoningPart(text="2 + 2", provider="groq"),
        TextPart(text="4"),
    )
    assert groq.encode_response(response) == body


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda b: b.pop("choices"), "choices"),
        (lambda b: b["choices"][0].pop("message"), "choices[0].message"),
        (
            lambda b: b["choices"][0]["message"]["tool_calls"][1]["function"].pop("name"),
            "choices[0].message.tool_calls[1].function.name",
        ),
        (
            lambda b: b["choices"][0]["message"]["tool_calls"][0].pop("id"),
            "choices[0].message.tool_calls[0].id",
        ),
        (lambda b: b["choices"][0]["message"].update(content=5), "choices[0].message.content"),
        (lambda b: b["usage"].update(prompt_tokens="many"), "usage.prompt_tokens"),
        (lambda b: b.update(choices=[3]), "choices[0]"),
    ],
)
def test_a_body_that_cannot_be_decoded_names_the_path(mutate: Any, path: str) -> None:
    body = completion(answer(tool_calls=copy.deepcopy(TOOL_CALLS)), "tool_calls")
    mutate(body)
    with pytest.raises(DecodeError) as caught:
        decode_response(body)
    assert caught.value.path == path


def test_malformed_tool_arguments_are_kept_as_text() -> None:
    calls = [
        {"id": "call_a", "type": "function", "function": {"name": "f", "arguments": '{"city": '}}
    ]
    body = completion(answer(tool_calls=calls), "tool_calls")
    response = decode_response(body)
    assert response.message.tool_calls[0].arguments == '{"city": '
    assert encode_response(response) == body


def test_usage_nulls_unknown_keys_and_non_count_details_go_back_as_they_came() -> None:
    body = completion(answer(content="Hi"))
    body["usage"] = {
        "prompt_tokens": 12,
        "completion_tokens": 3,
        "total_tokens": 15,
        "prompt_tokens_details": None,
        "completion_tokens_details": {"reasoning_tokens": 0, "tier": "flex", "ratio": None},
        "cost": 0.00021,
        "cost_details": {"upstream_inference_cost": None},
    }
    response = decode_response(body)
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 3)
    assert same_json(encode_response(response), body)


def test_list_content_from_a_compatible_server_goes_back_as_a_list() -> None:
    image = {"type": "image_url", "image_url": {"url": "https://x/y.png"}}
    body = completion(
        answer(content=[{"type": "text", "text": "One."}, {"type": "text", "text": "Two."}, image])
    )
    response = decode_response(body)
    assert response.message.parts == (
        TextPart(text="One."),
        TextPart(text="Two."),
        OpaquePart(provider="openai", data=image),
    )
    assert same_json(encode_response(response, report=TranslationReport(strict=True)), body)


def test_an_opaque_part_of_the_dialects_own_provider_goes_back_in_a_content_list() -> None:
    image = {"type": "image_url", "image_url": {"url": "https://x/y.png"}}
    response = ChatResponse(
        provider="openai",
        message=Message.assistant("See:", OpaquePart(provider="openai", data=image)),
        finish_reason=FinishReason.STOP,
    )
    message = encode_response(response, report=TranslationReport(strict=True))["choices"][0][
        "message"
    ]
    assert message["content"] == [{"type": "text", "text": "See:"}, image]


def test_an_explicit_null_and_extra_fields_of_a_call_go_back_as_they_came() -> None:
    calls = [
        {
            "id": "call_a",
            "type": "function",
            "function": {"name": "f", "arguments": "{}", "parsed": None},
        }
    ]
    body = completion(answer(tool_calls=calls), "tool_calls")
    assert same_json(encode_response(decode_response(body)), body)


@pytest.mark.parametrize("body", ["[DONE]", [1, 2], None])
def test_a_body_that_is_no_object_is_a_decode_error(body: Any) -> None:
    with pytest.raises(DecodeError) as caught:
        decode_response(body)
    assert caught.value.path == "<root>"


def test_a_body_shares_nothing_with_the_response_it_came_from_or_went_to() -> None:
    citation = {"type": "url_citation", "url_citation": {"url": "https://met.no", "end_index": 5}}
    listed = [{"type": "text", "text": "Two."}, {"type": "x_chart", "x_chart": {"points": [1]}}]
    body = completion(
        answer(
            content="One.",
            annotations=[citation],
            audio={"id": "audio_1", "data": "UklGRg==", "expires_at": 1, "transcript": "x"},
            tool_calls=[{"id": "c1", "type": "mcp", "mcp": {"name": "g", "input": {"q": [1]}}}],
            x_trace={"ids": [1]},
        ),
        x_meta={"tags": ["a"]},
    )
    body["choices"][0]["logprobs"] = {"content": [{"token": "One", "logprob": -0.1}]}
    body["choices"].append(
        {"index": 1, "message": answer(content=listed), "logprobs": None, "finish_reason": "stop"}
    )
    body["usage"]["completion_tokens_details"]["tier"] = {"name": "flex"}
    round_trip_sharing_nothing(decode_response, encode_response, body)


@pytest.mark.parametrize(
    "usage",
    [
        USAGE,
        {"prompt_tokens": 1, "completion_tokens": 2},
        {**USAGE, "prompt_tokens_details": {}},
        {**USAGE, "prompt_tokens_details": None},
        {**USAGE, "completion_tokens_details": {"reasoning_tokens": 1, "tier": "flex"}},
        {**USAGE, "completion_tokens_details": {"reasoning_tokens": True}},
        {**USAGE, "completion_tokens_details": {"reasoning_tokens": 1.5}},
        {**USAGE, "cost": 0.01},
    ],
    ids=[
        "counts",
        "no details",
        "an empty group",
        "a null group",
        "a text detail",
        "a boolean detail",
        "a fraction",
        "a router's cost",
    ],
)
def test_what_token_usage_cannot_hold_is_what_encoding_does_not_give_back(
    usage: dict[str, Any],
) -> None:
    decoded, extra = CHAT_USAGE.decode_kept(usage, "usage", WireReader("openai"))
    assert extra == leftover(usage, CHAT_USAGE.encode(decoded))
