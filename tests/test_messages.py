"""Messages: role rules, constructors and accessors."""

from __future__ import annotations

import pytest

from interlingua import (
    FilePart,
    InvalidDataError,
    Message,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)


def test_constructors_turn_strings_into_text_parts() -> None:
    image = FilePart(media_type="image/png", url="https://example.com/cat.png")
    message = Message.user("What is this?", image)
    assert message.role == "user"
    assert message.parts == (TextPart(text="What is this?"), image)
    assert Message.system("Be brief.").parts == (TextPart(text="Be brief."),)


def test_constructors_take_id_and_metadata() -> None:
    message = Message.assistant("hi", id="m1", metadata={"turn": 3})
    assert (message.id, message.metadata) == ("m1", {"turn": 3})


def test_tool_result_constructor() -> None:
    message = Message.tool_result("call_1", "12 C", name="get_weather", is_error=True)
    assert message.role == "tool"
    assert message.tool_results == (
        ToolResultPart(
            tool_call_id="call_1",
            name="get_weather",
            content=(TextPart(text="12 C"),),
            is_error=True,
        ),
    )
    with_image = Message.tool_result("call_2", [FilePart(media_type="image/png", url="u")])
    assert with_image.tool_results[0].content[0].type == "file"


def test_accessors_pick_parts_by_kind() -> None:
    thinking = ReasoningPart(text="hmm", signature="sig", provider="anthropic")
    call = ToolCallPart(id="c1", name="f", arguments="{}")
    message = Message.assistant(thinking, "Hello, ", "world", call)
    assert message.text == "Hello, world"
    assert message.reasoning == (thinking,)
    assert message.tool_calls == (call,)
    assert message.tool_results == ()


@pytest.mark.parametrize(
    ("role", "part"),
    [
        ("system", FilePart(media_type="image/png", url="u")),
        ("system", ToolCallPart(id="c", name="f")),
        ("user", ToolCallPart(id="c", name="f")),
        ("user", ReasoningPart(text="x")),
        ("user", ToolResultPart(tool_call_id="c")),
        ("assistant", ToolResultPart(tool_call_id="c")),
        ("tool", TextPart(text="x")),
    ],
)
def test_a_part_that_does_not_fit_the_role_is_refused(role: str, part: object) -> None:
    with pytest.raises(InvalidDataError) as caught:
        Message(role=role, parts=(TextPart(text="ok"), part) if role != "tool" else (part,))  # type: ignore[arg-type]
    text = str(caught.value)
    assert f"({part.type})" in text  # type: ignore[attr-defined]
    assert f"not allowed in a {role} message" in text
    assert caught.value.path == f"parts[{1 if role != 'tool' else 0}]"


@pytest.mark.parametrize(
    ("role", "part"),
    [
        ("user", OpaquePart(provider="anthropic", data={"type": "x"})),
        ("assistant", RefusalPart(text="no")),
        ("assistant", FilePart(media_type="audio/wav", data="AAAA")),
        ("assistant", OpaquePart(provider="anthropic", data={"type": "server_tool_use"})),
    ],
)
def test_parts_that_fit_the_role_are_taken(role: str, part: object) -> None:
    assert Message(role=role, parts=(part,)).parts == (part,)  # type: ignore[arg-type]


def test_an_unknown_role_is_refused() -> None:
    with pytest.raises(InvalidDataError, match=r"at role: Input should be 'system'"):
        Message(role="developer", parts=())  # type: ignore[arg-type]


def test_an_unknown_part_type_names_the_part() -> None:
    with pytest.raises(InvalidDataError) as caught:
        Message.model_validate({"role": "user", "parts": [{"type": "video_frame"}]})
    assert "video_frame" in str(caught.value)


def test_a_message_round_trips_through_json() -> None:
    message = Message.assistant(
        ReasoningPart(text="x", signature="s", provider="anthropic"),
        "answer",
        ToolCallPart(id="c1", name="f", arguments='{"a":1}'),
        id="msg_1",
        metadata={"source": "test"},
        provider_data={"openai": {"fields": {"name": "bot"}}},
    )
    assert Message.model_validate_json(message.model_dump_json()) == message


def test_messages_with_the_same_content_are_equal() -> None:
    assert Message.user("a") == Message.user("a")
    assert Message.user("a") != Message.assistant("a")


def test_a_copy_with_changes_is_checked_like_a_new_message() -> None:
    message = Message.assistant(ToolCallPart(id="c", name="f"))
    with pytest.raises(InvalidDataError, match=r"at parts\[0\]: part 0 \(tool_call\)"):
        message.model_copy(update={"role": "system"})
    assert message.model_copy(update={"id": "m1"}).id == "m1"
