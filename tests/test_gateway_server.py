"""The gateway as a client sees it: each API's real SDK client pointed at the
server (`tests/gateway_server.py`, real uvicorn on 127.0.0.1), each upstream
answered in the server's process by a replay of the project's recordings.

For every client API and every upstream API, streamed and not: the body the
gateway sent upstream is asserted (the client's body as `translate_request`
gives it, on the routed model, the question in the upstream's own place, the
stream fields the upstream's API wants; to the client's own API, the client's
body as it came, on the routed model), and the
answer the client's SDK parsed holds the recording's text and tool calls.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import anthropic
import groq
import openai
import pytest
from google import genai
from google.genai import types
from mistralai.client import Mistral
from openai.types.responses import Response

from conftest import fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua import accumulate, get_adapter, translate_request
from interlingua.gateway import create_app, load
from interlingua.testing import Interaction, Replay

KEY = fake_key("gk-")


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


QUESTION = "Is it raining in Lisbon right now?"

# Upstream API -> its model and the recording answering it, whole and streamed.
UPSTREAMS: dict[str, tuple[str, tuple[str, int], tuple[str, int]]] = {
    "anthropic": (
        "claude-sonnet-4-5",
        ("anthropic/tool_round_trip_with_thinking.json", 1),
        ("anthropic/stream_thinking_tool_use.json", 0),
    ),
    "openai": (
        "gpt-4.1-mini",
        ("openai/chat_tool_round_trip.json", 1),
        ("openai/chat_stream_parallel_tool_calls.json", 0),
    ),
    "openai-responses": (
        "gpt-5-mini",
        ("openai/responses_reasoning_tool_call.json", 1),
        ("openai/responses_stream_reasoning.json", 0),
    ),
    "mistral": (
        "magistral-medium-latest",
        ("mistral/tool_round_trip_with_thinking.json", 1),
        ("mistral/stream_parallel_tool_calls.json", 0),
    ),
    "groq": (
        "qwen/qwen3-32b",
        ("groq/raw_think_answer.json", 0),
        ("groq/stream_reasoning_usage.json", 0),
    ),
    "google": (
        "gemini-3-flash-preview",
        ("google/tool_round_trip_with_thinking.json", 0),
        ("google/stream_parallel_tool_calls.json", 0),
    ),
    "deepseek": (
        "deepseek-v4-flash",
        ("deepseek/thinking_answer.json", 0),
        ("deepseek/stream_thinking_answer.json", 0),
    ),
    "cerebras": (
        "gpt-oss-120b",
        ("cerebras/reasoning_answer.json", 0),
        ("cerebras/stream_reasoning_answer.json", 0),
    ),
    "ollama": (
        "gpt-oss:20b",
        ("ollama/reasoning_answer.json", 0),
        ("ollama/stream_reasoning_answer.json", 0),
    ),
    "openai-compatible": (
        "meta-llama/Llama-3.1-8B-Instruct",
        ("openai-compatible/answer.json", 0),
        ("openai-compatible/stream_answer.json", 0),
    ),
    "openrouter": (
        "anthropic/claude-sonnet-4.5",
        ("openrouter/reasoning_details_tool_round_trip.json", 1),
        ("openrouter/stream_signed_reasoning.json", 0),
    ),
    "xai": (
        "grok-3-mini",
        ("xai/reasoning_content_two_turns.json", 0),
        ("xai/stream_reasoning_content.json", 0),
    ),
    "perplexity": (
        "sonar-reasoning-pro",
        ("perplexity/citations_answer.json", 0),
        ("perplexity/stream_think_citations.json", 0),
    ),
}
# The model of an upstream's streamed recording, where it is not the other's
# (Gemini's is in the URL, which the replay matches).
STREAMED_MODELS = {"google": "gemini-2.5-flash"}
# The servers OpenAI's SDK speaks to at their own base URL: the gateway's `/<name>`.
COMPATIBLE = [
    "deepseek",
    "cerebras",
    "ollama",
    "openai-compatible",
    "openrouter",
    "xai",
    "perplexity",
]
CLIENTS = ["anthropic", "openai", "openai-responses", "mistral", "groq", "google", *COMPATIBLE]
# A plain OpenAI-compatible server has no address of its own: the route's is configured.
UPSTREAM_OPTIONS = {"openai-compatible": {"base_url": "https://router.huggingface.co/v1"}}

Answer = tuple[str, list[tuple[str, Any]]]  # the text, and each tool call's name and arguments


def route_name(upstream: str, stream: bool) -> str:
    return f"to-{upstream}-streamed" if stream else f"to-{upstream}"


def upstream_model(upstream: str, stream: bool) -> str:
    whole = UPSTREAMS[upstream][0]
    return STREAMED_MODELS.get(upstream, whole) if stream else whole


@pytest.fixture(scope="module")
def gateway() -> Iterator[GatewayServer]:
    # Gemini's recordings are of `v1beta`: the gateway's Google upstream pins it, and
    # the SDK's own variable asks the test's Google clients for it too.
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("GOOGLE_GENAI_API_VERSION", "v1beta")
        yield from _serve()


def _serve() -> Iterator[GatewayServer]:
    models = {
        route_name(name, stream): {"upstream": f"{name}:{upstream_model(name, stream)}"}
        for name in UPSTREAMS
        for stream in (False, True)
    }
    config = load(None, keys=[KEY], models=models, upstreams=UPSTREAM_OPTIONS)
    with GatewayServer(create_app(config, default_key=fake_key("sk-"))) as server:
        yield server


def upstream_replay(*interactions: Interaction) -> Replay:
    """The upstreams answered in order, the clients' requests to the gateway let through."""
    return Replay(interactions, match_on=("method", "host", "path"), pass_hosts=[LOOPBACK])


