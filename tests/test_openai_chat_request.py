"""Chat Completions request bodies: every form the wire takes decodes to the core
and encodes back to the same body; a request built in the core encodes to the
body OpenAI documents; what the wire cannot take is reported."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from conftest import poison, round_trip_sharing_nothing
from interlingua import (
    ChatRequest,
    DecodeError,
    FilePart,
    InvalidDataError,
    InvocationContext,
    Message,
    OpaquePart,
    ReasoningConfig,
    RefusalPart,
    ResponseFormat,
    TextPart,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
    TranslationError,
    TranslationReport,
    TranslationWarning,
)
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_openai import decode_request, encode_request

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n-tiny-").decode()
PDF = base64.b64encode(b"%PDF-1.4 tiny").decode()
WAV = base64.b64encode(b"RIFF----WAVEfmt ").decode()

WEATHER = ToolSpec(
    name="get_weather",
    description="The current weather in a city.",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    strict=True,
)
WEATHER_WIRE = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
        "strict": True,
    },
}

# One body with every feature of the issue at once.
EVERYTHING: dict[str, Any] = {
    "model": "gpt-4.1",
    "messages": [
        {"role": "developer", "content": "Answer tersely."},
        {"role": "system", "content": [{"type": "text", "text": "Prefer metric units."}]},
        {
            "role": "user",
            "name": "ana",
            "content": [
                {"type": "text", "text": "What is in these?"},
                {
                    "type": "image_url",
                    "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "low"},
                },
                {"type": "image_url", "image_url": {"url": "https://example.com/sky.jpg"}},
                {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav"}},
                {
                    "type": "file",
                    "file": {
                        "file_data": f"data:application/pdf;base64,{PDF}",
                        "filename": "a.pdf",
                    },
                },
                {"type": "file", "file": {"file_id": "file-6F2ksmvXxt4VdoqmHRw6kL"}},
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_Lx7qT2mVb9RcK4wZs1HnD8Pe",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_Lx7qT2mVb9RcK4wZs1HnD8Pe", "content": "Fog, 4 C"},
        {"role": "assistant", "content": "Foggy.", "refusal": None},
        {"role": "assistant", "refusal": "I can't help with that."},
        {"role": "user", "content": "Thanks"},
    ],
    "tools": [WEATHER_WIRE],
    "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    "parallel_tool_calls": False,
    "max_tokens": 300,
    "temperature": 0.3,
    "top_p": 0.9,
    "stop": "END",
    "seed": 7,
    "reasoning_effort": "low",
    "response_format": {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": {"type": "object"}, "strict": True},
    },
    "n": 2,
    "logprobs": True,
    "top_logprobs": 3,
    "stream": True,
    "stream_options": {"include_usage": True},
    "user": "u-1",
    "safety_identifier": "s-1",
    "prompt_cache_key": "weather-bot",
    "metadata": {"team": "weather"},
}


def test_every_feature_decodes_and_encodes_back_exactly() -> None:
    request = decode_request(EVERYTHING)
    report = TranslationReport()
    assert encode_request(request, report=report) == EVERYTHING
    assert report.losses == []


def test_every_feature_lands_in_the_core() -> None:
    request = decode_request(EVERYTHING)
    developer, system, user, call, result, answer, refusal, thanks = request.messages
    assert developer.role == "system"
    assert developer.text == "Answer tersely."
    assert developer.provider_data == {"openai": {"forms": {"role": "developer"}}}
    assert system.provider_data == {"openai": {"forms": {"content": "list"}}}
    assert user.provider_data == {"openai": {"fields": {"name": "ana"}}}
    text, inline, linked, audio, pdf, file_id = user.parts
    assert text == TextPart(text="What is in these?")
    assert inline == FilePart(media_type="image/png", data=PNG, detail="low")
    assert linked == FilePart(media_type="image/jpeg", url="https://example.com/sky.jpg")
    assert audio == FilePart(media_type="audio/wav", data=WAV)
    assert pdf == FilePart(media_type="application/pdf", data=PDF, filename="a.pdf")
    assert file_id.file_id == "file-6F2ksmvXxt4VdoqmHRw6kL"
    assert call.parts == (
        ToolCallPart(
            id="call_Lx7qT2mVb9RcK4wZs1HnD8Pe", name="get_weather", arguments='{"city":"Oslo"}'
        ),
    )
    assert result.tool_results[0].text == "Fog, 4 C"
    assert answer.text == "Foggy."
    assert refusal.parts == (RefusalPart(text="I can't help with that."),)
    assert thanks.text == "Thanks"
    assert request.tools == (WEATHER,)
    assert request.tool_choice == ToolChoice.tool("get_weather")
    assert request.parallel_tool_calls is False
    assert (request.max_tokens, request.temperature, request.top_p) == (300, 0.3, 0.9)
    assert (request.stop, request.seed, request.stream) == (("END",), 7, True)
    assert request.reasoning == ReasoningConfig(effort="low")
    assert request.response_format == ResponseFormat(
        type="json_schema", name="answer", json_schema={"type": "object"}, strict=True
    )
    assert request.provider_data == {
        "openai": {"forms": {"max_tokens_field": "max_tokens", "stop": "string"}}
    }
    assert request.options_for("openai") == {
        "n": 2,
        "logprobs": True,
        "top_logprobs": 3,
        "stream_options": {"include_usage": True},
        "user": "u-1",
        "safety_identifier": "s-1",
        "prompt_cache_key": "weather-bot",
        "metadata": {"team": "weather"},
    }


@pytest.mark.parametrize(
    "content",
    [
        "hello",
        [{"type": "text", "text": "hello"}],
        [{"type": "text", "text": "hello"}, {"type": "text", "text": "again"}],
        [],
        "",
        None,
    ],
    ids=["string", "one-part list", "two parts", "empty list", "empty string", "null"],
)
def test_a_string_and_a_one_part_list_are_kept_apart(content: Any) -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": content}]}
    assert encode_request(decode_request(body)) == body


@pytest.mark.parametrize(
    "message",
    [
        {"role": "assistant", "content": None, "tool_calls": []},
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "assistant", "content": ""},
        {"role": "assistant", "content": None},
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "a"}, {"type": "refusal", "refusal": "no"}],
        },
        {
            "role": "assistant",
            "content": "a",
            "name": "bot",
            "audio": {"id": "audio_1"},
            "annotations": [],
        },
        {"role": "assistant", "function_call": {"name": "f", "arguments": "{}"}},
        {"role": "function", "name": "f", "content": "42"},
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": [{"type": "text", "text": "42"}],
            "name": "f",
        },
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": [
                {"type": "text", "text": "see"},
                {"type": "image_url", "image_url": {"url": "x"}},
            ],
        },
        {"role": "user", "content": [{"type": "input_video", "input_video": {"url": "x"}}]},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "data:image/png;charset=x;base64,AA"}}
            ],
        },
        {
            "role": "user",
            "content": [{"type": "file", "file": {"file_data": PDF, "filename": "raw.pdf"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "42", "name": None},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "https://x/y.png", "detail": None}}
            ],
        },
        {
            "role": "user",
            "content": [{"type": "file", "file": {"file_id": "file-1", "filename": None}}],
        },
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "f", "arguments": "{}", "x_note": 1},
                }
            ],
        },
        {
            "role": "user",
            "content": [{"type": "input_audio", "input_audio": {"data": WAV, "format": "flac"}}],
        },
    ],
    ids=[
        "null content, empty tool calls",
        "tool calls, no content",
        "tool calls, null content",
        "empty string",
        "null content alone",
        "text and refusal parts",
        "name, audio and a stray field",
        "deprecated function_call",
        "deprecated function result",
        "tool message as a list, with a name",
        "tool message with an unknown item",
        "unknown user part",
        "a data URL with parameters",
        "bare base64 file data",
        "tool message with a null name",
        "image with a null detail",
        "file with a null filename",
        "a call with a field beside name and arguments",
        "audio in a format OpenAI does not take",
    ],
)
def test_each_message_form_goes_back_as_it_came(message: dict[str, Any]) -> None:
    body = {"model": "gpt-4o", "messages": around(message)}
    assert encode_request(decode_request(body)) == body


def around(message: dict[str, Any]) -> list[dict[str, Any]]:
    """`message` in a history OpenAI takes: its calls answered, its result asked for."""
    call = {"type": "function", "function": {"name": "f", "arguments": "{}"}}
    before: list[dict[str, Any]] = []
    after = [
        {"role": "tool", "tool_call_id": c["id"], "content": "ok"}
        for c in message.get("tool_calls") or []
    ]
    if message["role"] == "tool":
        before = [{"role": "assistant", "tool_calls": [{"id": message["tool_call_id"], **call}]}]
    if message["role"] == "function":
        before = [{"role": "assistant", "function_call": call["function"]}]
    if message.get("function_call"):
        after.append({"role": "function", "name": "f", "content": "42"})
    return [*before, message, *after]


@pytest.mark.parametrize(
    "fields",
    [
        {"max_completion_tokens": 50},
        {"max_tokens": 50},
        {"max_tokens": 50, "max_completion_tokens": 60},
        {"stop": ["a", "b"]},
        {"stop": None},
        {"stream": False},
        {"stream": True},
        {"temperature": 1},
        {"tool_choice": "required", "tools": [WEATHER_WIRE]},
        {"tool_choice": {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}}},
        {"response_format": {"type": "json_object"}},
        {"response_format": {"type": "json_schema", "json_schema": {"name": "x"}}},
        {"reasoning_effort": "none", "model": "gpt-5.1"},
        {"reasoning_effort": "high"},
        {"tools": [{"type": "custom", "custom": {"name": "sql"}}, WEATHER_WIRE]},
        {"tools": [{"type": "function", "function": {"name": "noargs"}}]},
        {"functions": [{"name": "f", "parameters": {}}], "function_call": "auto"},
    ],
    ids=lambda fields: ",".join(fields),
)
def test_each_request_field_goes_back_as_it_came(fields: dict[str, Any]) -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], **fields}
    assert encode_request(decode_request(body)) == body


def test_a_named_choice_without_its_type_is_that_choice_and_goes_back_without_it() -> None:
    # Quirk: the Hugging Face router's client names the tool with no "type": "function".
    choice = {"function": {"name": "get_weather"}}
    body = {"model": "gpt-4o", "messages": [], "tools": [WEATHER_WIRE], "tool_choice": choice}

    request = decode_request(body)

    assert request.tool_choice == ToolChoice.tool("get_weather")
    assert request.provider_options == {}
    assert encode_request(request) == body
    rebuilt = request.model_copy(update={"provider_data": {}})
    assert encode_request(rebuilt)["tool_choice"] == {"type": "function", **choice}


def test_the_token_limit_name_follows_the_request_and_else_is_the_current_one() -> None:
    legacy = decode_request({"model": "gpt-4o", "messages": [], "max_tokens": 50})
    assert legacy.max_tokens == 50
    assert encode_request(legacy.model_copy(update={"max_tokens": 80}))["max_tokens"] == 80
    fresh = ChatRequest(model="gpt-5", max_tokens=80)
    assert encode_request(fresh) == {"model": "gpt-5", "messages": [], "max_completion_tokens": 80}


def test_a_request_built_in_the_core_encodes_to_the_documented_body() -> None:
    request = ChatRequest(
        model="gpt-4.1",
        messages=(
            Message.system("Answer tersely."),
            Message.user("Weather in Oslo?", FilePart(media_type="image/png", data=PNG)),
            Message.assistant(
                "Checking.",
                ToolCallPart(id="call_1", name="get_weather", arguments='{"city":"Oslo"}'),
            ),
            Message.tool_result("call_1", "Fog, 4 C", name="get_weather"),
        ),
        tools=(WEATHER,),
        tool_choice=ToolChoice.auto(),
        stop=("END",),
        response_format=ResponseFormat(type="json_object"),
        reasoning=ReasoningConfig(effort="medium"),
        stream=True,
        context=InvocationContext(user_id="user-42", session_id="chat-9"),
    )
    assert encode_request(request, report=TranslationReport(strict=True)) == {
        "model": "gpt-4.1",
        "messages": [
            {"role": "system", "content": "Answer tersely."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Weather in Oslo?"},
                    {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
                ],
            },
            {
                "role": "assistant",
                "content": "Checking.",
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "Fog, 4 C"},
        ],
        "tools": [WEATHER_WIRE],
        "tool_choice": "auto",
        "stop": ["END"],
        "reasoning_effort": "medium",
        "response_format": {"type": "json_object"},
        "stream": True,
        "safety_identifier": "user-42",
        "prompt_cache_key": "chat-9",
    }


def test_the_context_does_not_override_what_the_request_says() -> None:
    request = ChatRequest(
        model="gpt-4o",
        context=InvocationContext(user_id="user-42", session_id="chat-9"),
        provider_options={"openai": {"user": "legacy-user", "prompt_cache_key": "mine"}},
    )
    body = encode_request(request)
    assert body["user"] == "legacy-user"
    assert "safety_identifier" not in body
    assert body["prompt_cache_key"] == "mine"


def test_a_tool_message_with_several_results_becomes_one_tool_message_each() -> None:
    calls = Message.assistant(
        ToolCallPart(id="call_a", name="f", arguments="{}"),
        ToolCallPart(id="call_b", name="f", arguments="{}"),
    )
    request = ChatRequest(
        model="gpt-4o",
        messages=(
            calls,
            Message(
                role="tool",
                parts=(
                    ToolResultPart(tool_call_id="call_a", content=(TextPart(text="1"),)),
                    ToolResultPart(
                        tool_call_id="call_b", content=(TextPart(text="2"), TextPart(text="3"))
                    ),
                ),
            ),
        ),
    )
    assert encode_request(request)["messages"][1:] == [
        {"role": "tool", "tool_call_id": "call_a", "content": "1"},
        {
            "role": "tool",
            "tool_call_id": "call_b",
            "content": [{"type": "text", "text": "2"}, {"type": "text", "text": "3"}],
        },
    ]


def test_what_the_wire_cannot_take_is_left_out_and_reported() -> None:
    request = ChatRequest(
        model="gpt-4o",
        messages=(
            Message.user(OpaquePart(provider="anthropic", data={"type": "document"})),
            Message.assistant(
                FilePart(media_type="image/png", data=PNG),
                "Here.",
                ToolCallPart(id="call_1", name="f", arguments="{}"),
            ),
            Message.tool_result("call_1", "boom", is_error=True),
        ),
        top_k=5,
        reasoning=ReasoningConfig(budget_tokens=1024, summary="auto"),
        provider_options={"anthropic": {"top_k": 5}},
    )
    report = TranslationReport()
    body = encode_request(request, report=report)
    assert body["messages"] == [
        {"role": "user", "content": ""},
        {
            "role": "assistant",
            "content": "Here.",
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "boom"},
    ]
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[0].parts[0]", "dropped"),
        ("messages[1].parts[0]", "dropped"),
        ("messages[2].parts[0].is_error", "dropped"),
        ("top_k", "dropped"),
        ("reasoning.budget_tokens", "transformed"),
        ("reasoning.summary", "dropped"),
        ("provider_options.anthropic.top_k", "dropped"),
    ]
    with pytest.raises(TranslationError) as caught:
        encode_request(request, report=TranslationReport(strict=True))
    assert caught.value.path == "messages[0].parts[0]"
    assert caught.value.target == "openai"


def test_without_a_report_every_loss_is_a_warning() -> None:
    request = ChatRequest(model="gpt-4o", top_k=3)
    with pytest.warns(TranslationWarning, match=r"openai: top_k: dropped"):
        encode_request(request)


def test_tool_result_files_follow_the_tool_messages_in_a_user_message() -> None:
    call = Message.assistant(
        ToolCallPart(id="call_a", name="snap", arguments="{}"),
        ToolCallPart(id="call_b", name="read", arguments="{}"),
    )
    results = Message(
        role="tool",
        parts=(
            ToolResultPart(
                tool_call_id="call_a",
                content=(FilePart(media_type="image/png", data=PNG),),
            ),
            ToolResultPart(tool_call_id="call_b", content=(TextPart(text="done"),)),
        ),
    )
    request = ChatRequest(model="gpt-4o", messages=(call, results, Message.user("Describe it.")))
    report = TranslationReport()
    messages = encode_request(request, report=report)["messages"]
    assert messages[1:] == [
        {
            "role": "tool",
            "tool_call_id": "call_a",
            "content": "(the result is in the next message)",
        },
        {"role": "tool", "tool_call_id": "call_b", "content": "done"},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}
            ],
        },
        {"role": "user", "content": "Describe it."},
    ]
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[1].parts[0].content[0]", "transformed")
    ]
    assert request.messages[1] == results  # the history is not changed


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"messages": []}, "model"),
        ({"model": "m"}, "messages"),
        ({"model": "m", "messages": [{"content": "x"}]}, "messages[0].role"),
        ({"model": "m", "messages": [{"role": "robot"}]}, "messages[0].role"),
        (
            {"model": "m", "messages": [{"role": "tool", "content": "x"}]},
            "messages[0].tool_call_id",
        ),
        (
            {"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]},
            "messages[0].content[0].image_url",
        ),
        (
            {
                "model": "m",
                "messages": [
                    {"role": "user", "content": [{"type": "image_url", "image_url": {"url": 3}}]}
                ],
            },
            "messages[0].content[0].image_url.url",
        ),
        (
            {"model": "m", "messages": [{"role": "system", "content": [{"type": "image_url"}]}]},
            "messages[0].content[0].type",
        ),
        (
            {
                "model": "m",
                "messages": [
                    {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                "id": "a",
                                "type": "function",
                                "function": {"name": "f", "arguments": "{}"},
                            },
                            {"id": "b", "type": "function", "function": {"arguments": "{}"}},
                        ],
                    }
                ],
            },
            "messages[0].tool_calls[1].function.name",
        ),
        (
            {"model": "m", "messages": [], "tools": [{"type": "function", "function": {}}]},
            "tools[0].function.name",
        ),
        ({"model": "m", "messages": [], "temperature": "hot"}, "temperature"),
        ({"model": "m", "messages": [], "stop": 3}, "stop"),
    ],
)
def test_a_body_that_cannot_be_decoded_names_the_path(body: dict[str, Any], path: str) -> None:
    with pytest.raises(DecodeError) as caught:
        decode_request(body)
    assert caught.value.path == path
    assert caught.value.provider == "openai"


def test_malformed_tool_arguments_are_kept_as_text() -> None:
    body = {
        "model": "gpt-4o",
        "messages": [
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "f", "arguments": '{"city": "Os'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "?"},
        ],
    }
    request = decode_request(body)
    assert request.messages[0].tool_calls[0].arguments == '{"city": "Os'
    assert encode_request(request) == body


def test_a_history_openai_would_reject_is_refused_before_sending() -> None:
    call = ToolCallPart(id="call_1", name="f", arguments="{}")
    unanswered = (Message.user("Go"), Message.assistant(call))
    with pytest.raises(InvalidDataError) as caught:
        encode_request(ChatRequest(model="gpt-4o", messages=unanswered))
    assert caught.value.path == "messages[1].parts[0]"
    assert "has no result" in str(caught.value)
    late = (Message.assistant(call), Message.user("Wait."), Message.tool_result("call_1", "ok"))
    with pytest.raises(InvalidDataError) as caught:
        encode_request(ChatRequest(model="gpt-4o", messages=late))
    assert [path for path, _ in caught.value.problems] == [
        "messages[0].parts[0]",
        "messages[2].parts[0]",
    ]


# --- what the wire cannot hold is reported, never dropped silently ---


def losses(report: TranslationReport) -> list[tuple[str, str]]:
    return [(loss.path, loss.kind) for loss in report.losses]


def test_a_decoded_file_id_points_into_openais_file_store() -> None:
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": [{"type": "file", "file": {"file_id": "file-1"}}]}
        ],
    }
    (part,) = decode_request(body).messages[0].parts
    assert isinstance(part, FilePart)
    assert (part.file_id, part.provider) == ("file-1", "openai")


def test_a_file_id_of_another_providers_store_is_left_out_and_reported() -> None:
    theirs = FilePart(media_type="application/pdf", file_id="file_011", provider="anthropic")
    ours = FilePart(media_type="application/pdf", file_id="file-2", provider="openai")
    unknown = FilePart(media_type="application/pdf", file_id="file-3")
    request = ChatRequest(model="gpt-4o", messages=(Message.user("Read", theirs, ours, unknown),))
    report = TranslationReport()
    content = encode_request(request, report=report)["messages"][0]["content"]
    assert content == [
        {"type": "text", "text": "Read"},
        {"type": "file", "file": {"file_id": "file-2"}},
        {"type": "file", "file": {"file_id": "file-3"}},
    ]
    assert losses(report) == [("messages[0].parts[1]", "dropped")]
    assert "anthropic" in report.losses[0].reason


def test_detail_and_filename_go_where_the_wire_has_a_field_and_are_reported_elsewhere() -> None:
    request = ChatRequest(
        model="gpt-4o",
        messages=(
            Message.user(
                FilePart(media_type="image/png", data=PNG, detail="low", filename="a.png"),
                FilePart(media_type="application/pdf", data=PDF, detail="high", filename="a.pdf"),
                FilePart(media_type="audio/wav", data=WAV, detail="low", filename="a.wav"),
            ),
        ),
    )
    report = TranslationReport()
    content = encode_request(request, report=report)["messages"][0]["content"]
    assert content == [
        {
            "type": "image_url",
            "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "low"},
        },
        {
            "type": "file",
            "file": {"file_data": f"data:application/pdf;base64,{PDF}", "filename": "a.pdf"},
        },
        {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav"}},
    ]
    assert losses(report) == [
        ("messages[0].parts[0].filename", "dropped"),
        ("messages[0].parts[1].detail", "dropped"),
        ("messages[0].parts[2].filename", "dropped"),
        ("messages[0].parts[2].detail", "dropped"),
    ]


def test_audio_other_than_wav_and_mp3_is_left_out_and_reported() -> None:
    flac = FilePart(media_type="audio/flac", data=WAV)
    request = ChatRequest(model="gpt-4o-audio-preview", messages=(Message.user("Hear", flac),))
    report = TranslationReport()
    assert encode_request(request, report=report)["messages"][0]["content"] == "Hear"
    assert losses(report) == [("messages[0].parts[1]", "dropped")]
    assert "wav" in report.losses[0].reason


@pytest.mark.parametrize(
    ("format", "wire", "expected"),
    [
        (
            ResponseFormat(
                type="json_object",
                name="answer",
                description="d",
                json_schema={"type": "object"},
                strict=True,
            ),
            {"type": "json_object"},
            [
                ("response_format.name", "dropped"),
                ("response_format.description", "dropped"),
                ("response_format.json_schema", "dropped"),
                ("response_format.strict", "dropped"),
            ],
        ),
        (
            ResponseFormat(type="text", strict=False),
            {"type": "text"},
            [("response_format.strict", "dropped")],
        ),
        (
            ResponseFormat(type="json_schema", json_schema={"type": "object"}),
            {
                "type": "json_schema",
                "json_schema": {"name": "response", "schema": {"type": "object"}},
            },
            [("response_format.name", "transformed")],
        ),
    ],
    ids=["json_object with schema fields", "text with strict", "a schema without a name"],
)
def test_response_format_fields_the_wire_cannot_hold_are_reported(
    format: ResponseFormat, wire: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    report = TranslationReport()
    body = encode_request(ChatRequest(model="gpt-4o", response_format=format), report=report)
    assert body["response_format"] == wire
    assert losses(report) == expected


def test_a_budget_beside_an_effort_is_reported() -> None:
    config = ReasoningConfig(effort="low", budget_tokens=2048)
    report = TranslationReport()
    body = encode_request(ChatRequest(model="o4-mini", reasoning=config), report=report)
    assert body["reasoning_effort"] == "low"
    assert losses(report) == [("reasoning.budget_tokens", "dropped")]


OFF = ReasoningConfig(enabled=False)
NONE = ReasoningConfig(effort="none")


# (model, reasoning off as the source said it, the effort sent, the losses): the least
# each OpenAI model family has ("gpt-5.1 defaults to none"; "All models before gpt-5.1
# ... do not support none"; o-series: low, medium, high; no field without reasoning).
LEAST_EFFORTS = [
    ("gpt-5.1", OFF, "none", []),
    ("gpt-5.2-2025-12-11", NONE, "none", []),
    ("gpt-5", OFF, "minimal", [("reasoning.enabled", "transformed")]),
    ("gpt-5-mini", NONE, "minimal", [("reasoning.enabled", "transformed")]),
    ("gpt-5-nano-2025-08-07", OFF, "minimal", [("reasoning.enabled", "transformed")]),
    ("gpt-5.1-codex", OFF, "low", [("reasoning.enabled", "transformed")]),
    ("o3", OFF, "low", [("reasoning.enabled", "transformed")]),
    ("o4-mini", NONE, "low", [("reasoning.enabled", "transformed")]),
    ("gpt-5-pro", OFF, None, [("reasoning.enabled", "dropped")]),
    ("o1-mini", OFF, None, [("reasoning.enabled", "dropped")]),
    ("gpt-4o", OFF, None, []),
    ("gpt-4.1-mini", NONE, None, []),
    ("openai:gpt-5.1", OFF, "none", []),
    # A model the rules do not know: "none" as the request said it, else nothing (reported).
    ("ft:my-model", NONE, "none", []),
    ("ft:my-model", OFF, None, [("reasoning.enabled", "dropped")]),
]


@pytest.mark.parametrize(("model", "config", "effort", "expected"), LEAST_EFFORTS, ids=str)
def test_reasoning_turned_off_sends_the_least_effort_the_model_has(
    model: str, config: ReasoningConfig, effort: str | None, expected: list[tuple[str, str]]
) -> None:
    report = TranslationReport()
    body = encode_request(ChatRequest(model=model, reasoning=config), report=report)
    assert body.get("reasoning_effort") == effort
    assert "reasoning_effort" in body or effort is None
    assert losses(report) == expected
    if expected:
        with pytest.raises(TranslationError):
            encode_request(
                ChatRequest(model=model, reasoning=config),
                report=TranslationReport(strict=True),
            )


def test_tool_settings_without_tools_are_left_out_and_a_choice_of_a_call_reported() -> None:
    # OpenAI: "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only
    # allowed when 'tools' are specified." (400); `tool_choice` alike. Without tools,
    # how calls are made says nothing; a choice that asks for a call does.
    request = ChatRequest(
        model="gpt-4o", tool_choice=ToolChoice.required(), parallel_tool_calls=False
    )
    report = TranslationReport()
    assert encode_request(request, report=report) == {"model": "gpt-4o", "messages": []}
    assert losses(report) == [("tool_choice", "dropped")]
    with_tools = request.model_copy(update={"tools": (WEATHER,)})
    body = encode_request(with_tools, report=TranslationReport(strict=True))
    assert (body["tool_choice"], body["parallel_tool_calls"]) == ("required", False)


def test_more_than_four_stop_sequences_send_the_first_four_and_report_the_rest() -> None:
    request = ChatRequest(model="gpt-4o", stop=("a", "b", "c", "d", "e", "f"))
    report = TranslationReport()
    assert encode_request(request, report=report)["stop"] == ["a", "b", "c", "d"]
    assert losses(report) == [("stop[4]", "dropped"), ("stop[5]", "dropped")]


@pytest.mark.parametrize("body", ["[DONE]", [1, 2], 3])
def test_a_body_that_is_no_object_is_a_decode_error(body: Any) -> None:
    with pytest.raises(DecodeError) as caught:
        decode_request(body)
    assert caught.value.path == "<root>"


# Objects and arrays at every place an encoder lays something the request holds.
NESTED: dict[str, Any] = {
    "model": "gpt-4.1",
    "messages": [
        {
            "role": "user",
            "x_meta": {"tags": ["a"]},
            "content": [
                {"type": "text", "text": "Look.", "x_note": {"by": ["me"]}},
                {"type": "input_video", "input_video": {"url": "https://example.com/v.mp4"}},
                {
                    "type": "image_url",
                    "image_url": {"url": "https://example.com/a.png", "x_crop": {"w": [1]}},
                },
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": "{}"},
                    "x_trace": {"ids": [1]},
                },
                {"id": "call_2", "type": "mcp", "mcp": {"name": "g", "input": {"q": [1]}}},
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": [{"type": "text", "text": "1"}, {"type": "x_blob", "x_blob": {"b": [1]}}],
        },
        {"role": "tool", "tool_call_id": "call_2", "content": "2"},
    ],
    "tools": [
        WEATHER_WIRE,
        {"type": "custom", "custom": {"name": "sql", "format": {"type": "x"}}},
        {"type": "x_search", "x_search": {"sources": [{"type": "web"}]}},
    ],
    "tool_choice": {
        "type": "allowed_tools",
        "allowed_tools": {"mode": "auto", "tools": [{"type": "function", "function": {}}]},
    },
    "response_format": {
        "type": "json_schema",
        "json_schema": {"name": "a", "schema": {"type": "object", "required": ["a"]}},
    },
    "metadata": {"team": "weather"},
    "logit_bias": {"50256": -100},
}


def test_a_body_shares_nothing_with_the_request_it_came_from_or_went_to() -> None:
    request = round_trip_sharing_nothing(decode_request, encode_request, NESTED)
    # The built-in tools kept beside function tools the request no longer has.
    changed = request.model_copy(update={"tools": ()})
    first = encode_request(changed, report=TranslationReport())
    assert first["tools"] == [NESTED["tools"][2]]
    poison(first)
    assert encode_request(changed, report=TranslationReport())["tools"] == [NESTED["tools"][2]]
    # Function tools alone, sent from the request's specs.
    tools = decode_request({"model": "gpt-4o", "messages": [], "tools": [WEATHER_WIRE]})
    poison(encode_request(tools))
    assert encode_request(tools)["tools"] == [WEATHER_WIRE]


@pytest.mark.parametrize(
    "message",
    [
        {"role": "user", "content": [{"type": "text", "text": "a", "cache_control": None}]},
        {"role": "system", "content": [{"type": "text", "text": "a", "x": {"y": 1}}]},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}, "x": 1}]},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "f", "arguments": "{}"},
                    "index": 0,
                }
            ],
        },
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "custom", "custom": {"name": "f", "input": "x", "y": None}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "42", "x_meta": {"a": [1]}},
        {"role": "user", "content": "hi", "name": None},
    ],
    ids=[
        "text item with a null field",
        "system text item with an object field",
        "image item with a field beside its type",
        "call with a field beside its id, type and function",
        "custom call with a null field",
        "tool message with a field",
        "user message with a null name",
    ],
)
def test_what_a_part_or_message_has_beside_what_the_codec_writes_goes_back(
    message: dict[str, Any],
) -> None:
    body = {"model": "gpt-4o", "messages": around(message)}
    assert encode_request(decode_request(body)) == body


@pytest.mark.parametrize(
    "tool",
    [
        {"type": "function", "function": {"name": "f", "description": None}},
        {"type": "function", "function": {"name": "f", "parameters": None, "strict": None}},
        {"type": "function", "function": {"name": "f", "x_owner": {"team": ["a"]}}},
        {
            "type": "function",
            "function": {"name": "f", "parameters": {"type": "object"}, "strict": False},
        },
    ],
    ids=["null description", "null parameters and strict", "an extra field", "every field"],
)
def test_each_tool_form_goes_back_as_it_came(tool: dict[str, Any]) -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tools": [tool]}
    assert encode_request(decode_request(body)) == body


def test_calls_unanswered_before_the_next_turn_are_each_named() -> None:
    first = ToolCallPart(id="call_1", name="f", arguments="{}")
    second = ToolCallPart(id="call_2", name="f", arguments="{}")
    messages = (
        Message.assistant("Checking.", first),
        Message.assistant(second),
        Message.tool_result("call_2", "ok"),
        Message.tool_result("call_3", "ok"),
    )
    strict = TranslationReport(strict=True)  # else the call the talk went on without is answered
    with pytest.raises(InvalidDataError) as caught:
        encode_request(ChatRequest(model="gpt-4o", messages=messages), report=strict)
    assert list(caught.value.problems) == [
        (
            "messages[0].parts[1]",
            "tool call 'call_1' has no result, which openai rejects; "
            "interlingua.sanitize() repairs such a history",
        ),
        ("messages[3].parts[0]", "tool result for 'call_3' answers no open tool call"),
    ]


def test_a_dialects_tool_call_id_rules_are_the_ones_applied() -> None:
    dialect = ChatCompletionsDialect(provider="short", tool_call_id_max_length=8)
    codec = ChatCompletionsCodec(dialect)
    call = ToolCallPart(id="call_0123456789", name="f", arguments="{}")
    request = ChatRequest(
        model="m", messages=(Message.assistant(call), Message.tool_result(call.id, "ok"))
    )
    report = TranslationReport()
    body = codec.encode_request(request, report=report)
    sent = body["messages"][0]["tool_calls"][0]["id"]
    assert len(sent) <= 8
    assert body["messages"][1]["tool_call_id"] == sent
    assert losses(report) == [
        ("messages[0].parts[0].id", "transformed"),
        ("messages[1].parts[0].tool_call_id", "transformed"),
    ]
