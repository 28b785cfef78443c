"""Each loss's level (`content`, `setting`, `hint`) and strict mode from a level
up: what real agents send (Claude Code, Codex, the Agents SDK, `@ai-sdk/google`)
goes under `strict="content"` wherever no content is lost, and each loss is
listed with the level of what it loses."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, recorded
from interlingua import (
    ChatRequest,
    LossLevel,
    Message,
    TranslationError,
    TranslationReport,
    translate_request,
    validate_request,
)

ROOT = Path(__file__).parents[1]
LEVELS: tuple[LossLevel, ...] = ("hint", "setting", "content")
# The APIs an agent's request goes to, one adapter of each wire.
TARGETS = ("anthropic", "openai", "openai-responses", "google", "mistral", "groq", "deepseek")


def body_of(fixture: str) -> dict[str, Any]:
    return recorded(fixture)[0].request.json


def levels(body: dict[str, Any], source: str, target: str) -> list[tuple[str, str, str]]:
    losses = translate_request(body, source=source, target=target).losses
    return [(loss.path, loss.kind, loss.level) for loss in losses]


# --- strict mode from a level up ---


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("strict", "refused"),
    [
        (False, ()),
        (True, LEVELS),
        ("setting", ("setting", "content")),
        ("content", ("content",)),
    ],
)
def test_strict_raises_at_its_level_and_above_and_records_what_is_below(
    strict: Any, refused: tuple[str, ...], level: LossLevel
) -> None:
    report = TranslationReport(target="mistral", strict=strict)
    if level in refused:
        with pytest.raises(TranslationError) as raised:
            report.dropped("top_k", "Mistral has no top_k", level)
        assert (raised.value.level, raised.value.path) == (level, "top_k")
        assert str(raised.value) == f"top_k: cannot send to mistral (dropped, {level}): " + (
            "Mistral has no top_k"
        )
        assert report.losses == []
    else:
        report.dropped("top_k", "Mistral has no top_k", level)
        assert [(loss.path, loss.level) for loss in report.losses] == [("top_k", level)]


def test_translate_request_takes_the_level_strict_mode_refuses_from() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "top_k": 5,
        "system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
        "messages": [{"role": "user", "content": "Hi"}],
    }
    sent = translate_request(body, source="anthropic", target="openai", strict="content")
    assert [(loss.path, loss.level) for loss in sent.losses] == [
        ("top_k", "setting"),
        ("messages[0].parts[0].provider_data.anthropic.fields.cache_control", "hint"),
    ]
    with pytest.raises(
        TranslationError, match=r"^top_k: cannot send to openai \(dropped, setting\)"
    ):
        translate_request(body, source="anthropic", target="openai", strict="setting")
    with pytest.raises(TranslationError, match=r"cache_control: cannot send to openai"):
        translate_request({**body, "top_k": None}, source="anthropic", target="openai", strict=True)


def test_validate_request_lists_the_problems_of_the_level_asked() -> None:
    request = ChatRequest(
        model="mistral-large-latest",
        messages=(Message.user("Hi"),),
        top_k=5,
        context={"user_id": "user-1"},
    )
    every = validate_request(request, target="mistral")
    assert [(problem.path, problem.fix, problem.level) for problem in every] == [
        ("top_k", "dropped", "setting"),
        ("context.user_id", "dropped", "hint"),
    ]
    assert validate_request(request, target="mistral", strict="setting") == every[:1]
    assert validate_request(request, target="mistral", strict="content") == []


# --- what agents send ---

CLAUDE_CODE = body_of("anthropic/claude_code_cache_hints.json")
CLAUDE_CODE_HINTS = [
    ("provider_options.anthropic.context_management", "dropped", "hint"),
    ("messages[0].parts[0].provider_data.anthropic.fields.cache_control", "dropped", "hint"),
    ("messages[0].parts[1].provider_data.anthropic.fields.cache_control", "dropped", "hint"),
    ("messages[1].parts[1].provider_data.anthropic.fields.cache_control", "dropped", "hint"),
]


@pytest.mark.parametrize("target", TARGETS[1:])
def test_claude_codes_cache_hints_and_context_editing_are_hints(target: str) -> None:
    # Its 150-character metadata.user_id, as a digest or left out: a hint too.
    user_id = {"openai": "transformed", "openai-responses": "transformed", "groq": "transformed"}
    expected = [("context.user_id", user_id.get(target, "dropped"), "hint"), *CLAUDE_CODE_HINTS]

    assert levels(CLAUDE_CODE, "anthropic", target) == expected
    sent = translate_request(CLAUDE_CODE, source="anthropic", target=target, strict="content")
    assert len(sent.losses) == len(expected)


@pytest.mark.parametrize("target", TARGETS[1:])
def test_claude_codes_title_request_loses_settings_and_hints(target: str) -> None:
    body = body_of("anthropic/title_thinking_disabled.json")
    found = levels(body, "anthropic", target)
    assert ("provider_options.anthropic.output_config", "dropped", "setting") in found
    assert {level for _, _, level in found} <= {"setting", "hint"}
    translate_request(body, source="anthropic", target=target, strict="content")


# Anthropic's tool flags that change neither what the model reads nor how it
# answers: a tool loaded when a tool search finds it (Claude Code's deferred
# tools), and how a call's input streams (the AI SDK's fine-grained streaming).
ANTHROPIC_TOOL_FLAGS = [
    pytest.param("agents/claude-code/tool.json", "defer_loading", id="defer_loading"),
    pytest.param(
        "agents/ai-sdk-anthropic/stream.json", "eager_input_streaming", id="eager_input_streaming"
    ),
]


@pytest.mark.parametrize(("fixture", "flag"), ANTHROPIC_TOOL_FLAGS)
@pytest.mark.parametrize("target", TARGETS[1:])
def test_an_anthropic_tool_loaded_on_demand_or_streamed_eagerly_loses_a_hint(
    fixture: str, flag: str, target: str
) -> None:
    body = body_of(fixture)
    flagged = [(index, tool) for index, tool in enumerate(body["tools"]) if tool.get(flag)]
    assert flagged

    sent = translate_request(body, source="anthropic", target=target, strict="content")
    found = [(loss.path, loss.kind, loss.level) for loss in sent.losses if flag in loss.path]
    assert found == [
        (f"tools[{index}].provider_data.anthropic.fields.{flag}", "dropped", "hint")
        for index, _ in flagged
    ]
    # Each tool is offered whole, at once; the flag is Anthropic's alone.
    text = json.dumps(sent.body)
    assert flag not in text
    for _, tool in flagged:
        assert json.dumps(tool["name"]) in text
        assert json.dumps(tool["description"]) in text


@pytest.mark.parametrize(
    ("target", "loss"),
    [
        ("google", "Gemini takes system text in systemInstruction only; moved there"),
        ("mistral", "sent as a user message"),
    ],
)
def test_a_system_turn_moved_is_a_loss_of_content(target: str, loss: str) -> None:
    body = body_of("anthropic/system_in_messages.json")
    assert levels(body, "anthropic", target) == [("messages[2]", "transformed", "content")]
    with pytest.raises(
        TranslationError, match=rf"^messages\[2\]: .*\(transformed, content\): {loss}"
    ):
        translate_request(body, source="anthropic", target=target, strict="content")
    assert levels(body, "anthropic", "openai") == []


CODEX = body_of("openai/responses_codex_tools.json")
# What Codex's request loses elsewhere that a model reads: tools the target has
# no kind for (web search, tool search), a grammar. A namespace's description
# goes in the description of each of its functions (`test_freeform_tools.py`).
CODEX_CONTENT = [
    ("provider_options.openai-responses.additional_tools[0].tools[1]", "dropped", "content"),
    ("provider_options.openai-responses.tools[3]", "dropped", "content"),
    ("tools[6].provider_data.openai-responses.fields.format", "dropped", "content"),
]
CODEX_HINTS = {
    ("reasoning.summary", "dropped", "hint"),
    ("provider_options.openai-responses.store", "dropped", "hint"),
    ("provider_options.openai-responses.include", "dropped", "hint"),
}


@pytest.mark.parametrize("target", ["anthropic", "openai", "google", "mistral", "groq"])
def test_codex_loses_tools_as_content_and_its_storage_and_includes_as_hints(target: str) -> None:
    found = levels(CODEX, "openai-responses", target)

    assert [loss for loss in found if loss[2] == "content"] == CODEX_CONTENT
    assert set(found) >= CODEX_HINTS
    assert {path for path, _, level in found if level == "setting"} <= {
        "max_tokens",
        "parallel_tool_calls",
    }
    with pytest.raises(TranslationError, match=r"tool_search"):
        translate_request(CODEX, source="openai-responses", target=target, strict="content")


@pytest.mark.parametrize("target", TARGETS[:2] + TARGETS[3:])
def test_codexs_client_metadata_is_a_hint(target: str) -> None:
    body = body_of("agents/codex/tool.json")
    assert body["client_metadata"]["session_id"]

    sent = translate_request(body, source="openai-responses", target=target, strict="content")
    found = [(loss.path, loss.kind, loss.level) for loss in sent.losses]
    assert [loss for loss in found if "client_metadata" in loss[0]] == [
        ("provider_options.openai-responses.client_metadata", "dropped", "hint")
    ]
    assert "client_metadata" not in sent.body


def test_codex_tools_not_strict_go_to_gemini_with_nothing_reported() -> None:
    # Codex's function tools say `"strict": false`, what Gemini does unasked.
    functions = [tool for tool in CODEX["tools"] if tool["type"] == "function"]
    assert [tool["strict"] for tool in functions] == [False]
    sent = translate_request(CODEX, source="openai-responses", target="google")
    assert not any(loss.path.endswith(".strict") for loss in sent.losses)
    declarations = sent.body["tools"][0]["functionDeclarations"]
    assert declarations[0]["name"] == functions[0]["name"]
    assert not any("strict" in declaration for declaration in declarations)


AGENTS_SDK = body_of("openai/responses_agents_sdk.json")


@pytest.mark.parametrize("target", ["openai", "mistral", "groq", "deepseek"])
def test_the_agents_sdks_empty_include_and_stream_false_say_nothing(target: str) -> None:
    assert (AGENTS_SDK["include"], AGENTS_SDK["stream"]) == ([], False)
    sent = translate_request(AGENTS_SDK, source="openai-responses", target=target, strict=True)
    assert sent.losses == []
    assert sent.body["tools"][0]["function"]["name"] == "get_weather"
    assert "stream" not in sent.body or sent.body["stream"] is False


def test_a_streamed_chat_request_asking_for_usage_says_nothing_of_it() -> None:
    # The Vercel AI SDK's OpenAI-compatible provider streams this way; every
    # API's stream gives the usage, so the request loses nothing by it.
    body = {
        "model": "gpt-4.1-mini",
        "messages": [{"role": "user", "content": "Hi"}],
        "max_tokens": 64,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    for target in ("anthropic", "google", "openai-responses"):
        sent = translate_request(body, source="openai", target=target, strict=True)
        assert sent.losses == []
        # The stream is asked for, and no other API's body says anything of its usage.
        assert "stream_options" not in sent.body
        if target != "google":  # Gemini streams by its endpoint, not by a field
            assert sent.body["stream"] is True
    other = {**body, "stream_options": {"include_usage": True, "include_obfuscation": False}}
    assert levels(other, "openai", "anthropic") == [
        ("provider_options.openai.stream_options", "dropped", "hint")
    ]


GEMINI = {**body_of("google/structured_output_response_schema.json"), "model": "gemini-2.5-flash"}


@pytest.mark.parametrize("target", TARGETS[:3] + TARGETS[4:])
def test_ai_sdk_googles_structured_output_arrives_whole_elsewhere(target: str) -> None:
    sent = translate_request(GEMINI, source="google", target=target, strict="content")

    named = {"anthropic": ("max_tokens", "transformed", "setting")}
    expected = [named.get(target, ("response_format.name", "transformed", "hint"))]
    assert [(loss.path, loss.kind, loss.level) for loss in sent.losses] == expected
    schema = GEMINI["generationConfig"]["responseSchema"]
    assert json.dumps(schema["required"]) in json.dumps(sent.body)
    assert json.dumps(schema["properties"]["cuisine"]) in json.dumps(sent.body)


def test_a_setting_no_table_knows_counts_as_content() -> None:
    # Anthropic's `mcp_servers` are tools the model may call; a name the core's
    # table does not know is refused by strict="content" rather than let by.
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 256,
        "messages": [{"role": "user", "content": "What changed in the repository?"}],
        "mcp_servers": [{"type": "url", "url": "https://mcp.example.com/sse", "name": "git"}],
        "stream": False,
        "service_tier": "auto",
    }
    assert levels(body, "anthropic", "openai") == [
        ("provider_options.anthropic.mcp_servers", "dropped", "content"),
        ("provider_options.anthropic.service_tier", "dropped", "hint"),
    ]
    with pytest.raises(TranslationError, match=r"mcp_servers: .*\(dropped, content\)"):
        translate_request(body, source="anthropic", target="openai", strict="content")


# --- every report call says its level ---


def _report_calls(path: Path) -> list[tuple[int, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, len(node.args) + len(node.keywords))
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("dropped", "transformed")
    ]


def test_every_report_call_of_the_core_and_the_adapters_gives_a_level() -> None:
    sources = [*(ROOT / "src").rglob("*.py"), *(ROOT / "adapters").rglob("*.py")]
    calls = {path: _report_calls(path) for path in sources}
    unleveled = [
        f"{path.relative_to(ROOT)}:{line}"
        for path, found in calls.items()
        for line, count in found
        if count < 3
    ]
    assert sum(len(found) for found in calls.values()) > 100
    assert unleveled == []


def test_the_fixtures_are_where_the_tests_read_them() -> None:
    assert (FIXTURES / "anthropic" / "claude_code_cache_hints.json").is_file()
    assert (FIXTURES / "openai" / "responses_agents_sdk.json").is_file()
