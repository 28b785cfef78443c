"""A tool call the conversation went on without answering, moved between APIs.

`fixtures/google/tool_call_answered_in_text.json`: a client library sends
Gemini the result of its `add(2, 3)` call as a user turn `{"text": "5"}`
after the model's `functionCall` (with Gemini 3's `id`, and without one), no
`functionResponse`; Gemini answers 200. Every other API rejects a call
without its result, so the call is sent there with the error result
`sanitize(repair=True)` adds, where the target wants it, the user's text
after it, and reported as transformed at the call; strict mode raises as
for any unanswered call, and a call the history ends with stays an error.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import recorded
from interlingua import (
    ChatRequest,
    FinishReason,
    InvalidDataError,
    Message,
    TextPart,
    ToolCallPart,
    TranslationReport,
    get_adapter,
    sanitize,
    translate_request,
    validate_request,
)
from interlingua.testing import Interaction
from interlingua_google import decode_request, decode_response

WITH_ID, WITHOUT_ID = recorded("google/tool_call_answered_in_text.json")
PLACEHOLDER = "The tool call was not completed."
CALL = "messages[1].parts[0]"
SIGNATURE = f"{CALL}.provider_data.google.fields.thoughtSignature"

# Each API's losses for the recorded body without an id: the call answered,
# and what else the target changes (Anthropic's required max_tokens, Mistral's
# id rule and its assistant turn between a tool and a user message, DeepSeek's
# reasoning on a tool-call turn); Perplexity takes no tools, and drops the call.
LOSSES: dict[str, list[tuple[str, str]]] = {
    "anthropic": [(CALL, "transformed"), ("max_tokens", "transformed")],
    "openai": [(CALL, "transformed")],
    "openai-responses": [(CALL, "transformed")],
    "mistral": [
        (f"{CALL}.id", "transformed"),
        (CALL, "transformed"),
        ("messages[2]", "transformed"),
    ],
    "groq": [(CALL, "transformed")],
    "deepseek": [("messages[1]", "transformed"), (CALL, "transformed")],
    "cerebras": [(CALL, "transformed")],
    "ollama": [(CALL, "transformed")],
    "openai-compatible": [(CALL, "transformed")],
    "openrouter": [(CALL, "transformed")],
    "xai": [(CALL, "transformed")],
    "perplexity": [("tools[0]", "dropped"), (CALL, "dropped"), ("messages[2]", "transformed")],
}
# The APIs that reject a call without its result (all but Perplexity, which takes no calls).
REJECTING = sorted(set(LOSSES) - {"perplexity"})
CHAT_COMPLETIONS = sorted(set(REJECTING) - {"anthropic", "openai-responses"})


def gemini(interaction: Interaction) -> dict[str, Any]:
    body = interaction.request.json
    assert isinstance(body, dict)
    return body


def sent_call_id(interaction: Interaction) -> str:
    """The call's id as the recording gives it, or the one made for it."""
    (part,) = gemini(interaction)["contents"][1]["parts"]
    return str(
        part["functionCall"].get("id")
        or decode_request(gemini(interaction)).messages[1].tool_calls[0].id
    )


# --- the recording ---


@pytest.mark.parametrize("interaction", [WITH_ID, WITHOUT_ID], ids=["with an id", "without"])
def test_gemini_took_the_call_answered_in_a_user_turn(interaction: Interaction) -> None:
    body = gemini(interaction)
    (call,) = body["contents"][1]["parts"]
    request = decode_request(body)

    ask, model, said = request.messages
    assert (ask.role, ask.text) == ("user", body["contents"][0]["parts"][0]["text"])
    (part,) = model.parts
    assert isinstance(part, ToolCallPart)
    assert (part.name, json.loads(part.arguments)) == ("add", call["functionCall"]["args"])
    if "id" in call["functionCall"]:
        assert part.id == call["functionCall"]["id"]
    assert (said.role, said.parts) == ("user", (TextPart(text="5"),))
    assert interaction.response.status == 200
    answer = decode_response(interaction.response.json)
    assert answer.finish_reason is FinishReason.STOP
    assert (
        answer.message.text
        == interaction.response.json["candidates"][0]["content"]["parts"][0]["text"]
    )


@pytest.mark.parametrize("interaction", [WITH_ID, WITHOUT_ID], ids=["with an id", "without"])
def test_gemini_to_gemini_is_unchanged_and_unreported(interaction: Interaction) -> None:
    translated = translate_request(gemini(interaction), source="google", target="google")

    assert translated.body == gemini(interaction)
    assert translated.losses == []


