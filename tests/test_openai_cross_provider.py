"""A history made with other providers, sent to OpenAI: what each OpenAI API can
take goes on the wire, rewritten where its rules demand; everything else is
left out and reported; the history itself never changes; strict mode raises."""

from __future__ import annotations

import base64

import pytest

import interlingua_openai
import interlingua_openai.responses
from interlingua import (
    ChatRequest,
    FilePart,
    Message,
    OpaquePart,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    TranslationError,
    TranslationReport,
)
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n-radar-").decode()
ODD_ID = "toolu_01:weather/lookup#1"  # characters OpenAI does not take
LONG_ID = "toolu_01A9bC8dE7fG6hI5jK4lM3nO2pQ1rS0tU9vW8xY7z"  # 47 characters
ODD_ID_ON_THE_WIRE = "toolu_01weatherlookup1_a1adc3d96c17"
LONG_ID_FOR_CHAT = "I5jK4lM3nO2pQ1rS0tU9vW8xY7z_286caa052814"

HISTORY = (
    Message.system("You answer weather questions."),
    Message.user("Radar for Lisbon and Porto, please."),
    Message.assistant(
        ReasoningPart(
            text="Two cities: two calls.", signature="EpgCCkYIChgC", provider="anthropic"
        ),
        "Fetching both radars.",
        ToolCallPart(id=ODD_ID, name="radar", arguments='{"city":"Lisbon"}'),
        ToolCallPart(id=LONG_ID, name="radar", arguments='{"city":"Porto"}'),
    ),
    Message(
        role="tool",
        parts=(
            ToolResultPart(
                tool_call_id=ODD_ID,
                content=(
                    TextPart(text="Rain band moving east."),
                    FilePart(media_type="image/png", data=PNG),
                ),
            ),
            ToolResultPart(tool_call_id=LONG_ID, content=(TextPart(text="Clear."),)),
        ),
    ),
    Message.assistant(
        OpaquePart(
            provider="anthropic",
            data={"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search"},
        ),
        ReasoningPart(text="Summarise both.", signature="mistral-sig", provider="mistral"),
        "Rain in Lisbon, clear in Porto.",
    ),
    Message.user("Thanks!"),
)
REQUEST = ChatRequest(model="gpt-4.1", messages=HISTORY)

