"""A gateway: every recorded request of one provider, sent to another.

Each recorded OpenAI Chat Completions request is decoded and encoded for
Anthropic, and each recorded Anthropic request for OpenAI. The bodies must
meet the target's rules (checked here from the target's documented wire
rules, not by the adapter), the source history must not change, and every
loss must be reported; reasoning is never turned into visible text. What
the source body says (every text, every tool call) must arrive, and the
losses the source body makes certain (a setting the target has no field for,
a thinking block) must be reported, path and kind.
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


# --- what arrived, and the losses the source body says must be reported ---

# Chat Completions settings Anthropic has no field for, reported by name.
OPENAI_ONLY = ("n", "stream_options", "logprobs", "functions", "function_call", "moderation")
OPENAI_ONLY += ("web_search_options",)
# Values those keys have that say nothing to another API: the defaults, and
# the usage of a stream, which every API's stream gives.
SAYING_NOTHING: dict[str, tuple[Any, ...]] = {
    "n": (1,),
    "logprobs": (False,),
    "stream_options": ({"include_usage": True},),
}


def texts(content: Any) -> list[str]:
    """The texts of a message content: a string, or text blocks (Anthropic's
    `tool_result` blocks and their content included)."""
    if isinstance(content, str):
        return [content]
    found = []
    for block in content or []:
        if block.get("type") == "text":
            found.append(block["text"])
        elif block.get("type") == "tool_result":
            found += texts(block.get("content"))
    return found


def said(body: dict[str, Any]) -> str:
    """Every text a body holds, system prompt included, joined."""
    system = body.get("system")
    found = texts(system) if system else []
    for message in body["messages"]:
        found += texts(message.get("content"))
    return "\n".join(found)


def openai_calls(body: dict[str, Any]) -> list[tuple[str, Any]]:
    """The name and arguments of each tool call a body holds, in a set order."""
    calls = [c["function"] for m in body["messages"] for c in m.get("tool_calls") or []]
    calls += [m["function_call"] for m in body["messages"] if m.get("function_call")]
    return sorted(((c["name"], json.loads(c["arguments"] or "{}")) for c in calls), key=json.dumps)


def anthropic_calls(body: dict[str, Any]) -> list[tuple[str, Any]]:
    blocks = [b for m in body["messages"] if isinstance(m["content"], list) for b in m["content"]]
    return sorted(
        ((b["name"], b["input"]) for b in blocks if b["type"] == "tool_use"), key=json.dumps
    )


def losses(report: TranslationReport) -> set[tuple[str, str]]:
    return {(loss.path, loss.kind) for loss in report.losses}


def openai_to_anthropic_losses(body: dict[str, Any]) -> set[tuple[str, str]]:
    expected = {
        (f"provider_options.openai.{key}", "dropped")
        for key in OPENAI_ONLY
        if key in body and body[key] not in SAYING_NOTHING.get(key, ())
    }
    if "max_tokens" not in body and "max_completion_tokens" not in body:
        expected.add(("max_tokens", "transformed"))
    if "seed" in body:
        expected.add(("seed", "dropped"))
    form = body.get("response_format") or {}
    if (form.get("json_schema") or {}).get("name"):
        expected.add(("response_format.name", "dropped"))
    return expected


def anthropic_to_openai_losses(body: dict[str, Any]) -> set[tuple[str, str]]:
    """Each thinking block left out where it stands (the core history holds the
    system prompt as its first message), the budget made an effort."""
    first = 1 if body.get("system") else 0
    expected = {
        (f"messages[{first + k}].parts[{j}]", "dropped")
        for k, message in enumerate(body["messages"])
        if isinstance(message["content"], list)
        for j, block in enumerate(message["content"])
        if block["type"] in ("thinking", "redacted_thinking")
    }
    if (body.get("thinking") or {}).get("budget_tokens"):
        expected.add(("reasoning.budget_tokens", "transformed"))
    return expected


@pytest.mark.parametrize("recorded", OPENAI_REQUESTS)
def test_an_openai_request_arrives_at_anthropic_whole_but_for_what_is_reported(
    recorded: dict[str, Any] | MissingCorpus,
) -> None:
    source = from_corpus(recorded)
    report = TranslationReport()

    body = anthropic_adapter.encode_request(openai_adapter.decode_request(source), report=report)

    sent = said(body)
    assert all(text in sent for text in said(source).split("\n") if text.strip())
    assert anthropic_calls(body) == openai_calls(source)
    assert openai_to_anthropic_losses(source) <= losses(report)


@pytest.mark.parametrize("recorded", ANTHROPIC_REQUESTS)
def test_an_anthropic_request_arrives_at_openai_whole_but_for_what_is_reported(
    recorded: dict[str, Any] | MissingCorpus,
) -> None:
    source = from_corpus(recorded)
    report = TranslationReport()

    body = openai_adapter.encode_request(anthropic_adapter.decode_request(source), report=report)

    sent = said(body)
    assert all(text in sent for text in said(source).split("\n") if text.strip())
    assert openai_calls(body) == anthropic_calls(source)
    assert anthropic_to_openai_losses(source) <= losses(report)