# --- to every other API ---


@pytest.mark.parametrize("target", sorted(LOSSES))
@pytest.mark.parametrize("interaction", [WITH_ID, WITHOUT_ID], ids=["with an id", "without"])
def test_each_api_is_sent_the_call_answered_and_told(target: str, interaction: Interaction) -> None:
    translated = translate_request(gemini(interaction), source="google", target=target)

    expected = LOSSES[target]
    if interaction is WITH_ID and target != "perplexity":
        expected = [*expected, (SIGNATURE, "dropped")]  # Gemini's own, as for any call
    assert [(loss.path, loss.kind) for loss in translated.losses] == expected
    if target != "perplexity":
        (answered,) = [loss for loss in translated.losses if loss.path == CALL]
        assert f"tool call {sent_call_id(interaction)!r} (add) has no result" in answered.reason
        assert PLACEHOLDER in answered.reason


@pytest.mark.parametrize("target", CHAT_COMPLETIONS)
def test_chat_completions_apis_get_a_tool_message_before_the_user_s_text(target: str) -> None:
    body = translate_request(gemini(WITHOUT_ID), source="google", target=target).body

    messages = body["messages"]
    roles = [message["role"] for message in messages]
    bridge = ["assistant"] if target == "mistral" else []  # no user right after a tool message
    assert roles == ["user", "assistant", "tool", *bridge, "user"]
    (call,) = messages[1]["tool_calls"]
    assert messages[2] == {
        "role": "tool",
        "tool_call_id": call["id"],
        "content": PLACEHOLDER,
    }
    assert messages[-1] == {"role": "user", "content": "5"}


def test_anthropic_gets_the_error_result_first_in_the_user_s_turn() -> None:
    body = translate_request(gemini(WITH_ID), source="google", target="anthropic").body

    assert body["messages"] == [
        {"role": "user", "content": "What is 2 + 3? Use the add tool."},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "Vb3kQm7x", "name": "add", "input": {"a": 2, "b": 3}}
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "Vb3kQm7x",
                    "content": PLACEHOLDER,
                    "is_error": True,
                },
                {"type": "text", "text": "5"},
            ],
        },
    ]


def test_the_responses_api_gets_a_function_call_output() -> None:
    body = translate_request(gemini(WITH_ID), source="google", target="openai-responses").body

    assert body["input"] == [
        {"role": "user", "content": "What is 2 + 3? Use the add tool."},
        {
            "type": "function_call",
            "call_id": "Vb3kQm7x",
            "name": "add",
            "arguments": '{"a":2,"b":3}',
        },
        {"type": "function_call_output", "call_id": "Vb3kQm7x", "output": PLACEHOLDER},
        {"role": "user", "content": "5"},
    ]


def test_openai_gets_the_exact_messages() -> None:
    body = translate_request(gemini(WITH_ID), source="google", target="openai").body

    assert body["messages"] == [
        {"role": "user", "content": "What is 2 + 3? Use the add tool."},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "Vb3kQm7x",
                    "type": "function",
                    "function": {"name": "add", "arguments": '{"a":2,"b":3}'},
                }
            ],
            "content": None,
        },
        {"role": "tool", "tool_call_id": "Vb3kQm7x", "content": PLACEHOLDER},
        {"role": "user", "content": "5"},
    ]


@pytest.mark.parametrize("target", REJECTING)
def test_the_wire_repair_is_sanitize_s(target: str) -> None:
    """The body sent is the one the history `sanitize(repair=True)` mends gives."""
    request = decode_request(gemini(WITHOUT_ID))
    mended = request.model_copy(update={"messages": tuple(sanitize(request.messages, repair=True))})
    adapter = get_adapter(target)

    sent = adapter.encode_request(request, report=TranslationReport())

    assert sent == adapter.encode_request(mended, report=TranslationReport())
    assert request == decode_request(gemini(WITHOUT_ID))  # the history is not changed


@pytest.mark.parametrize("target", REJECTING)
def test_strict_mode_raises_naming_the_call(target: str) -> None:
    # DeepSeek's chat model has no thinking mode, whose reasoning would be reported first.
    request = decode_request(gemini(WITHOUT_ID)).model_copy(update={"model": "deepseek-chat"})

    with pytest.raises(InvalidDataError) as raised:
        get_adapter(target).encode_request(request, report=TranslationReport(strict=True))

    assert raised.value.path == CALL
    assert "has no result" in str(raised.value)


