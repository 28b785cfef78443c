"""Gemini's API at the gateway, as the google-genai SDK uses it: the model and
the method in the URL (`models/<model>:generateContent`,
`:streamGenerateContent?alt=sse`, `:countTokens`), the key as
`x-goog-api-key`, errors in Google's own format; each SDK pointed at the
server on 127.0.0.1 (real uvicorn), the upstreams answered by replays of the
project's recordings. The whole matrix of client and upstream APIs, Gemini's
among them, is `tests/test_gateway_server.py`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import anthropic
import httpx
import pytest
from google import genai
from google.genai import errors, types

from conftest import fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, RecordedRequest, RecordedResponse, Replay

KEY = fake_key("gk-")
UPSTREAM_KEY = fake_key("sk-")
BOUND = 30.0  # seconds any one wait may take (a loaded machine is slow)
QUESTION = "Is it raining in Lisbon right now?"
CHAT_ANSWER = recorded("openai/chat_tool_round_trip.json")[1]
GEMINI_RATE_LIMITED = recorded("google/error_rate_limited.json")[0]
MISTRAL_RATE_LIMITED = recorded("mistral/error_rate_limited.json")[0]


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


def serve(**config: Any) -> GatewayServer:
    settings = load(None, keys=[KEY], **config)
    return GatewayServer(create_app(settings, default_key=UPSTREAM_KEY))


def upstream_replay(*interactions: Interaction) -> Replay:
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def google_sdk(base_url: str, *, key: str = KEY, version: str | None = None) -> genai.Client:
    """The SDK as a user builds it, with the gateway's URL (and its default version)."""
    options = types.HttpOptions(base_url=base_url, api_version=version, timeout=round(BOUND * 1000))
    return opened(genai.Client(api_key=key, http_options=options))


def call_parts(response: types.GenerateContentResponse) -> list[tuple[Any, Any]]:
    candidate = (response.candidates or [])[0]
    assert candidate.content is not None
    parts = candidate.content.parts or []
    return [(p.function_call.name, p.function_call.args) for p in parts if p.function_call]


# --- where the SDK posts, and what goes upstream ---


def test_the_sdk_s_default_path_is_served_with_the_model_from_the_url(
    gateway_log: pytest.LogCaptureFixture,
) -> None:
    with serve() as gateway, upstream_replay(CHAT_ANSWER) as replay:
        client = google_sdk(gateway.base_url)  # no /google: the SDK's own paths
        response = client.models.generate_content(
            model="openai:gpt-4.1-mini",
            contents=QUESTION,
            config=types.GenerateContentConfig(temperature=0.25, max_output_tokens=300),
        )
    (sent,) = replay.sent
    assert replay.requests[0].url.path == "/v1/chat/completions"
    assert replay.requests[0].headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert sent == {
        "model": "gpt-4.1-mini",
        "messages": [{"role": "user", "content": QUESTION}],
        "temperature": 0.25,
        "max_completion_tokens": 300,
    }
    wire = CHAT_ANSWER.response.json
    assert response.text == wire["choices"][0]["message"]["content"]
    usage = response.usage_metadata
    assert usage is not None
    assert (usage.prompt_token_count, usage.candidates_token_count) == (
        wire["usage"]["prompt_tokens"],
        wire["usage"]["completion_tokens"],
    )
    (line,) = gateway_log.messages
    # The version is the SDK's default: google-genai 2.x posts to v1beta, 3.x to v1.
    assert line.startswith(
        tuple(
            f"POST /{version}/models/openai:gpt-4.1-mini:generateContent  "
            "openai:gpt-4.1-mini -> openai:gpt-4.1-mini  200"
            for version in ("v1", "v1beta")
        )
    )
    assert KEY not in line
    assert UPSTREAM_KEY not in line


