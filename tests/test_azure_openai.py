"""Azure OpenAI through the OpenAI adapters: the user's `openai.AzureOpenAI` (or
`AsyncAzureOpenAI`) handed to `OpenAIClient` and `OpenAIResponsesClient`.

- Chat Completions: the deployment is in the URL
  (`/openai/deployments/<deployment>/chat/completions?api-version=...`), the
  SDK puts the body's `model` there (or `azure_deployment` does), and the key
  goes as `api-key`; the body sent is the codec's, exactly.
- The Responses API in its v1 form (`/openai/v1/responses`), the deployment
  named by the body's `model`.
- Azure's answers carry its content filtering: `prompt_filter_results` (of the
  prompt; in a stream, in a first chunk that names no answer) and each
  choice's `content_filter_results`. Both round-trip, and another API, which
  has no place for them, gets them reported as hints.
- Its 429 gives the wait and the rate limits in its headers, read into the
  typed error, by the client and by the testing kit from a recording alike
  (`replay(across_providers=True)` answers an Anthropic client with them).
- The testing kit: `replay` answers an Azure client from a recording,
  `replay(across_providers=True)` places an Azure URL with OpenAI's API
  whatever the resource is named, and `record` writes no `api-key`.

The recordings are `fixtures/azure/`; the values are checked against the wire.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2
import openai
import pytest

from conftest import FIXTURES, fake_key, recorded
from interlingua import (
    ChatRequest,
    Message,
    RateLimitError,
    TranslationReport,
    accumulate,
    get_adapter,
)
from interlingua.testing import Interaction, load_cassette, record, replay
from interlingua.testing._neutral import neutral_interaction
from interlingua.testing._records import api_of_url
from interlingua_anthropic import AnthropicClient
from interlingua_openai import AsyncOpenAIClient, OpenAIClient
from interlingua_openai.responses import AsyncOpenAIResponsesClient, OpenAIResponsesClient
from provider_server import ProviderServer

KEY = fake_key("azk", "0f1e2d3c4b5a69788796a5b4c3d2e1f0")
ENDPOINT = "https://contoso-eastus2.openai.azure.com"
SYSTEM = "You answer in one short sentence."
QUESTION = "What is the capital of Portugal?"
CHAT = ChatRequest(
    model="gpt-4o-prod",
    max_tokens=100,
    messages=(Message.system(SYSTEM), Message.user(QUESTION)),
)
TRIP = ChatRequest(
    model="gpt-4.1-nano",
    max_tokens=200,
    messages=(Message.user("Plan a three-day trip to Porto in March, in one sentence."),),
)


class Served:
    """Answers every request with a recorded response; keeps the requests."""

    def __init__(self, interaction: Interaction) -> None:
        self.response = interaction.response
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        headers = self.response.replay_headers()
        if self.response.events is not None:
            text = "".join(f"data: {event.data}\n\n" for event in self.response.events)
            return httpx2.Response(self.response.status, headers=headers, content=text.encode())
        return httpx2.Response(self.response.status, headers=headers, content=self.response.body)

    def sent(self) -> tuple[str, dict[str, str], Any]:
        (request,) = self.requests
        return str(request.url), dict(request.headers), json.loads(request.read())


def one(name: str) -> Interaction:
    (interaction,) = recorded(f"azure/{name}")
    return interaction


# The two ways the SDK is told the deployment: by the body's `model`, or by `azure_deployment`.
CHAT_SDKS: dict[str, Callable[[Served], openai.AzureOpenAI]] = {
    "model": lambda served: openai.AzureOpenAI(
        azure_endpoint=ENDPOINT,
        api_key=KEY,
        api_version="2024-10-21",
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(served)),
    ),
    "azure_deployment": lambda served: openai.AzureOpenAI(
        azure_endpoint=ENDPOINT,
        azure_deployment="gpt-4o-prod",
        api_key=KEY,
        api_version="2024-10-21",
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(served)),
    ),
}


def assert_sent_as_recorded(served: Served, interaction: Interaction) -> None:
    assert interaction.request is not None
    url, headers, body = served.sent()
    assert url == interaction.request.url
    assert headers["api-key"] == KEY
    assert "authorization" not in headers
    assert body == interaction.request.json


@pytest.mark.parametrize("how", sorted(CHAT_SDKS))
def test_a_chat_completion_goes_to_the_deployment_with_the_codec_s_body(how: str) -> None:
    interaction = one("chat_completion.json")
    served = Served(interaction)
    wire = interaction.response.json
    (choice,) = wire["choices"]

    answer = OpenAIClient(CHAT_SDKS[how](served)).complete(CHAT)

    assert_sent_as_recorded(served, interaction)
    assert (answer.id, answer.model) == (wire["id"], wire["model"])
    assert answer.message.text == choice["message"]["content"]
    assert answer.raw_finish_reason == choice["finish_reason"] == "stop"
    usage = wire["usage"]
    assert (answer.usage.input_tokens, answer.usage.output_tokens, answer.usage.total_tokens) == (
        usage["prompt_tokens"],
        usage["completion_tokens"],
        usage["total_tokens"],
    )
    kept = answer.provider_data["openai"]
    assert kept["fields"]["prompt_filter_results"] == wire["prompt_filter_results"]
    filters = kept["echo"]["choice"]["fields"]["content_filter_results"]
    assert filters == choice["content_filter_results"]


def stream_facts(interaction: Interaction) -> dict[str, Any]:
    """What the recorded stream says, read from its chunks."""
    chunks = interaction.response.stream_payloads()
    named = [chunk for chunk in chunks if chunk["id"]]
    deltas = [choice["delta"] for chunk in chunks for choice in chunk["choices"]]
    return {
        "id": named[0]["id"],
        "model": named[0]["model"],
        "text": "".join(delta.get("content") or "" for delta in deltas),
        "usage": chunks[-1]["usage"],
        "prompt_filter_results": chunks[0]["prompt_filter_results"],
    }


def assert_stream_answer(answer: Any, facts: dict[str, Any]) -> None:
    assert (answer.id, answer.model, answer.message.text) == (
        facts["id"],
        facts["model"],
        facts["text"],
    )
    assert (answer.usage.input_tokens, answer.usage.output_tokens) == (
        facts["usage"]["prompt_tokens"],
        facts["usage"]["completion_tokens"],
    )
    kept = answer.provider_data["openai"]["fields"]
    assert kept["prompt_filter_results"] == facts["prompt_filter_results"]


def test_a_stream_s_first_chunk_of_filter_results_names_no_answer() -> None:
    interaction = one("chat_stream.json")
    served = Served(interaction)

    with OpenAIClient(CHAT_SDKS["model"](served)).stream(CHAT) as events:
        answer = accumulate(events)

    assert_sent_as_recorded(served, interaction)
    assert_stream_answer(answer, stream_facts(interaction))


@pytest.mark.anyio
async def test_the_async_clients_reach_azure_alike() -> None:
    chat, trip = one("chat_stream.json"), one("responses_v1.json")
    chat_served, trip_served = Served(chat), Served(trip)

    def sdk(served: Served, **options: Any) -> openai.AsyncAzureOpenAI:
        http = httpx2.AsyncClient(transport=httpx2.MockTransport(served))
        return openai.AsyncAzureOpenAI(api_key=KEY, max_retries=0, http_client=http, **options)

    azure = sdk(chat_served, azure_endpoint=ENDPOINT, api_version="2024-10-21")
    async with await AsyncOpenAIClient(azure).stream(CHAT) as events:
        streamed = accumulate([event async for event in events])
    v1 = sdk(trip_served, base_url=f"{ENDPOINT}/openai/v1/", api_version="preview")
    answered = await AsyncOpenAIResponsesClient(v1).complete(TRIP)

    assert_sent_as_recorded(chat_served, chat)
    assert_stream_answer(streamed, stream_facts(chat))
    assert_sent_as_recorded(trip_served, trip)
    assert answered.message.text == trip.response.json["output"][0]["content"][0]["text"]


def test_the_responses_api_s_v1_form_takes_the_deployment_from_the_body() -> None:
    interaction = one("responses_v1.json")
    served = Served(interaction)
    sdk = openai.AzureOpenAI(
        base_url=f"{ENDPOINT}/openai/v1/",
        api_key=KEY,
        api_version="preview",
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(served)),
    )

    answer = OpenAIResponsesClient(sdk).complete(TRIP)

    assert_sent_as_recorded(served, interaction)
    wire = interaction.response.json
    assert (answer.id, answer.model) == (wire["id"], wire["model"])
    assert answer.message.text == wire["output"][0]["content"][0]["text"]
    assert (answer.usage.input_tokens, answer.usage.output_tokens) == (
        wire["usage"]["input_tokens"],
        wire["usage"]["output_tokens"],
    )


def test_a_429_gives_the_wait_and_the_limits_of_its_headers() -> None:
    interaction = one("chat_error_429.json")
    served = Served(interaction)
    headers = interaction.response.headers
    error_body = interaction.response.json["error"]

    with pytest.raises(RateLimitError) as raised:
        OpenAIClient(CHAT_SDKS["model"](served)).complete(
            ChatRequest(
                model="gpt-4o-prod",
                max_tokens=400,
                messages=(Message.user("Summarise the attached meeting notes."),),
            )
        )

    assert_sent_as_recorded(served, interaction)
    error = raised.value
    assert (error.status, error.code, error.type, error.message) == (
        429,
        error_body["code"],
        None,
        error_body["message"],
    )
    assert error.retry_after == int(headers["retry-after-ms"][0]) / 1000
    assert error.request_id == headers["x-request-id"][0]
    limits = error.rate_limits
    assert limits is not None
    assert limits.requests is not None
    assert limits.tokens is not None
    assert (limits.requests.remaining, limits.tokens.remaining) == (
        int(headers["x-ratelimit-remaining-requests"][0]),
        int(headers["x-ratelimit-remaining-tokens"][0]),
    )
    assert error.retryable


@pytest.mark.parametrize("name", ["chat_completion.json", "responses_v1.json"])
def test_a_recorded_azure_answer_round_trips(name: str) -> None:
    interaction = one(name)
    assert interaction.request is not None
    adapter = get_adapter(api_of_url(interaction.request.url) or "")
    wire = interaction.response.json

    # Azure writes its keys sorted: compared as JSON values, not as text.
    assert adapter.encode_response(adapter.decode_response(wire)) == wire
    assert adapter.encode_request(adapter.decode_request(interaction.request.json)) == (
        interaction.request.json
    )


def test_a_stream_accumulates_to_the_answer_it_describes() -> None:
    interaction = one("chat_stream.json")
    adapter = get_adapter("openai")
    facts = stream_facts(interaction)

    answer = accumulate(adapter.decode_stream(interaction.response.stream_payloads()))

    assert_stream_answer(answer, facts)
    body = adapter.encode_response(answer)
    assert body["prompt_filter_results"] == facts["prompt_filter_results"]
    chunks = interaction.response.stream_payloads()
    filters = [c["choices"][0]["content_filter_results"] for c in chunks if c["choices"]]
    assert body["choices"][0]["content_filter_results"] == [f for f in filters if f][-1]


@pytest.mark.parametrize("target", ["anthropic", "google", "openai-responses", "mistral"])
def test_azure_s_filter_results_are_hints_where_another_api_has_no_place(target: str) -> None:
    wire = one("chat_completion.json").response.json
    answer = get_adapter("openai").decode_response(wire)
    report = TranslationReport(target=target, strict="setting")

    get_adapter(target).encode_response(answer, report=report)

    levels = {loss.path: loss.level for loss in report.losses}
    assert levels["provider_data.openai.fields.prompt_filter_results"] == "hint"
    assert levels["provider_data.openai.echo.choice.fields.content_filter_results"] == "hint"


@pytest.mark.parametrize(
    "url",
    [
        f"{ENDPOINT}/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21",
        # A resource named as a server is still Azure's: OpenAI's wire, not DeepSeek's.
        "https://deepseek.openai.azure.com/openai/deployments/DeepSeek-R1/chat/completions"
        "?api-version=2024-10-21",
        "https://groq-eval.cognitiveservices.azure.com/openai/deployments/gpt-4o/chat/completions"
        "?api-version=2024-10-21",
    ],
)
def test_an_azure_chat_url_speaks_openai_s_api(url: str) -> None:
    assert api_of_url(url) == "openai"


def test_replay_answers_an_azure_client_and_across_providers_an_anthropic_one() -> None:
    path = FIXTURES / "azure" / "chat_completion.json"
    wire = load_cassette(path).interactions[0].response.json
    azure = openai.AzureOpenAI(
        azure_endpoint=ENDPOINT, api_key=KEY, api_version="2024-10-21", max_retries=0
    )
    claude = anthropic.Anthropic(api_key="sk-test", max_retries=0)

    with replay(path) as played:
        answer = OpenAIClient(azure).complete(CHAT)
    with replay(path, across_providers=True):
        message = claude.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=100,
            system=SYSTEM,
            messages=[{"role": "user", "content": QUESTION}],
        )

    text = wire["choices"][0]["message"]["content"]
    request = load_cassette(path).interactions[0].request
    assert request is not None
    assert played.sent == [request.json]
    assert answer.message.text == text
    assert [getattr(block, "text", None) for block in message.content] == [text]


def test_record_writes_the_azure_call_without_its_key(tmp_path: Any) -> None:
    interaction = one("chat_completion.json")
    path = tmp_path / "azure.json"
    route = ("POST", "/openai/deployments/gpt-4o-prod/chat/completions")
    with ProviderServer({route: [interaction.response]}) as server, record(path):
        sdk = openai.AzureOpenAI(
            azure_endpoint=server.base_url, api_key=KEY, api_version="2024-10-21", max_retries=0
        )
        answer = OpenAIClient(sdk).complete(CHAT)

    (received,) = server.received
    assert received.headers["api-key"] == KEY
    (kept,) = load_cassette(path).interactions
    assert kept.request is not None
    assert kept.request.url.endswith(f"{route[1]}?api-version=2024-10-21")
    assert "api-key" not in kept.request.headers
    assert KEY not in path.read_text()
    assert interaction.request is not None
    assert kept.request.json == interaction.request.json
    assert answer.message.text == interaction.response.json["choices"][0]["message"]["content"]


def test_a_recorded_429_keeps_its_headers_facts_in_the_testing_kit() -> None:
    interaction = one("chat_error_429.json")
    headers = interaction.response.headers
    wait = int(headers["retry-after-ms"][0]) / 1000
    summary = ChatRequest(
        model="claude-sonnet-4-6",
        max_tokens=400,
        messages=(Message.user("Summarise the attached meeting notes."),),
    )
    claude = AnthropicClient(anthropic.Anthropic(api_key="sk-test", max_retries=0))

    kept = neutral_interaction(interaction).error
    with (
        replay(FIXTURES / "azure" / "chat_error_429.json", across_providers=True),
        pytest.raises(RateLimitError) as raised,
    ):
        claude.complete(summary)

    assert kept is not None
    assert (kept.retry_after, kept.request_id) == (wait, headers["x-request-id"][0])
    # Answered as Anthropic answers: its `retry-after` and `anthropic-ratelimit-*` headers.
    error = raised.value
    assert (error.provider, error.retry_after, error.request_id) == (
        "anthropic",
        wait,
        headers["x-request-id"][0],
    )
    assert error.rate_limits is not None
    assert error.rate_limits.tokens is not None
    assert error.rate_limits.tokens.remaining == int(headers["x-ratelimit-remaining-tokens"][0])
