"""A gateway: every recorded request of one provider, sent to another.

Each recorded OpenAI Chat Completions request is decoded and encoded for
Anthropic, and each recorded Anthropic request for OpenAI. The bodies must
meet the target's rules (checked here from the target's documented wire
rules, not by the adapter), the source history must not change, and every
loss must be reported; reasoning is never turned into visible text.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

import interlingua_anthropic as anthropic_adapter
import interlingua_openai as openai_adapter
from conftest import MissingCorpus, corpus_files, corpus_id, from_corpus
from interlingua import ChatRequest, TranslationReport
from interlingua.testing import load_cassette


def recorded_requests(folder: str, provider: str, path: str) -> list[Any]:
    """Each recorded request body to `path`, named `<file>[<k>]`; a single
    `MissingCorpus` when the folder holds none."""
    bodies = []
    for file in corpus_files(folder, "*.yaml"):
        interactions = load_cassette(file).for_provider(provider)
        for k, interaction in enumerate(interactions):
            if interaction.request is not None and interaction.path == path:
                bodies.append(pytest.param(interaction.request.json, id=f"{file.stem}[{k}]"))
    missing = MissingCorpus((folder,), f"{provider} requests to {path}")
    return bodies or [pytest.param(missing, id=corpus_id(missing))]


OPENAI_REQUESTS = recorded_requests("openai-chat", "openai", "/v1/chat/completions")
ANTHROPIC_REQUESTS = recorded_requests("anthropic", "anthropic", "/v1/messages")


def check_anthropic_rules(body: dict[str, Any]) -> None:
    """Messages API rules: user first, turns alternate, tool results open the
    turn after their calls and answer every one, no system role in messages."""
    turns = body["messages"]
    assert turns[0]["role"] == "user"
    for before, after in itertools.pairwise(turns):
        assert before["role"] != after["role"], "turns must alternate"
    for k, turn in enumerate(turns):
        blocks = turn["content"] if isinstance(turn["content"], list) else []
        calls = [b["id"] for b in blocks if b.get("type") == "tool_use"]
        if not calls:
            continue
        answer = turns[k + 1]["content"] if k + 1 < len(turns) else []
        results = [b["tool_use_id"] for b in answer if b.get("type") == "tool_result"]
        assert answer[: len(results)] == [b for b in answer if b.get("type") == "tool_result"]
        assert sorted(results) == sorted(calls)
        for text in (b.get("text") for b in blocks if b.get("type") == "text"):
            assert text.strip()


def check_openai_rules(body: dict[str, Any]) -> None:
    """Chat Completions rules: each assistant tool call answered by tool messages
    right after it, no reasoning sent back."""
    messages = body["messages"]
    for k, message in enumerate(messages):
        calls = [call["id"] for call in message.get("tool_calls") or []]
        answers = []
        for following in messages[k + 1 :]:
            if following["role"] != "tool":
                break
            answers.append(following["tool_call_id"])
        assert sorted(answers) == sorted(calls) or not calls
        assert "reasoning" not in message
        assert all(len(call_id) <= 40 for call_id in calls)


def unchanged(request: ChatRequest, encode: Any) -> dict[str, Any]:
    before = request.model_dump_json()
    report = TranslationReport()
    body = encode(request, report=report)
    assert request.model_dump_json() == before
    for loss in report.losses:
        assert loss.reason, loss
    return body


@pytest.mark.parametrize("recorded", OPENAI_REQUESTS)
def test_openai_requests_go_to_anthropic(recorded: dict[str, Any] | MissingCorpus) -> None:
    request = openai_adapter.decode_request(from_corpus(recorded))
    body = unchanged(request, anthropic_adapter.encode_request)
    check_anthropic_rules(body)
    assert body["model"] == request.model


@pytest.mark.parametrize("recorded", ANTHROPIC_REQUESTS)
def test_anthropic_requests_go_to_openai(recorded: dict[str, Any] | MissingCorpus) -> None:
    request = anthropic_adapter.decode_request(from_corpus(recorded))
    body = unchanged(request, openai_adapter.encode_request)
    check_openai_rules(body)
    thinking = [p.text for m in request.messages for p in m.reasoning if p.text]
    sent = json.dumps(body)
    assert not any(text in sent for text in thinking), "reasoning leaked into visible text"
