"""HistoryStore: many conversations in one folder, saved, listed, loaded by id,
and deleted; each file written whole, as `ChatHistory.save` writes it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interlingua import ChatHistory, HistoryFormatError, HistoryStore, Message


def chat(*texts: str, id: str | None = None) -> ChatHistory:
    return ChatHistory(id=id, messages=[Message.user(text) for text in texts])


def test_histories_are_saved_listed_and_loaded_by_id(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "chats")
    weather, recipes = chat("Rain today?", id="weather"), chat("Soup?", "Leeks?", id="recipes")

    assert [store.save(weather), store.save(recipes)] == ["weather", "recipes"]

    assert store.ids() == ["recipes", "weather"]
    assert store.load("weather") == weather
    assert store.load("recipes") == recipes
    assert ChatHistory.load(tmp_path / "chats" / "recipes.json") == recipes


def test_a_history_without_an_id_gets_one_and_keeps_it(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path)
    history = chat("hi")

    id = store.save(history)
    history.add_message(Message.assistant("hello"))
    assert store.save(history) == id == history.id

    assert store.ids() == [id]
    assert len(id) == 32
    assert store.load(id).last_message.text == "hello"


def test_an_id_given_is_the_one_saved_under(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path)
    history = chat("hi", id="draft")
    assert store.save(history, id="final") == "final"
    assert history.id == "final"
    assert store.ids() == ["final"]
    assert store.load("final").id == "final"


def test_a_deleted_history_is_gone(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path)
    store.save(chat("one", id="a"))
    store.save(chat("two", id="b"))

    store.delete("a")

    assert store.ids() == ["b"]
    assert "a" not in store
    assert "b" in store
    with pytest.raises(KeyError, match="'a'"):
        store.load("a")
    with pytest.raises(KeyError, match="'a'"):
        store.delete("a")


def test_a_store_of_a_folder_not_yet_made_is_empty(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "not" / "yet")
    assert store.ids() == []
    assert "x" not in store
    store.save(chat("hi", id="x"))
    assert store.ids() == ["x"]
    assert repr(store) == f"HistoryStore({str(tmp_path / 'not' / 'yet')!r})"


BAD_IDS = ["a/b", "../escape", "a\\b", "", ".hidden", "..", "a b", "x" * 129, "a\x00b", "é"]


@pytest.mark.parametrize("bad", BAD_IDS)
def test_an_id_that_is_no_plain_file_name_is_refused(tmp_path: Path, bad: str) -> None:
    store = HistoryStore(tmp_path / "chats")
    message = "a history id names its file"
    with pytest.raises(ValueError, match=message):
        store.save(chat("hi"), id=bad)
    with pytest.raises(ValueError, match=message):
        store.save(chat("hi", id=bad))
    with pytest.raises(ValueError, match=message):
        store.load(bad)
    with pytest.raises(ValueError, match=message):
        store.delete(bad)
    assert bad not in store
    assert list(tmp_path.iterdir()) == []  # nothing written, not even the folder


def test_ids_of_the_longest_and_dotted_kinds_are_taken(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path)
    names = ["x" * 128, "2025-05-01.chat_1", "-dash", "_under"]
    for name in names:
        store.save(chat("hi"), id=name)
    assert store.ids() == sorted(names)


def test_files_that_are_no_history_of_the_store_are_not_listed(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path)
    store.save(chat("hi", id="kept"))
    (tmp_path / "notes.txt").write_text("not a history")
    (tmp_path / ".kept.json.tmp123").write_text("{")  # a save cut short
    (tmp_path / "bad name.json").write_text("{}")
    (tmp_path / "folder.json").mkdir()
    assert store.ids() == ["kept"]


def test_a_file_that_is_no_history_is_refused_on_load(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text('{"format": "something.else", "version": 1}')
    with pytest.raises(HistoryFormatError, match="not an interlingua chat history"):
        HistoryStore(tmp_path).load("broken")


def test_a_save_that_fails_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = HistoryStore(tmp_path)
    store.save(chat("first", id="h"))

    def broken_replace(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        store.save(chat("second", id="h"))
    monkeypatch.undo()

    assert store.load("h").last_message.text == "first"
    assert [path.name for path in tmp_path.iterdir()] == ["h.json"]
