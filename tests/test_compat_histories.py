"""Moving a history to and from the OpenAI-compatible servers: DeepSeek,
Cerebras, Ollama and a plain server (`openai-compatible`), hop by hop, with
the checks of `test_moving_histories` at every hop (`send`: the history
unchanged, reasoning back only to its maker, nothing lost unreported, strict
mode raising on the first loss).

And each server's own answer going back to it: a recorded answer, appended to
the history the recorded client had, is sent as the client's next recorded
request sent it (DeepSeek's `reasoning_content` with its tool calls, Ollama's
and gpt-oss's `reasoning`, GLM's reasoning in `<think>` tags).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import interlingua_anthropic as anthropic_adapter
import interlingua_cerebras as cerebras_adapter
import interlingua_deepseek as deepseek_adapter
import interlingua_ollama as ollama_adapter
import interlingua_openai.responses as responses_adapter
import interlingua_openai_compatible as plain_adapter
from interlingua import ChatHistory, ChatRequest, Message, ToolSpec, TranslationReport
from test_moving_histories import (
    FIXED_VERSION_TOOL,
    WEATHER,
    WEATHER_TOOL,
    answer,
    check_openai_call_ids,
    fixed_version_loop,
    losses,
    part_at,
    recording,
    saved_and_loaded,
    send,
    to_anthropic,
    weather_loop,
)

# adapter -> a model of its server (one that reasons, where it has one)
TARGETS: dict[ModuleType, str] = {
    deepseek_adapter: "deepseek-v4-flash",
    cerebras_adapter: "gpt-oss-120b",
    ollama_adapter: "gpt-oss:20b",
    plain_adapter: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
}
REASONING_FIELDS = {"reasoning", "reasoning_content"}


def to_server(
    adapter: ModuleType, history: ChatHistory, *tools: ToolSpec, model: str | None = None
) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(
        model=model or TARGETS[adapter], messages=tuple(history.messages), tools=tools
    )
    body, report = send(
        adapter.encode_request, request, history, takes_reasoning_of=adapter.PROVIDER
    )
    check_openai_call_ids(body["messages"])
    return body, report


def tool_turn_messages(body: dict[str, Any]) -> list[int]:
    """The assistant messages of the body's turns (between user messages) with a tool call."""
    found, turn, called = [], [], False
    for index, message in enumerate([*body["messages"], {"role": "user"}]):
        if message["role"] == "user":
            found += turn if called else []
            turn, called = [], False
        elif message["role"] == "assistant":
            turn.append(index)
            called = called or bool(message.get("tool_calls"))
    return found


@pytest.mark.parametrize("adapter", list(TARGETS), ids=lambda adapter: adapter.PROVIDER)
def test_an_anthropic_and_openai_tool_loop_goes_to_the_server_and_back_to_anthropic_signed(
    adapter: ModuleType, tmp_path: Path
) -> None:
    history = saved_and_loaded(weather_loop(fixed_version_loop()), tmp_path)

    body, report = to_server(adapter, history, FIXED_VERSION_TOOL, WEATHER_TOOL)

    reasoning = {
        index: {k: v for k, v in message.items() if k in REASONING_FIELDS}
        for index, message in enumerate(body["messages"])
    }
    dropped = [path for path, kind in losses(report) if kind == "dropped"]
    assert [part_at(history, path).provider for path in dropped] == [
        "anthropic",
        "openai-responses",
    ]
    if adapter is deepseek_adapter:
        # Thinking mode: every assistant message of a tool-call turn carries reasoning_content.
        turns = tool_turn_messages(body)
        assert turns == [1, 3, 5]
        assert {i: r for i, r in reasoning.items() if r} == {
            i: {"reasoning_content": ""} for i in turns
        }
        transformed = [path for path, kind in losses(report) if kind == "transformed"]
        assert transformed == ["messages[1]", "messages[3]", "messages[5]"]
    else:
        assert not any(reasoning.values())
        assert [kind for _, kind in losses(report)] == ["dropped", "dropped"]

    _, paris = recording(WEATHER, "openai")
    history.add_response(answer(paris, responses_adapter))
    history.add_message(Message.user("Thanks! Which version did the tool report earlier?"))
    body, report = to_anthropic(history, FIXED_VERSION_TOOL, WEATHER_TOOL)
    assert losses(report) == [("messages[5].parts[0]", "dropped")]


