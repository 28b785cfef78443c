"""When a message was said and edited: `created_at` and `updated_at`.

Set by a `ChatHistory` as messages are added and replaced, kept in UTC, saved
and loaded with the history, left out of equality, and never sent to a provider.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from interlingua import (
    ChatHistory,
    ChatRequest,
    ChatResponse,
    FinishReason,
    InvalidDataError,
    Message,
    TokenUsage,
    ToolCallPart,
    TranslationReport,
    get_adapter,
)

NOON = datetime(2025, 5, 1, 12, 0, tzinfo=timezone.utc)
LATER = NOON + timedelta(minutes=5)


class Span:
    """The time before and after a `with` block, to check a stamp made in it."""

    def __enter__(self) -> Span:
        self.before = datetime.now(timezone.utc)
        return self

    def __exit__(self, *exc: object) -> None:
        self.after = datetime.now(timezone.utc)

    def holds(self, when: datetime | None) -> bool:
        return when is not None and self.before <= when <= self.after


def test_a_message_built_alone_has_no_times() -> None:
    message = Message.user("hi")
    assert (message.created_at, message.updated_at) == (None, None)


def test_adding_a_message_stamps_the_time_it_was_added_in_utc() -> None:
    history = ChatHistory()
    with Span() as span:
        history.add_message(Message.user("hi"))
    stamped = history.last_message
    assert span.holds(stamped.created_at)
    assert stamped.created_at is not None
    assert stamped.created_at.tzinfo is timezone.utc
    assert stamped.updated_at is None


def test_a_message_that_has_its_time_keeps_it() -> None:
    history = ChatHistory()
    history.add_message(Message.user("hi", created_at=NOON))
    assert history.last_message.created_at == NOON


def test_adding_a_response_stamps_its_message() -> None:
    history = ChatHistory()
    with Span() as span:
        history.add_response(ChatResponse(message=Message.assistant("hello")))
    assert span.holds(history.last_message.created_at)


def test_messages_given_whole_keep_what_they_carry() -> None:
    history = ChatHistory(messages=[Message.user("hi")])
    history.messages.append(Message.assistant("hello"))
    assert [m.created_at for m in history] == [None, None]


def test_replacing_a_message_is_an_edit_stamped_updated_at() -> None:
    history = ChatHistory()
    history.add_message(Message.user("hi", created_at=NOON))
    history.add_message(Message.assistant("hello", created_at=NOON))
    with Span() as span:
        history.replace_message(0, Message.user("hi there", created_at=LATER))
    edited = history.messages[0]
    assert edited.text == "hi there"
    assert edited.created_at == NOON  # when it was first said
    assert span.holds(edited.updated_at)
    assert history.messages[1].updated_at is None


def test_replacing_takes_the_new_messages_time_if_the_old_had_none() -> None:
    history = ChatHistory(messages=[Message.user("hi")])
    history.replace_message(-1, Message.user("hi there", created_at=LATER))
    assert history.last_message.created_at == LATER


def test_replacing_checks_the_place_and_the_message() -> None:
    history = ChatHistory(messages=[Message.user("hi")])
    with pytest.raises(IndexError):
        history.replace_message(1, Message.user("hi there"))
    with pytest.raises(InvalidDataError, match=r"at messages\[0\]: expected a Message, got str"):
        history.replace_message(0, "hi there")  # type: ignore[arg-type]
    assert history.last_message == Message.user("hi")


def test_times_must_be_aware_and_are_kept_in_utc() -> None:
    paris = timezone(timedelta(hours=2))
    message = Message.user("hi", created_at=datetime(2025, 5, 1, 14, 0, tzinfo=paris))
    assert message.created_at == NOON
    assert message.created_at is not None
    assert message.created_at.tzinfo is timezone.utc
    with pytest.raises(InvalidDataError, match="at created_at: Input should have timezone info"):
        Message.user("hi", created_at=datetime(2025, 5, 1, 12, 0))


def test_messages_equal_but_for_their_times_are_equal() -> None:
    stamped = Message.user("hi", created_at=NOON, updated_at=LATER)
    assert stamped == Message.user("hi")
    assert stamped != Message.user("hi", metadata={"k": 1})
    assert stamped != Message.assistant("hi")
    assert ChatHistory(messages=[stamped]) == ChatHistory(messages=[Message.user("hi")])
    assert stamped.__eq__("hi") is NotImplemented
    with pytest.raises(TypeError, match="unhashable"):
        hash(stamped)


def test_times_are_saved_and_loaded_back(tmp_path: Path) -> None:
    history = ChatHistory()
    history.add_message(Message.user("hi", created_at=NOON))
    history.replace_message(0, Message.user("hi there"))
    history.add_message(Message.assistant("hello"))
    path = tmp_path / "chat.json"

    history.save(path)
    loaded = ChatHistory.load(path)

    def times(h: ChatHistory) -> list[tuple[datetime | None, datetime | None]]:
        return [(m.created_at, m.updated_at) for m in h]

    assert times(loaded) == times(history)
    assert json.loads(path.read_text())["messages"][0]["created_at"] == "2025-05-01T12:00:00Z"


def test_the_file_schema_describes_the_times() -> None:
    fields = ChatHistory.json_schema()["$defs"]["Message"]["properties"]
    for name in ("created_at", "updated_at"):
        assert {"format": "date-time", "type": "string"} in fields[name]["anyOf"]


# --- never sent: each adapter encodes a stamped message as it does one without ---

ADAPTERS = ["anthropic", "openai", "openai-responses", "mistral", "groq"]
CALL = ToolCallPart(id="call1", name="get_weather", arguments='{"city": "Paris"}')


def conversation() -> list[Message]:
    return [
        Message.system("Answer briefly."),
        Message.user("Weather in Paris?"),
        Message.assistant("Checking.", CALL),
        Message.tool_result("call1", "Sunny, 21 C", name="get_weather"),
        Message.assistant("Sunny, 21 C."),
        Message.user("And tomorrow?"),
    ]


def stamped(message: Message) -> Message:
    return message.model_copy(update={"created_at": NOON, "updated_at": LATER})


@pytest.mark.parametrize("name", ADAPTERS)
def test_a_request_is_encoded_the_same_with_or_without_times(name: str) -> None:
    adapter = get_adapter(name)
    plain = ChatRequest(model="m", max_tokens=64, messages=tuple(conversation()))
    timed = plain.model_copy(update={"messages": tuple(map(stamped, conversation()))})
    plain_report, timed_report = TranslationReport(), TranslationReport()

    body = adapter.encode_request(timed, report=timed_report)

    assert body == adapter.encode_request(plain, report=plain_report)
    assert timed_report.losses == plain_report.losses
    assert "2025-05-01" not in json.dumps(body)


@pytest.mark.parametrize("name", ADAPTERS)
def test_a_response_is_encoded_the_same_with_or_without_times(name: str) -> None:
    adapter = get_adapter(name)
    plain = ChatResponse(
        id="r1",
        model="m",
        message=Message.assistant("Checking.", CALL),
        finish_reason=FinishReason.TOOL_CALLS,
        usage=TokenUsage(input_tokens=10, output_tokens=5),
    )
    timed = plain.model_copy(update={"message": stamped(plain.message)})

    body = adapter.encode_response(timed, report=TranslationReport())

    # An answer that says not when it was made is stamped when it is written, each time.
    assert unstamped(body) == unstamped(adapter.encode_response(plain, report=TranslationReport()))
    assert "2025-05-01" not in json.dumps(body)


def unstamped(body: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key not in {"created", "created_at"}}
