"""The Anthropic request codec: a core `ChatRequest` <-> a `POST /v1/messages` body."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from interlingua import (
    ChatRequest,
    DecodeError,
    FilePart,
    InvalidDataError,
    InvocationContext,
    Message,
    OpaquePart,
    ReasoningConfig,
    ReasoningPart,
    RefusalPart,
    ResponseFormat,
    TextPart,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
    TranslationError,
    TranslationLoss,
    TranslationReport,
    TranslationWarning,
)
from interlingua_anthropic import DEFAULT_MAX_TOKENS, decode_request, encode_request

WEATHER = ToolSpec(
    name="get_weather",
    description="The current weather in a city.",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
WEATHER_WIRE = {
    "name": "get_weather",
    "description": "The current weather in a city.",
    "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
}
SIGNATURE = "EpgCCkYIChgCKkA-a-signature-made-up-for-tests"


def encoded(request: ChatRequest) -> tuple[dict[str, Any], list[TranslationLoss]]:
    report = TranslationReport()
    body = encode_request(request, report=report)
    return body, report.losses


def round_trip(body: dict[str, Any]) -> dict[str, Any]:
    report = TranslationReport(strict=True)
    return encode_request(decode_request(body), report=report)


def text_block(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}


# --- a history made in interlingua ---


def test_a_tool_round_trip_with_thinking_encodes_to_the_body_anthropic_expects() -> None:
    request = ChatRequest(
        model="anthropic:claude-sonnet-4-5",
        messages=(
            Message.system("Answer in one sentence."),
            Message.user("Is it raining in Lisbon?"),
            Message.assistant(
                ReasoningPart(text="I should look.", signature=SIGNATURE, provider="anthropic"),
                ToolCallPart(id="toolu_01", name="get_weather", arguments='{"city":"Lisbon"}'),
            ),
            Message.tool_result("toolu_01", "light rain", name="get_weather"),
        ),
        tools=(WEATHER,),
        tool_choice=ToolChoice.auto(),
        reasoning=ReasoningConfig(budget_tokens=2048),
        temperature=1,
        stop=("END",),
    )

    body, losses = encoded(request)

    assert body == {
        "model": "claude-sonnet-4-5",
        "max_tokens": DEFAULT_MAX_TOKENS + 2048,
        "system": "Answer in one sentence.",
        "messages": [
            {"role": "user", "content": "Is it raining in Lisbon?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "I should look.", "signature": SIGNATURE},
                    {
                        "type": "tool_use",
                        "id": "toolu_01",
                        "name": "get_weather",
                        "input": {"city": "Lisbon"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_01", "content": "light rain"}
                ],
            },
        ],
        "tools": [WEATHER_WIRE],
        "temperature": 1.0,
        "stop_sequences": ["END"],
        "tool_choice": {"type": "auto"},
        "thinking": {"type": "enabled", "budget_tokens": 2048},
    }
    assert losses == [
        TranslationLoss(
            "max_tokens", "transformed", "Anthropic requires max_tokens; 6144 sent", "setting"
        )
    ]


def test_tool_messages_share_one_user_turn_with_the_user_message_after_them() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user("Weather in Oslo and Bergen?"),
            Message.assistant(
                ToolCallPart(id="a", name="get_weather", arguments='{"city":"Oslo"}'),
                ToolCallPart(id="b", name="get_weather", arguments='{"city":"Bergen"}'),
            ),
            Message.tool_result("a", "snow"),
            Message.tool_result("b", "rain", is_error=True),
            Message.user("And tomorrow?"),
        ),
    )

    body, _ = encoded(request)

    assert body["messages"][2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "a", "content": "snow"},
            {"type": "tool_result", "tool_use_id": "b", "content": "rain", "is_error": True},
            {"type": "text", "text": "And tomorrow?"},
        ],
    }
    assert len(body["messages"]) == 3


def test_several_system_messages_become_system_blocks_and_a_late_one_is_moved_up() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.system("Be brief."),
            Message.system("Use metric units."),
            Message.user("Hi"),
            Message.system("Answer in French."),
        ),
    )

    body, losses = encoded(request)

    assert body["system"] == [
        {"type": "text", "text": "Be brief."},
        {"type": "text", "text": "Use metric units."},
        {"type": "text", "text": "Answer in French."},
    ]
    assert body["messages"] == [{"role": "user", "content": "Hi"}]
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[3]", "transformed")]


def test_encoding_leaves_the_request_unchanged() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        messages=(Message.user("Hi"), Message.assistant(RefusalPart(text="No."))),
    )
    before = request.model_dump()

    encoded(request)

    assert request.model_dump() == before


def test_max_tokens_defaults_and_an_invocation_context_names_the_user() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        messages=(Message.user("Hi"),),
        context=InvocationContext(session_id="s-1", user_id="user-42"),
        seed=7,
    )

    body, losses = encoded(request)

    assert body == {
        "model": "claude-haiku-4-5",
        "max_tokens": DEFAULT_MAX_TOKENS,
        "messages": [{"role": "user", "content": "Hi"}],
        "metadata": {"user_id": "user-42"},
    }
    assert losses == [
        TranslationLoss(
            "max_tokens", "transformed", "Anthropic requires max_tokens; 4096 sent", "setting"
        ),
        TranslationLoss("seed", "dropped", "Anthropic has no seed", "setting"),
    ]
    assert decode_request(body).context == InvocationContext(user_id="user-42")


@pytest.mark.parametrize(
    ("reasoning", "response_format", "wire"),
    [
        (ReasoningConfig(), None, {"thinking": {"type": "adaptive"}}),
        (ReasoningConfig(enabled=False), None, {"thinking": {"type": "disabled"}}),
        (
            ReasoningConfig(effort="high"),
            None,
            {"thinking": {"type": "adaptive"}, "output_config": {"effort": "high"}},
        ),
        (
            None,
            ResponseFormat(type="json_schema", json_schema={"type": "object"}),
            {"output_config": {"format": {"type": "json_schema", "schema": {"type": "object"}}}},
        ),
    ],
)
def test_reasoning_and_structured_output_settings(
    reasoning: ReasoningConfig | None, response_format: ResponseFormat | None, wire: dict[str, Any]
) -> None:
    request = ChatRequest(
        model="claude-opus-4-6",
        max_tokens=1000,
        messages=(Message.user("Hi"),),
        reasoning=reasoning,
        response_format=response_format,
    )

    body, losses = encoded(request)

    assert {key: body[key] for key in wire} == wire
    assert losses == []
    assert decode_request(body).reasoning == reasoning
    assert decode_request(body).response_format == response_format


@pytest.mark.parametrize(
    ("choice", "parallel", "wire"),
    [
        (ToolChoice.required(), None, {"type": "any"}),
        (ToolChoice.none(), None, {"type": "none"}),
        (
            ToolChoice.tool("get_weather"),
            False,
            {"type": "tool", "name": "get_weather", "disable_parallel_tool_use": True},
        ),
        (None, False, {"type": "auto", "disable_parallel_tool_use": True}),
    ],
)
def test_tool_choice(
    choice: ToolChoice | None, parallel: bool | None, wire: dict[str, Any]
) -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=10,
        messages=(Message.user("Hi"),),
        tools=(WEATHER,),
        tool_choice=choice,
        parallel_tool_calls=parallel,
    )

    body, _ = encoded(request)

    assert body["tool_choice"] == wire
    assert decode_request(body).tool_choice == (choice or ToolChoice.auto())


def test_files_become_image_and_document_blocks() -> None:
    pdf = FilePart.from_bytes(b"%PDF-1.7 made up", "application/pdf", filename="report.pdf")
    notes = FilePart.from_bytes(b"Plain notes.", "text/plain")
    markdown = FilePart.from_bytes(b"# Title", "text/markdown")
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=10,
        messages=(
            Message.user(
                FilePart(media_type="image/png", data="iVBORw0KGgo="),
                FilePart(media_type="image/jpeg", url="https://example.com/a.jpg"),
                FilePart(media_type="application/pdf", file_id="file_011CNha8"),
                pdf,
                notes,
                markdown,
                "Compare them.",
            ),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"][0]["content"] == [
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
        },
        {"type": "image", "source": {"type": "url", "url": "https://example.com/a.jpg"}},
        {"type": "document", "source": {"type": "file", "file_id": "file_011CNha8"}},
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": pdf.data},
            "title": "report.pdf",
        },
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "Plain notes."},
        },
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "# Title"},
        },
        {"type": "text", "text": "Compare them."},
    ]
    assert losses == [
        TranslationLoss(
            "messages[0].parts[5]",
            "transformed",
            "text/markdown is sent as a text/plain document",
            "content",
        )
    ]


# --- a history from other providers ---


def cross_provider_request() -> ChatRequest:
    return ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=(
            Message.user(
                "What is in this recording, and what is the weather?",
                FilePart(media_type="audio/wav", data="UklGRg=="),
            ),
            Message.assistant(
                ReasoningPart(text="Encrypted elsewhere.", signature="gAAAA", provider="openai"),
                OpaquePart(provider="openai", data={"type": "web_search_call", "id": "ws_1"}),
                TextPart(text=""),
                ToolCallPart(id="abc123XYZ", name="get_weather", arguments='{"city":"Paris"}'),
                ToolCallPart(id="call.weather:2", name="get_weather", arguments='{"city":"Rome"}'),
            ),
            Message.tool_result("abc123XYZ", "sunny"),
            Message.tool_result("call.weather:2", "cloudy"),
            Message.assistant(RefusalPart(text="I can't transcribe audio.")),
            Message.user("Thanks"),
        ),
        tools=(WEATHER,),
        provider_options={"openai": {"store": True}},
    )


def test_a_history_from_other_providers_is_fitted_to_anthropic_on_the_wire_only() -> None:
    request = cross_provider_request()
    rewritten = "callweather2_d74ebccd754d"

    body, losses = encoded(request)

    assert body == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "What is in this recording, and what is the weather?"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "abc123XYZ",
                        "name": "get_weather",
                        "input": {"city": "Paris"},
                    },
                    {
                        "type": "tool_use",
                        "id": rewritten,
                        "name": "get_weather",
                        "input": {"city": "Rome"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "abc123XYZ", "content": "sunny"},
                    {"type": "tool_result", "tool_use_id": rewritten, "content": "cloudy"},
                ],
            },
            {"role": "assistant", "content": "I can't transcribe audio."},
            {"role": "user", "content": "Thanks"},
        ],
        "tools": [WEATHER_WIRE],
    }
    assert [(loss.path, loss.kind) for loss in losses] == [
        ("messages[0].parts[1]", "dropped"),
        ("messages[1].parts[0]", "dropped"),
        ("messages[1].parts[1]", "dropped"),
        ("messages[1].parts[2]", "dropped"),
        ("messages[1].parts[4].id", "transformed"),
        ("messages[3].parts[0].tool_call_id", "transformed"),
        ("messages[4].parts[0]", "transformed"),
        ("provider_options.openai.store", "dropped"),
    ]
    assert "reasoning made by openai goes back to openai only" in losses[1].reason
    assert "'call.weather:2'" in losses[4].reason


def test_the_rewritten_id_is_the_same_wherever_the_id_appears() -> None:
    body, _ = encoded(cross_provider_request())

    call_id = body["messages"][1]["content"][1]["id"]
    result_id = body["messages"][2]["content"][1]["tool_use_id"]
    assert call_id == result_id
    assert call_id.startswith("callweather2_")


def test_strict_mode_raises_on_the_first_loss() -> None:
    with pytest.raises(TranslationError) as raised:
        encode_request(cross_provider_request(), report=TranslationReport(strict=True))

    assert raised.value.path == "messages[0].parts[1]"
    assert raised.value.kind == "dropped"
    assert raised.value.target == "anthropic"


def test_without_a_report_each_loss_is_a_warning() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(Message.user("Hi"), Message.assistant(RefusalPart(text="No."))),
    )

    with pytest.warns(TranslationWarning, match=r"messages\[1\]\.parts\[0\]: transformed"):
        encode_request(request)


def test_anthropic_reasoning_goes_back_only_with_its_signature() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user("Hi"),
            Message.assistant(
                ReasoningPart(text="unsigned", provider="anthropic"),
                ReasoningPart(redacted_data="EmwKAhgB", provider="anthropic"),
                "Hello",
            ),
            Message.user("Bye"),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"][1]["content"] == [
        {"type": "redacted_thinking", "data": "EmwKAhgB"},
        {"type": "text", "text": "Hello"},
    ]
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[1].parts[0]", "dropped")]


def test_with_thinking_on_a_tool_loop_without_a_thinking_block_is_sent_with_thinking_off() -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        reasoning=ReasoningConfig(budget_tokens=1024),
        messages=(
            Message.user("Weather in Oslo?"),
            Message.assistant(ToolCallPart(id="call_1", name="get_weather", arguments="{}")),
            Message.tool_result("call_1", "snow"),
        ),
    )

    body, losses = encoded(request)

    assert body["thinking"] == {"type": "disabled"}
    assert [(loss.path, loss.kind) for loss in losses] == [("reasoning", "transformed")]


# --- what Anthropic would reject is caught before sending ---


def test_an_empty_text_part_is_left_out_and_reported() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(Message.user(TextPart(text=""), "Hi"),),
    )

    body, losses = encoded(request)

    assert body["messages"] == [{"role": "user", "content": "Hi"}]
    assert losses == [
        TranslationLoss(
            "messages[0].parts[0]",
            "dropped",
            "empty text; Anthropic rejects it ('text content blocks must be non-empty')",
            "hint",
        )
    ]


def test_a_user_message_with_nothing_anthropic_takes_raises_naming_it() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        messages=(Message.user(FilePart(media_type="audio/wav", data="UklGRg==")),),
    )

    with pytest.raises(InvalidDataError) as raised:
        encode_request(request, report=TranslationReport())

    assert raised.value.path == "messages[0]"


def test_an_assistant_message_left_empty_is_left_out() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user("Hi"),
            Message.assistant(ReasoningPart(text="...", provider="groq")),
            Message.user("Hello?"),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"] == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "Hi"}, {"type": "text", "text": "Hello?"}],
        }
    ]
    assert [loss.path for loss in losses] == ["messages[1].parts[0]", "messages[1]", "messages[2]"]


def test_a_tool_call_without_its_result_raises_naming_the_call_in_strict_mode() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        messages=(
            Message.user("Hi"),
            Message.assistant(ToolCallPart(id="call_1", name="get_weather")),
            Message.user("Never mind"),
        ),
    )

    with pytest.raises(InvalidDataError) as raised:
        encode_request(request, report=TranslationReport(strict=True))

    assert raised.value.path == "messages[1].parts[0]"
    assert "sanitize" in str(raised.value)


def test_a_tool_call_answered_a_turn_late_raises_naming_the_call_and_the_result() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        messages=(
            Message.user("Hi"),
            Message.assistant(ToolCallPart(id="call_1", name="get_weather")),
            Message.user("Never mind"),
            Message.assistant("OK."),
            Message.tool_result("call_1", "sunny"),
        ),
    )

    with pytest.raises(InvalidDataError) as raised:
        encode_request(request, report=TranslationReport())

    assert [path for path, _ in raised.value.problems] == [
        "messages[1].parts[0]",
        "messages[4].parts[0]",
    ]


def test_a_result_answering_no_call_raises_naming_the_result() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        messages=(Message.user("Hi"), Message.tool_result("call_9", "42")),
    )

    with pytest.raises(InvalidDataError) as raised:
        encode_request(request, report=TranslationReport())

    assert raised.value.path == "messages[1].parts[0]"


def test_malformed_arguments_are_sent_as_an_empty_input_and_reported() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user("Hi"),
            Message.assistant(ToolCallPart(id="t1", name="get_weather", arguments='{"city": "Par')),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"][1]["content"][0]["input"] == {}
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[1].parts[0]", "transformed")]


def test_a_file_in_an_assistant_message_is_left_out_and_reported() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user("Draw me a square"),
            Message.assistant(FilePart(media_type="image/png", data="iVBORw0KGgo="), "Here it is."),
            Message.user("Thanks"),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"][1] == {"role": "assistant", "content": "Here it is."}
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[1].parts[0]", "dropped")]
    assert "not permitted within assistant turns" in losses[0].reason


def test_whitespace_only_text_goes_beside_other_content() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user("Weather?", TextPart(text=" \n")),
            Message.assistant(
                TextPart(text="\n\n"), ToolCallPart(id="t1", name="get_weather", arguments="{}")
            ),
            Message.tool_result("t1", [TextPart(text="  "), TextPart(text="snow")]),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"] == [
        {"role": "user", "content": [text_block("Weather?"), text_block(" \n")]},
        {
            "role": "assistant",
            "content": [
                text_block("\n\n"),
                {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "content": [text_block("  "), text_block("snow")],
                }
            ],
        },
    ]
    assert losses == []


def test_a_message_of_whitespace_only_is_left_out() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user("Weather?"),
            Message.assistant(TextPart(text=" "), TextPart(text="\t\n")),
            Message.user("Snow?"),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"] == [
        {"role": "user", "content": [text_block("Weather?"), text_block("Snow?")]}
    ]
    assert [(loss.path, loss.kind) for loss in losses] == [
        ("messages[1].parts[0]", "dropped"),
        ("messages[1].parts[1]", "dropped"),
        ("messages[1]", "dropped"),
        ("messages[2]", "transformed"),  # joined to the first user turn
    ]
    assert "non-whitespace text" in losses[0].reason


def test_a_final_assistant_message_ending_in_whitespace_is_sent_stripped() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(Message.user("Name a colour."), Message.assistant("The colour is \n")),
    )

    body, losses = encoded(request)

    assert body["messages"][-1] == {"role": "assistant", "content": "The colour is"}
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[1].parts[0]", "transformed")]
    assert "trailing whitespace" in losses[0].reason
    assert request.messages[1].text == "The colour is \n"


def test_user_text_between_a_tool_call_and_its_result_goes_after_the_result() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user("Weather in Oslo?"),
            Message.assistant(ToolCallPart(id="call_1", name="get_weather", arguments="{}")),
            Message.user("wait"),
            Message.tool_result("call_1", "snow"),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"][2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "call_1", "content": "snow"},
            {"type": "text", "text": "wait"},
        ],
    }
    assert len(body["messages"]) == 3
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[3].parts[0]", "transformed")]


def test_consecutive_messages_of_one_wire_role_go_as_one_turn() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user("Hi"),
            Message.user("Are you there?"),
            Message.assistant("Yes."),
            Message.assistant("How can I help?"),
            Message.user("Bye"),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Hi"},
                {"type": "text", "text": "Are you there?"},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Yes."},
                {"type": "text", "text": "How can I help?"},
            ],
        },
        {"role": "user", "content": "Bye"},
    ]
    # Joined as Anthropic joins them: reported, a hint (the history holds two turns).
    assert [(loss.path, loss.kind, loss.level) for loss in losses] == [
        ("messages[1]", "transformed", "hint"),
        ("messages[3]", "transformed", "hint"),
    ]
    assert all("Anthropic combines consecutive turns" in loss.reason for loss in losses)


def test_thinking_signed_in_the_first_of_two_assistant_messages_keeps_thinking_on() -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        reasoning=ReasoningConfig(budget_tokens=1024),
        messages=(
            Message.user("Weather in Oslo?"),
            Message.assistant(
                ReasoningPart(text="Look.", signature=SIGNATURE, provider="anthropic")
            ),
            Message.assistant(ToolCallPart(id="call_1", name="get_weather", arguments="{}")),
            Message.tool_result("call_1", "snow"),
        ),
    )

    body, losses = encoded(request)

    assert body["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert [block["type"] for block in body["messages"][1]["content"]] == ["thinking", "tool_use"]
    assert [(loss.path, loss.level) for loss in losses] == [("messages[2]", "hint")]


@pytest.mark.parametrize("choice", [ToolChoice.required(), ToolChoice.tool("get_weather")])
@pytest.mark.parametrize("reasoning", [ReasoningConfig(budget_tokens=1024), ReasoningConfig()])
def test_thinking_with_a_forced_tool_choice_is_sent_with_thinking_off_and_reported(
    choice: ToolChoice, reasoning: ReasoningConfig
) -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        messages=(Message.user("Weather in Oslo?"),),
        tools=(WEATHER,),
        tool_choice=choice,
        reasoning=reasoning,
        temperature=0.5,  # with thinking off, Anthropic takes it
    )

    body, losses = encoded(request)

    assert "thinking" not in body
    assert body["tool_choice"]["type"] == ("any" if choice.mode == "required" else "tool")
    assert body["temperature"] == 0.5
    assert [(loss.path, loss.kind) for loss in losses] == [("reasoning", "transformed")]
    assert "Thinking may not be enabled when tool_choice forces tool use" in losses[0].reason
    assert request.reasoning == reasoning
    with pytest.raises(TranslationError) as raised:
        encode_request(request, report=TranslationReport(strict=True))
    assert (raised.value.path, raised.value.kind) == ("reasoning", "transformed")


@pytest.mark.parametrize(("max_tokens", "budget"), [(2048, 2048), (1500, 4000)])
def test_a_thinking_budget_not_below_max_tokens_raises_naming_the_fields(
    max_tokens: int, budget: int
) -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=max_tokens,
        messages=(Message.user("Hi"),),
        reasoning=ReasoningConfig(budget_tokens=budget),
    )

    with pytest.raises(InvalidDataError) as raised:
        encode_request(request, report=TranslationReport())

    assert raised.value.path == "max_tokens"
    assert "reasoning.budget_tokens" in str(raised.value)


def test_a_thinking_budget_below_anthropics_minimum_raises() -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        messages=(Message.user("Hi"),),
        reasoning=ReasoningConfig(budget_tokens=512),
    )

    with pytest.raises(InvalidDataError) as raised:
        encode_request(request, report=TranslationReport())

    assert raised.value.path == "reasoning.budget_tokens"


@pytest.mark.parametrize(
    ("sampling", "rule"),
    [
        ({"temperature": 0.2}, "temperature 1"),
        ({"temperature": 0.0}, "temperature 1"),
        ({"top_k": 40}, "top_k"),
        ({"top_p": 0.9}, "top_p from 0.95 to 1"),
    ],
)
@pytest.mark.parametrize("reasoning", [ReasoningConfig(budget_tokens=1024), ReasoningConfig()])
def test_thinking_with_sampling_anthropic_refuses_leaves_the_setting_out_and_reports_it(
    sampling: dict[str, float], rule: str, reasoning: ReasoningConfig
) -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        messages=(Message.user("Hi"),),
        reasoning=reasoning,
        **sampling,
    )

    body, losses = encoded(request)

    (field,) = sampling
    assert field not in body
    assert body["thinking"]["type"] in ("enabled", "adaptive")
    assert [(loss.path, loss.kind) for loss in losses] == [(field, "transformed")]
    assert rule in losses[0].reason
    assert "reasoning" in losses[0].reason
    with pytest.raises(TranslationError) as raised:
        encode_request(request, report=TranslationReport(strict=True))
    assert (raised.value.path, raised.value.kind) == (field, "transformed")


@pytest.mark.parametrize(
    "sampling",
    [{"temperature": 1.0}, {"top_p": 0.95}, {"top_p": 1.0}, {"temperature": 1, "top_p": 0.99}],
)
def test_thinking_with_sampling_anthropic_takes_is_sent_as_asked(
    sampling: dict[str, float],
) -> None:
    # A recorded request (llm-anthropic, thinking_display_regression) sent temperature 1.0
    # with thinking on, and Anthropic answered 200.
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        messages=(Message.user("Hi"),),
        reasoning=ReasoningConfig(budget_tokens=1024),
        **sampling,
    )

    body, losses = encoded(request)

    assert {key: body[key] for key in sampling} == sampling
    assert losses == []


def test_sampling_without_thinking_is_not_checked() -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        messages=(Message.user("Hi"),),
        reasoning=ReasoningConfig(enabled=False),
        temperature=0.2,
        top_k=40,
        top_p=0.5,
    )

    body, _ = encoded(request)

    assert (body["temperature"], body["top_k"], body["top_p"]) == (0.2, 40, 0.5)


def test_every_sampling_field_anthropic_refuses_with_thinking_is_named() -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        messages=(Message.user("Hi"),),
        reasoning=ReasoningConfig(budget_tokens=1024),
        temperature=0.5,
        top_k=5,
        top_p=0.5,
    )

    body, losses = encoded(request)

    assert not {"temperature", "top_k", "top_p"} & body.keys()
    assert [loss.path for loss in losses] == ["temperature", "top_k", "top_p"]


def test_a_budget_anthropic_refuses_raises_even_beside_a_setting_left_out() -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        messages=(Message.user("Hi"),),
        reasoning=ReasoningConfig(budget_tokens=512),
        temperature=0.5,
    )

    with pytest.raises(InvalidDataError) as raised:
        encode_request(request, report=TranslationReport())

    assert [path for path, _ in raised.value.problems] == ["reasoning.budget_tokens"]


def test_file_fields_anthropic_has_no_place_for_are_reported_as_dropped() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user(
                FilePart(
                    media_type="image/png", data="iVBORw0KGgo=", filename="a.png", detail="high"
                ),
                FilePart(media_type="application/pdf", url="https://e.com/r.pdf", detail="low"),
                "Compare.",
            ),
        ),
    )

    body, losses = encoded(request)

    assert len(body["messages"][0]["content"]) == 3
    assert [(loss.path, loss.kind) for loss in losses] == [
        ("messages[0].parts[0].filename", "dropped"),
        ("messages[0].parts[0].detail", "dropped"),
        ("messages[0].parts[1].detail", "dropped"),
    ]


def test_a_text_file_by_url_is_left_out_as_anthropic_fetches_pdfs_only() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user(FilePart(media_type="text/plain", url="https://e.com/a.txt"), "Read."),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"] == [{"role": "user", "content": "Read."}]
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[0].parts[0]", "dropped")]


def test_response_format_fields_anthropic_cannot_send_are_reported() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(Message.user("Hi"),),
        response_format=ResponseFormat(
            type="json_schema",
            name="answer",
            description="The answer.",
            json_schema={"type": "object"},
            strict=False,
        ),
    )

    body, losses = encoded(request)

    assert body["output_config"] == {
        "format": {"type": "json_schema", "schema": {"type": "object"}}
    }
    assert [(loss.path, loss.kind) for loss in losses] == [
        ("response_format.name", "dropped"),
        ("response_format.description", "dropped"),
        ("response_format.strict", "dropped"),
    ]


def test_another_providers_file_id_is_left_out_and_reported() -> None:
    request = ChatRequest(
        model="claude-haiku-4-5",
        max_tokens=100,
        messages=(
            Message.user(
                FilePart(media_type="application/pdf", file_id="file-abc", provider="openai"),
                FilePart(media_type="application/pdf", file_id="file_011", provider="anthropic"),
                FilePart(media_type="application/pdf", file_id="file_012"),
                "Summarise.",
            ),
        ),
    )

    body, losses = encoded(request)

    assert body["messages"][0]["content"][:2] == [
        {"type": "document", "source": {"type": "file", "file_id": "file_011"}},
        {"type": "document", "source": {"type": "file", "file_id": "file_012"}},
    ]
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[0].parts[0]", "dropped")]
    assert "openai" in losses[0].reason


# --- Anthropic bodies decode and come back out unchanged ---


def test_a_string_content_and_a_one_block_list_are_told_apart() -> None:
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 50,
        "system": [{"type": "text", "text": "Be brief."}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
            {"role": "assistant", "content": "Hello"},
            {"role": "user", "content": "Bye"},
        ],
    }

    request = decode_request(body)

    assert request.messages[0].provider_data == {"anthropic": {"forms": {"content": "blocks"}}}
    assert request.messages[1].provider_data == {"anthropic": {"forms": {"content": "blocks"}}}
    assert request.messages[2] == Message.assistant("Hello")
    assert round_trip(body) == body


def test_a_user_turn_decodes_into_its_tool_results_and_the_rest() -> None:
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 50,
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "get_weather",
                        "input": {"city": "Oslo"},
                    }
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": [{"type": "text", "text": "snow"}],
                        "is_error": False,
                    },
                    {"type": "text", "text": "And Bergen?", "cache_control": {"type": "ephemeral"}},
                ],
            },
        ],
    }

    request = decode_request(body)

    tool, user = request.messages[2:]
    assert tool.tool_results == (
        ToolResultPart(
            tool_call_id="toolu_1",
            name="get_weather",
            content=(TextPart(text="snow"),),
            provider_data={
                "anthropic": {"fields": {"is_error": False}, "forms": {"content": "blocks"}}
            },
        ),
    )
    assert user.parts == (
        TextPart(
            text="And Bergen?",
            provider_data={"anthropic": {"fields": {"cache_control": {"type": "ephemeral"}}}},
        ),
    )
    assert round_trip(body) == body


def test_a_user_turn_of_its_own_after_tool_results_stays_its_own() -> None:
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 50,
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t", "name": "w", "input": {}}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t", "content": "snow"}],
            },
            {"role": "user", "content": "Thanks"},
        ],
    }

    assert decode_request(body).messages[3].provider_data == {
        "anthropic": {"forms": {"separate_turn": True}}
    }
    assert round_trip(body) == body


def test_consecutive_turns_of_one_role_in_a_body_stay_apart() -> None:
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 50,
        "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "user", "content": "Are you there?"},
            {"role": "assistant", "content": "Yes."},
            {"role": "assistant", "content": [{"type": "text", "text": "Go on."}]},
            {"role": "user", "content": "Bye"},
        ],
    }

    request = decode_request(body)

    assert [message.provider_data for message in request.messages] == [
        {},
        {"anthropic": {"forms": {"separate_turn": True}}},
        {},
        {"anthropic": {"forms": {"separate_turn": True, "content": "blocks"}}},
        {},
    ]
    assert round_trip(body) == body


def test_thinking_signed_in_an_assistant_turn_of_its_own_keeps_thinking_on() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 4096,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [{"type": "thinking", "thinking": "Look.", "signature": SIGNATURE}],
            },
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t", "name": "w", "input": {}}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t", "content": "snow"}],
            },
        ],
    }

    assert round_trip(body) == body


def test_an_empty_system_and_an_empty_final_assistant_turn_round_trip() -> None:
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 50,
        "system": "",
        "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": ""},
        ],
    }

    request = decode_request(body)

    assert [message.role for message in request.messages] == ["user", "assistant"]
    assert request.messages[1].parts == ()
    assert round_trip(body) == body


def test_a_file_id_decodes_as_anthropics() -> None:
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 50,
        "messages": [
            {
                "role": "user",
                "content": [{"type": "document", "source": {"type": "file", "file_id": "file_1"}}],
            }
        ],
    }

    request = decode_request(body)

    assert request.messages[0].parts == (
        FilePart(media_type="application/pdf", file_id="file_1", provider="anthropic"),
    )
    assert round_trip(body) == body


@pytest.mark.parametrize(
    "block",
    [
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "text/plain", "data": "/w=="},
        },
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "text/plain", "data": "bm90ZXM="},
        },
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "text/plain", "data": "not base64!"},
        },
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
        },
        {"type": "document", "source": {"type": "text", "media_type": "text/csv", "data": "a,b"}},
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "\ud800"},
        },
        {"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": "Qk0="}},
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERg=="},
        },
        {"type": "image", "source": {"type": "text", "media_type": "text/plain", "data": "x"}},
    ],
    ids=[
        "base64-text-not-utf8",
        "base64-text",
        "base64-text-not-base64",
        "document-of-an-image",
        "text-source-csv",
        "text-source-not-unicode",
        "image-bmp",
        "image-of-a-pdf",
        "image-text-source",
    ],
)
def test_a_source_the_core_has_no_file_form_for_is_kept_whole(block: dict[str, Any]) -> None:
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 50,
        "messages": [{"role": "user", "content": [block, {"type": "text", "text": "Read it."}]}],
    }

    request = decode_request(body)

    assert request.messages[0].parts[0] == OpaquePart(provider="anthropic", data=block)
    assert round_trip(body) == body


@pytest.mark.parametrize(
    "settings",
    [
        {"thinking": {"type": "enabled", "budget_tokens": 1024, "display": "summarized"}},
        {"thinking": {"type": "adaptive"}, "output_config": {"effort": "max"}},
        {"output_config": {"effort": "low"}},
        {
            "output_config": {
                "format": {"type": "json_schema", "schema": {"type": "object"}},
                "task_budget": 9,
            }
        },
        {"metadata": {"user_id": "u-1", "tenant": "t-2"}},
        {"stream": False, "stop_sequences": [], "system": [], "tools": []},
        {"cache_control": {"type": "ephemeral"}, "service_tier": "auto", "inference_geo": "us"},
        {
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": False},
            "tools": [WEATHER_WIRE],
        },
        {"temperature": 0.2, "top_p": 0.9, "top_k": 40, "stop_sequences": ["\n\n"]},
    ],
)
def test_settings_round_trip_whether_modeled_or_not(settings: dict[str, Any]) -> None:
    body = {
        "model": "claude-opus-4-6",
        "max_tokens": 2048,
        "messages": [{"role": "user", "content": "Hi"}],
        **settings,
    }

    assert round_trip(body) == body


def test_anthropic_tools_are_kept_in_provider_options_and_in_their_place() -> None:
    web_search = {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "Search"}],
        "tools": [
            web_search,
            {**WEATHER_WIRE, "cache_control": {"type": "ephemeral"}, "strict": True},
        ],
    }

    request = decode_request(body)

    assert request.tools == (
        WEATHER.model_copy(
            update={
                "strict": True,
                "provider_data": {
                    "anthropic": {"fields": {"cache_control": {"type": "ephemeral"}}}
                },
            }
        ),
    )
    assert request.provider_options == {"anthropic": {"tools": [web_search, "get_weather"]}}
    assert round_trip(body) == body


def test_blocks_of_every_kind_round_trip() -> None:
    text = base64.b64encode(b"%PDF").decode()
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "document",
                        "source": {"type": "base64", "media_type": "application/pdf", "data": text},
                        "title": "t",
                        "citations": {"enabled": True},
                    },
                    {
                        "type": "document",
                        "source": {"type": "text", "media_type": "text/plain", "data": "notes"},
                    },
                    {
                        "type": "document",
                        "source": {"type": "content", "content": [{"type": "text", "text": "x"}]},
                    },
                    {"type": "image", "source": {"type": "file", "file_id": "file_1"}},
                    {"type": "search_result", "source": "s", "title": "t", "content": []},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "redacted_thinking", "data": "EmwKAhgB"},
                    {
                        "type": "server_tool_use",
                        "id": "srvtoolu_1",
                        "name": "web_search",
                        "input": {"query": "q"},
                    },
                    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
                    {"type": "text", "text": "Found", "citations": None},
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "f",
                        "input": {"n": 1.5},
                        "caller": {"type": "direct"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": [
                            {
                                "type": "image",
                                "source": {"type": "url", "url": "https://example.com/c.png"},
                            },
                            {"type": "search_result", "source": "s", "title": "t", "content": []},
                        ],
                        "is_error": True,
                        "cache_control": None,
                    }
                ],
            },
        ],
    }

    request = decode_request(body)

    user, assistant, tool = request.messages
    assert [part.type for part in user.parts] == ["file", "file", "opaque", "file", "opaque"]
    assert [part.type for part in assistant.parts] == [
        "reasoning",
        "opaque",
        "opaque",
        "text",
        "tool_call",
    ]
    result = tool.tool_results[0]
    assert result.is_error
    assert result.content == (
        FilePart(media_type="image/*", url="https://example.com/c.png"),
        OpaquePart(
            provider="anthropic",
            data={"type": "search_result", "source": "s", "title": "t", "content": []},
        ),
    )
    assert round_trip(body) == body


# --- bodies that are not Anthropic's ---


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"max_tokens": 1, "messages": []}, "model"),
        ({"model": "m", "max_tokens": 1}, "messages"),
        ({"model": "m", "messages": []}, "max_tokens"),
        ({"model": "m", "max_tokens": "10", "messages": []}, "max_tokens"),
        ({"model": "m", "max_tokens": 1, "messages": [{"content": "x"}]}, "messages[0].role"),
        (
            {"model": "m", "max_tokens": 1, "messages": [{"role": "developer", "content": "x"}]},
            "messages[0].role",
        ),
        ({"model": "m", "max_tokens": 1, "messages": [{"role": "user"}]}, "messages[0].content"),
        (
            {
                "model": "m",
                "max_tokens": 1,
                "messages": [
                    {"role": "user", "content": "x"},
                    {
                        "role": "assistant",
                        "content": [{"type": "tool_use", "name": "f", "input": {}}],
                    },
                ],
            },
            "messages[1].content[0].id",
        ),
        (
            {
                "model": "m",
                "max_tokens": 1,
                "messages": [
                    {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}]}
                ],
            },
            "messages[0].content[0].signature",
        ),
        (
            {
                "model": "m",
                "max_tokens": 1,
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "image",
                                "source": {"type": "base64", "media_type": "image/png"},
                            }
                        ],
                    }
                ],
            },
            "messages[0].content[0].source.data",
        ),
        (
            {
                "model": "m",
                "max_tokens": 1,
                "messages": [{"role": "user", "content": [{"text": "x"}]}],
            },
            "messages[0].content[0].type",
        ),
        (
            {"model": "m", "max_tokens": 1, "messages": [], "system": [{"type": "image"}]},
            "system[0].type",
        ),
        (
            {"model": "m", "max_tokens": 1, "messages": [], "tools": [{"name": "f"}]},
            "tools[0].input_schema",
        ),
        ({"model": "m", "max_tokens": 1, "messages": [], "temperature": "hot"}, "temperature"),
    ],
)
def test_a_body_missing_a_required_field_raises_naming_its_path(
    body: dict[str, Any], path: str
) -> None:
    with pytest.raises(DecodeError) as raised:
        decode_request(body)

    assert raised.value.path == path
    assert raised.value.provider == "anthropic"
