"""OpenRouter's reasoning setting, the request's `reasoning` object
(`{"effort"}` or `{"max_tokens"}`, `enabled`, `exclude`), as the core's
`ReasoningConfig`:

- every form of the object decodes to the setting it means and encodes back
  to itself exactly, with nothing reported; what the core cannot hold
  (`exclude`, or an object it cannot say: both an effort and a budget) is
  the request's OpenRouter option, laid back over the object;
- a setting made anywhere else goes to OpenRouter as that object, never as
  `reasoning_effort` (through the real `openai` SDK, the body asserted), and
  an OpenRouter setting reaches another provider as that provider's own,
  OpenRouter's `exclude` reported;
- a `reasoning_effort` sent to OpenRouter goes back as it came.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import bodies, fake_key, in_order, recorded, same_json
from interlingua import (
    ChatRequest,
    Message,
    ReasoningConfig,
    TranslationError,
    TranslationReport,
    translate_request,
)
from interlingua_openrouter import OpenRouterClient, decode_request, encode_request

MODEL = "anthropic/claude-sonnet-4.5"
USER = {"role": "user", "content": "Reply with the single word: ok"}


def body_with(**fields: Any) -> dict[str, Any]:
    return {"model": MODEL, "messages": [USER], **fields}


def setting(config: ReasoningConfig | None) -> tuple[Any, ...] | None:
    return None if config is None else (config.enabled, config.effort, config.budget_tokens)


# (the `reasoning` object, the setting it is: (enabled, effort, budget), the
# request's OpenRouter option `reasoning`)
OBJECTS: list[tuple[dict[str, Any], tuple[Any, ...] | None, Any]] = [
    ({"effort": "high"}, (True, "high", None), None),
    ({"effort": "high", "enabled": True}, (True, "high", None), None),
    ({"effort": "none"}, (False, "none", None), None),
    ({"effort": "none", "enabled": False}, (False, "none", None), None),
    ({"max_tokens": 2000}, (True, None, 2000), None),
    ({"max_tokens": 2000, "enabled": True}, (True, None, 2000), None),
    ({"enabled": True}, (True, None, None), None),
    ({"enabled": False}, (False, None, None), None),
    ({"effort": "low", "exclude": True}, (True, "low", None), {"exclude": True}),
    ({"exclude": False, "max_tokens": 1024}, (True, None, 1024), {"exclude": False}),
    # What the core cannot say stays whole, as sent.
    ({"exclude": True}, None, {"exclude": True}),
    ({"effort": "high", "max_tokens": 2000}, None, {"effort": "high", "max_tokens": 2000}),
    ({"effort": 3}, None, {"effort": 3}),
    ({"max_tokens": True}, None, {"max_tokens": True}),
    ({}, None, {}),
    # A switch that says the contrary of its effort or budget: the core holds no such
    # setting (reasoning off says no more), so it stays whole, as sent.
    ({"effort": "high", "enabled": False}, None, {"effort": "high", "enabled": False}),
    ({"effort": "none", "enabled": True}, None, {"effort": "none", "enabled": True}),
    ({"max_tokens": 2000, "enabled": False}, None, {"max_tokens": 2000, "enabled": False}),
]


@pytest.mark.parametrize(("wire", "expected", "option"), OBJECTS, ids=str)
def test_each_reasoning_object_is_its_setting_and_goes_back_exactly(
    wire: dict[str, Any], expected: tuple[Any, ...] | None, option: Any
) -> None:
    body = body_with(reasoning=wire)
    report = TranslationReport()

    request = decode_request(body)

    assert setting(request.reasoning) == expected
    assert request.options_for("openrouter").get("reasoning") == option
    assert same_json(encode_request(request, report=report), body)
    assert report.losses == []


@pytest.mark.parametrize(
    ("config", "sent"),
    [
        (ReasoningConfig(effort="medium"), {"effort": "medium"}),
        (ReasoningConfig(budget_tokens=4096), {"max_tokens": 4096}),
        (ReasoningConfig(), {"enabled": True}),
        (ReasoningConfig(enabled=False), {"enabled": False}),
        (ReasoningConfig(enabled=False, effort="none"), {"effort": "none"}),
    ],
    ids=str,
)
def test_a_core_setting_goes_as_the_reasoning_object(
    config: ReasoningConfig, sent: dict[str, Any]
) -> None:
    request = ChatRequest(model=MODEL, messages=(Message.user("ok?"),), reasoning=config)

    body = encode_request(request, report=TranslationReport(strict=True))

    assert body["reasoning"] == sent
    assert "reasoning_effort" not in body
    assert setting(decode_request(body).reasoning) == setting(config)


def test_what_the_object_cannot_say_is_reported() -> None:
    config = ReasoningConfig(effort="high", budget_tokens=2000, summary="auto")
    request = ChatRequest(model=MODEL, messages=(Message.user("ok?"),), reasoning=config)
    report = TranslationReport()

    body = encode_request(request, report=report)

    assert body["reasoning"] == {"effort": "high"}
    assert {(loss.path, loss.kind) for loss in report.losses} == {
        ("reasoning.budget_tokens", "dropped"),
        ("reasoning.summary", "dropped"),
    }
    with pytest.raises(TranslationError):
        encode_request(request, report=TranslationReport(strict=True))


def test_the_options_exclude_is_laid_over_a_setting_made_elsewhere() -> None:
    request = ChatRequest(
        model=MODEL,
        messages=(Message.user("ok?"),),
        reasoning=ReasoningConfig(budget_tokens=1024),
        provider_options={"openrouter": {"reasoning": {"exclude": True}}},
    )

    assert encode_request(request)["reasoning"] == {"max_tokens": 1024, "exclude": True}


def test_a_reasoning_effort_sent_to_openrouter_goes_back_as_it_came() -> None:
    body = body_with(reasoning_effort="low")
    report = TranslationReport()

    request = decode_request(body)

    assert setting(request.reasoning) == (True, "low", None)
    assert same_json(encode_request(request, report=report), body)
    assert report.losses == []
    both = body_with(reasoning_effort="low", reasoning={"effort": "high"})
    kept = decode_request(both)  # OpenRouter's two at once: the core holds neither
    assert kept.reasoning is None
    assert same_json(encode_request(kept), both)


def test_openrouter_s_setting_reaches_anthropic_and_openai_as_their_own() -> None:
    body = body_with(reasoning={"max_tokens": 2048, "exclude": True}, max_tokens=4096)

    anthropic = translate_request(body, source="openrouter", target="anthropic")
    openai = translate_request(
        body_with(reasoning={"effort": "high"}), source="openrouter", target="openai"
    )

    assert anthropic.body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert [(loss.path, loss.kind) for loss in anthropic.losses] == [
        ("provider_options.openrouter.reasoning", "dropped")  # `exclude` is OpenRouter's
    ]
    assert openai.body["reasoning_effort"] == "high"
    assert openai.losses == []


def test_another_provider_s_setting_reaches_openrouter_as_its_object() -> None:
    body = {
        "model": MODEL,
        "max_tokens": 4096,
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "messages": [{"role": "user", "content": "ok?"}],
    }

    translation = translate_request(body, source="anthropic", target="openrouter")

    assert translation.body["reasoning"] == {"max_tokens": 2048}
    assert "reasoning_effort" not in translation.body
    assert translation.losses == []


def test_the_sdk_sends_the_setting_as_the_reasoning_object() -> None:
    replay = in_order(recorded("openrouter/reasoning_details_tool_round_trip.json")[:1])
    request = decode_request(bodies(replay.interactions)[0])
    assert request.reasoning is not None  # the recording's `{"max_tokens": 512}`
    effort = request.model_copy(update={"reasoning": ReasoningConfig(effort="high")})

    with OpenRouterClient(
        api_key=fake_key("sk-or-v1-"), max_retries=0, http_client=replay.client()
    ) as openrouter:
        response = openrouter.complete(effort, report=TranslationReport(strict=True))

    (sent,) = replay.sent
    assert sent["reasoning"] == {"effort": "high"}
    assert "reasoning_effort" not in sent
    assert sent == {**bodies(replay.interactions)[0], "reasoning": {"effort": "high"}}
    assert response.message.reasoning  # the answer's reasoning, decoded as it came
