"""sanitize: incomplete tool-call groups dropped or repaired, each change reported."""

from __future__ import annotations

import pytest

from interlingua import (
    Message,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    TranslationError,
    TranslationLoss,
    TranslationReport,
    sanitize,
)
from interlingua.codec import missing_results

CALL_A = ToolCallPart(id="a", name="f")
CALL_B = ToolCallPart(id="b", name="g")


def result(call_id: str) -> Message:
    return Message.tool_result(call_id, "ok")


def changes(messages: list[Message]) -> list[str]:
    """What sanitize reports for `messages`, each change as text."""
    report = TranslationReport()
    sanitize(messages, report=report)
    return [str(loss) for loss in report.losses]


def test_complete_groups_are_kept_and_nothing_is_reported() -> None:
    messages = [
        Message.user("go"),
        Message.assistant(CALL_A, CALL_B),
        result("b"),
        result("a"),
        Message.assistant("done"),
    ]
    report = TranslationReport()
    assert sanitize(messages, report=report) == messages
    assert report.losses == []


def test_one_tool_message_may_answer_several_calls() -> None:
    both = Message(
        role="tool",
        parts=(ToolResultPart(tool_call_id="a"), ToolResultPart(tool_call_id="b")),
    )
    messages = [Message.assistant(CALL_A, CALL_B), both]
    assert sanitize(messages) == messages
    assert changes(messages) == []


def test_an_incomplete_group_is_dropped_whole_each_message_reported() -> None:
    messages = [Message.user("go"), Message.assistant("calling", CALL_A, CALL_B), result("a")]
    report = TranslationReport()
    assert sanitize(messages, report=report) == [Message.user("go")]
    assert report.losses == [
        TranslationLoss("messages[1]", "dropped", "tool calls with no result: 'b' (g)"),
        TranslationLoss("messages[2]", "dropped", "the results for messages[1], dropped"),
    ]


def test_a_trailing_call_with_no_result_is_dropped() -> None:
    messages = [Message.user("go"), Message.assistant(CALL_A, CALL_B)]
    assert sanitize(messages) == [Message.user("go")]
    assert changes(messages) == [
        "messages[1]: dropped: tool calls with no result: 'a' (f), 'b' (g)"
    ]


def test_an_incomplete_group_is_repaired_on_request_each_call_reported() -> None:
    messages = [Message.user("go"), Message.assistant("calling", CALL_A, CALL_B), result("a")]
    report = TranslationReport()
    repaired = sanitize(messages, repair=True, placeholder="Interrupted.", report=report)
    assert repaired[:3] == messages
    assert repaired[3] == Message(
        role="tool",
        parts=(
            ToolResultPart(
                tool_call_id="b", name="g", content=(TextPart(text="Interrupted."),), is_error=True
            ),
        ),
    )
    assert report.losses == [
        TranslationLoss(
            "messages[1].parts[2]",
            "transformed",
            "tool call 'b' (g) had no result: answered with an error",
        )
    ]


def test_results_that_answer_no_call_are_dropped_by_message_or_part() -> None:
    orphan = result("zzz")
    mixed = Message(
        role="tool",
        parts=(ToolResultPart(tool_call_id="stray"), ToolResultPart(tool_call_id="a")),
    )
    messages = [Message.user("go"), orphan, Message.assistant(CALL_A), mixed]
    assert sanitize(messages) == [
        Message.user("go"),
        Message.assistant(CALL_A),
        Message(role="tool", parts=(ToolResultPart(tool_call_id="a"),)),
    ]
    assert changes(messages) == [
        "messages[1]: dropped: tool results that follow no tool call ('zzz')",
        "messages[3].parts[0]: dropped: a result for 'stray', a call messages[2] did not make",
    ]


def test_a_tool_message_left_with_no_result_goes_and_is_reported() -> None:
    messages = [Message.assistant(CALL_A), result("a"), result("stray"), Message(role="tool")]
    assert sanitize(messages) == messages[:2]
    assert changes(messages) == [
        "messages[2].parts[0]: dropped: a result for 'stray', a call messages[0] did not make",
        "messages[3]: dropped: a tool message with no result",
    ]


def test_every_message_left_out_is_reported() -> None:
    messages = [
        result("early"),
        Message.user("go"),
        Message.assistant(CALL_A, CALL_B),
        result("a"),
        result("b"),
        Message.assistant(CALL_A),
        Message.user("again"),
    ]
    report = TranslationReport()
    kept = sanitize(messages, report=report)
    left_out = [f"messages[{i}]" for i, m in enumerate(messages) if not any(m is k for k in kept)]
    assert left_out == ["messages[0]", "messages[5]"]
    assert [loss.path for loss in report.losses] == left_out


def test_a_strict_report_raises_at_the_first_change() -> None:
    messages = [Message.user("go"), Message.assistant(CALL_A)]
    with pytest.raises(
        TranslationError, match=r"^messages\[1\]: dropped \(content\): tool calls with no"
    ):
        sanitize(messages, report=TranslationReport(strict=True))
    clean = messages[:1]
    assert sanitize(clean, report=TranslationReport(strict=True)) == clean


def test_sanitize_does_not_change_its_input() -> None:
    messages = [Message.assistant(CALL_A)]
    sanitize(messages, repair=True)
    assert messages == [Message.assistant(CALL_A)]


# --- the same repair on the wire: `missing_results`, for encoders ---


def test_missing_results_are_sanitize_s_for_calls_the_conversation_went_on_without() -> None:
    messages = [
        Message.user("go"),
        Message.assistant(CALL_A, CALL_B),
        result("a"),
        Message.user("b is 5"),
    ]
    report = TranslationReport(target="openai")

    missing = missing_results(messages, report)

    assert missing.places == {(1, 1)}
    assert missing.sent_after == {2}
    assert report.losses == []  # reported when the encoder takes the result
    added = missing.after(2, report)
    assert sanitize(messages, repair=True) == [*messages[:3], added, messages[3]]
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[1].parts[1]", "transformed")
    ]
    assert "tool call 'b' (g) has no result" in report.losses[0].reason
    assert missing.answering("messages[1].parts[1]", TranslationReport()) == added.parts[0]
    assert missing.answering("messages[1].parts[0]", TranslationReport()) is None


@pytest.mark.parametrize(
    "messages",
    [
        [Message.user("go"), Message.assistant(CALL_A)],
        [Message.user("go"), Message.assistant(CALL_A, CALL_B), result("a")],
        [Message.assistant(CALL_A), Message.user("wait"), result("a")],
    ],
    ids=["the history ends with the call", "with its results", "answered later"],
)
def test_no_result_is_missing_where_the_history_ends_or_has_one(messages: list[Message]) -> None:
    missing = missing_results(messages, TranslationReport())
    assert not missing
    assert missing.places == missing.sent_after == frozenset()


def test_no_result_is_missing_in_strict_mode() -> None:
    messages = [Message.assistant(CALL_A), Message.user("5")]
    assert missing_results(messages, TranslationReport()).places == {(0, 0)}
    assert not missing_results(messages, TranslationReport(strict=True))
