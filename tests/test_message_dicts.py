"""Message.from_dicts: messages from plain `{"role", "content"}` dicts, with tool
calls and results in OpenAI's shape; a bad dict named by index and field."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua import InvalidDataError, Message, TextPart, ToolCallPart, ToolResultPart


def test_a_plain_history_becomes_messages() -> None:
    history = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi!"},
        {"role": "assistant", "content": "Hello."},
    ]
    assert Message.from_dicts(history) == [
        Message.system("Be brief."),
        Message.user("Hi!"),
        Message.assistant("Hello."),
    ]


def test_tool_calls_and_results_in_openais_shape() -> None:
    history = [
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                },
                {"id": "call_2", "function": {"name": "get_time"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": "21 C"},
        {"role": "tool", "tool_call_id": "call_2", "content": "noon"},
    ]
    assert Message.from_dicts(history) == [
        Message.assistant(
            "Checking.",
            ToolCallPart(id="call_1", name="get_weather", arguments='{"city":"Paris"}'),
            ToolCallPart(id="call_2", name="get_time", arguments="{}"),
        ),
        Message.tool_result("call_1", "21 C", name="get_weather"),
        Message.tool_result("call_2", "noon"),
    ]


def test_empty_or_null_content_gives_no_text_part() -> None:
    history = [
        {"role": "user", "content": ""},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c", "function": {"name": "f"}}],
        },
        {"role": "assistant"},
        {"role": "tool", "tool_call_id": "c", "content": ""},
    ]
    assert [m.parts for m in Message.from_dicts(history)] == [
        (),
        (ToolCallPart(id="c", name="f"),),
        (),
        (ToolResultPart(tool_call_id="c"),),
    ]


def test_keys_that_hold_nothing_are_read_past() -> None:
    # What `openai`'s ChatCompletionMessage.model_dump() gives for a plain answer.
    dumped = {
        "role": "assistant",
        "content": "Hello.",
        "refusal": None,
        "annotations": [],
        "audio": None,
        "function_call": None,
        "tool_calls": None,
    }
    assert Message.from_dicts([dumped]) == [Message.assistant("Hello.")]


def test_any_iterable_of_dicts_is_read() -> None:
    texts = ("one", "two")
    messages = Message.from_dicts({"role": "user", "content": t} for t in texts)
    assert [m.text for m in messages] == ["one", "two"]
    assert messages[0].parts == (TextPart(text="one"),)


@pytest.mark.parametrize(
    ("data", "path", "problem"),
    [
        ("hi", "messages[1]", "expected a dict, got str"),
        ({"content": "hi"}, "messages[1].role", "expected one of system, user, assistant, tool"),
        ({"role": "developer", "content": "hi"}, "messages[1].role", "got 'developer'"),
        ({"role": "user"}, "messages[1].content", "field required"),
        ({"role": "tool", "tool_call_id": "c"}, "messages[1].content", "field required"),
        (
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            "messages[1].content",
            "expected a string, got list",
        ),
        (
            {"role": "user", "content": "hi", "name": "ann"},
            "messages[1].name",
            "not read from a user dict, which takes content, role",
        ),
        (
            {"role": "user", "content": "hi", "tool_calls": [{"id": "c"}]},
            "messages[1].tool_calls",
            "not read from a user dict",
        ),
        ({"role": "tool", "content": "ok"}, "messages[1].tool_call_id", "field required"),
        (
            {"role": "assistant", "tool_calls": {"id": "c"}},
            "messages[1].tool_calls",
            "expected a list of tool calls, got dict",
        ),
        (
            {"role": "assistant", "tool_calls": [{"id": "c", "type": "custom"}]},
            "messages[1].tool_calls[0].type",
            "expected 'function', got 'custom'",
        ),
        (
            {"role": "assistant", "tool_calls": [{"id": "c"}]},
            "messages[1].tool_calls[0].function",
            "expected a dict with the name and arguments",
        ),
        (
            {"role": "assistant", "tool_calls": [{"function": {"name": "f"}}]},
            "messages[1].tool_calls[0].id",
            "field required",
        ),
        (
            {"role": "assistant", "tool_calls": [{"id": "c", "function": {"arguments": "{}"}}]},
            "messages[1].tool_calls[0].function.name",
            "field required",
        ),
        (
            {
                "role": "assistant",
                "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": {}}}],
            },
            "messages[1].tool_calls[0].function.arguments",
            "expected a string, got dict",
        ),
    ],
)
def test_a_bad_dict_is_named_by_index_and_field(data: Any, path: str, problem: str) -> None:
    with pytest.raises(InvalidDataError) as caught:
        Message.from_dicts([{"role": "user", "content": "fine"}, data])
    assert caught.value.path == path
    assert problem in str(caught.value)
    assert str(caught.value).startswith(f"invalid message dict at {path}: ")
