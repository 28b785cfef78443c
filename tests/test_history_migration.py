"""A history saved by interlingua 0.1 (file version 1) loads into version 2.

`data/chat_history_v1.json` was written by interlingua 0.1's own adapters:
messages decoded from recorded request and response bodies (the project's
fixtures, the corpus, and the bodies in its `metadata.inline`), each of which
kept its provider data flat. `metadata.sources` says where each message came
from. Loaded today, every message must equal the one today's adapters decode
from the same body: the migration moves each version-1 key into the section
the adapter now writes it to, and loses nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import interlingua_anthropic
import interlingua_openai
import interlingua_openai.responses
from conftest import CORPUS, ROOT, missing_corpus
from interlingua import HISTORY_VERSION, ChatHistory, Message
from interlingua.testing import load_cassette

V1_FILE = Path(__file__).parent / "data" / "chat_history_v1.json"
ADAPTERS: dict[str, ModuleType] = {
    "anthropic": interlingua_anthropic,
    "openai": interlingua_openai,
    "openai-responses": interlingua_openai.responses,
}
DOCUMENT = json.loads(V1_FILE.read_text())
SOURCES: list[dict[str, Any]] = DOCUMENT["metadata"]["sources"]


def source_body(source: dict[str, Any]) -> Any:
    if "inline" in source:
        return DOCUMENT["metadata"]["inline"][source["inline"]]
    file = source["file"]
    if file.startswith("corpus/"):
        path = CORPUS / file.removeprefix("corpus/")
        if not path.exists():
            missing_corpus(f"the recorded corpus has no {path}")
    else:
        path = ROOT / file
    interaction = load_cassette(path).interactions[source["interaction"]]
    record = interaction.request if source["body"] == "request" else interaction.response
    assert record is not None
    return record.json


def decoded_today(source: dict[str, Any]) -> Message:
    adapter = ADAPTERS[source["adapter"]]
    body = source_body(source)
    if source["body"] == "request":
        return adapter.decode_request(body).messages[source["message"]]
    message: Message = adapter.decode_response(body).message
    return message


def test_the_file_is_version_1_and_holds_every_adapter() -> None:
    assert DOCUMENT["version"] == 1
    assert {source["adapter"] for source in SOURCES} == set(ADAPTERS)


@pytest.mark.parametrize("index", range(len(SOURCES)))
def test_each_message_migrates_to_what_the_adapter_decodes_today(index: int) -> None:
    history = ChatHistory.load(V1_FILE)
    source = SOURCES[index]
    assert history.messages[index] == decoded_today(source), source


def test_a_migrated_history_is_saved_as_the_current_version(tmp_path: Path) -> None:
    history = ChatHistory.load(V1_FILE)
    history.save(tmp_path / "chat.json")
    saved = json.loads((tmp_path / "chat.json").read_text())
    assert saved["version"] == HISTORY_VERSION == 2
    assert ChatHistory.load(tmp_path / "chat.json") == history
