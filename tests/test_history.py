"""ChatHistory: building, saving, loading, migrating."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua import (
    HISTORY_FORMAT,
    HISTORY_VERSION,
    ChatHistory,
    ChatResponse,
    FilePart,
    FinishReason,
    HistoryFormatError,
    InvalidDataError,
    Message,
    ReasoningPart,
    TokenUsage,
    ToolCallPart,
)


def conversation() -> list[Message]:
    return [
        Message.system("You answer about the weather."),
        Message.user("What is in this picture?", FilePart.from_bytes(b"\x89PNG", "image/png")),
        Message.assistant(
            ReasoningPart(text="A sky; check the weather.", signature="EqQB", provider="anthropic"),
            "Let me look it up.",
            ToolCallPart(id="toolu_01", name="get_weather", arguments='{"city": "Paris"}'),
        ),
        Message.tool_result("toolu_01", "Sunny, 21 C", name="get_weather"),
        Message.assistant("A clear sky over Paris: sunny, 21 C."),
    ]


def test_a_conversation_is_saved_and_loaded_back_equal(tmp_path: Path) -> None:
    history = ChatHistory(id="h1", title="Weather", metadata={"user": "u1"})
    for message in conversation():
        history.add_message(message)
    history.artefacts.append({"kind": "report", "text": "sunny"})
    path = tmp_path / "history.json"

    history.save(path)
    loaded = ChatHistory.load(path)

    assert loaded == history
    assert loaded.last_message.text == "A clear sky over Paris: sunny, 21 C."
    document = json.loads(path.read_text())
    assert (document["format"], document["version"]) == (HISTORY_FORMAT, HISTORY_VERSION)


def test_usage_of_three_responses_adds_up_in_the_history() -> None:
    history = ChatHistory(messages=[Message.user("hi")])
    for n in (1, 2, 3):
        history.add_response(
            ChatResponse(
                message=Message.assistant(f"answer {n}"),
                finish_reason=FinishReason.STOP,
                usage=TokenUsage(input_tokens=10 * n, output_tokens=n, cache_read_tokens=n),
            )
        )
    assert len(history) == 4
    assert [m.text for m in history][1:] == ["answer 1", "answer 2", "answer 3"]
    assert history.usage == TokenUsage(
        input_tokens=60, output_tokens=6, total_tokens=66, cache_read_tokens=6
    )


def test_last_message_of_an_empty_history_raises() -> None:
    with pytest.raises(IndexError, match="no messages"):
        ChatHistory().last_message  # noqa: B018


def test_a_file_of_another_format_is_refused() -> None:
    with pytest.raises(HistoryFormatError, match=r"at format: not an interlingua chat history"):
        ChatHistory.from_json('{"format": "toolagents.chat", "version": 1}')


def test_a_file_of_a_newer_version_is_refused_clearly() -> None:
    newer = HISTORY_VERSION + 1
    with pytest.raises(HistoryFormatError, match=rf"newer interlingua \(version {newer}\)"):
        ChatHistory.from_json(json.dumps({"format": HISTORY_FORMAT, "version": newer}))


@pytest.mark.parametrize("version", [0, "1", None, True])
def test_a_file_with_a_bad_version_is_refused(version: object) -> None:
    with pytest.raises(HistoryFormatError, match="at version: version must be a positive integer"):
        ChatHistory.from_json(json.dumps({"format": HISTORY_FORMAT, "version": version}))


def test_a_file_that_is_not_a_json_object_is_refused() -> None:
    with pytest.raises(HistoryFormatError, match="not JSON"):
        ChatHistory.from_json("{oops")
    with pytest.raises(HistoryFormatError, match="expected a JSON object, got list"):
        ChatHistory.from_json("[]")


def test_an_unknown_part_type_in_a_file_names_message_and_part() -> None:
    document = {
        "format": HISTORY_FORMAT,
        "version": HISTORY_VERSION,
        "messages": [
            {"role": "user", "parts": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "parts": [{"type": "text", "text": "a"}, {"type": "hologram"}]},
        ],
    }
    with pytest.raises(InvalidDataError) as caught:
        ChatHistory.from_document(document)
    assert caught.value.path == "messages[1].parts[1]"
    assert "'hologram'" in str(caught.value)


def test_a_part_that_does_not_fit_its_role_in_a_file_names_message_and_part() -> None:
    document = {
        "format": HISTORY_FORMAT,
        "version": HISTORY_VERSION,
        "messages": [
            {"role": "system", "parts": [{"type": "tool_call", "id": "c", "name": "f"}]},
        ],
    }
    with pytest.raises(InvalidDataError, match=r"messages\[0\]\.parts\[0\]: part 0 \(tool_call\)"):
        ChatHistory.from_document(document)


def test_a_missing_field_names_its_path() -> None:
    document = {
        "format": HISTORY_FORMAT,
        "version": HISTORY_VERSION,
        "messages": [{"role": "tool", "parts": [{"type": "tool_result"}]}],
    }
    with pytest.raises(InvalidDataError) as caught:
        ChatHistory.from_document(document)
    assert caught.value.path == "messages[0].parts[0].tool_call_id"
    assert "field required" in str(caught.value)


def test_the_json_schema_describes_the_file() -> None:
    schema = ChatHistory.json_schema()
    assert schema["properties"]["format"] == {"const": HISTORY_FORMAT, "type": "string"}
    assert schema["required"][:2] == ["format", "version"]
    assert "Message" in schema["$defs"]
    assert "ToolCallPart" in schema["$defs"]


def test_text_with_a_lone_surrogate_saves_and_loads_back(tmp_path: Path) -> None:
    # json.loads('"\\ud83d"') gives such text: a provider's body may hold it.
    history = ChatHistory(messages=[Message.user("half an emoji: \ud83d")])
    path = tmp_path / "h.json"
    history.save(path)
    assert ChatHistory.load(path) == history
    assert [p.name for p in tmp_path.iterdir()] == ["h.json"]


def test_saving_replaces_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    ChatHistory(messages=[Message.user("first")]).save(path)
    ChatHistory(messages=[Message.user("second")]).save(path)
    assert ChatHistory.load(path).last_message.text == "second"
    assert [p.name for p in tmp_path.iterdir()] == ["h.json"]


def test_a_history_refuses_what_is_no_message() -> None:
    history = ChatHistory()
    with pytest.raises(InvalidDataError, match=r"at messages\[0\]: expected a Message, got str"):
        history.add_message("hi")  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError, match=r"at messages\[0\]\.parts\[0\]"):
        ChatHistory(messages=[{"role": "user", "parts": [{"type": "nope"}]}])  # type: ignore[list-item]
    with pytest.raises(InvalidDataError, match="at title"):
        history.title = 5  # type: ignore[assignment]


def test_metadata_and_artefacts_are_json_values() -> None:
    with pytest.raises(InvalidDataError, match="at metadata"):
        ChatHistory(metadata={"when": object()})
    history = ChatHistory(artefacts=[{"kind": "report", "pages": [1, 2]}])
    assert ChatHistory.from_json(history.to_json()) == history