def test_a_routed_model_name_streams_from_the_gemini_upstream_in_the_url() -> None:
    streamed = recorded("google/stream_parallel_tool_calls.json")[0]
    routes = {"house": {"upstream": "google:gemini-2.5-flash"}}
    with serve(models=routes) as gateway, upstream_replay(streamed) as replay:
        client = google_sdk(f"{gateway.base_url}/google", version="v1beta")
        chunks = list(client.models.generate_content_stream(model="house", contents=QUESTION))
    (asked,) = replay.requests
    # The gateway's upstream SDK asks at its default version, under the routed model.
    assert asked.url.path == "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
    assert asked.url.query == b"alt=sse"
    assert replay.sent == [{"contents": [{"role": "user", "parts": [{"text": QUESTION}]}]}]
    wire = list(streamed.response.stream_payloads())
    wire_calls = [
        (part["functionCall"]["name"], part["functionCall"]["args"])
        for payload in wire
        for part in payload["candidates"][0]["content"]["parts"]
        if "functionCall" in part
    ]
    assert [call for chunk in chunks for call in call_parts(chunk)] == wire_calls
    assert chunks[-1].candidates[0].finish_reason == types.FinishReason.STOP  # type: ignore[index]


# --- errors in Google's format ---


def test_a_wrong_gateway_key_is_google_s_401(gateway_log: pytest.LogCaptureFixture) -> None:
    bad = fake_key("gk-", "WrongWrongWrongWrong")
    with serve() as gateway, pytest.raises(errors.ClientError) as raised:
        google_sdk(gateway.base_url, key=bad).models.generate_content(
            model="openai:gpt-4.1-mini", contents=QUESTION
        )
    assert (raised.value.code, raised.value.status) == (401, "UNAUTHENTICATED")
    assert "invalid gateway key" in (raised.value.message or "")
    (line,) = gateway_log.messages
    assert " 401 " in line
    assert "WrongWrong" not in line


def test_an_upstream_s_429_reaches_the_gemini_client_in_google_s_format() -> None:
    with (
        serve() as gateway,
        upstream_replay(MISTRAL_RATE_LIMITED),
        pytest.raises(errors.ClientError) as raised,
    ):
        google_sdk(gateway.base_url).models.generate_content(
            model="mistral:mistral-large-latest", contents=QUESTION
        )
    wire = MISTRAL_RATE_LIMITED.response.json
    assert (raised.value.code, raised.value.status) == (429, "RESOURCE_EXHAUSTED")
    assert raised.value.message == wire["message"]


def test_a_gemini_upstream_s_429_falls_back_and_is_google_s_own_when_last() -> None:
    routes = {
        "house": {"upstream": "google:gemini-2.5-flash", "fallbacks": ["openai:gpt-4.1-mini"]},
        "alone": {"upstream": "google:gemini-2.5-flash"},
    }
    limited = GEMINI_RATE_LIMITED
    with serve(models=routes) as gateway:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        user = [{"role": "user", "content": QUESTION}]
        with upstream_replay(limited, CHAT_ANSWER) as replay:
            message = client.messages.create(model="house", max_tokens=64, messages=user)
        with upstream_replay(limited), pytest.raises(errors.ClientError) as raised:
            google_sdk(gateway.base_url).models.generate_content(model="alone", contents=QUESTION)
    assert [request.url.host for request in replay.requests] == [
        "generativelanguage.googleapis.com",
        "api.openai.com",
    ]
    assert message.content[0].text == CHAT_ANSWER.response.json["choices"][0]["message"]["content"]
    # Google's body goes back to a Google client as Google sent it.
    assert raised.value.details == GEMINI_RATE_LIMITED.response.json


def gemini_post(base_url: str, target: str, body: Any, *, key: str = KEY) -> httpx.Response:
    return httpx.post(
        f"{base_url}/v1beta/models/{target}",
        json=body,
        headers={"x-goog-api-key": key},
        timeout=BOUND,
    )


CONTENTS = {"contents": [{"role": "user", "parts": [{"text": QUESTION}]}]}


@pytest.mark.parametrize(
    ("target", "body", "status", "kind", "message"),
    [
        ("gpt-nowhere:generateContent", CONTENTS, 404, "NOT_FOUND", "model 'gpt-nowhere' has no"),
        (
            "openai:gpt-4.1-mini:embedContent",
            CONTENTS,
            404,
            "NOT_FOUND",
            "no method 'embedContent'",
        ),
        ("openai:gpt-4.1-mini", CONTENTS, 404, "NOT_FOUND", "no method 'gpt-4.1-mini'"),
        (
            "openai:gpt-4.1-mini:streamGenerateContent",
            CONTENTS,
            400,
            "INVALID_ARGUMENT",
            "ask with ?alt=sse",
        ),
        (
            "openai:gpt-4.1-mini:generateContent",
            {"contents": [{"role": "narrator", "parts": []}]},
            400,
            "INVALID_ARGUMENT",
            "contents[0].role",
        ),
    ],
)
def test_requests_the_gateway_refuses_get_google_s_error(
    target: str, body: Any, status: int, kind: str, message: str
) -> None:
    with serve() as gateway, upstream_replay() as replay:
        answer = gemini_post(gateway.base_url, target, body)
    error = answer.json()["error"]
    assert (answer.status_code, error["code"], error["status"]) == (status, status, kind)
    assert message in error["message"]
    assert replay.requests == []