@pytest.mark.parametrize("target", REJECTING)
def test_validate_request_names_the_fix(target: str) -> None:
    problems = validate_request(decode_request(gemini(WITHOUT_ID)), target=target)

    assert (CALL, "transformed") in [(problem.path, problem.fix) for problem in problems]


@pytest.mark.parametrize("target", [*CHAT_COMPLETIONS, "openai-responses"])
def test_a_call_the_history_ends_with_stays_an_error(target: str) -> None:
    request = decode_request(gemini(WITHOUT_ID))
    ending = request.model_copy(update={"messages": request.messages[:2]})

    (problem,) = validate_request(ending, target=target)

    assert (problem.path, problem.fix) == (CALL, None)


# --- where the result goes when the calls' turn has more ---

ASKED = Message.user("Add and multiply 2 and 3.")
ADD = ToolCallPart(id="call_add", name="add", arguments='{"a":2,"b":3}')
MUL = ToolCallPart(id="call_mul", name="mul", arguments='{"a":2,"b":3}')
PARTLY = (
    ASKED,
    Message.assistant(ADD, MUL),
    Message.tool_result("call_add", "5"),
    Message.user("And 6 for the other."),
)


def encoded(target: str, messages: tuple[Message, ...]) -> tuple[dict[str, Any], list[Any]]:
    report = TranslationReport()
    request = ChatRequest(model="m", max_tokens=64, messages=messages)
    return get_adapter(target).encode_request(request, report=report), report.losses


def test_a_call_left_out_of_its_turn_s_results_is_answered_after_them() -> None:
    body, losses = encoded("openai", PARTLY)

    assert [message.get("tool_call_id") for message in body["messages"][2:4]] == [
        "call_add",
        "call_mul",
    ]
    assert body["messages"][3]["content"] == PLACEHOLDER
    assert body["messages"][4] == {"role": "user", "content": "And 6 for the other."}
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[1].parts[1]", "transformed")]


def test_anthropic_answers_it_after_the_turn_s_results_before_the_text() -> None:
    body, losses = encoded("anthropic", PARTLY)

    (turn,) = body["messages"][2:]
    assert [(block["type"], block.get("tool_use_id")) for block in turn["content"]] == [
        ("tool_result", "call_add"),
        ("tool_result", "call_mul"),
        ("text", None),
    ]
    assert turn["content"][1]["is_error"] is True
    assert [(loss.path, loss.kind) for loss in losses] == [("messages[1].parts[1]", "transformed")]


def test_anthropic_puts_a_user_turn_between_the_call_and_the_next_assistant_turn() -> None:
    messages = (
        ASKED,
        Message.assistant(ADD),
        Message.assistant("It is 5."),
        Message.user("Thanks"),
    )

    body, losses = encoded("anthropic", messages)

    assert [turn["role"] for turn in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][1]["content"][1] == {"type": "text", "text": "It is 5."}
    assert body["messages"][2]["content"][0]["tool_use_id"] == "call_add"
    assert [(loss.path, loss.kind) for loss in losses] == [
        ("messages[2]", "transformed"),  # joined to the calls' turn
        ("messages[1].parts[0]", "transformed"),
    ]


def test_anthropic_answers_a_call_an_assistant_message_ends_the_history_after() -> None:
    # No user turn follows the calls' turn to pair them with: still answered.
    messages = (ASKED, Message.assistant(ADD), Message.assistant("It is 5."))

    body, losses = encoded("anthropic", messages)

    assert [turn["role"] for turn in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][1]["content"][1] == {"type": "text", "text": "It is 5."}
    (result,) = body["messages"][2]["content"]
    assert (result["tool_use_id"], result["is_error"]) == ("call_add", True)
    assert [(loss.path, loss.kind) for loss in losses] == [
        ("messages[2]", "transformed"),  # joined to the calls' turn
        ("messages[1].parts[0]", "transformed"),
    ]


def test_a_result_given_later_is_not_invented_but_judged_by_the_target() -> None:
    late = (
        ASKED,
        Message.assistant(ADD),
        Message.user("Well?"),
        Message.tool_result("call_add", "5"),
    )

    with pytest.raises(InvalidDataError) as raised:
        encoded("openai", late)
    assert [path for path, _ in raised.value.problems] == [
        "messages[1].parts[0]",
        "messages[3].parts[0]",
    ]
    body, losses = encoded("openai-responses", late)  # takes an output anywhere after its call
    assert [item.get("type") for item in body["input"]] == [
        None,
        "function_call",
        None,
        "function_call_output",
    ]
    assert losses == []