def recording(upstream: str, stream: bool) -> Interaction:
    name, index = UPSTREAMS[upstream][2 if stream else 1]
    return recorded(name)[index]


def expected_answer(upstream: str, interaction: Interaction) -> Answer:
    """What the recording answered: its text and tool calls, read by the upstream's decoder."""
    adapter = get_adapter(upstream)
    response = interaction.response
    if response.events is not None:
        answer = accumulate(adapter.decode_stream(response.stream_payloads()))
    else:
        answer = adapter.decode_response(response.json)
    calls = [(call.name, json.loads(call.arguments)) for call in answer.message.tool_calls]
    return answer.message.text, calls


# --- each client API through its own SDK ---


def ask_anthropic(base_url: str, model: str, stream: bool) -> Answer:
    client = opened(anthropic.Anthropic(api_key=KEY, base_url=base_url, max_retries=0, timeout=10))
    request: dict[str, Any] = {
        "model": model,
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": QUESTION}],
    }
    if stream:
        with client.messages.stream(**request) as events:
            message = events.get_final_message()
    else:
        message = client.messages.create(**request)
    text = "".join(block.text for block in message.content if block.type == "text")
    calls = [(block.name, block.input) for block in message.content if block.type == "tool_use"]
    return text, calls


def _chat_chunks(chunks: Any) -> Answer:
    text, calls = "", {}
    for chunk in chunks:
        for choice in chunk.choices:
            text += choice.delta.content or ""
            for call in choice.delta.tool_calls or ():
                name, arguments = calls.get(call.index, ("", ""))
                function = call.function
                calls[call.index] = (
                    name + (function.name or ""),
                    arguments + (function.arguments or ""),
                )
    return text, [(name, json.loads(arguments)) for name, arguments in calls.values()]


def _chat_message(message: Any) -> Answer:
    calls = [
        (call.function.name, json.loads(call.function.arguments))
        for call in message.tool_calls or ()
    ]
    return message.content or "", calls


def ask_openai(base_url: str, model: str, stream: bool) -> Answer:
    client = opened(
        openai.OpenAI(api_key=KEY, base_url=f"{base_url}/v1", max_retries=0, timeout=10)
    )
    messages = [{"role": "user", "content": QUESTION}]
    if stream:
        return _chat_chunks(
            client.chat.completions.create(model=model, messages=messages, stream=True)
        )
    answer = client.chat.completions.create(model=model, messages=messages)
    return _chat_message(answer.choices[0].message)


def ask_compatible(name: str) -> Callable[[str, str, bool], Answer]:
    """A client of the OpenAI-compatible server `name`: the openai SDK at `/<name>`."""

    def ask(base_url: str, model: str, stream: bool) -> Answer:
        sdk = openai.OpenAI(api_key=KEY, base_url=f"{base_url}/{name}", max_retries=0, timeout=10)
        client = opened(sdk)
        messages = [{"role": "user", "content": QUESTION}]
        if stream:
            return _chat_chunks(
                client.chat.completions.create(model=model, messages=messages, stream=True)
            )
        answer = client.chat.completions.create(model=model, messages=messages)
        return _chat_message(answer.choices[0].message)

    return ask


