"""The gateway's routes: a model name by its own entry, a `provider:model`, or
the most specific pattern it matches; and the most output tokens a route or an
upstream may be asked for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest

from conftest import fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua import NotFoundError
from interlingua.gateway import ConfigError, create_app, load
from interlingua.gateway._upstream import Target, Upstreams
from interlingua.testing import Replay

KEY = fake_key("gk-")
MATCH_ON = ("method", "host", "path")

ROUTES = {
    "claude-sonnet-4-5": {"upstream": "groq:openai/gpt-oss-120b"},
    "claude-*": {"upstream": "anthropic:*"},
    "claude-haiku-*": {"upstream": "openai:gpt-4.1-mini"},
    "*-4-5": {"upstream": "mistral:mistral-large-latest"},
    "*": {"upstream": "openai:gpt-4.1", "fallbacks": ["anthropic:claude-sonnet-4-5"]},
}


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


@pytest.mark.parametrize(
    ("asked", "routed"),
    [
        # Its own entry, before any pattern that matches it.
        ("claude-sonnet-4-5", ["groq:openai/gpt-oss-120b"]),
        # `claude-haiku-*` has more characters of its own than `claude-*` and `*-4-5`.
        ("claude-haiku-4-5", ["openai:gpt-4.1-mini"]),
        # `claude-*` before `*-4-5`; `*` as the upstream's model is the name asked.
        ("claude-opus-4-5", ["anthropic:claude-opus-4-5"]),
        ("claude-opus-4-6[1m]", ["anthropic:claude-opus-4-6[1m]"]),  # `[` is itself
        ("gemini-2.5-pro", ["openai:gpt-4.1", "anthropic:claude-sonnet-4-5"]),
        # A provider it names, though `*` matches it too.
        ("groq:qwen/qwen3-32b", ["groq:qwen/qwen3-32b"]),
        # A name that only looks like one goes by the patterns.
        ("nobody:model-1", ["openai:gpt-4.1", "anthropic:claude-sonnet-4-5"]),
    ],
)
def test_a_name_takes_its_own_route_else_the_most_specific_pattern(
    asked: str, routed: list[str]
) -> None:
    upstreams = Upstreams(load(None, keys=[KEY], models=ROUTES))
    assert [target.name for target in upstreams.route(asked)] == routed


def test_of_two_patterns_alike_the_first_in_the_file_wins() -> None:
    routes = {
        "gpt-*": {"upstream": "openai:gpt-4.1"},
        "*mini": {"upstream": "groq:qwen/qwen3-32b"},
        "?pt-4.1-min?": {"upstream": "mistral:mistral-small-latest"},
    }
    upstreams = Upstreams(load(None, keys=[KEY], models=routes))
    assert upstreams.route("gpt-4.1-mini") == [Target("mistral", "mistral-small-latest")]
    assert upstreams.route("gpt-4o-mini") == [Target("openai", "gpt-4.1")]
    assert upstreams.route("o4-mini") == [Target("groq", "qwen/qwen3-32b")]


def test_without_a_default_route_an_unmatched_name_has_none() -> None:
    routes = {"claude-*": {"upstream": "anthropic:*"}}
    upstreams = Upstreams(load(None, keys=[KEY], models=routes))
    with pytest.raises(NotFoundError, match=r"'gpt-4\.1' has no route"):
        upstreams.route("gpt-4.1")


def test_the_model_list_names_routes_not_patterns() -> None:
    config = load(None, keys=[KEY], models=ROUTES)
    with GatewayServer(create_app(config)) as gateway:
        client = opened(openai.OpenAI(api_key=KEY, base_url=f"{gateway.base_url}/v1"))
        listed = [model.id for model in client.models.list()]
    assert listed == ["claude-sonnet-4-5"]


# --- the most output tokens ---


def test_a_route_s_or_an_upstream_s_limit_whichever_is_lower_caps_a_target() -> None:
    routes = {
        "big": {"upstream": "anthropic:claude-opus-4-5", "max_output_tokens": 32000},
        "small": {
            "upstream": "groq:openai/gpt-oss-120b",
            "fallbacks": ["anthropic:claude-haiku-4-5"],
            "max_output_tokens": 16384,
        },
    }
    upstreams = {"groq": {"max_output_tokens": 8192}, "anthropic": {"max_output_tokens": 64000}}
    routed = Upstreams(load(None, keys=[KEY], models=routes, upstreams=upstreams))
    assert routed.route("big") == [Target("anthropic", "claude-opus-4-5", 32000)]
    assert routed.route("small") == [
        Target("groq", "openai/gpt-oss-120b", 8192),
        Target("anthropic", "claude-haiku-4-5", 16384),
    ]
    assert routed.route("openai:gpt-4.1") == [Target("openai", "gpt-4.1", None)]


@pytest.mark.parametrize("value", [0, -1, "many"])
def test_a_limit_must_be_a_positive_count(value: Any) -> None:
    routes = {"big": {"upstream": "anthropic:claude-opus-4-5", "max_output_tokens": value}}
    with pytest.raises(ConfigError, match=r"models\.big\.max_output_tokens"):
        load(None, keys=[KEY], models=routes)


ANTHROPIC_ANSWER = recorded("anthropic/tool_round_trip_with_thinking.json")[1]
CHAT_ANSWER = recorded("openai/chat_tool_round_trip.json")[1]


def test_a_request_asking_for_more_is_sent_capped_and_says_so() -> None:
    """As Claude Code asks: 64,000 output tokens and a thinking budget below
    them, whatever the model; the route's model gives at most 16,384."""
    routes = {"claude-*": {"upstream": "openai:gpt-4.1-mini", "max_output_tokens": 16384}}
    config = load(None, keys=[KEY], models=routes)
    with GatewayServer(create_app(config, default_key=fake_key("sk-"))) as gateway:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with Replay([CHAT_ANSWER], match_on=MATCH_ON, pass_hosts=[LOOPBACK]) as replay:
            answer = client.messages.with_raw_response.create(
                model="claude-haiku-4-5",
                max_tokens=64000,
                timeout=60,
                messages=[{"role": "user", "content": "Hi"}],
            )
    (sent,) = replay.sent
    assert sent["model"] == "gpt-4.1-mini"
    assert sent["max_completion_tokens"] == 16384
    assert answer.headers["x-interlingua-losses"] == "1; max_tokens transformed setting"