CHAT_BODY = {
    "model": "gpt-4.1",
    "messages": [
        {"role": "system", "content": "You answer weather questions."},
        {"role": "user", "content": "Radar for Lisbon and Porto, please."},
        {
            "role": "assistant",
            "content": "Fetching both radars.",
            "tool_calls": [
                {
                    "id": ODD_ID_ON_THE_WIRE,
                    "type": "function",
                    "function": {"name": "radar", "arguments": '{"city":"Lisbon"}'},
                },
                {
                    "id": LONG_ID_FOR_CHAT,
                    "type": "function",
                    "function": {"name": "radar", "arguments": '{"city":"Porto"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": ODD_ID_ON_THE_WIRE, "content": "Rain band moving east."},
        {"role": "tool", "tool_call_id": LONG_ID_FOR_CHAT, "content": "Clear."},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}
            ],
        },
        {"role": "assistant", "content": "Rain in Lisbon, clear in Porto."},
        {"role": "user", "content": "Thanks!"},
    ],
}

RESPONSES_BODY = {
    "model": "gpt-4.1",
    "input": [
        {"role": "system", "content": "You answer weather questions."},
        {"role": "user", "content": "Radar for Lisbon and Porto, please."},
        {"role": "assistant", "content": "Fetching both radars."},
        {
            "type": "function_call",
            "call_id": ODD_ID_ON_THE_WIRE,
            "name": "radar",
            "arguments": '{"city":"Lisbon"}',
        },
        {
            "type": "function_call",
            "call_id": LONG_ID,
            "name": "radar",
            "arguments": '{"city":"Porto"}',
        },
        {
            "type": "function_call_output",
            "call_id": ODD_ID_ON_THE_WIRE,
            "output": [
                {"type": "input_text", "text": "Rain band moving east."},
                {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}"},
            ],
        },
        {"type": "function_call_output", "call_id": LONG_ID, "output": "Clear."},
        {"role": "assistant", "content": "Rain in Lisbon, clear in Porto."},
        {"role": "user", "content": "Thanks!"},
    ],
}


def losses(report: TranslationReport) -> list[tuple[str, str]]:
    return [(loss.path, loss.kind) for loss in report.losses]


def test_a_foreign_history_sent_to_chat_completions() -> None:
    report = TranslationReport()
    assert interlingua_openai.encode_request(REQUEST, report=report) == CHAT_BODY
    assert losses(report) == [
        ("messages[2].parts[0]", "dropped"),  # Anthropic's signed thinking
        ("messages[2].parts[2].id", "transformed"),  # odd characters
        ("messages[2].parts[3].id", "transformed"),  # over 40 characters
        ("messages[3].parts[0].tool_call_id", "transformed"),
        ("messages[3].parts[0].content[1]", "transformed"),  # the image moved to a user message
        ("messages[3].parts[1].tool_call_id", "transformed"),
        ("messages[4].parts[0]", "dropped"),  # Anthropic's opaque block
        ("messages[4].parts[1]", "dropped"),  # Mistral's reasoning
    ]
    assert "anthropic" in report.losses[0].reason
    assert report.target == "openai"


def test_a_foreign_history_sent_to_the_responses_api() -> None:
    report = TranslationReport()
    assert interlingua_openai.responses.encode_request(REQUEST, report=report) == RESPONSES_BODY
    assert losses(report) == [
        ("messages[2].parts[0]", "dropped"),
        ("messages[2].parts[2].id", "transformed"),  # 47 characters fit the Responses API's 64
        ("messages[3].parts[0].tool_call_id", "transformed"),
        ("messages[4].parts[0]", "dropped"),
        ("messages[4].parts[1]", "dropped"),
    ]
    assert report.target == "openai-responses"


def test_the_history_is_never_changed_and_encoding_is_repeatable() -> None:
    before = REQUEST.model_dump()
    first = interlingua_openai.encode_request(REQUEST, report=TranslationReport())
    again = interlingua_openai.encode_request(REQUEST, report=TranslationReport())
    assert first == again
    assert REQUEST.model_dump() == before


@pytest.mark.parametrize(
    ("codec", "target"),
    [(interlingua_openai, "openai"), (interlingua_openai.responses, "openai-responses")],
)
def test_strict_mode_raises_on_the_first_loss(codec: object, target: str) -> None:
    with pytest.raises(TranslationError) as caught:
        codec.encode_request(REQUEST, report=TranslationReport(strict=True))  # type: ignore[attr-defined]
    assert caught.value.path == "messages[2].parts[0]"
    assert caught.value.kind == "dropped"
    assert caught.value.target == target


def test_reasoning_made_by_the_responses_api_goes_back_there_only() -> None:
    reasoning = ReasoningPart(
        text="Look it up.",
        signature="gAAAAABp9Qx3",
        provider="openai-responses",
        provider_data={"openai-responses": {"fields": {"id": "rs_1"}}},
    )
    request = ChatRequest(
        model="gpt-5", messages=(Message.user("Hi"), Message.assistant(reasoning, "Hello"))
    )
    chat_report = TranslationReport()
    chat = interlingua_openai.encode_request(request, report=chat_report)
    assert chat["messages"][1] == {"role": "assistant", "content": "Hello"}
    assert losses(chat_report) == [("messages[1].parts[0]", "dropped")]
    responses = interlingua_openai.responses.encode_request(
        request, report=TranslationReport(strict=True)
    )
    assert responses["input"][1] == {
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "Look it up."}],
        "id": "rs_1",
        "encrypted_content": "gAAAAABp9Qx3",
    }


def test_a_dialect_with_reasoning_takes_back_its_own_reasoning_only() -> None:
    groq_like = ChatCompletionsDialect(
        provider="groq", reasoning_field="reasoning", message_defaults={}
    )
    own = ReasoningPart(text="2 + 2 = 4", provider="groq")
    request = ChatRequest(
        model="openai/gpt-oss-120b",
        messages=(Message.user("2+2?"), Message.assistant(own, REQUEST.messages[2].parts[0], "4")),
    )
    report = TranslationReport()
    body = ChatCompletionsCodec(groq_like).encode_request(request, report=report)
    assert body["messages"][1] == {"role": "assistant", "content": "4", "reasoning": "2 + 2 = 4"}
    assert losses(report) == [("messages[1].parts[1]", "dropped")]
    openai_report = TranslationReport()
    assert interlingua_openai.encode_request(request, report=openai_report)["messages"][1] == {
        "role": "assistant",
        "content": "4",
    }
    assert len(openai_report.losses) == 2


def test_an_opaque_part_goes_back_to_its_own_api() -> None:
    own = OpaquePart(
        provider="openai", data={"type": "input_video", "input_video": {"url": "https://x/v.mp4"}}
    )
    request = ChatRequest(model="gpt-4o", messages=(Message.user("Watch", own),))
    body = interlingua_openai.encode_request(request, report=TranslationReport(strict=True))
    assert body["messages"][0]["content"][1] == own.data
    responses_report = TranslationReport()
    interlingua_openai.responses.encode_request(request, report=responses_report)
    assert losses(responses_report) == [("messages[0].parts[1]", "dropped")]