def ask_groq(base_url: str, model: str, stream: bool) -> Answer:
    client = opened(groq.Groq(api_key=KEY, base_url=f"{base_url}/groq", max_retries=0, timeout=10))
    messages = [{"role": "user", "content": QUESTION}]
    if stream:
        return _chat_chunks(
            client.chat.completions.create(model=model, messages=messages, stream=True)
        )
    answer = client.chat.completions.create(model=model, messages=messages)
    return _chat_message(answer.choices[0].message)


def ask_mistral(base_url: str, model: str, stream: bool) -> Answer:
    client = opened(Mistral(api_key=KEY, server_url=f"{base_url}/mistral", timeout_ms=10_000))
    messages = [{"role": "user", "content": QUESTION}]
    if not stream:
        answer = client.chat.complete(model=model, messages=messages)
        message = answer.choices[0].message
        content = message.content
        text = (
            content
            if isinstance(content, str)
            else "".join(chunk.text for chunk in content or () if chunk.type == "text")
        )
        calls = [
            (call.function.name, _arguments(call.function.arguments))
            for call in message.tool_calls or ()
        ]
        return text, calls
    text, calls = "", []
    for event in client.chat.stream(model=model, messages=messages):
        for choice in event.data.choices:
            content = choice.delta.content
            text += content if isinstance(content, str) else ""
            # Mistral streams each call whole, on the finish chunk.
            calls += [
                (call.function.name, _arguments(call.function.arguments))
                for call in choice.delta.tool_calls or ()
            ]
    return text, calls


def _arguments(arguments: Any) -> Any:
    return json.loads(arguments) if isinstance(arguments, str) else arguments


def ask_responses(base_url: str, model: str, stream: bool) -> Answer:
    client = opened(
        openai.OpenAI(api_key=KEY, base_url=f"{base_url}/v1", max_retries=0, timeout=10)
    )
    # An answer made elsewhere is read strictly by the SDK's own types, as it came; the
    # Responses API's own goes back exactly as it came (the fixture's, which is older
    # than the SDK's `cache_write_tokens`).
    elsewhere = model not in {
        route_name("openai-responses", streamed) for streamed in (False, True)
    }
    if stream:
        events = list(client.responses.create(model=model, input=QUESTION, stream=True))
        for event in events if elsewhere else ():
            type(event).model_validate_json(json.dumps(event.to_dict()), strict=True)
        completed = [event for event in events if event.type == "response.completed"]
        assert len(completed) == 1, [event.type for event in events]
        response = completed[0].response
    else:
        raw = client.responses.with_raw_response.create(model=model, input=QUESTION)
        if elsewhere:
            Response.model_validate_json(raw.http_response.text, strict=True)
        response = raw.parse()
    calls = [
        (item.name, json.loads(item.arguments))
        for item in response.output
        if item.type == "function_call"
    ]
    return response.output_text, calls


def google_sdk(base_url: str, key: str = KEY) -> genai.Client:
    options = types.HttpOptions(base_url=base_url, timeout=10_000)
    return opened(genai.Client(api_key=key, http_options=options))


def _gemini_answer(chunks: list[types.GenerateContentResponse]) -> Answer:
    """The text (thoughts left out) and the calls of a Gemini answer's chunks."""
    parts = [
        part
        for chunk in chunks
        for candidate in chunk.candidates or ()
        if candidate.content is not None
        for part in candidate.content.parts or ()
    ]
    text = "".join(part.text for part in parts if part.text and not part.thought)
    calls = [
        (part.function_call.name, part.function_call.args) for part in parts if part.function_call
    ]
    return text, calls


def ask_google(base_url: str, model: str, stream: bool) -> Answer:
    client = google_sdk(f"{base_url}/google")
    if stream:
        return _gemini_answer(
            list(client.models.generate_content_stream(model=model, contents=QUESTION))
        )
    return _gemini_answer([client.models.generate_content(model=model, contents=QUESTION)])


ASK: dict[str, Callable[[str, str, bool], Answer]] = {
    "anthropic": ask_anthropic,
    "openai": ask_openai,
    "openai-responses": ask_responses,
    "mistral": ask_mistral,
    "groq": ask_groq,
    "google": ask_google,
    **{name: ask_compatible(name) for name in COMPATIBLE},
}