def test_deepseek_sends_no_empty_reasoning_when_thinking_is_off() -> None:
    history = weather_loop(fixed_version_loop())
    for model, options in (
        ("deepseek-chat", {}),
        ("deepseek-v4-flash", {"deepseek": {"thinking": {"type": "disabled"}}}),
    ):
        request = ChatRequest(
            model=model,
            messages=tuple(history.messages),
            tools=(FIXED_VERSION_TOOL, WEATHER_TOOL),
            provider_options=options,
        )
        report = TranslationReport()
        body = deepseek_adapter.encode_request(request, report=report)
        assert not any(REASONING_FIELDS & message.keys() for message in body["messages"])
        assert [kind for _, kind in losses(report)] == ["dropped", "dropped"]


# --- each server's answer goes back to it as its recorded client sent it ---

# file, its adapter, the answer (its index in the file) and the request that sends it back
ANSWERED = [
    ("compat/deepseek/chatlas/test_deepseek_tool_variations.yaml", deepseek_adapter, 0, 1),
    ("compat/deepseek/chatlas/test_deepseek_tool_variations.yaml", deepseek_adapter, 1, 2),
    (
        "compat/deepseek/pydantic-ai/test_deepseek_deferred_capability_with_thinking.yaml",
        deepseek_adapter,
        1,
        2,
    ),
    ("compat/ollama/pydantic-ai/test_ollama_cloud_tool_output.yaml", ollama_adapter, 0, 1),
    (
        "compat/cerebras/pydantic-ai/test_cerebras_thinking_part_survives_multiturn.yaml",
        cerebras_adapter,
        0,
        1,
    ),
    (
        "compat/cerebras/pydantic-ai/test_cerebras_zai_reasoning_replayed_as_think_tags.yaml",
        cerebras_adapter,
        0,
        1,
    ),
]


@pytest.mark.parametrize(
    ("path", "adapter", "answered", "next_call"),
    ANSWERED,
    ids=[f"{Path(path).stem}[{a}]" for path, _, a, _ in ANSWERED],
)
def test_a_recorded_answer_goes_back_as_the_next_recorded_request_sent_it(
    path: str, adapter: ModuleType, answered: int, next_call: int
) -> None:
    calls = recording(path)
    asked, then = calls[answered].request.json, calls[next_call].request.json  # type: ignore[union-attr]
    sent_before = adapter.decode_request(asked).messages
    response = answer(calls[answered], adapter)
    # The messages the client added after the answer (tool results, the user's next turn).
    added = adapter.decode_request(then).messages[len(sent_before) + 1 :]
    history = ChatHistory(messages=list(sent_before))
    history.add_response(response)
    for message in added:
        history.add_message(message)
    request = adapter.decode_request(then).model_copy(update={"messages": tuple(history.messages)})

    body, report = send(
        adapter.encode_request, request, history, takes_reasoning_of=adapter.PROVIDER
    )

    assert report.losses == []
    sent, recorded = body["messages"], then["messages"]
    assert [sent_facts(message) for message in sent] == [sent_facts(m) for m in recorded]
    if (path, answered) in SENT_AS_RECORDED:
        assert body == then


# The answers whose next request is the body interlingua sends, whole: the other
# clients write an assistant turn of tool calls each its own way (chatlas with no
# `content`, pydantic-ai with no call `index`), which DeepSeek reads alike.
SENT_AS_RECORDED = {(path, answered) for path, _, answered, _ in ANSWERED[3:]}


def sent_facts(message: dict[str, Any]) -> tuple[Any, ...]:
    """What a message says: its role, text, reasoning fields and tool calls."""
    calls = [
        (call["id"], call["function"]["name"], call["function"]["arguments"])
        for call in message.get("tool_calls") or []
    ]
    reasoning = {k: v for k, v in message.items() if k in REASONING_FIELDS}
    return (message["role"], message.get("content") or "", reasoning, calls)


def test_reasoning_of_a_server_is_left_out_for_the_others() -> None:
    calls = recording("compat/deepseek/chatlas/test_deepseek_tool_variations.yaml")
    history = ChatHistory(
        messages=list(deepseek_adapter.decode_request(calls[1].request.json).messages)
    )  # type: ignore[union-attr]
    assert history.messages[2].reasoning[0].provider == "deepseek"

    for adapter in (cerebras_adapter, ollama_adapter, plain_adapter):
        body, report = to_server(adapter, history)
        assert not any(REASONING_FIELDS & message.keys() for message in body["messages"])
        assert losses(report) == [("messages[2].parts[0]", "dropped")]
    body, report = to_anthropic(history, reasoning=None)
    assert losses(report) == [("messages[2].parts[0]", "dropped")]
    assert report.target == anthropic_adapter.PROVIDER
