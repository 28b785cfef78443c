"""Two forms of Anthropic requests that go back exactly as they came.

- Whitespace-only text beside other content: Anthropic rejects a message whose
  text is all whitespace, and an empty text block anywhere, but takes the
  "\\n\\n" a model writes before its tool_use blocks, so such a block is sent.
- A system turn inside `messages` (Claude Opus 4.8's mid-conversation system
  messages): a system message in its place, sent back there to Anthropic, and
  by their own rules to the other APIs (Claude Code's request among them).
- A system message made elsewhere after the conversation began: in its place
  to a model that takes a system turn, where Anthropic's placement rules allow;
  else to the top-level `system`, reported.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import recorded
from interlingua import (
    ChatRequest,
    DecodeError,
    Message,
    TextPart,
    ToolCallPart,
    TranslationError,
    TranslationReport,
    get_adapter,
    translate_request,
    validate_request,
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


# --- a system message made elsewhere, after the conversation began ---

ONLY_TOOLS = "Only use the exact tools provided."


def sent(model: str, *messages: Message) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The body a history goes to Anthropic as, and its losses (path, kind)."""
    request = ChatRequest(model=model, max_tokens=1024, messages=messages)
    report = TranslationReport()
    body = encode_request(request, report=report)
    assert request.messages == messages  # the history itself is never changed
    return body, [(loss.path, loss.kind) for loss in report.losses]


# Which models take a system turn inside `messages`: Claude Opus 4.8 by Anthropic's page;
# the later ones as the SDKs tracking Anthropic's model pages name them; the earlier ones
# answer 400 "role 'system' is not supported on this model"; Sonnet 5 is disputed.
SYSTEM_TURN_MODELS = {
    "claude-opus-4-8": True,
    "claude-opus-4-8-20260528": True,
    "anthropic:claude-opus-4-8": True,
    "claude-opus-5": True,
    "claude-opus-5-5": True,
    "claude-sonnet-5-5": True,
    "claude-haiku-5-5": True,
    "claude-fable-5-1": True,
    "claude-mythos-5": True,
    "claude-opus-4-7": False,
    "claude-sonnet-4-6": False,
    "claude-haiku-4-5-20251001": False,
    "claude-sonnet-5": False,
    "claude-3-7-sonnet-latest": False,
}


@pytest.mark.parametrize(("model", "takes"), SYSTEM_TURN_MODELS.items())
def test_a_system_message_after_the_users_turn_stays_in_place_where_the_model_takes_it(
    model: str, takes: bool
) -> None:
    body, losses = sent(model, Message.user("Hi"), Message.system(ONLY_TOOLS))

    if takes:
        assert "system" not in body
        assert body["messages"] == [
            {"role": "user", "content": "Hi"},
            {"role": "system", "content": ONLY_TOOLS},
        ]
        assert losses == []
    else:
        assert body["system"] == ONLY_TOOLS
        assert body["messages"] == [{"role": "user", "content": "Hi"}]
        assert losses == [("messages[1]", "transformed")]


@pytest.mark.parametrize(
    ("model", "history", "why"),
    [
        ("claude-sonnet-4-6", ("Hi", ONLY_TOOLS), "claude-sonnet-4-6 takes system text at the top"),
        (
            "claude-opus-4-8",
            ("Hi", ONLY_TOOLS, "Go"),
            "only right after a user turn, and before an assistant turn or at the end",
        ),
    ],
    ids=["model", "place"],
)
def test_a_system_message_moved_to_the_top_says_why_and_strict_mode_raises(
    model: str, history: tuple[str, ...], why: str
) -> None:
    messages = tuple(
        Message.system(text) if text == ONLY_TOOLS else Message.user(text) for text in history
    )
    request = ChatRequest(model=model, max_tokens=1024, messages=messages)
    report = TranslationReport()

    encode_request(request, report=report)

    loss, *joined = report.losses
    assert why in loss.reason
    # The user turns it stood between go as one, reported (a hint).
    assert [(x.path, x.level) for x in joined] == ([("messages[2]", "hint")] if history[2:] else [])
    with pytest.raises(TranslationError) as caught:
        encode_request(request, report=TranslationReport(strict=True))
    assert (caught.value.path, caught.value.kind) == ("messages[1]", "transformed")


def test_a_system_message_after_tool_results_stays_in_place() -> None:
    call = ToolCallPart(id="toolu_01A", name="get_weather", arguments='{"city": "Oslo"}')

    body, losses = sent(
        "claude-opus-4-8",
        Message.system("Be brief."),
        Message.user("Weather in Oslo?"),
        Message.assistant(call),
        Message.tool_result("toolu_01A", "snow"),
        Message.system("Answer in French."),
    )

    assert body["system"] == "Be brief."
    assert [turn["role"] for turn in body["messages"]] == ["user", "assistant", "user", "system"]
    assert body["messages"][-1] == {"role": "system", "content": "Answer in French."}
    assert losses == []


