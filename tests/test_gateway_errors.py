"""The errors an agent acts on, as the gateway answers them: an upstream's 429
with the wait it asked for (`retry-after`, `retry-after-ms`) and the rate
limits it reported, in the names the client's API has (OpenAI's
`x-ratelimit-*`, Anthropic's `anthropic-ratelimit-*`); and a token count no
upstream of the route can make, one 404 whatever the reason.

The real server on 127.0.0.1, the real SDK clients pointed at it, the
upstreams answered from the project's recordings.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

import anthropic
import groq
import openai
import pytest
from google.genai import errors as google_errors

from conftest import fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, RecordedRequest, RecordedResponse, Replay
from test_gateway_google import google_sdk

KEY = fake_key("gk-")
UPSTREAM_KEY = fake_key("sk-")
GROQ_LIMITED = recorded("groq/error_rate_limited.json")[0]
ANTHROPIC_LIMITED = recorded("anthropic/error_rate_limited.json")[0]
GROQ_ANSWER = recorded("groq/tool_message_name.json")[0]
USER = [{"role": "user", "content": "Hi"}]
# What a provider adds to an answer that is nobody else's: none of it may reach a client.
UPSTREAM_ONLY = {
    "set-cookie": "__cf_bm=Zm9vYmFyYmF6cXV4cXV1eA; path=/; HttpOnly",
    "openai-organization": "org-7fA3kq9LmN2pX4rT",
    "anthropic-organization-id": "1f3e5d7c-9b2a-4c6e-8f0d-2a4b6c8e0f12",
}


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


def serve(**config: Any) -> GatewayServer:
    return GatewayServer(create_app(load(None, keys=[KEY], **config), default_key=UPSTREAM_KEY))


def upstream_replay(*interactions: Interaction) -> Replay:
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def with_headers(interaction: Interaction, headers: dict[str, str]) -> Interaction:
    """The recorded answer with `headers` set."""
    given = {name: (value,) for name, value in headers.items()}
    answer = interaction.response
    return replace(interaction, response=replace(answer, headers={**answer.headers, **given}))


def wire_headers(interaction: Interaction) -> dict[str, str]:
    return {name: values[0] for name, values in interaction.response.headers.items()}


def seconds_of(duration: str) -> float:
    """A duration as OpenAI writes one (`18m43.2s`, `5.345s`, `20ms`), in seconds."""
    if duration.endswith("ms"):
        return float(duration[:-2]) / 1000
    minutes, _, seconds = duration.removesuffix("s").rpartition("m")
    return float(minutes or 0) * 60 + float(seconds)


def time_of(stamp: str) -> datetime:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


# --- an upstream's 429 ---

# Each OpenAI-style client API, called with an SDK that raises its 429.
OPENAI_STYLE: dict[str, Callable[[str], Any]] = {
    "chat-completions": lambda base_url: opened(
        openai.OpenAI(api_key=KEY, base_url=f"{base_url}/v1", max_retries=0)
    ).chat.completions.create(model="groq:llama-3.3-70b-versatile", messages=USER),
    "responses": lambda base_url: opened(
        openai.OpenAI(api_key=KEY, base_url=f"{base_url}/v1", max_retries=0)
    ).responses.create(model="groq:llama-3.3-70b-versatile", input="Hi"),
    "groq": lambda base_url: opened(
        groq.Groq(api_key=KEY, base_url=f"{base_url}/groq", max_retries=0)
    ).chat.completions.create(model="groq:llama-3.3-70b-versatile", messages=USER),
}
RATE_LIMITED = (openai.RateLimitError, groq.RateLimitError)


@pytest.mark.parametrize("client", list(OPENAI_STYLE))
def test_an_openai_style_client_gets_the_wait_and_the_limits_in_openai_s_names(
    client: str,
) -> None:
    limited = with_headers(GROQ_LIMITED, UPSTREAM_ONLY)
    wire = wire_headers(GROQ_LIMITED)
    with serve() as gateway, upstream_replay(limited), pytest.raises(RATE_LIMITED) as raised:
        OPENAI_STYLE[client](gateway.base_url)
    headers = raised.value.response.headers
    assert raised.value.status_code == 429
    assert (headers["retry-after"], headers["retry-after-ms"]) == (wire["retry-after"], "6000")
    for name in ("limit-requests", "remaining-requests", "limit-tokens", "remaining-tokens"):
        assert headers[f"x-ratelimit-{name}"] == wire[f"x-ratelimit-{name}"]
    for name in ("reset-requests", "reset-tokens"):  # a duration from now: what is left of it
        sent = seconds_of(wire[f"x-ratelimit-{name}"])
        assert sent - 5 < seconds_of(headers[f"x-ratelimit-{name}"]) <= sent
    assert headers["x-request-id"] == wire["x-request-id"]
    for name in [*UPSTREAM_ONLY, "x-groq-region", "cf-cache-status"]:
        assert name not in headers
    assert not [name for name in headers if name.startswith("anthropic-")]


def test_an_anthropic_client_gets_openai_s_limits_in_anthropic_s_names() -> None:
    """Claude Code in front of Groq: each reset, a duration, becomes the time it
    comes, rounded up to the second; Groq names no input or output limit apart."""
    wire = wire_headers(GROQ_LIMITED)
    with serve() as gateway, upstream_replay(with_headers(GROQ_LIMITED, UPSTREAM_ONLY)):
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        asked = datetime.now(timezone.utc)
        with pytest.raises(anthropic.RateLimitError) as raised:
            client.messages.create(
                model="groq:llama-3.3-70b-versatile", max_tokens=8, messages=USER
            )
    headers = raised.value.response.headers
    assert raised.value.body["error"]["type"] == "rate_limit_error"  # type: ignore[index]
    assert (headers["retry-after"], headers["retry-after-ms"]) == (wire["retry-after"], "6000")
    for bucket in ("requests", "tokens"):
        named = f"anthropic-ratelimit-{bucket}"
        assert headers[f"{named}-limit"] == wire[f"x-ratelimit-limit-{bucket}"]
        assert headers[f"{named}-remaining"] == wire[f"x-ratelimit-remaining-{bucket}"]
        resets = asked + timedelta(seconds=seconds_of(wire[f"x-ratelimit-reset-{bucket}"]))
        assert timedelta(0) <= time_of(headers[f"{named}-reset"]) - resets < timedelta(seconds=6)
    assert headers["request-id"] == wire["x-request-id"]
    ratelimit = sorted(name for name in headers if "ratelimit" in name)
    assert ratelimit == sorted(
        f"anthropic-ratelimit-{bucket}-{field}"
        for bucket in ("requests", "tokens")
        for field in ("limit", "remaining", "reset")
    )
    for name in UPSTREAM_ONLY:
        assert name not in headers


def resets_from(interaction: Interaction, now: datetime, seconds: int) -> Interaction:
    """The recorded answer with each of its Anthropic resets `seconds` on from
    `now`, later ones later as recorded (a recording's own times are past)."""
    wire = wire_headers(interaction)
    resets = {name: time_of(value) for name, value in wire.items() if name.endswith("-reset")}
    first = min(resets.values())
    moved = {
        name: (now + timedelta(seconds=seconds) + (when - first)).strftime("%Y-%m-%dT%H:%M:%SZ")
        for name, when in resets.items()
    }
    return with_headers(interaction, moved)


def test_an_openai_client_gets_anthropic_s_limits_in_openai_s_names() -> None:
    """Each reset, a time, becomes what is left until it comes; Anthropic's
    input and output token limits, which OpenAI's names have no place for, are left out."""
    now = datetime.now(timezone.utc).replace(microsecond=0)
    limited = resets_from(ANTHROPIC_LIMITED, now, 30)
    wire = wire_headers(limited)
    with serve() as gateway, upstream_replay(limited):
        client = opened(
            openai.OpenAI(api_key=KEY, base_url=f"{gateway.base_url}/v1", max_retries=0)
        )
        with pytest.raises(openai.RateLimitError) as raised:
            client.chat.completions.create(model="anthropic:claude-sonnet-4-5", messages=USER)
    headers = raised.value.response.headers
    assert (headers["retry-after"], headers["retry-after-ms"]) == (wire["retry-after"], "12000")
    for bucket in ("requests", "tokens"):
        named = f"anthropic-ratelimit-{bucket}"
        assert headers[f"x-ratelimit-limit-{bucket}"] == wire[f"{named}-limit"]
        assert headers[f"x-ratelimit-remaining-{bucket}"] == wire[f"{named}-remaining"]
        left = (time_of(wire[f"{named}-reset"]) - now).total_seconds()
        assert left - 5 < seconds_of(headers[f"x-ratelimit-reset-{bucket}"]) <= left
    assert sorted(name for name in headers if "ratelimit" in name) == sorted(
        f"x-ratelimit-{field}-{bucket}"
        for bucket in ("requests", "tokens")
        for field in ("limit", "remaining", "reset")
    )
    assert raised.value.request_id == wire["request-id"]
    assert "anthropic-organization-id" not in headers


def test_an_anthropic_client_gets_anthropic_s_limits_as_they_came() -> None:
    now = datetime.now(timezone.utc).replace(microsecond=0)
    limited = resets_from(ANTHROPIC_LIMITED, now, 30)
    wire = wire_headers(limited)
    with serve() as gateway, upstream_replay(limited):
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with pytest.raises(anthropic.RateLimitError) as raised:
            client.messages.create(model="anthropic:claude-sonnet-4-5", max_tokens=8, messages=USER)
    headers = raised.value.response.headers
    limits = {name: value for name, value in wire.items() if "ratelimit" in name}
    assert len(limits) == 12
    assert {name: headers.get(name) for name in limits} == limits
    assert (headers["retry-after"], headers["retry-after-ms"]) == ("12", "12000")
    assert raised.value.body == ANTHROPIC_LIMITED.response.json
    for name in ("anthropic-organization-id", "x-should-retry", "cache-control"):
        assert name not in headers


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
def test_the_client_s_sdk_waits_as_long_as_the_upstream_asked(sdk: str) -> None:
    """The SDKs agents use back off for the `retry-after-ms` the gateway passes
    on (2 s, four times their own first wait at most), then ask again."""
    limited = with_headers(GROQ_LIMITED, {"retry-after": "2"})
    with serve() as gateway, upstream_replay(limited, GROQ_ANSWER) as replay:
        started = time.monotonic()
        if sdk == "openai":
            opened(
                openai.OpenAI(api_key=KEY, base_url=f"{gateway.base_url}/v1", max_retries=1)
            ).chat.completions.create(model="groq:llama-3.3-70b-versatile", messages=USER)
        else:
            opened(
                anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=1)
            ).messages.create(model="groq:llama-3.3-70b-versatile", max_tokens=8, messages=USER)
        waited = time.monotonic() - started
    assert len(replay.requests) == 2
    assert waited >= 2.0


