"""The requests real agents sent the gateway (`fixtures/agents/<agent>/<case>.json`,
recorded by `bench/agents`: Claude Code, Codex, the Vercel AI SDK, the OpenAI
Agents SDK) translated to every upstream API: nothing refused, every tool and
the output schema in the target's body, each loss at the level of what it
loses, and `strict="content"` passing where no content is lost."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from interlingua import TranslationError, get_adapter, translate_request
from interlingua.testing import load_cassette

AGENT_FIXTURES = sorted((FIXTURES / "agents").glob("*/*.json"))
TARGETS = ("anthropic", "openai", "openai-responses", "google", "mistral", "groq", "deepseek")
CHAT_TARGETS = ("openai", "mistral", "groq", "deepseek")


def source_of(url: str) -> str:
    """The API a recorded request spoke, by its path."""
    path = url.split("?")[0]
    for ending, api in (
        ("/v1/messages", "anthropic"),
        ("/v1/chat/completions", "openai"),
        ("/v1/responses", "openai-responses"),
        (":generateContent", "google"),
        (":streamGenerateContent", "google"),
    ):
        if path.endswith(ending):
            return api
    raise AssertionError(f"no API posts to {url}")


def requests_of(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """Each request of the fixture the gateway took (no refused retry twice):
    its API and its body; a Gemini body gets its model from the URL."""
    found = []
    for interaction in load_cassette(path).interactions:
        assert interaction.request is not None
        api, body = source_of(interaction.request.url), interaction.request.json
        if api == "google":
            model = interaction.request.url.split("/models/")[1].split(":")[0]
            body = {**body, "model": model}
        if (api, body) not in found:
            found.append((api, body))
    return found


def fixture_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


CASES = [
    pytest.param(path, target, id=f"{fixture_id(path)}->{target}")
    for path in AGENT_FIXTURES
    for target in TARGETS
]


# --- what arrives in the target's body ---


def tool_names(body: dict[str, Any], target: str) -> set[str]:
    """The tools the target's body offers, by their names in the core
    (`namespace--name`, a freeform tool's `name--freeform` as its bare name)."""
    tools = body.get("tools") or []
    if target == "anthropic":
        return {tool["name"] for tool in tools}
    if target == "google":
        return {d["name"] for group in tools for d in group.get("functionDeclarations", [])}
    if target == "openai-responses":
        names = set()
        for tool in tools:
            inner = tool.get("tools", []) if tool.get("type") == "namespace" else [tool]
            prefix = f"{tool['name']}--" if tool.get("type") == "namespace" else ""
            names |= {prefix + item["name"] for item in inner if "name" in item}
        return names
    return {(tool.get("function") or tool.get("custom") or {}).get("name") for tool in tools}


def core_tool_names(source: str, body: dict[str, Any]) -> set[str]:
    request = get_adapter(source).decode_request(body)
    return {tool.name.removesuffix("--freeform") for tool in request.tools}


def sent_schema(body: dict[str, Any], target: str) -> Any:
    """The output schema the target's body asks for, or None."""
    if target == "anthropic":
        return ((body.get("output_config") or {}).get("format") or {}).get("schema")
    if target == "google":
        config = body.get("generationConfig") or {}
        return config.get("responseJsonSchema") or config.get("responseSchema")
    if target == "openai-responses":
        return ((body.get("text") or {}).get("format") or {}).get("schema")
    return ((body.get("response_format") or {}).get("json_schema") or {}).get("schema")


def schema_shape(schema: Any) -> tuple[list[str], list[str]]:
    """A schema's property names and required ones, in order."""
    return list(schema.get("properties", {})), list(schema.get("required", []))


@pytest.mark.parametrize(("path", "target"), CASES)
def test_every_tool_and_the_schema_arrive_in_the_targets_body(path: Path, target: str) -> None:
    for source, body in requests_of(path):
        sent = translate_request(body, source=source, target=target).body

        assert tool_names(sent, target) >= core_tool_names(source, body)
        request = get_adapter(source).decode_request(body)
        if request.response_format is not None and request.response_format.json_schema:
            schema = request.response_format.json_schema
            assert schema_shape(sent_schema(sent, target)) == schema_shape(schema)


# --- each loss at its level ---

# A whole tool, message, part or the output schema left out loses content.
CONTENT_PATHS = re.compile(
    r"(^|\.)(additional_)?tools\[\d+\]$|^messages\[\d+\](\.parts\[\d+\])?$|^response_format(\.json_schema)?$"
)


@pytest.mark.parametrize(("path", "target"), CASES)
def test_no_loss_is_reported_below_the_level_of_what_it_loses(path: Path, target: str) -> None:
    for source, body in requests_of(path):
        losses = translate_request(body, source=source, target=target).losses

        below = [
            (loss.path, loss.level)
            for loss in losses
            if loss.kind == "dropped"
            and CONTENT_PATHS.search(loss.path)
            and loss.level != "content"
        ]
        assert below == []


# --- strict="content" ---


@pytest.mark.parametrize(("path", "target"), CASES)
def test_strict_content_serves_every_agent(path: Path, target: str) -> None:
    for source, body in requests_of(path):
        losses = translate_request(body, source=source, target=target).losses
        content = [f"{loss.path} ({loss.kind})" for loss in losses if loss.level == "content"]

        assert content == []
        try:
            translate_request(body, source=source, target=target, strict="content")
        except TranslationError as error:  # pragma: no cover - the assertion above says why
            raise AssertionError(str(error)) from error


def test_every_agent_and_case_has_its_fixture() -> None:
    agents = {path.parent.name for path in AGENT_FIXTURES}
    assert agents >= {"claude-code", "codex", "ai-sdk-openai-chat", "agents-sdk-responses"}
    assert {path.stem for path in AGENT_FIXTURES} >= {"tool", "structured", "429", "broken"}


def test_no_fixture_keeps_a_key_or_a_header_beyond_those_of_interest() -> None:
    for path in AGENT_FIXTURES:
        text = path.read_text()
        assert "gk-agents-bench" not in text
        assert "sk-upstream" not in text
        document = json.loads(text)
        for interaction in document["interactions"]:
            assert set(interaction["request"]["headers"]) <= {
                "content-type", "accept", "anthropic-version", "anthropic-beta", "openai-beta"
            }  # fmt: skip


PROSE_KEYS = {"text", "description", "instructions", "content", "system", "output", "prompt"}


def long_prose(value: Any, key: str | None = None) -> list[str]:
    """The strings over 80 characters under a key that holds text, JSON left out."""
    if isinstance(value, dict):
        return [text for name, item in value.items() for text in long_prose(item, name)]
    if isinstance(value, list):
        return [text for item in value for text in long_prose(item, key)]
    if isinstance(value, str) and key in PROSE_KEYS and len(value) > 80:
        try:
            json.loads(value)
        except ValueError:
            return [value]
    return []


@pytest.mark.parametrize("path", AGENT_FIXTURES, ids=fixture_id)
def test_the_agents_long_prose_is_filler_of_the_same_length(path: Path) -> None:
    for _, body in requests_of(path):
        prose = long_prose(body)
        assert [text for text in prose if not text.startswith("Placeholder prose")] == []