def test_system_messages_in_a_row_go_as_one_turn() -> None:
    body, losses = sent(
        "claude-opus-4-8",
        Message.user("Weather in Oslo?"),
        Message.system("Answer in French."),
        Message.system("Use metric units."),
        Message.assistant("Il neige."),
    )

    assert body["messages"][1] == {
        "role": "system",
        "content": [
            {"type": "text", "text": "Answer in French."},
            {"type": "text", "text": "Use metric units."},
        ],
    }
    assert losses == []


@pytest.mark.parametrize(
    ("history", "turns"),
    [
        # after the assistant's turn, before the user's: Anthropic wants it after a user turn
        (
            (
                Message.user("Hi"),
                Message.assistant("Hello"),
                Message.system(ONLY_TOOLS),
                Message.user("Go"),
            ),
            [
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": "Hello"},
                {"role": "user", "content": "Go"},
            ],
        ),
        # between two user turns, which Anthropic merges: it must precede an assistant turn
        (
            (Message.user("Hi"), Message.system(ONLY_TOOLS), Message.user("Go")),
            [
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "Hi"}, {"type": "text", "text": "Go"}],
                }
            ],
        ),
    ],
    ids=["after-assistant", "between-user-turns"],
)
def test_a_system_message_whose_place_anthropic_refuses_goes_to_the_top(
    history: tuple[Message, ...], turns: list[dict[str, Any]]
) -> None:
    late = next(i for i, message in enumerate(history) if message.role == "system")

    body, losses = sent("claude-opus-4-8", *history)

    assert (body["system"], body["messages"]) == (ONLY_TOOLS, turns)
    # The user turns it stood between, joined, are reported too.
    joined = [(f"messages[{late + 1}]", "transformed")] if len(turns) == 1 else []
    assert losses == [(f"messages[{late}]", "transformed"), *joined]


# --- a request shaped like Claude Code's: a system turn after the user's ---

(CLAUDE_CODE,) = recorded("anthropic/system_in_messages.json")


def claude_code_body() -> dict[str, Any]:
    assert CLAUDE_CODE.request is not None
    return CLAUDE_CODE.request.json


def test_claude_codes_system_turn_decodes_in_place_and_round_trips_exactly() -> None:
    body = claude_code_body()
    user_turn, system_turn = body["messages"]

    request = decode_request(body)

    assert [message.role for message in request.messages] == ["system", "user", "system"]
    assert request.messages[0].text == "".join(block["text"] for block in body["system"])
    assert [part.text for part in request.messages[1].parts if isinstance(part, TextPart)] == [
        block["text"] for block in user_turn["content"]
    ]
    assert request.messages[2] == Message(
        role="system",
        parts=(TextPart(text=system_turn["content"]),),
        provider_data={"anthropic": {"forms": {"in_messages": True}}},
    )
    assert [tool.name for tool in request.tools] == [tool["name"] for tool in body["tools"]]
    assert round_trip(body) == body


# Where the system turn's text arrives in each other API's body (a path of keys and
# indices), as what, and whether that is reported (Gemini and Mistral take no system
# message there: Gemini's system text is all in systemInstruction, Mistral serves no
# history ending in a system message).
ARRIVES: dict[str, tuple[tuple[str | int, ...], dict[str, Any], bool]] = {
    "openai": (("messages", -1), {"role": "system", "content": ONLY_TOOLS}, False),
    "openai-responses": (("input", -1), {"role": "system", "content": ONLY_TOOLS}, False),
    "google": (("systemInstruction", "parts", -1), {"text": ONLY_TOOLS}, True),
    "mistral": (("messages", -1), {"role": "user", "content": ONLY_TOOLS}, True),
}


@pytest.mark.parametrize("target", ARRIVES)
def test_claude_codes_system_turn_arrives_where_each_api_takes_it(target: str) -> None:
    body = claude_code_body()
    where, expected, reported = ARRIVES[target]

    there = translate_request(body, source="anthropic", target=target)

    found: Any = there.body
    for key in where:
        found = found[key]
    assert found == expected
    assert json.dumps(there.body).count(ONLY_TOOLS) == 1
    assert [(loss.path, loss.kind) for loss in there.losses] == (
        [("messages[2]", "transformed")] if reported else []
    )
    if not reported:
        assert translate_request(body, source="anthropic", target=target, strict=True) == there
        return
    with pytest.raises(TranslationError) as caught:
        translate_request(body, source="anthropic", target=target, strict=True)
    assert (caught.value.path, caught.value.kind) == ("messages[2]", "transformed")


def test_claude_codes_request_to_mistral_ends_in_a_message_mistral_serves() -> None:
    body = claude_code_body()

    there = translate_request(body, source="anthropic", target="mistral")

    roles = [message["role"] for message in there.body["messages"]]
    assert roles == ["system", "user", "user"]
    (loss,) = there.losses
    assert "Expected last role User or Tool" in loss.reason
    assert validate_request(decode_request(body), target="mistral")[0].fix == "transformed"


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
