"""Histories saved by older versions of the file format load into the current one.

`data/chat_history_v1.json` was written by interlingua 0.1's own adapters:
messages decoded from recorded request and response bodies (the project's
fixtures, the corpus, and the bodies in its `metadata.inline`), each of which
kept its provider data flat. `data/chat_history_v2.json` was written by the
version-2 format from the project's fixtures, one conversation of each adapter;
`data/chat_history_v3.json` by the version-3 format, with the messages' times,
from the fixtures and an Anthropic request in its `metadata.inline` whose tool
calls say their `caller`; `data/chat_history_v4.json` by the version-4 format,
from the same and the custom calls of Chat Completions and the Responses API
and a Responses call of a namespace's function, as they were then decoded.
`metadata.sources` says where each message came from. Loaded today, every
message must equal the one today's adapters decode from the same body: the
migrations move each older key into the place the adapter now writes it to,
and lose nothing (version 1 to 2: provider data into its sections; version 2
to 3: messages gain `created_at` and `updated_at`, which an older file has not;
version 3 to 4: an Anthropic call's direct `caller` becomes a form; version 4 to
5: a custom call is the freeform tool's, a namespace's function call is named
`<namespace>--<name>`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import interlingua_anthropic
import interlingua_groq
import interlingua_mistral
import interlingua_openai
import interlingua_openai.responses
from conftest import CORPUS, ROOT, missing_corpus
from interlingua import HISTORY_VERSION, ChatHistory, Message, TokenUsage
from interlingua._migrations import MIGRATIONS
from interlingua.testing import load_cassette

DATA = Path(__file__).parent / "data"
FILES = {version: DATA / f"chat_history_v{version}.json" for version in (1, 2, 3, 4, 5)}
ADAPTERS: dict[str, ModuleType] = {
    "anthropic": interlingua_anthropic,
    "openai": interlingua_openai,
    "openai-responses": interlingua_openai.responses,
    "mistral": interlingua_mistral,
    "groq": interlingua_groq,
}
DOCUMENTS = {version: json.loads(path.read_text()) for version, path in FILES.items()}


def sources(version: int) -> list[dict[str, Any]]:
    return DOCUMENTS[version]["metadata"]["sources"]  # type: ignore[no-any-return]


@cache
def loaded(version: int) -> ChatHistory:
    return ChatHistory.load(FILES[version])


def source_body(version: int, source: dict[str, Any]) -> Any:
    if "inline" in source:
        return DOCUMENTS[version]["metadata"]["inline"][source["inline"]]
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


def decoded_today(version: int, source: dict[str, Any]) -> Message:
    adapter = ADAPTERS[source["adapter"]]
    body = source_body(version, source)
    if source["body"] == "request":
        return adapter.decode_request(body).messages[source["message"]]
    message: Message = adapter.decode_response(body).message
    return message


def test_each_older_version_has_a_migration_and_a_file() -> None:
    assert set(MIGRATIONS) == set(FILES) == set(range(1, HISTORY_VERSION))
    assert {version: document["version"] for version, document in DOCUMENTS.items()} == {
        version: version for version in FILES
    }


def test_the_files_hold_every_adapter_of_their_time() -> None:
    assert {source["adapter"] for source in sources(1)} == {
        "anthropic",
        "openai",
        "openai-responses",
    }
    assert {source["adapter"] for source in sources(2)} == set(ADAPTERS)
    assert {source["adapter"] for source in sources(3)} == set(ADAPTERS)
    assert {source["adapter"] for source in sources(4)} == set(ADAPTERS)


@pytest.mark.parametrize(
    ("version", "index"),
    [(version, index) for version in FILES for index in range(len(sources(version)))],
)
def test_each_message_migrates_to_what_the_adapter_decodes_today(version: int, index: int) -> None:
    source = sources(version)[index]
    assert loaded(version).messages[index] == decoded_today(version, source), source


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_message_has_no_times_made_up(version: int) -> None:
    history = loaded(version)
    assert len(history) == len(sources(version))
    assert {(m.created_at, m.updated_at) for m in history} == {(None, None)}


def test_a_version_2_history_keeps_its_own_fields() -> None:
    history = loaded(2)
    answers = [source for source in sources(2) if source["body"] == "response"]
    usage = sum(
        (ADAPTERS[s["adapter"]].decode_response(source_body(2, s)).usage for s in answers),
        TokenUsage(),
    )
    assert (history.id, history.title) == ("v2-sample", "Written by interlingua's version-2 format")
    assert history.usage == usage != TokenUsage()
    assert history.artefacts == DOCUMENTS[2]["artefacts"] != []


@pytest.mark.parametrize("version", sorted(FILES))
def test_a_migrated_history_is_saved_as_the_current_version(tmp_path: Path, version: int) -> None:
    history = ChatHistory.load(FILES[version])
    history.save(tmp_path / "chat.json")
    saved = json.loads((tmp_path / "chat.json").read_text())
    assert saved["version"] == HISTORY_VERSION == 6
    assert ChatHistory.load(tmp_path / "chat.json") == history


def test_a_version_3_history_keeps_its_times_and_says_a_direct_caller_as_a_form() -> None:
    written = DOCUMENTS[3]["messages"]
    history = loaded(3)
    assert [m.created_at.isoformat() if m.created_at else None for m in history] == [
        m["created_at"].replace("Z", "+00:00") for m in written
    ]
    direct, by_code = history.messages[1].tool_calls
    recorded = [
        block["caller"]
        for block in DOCUMENTS[3]["metadata"]["inline"][0]["messages"][1]["content"][1:]
    ]
    assert direct.provider_data == {"anthropic": {"forms": {"caller": "direct"}}}
    assert recorded[0] == {"type": "direct"}
    assert by_code.provider_data["anthropic"]["fields"]["caller"] == recorded[1] != recorded[0]
    assert (
        interlingua_anthropic.encode_request(
            interlingua_anthropic.decode_request(DOCUMENTS[3]["metadata"]["inline"][0])
        )
        == DOCUMENTS[3]["metadata"]["inline"][0]
    )


def test_a_version_4_custom_call_is_the_freeform_tools_and_a_namespace_its_form() -> None:
    written = [part for m in DOCUMENTS[4]["messages"] for part in m["parts"]]
    parts = [part for message in loaded(4) for part in message.parts]
    calls = [
        (before, after)
        for before, after in zip(written, parts, strict=True)
        if before["type"] == "tool_call"
        and before.get("provider_data", {}).keys() & {"openai", "openai-responses"}
    ]
    custom = [(b, a) for b, a in calls if b["provider_data"].get("openai", {}).get("forms")]
    assert custom
    assert all(
        a.name == f"{b['name']}--freeform" and a.parsed_arguments() == {"input": b["arguments"]}
        for b, a in custom
    )
    namespaced = [
        (b, a)
        for b, a in calls
        if "namespace" in b["provider_data"].get("openai-responses", {}).get("fields", {})
    ]
    assert namespaced
    for before, after in namespaced:
        namespace = before["provider_data"]["openai-responses"]["fields"]["namespace"]
        assert after.name == f"{namespace}--{before['name']}"
        assert after.arguments == before["arguments"]
        entry = after.provider_data["openai-responses"]
        assert entry["forms"] == {"namespace": namespace}
        assert "namespace" not in entry.get("fields", {})
