"""Request settings on their way between APIs: reasoning turned off (the
least each target's model has), the settings OpenAI's two APIs share
(`prompt_cache_key`), and the lengths a target caps (an end user's id).

The bodies are the project's recordings of Claude Code's title call
(`fixtures/anthropic/title_thinking_disabled.json`) and of a Responses API
request with a `prompt_cache_key` (`fixtures/openai/responses_prompt_cache_key.json`),
sent to each API with the model a gateway would pick there.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from conftest import FIXTURES, same_json
from interlingua import (
    ChatRequest,
    InvocationContext,
    Message,
    ReasoningConfig,
    TranslationError,
    TranslationReport,
    get_adapter,
    translate_request,
)
from interlingua.codec import ReasoningOff, fitted_length, sent_off
from interlingua.testing import load_cassette

TITLE = "anthropic/title_thinking_disabled.json"
CACHED = "openai/responses_prompt_cache_key.json"


def recorded(name: str) -> dict[str, Any]:
    """The body of the one request a fixture recorded, answered 200."""
    (interaction,) = load_cassette(FIXTURES / name).interactions
    assert interaction.request is not None
    assert interaction.response.status == 200
    body: dict[str, Any] = interaction.request.json
    return body


def sent(body: dict[str, Any], source: str, target: str, model: str) -> tuple[Any, Any]:
    """`body` read as `source`'s, sent to `target`'s `model`: the body and its losses."""
    request = get_adapter(source).decode_request(body).model_copy(update={"model": model})
    report = TranslationReport()
    wire = get_adapter(target).encode_request(request, report=report)
    return wire, [(loss.path, loss.kind) for loss in report.losses]


def digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


# --- the recording itself ---


def test_the_title_calls_user_id_is_claude_codes_150_character_json() -> None:
    user_id = recorded(TITLE)["metadata"]["user_id"]
    assert len(user_id) == 150
    assert set(json.loads(user_id)) == {"device_id", "account_uuid", "session_id"}


def test_thinking_disabled_is_reasoning_off_and_the_effort_beside_it_stays_anthropics() -> None:
    body = recorded(TITLE)

    request = get_adapter("anthropic").decode_request(body)

    assert request.reasoning == ReasoningConfig(enabled=False)
    assert request.options_for("anthropic")["output_config"] == {"effort": "high"}
    assert request.context is not None
    assert request.context.user_id == body["metadata"]["user_id"]
    report = TranslationReport(strict=True)
    assert same_json(get_adapter("anthropic").encode_request(request, report=report), body)


# --- reasoning turned off, to each target ---

TRANSFORMED = [("reasoning.enabled", "transformed")]
DROPPED = [("reasoning.enabled", "dropped")]
# Anthropic's effort beside thinking disabled is Anthropic's setting: left out elsewhere.
EFFORT_LEFT = ("provider_options.anthropic.output_config", "dropped")
USER_FITTED = ("context.user_id", "transformed")

# (target, model, the reasoning fields sent, the reasoning loss)
LEAST_REASONING = [
    ("openai", "gpt-5.1", {"reasoning_effort": "none"}, []),
    ("openai", "gpt-5-mini", {"reasoning_effort": "minimal"}, TRANSFORMED),
    ("openai", "o4-mini", {"reasoning_effort": "low"}, TRANSFORMED),
    ("openai", "gpt-4.1-mini", {}, []),
    ("openai-responses", "gpt-5.2", {"reasoning": {"effort": "none"}}, []),
    ("openai-responses", "gpt-5", {"reasoning": {"effort": "minimal"}}, TRANSFORMED),
    ("openai-responses", "gpt-4o", {}, []),
    ("groq", "qwen/qwen3-32b", {"reasoning_effort": "none"}, []),
    ("groq", "openai/gpt-oss-20b", {"reasoning_effort": "low"}, TRANSFORMED),
    ("groq", "llama-3.3-70b-versatile", {}, []),
    ("mistral", "mistral-small-latest", {"reasoning_effort": "none"}, []),
    ("mistral", "magistral-medium-latest", {}, DROPPED),
    ("mistral", "mistral-large-latest", {}, []),
    ("deepseek", "deepseek-chat", {"thinking": {"type": "disabled"}}, []),
    ("xai", "grok-4.3", {"reasoning_effort": "none"}, []),
    ("xai", "grok-3-mini", {"reasoning_effort": "low"}, TRANSFORMED),
    ("xai", "grok-4", {}, DROPPED),
    ("cerebras", "zai-glm-4.7", {"reasoning_effort": "none"}, []),
    ("cerebras", "gpt-oss-120b", {"reasoning_effort": "low"}, TRANSFORMED),
    ("openrouter", "openai/gpt-5-mini", {"reasoning": {"enabled": False}}, []),
    ("google", "gemini-2.5-flash", {"thinkingConfig": {"thinkingBudget": 0}}, []),
    ("google", "gemini-3-pro-preview", {"thinkingConfig": {"thinkingLevel": "LOW"}}, TRANSFORMED),
]
_REASONING_FIELDS = ("reasoning_effort", "reasoning", "thinking", "thinkingConfig")


def reasoning_fields(target: str, body: dict[str, Any]) -> dict[str, Any]:
    where = body.get("generationConfig", {}) if target == "google" else body
    return {key: value for key, value in where.items() if key in _REASONING_FIELDS}


@pytest.mark.parametrize(("target", "model", "fields", "loss"), LEAST_REASONING, ids=str)
def test_the_title_calls_thinking_disabled_is_the_least_reasoning_of_each_targets_model(
    target: str, model: str, fields: dict[str, Any], loss: list[tuple[str, str]]
) -> None:
    body, losses = sent(recorded(TITLE), "anthropic", target, model)

    assert reasoning_fields(target, body) == fields
    assert [lost for lost in losses if lost[0].startswith("reasoning")] == loss
    assert EFFORT_LEFT in losses


def test_the_title_call_to_chat_completions_loses_exactly_this() -> None:
    body, losses = sent(recorded(TITLE), "anthropic", "openai", "gpt-5-mini")

    user_id = recorded(TITLE)["metadata"]["user_id"]
    assert body == {
        "model": "gpt-5-mini",
        "messages": body["messages"],
        "max_completion_tokens": 512,
        "temperature": 0,
        "reasoning_effort": "minimal",
        "safety_identifier": digest(user_id),
    }
    assert losses == [("reasoning.enabled", "transformed"), USER_FITTED, EFFORT_LEFT]


def test_reasoning_off_said_by_another_api_is_off_everywhere() -> None:
    # OpenAI's effort "none", OpenRouter's `enabled: false`, Gemini's budget 0: each is
    # the core's reasoning off, sent to Anthropic as thinking disabled with no effort.
    said = {
        "openai-responses": recorded(CACHED),
        "openrouter": {"model": "x", "messages": [], "reasoning": {"enabled": False}},
        "google": {"contents": [], "generationConfig": {"thinkingConfig": {"thinkingBudget": 0}}},
    }
    for source, body in said.items():
        request = get_adapter(source).decode_request(body)
        assert request.reasoning is not None
        assert not request.reasoning.enabled
        wire, losses = sent(body, source, "anthropic", "claude-haiku-4-5")
        assert wire["thinking"] == {"type": "disabled"}
        assert "output_config" not in wire
        assert not [lost for lost in losses if lost[0].startswith("reasoning")]


def test_the_core_holds_no_reasoning_off_with_an_effort_or_a_budget() -> None:
    for settings in ({"effort": "high"}, {"budget_tokens": 1024}):
        with pytest.raises(ValueError, match="reasoning turned off"):
            ReasoningConfig(enabled=False, **settings)
    with pytest.raises(ValueError, match="turns reasoning off"):
        ReasoningConfig(enabled=True, effort="none")
    assert ReasoningConfig(effort="none") == ReasoningConfig(enabled=False, effort="none")


# --- the settings OpenAI's two APIs share ---


def test_a_prompt_cache_key_goes_from_the_responses_api_to_chat_completions() -> None:
    body = recorded(CACHED)
    responses = get_adapter("openai-responses")
    assert same_json(responses.encode_request(responses.decode_request(body)), body)

    translated = translate_request(body, source="openai-responses", target="openai")

    wire = translated.body
    assert {key: wire[key] for key in ("prompt_cache_key", "prompt_cache_retention")} == {
        "prompt_cache_key": body["prompt_cache_key"],
        "prompt_cache_retention": body["prompt_cache_retention"],
    }
    assert wire["safety_identifier"] == body["safety_identifier"]
    assert wire["reasoning_effort"] == "none"
    assert wire["max_completion_tokens"] == body["max_output_tokens"]
    # `store` means another thing here (stored chat completions): left out, a hint.
    assert [(loss.path, loss.kind) for loss in translated.losses] == [
        ("provider_options.openai-responses.store", "dropped")
    ]


def test_a_prompt_cache_key_goes_from_chat_completions_to_the_responses_api() -> None:
    body = {
        "model": "gpt-5.1",
        "messages": [{"role": "user", "content": "Plan a trip to Porto."}],
        "prompt_cache_key": "conv-7c1e9a42",
        "prompt_cache_retention": "in_memory",
    }

    translated = translate_request(body, source="openai", target="openai-responses", strict=True)

    assert translated.body["prompt_cache_key"] == "conv-7c1e9a42"
    assert translated.body["prompt_cache_retention"] == "in_memory"


@pytest.mark.parametrize("target", ["anthropic", "groq", "mistral", "google", "xai"])
def test_a_prompt_cache_key_stays_openais_elsewhere(target: str) -> None:
    translated = translate_request(recorded(CACHED), source="openai-responses", target=target)

    assert "prompt_cache_key" not in json.dumps(translated.body)
    dropped = {loss.path for loss in translated.losses if loss.kind == "dropped"}
    assert {
        "provider_options.openai-responses.prompt_cache_key",
        "provider_options.openai-responses.prompt_cache_retention",
    } <= dropped


# --- the lengths a target caps ---


@pytest.mark.parametrize(
    ("target", "field"),
    [
        ("openai", "safety_identifier"),
        ("openai-responses", "safety_identifier"),
        ("groq", "user"),
        ("cerebras", "user"),
    ],
)
def test_claude_codes_user_id_goes_as_a_stable_digest_of_64_characters(
    target: str, field: str
) -> None:
    user_id = recorded(TITLE)["metadata"]["user_id"]

    first, losses = sent(recorded(TITLE), "anthropic", target, "gpt-5.1")
    again, _ = sent(recorded(TITLE), "anthropic", target, "gpt-5.1")

    assert first[field] == again[field] == digest(user_id)
    assert len(first[field]) == 64
    assert USER_FITTED in losses


def test_strict_mode_raises_on_the_fitted_user_id() -> None:
    request = get_adapter("anthropic").decode_request(recorded(TITLE))
    to_gpt = request.model_copy(update={"model": "gpt-5.1"})  # thinking disabled: "none"
    with pytest.raises(TranslationError) as caught:
        get_adapter("openai").encode_request(to_gpt, report=TranslationReport(strict=True))
    assert (caught.value.path, caught.value.kind) == ("context.user_id", "transformed")


def test_an_id_that_fits_goes_as_it_is() -> None:
    request = ChatRequest(
        model="gpt-5.1",
        messages=(Message.user("hi"),),
        context=InvocationContext(user_id="u" * 64, session_id="s" * 64),
    )
    report = TranslationReport(strict=True)

    body = get_adapter("openai").encode_request(request, report=report)

    assert (body["safety_identifier"], body["prompt_cache_key"]) == ("u" * 64, "s" * 64)


def test_a_session_past_64_characters_goes_as_its_digest() -> None:
    session = "session-" + "7" * 80
    request = ChatRequest(
        model="gpt-5.1",
        messages=(Message.user("hi"),),
        context=InvocationContext(session_id=session),
    )
    for target in ("openai", "openai-responses"):
        report = TranslationReport()
        body = get_adapter(target).encode_request(request, report=report)
        assert body["prompt_cache_key"] == digest(session)
        assert [(loss.path, loss.kind) for loss in report.losses] == [
            ("context.session_id", "transformed")
        ]


def test_anthropic_takes_a_user_id_up_to_256_characters() -> None:
    def body_for(user_id: str) -> tuple[dict[str, Any], TranslationReport]:
        context = InvocationContext(user_id=user_id)
        request = ChatRequest(model="claude-haiku-4-5", messages=(Message.user("hi"),))
        report = TranslationReport()
        wire = get_adapter("anthropic").encode_request(
            request.model_copy(update={"context": context}), report=report
        )
        return wire, report

    fits, report = body_for("a" * 256)
    assert fits["metadata"] == {"user_id": "a" * 256}
    assert not [loss for loss in report.losses if loss.path == "context.user_id"]
    too_long, report = body_for("a" * 257)
    assert too_long["metadata"] == {"user_id": digest("a" * 257)}
    assert [
        (loss.path, loss.kind) for loss in report.losses if loss.path.startswith("context")
    ] == [USER_FITTED]


def test_a_digest_is_cut_to_a_cap_under_64_and_a_model_is_matched_by_its_own_name() -> None:
    report = TranslationReport()
    assert fitted_length("x" * 41, 40, "p", report, "at most 40") == digest("x" * 41)[:40]
    assert fitted_length("x" * 40, 40, "p", report, "at most 40") == "x" * 40
    assert [(loss.path, loss.kind) for loss in report.losses] == [("p", "transformed")]
    rules = ((r"gpt-oss-.*", ReasoningOff("low")),)
    unknown = ReasoningOff(said="not known")
    assert sent_off("OpenAI/GPT-OSS-20B", rules, TranslationReport(strict=True), unknown) == "low"
    with pytest.raises(TranslationError):
        sent_off("llama-3.3-70b", rules, TranslationReport(strict=True), unknown)
