"""The gateway's start-up readies its upstreams: every configured route's upstream
has its SDK client built before the first request, which then costs what the next
ones do (`bench/first_request.py` measures it); the client APIs' adapters are
imported too. An upstream whose client cannot be built then (its key's variable
unset) does not stop the gateway: the start-up log says so once, and its routes
answer with the error they gave before. A `provider:model` no route names is
readied by its first request.

The real server (`tests/gateway_server.py`), its start-up run by uvicorn's lifespan.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from conftest import fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened
from interlingua import get_client_class
from interlingua.gateway import create_app, load
from interlingua.gateway._upstream import Upstreams
from interlingua.testing import Interaction, Replay

KEY = fake_key("gk-")
BOUND = 30.0
UNSET = "INTERLINGUA_TEST_UNSET_GROQ_KEY"  # a variable no test sets
ROUTES = {
    "house": {"upstream": "anthropic:claude-sonnet-4-5", "fallbacks": ["openai:gpt-4.1-mini"]},
    "fast": {"upstream": "groq:qwen/qwen3-32b"},
    "cheap": {"upstream": "openai:gpt-4.1-mini"},
}
CHAT_ANSWER = recorded("openai/chat_tool_round_trip.json")[1]
XAI_ANSWER = recorded("xai/reasoning_content_two_turns.json")[0]


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


def serve(**config: Any) -> tuple[GatewayServer, Upstreams]:
    """The gateway's server over `ROUTES`, and its upstreams."""
    settings = load(None, keys=[KEY], models=ROUTES, **config)
    app = create_app(settings, default_key=fake_key("sk-"))
    return GatewayServer(app), app.state.gateway.upstreams


def replaying(*interactions: Interaction) -> Replay:
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def ask(base_url: str, model: str) -> httpx.Response:
    body = {"model": model, "messages": [{"role": "user", "content": "Hi"}]}
    headers = {"authorization": f"Bearer {KEY}"}
    return httpx.post(f"{base_url}/v1/chat/completions", json=body, headers=headers, timeout=BOUND)


def test_every_routed_upstream_has_its_client_built_at_start_up() -> None:
    server, upstreams = serve()
    assert upstreams.clients == {}  # nothing before the start-up
    with server as gateway:
        built = upstreams.clients
        with replaying(CHAT_ANSWER):
            answered = ask(gateway.base_url, "cheap")
        after = upstreams.clients

    # Each provider the routes name, fallbacks included, and no other.
    assert sorted(built) == ["anthropic", "groq", "openai"]
    for provider, client in built.items():
        assert type(client) is get_client_class(provider, asynchronous=True)
    # The first request used the client built at start-up: none was built for it.
    assert answered.status_code == 200
    assert after == built
    assert all(after[provider] is client for provider, client in built.items())


def test_a_provider_model_no_route_names_is_built_by_its_first_request() -> None:
    server, upstreams = serve()
    with server as gateway:
        before = upstreams.clients
        with replaying(XAI_ANSWER):
            answered = ask(gateway.base_url, "xai:grok-3-mini")
        after = upstreams.clients

    assert "xai" not in before
    assert answered.status_code == 200
    assert sorted(after) == sorted([*before, "xai"])
    assert type(after["xai"]) is get_client_class("xai", asynchronous=True)


@pytest.mark.parametrize("form", ["human", "json"])
def test_an_upstream_whose_key_is_unset_is_said_once_and_answers_its_error(
    form: str, gateway_log: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(UNSET, raising=False)
    options = {"groq": {"api_key_env": UNSET}}
    server, upstreams = serve(upstreams=options, log=form)
    with server as gateway:
        built = upstreams.clients
        started = list(gateway_log.messages)
        answers = [ask(gateway.base_url, "fast") for _ in range(2)]

    assert sorted(built) == ["anthropic", "openai"]  # the others readied all the same
    (line,) = started
    expected = f"the upstream groq cannot be used: the variable {UNSET} is not set"
    if form == "json":
        logged = json.loads(line)
        assert logged.pop("error").endswith(expected)
        assert logged == {"startup": "upstream unavailable", "upstream": "groq", "routes": ["fast"]}
    else:
        assert line.startswith("start-up: upstream groq unavailable (")
        assert line.endswith(f"{expected}); its routes (fast) answer with this error")
    for answer in answers:
        assert answer.status_code == 502
        assert answer.json()["error"]["message"] == expected
    # One line for start-up, then each request's own.
    assert len(gateway_log.messages) == 1 + len(answers)
