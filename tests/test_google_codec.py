"""The Google codec's rules, each on a small body: ids made for calls Gemini
sends without one, results named after their calls, histories made elsewhere
(their reasoning left out, Google's dummy thought signature, JSON Schema
whole), settings by meaning, a blocked prompt, errors both ways."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from interlingua import (
    BadRequestError,
    ChatRequest,
    ChatResponse,
    FilePart,
    FinishReason,
    InvalidDataError,
    InvocationContext,
    Message,
    RateLimitError,
    ReasoningConfig,
    ReasoningPart,
    TextPart,
    TokenUsage,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
    TranslationReport,
)
from interlingua_google import (
    decode_error,
    decode_request,
    decode_response,
    encode_error,
    encode_request,
    encode_response,
)

CALLED: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}},
                    {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}},
                ],
            },
            "finishReason": "STOP",
        }
    ],
    "responseId": "resp-1",
}
DUMMY = base64.b64encode(b"skip_thought_signature_validator").decode()


def request_of(*messages: Message, **settings: Any) -> ChatRequest:
    return ChatRequest(model="gemini-3-flash-preview", messages=messages, **settings)


def test_calls_without_ids_get_the_same_made_ids_every_time_and_never_send_them() -> None:
    first, again = decode_response(CALLED), decode_response(CALLED)
    calls = first.message.tool_calls

    assert [call.id for call in calls] == [call.id for call in again.message.tool_calls]
    assert calls[0].id != calls[1].id
    assert first.finish_reason is FinishReason.TOOL_CALLS
    results = [
        Message.tool_result(call.id, f"Sunny in {c}") for call, c in zip(calls, "OR", strict=True)
    ]
    body = encode_request(request_of(Message.user("Weather?"), first.message, *results))

    assert body["contents"][1]["parts"] == [
        {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}},
        {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}},
    ]
    assert body["contents"][2] == {
        "role": "user",
        "parts": [
            {"functionResponse": {"name": "get_weather", "response": {"output": "Sunny in O"}}},
            {"functionResponse": {"name": "get_weather", "response": {"output": "Sunny in R"}}},
        ],
    }


def test_results_without_ids_answer_the_calls_of_their_name_in_order() -> None:
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather?"}]},
            {"role": "model", "parts": CALLED["candidates"][0]["content"]["parts"]},
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"name": "get_weather", "response": {"output": "a"}}},
                    {"functionResponse": {"name": "get_weather", "response": {"error": "b"}}},
                ],
            },
        ]
    }

    request = decode_request(body)

    calls = request.messages[1].tool_calls
    results = request.messages[2].tool_results
    assert [r.tool_call_id for r in results] == [c.id for c in calls]
    assert [(r.text, r.is_error) for r in results] == [("a", False), ("b", True)]
    assert encode_request(request) == body


def test_a_history_made_elsewhere_gets_the_dummy_signature_on_each_turns_first_call() -> None:
    calls = [
        ToolCallPart(id="call_A1", name="get_weather", arguments='{"city": "Oslo"}'),
        ToolCallPart(id="call_B2", name="get_weather", arguments='{"city": "Rome"}'),
    ]
    thinking = ReasoningPart(text="Let me call it.", signature="c2ln", provider="anthropic")
    history = (
        Message.user("Weather?"),
        Message.assistant(thinking, *calls),
        Message.tool_result("call_A1", "Sunny"),
        Message.tool_result("call_B2", "Rainy"),
    )
    report = TranslationReport()

    body = encode_request(request_of(*history), report=report)

    assert body["contents"][1] == {
        "role": "model",
        "parts": [
            {
                "functionCall": {"name": "get_weather", "args": {"city": "Oslo"}, "id": "call_A1"},
                "thoughtSignature": DUMMY,
            },
            {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}, "id": "call_B2"}},
        ],
    }
    results = body["contents"][2]["parts"]
    assert [r["functionResponse"]["name"] for r in results] == ["get_weather"] * 2
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[1].parts[0]", "dropped"),
        ("messages[1].parts[1]", "transformed"),
    ]
    assert "Let me call it." not in str(body)


def test_a_call_gemini_sent_unsigned_goes_back_unsigned() -> None:
    response = decode_response(CALLED)
    report = TranslationReport(strict=True)
    body = encode_request(request_of(Message.user("Weather?"), response.message), report=report)

    assert all("thoughtSignature" not in part for part in body["contents"][1]["parts"])


def test_a_result_whose_call_is_unknown_is_refused_naming_the_part() -> None:
    with pytest.raises(InvalidDataError, match=r"messages\[1\]\.parts\[0\]\.name"):
        encode_request(request_of(Message.user("Hi"), Message.tool_result("nowhere", "x")))


def test_a_result_s_texts_go_apart_by_a_blank_line_and_a_text_after_a_file_is_reported() -> None:
    """A functionResponse holds a result's text (`response.output`) apart from its
    files (`parts`): texts go as one, a blank line between them (as a message's
    texts read), and a text that came after a file, moved before it, is reported."""
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()
    result = ToolResultPart(
        tool_call_id="call_1",
        name="snap",
        content=(
            TextPart(text="Here it is:"),
            FilePart(media_type="image/png", data=png),
            TextPart(text="See file 241a70."),
        ),
    )
    call = ToolCallPart(id="call_1", name="snap", arguments="{}")
    history = (
        Message.user("Snap it."),
        Message(role="assistant", parts=(call,)),
        Message(role="tool", parts=(result,)),
    )
    report = TranslationReport()

    body = encode_request(request_of(*history), report=report)

    (response,) = body["contents"][2]["parts"]
    assert response["functionResponse"]["response"] == {"output": "Here it is:\n\nSee file 241a70."}
    assert response["functionResponse"]["parts"] == [
        {"inlineData": {"mimeType": "image/png", "data": png}}
    ]
    assert [(loss.path, loss.level) for loss in report.losses] == [
        ("messages[1].parts[0]", "hint"),  # the call made elsewhere: Google's dummy signature
        ("messages[2].parts[0].content", "content"),
    ]


def test_system_messages_go_to_the_system_instruction_a_late_one_moved_and_reported() -> None:
    history = (
        Message.system("Be brief."),
        Message.system("Answer in French."),
        Message.user("Hi"),
        Message.system("Now in German."),
    )
    report = TranslationReport()

    body = encode_request(request_of(*history), report=report)

    assert body["systemInstruction"] == {
        "parts": [{"text": "Be brief."}, {"text": "Answer in French."}, {"text": "Now in German."}]
    }
    assert body["contents"] == [{"role": "user", "parts": [{"text": "Hi"}]}]
    assert [loss.path for loss in report.losses] == ["messages[3]"]


def test_json_schema_from_elsewhere_goes_whole_to_parameters_json_schema() -> None:
    schema = {
        "type": "object",
        "properties": {"when": {"type": "string", "format": "date-time"}},
        "additionalProperties": False,
        "$defs": {"unused": {"type": "null"}},
    }
    tool = ToolSpec(name="remind", description="Set a reminder.", parameters=schema)

    body = encode_request(request_of(Message.user("Remind me"), tools=(tool,)))

    assert body["tools"] == [
        {
            "functionDeclarations": [
                {"name": "remind", "description": "Set a reminder.", "parametersJsonSchema": schema}
            ]
        }
    ]


@pytest.mark.parametrize(
    ("reasoning", "thinking"),
    [
        (ReasoningConfig(budget_tokens=2048), {"thinkingBudget": 2048}),
        (ReasoningConfig(), {"thinkingBudget": -1}),
        (ReasoningConfig(effort="high"), {"thinkingLevel": "HIGH"}),
    ],
)
def test_reasoning_goes_to_the_thinking_config_and_back(
    reasoning: ReasoningConfig, thinking: dict[str, Any]
) -> None:
    body = encode_request(request_of(Message.user("Think"), reasoning=reasoning))

    assert body["generationConfig"] == {"thinkingConfig": thinking}
    assert decode_request(body).reasoning == reasoning


# (model, the thinkingConfig reasoning turned off is sent as, the loss): Google's thinking
# guide, "set thinking_budget to 0 ... Gemini 2.5 Flash and Gemini 2.5 Flash-Lite",
# "Thinking can't be turned off for Gemini 2.5 Pro", Gemini 3's levels (no off).
THINKING_OFF = [
    ("gemini-2.5-flash", {"thinkingBudget": 0}, None),
    ("models/gemini-2.5-flash-lite", {"thinkingBudget": 0}, None),
    ("gemini-2.5-pro", {"thinkingBudget": 128}, "transformed"),
    ("google:gemini-3-pro-preview", {"thinkingLevel": "LOW"}, "transformed"),
    ("gemini-3-flash-preview", {"thinkingLevel": "MINIMAL"}, "transformed"),
    ("gemini-2.0-flash", None, None),
    ("", {"thinkingBudget": 0}, None),  # a model the rules do not know: Google's off switch
]


@pytest.mark.parametrize(("model", "thinking", "loss"), THINKING_OFF, ids=str)
def test_reasoning_turned_off_is_the_least_thinking_each_model_has(
    model: str, thinking: dict[str, Any] | None, loss: str | None
) -> None:
    for config in (ReasoningConfig(enabled=False), ReasoningConfig(effort="none")):
        request = ChatRequest(model=model, messages=(Message.user("Title?"),), reasoning=config)
        report = TranslationReport()

        body = encode_request(request, report=report)

        assert body.get("generationConfig", {}).get("thinkingConfig") == thinking
        assert [(lost.path, lost.kind) for lost in report.losses] == (
            [] if loss is None else [("reasoning.enabled", loss)]
        )
        if thinking == {"thinkingBudget": 0}:  # Google's off switch reads back as off
            assert decode_request(body).reasoning == ReasoningConfig(enabled=False)


def test_a_thinking_level_with_thinking_off_is_no_setting_and_goes_back_as_it_came() -> None:
    # Gemini refuses a level beside a budget; the core holds no effort with reasoning off.
    thinking = {"thinkingBudget": 0, "thinkingLevel": "HIGH"}
    body = {
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
        "generationConfig": {"thinkingConfig": thinking},
    }

    request = decode_request(body)

    assert request.reasoning is None
    assert encode_request(request, report=TranslationReport(strict=True)) == body


REMIND = ToolSpec(name="remind", parameters={"type": "object"})


def test_settings_gemini_has_no_place_for_are_reported() -> None:
    report = TranslationReport()
    request = request_of(
        Message.user("Hi"),
        parallel_tool_calls=False,
        context=InvocationContext(user_id="user-7"),
        tools=(REMIND,),
        tool_choice=ToolChoice(mode="tool", name="remind"),
    )

    body = encode_request(request, report=report)

    assert body["toolConfig"] == {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["remind"]}
    }
    assert [loss.path for loss in report.losses] == ["parallel_tool_calls", "context.user_id"]


@pytest.mark.parametrize(("parallel", "tools"), [(True, (REMIND,)), (False, ())])
def test_parallel_calls_that_change_nothing_are_not_reported(
    parallel: bool, tools: tuple[ToolSpec, ...]
) -> None:
    """Gemini calls tools in parallel as it sees fit: parallel calls asked, or one
    at a time with no tool to call, lose nothing."""
    report = TranslationReport()
    request = request_of(Message.user("Hi"), parallel_tool_calls=parallel, tools=tools)

    encode_request(request, report=report)

    assert report.losses == []


def test_a_snake_case_body_is_read_and_written_back_in_snake_case() -> None:
    body = {
        "system_instruction": {"parts": [{"text": "Be brief."}]},
        "contents": [
            {
                "role": "user",
                "parts": [
                    {"file_data": {"file_uri": "gs://b/x.pdf", "mime_type": "application/pdf"}}
                ],
            }
        ],
        "generation_config": {"max_output_tokens": 64, "thinking_config": {"thinking_budget": 0}},
    }

    request = decode_request(body)

    assert request.system == "Be brief."
    assert request.messages[1].parts[0].url == "gs://b/x.pdf"  # type: ignore[union-attr]
    assert (request.max_tokens, request.reasoning) == (64, ReasoningConfig(enabled=False))
    assert encode_request(request) == body


def test_a_prompt_blocked_before_any_candidate_is_a_content_filter_finish() -> None:
    body = {
        "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
        "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r",
    }

    response = decode_response(body)

    assert (response.finish_reason, response.raw_finish_reason) == (
        FinishReason.CONTENT_FILTER,
        "PROHIBITED_CONTENT",
    )
    assert response.message.parts == ()
    assert encode_response(response) == body


def test_another_providers_error_is_written_as_googles_with_its_retry_delay() -> None:
    error = RateLimitError("slow down", provider="anthropic", status=429, retry_after=20.0)

    status, body = encode_error(error)

    assert status == 429
    assert body == {
        "error": {
            "code": 429,
            "message": "slow down",
            "status": "RESOURCE_EXHAUSTED",
            "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "20s"}],
        }
    }
    back = decode_error(status, body)
    assert (type(back), back.retry_after, back.type) == (RateLimitError, 20.0, "RESOURCE_EXHAUSTED")


def test_an_error_inside_a_stream_is_typed_by_its_status() -> None:
    error = decode_error(
        None, {"error": {"code": 400, "message": "bad", "status": "INVALID_ARGUMENT"}}
    )

    assert type(error) is BadRequestError
    assert not error.retryable


# The value each finish reason made elsewhere goes as, and what it reads back as;
# the two Gemini has no value for are reported.
FINISHES = {
    FinishReason.STOP: ("STOP", FinishReason.STOP, False),
    FinishReason.TOOL_CALLS: ("STOP", FinishReason.TOOL_CALLS, False),
    FinishReason.LENGTH: ("MAX_TOKENS", FinishReason.LENGTH, False),
    FinishReason.CONTENT_FILTER: ("SAFETY", FinishReason.CONTENT_FILTER, False),
    FinishReason.OTHER: ("OTHER", FinishReason.OTHER, False),
    FinishReason.PAUSE: ("STOP", FinishReason.STOP, True),
    FinishReason.ERROR: ("OTHER", FinishReason.OTHER, True),
}


@pytest.mark.parametrize("reason", list(FinishReason))
def test_a_finish_reason_made_elsewhere_goes_as_geminis_own_value(reason: FinishReason) -> None:
    calls = (
        [ToolCallPart(id="call_1", name="f", arguments="{}")]
        if reason is FinishReason.TOOL_CALLS
        else []
    )
    made = ChatResponse(
        provider="elsewhere",
        message=Message.assistant("Done.", *calls),
        finish_reason=reason,
        raw_finish_reason="elsewhere_only",
        usage=TokenUsage(
            input_tokens=100, output_tokens=40, cache_read_tokens=30, reasoning_tokens=10
        ),
    )
    report = TranslationReport()

    body = encode_response(made, report=report)

    value, back, reported = FINISHES[reason]
    assert body["candidates"][0]["finishReason"] == value
    assert [loss.path for loss in report.losses] == (["finish_reason"] if reported else [])
    assert decode_response(body).finish_reason is back
    assert body["usageMetadata"] == {
        "promptTokenCount": 100,
        "cachedContentTokenCount": 30,
        "candidatesTokenCount": 30,
        "thoughtsTokenCount": 10,
        "totalTokenCount": 140,
    }
    assert decode_response(body).usage.model_copy(update={"details": {}}) == made.usage


def test_a_body_naming_its_model_keeps_it() -> None:
    body = {
        "model": "models/gemini-2.5-flash",
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
    }

    request = decode_request(body)

    assert request.model == "models/gemini-2.5-flash"
    assert encode_request(request) == body