def sent_question(body: dict[str, Any]) -> Any:
    """The user's question where the upstream's API puts it."""
    if "input" in body:  # the Responses API
        last = body["input"] if isinstance(body["input"], str) else body["input"][-1]["content"]
    elif "contents" in body:  # Gemini's
        (part,) = body["contents"][-1]["parts"]
        return part["text"]
    else:
        last = body["messages"][-1]["content"]
    if isinstance(last, list):
        (block,) = last
        return block["text"]
    return last


# The body each client's SDK sends for the question (stream flags aside).
CLIENT_BODIES: dict[str, dict[str, Any]] = {
    "anthropic": {"max_tokens": 1024, "messages": [{"role": "user", "content": QUESTION}]},
    "openai": {"messages": [{"role": "user", "content": QUESTION}]},
    "openai-responses": {"input": QUESTION},
    "mistral": {"messages": [{"role": "user", "content": QUESTION}]},
    "groq": {"messages": [{"role": "user", "content": QUESTION}]},
    "google": {"contents": [{"role": "user", "parts": [{"text": QUESTION}]}]},
    **{name: {"messages": [{"role": "user", "content": QUESTION}]} for name in COMPATIBLE},
}
IN_URL = {"google"}  # the APIs whose model is in the URL, not the body


def translated(client: str, upstream: str, stream: bool) -> dict[str, Any]:
    """What the gateway must send: the client's body translated, on the route's
    model; to the client's own API, the client's body as it came, on that model."""
    model = {} if client in IN_URL else {"model": route_name(upstream, stream)}
    asked = {**model, **CLIENT_BODIES[client]}
    sent = (
        asked
        if client == upstream
        else translate_request(asked, source=client, target=upstream).body
    )
    if upstream in IN_URL:
        return sent
    return {**sent, "model": upstream_model(upstream, stream)}


def sent_path(upstream: str, stream: bool) -> str | None:
    """Where the upstream is asked, for an API whose model is in the URL."""
    if upstream not in IN_URL:
        return None
    method = "streamGenerateContent" if stream else "generateContent"
    return f"/v1beta/models/{upstream_model(upstream, stream)}:{method}"


def without_stream_fields(body: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in body.items() if name not in ("stream", "stream_options")}


STREAM_FIELDS = {
    "anthropic": {"stream": True},
    "openai": {"stream": True, "stream_options": {"include_usage": True}},
    "openai-responses": {"stream": True},
    "mistral": {"stream": True},
    "groq": {"stream": True},
    "google": {},  # the method and `alt=sse` in the URL
    **{name: {"stream": True, "stream_options": {"include_usage": True}} for name in COMPATIBLE},
}
# The stream fields a client's SDK sends, which go as they came to its own API.
CLIENT_STREAM_FIELDS = {name: {"stream": True} if name not in IN_URL else {} for name in CLIENTS}


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("upstream", list(UPSTREAMS))
@pytest.mark.parametrize("client", CLIENTS)
def test_each_client_api_is_answered_by_each_upstream_api(
    gateway: GatewayServer, client: str, upstream: str, stream: bool
) -> None:
    interaction = recording(upstream, stream)
    with upstream_replay(interaction) as replay:
        answer = ASK[client](gateway.base_url, route_name(upstream, stream), stream)

    (sent,) = replay.sent
    (asked,) = replay.requests
    assert asked.url.host == interaction.host
    if upstream in IN_URL:
        assert asked.url.path == sent_path(upstream, stream)
        assert asked.url.query == (b"alt=sse" if stream else b"")
    else:
        assert sent["model"] == upstream_model(upstream, stream)
    assert sent_question(sent) == QUESTION
    expected_body = translated(client, upstream, stream)
    assert without_stream_fields(sent) == without_stream_fields(expected_body)
    if stream and client == upstream:
        assert {name: sent[name] for name in ("stream", "stream_options") if name in sent} == (
            CLIENT_STREAM_FIELDS[client]
        )
    elif stream:
        assert {name: sent.get(name) for name in STREAM_FIELDS[upstream]} == STREAM_FIELDS[upstream]
    else:
        assert not sent.get("stream")
        assert "stream_options" not in sent
    expected = expected_answer(upstream, interaction)
    if client == upstream == "groq" and not stream:
        # A Groq client is answered in Groq's own form: the `<think>` block in the content.
        expected = (interaction.response.json["choices"][0]["message"]["content"], expected[1])
    if client == upstream == "perplexity" and stream:
        # And a Perplexity client in Perplexity's: its `<think>` block streamed in the content.
        pieces = interaction.response.stream_payloads()
        expected = ("".join(p["choices"][0]["delta"]["content"] for p in pieces), expected[1])
    assert answer == expected
