"""The Perplexity adapter: its codec on the project's own fixtures
(`fixtures/perplexity/`, hand-made in the shape of Perplexity's traffic as
its documentation and users' reports show it), and its clients over the real
`openai` SDK at Perplexity's address, answered through httpx2's mock
transport. The corpus holds no Perplexity traffic."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua_perplexity
from chat_corpus import assert_stream_written_again
from conftest import (
    assert_key_comes_from,
    assert_sent_as_recorded,
    assert_streams_as_recorded,
    bodies,
    fake_key,
    in_order,
    recorded,
    same_json,
    strict,
)
from interlingua import (
    AuthenticationError,
    FinishReason,
    TranslationReport,
    accumulate,
)
from interlingua.testing import Replay
from interlingua_perplexity import (
    PROVIDER,
    AsyncPerplexityClient,
    PerplexityClient,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
)

URL = "https://api.perplexity.ai/chat/completions"
KEY = fake_key("pplx-")


def client(replay: Replay) -> PerplexityClient:
    return PerplexityClient(api_key=KEY, max_retries=0, http_client=replay.client())


def cost_details(usage: dict[str, Any]) -> dict[str, Any]:
    """The usage's cost and search counts as `TokenUsage.details` holds them, from the wire."""
    details = {f"cost.{name}": value for name, value in usage["cost"].items()}
    for name in ("reasoning_tokens", "citation_tokens", "num_search_queries"):
        if name in usage:
            details[name] = usage[name]
    return details


def test_an_answer_keeps_its_citations_and_its_cost() -> None:
    (interaction,) = recorded("perplexity/citations_answer.json")
    body = interaction.response.json

    response = decode_response(body)

    fields = response.provider_data[PROVIDER]["fields"]
    assert (fields["citations"], fields["search_results"]) == (
        body["citations"],
        body["search_results"],
    )
    assert response.text == body["choices"][0]["message"]["content"]
    usage = body["usage"]
    assert (response.usage.input_tokens, response.usage.output_tokens) == (
        usage["prompt_tokens"],
        usage["completion_tokens"],
    )
    assert response.usage.details == cost_details(usage)
    assert response.finish_reason is FinishReason.STOP
    assert same_json(encode_response(response, report=strict()), body)


def test_perplexity_s_search_settings_are_its_own_options() -> None:
    (interaction,) = recorded("perplexity/citations_answer.json")
    assert interaction.request is not None
    body = interaction.request.json

    request = decode_request(body)

    assert request.provider_options[PROVIDER] == {
        "search_recency_filter": body["search_recency_filter"],
        "web_search_options": body["web_search_options"],
    }
    assert request.max_tokens == body["max_tokens"]
    assert encode_request(request, report=strict()) == body


def test_tool_settings_without_tools_are_left_out_each_reported_once() -> None:
    (interaction,) = recorded("perplexity/citations_answer.json")
    assert interaction.request is not None
    body = interaction.request.json
    with_settings = {**body, "tool_choice": "none", "parallel_tool_calls": False}
    report = TranslationReport()

    sent = encode_request(decode_request(with_settings), report=report)

    assert sent == body
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("tool_choice", "dropped"),
        ("parallel_tool_calls", "dropped"),
    ]


def test_a_streamed_reasoning_answer_splits_its_think_tags_and_keeps_its_sources() -> None:
    (interaction,) = recorded("perplexity/stream_think_citations.json")
    payloads = interaction.response.stream_payloads()
    content = "".join(p["choices"][0]["delta"]["content"] for p in payloads)
    thought, answer = content.removeprefix("<think>").split("</think>")

    streamed = accumulate(decode_stream(payloads))

    assert [(p.provider, p.text) for p in streamed.message.reasoning] == [
        (PROVIDER, thought.strip())
    ]
    assert streamed.text == answer.strip()
    assert streamed.provider_data[PROVIDER]["fields"]["citations"] == payloads[0]["citations"]
    usage = payloads[-1]["usage"]
    assert streamed.usage.reasoning_tokens == usage["reasoning_tokens"]
    # Counted apart from the completion on the wire, inside the core's output.
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert streamed.usage.output_tokens == usage["completion_tokens"] + usage["reasoning_tokens"]
    assert streamed.usage.details == cost_details(payloads[-1]["usage"])
    assert_stream_written_again(interlingua_perplexity, payloads)


def test_its_think_tags_go_back_to_perplexity_as_they_came() -> None:
    (interaction,) = recorded("perplexity/stream_think_citations.json")
    assert interaction.request is not None
    request = decode_request(interaction.request.json)
    answer = accumulate(decode_stream(interaction.response.stream_payloads()))
    follow_up = request.model_copy(update={"messages": (*request.messages, answer.message)})

    body = encode_request(follow_up, report=strict())

    payloads = interaction.response.stream_payloads()
    content = "".join(p["choices"][0]["delta"]["content"] for p in payloads)
    assert body["messages"][-1] == {"role": "assistant", "content": content}


def test_the_client_sends_the_recorded_request_to_perplexity() -> None:
    replay = in_order(recorded("perplexity/citations_answer.json"))
    (interaction,) = replay.interactions
    assert interaction.request is not None

    with client(replay) as perplexity:
        response = perplexity.complete(decode_request(interaction.request.json), report=strict())

    assert response == decode_response(interaction.response.json)
    assert_sent_as_recorded(replay, URL, KEY)


@pytest.mark.anyio
async def test_the_async_client_streams_the_reasoning_answer() -> None:
    await assert_streams_as_recorded(
        AsyncPerplexityClient,
        interlingua_perplexity,
        "perplexity/stream_think_citations.json",
        URL,
        KEY,
    )


def test_a_bad_key_s_html_page_is_an_authentication_error() -> None:
    replay = in_order(recorded("perplexity/error_unauthorized_html.json"))
    (interaction,) = replay.interactions
    assert interaction.request is not None

    with pytest.raises(AuthenticationError) as raised, client(replay) as perplexity:
        perplexity.complete(decode_request(interaction.request.json))

    error = raised.value
    assert (error.status, error.provider) == (401, PROVIDER)
    assert error.message == "401 Authorization Required"  # the page's title, not its markup
    assert error.body == interaction.response.body.decode()
    assert replay.sent == bodies(replay.interactions)


def test_the_key_comes_from_perplexity_s_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    assert_key_comes_from(monkeypatch, PerplexityClient, "PERPLEXITY_API_KEY", KEY)
