"""A body going to its own API goes as it came: to an upstream whose adapter is
the client's API, the gateway sends the client's JSON body as it is, on the
route's model and within its `max_output_tokens`, with the API's own headers
the client sent (`anthropic-beta`, `anthropic-version`, `OpenAI-Beta`) and no
other; strict mode refuses none of it. An upstream of another API (a
fallback) is sent the request translated.

The clients post to the real server (`tests/gateway_server.py`) as the agents
do (Claude Code's and Codex's exact bodies and headers), or through their SDKs;
each upstream is a replay of the project's recordings, and the bodies and
headers it was sent are asserted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import openai
import pytest
from google import genai
from google.genai import types

from conftest import fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, RecordedRequest, RecordedResponse, Replay

KEY = fake_key("gk-")
UPSTREAM_KEY = fake_key("sk-")
BOUND = 30.0  # seconds any one wait may take (a loaded machine is slow)

(CLAUDE_CODE,) = recorded("anthropic/claude_code_adaptive_tool_loop.json")
CLAUDE_CODE_BODY = CLAUDE_CODE.request.json
CLAUDE_CODE_HEADERS = {name: value for name, (value,) in CLAUDE_CODE.request.headers.items()}
# What else Claude Code sends, which is no API's to read (and its key, the gateway's).
CLAUDE_CODE_OWN_HEADERS = {
    "user-agent": "claude-cli/2.1.69 (external, cli)",
    "x-app": "cli",
    "anthropic-dangerous-direct-browser-access": "true",
}
CODEX = recorded("openai/responses_codex_tools.json")[0]
ANTHROPIC_ANSWER = recorded("anthropic/tool_round_trip_with_thinking.json")[1]
CHAT_ANSWER = recorded("openai/chat_tool_round_trip.json")[1]
CHAT_STREAM = recorded("openai/chat_stream_parallel_tool_calls.json")[0]
RESPONSES_ANSWER = recorded("openai/responses_reasoning_tool_call.json")[1]
OPENROUTER_ANSWER = recorded("openrouter/reasoning_details_tool_round_trip.json")[1]
GEMINI_ANSWER = recorded("google/tool_round_trip_with_thinking.json")[0]
GEMINI_STREAM = recorded("google/stream_parallel_tool_calls.json")[0]
QUESTION = "Is it raining in Lisbon right now?"


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


def serve(models: dict[str, Any], **config: Any) -> GatewayServer:
    settings = load(None, keys=[KEY], models=models, **config)
    return GatewayServer(create_app(settings, default_key=UPSTREAM_KEY))


def upstream_replay(*interactions: Interaction) -> Replay:
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def post(gateway: GatewayServer, path: str, body: Any, headers: Any = ()) -> httpx.Response:
    """`body` posted as its JSON text, with the gateway's key and `headers` (a
    mapping, or pairs, a name repeated)."""
    pairs = headers.items() if isinstance(headers, dict) else headers
    sent = [("content-type", "application/json"), ("x-api-key", KEY), *pairs]
    content = json.dumps(body).encode()
    return httpx.post(f"{gateway.base_url}{path}", content=content, headers=sent, timeout=BOUND)


def sse_payloads(text: str) -> list[Any]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: {")]


def streamed(body: dict[str, Any], stream: bool) -> dict[str, Any]:
    """`body` asking for a stream, or, as its client sends a whole call, without `stream`."""
    return body if stream else {name: value for name, value in body.items() if name != "stream"}


# --- Claude Code's tool loop, to Anthropic ---

OPUS_SNAPSHOT = "claude-opus-4-8-20260528"


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
def test_claude_codes_tool_loop_reaches_anthropic_as_it_came(stream: bool) -> None:
    """Adaptive thinking, an assistant tool turn that skipped its thinking block,
    context_management and cache_control go as Claude Code wrote them (re-encoded,
    thinking was turned off), with its betas and API version and nothing else."""
    body = streamed(CLAUDE_CODE_BODY, stream)
    headers = {**CLAUDE_CODE_HEADERS, **CLAUDE_CODE_OWN_HEADERS}
    answer_from = CLAUDE_CODE if stream else ANTHROPIC_ANSWER
    routes = {"claude-opus-4-8": {"upstream": f"anthropic:{OPUS_SNAPSHOT}"}}
    with serve(routes) as gateway, upstream_replay(answer_from) as replay:
        answer = post(gateway, "/v1/messages?beta=true", body, headers)

    (sent,) = replay.sent
    assert json.dumps(sent) == json.dumps({**body, "model": OPUS_SNAPSHOT})
    assert sent["thinking"] == {"type": "adaptive"}
    (upstream,) = replay.requests
    assert upstream.headers["anthropic-beta"] == CLAUDE_CODE_HEADERS["anthropic-beta"]
    assert upstream.headers["anthropic-version"] == "2023-06-01"
    assert upstream.headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert KEY not in upstream.headers.values()
    assert not {"x-app", "anthropic-dangerous-direct-browser-access"} & set(upstream.headers)
    assert "claude-cli" not in upstream.headers["user-agent"]
    assert answer.status_code == 200
    assert "x-interlingua-losses" not in answer.headers
    if stream:
        texts = [
            p["delta"]["text"] for p in sse_payloads(answer.text) if "text" in p.get("delta", {})
        ]
        wire = [
            p["delta"]["text"]
            for p in CLAUDE_CODE.response.stream_payloads()
            if "text" in p.get("delta", {})
        ]
        assert "".join(texts) == "".join(wire)
    else:
        assert answer.json()["content"] == ANTHROPIC_ANSWER.response.json["content"]


COUNTED = Interaction(
    RecordedRequest("POST", "https://api.anthropic.com/v1/messages/count_tokens", {}, None, None),
    RecordedResponse(
        200,
        {"content-type": ("application/json",)},
        b'{"input_tokens": 9}',
        {"input_tokens": 9},
        None,
    ),
)
# What a count takes of Claude Code's body (its count has no max_tokens, stream or sampling).
COUNT_FIELDS = ("model", "messages", "system", "tools", "thinking", "context_management")


def test_claude_codes_count_reaches_anthropic_as_it_came() -> None:
    """A count goes to an upstream of its own API alone, as it came: its tools'
    beta fields (`defer_loading`, `cache_control`) with the betas that give them a meaning."""
    body = {name: CLAUDE_CODE_BODY[name] for name in COUNT_FIELDS if name in CLAUDE_CODE_BODY}
    headers = {**CLAUDE_CODE_HEADERS, **CLAUDE_CODE_OWN_HEADERS}
    routes = {"claude-*": {"upstream": f"anthropic:{OPUS_SNAPSHOT}"}}
    with serve(routes) as gateway, upstream_replay(COUNTED) as replay:
        answer = post(gateway, "/v1/messages/count_tokens?beta=true", body, headers)

    assert (answer.status_code, answer.json()) == (200, {"input_tokens": 9})
    (sent,) = replay.sent
    assert json.dumps(sent) == json.dumps({**body, "model": OPUS_SNAPSHOT})
    (upstream,) = replay.requests
    assert upstream.url.path == "/v1/messages/count_tokens"
    assert upstream.headers["anthropic-beta"] == CLAUDE_CODE_HEADERS["anthropic-beta"]
    assert upstream.headers["anthropic-version"] == "2023-06-01"
    assert "x-app" not in upstream.headers


def test_repeated_beta_headers_reach_anthropic_joined() -> None:
    betas = CLAUDE_CODE_HEADERS["anthropic-beta"].split(",")
    headers = [("anthropic-beta", beta) for beta in betas]
    routes = {"claude-*": {"upstream": "anthropic:*"}}
    with serve(routes) as gateway, upstream_replay(CLAUDE_CODE) as replay:
        answer = post(gateway, "/v1/messages", CLAUDE_CODE_BODY, headers)
    assert answer.status_code == 200
    assert replay.requests[0].headers["anthropic-beta"] == ",".join(betas)


def test_a_fallback_to_another_api_is_sent_the_request_translated() -> None:
    overloaded = Interaction(
        RecordedRequest("POST", "https://api.anthropic.com/v1/messages", {}, None, None),
        RecordedResponse(
            529,
            {"content-type": ("application/json",)},
            b'{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
            None,
            None,
        ),
    )
    routes = {
        "claude-opus-4-8": {
            "upstream": "anthropic:claude-opus-4-8",
            "fallbacks": ["openai:gpt-4.1"],
        }
    }
    with serve(routes) as gateway, upstream_replay(overloaded, CHAT_STREAM) as replay:
        answer = post(gateway, "/v1/messages", CLAUDE_CODE_BODY, CLAUDE_CODE_HEADERS)

    assert answer.status_code == 200
    assert answer.headers["x-interlingua-upstream"] == "openai:gpt-4.1"
    to_anthropic, to_openai = replay.sent
    assert to_anthropic == CLAUDE_CODE_BODY
    assert to_openai["model"] == "gpt-4.1"
    assert [message["role"] for message in to_openai["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "user",
    ]
    assert to_openai["stream_options"] == {"include_usage": True}
    assert "anthropic-beta" not in replay.requests[1].headers
    assert "context_management dropped hint" in answer.headers["x-interlingua-losses"]


# --- strict mode: nothing is translated, nothing refused ---


@pytest.mark.parametrize("strict", [True, "setting", "content"])
def test_strict_mode_serves_claude_codes_tool_loop(strict: Any) -> None:
    """Re-encoded, its thinking was turned off: a setting lost, which `true` and
    `"setting"` refused."""
    routes = {"claude-*": {"upstream": "anthropic:*"}}
    with serve(routes, strict=strict) as gateway, upstream_replay(CLAUDE_CODE) as replay:
        answer = post(gateway, "/v1/messages", CLAUDE_CODE_BODY, CLAUDE_CODE_HEADERS)
    assert answer.status_code == 200
    assert replay.sent == [CLAUDE_CODE_BODY]


# Anthropic's 400 for a call left without its result (as users report it).
UNANSWERED = (
    "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: "
    "toolu_01Gp5Wr8Nz2Ks7Hd4Tq9Lc3B. Each `tool_use` block must have a corresponding "
    "`tool_result` block in the next message."
)


def test_strict_content_leaves_a_body_to_its_own_api_to_the_provider() -> None:
    """Re-encoded, the call the conversation went on without answering got an error
    result: content added, which `"content"` refused. Sent as it came, the
    provider judges it, and its answer reaches the client."""
    messages = CLAUDE_CODE_BODY["messages"]
    body = {**CLAUDE_CODE_BODY, "messages": [*messages[:2], {"role": "user", "content": "Go on."}]}
    error = {"type": "error", "error": {"type": "invalid_request_error", "message": UNANSWERED}}
    refused = Interaction(
        RecordedRequest("POST", "https://api.anthropic.com/v1/messages", {}, None, None),
        RecordedResponse(
            400, {"content-type": ("application/json",)}, json.dumps(error).encode(), error, None
        ),
    )
    routes = {"claude-*": {"upstream": "anthropic:*"}}
    with serve(routes, strict="content") as gateway, upstream_replay(refused) as replay:
        answer = post(gateway, "/v1/messages", body, CLAUDE_CODE_HEADERS)
    assert replay.sent == [body]
    assert (answer.status_code, answer.json()["error"]) == (400, error["error"])


# --- OpenAI's APIs ---


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
def test_a_chat_completions_body_reaches_openai_as_it_came(stream: bool) -> None:
    """gpt-4o takes no reasoning: re-encoded, `reasoning_effort` was left out; a
    stream asked for no usage is sent asking for none."""
    routes = {"gpt-4o": {"upstream": "openai:gpt-4o-2024-11-20"}}
    asked: dict[str, Any] = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": QUESTION}],
        "reasoning_effort": "none",
        "max_completion_tokens": 2048,
    }
    with (
        serve(routes) as gateway,
        upstream_replay(CHAT_STREAM if stream else CHAT_ANSWER) as replay,
    ):
        client = opened(
            openai.OpenAI(api_key=KEY, base_url=f"{gateway.base_url}/v1", max_retries=0)
        )
        beta = {"OpenAI-Beta": "assistants=v2"}
        if stream:
            chunks = list(client.chat.completions.create(**asked, stream=True, extra_headers=beta))
            finished = [
                c.finish_reason for chunk in chunks for c in chunk.choices if c.finish_reason
            ]
            assert finished == ["tool_calls"]
        else:
            answer = client.chat.completions.create(**asked, extra_headers=beta)
            assert answer.choices[0].finish_reason == "stop"

    (sent,) = replay.sent
    assert sent == {**asked, "model": "gpt-4o-2024-11-20", **({"stream": True} if stream else {})}
    assert replay.requests[0].headers["openai-beta"] == "assistants=v2"
    assert replay.requests[0].headers["authorization"] == f"Bearer {UPSTREAM_KEY}"


def test_codexs_responses_body_reaches_openai_as_it_came() -> None:
    body = CODEX.request.json
    routes = {"gpt-5.1-codex": {"upstream": "openai-responses:gpt-5.1-codex-max"}}
    beta = {"openai-beta": "responses=experimental", "originator": "codex_cli_rs"}
    with serve(routes) as gateway, upstream_replay(CODEX) as replay:
        answer = post(gateway, "/v1/responses", body, beta)

    (sent,) = replay.sent
    assert json.dumps(sent) == json.dumps({**body, "model": "gpt-5.1-codex-max"})
    (upstream,) = replay.requests
    assert upstream.headers["openai-beta"] == "responses=experimental"
    assert "originator" not in upstream.headers
    completed = [p for p in sse_payloads(answer.text) if p["type"] == "response.completed"]
    recorded_items = [
        p for p in CODEX.response.stream_payloads() if p["type"] == "response.completed"
    ]
    assert [item["type"] for item in completed[0]["response"]["output"]] == [
        item["type"] for item in recorded_items[0]["response"]["output"]
    ]


# --- Gemini, through google-genai ---


def test_a_gemini_body_reaches_google_as_it_came() -> None:
    """Re-encoded, a thinking budget of 0 went to Gemini 3 as its least level."""
    routes = {"gemini-flash": {"upstream": "google:gemini-3-flash-preview"}}
    with serve(routes) as gateway, upstream_replay(GEMINI_ANSWER) as replay:
        options = types.HttpOptions(base_url=gateway.base_url, timeout=round(BOUND * 1000))
        client = opened(genai.Client(api_key=KEY, http_options=options))
        config = types.GenerateContentConfig(
            thinking_config=types.ThinkingConfig(thinking_budget=0)
        )
        client.models.generate_content(model="gemini-flash", contents=QUESTION, config=config)

    (sent,) = replay.sent
    assert sent == {
        "contents": [{"parts": [{"text": QUESTION}], "role": "user"}],
        "generationConfig": {"thinkingConfig": {"thinking_budget": 0}},
    }
    (upstream,) = replay.requests
    assert upstream.url.path == "/v1beta/models/gemini-3-flash-preview:generateContent"
    assert upstream.headers["x-goog-api-key"] == UPSTREAM_KEY


# --- a route's max_output_tokens, in each API's own fields ---

MOST = 8192
CAPPED = [
    pytest.param(
        "/v1/messages",
        {**streamed(CLAUDE_CODE_BODY, False), "max_tokens": 32000},
        ANTHROPIC_ANSWER,
        {"max_tokens": MOST},
        id="anthropic",
    ),
    pytest.param(
        "/v1/messages",
        {
            "model": "claude-opus-4-8",
            "max_tokens": 32000,
            "messages": [{"role": "user", "content": QUESTION}],
            "thinking": {"type": "enabled", "budget_tokens": 16000},
        },
        ANTHROPIC_ANSWER,
        {"max_tokens": MOST, "thinking": {"type": "enabled", "budget_tokens": MOST - 1}},
        id="anthropic-budget",
    ),
    pytest.param(
        "/v1/chat/completions",
        {
            "model": "gpt-4o",
            "messages": [{"role": "user", "content": QUESTION}],
            "max_tokens": 16384,
        },
        CHAT_ANSWER,
        {"max_tokens": MOST},
        id="chat-completions",
    ),
    pytest.param(
        "/v1/responses",
        {"model": "gpt-5-mini", "input": QUESTION, "max_output_tokens": 32000},
        RESPONSES_ANSWER,
        {"max_output_tokens": MOST},
        id="responses",
    ),
    pytest.param(
        "/openrouter/chat/completions",
        {
            "model": "anthropic/claude-sonnet-4.5",
            "messages": [{"role": "user", "content": QUESTION}],
            "max_tokens": 32000,
            "reasoning": {"max_tokens": 12000},
        },
        OPENROUTER_ANSWER,
        {"max_tokens": MOST, "reasoning": {"max_tokens": MOST - 1}},
        id="openrouter",
    ),
]


@pytest.mark.parametrize(("path", "body", "answer_from", "capped"), CAPPED)
def test_a_body_to_its_own_api_is_capped_in_that_api_s_fields(
    path: str, body: dict[str, Any], answer_from: Interaction, capped: dict[str, Any]
) -> None:
    model = answer_from.request.json.get("model") or body["model"]
    provider = {"/v1/messages": "anthropic", "/v1/chat/completions": "openai"}.get(path)
    provider = provider or ("openai-responses" if path == "/v1/responses" else "openrouter")
    routes = {body["model"]: {"upstream": f"{provider}:{model}", "max_output_tokens": MOST}}
    with serve(routes) as gateway, upstream_replay(answer_from) as replay:
        answer = post(gateway, path, body)
    assert answer.status_code == 200
    (sent,) = replay.sent
    assert json.dumps(sent) == json.dumps({**body, "model": model, **capped})
    budget = ", reasoning.budget_tokens transformed setting" if len(capped) > 1 else ""
    assert answer.headers["x-interlingua-losses"] == (
        f"{len(capped)}; max_tokens transformed setting{budget}"
    )


def test_a_streamed_gemini_body_is_capped_in_its_generation_config() -> None:
    routes = {"gemini-flash": {"upstream": "google:gemini-2.5-flash", "max_output_tokens": MOST}}
    with serve(routes) as gateway, upstream_replay(GEMINI_STREAM) as replay:
        options = types.HttpOptions(base_url=gateway.base_url, timeout=round(BOUND * 1000))
        client = opened(genai.Client(api_key=KEY, http_options=options))
        config = types.GenerateContentConfig(
            max_output_tokens=65536, thinking_config=types.ThinkingConfig(thinking_budget=24576)
        )
        chunks = list(
            client.models.generate_content_stream(
                model="gemini-flash", contents=QUESTION, config=config
            )
        )
    assert chunks
    (sent,) = replay.sent
    assert sent["generationConfig"] == {
        "maxOutputTokens": MOST,
        "thinkingConfig": {"thinking_budget": MOST - 1},
    }
    (upstream,) = replay.requests
    assert upstream.url.path == "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