def test_a_body_too_large_is_google_s_413() -> None:
    with serve(max_body_bytes=2000) as gateway:
        big = {"contents": [{"role": "user", "parts": [{"text": "y" * 3000}]}]}
        answer = gemini_post(gateway.base_url, "openai:gpt-4.1-mini:generateContent", big)
    error = answer.json()["error"]
    assert (answer.status_code, error["code"]) == (413, 413)
    assert "larger than the gateway takes (2000 bytes)" in error["message"]


def test_a_stream_cut_off_upstream_ends_with_google_s_error_chunk() -> None:
    streamed = recorded("anthropic/stream_thinking_tool_use.json")[0]
    body = streamed.response.body
    cut = replace(
        streamed,
        response=replace(streamed.response, body=body[: body.index(b"event: message_delta")]),
    )
    with serve() as gateway, upstream_replay(cut):
        stream = google_sdk(gateway.base_url).models.generate_content_stream(
            model="anthropic:claude-haiku-4-5", contents=QUESTION
        )
        chunks = [next(stream)]
        with pytest.raises(errors.APIError) as raised:
            chunks += list(stream)
    assert chunks  # what had come went on first
    message = raised.value.message or ""
    assert message.startswith("the upstream anthropic:claude-haiku-4-5's stream was cut off after ")


# --- token counts and the model list ---


def _count_answer(url: str, total: int) -> Interaction:
    return Interaction(
        RecordedRequest("POST", url, {}, None, None),
        RecordedResponse(
            200,
            {"content-type": ("application/json",)},
            json.dumps({"totalTokens": total}).encode(),
            {"totalTokens": total},
            None,
        ),
    )


def test_tokens_are_counted_by_a_gemini_upstream() -> None:
    routes = {
        "house": {"upstream": "google:gemini-2.5-flash"},
        "other": {"upstream": "openai:gpt-4.1"},
    }
    counted_url = (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens"
    )
    with serve(models=routes) as gateway:
        client = google_sdk(f"{gateway.base_url}/google")
        with upstream_replay(_count_answer(counted_url, 9)) as replay:
            counted = client.models.count_tokens(model="house", contents=QUESTION)
        with pytest.raises(errors.ClientError) as raised:
            client.models.count_tokens(model="other", contents=QUESTION)
    assert counted.total_tokens == 9
    assert replay.sent == [CONTENTS]
    assert (raised.value.code, raised.value.status) == (404, "NOT_FOUND")
    assert (raised.value.message or "").startswith(
        "tokens cannot be counted for 'other' here: its upstream openai:gpt-4.1 "
    )


def test_a_count_with_more_than_contents_goes_as_a_generate_content_request() -> None:
    routes = {"house": {"upstream": "google:gemini-2.5-flash"}}
    counted_url = (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens"
    )
    inner = {**CONTENTS, "systemInstruction": {"parts": [{"text": "Be brief."}]}}
    with serve(models=routes) as gateway, upstream_replay(_count_answer(counted_url, 12)) as replay:
        answer = gemini_post(
            gateway.base_url,
            "house:countTokens",
            {"generateContentRequest": {"model": "models/house", **inner}},
        )
    assert (answer.status_code, answer.json()) == (200, {"totalTokens": 12})
    assert replay.sent == [
        {"generateContentRequest": {"model": "models/gemini-2.5-flash", **inner}}
    ]


def test_the_models_are_listed_in_google_s_shape() -> None:
    routes = {"b-model": {"upstream": "openai:gpt-4.1"}, "a-model": {"upstream": "groq:qwen"}}
    with serve(models=routes) as gateway:
        for base_url in (gateway.base_url, f"{gateway.base_url}/google"):
            listed = list(google_sdk(base_url).models.list())
            assert [model.name for model in listed] == ["models/a-model", "models/b-model"]
            assert listed[0].supported_actions == [
                "generateContent",
                "streamGenerateContent",
                "countTokens",
            ]