def test_a_thinking_budget_stays_below_the_capped_limit() -> None:
    routes = {"*": {"upstream": "anthropic:claude-haiku-4-5", "max_output_tokens": 8192}}
    config = load(None, keys=[KEY], models=routes)
    with GatewayServer(create_app(config, default_key=fake_key("sk-ant-"))) as gateway:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with Replay([ANTHROPIC_ANSWER], match_on=MATCH_ON, pass_hosts=[LOOPBACK]) as replay:
            answer = client.messages.with_raw_response.create(
                model="any-model",
                max_tokens=32000,
                timeout=60,
                messages=[{"role": "user", "content": "Hi"}],
                thinking={"type": "enabled", "budget_tokens": 16000},
            )
    (sent,) = replay.sent
    assert sent["model"] == "claude-haiku-4-5"
    assert (sent["max_tokens"], sent["thinking"]) == (
        8192,
        {"type": "enabled", "budget_tokens": 8191},
    )
    assert answer.headers["x-interlingua-losses"] == (
        "2; max_tokens transformed setting, reasoning.budget_tokens transformed setting"
    )


def test_a_request_within_the_limit_goes_as_asked() -> None:
    routes = {"claude-*": {"upstream": "openai:gpt-4.1-mini", "max_output_tokens": 16384}}
    config = load(None, keys=[KEY], models=routes)
    with GatewayServer(create_app(config, default_key=fake_key("sk-"))) as gateway:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with Replay([CHAT_ANSWER], match_on=MATCH_ON, pass_hosts=[LOOPBACK]) as replay:
            answer = client.messages.with_raw_response.create(
                model="claude-haiku-4-5",
                max_tokens=1024,
                messages=[{"role": "user", "content": "Hi"}],
            )
    assert replay.sent[0]["max_completion_tokens"] == 1024
    assert "x-interlingua-losses" not in answer.headers
