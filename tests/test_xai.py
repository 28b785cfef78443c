"""The xAI adapter: its codec on the project's own fixtures (`fixtures/xai/`,
hand-made in the shape of xAI's traffic as its documentation and users'
reports show it), and its clients over the real `openai` SDK at xAI's
address, answered through httpx2's mock transport. The corpus holds no xAI
traffic (xAI is recorded elsewhere through its gRPC SDK only)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

import interlingua_cerebras
import interlingua_deepseek
import interlingua_groq
import interlingua_mistral
import interlingua_ollama
import interlingua_openai
import interlingua_openai_compatible
import interlingua_openrouter
import interlingua_xai
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
    usage_counts,
)
from interlingua import (
    AuthenticationError,
    FinishReason,
    Message,
    ReasoningPart,
    ToolChoice,
    TranslationReport,
    accumulate,
    translate_request,
)
from interlingua.codec import reasoning_as_text
from interlingua.testing import Replay
from interlingua_xai import (
    PROVIDER,
    AsyncXAIClient,
    XAIClient,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
)

URL = "https://api.x.ai/v1/chat/completions"
KEY = fake_key("xai-")
# The Chat Completions dialects that take tool settings (Perplexity has no tools).
CHAT_DIALECTS = (
    interlingua_openai,
    interlingua_groq,
    interlingua_mistral,
    interlingua_deepseek,
    interlingua_cerebras,
    interlingua_ollama,
    interlingua_openai_compatible,
    interlingua_openrouter,
    interlingua_xai,
)


def client(replay: Replay) -> XAIClient:
    return XAIClient(api_key=KEY, max_retries=0, http_client=replay.client())


def wire_usage(usage: dict[str, Any]) -> tuple[int, ...]:
    """A usage object's counts in `usage_counts`' order, read from the wire:
    the reasoning is part of the output; xAI writes no cache."""
    reasoning = usage["completion_tokens_details"]["reasoning_tokens"]
    return (
        usage["prompt_tokens"],
        usage["completion_tokens"] + reasoning,
        usage["total_tokens"],
        usage["prompt_tokens_details"]["cached_tokens"],
        0,
        reasoning,
    )


def test_reasoning_content_is_xai_s_reasoning_and_the_answer_round_trips() -> None:
    for interaction in recorded("xai/reasoning_content_two_turns.json"):
        body = interaction.response.json
        message = body["choices"][0]["message"]

        response = decode_response(body)

        assert [(p.provider, p.text) for p in response.message.reasoning] == [
            (PROVIDER, message["reasoning_content"])
        ]
        assert response.text == message["content"]
        assert usage_counts(response.usage) == wire_usage(body["usage"])
        assert (
            response.usage.input_tokens + response.usage.output_tokens
            == (body["usage"]["total_tokens"])
        )
        assert response.usage.details["cost_in_usd_ticks"] == body["usage"]["cost_in_usd_ticks"]
        assert response.finish_reason is FinishReason.STOP
        assert same_json(encode_response(response, report=strict()), body)


def test_xai_s_reasoning_goes_back_to_xai_as_it_came() -> None:
    first, second = recorded("xai/reasoning_content_two_turns.json")
    assert first.request is not None
    assert second.request is not None
    request = decode_request(first.request.json)
    answer = decode_response(first.response.json)
    follow_up = request.model_copy(
        update={"messages": (*request.messages, answer.message, Message.user("And 101*4?"))}
    )

    body = encode_request(follow_up, report=strict())

    assert body == second.request.json
    message = first.response.json["choices"][0]["message"]
    assert body["messages"][2] == {
        "role": "assistant",
        "content": message["content"],
        "reasoning_content": message["reasoning_content"],
    }


def test_every_earlier_answer_s_reasoning_content_goes_back_each_turn() -> None:
    replay = in_order(recorded("xai/reasoning_content_sent_back.json"))
    history: list[Message] = []
    answers = []

    with client(replay) as xai:
        for interaction in replay.interactions:
            assert interaction.request is not None
            sent = interaction.request.json
            if not history:  # the system message and the first question
                history.extend(decode_request(sent).messages)
            else:  # the answers so far, as they came, and the next question
                history.append(Message.user(sent["messages"][-1]["content"]))
            turn = decode_request(sent).model_copy(update={"messages": tuple(history)})
            answers.append(xai.complete(turn, report=strict()))
            history.append(answers[-1].message)

    assert replay.sent == bodies(replay.interactions)
    for interaction, answer in zip(replay.interactions, answers, strict=True):
        message = interaction.response.json["choices"][0]["message"]
        reasoning = [message["reasoning_content"]] if "reasoning_content" in message else []
        assert [(p.provider, p.text) for p in answer.message.reasoning] == [
            (PROVIDER, text) for text in reasoning
        ]
        assert answer.text == message["content"]
    sent_back = [
        m.get("reasoning_content") for m in replay.sent[-1]["messages"] if m["role"] == "assistant"
    ]
    assert sent_back == [
        i.response.json["choices"][0]["message"]["reasoning_content"]
        for i in replay.interactions[:-1]
    ]


def test_parallel_tool_calls_without_tools_goes_back_as_it_came() -> None:
    replay = in_order(recorded("xai/parallel_tool_calls_without_tools.json"))
    (interaction,) = replay.interactions
    assert interaction.request is not None
    body = interaction.request.json
    assert "tools" not in body

    request = decode_request(body)

    assert (request.parallel_tool_calls, request.tools) == (body["parallel_tool_calls"], ())
    assert encode_request(request, report=strict()) == body
    with client(replay) as xai:
        answer = xai.complete(request, report=strict())
    assert replay.sent == bodies(replay.interactions)
    assert answer.text == interaction.response.json["choices"][0]["message"]["content"]
    # The body's own form is xAI's alone: to OpenAI, which refuses the setting
    # without tools, it is left out; with no call to make it meant nothing, so
    # nothing is reported. A choice that asks for a call is reported.
    translation = translate_request(body, source=PROVIDER, target="openai")
    assert "parallel_tool_calls" not in translation.body
    assert translation.losses == []
    for choice, reported in [("none", []), ("auto", []), ("required", ["tool_choice"])]:
        asked = translate_request({**body, "tool_choice": choice}, source=PROVIDER, target="openai")
        assert {"tool_choice", "parallel_tool_calls"}.isdisjoint(asked.body)
        assert [loss.path for loss in asked.losses] == reported, choice


@pytest.mark.parametrize("adapter", CHAT_DIALECTS, ids=lambda adapter: adapter.PROVIDER)
def test_every_chat_completions_dialect_sends_its_own_tool_settings_back(
    adapter: ModuleType,
) -> None:
    (interaction,) = recorded("xai/parallel_tool_calls_without_tools.json")
    assert interaction.request is not None
    body = {**interaction.request.json, "tool_choice": "none"}

    request = adapter.decode_request(body)

    assert (request.parallel_tool_calls, request.tool_choice) == (False, ToolChoice.none())
    assert same_json(adapter.encode_request(request, report=strict()), body)


def test_a_streamed_answer_accumulates_to_the_answer_and_is_written_again() -> None:
    (interaction,) = recorded("xai/stream_reasoning_content.json")
    payloads = interaction.response.stream_payloads()
    thought = "".join(p["choices"][0]["delta"].get("reasoning_content", "") for p in payloads[:-1])

    streamed = accumulate(decode_stream(payloads))

    assert [(p.provider, p.text) for p in streamed.message.reasoning] == [(PROVIDER, thought)]
    assert streamed.text == "303"
    assert usage_counts(streamed.usage) == wire_usage(payloads[-1]["usage"])
    assert_stream_written_again(interlingua_xai, payloads)


def test_the_client_sends_the_recorded_turns_to_xai() -> None:
    replay = in_order(recorded("xai/reasoning_content_two_turns.json"))
    first, second = replay.interactions
    assert first.request is not None
    assert second.request is not None

    with client(replay) as xai:
        answer = xai.complete(decode_request(first.request.json), report=strict())
        again = xai.complete(decode_request(second.request.json), report=strict())

    assert answer == decode_response(first.response.json)
    assert again.text == "404"
    assert_sent_as_recorded(replay, URL, KEY)


@pytest.mark.anyio
async def test_the_async_client_streams_with_usage_asked_for() -> None:
    replay = await assert_streams_as_recorded(
        AsyncXAIClient, interlingua_xai, "xai/stream_reasoning_content.json", URL, KEY
    )

    assert replay.sent[0]["stream_options"] == {"include_usage": True}


def test_a_bad_key_answered_400_is_an_authentication_error() -> None:
    replay = in_order(recorded("xai/error_incorrect_api_key.json"))
    (interaction,) = replay.interactions
    assert interaction.request is not None
    body = interaction.response.json

    with pytest.raises(AuthenticationError) as raised, client(replay) as xai:
        xai.complete(decode_request(interaction.request.json))

    error = raised.value
    assert (error.status, error.message, error.code) == (400, body["error"], body["code"])
    assert (error.provider, error.body) == (PROVIDER, body)
    assert not error.retryable
    assert replay.sent == bodies(replay.interactions)


def test_the_key_comes_from_xai_s_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    assert_key_comes_from(monkeypatch, XAIClient, "XAI_API_KEY", KEY)


def test_reasoning_of_another_provider_is_left_out_of_xai_requests() -> None:
    (interaction,) = recorded("xai/stream_reasoning_content.json")
    assert interaction.request is not None
    request = decode_request(interaction.request.json)
    thought = ReasoningPart(text="hm", signature="c2ln", provider="anthropic")
    foreign = Message.assistant(thought, "4")
    with_foreign = request.model_copy(update={"messages": (*request.messages, foreign)})
    report = TranslationReport()

    body = encode_request(with_foreign, report=report)

    assert body["messages"][-1] == {"role": "assistant", "content": "4"}
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[1].parts[0]", "dropped")
    ]
    # Asked for, its readable text goes as marked text, never as xAI's reasoning.
    as_text = with_foreign.model_copy(update={"foreign_reasoning": "text"})
    report = TranslationReport()
    body = encode_request(as_text, report=report)
    assert body["messages"][-1] == {
        "role": "assistant",
        "content": [
            {"type": "text", "text": reasoning_as_text(thought)},
            {"type": "text", "text": "4"},
        ],
    }
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[1].parts[0]", "transformed")
    ]