# --- token counts that cannot be made here ---

COUNT_REFUSED = {"type": "error", "error": {"type": "not_found_error", "message": "Not Found"}}
COUNT_RATE_LIMITED = {
    "type": "error",
    "error": {"type": "rate_limit_error", "message": "Number of request tokens has exceeded"},
}


def count_answer(status: int, body: dict[str, Any], headers: dict[str, str]) -> Interaction:
    return Interaction(
        RecordedRequest(
            "POST", "https://api.anthropic.com/v1/messages/count_tokens", {}, None, None
        ),
        RecordedResponse(
            status,
            {"content-type": ("application/json",), **{k: (v,) for k, v in headers.items()}},
            json.dumps(body).encode(),
            body,
            None,
        ),
    )


ROUTES = {
    "other-api": {"upstream": "openai:gpt-4.1"},
    "no-key": {"upstream": "anthropic:claude-sonnet-4-5"},
    "refused": {"upstream": "anthropic:claude-sonnet-4-5"},
}
UNSET = "INTERLINGUA_TEST_NO_SUCH_KEY"
# The model asked for -> the reason its count cannot be made, as the message ends.
CANNOT_COUNT = {
    "unrouted": "model 'unrouted' has no route",
    "other-api": "its upstream openai:gpt-4.1 is not of the anthropic API, which alone counts",
    "nowhere:model-x": "model 'nowhere:model-x' has no route",  # no such adapter
    "no-key": f"the upstream anthropic cannot be used: the variable {UNSET} is not set",
    "refused": "its upstream anthropic:claude-sonnet-4-5 answered anthropic 404 not_found_error",
}


