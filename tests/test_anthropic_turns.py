"""Two forms of Anthropic requests that go back exactly as they came.

- Whitespace-only text beside other content: Anthropic rejects a message whose
  text is all whitespace, and an empty text block anywhere, but takes the
  "\\n\\n" a model writes before its tool_use blocks, so such a block is sent.
- A system turn inside `messages` (Claude Opus 4.8's mid-conversation system
  messages): a system message in its place, sent back there to Anthropic, and
  by their own rules to the other APIs.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from interlingua import (
    ChatRequest,
    DecodeError,
    Message,
    TextPart,
    TranslationReport,
    get_adapter,
)
from interlingua_anthropic import decode_request, encode_request


def body_of(*turns: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "claude-opus-4-8", "max_tokens": 1024, **fields, "messages": list(turns)}


def round_trip(body: dict[str, Any]) -> dict[str, Any]:
    return encode_request(decode_request(body), report=TranslationReport(strict=True))


def tool_use(call_id: str, city: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "get_weather", "input": {"city": city}}


def tool_result(call_id: str, text: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": text}


WEATHER_CALLS = body_of(
    {"role": "user", "content": "What's the weather in Paris and Oslo?"},
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "\n\n"},
            tool_use("toolu_01A", "Paris"),
            tool_use("toolu_01B", "Oslo"),
        ],
    },
    {
        "role": "user",
        "content": [tool_result("toolu_01A", "rain"), tool_result("toolu_01B", "snow")],
    },
)


# --- whitespace-only text ---


def test_whitespace_text_before_tool_use_blocks_round_trips_exactly() -> None:
    request = decode_request(WEATHER_CALLS)

    assert request.messages[1].parts[0] == TextPart(text="\n\n")
    assert round_trip(WEATHER_CALLS) == WEATHER_CALLS


def test_whitespace_text_beside_other_text_round_trips_exactly() -> None:
    body = body_of(
        {"role": "user", "content": [{"type": "text", "text": "Hi"}, {"type": "text", "text": " "}]}
    )

    assert round_trip(body) == body


def test_a_prefill_ending_in_whitespace_only_text_leaves_that_block_out() -> None:
    request = ChatRequest(
        model="claude-opus-4-8",
        max_tokens=1024,
        messages=(
            Message.user("Name a colour."),
            Message.assistant("The colour is ", TextPart(text="\n")),
        ),
    )
    report = TranslationReport()

    body = encode_request(request, report=report)

    assert body["messages"][-1] == {"role": "assistant", "content": "The colour is"}
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[1].parts[1]", "dropped"),
        ("messages[1].parts[0]", "transformed"),
    ]
    assert request.messages[1].parts[1] == TextPart(text="\n")


# --- system turns inside messages ---

MID_CONVERSATION_SYSTEM = body_of(
    {"role": "user", "content": "Weather in Oslo?"},
    {"role": "system", "content": "Answer in French."},
    {"role": "assistant", "content": "Il neige."},
    {"role": "user", "content": "And Paris?"},
    {
        "role": "system",
        "content": [
            {"type": "text", "text": "Use metric units.", "cache_control": {"type": "ephemeral"}}
        ],
    },
    system="Be brief.",
)


def test_a_system_turn_decodes_to_a_system_message_in_its_place() -> None:
    request = decode_request(MID_CONVERSATION_SYSTEM)

    assert [(message.role, message.text) for message in request.messages] == [
        ("system", "Be brief."),
        ("user", "Weather in Oslo?"),
        ("system", "Answer in French."),
        ("assistant", "Il neige."),
        ("user", "And Paris?"),
        ("system", "Use metric units."),
    ]
    assert request.messages[2].provider_data == {"anthropic": {"forms": {"in_messages": True}}}


def test_system_turns_round_trip_exactly() -> None:
    assert round_trip(MID_CONVERSATION_SYSTEM) == MID_CONVERSATION_SYSTEM


def test_a_system_turn_with_its_own_fields_and_one_block_round_trips_exactly() -> None:
    body = body_of(
        {"role": "user", "content": "Hi"},
        {
            "role": "system",
            "content": [{"type": "text", "text": "Be terse."}],
            "cache_control": {"type": "ephemeral"},
        },
    )

    assert round_trip(body) == body


def test_a_system_turn_between_user_turns_keeps_them_apart() -> None:
    body = body_of(
        {"role": "user", "content": "Hi"},
        {"role": "system", "content": "Be terse."},
        {"role": "user", "content": "Weather?"},
    )

    assert round_trip(body) == body


def test_a_system_turn_holding_anything_but_text_raises_naming_the_block() -> None:
    body = body_of(
        {"role": "user", "content": "Hi"},
        {"role": "system", "content": [WEATHER_CALLS["messages"][1]["content"][1]]},
    )

    with pytest.raises(DecodeError) as raised:
        decode_request(body)

    assert raised.value.path == "messages[1].content[0].type"


def test_a_late_system_message_made_elsewhere_still_goes_to_the_top() -> None:
    request = ChatRequest(
        model="claude-opus-4-8",
        max_tokens=1024,
        messages=(Message.user("Hi"), Message.system("Be terse."), Message.assistant("Hello")),
    )
    report = TranslationReport()

    body = encode_request(request, report=report)

    assert body["system"] == "Be terse."
    assert [turn["role"] for turn in body["messages"]] == ["user", "assistant"]
    assert [(loss.path, loss.kind) for loss in report.losses] == [("messages[1]", "transformed")]


def test_thinking_rules_look_past_a_final_system_turn() -> None:
    body = body_of(
        *WEATHER_CALLS["messages"],
        {"role": "system", "content": "Be brief."},
        thinking={"type": "enabled", "budget_tokens": 1024},
    )
    report = TranslationReport()

    sent = encode_request(decode_request(body), report=report)

    assert sent["thinking"] == {"type": "disabled"}
    assert [loss.path for loss in report.losses] == ["reasoning"]


@pytest.mark.parametrize("target", ["openai", "openai-responses", "mistral", "groq"])
def test_a_system_turn_goes_to_every_other_api_in_its_place(target: str) -> None:
    body = body_of(*MID_CONVERSATION_SYSTEM["messages"][:4], system="Be brief.")
    request = decode_request(body)
    report = TranslationReport()

    sent = get_adapter(target).encode_request(request, report=report)

    messages = sent.get("messages") or sent["input"]
    texts = [json.dumps(message) for message in messages]
    late = next(k for k, text in enumerate(texts) if "Answer in French." in text)
    assert '"system"' in texts[late]
    assert "Weather in Oslo?" in texts[late - 1]
    assert report.losses == []
