"""Groq's codec: the Chat Completions codec with Groq's reasoning, usage and
refusals of unknown fields.

Reasoning comes in the `reasoning` field or inside `<think>` tags at the start
of the content; both become a `ReasoningPart` of provider `groq`, the text
part holding the answer alone, and go back where they came from. What Groq
would refuse is never sent, and each thing left out is reported.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from conftest import round_trip_sharing_nothing
from interlingua import (
    ChatRequest,
    FilePart,
    InvalidDataError,
    InvocationContext,
    Message,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    TranslationReport,
    accumulate,
    translate_request,
)
from interlingua_groq import (
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
)

RAW = "<think>\nThe user wants 2+2. That is 4.\n</think>\n\n2 + 2 = 4."
USAGE = {
    "queue_time": 0.05, "prompt_tokens": 20, "prompt_time": 0.01, "completion_tokens": 30,
    "completion_time": 0.1, "total_tokens": 50, "total_time": 0.11,
}  # fmt: skip


def answer(message: dict[str, Any], model: str = "qwen/qwen3-32b") -> dict[str, Any]:
    return {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1771434738, "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}],
        "usage": USAGE, "usage_breakdown": None, "system_fingerprint": "fp_1",
        "x_groq": {"id": "req_01", "seed": 7}, "service_tier": "on_demand",
    }  # fmt: skip


def test_raw_reasoning_is_split_from_the_answer_and_put_back() -> None:
    body = answer({"role": "assistant", "content": RAW})
    response = round_trip_sharing_nothing(decode_response, encode_response, body)
    reasoning, text = response.message.parts
    assert isinstance(reasoning, ReasoningPart)
    assert (reasoning.text, reasoning.provider) == ("The user wants 2+2. That is 4.", "groq")
    assert isinstance(text, TextPart)
    assert text.text == "2 + 2 = 4."
    assert response.usage.details == {
        "queue_time": 0.05, "prompt_time": 0.01, "completion_time": 0.1, "total_time": 0.11
    }  # fmt: skip


@pytest.mark.parametrize(
    "content",
    [
        "<think>cut off before it clo",  # an answer out of tokens
        "  <think></think>Just this.",
        "<think>\nonly thinking\n</think>\n",
        "No reasoning <think>here</think>",
    ],
)
def test_every_form_of_raw_content_goes_back_exactly(content: str) -> None:
    body = answer({"role": "assistant", "content": content})
    round_trip_sharing_nothing(decode_response, encode_response, body)
    request = {"model": "qwen/qwen3-32b", "messages": [
        {"role": "user", "content": "Hi"}, {"role": "assistant", "content": content},
        {"role": "user", "content": "Go on"}]}  # fmt: skip
    round_trip_sharing_nothing(decode_request, encode_request, request)


def test_parsed_reasoning_is_a_reasoning_part() -> None:
    body = answer(
        {"role": "assistant", "content": "4", "reasoning": "2+2 is 4."}, "openai/gpt-oss-120b"
    )
    response = round_trip_sharing_nothing(decode_response, encode_response, body)
    reasoning, text = response.message.parts
    assert isinstance(reasoning, ReasoningPart)
    assert (reasoning.text, reasoning.provider, text) == ("2+2 is 4.", "groq", TextPart(text="4"))


def conversation(reasoning: ReasoningPart) -> tuple[Message, ...]:
    call = ToolCallPart(id="fc_311ba17b", name="lookup", arguments="{}")
    return (
        Message.user("Look it up."),
        Message.assistant(reasoning, call),
        Message.tool_result(call.id, "found", name="lookup"),
    )


@pytest.mark.parametrize(
    ("model", "sent"),
    [
        ("openai/gpt-oss-120b", True),
        ("qwen/qwen3-32b", True),
        ("moonshotai/kimi-k2-instruct", False),
    ],
)
def test_reasoning_goes_back_in_the_field_only_to_a_model_that_takes_it(
    model: str, sent: bool
) -> None:
    reasoning = ReasoningPart(text="Call lookup.", provider="groq")
    report = TranslationReport()
    body = encode_request(ChatRequest(model=model, messages=conversation(reasoning)), report=report)
    assistant, tool = body["messages"][1], body["messages"][2]
    assert ("reasoning" in assistant) is sent
    assert tool == {"role": "tool", "tool_call_id": "fc_311ba17b", "content": "found"}
    dropped = [] if sent else [("messages[1].parts[0]", "dropped")]
    assert [(loss.path, loss.kind) for loss in report.losses] == dropped


def test_reasoning_of_another_provider_is_left_out_and_reported() -> None:
    reasoning = ReasoningPart(text="I'll call it.", signature="sig", provider="anthropic")
    report = TranslationReport()
    body = encode_request(
        ChatRequest(model="openai/gpt-oss-120b", messages=conversation(reasoning)), report=report
    )
    assert "reasoning" not in body["messages"][1]
    assert "I'll call it." not in str(body)
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[1].parts[0]", "dropped")
    ]


def test_fields_groq_refuses_are_never_sent_and_are_reported() -> None:
    pdf = FilePart(media_type="application/pdf", data=base64.b64encode(b"%PDF-1.4").decode())
    request = ChatRequest(
        model="llama-3.3-70b-versatile",
        messages=(
            Message(role="user", parts=(TextPart(text="Read this"), pdf)),
            Message.assistant(RefusalPart(text="I can't help with that.")),
            Message.user("Why?"),
        ),
        context=InvocationContext(user_id="u-1"),
    )
    report = TranslationReport()
    body = encode_request(request, report=report)
    assert body["messages"][0]["content"] == "Read this"
    assert body["messages"][1] == {"role": "assistant", "content": "I can't help with that."}
    assert body["user"] == "u-1"
    assert "safety_identifier" not in body
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[0].parts[1]", "dropped"),
        ("messages[1].parts[0]", "transformed"),
    ]


def test_a_tool_messages_name_goes_back_to_groq_as_it_came() -> None:
    body = {
        "model": "llama-3.3-70b-versatile",
        "messages": [
            {"role": "user", "content": "What is 25 + 17?"},
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "call_h6q2",
                        "type": "function",
                        "function": {"name": "add", "arguments": '{"a":25,"b":17}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_h6q2", "name": "add", "content": "42"},
        ],
    }
    request = round_trip_sharing_nothing(decode_request, encode_request, body)
    assert request.messages[2].tool_results[0].name == "add"


def test_a_tool_results_name_from_elsewhere_is_not_sent_to_groq() -> None:
    """Groq's API reference gives a tool message no `name`; the call it answers,
    in the same request, names the tool: nothing is lost."""
    call = ToolCallPart(id="call_1", name="lookup")
    request = ChatRequest(
        model="llama-3.3-70b-versatile",
        messages=(
            Message.user("Go"),
            Message.assistant(call),
            Message.tool_result("call_1", "ok", name="lookup"),
        ),
    )
    report = TranslationReport()
    body = encode_request(request, report=report)
    assert body["messages"][2] == {"role": "tool", "tool_call_id": "call_1", "content": "ok"}
    assert body["messages"][1]["tool_calls"][0]["function"]["name"] == "lookup"
    assert not report
    mistral = {
        "model": "mistral-large-latest",
        "messages": [
            {"role": "user", "content": "What is 25 + 17?"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": "D8kq2LmZp",
                        "type": "function",
                        "function": {"name": "add", "arguments": '{"a": 25, "b": 17}'},
                    }
                ],
            },
            {"role": "tool", "name": "add", "content": "42", "tool_call_id": "D8kq2LmZp"},
        ],
    }
    there = translate_request(mistral, source="mistral", target="groq")
    assert there.body["messages"][2] == {
        "role": "tool",
        "tool_call_id": "D8kq2LmZp",
        "content": "42",
    }
    assert there.losses == []


def test_reasoning_format_and_include_reasoning_are_never_sent_together() -> None:
    request = ChatRequest(
        model="qwen/qwen3-32b",
        messages=(Message.user("Hi"),),
        provider_options={"groq": {"reasoning_format": "parsed", "include_reasoning": True}},
    )
    with pytest.raises(InvalidDataError) as caught:
        encode_request(request)
    assert caught.value.path == "provider_options.groq.include_reasoning"


def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1771434738,
            "model": "qwen/qwen3-32b", "system_fingerprint": "fp_1", "choices": [choice],
            **extra}  # fmt: skip


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 1000])
def test_a_raw_stream_split_at_any_size_accumulates_to_the_answer_not_streamed(size: int) -> None:
    pieces = [RAW[i : i + size] for i in range(0, len(RAW), size)]
    x_groq = {"id": "req_01"}
    chunks = [
        chunk({"role": "assistant", "content": ""}, x_groq=x_groq),
        *(chunk({"content": piece}) for piece in pieces),
        chunk({}, "stop", x_groq={**x_groq, "usage": USAGE}),
    ]
    streamed = accumulate(decode_stream(chunks))
    body = answer({"role": "assistant", "content": RAW})
    del body["usage_breakdown"]
    body["x_groq"] = x_groq
    assert streamed.message == decode_response(body).message
    assert streamed.usage == decode_response(body).usage
    assert encode_response(streamed)["choices"][0]["message"]["content"] == RAW


def test_a_parsed_reasoning_stream_gives_the_reasoning_part() -> None:
    chunks = [
        chunk({"role": "assistant", "reasoning": "2+2"}),
        chunk({"reasoning": " is 4."}),
        chunk({"content": "4"}),
        chunk({}, "stop", x_groq={"id": "req_01", "usage": USAGE}),
    ]
    streamed = accumulate(decode_stream(chunks))
    reasoning, text = streamed.message.parts
    assert isinstance(reasoning, ReasoningPart)
    assert (reasoning.text, reasoning.provider, text) == ("2+2 is 4.", "groq", TextPart(text="4"))
    assert streamed.usage.total_tokens == 50
    assert streamed.usage.details["queue_time"] == 0.05