@pytest.mark.parametrize("model", list(CANNOT_COUNT))
def test_a_count_no_upstream_can_make_is_one_404(
    model: str, monkeypatch: pytest.MonkeyPatch, gateway_log: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv(UNSET, raising=False)
    upstreams = {"anthropic": {"api_key_env": UNSET}} if model == "no-key" else {}
    refused = count_answer(404, COUNT_REFUSED, {})
    with serve(models=ROUTES, upstreams=upstreams, log="json") as gateway:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with upstream_replay(refused) as replay, pytest.raises(anthropic.NotFoundError) as raised:
            client.messages.count_tokens(model=model, messages=USER)
    body: Any = raised.value.body
    message = body["error"]["message"]
    assert (raised.value.status_code, body["error"]["type"]) == (404, "not_found_error")
    assert message.startswith(f"tokens cannot be counted for {model!r} here: ")
    assert CANNOT_COUNT[model] in message
    assert len(replay.requests) == (model == "refused")
    lines = [json.loads(line) for line in gateway_log.messages]
    started = [line for line in lines if "startup" in line]  # an upstream unready, said once
    (logged,) = [line for line in lines if line.get("path") == "/v1/messages/count_tokens"]
    assert message in logged["error"]
    assert [line["upstream"] for line in started] == (["anthropic"] if model == "no-key" else [])


@pytest.mark.parametrize("model", ["unrouted", "other-api", "refused"])
def test_gemini_s_count_that_cannot_be_made_is_the_same_404(model: str) -> None:
    routes = {**ROUTES, "refused": {"upstream": "google:gemini-2.5-flash"}}
    refused = Interaction(
        RecordedRequest(
            "POST",
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens",
            {},
            None,
            None,
        ),
        RecordedResponse(
            404,
            {"content-type": ("application/json",)},
            b'{"error": {"code": 404, "message": "Not found", "status": "NOT_FOUND"}}',
            {"error": {"code": 404, "message": "Not found", "status": "NOT_FOUND"}},
            None,
        ),
    )
    with serve(models=routes) as gateway, upstream_replay(refused):
        client = google_sdk(f"{gateway.base_url}/google")
        with pytest.raises(google_errors.ClientError) as raised:
            client.models.count_tokens(model=model, contents="Hi")
    assert (raised.value.code, raised.value.status) == (404, "NOT_FOUND")
    assert (raised.value.message or "").startswith(f"tokens cannot be counted for {model!r} here: ")


def test_a_count_the_upstream_refuses_for_another_reason_is_its_own_error() -> None:
    """A rate limit says why this count failed, not that none can be made here:
    it goes as it came, with the wait asked for."""
    limited = count_answer(429, COUNT_RATE_LIMITED, {"retry-after": "3"})
    with serve(models=ROUTES) as gateway, upstream_replay(limited):
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with pytest.raises(anthropic.RateLimitError) as raised:
            client.messages.count_tokens(model="refused", messages=USER)
    assert raised.value.body == COUNT_RATE_LIMITED
    assert raised.value.response.headers["retry-after"] == "3"
