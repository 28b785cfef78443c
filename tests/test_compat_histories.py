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

import functools
import json
from itertools import pairwise
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
import interlingua_perplexity as perplexity_adapter
from conftest import MissingCorpus, recorded
from interlingua import (
    BadRequestError,
    ChatHistory,
    ChatRequest,
    ChatResponse,
    Message,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    ToolSpec,
    TranslationReport,
    accumulate,
    validate_request,
)
from test_moving_histories import (
    FIXED_VERSION_TOOL,
    SOURCES,
    WEATHER,
    WEATHER_QUESTION,
    WEATHER_TOOL,
    answer,
    answering_files,
    case,
    check_openai_call_ids,
    fixed_version_loop,
    losses,
    part_at,
    recorded_histories,
    recording,
    saved_and_loaded,
    send,
    to_anthropic,
    to_chat_completions,
    to_google,
    to_groq,
    to_mistral,
    to_responses,
    weather_loop,
)
from test_moving_histories import TARGETS as MOVING_TARGETS

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


# --- Perplexity: no tools, turns alternating ---

PERPLEXITY_MODEL = "sonar-reasoning-pro"
PERPLEXITY_ROLES = frozenset({"system", "user", "assistant"})
PERPLEXITY_USER_PARTS = frozenset({"text", "image_url"})
# What its chat completions API has no field for ("Tool calling is not supported").
PERPLEXITY_REJECTS = frozenset({"tools", "tool_choice", "parallel_tool_calls"})


def check_perplexity_rules(body: dict[str, Any]) -> None:
    """Perplexity: roles system, user and assistant only, each message its role and
    content alone, not empty; the system messages first, then user and assistant
    turns alternating ("After the (optional) system message(s), user and assistant
    roles should be alternating."); no tool field; user content of text and images."""
    assert not PERPLEXITY_REJECTS & body.keys()
    roles = [message["role"] for message in body["messages"]]
    assert set(roles) <= PERPLEXITY_ROLES
    turns = roles[len(roles) - len(roles[roles.count("system") :]) :]
    assert roles[: len(roles) - len(turns)] == ["system"] * (len(roles) - len(turns))
    assert "system" not in turns, "system messages come first"
    for before, after in pairwise(turns):
        assert before != after, "turns must alternate"
    for message in body["messages"]:
        assert message.keys() == {"role", "content"}, message.keys()
        content = message["content"]
        assert content, "no message without content"
        if isinstance(content, list) and message["role"] == "user":
            assert {item["type"] for item in content} <= PERPLEXITY_USER_PARTS


def to_perplexity(
    history: ChatHistory, *tools: ToolSpec
) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(model=PERPLEXITY_MODEL, messages=tuple(history.messages), tools=tools)
    body, report = send(
        perplexity_adapter.encode_request, request, history, takes_reasoning_of="perplexity"
    )
    check_perplexity_rules(body)
    return body, report


def tool_losses(history: ChatHistory, *tools: ToolSpec) -> list[tuple[str, str]]:
    """What Perplexity must leave out of `history` and `tools`, read from them:
    the tools, every tool call and result, the reasoning of any other provider."""
    found = [(f"tools[{index}]", "dropped") for index, _ in enumerate(tools)]
    for index, message in enumerate(history):
        for position, part in enumerate(message.parts):
            if isinstance(part, ToolCallPart | ToolResultPart) or (
                isinstance(part, ReasoningPart) and part.provider != "perplexity"
            ):
                found.append((f"messages[{index}].parts[{position}]", "dropped"))
    return found


def perplexity_answer() -> tuple[ChatRequest, ChatResponse]:
    """Perplexity's reasoning model thinks (in `<think>` tags), cites and answers."""
    (streamed,) = recorded("perplexity/stream_think_citations.json")
    assert streamed.request is not None
    asked = perplexity_adapter.decode_request(streamed.request.json)
    return asked, accumulate(perplexity_adapter.decode_stream(streamed.response.stream_payloads()))


def test_a_tool_loop_goes_to_perplexity_without_its_tools_in_alternating_turns(
    tmp_path: Path,
) -> None:
    history = saved_and_loaded(weather_loop(fixed_version_loop()), tmp_path)
    tools = (FIXED_VERSION_TOOL, WEATHER_TOOL)

    body, report = to_perplexity(history, *tools)

    # [1] and [5] had nothing Perplexity takes, [2] and [6] were tool results.
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][1]["content"] == history.messages[3].text
    assert sorted(losses(report)) == sorted(tool_losses(history, *tools))

    history.add_message(Message.user("Thanks! Which version did the tool report earlier?"))
    body, report = to_perplexity(history, *tools)
    asked = body["messages"][-1]["content"]
    assert asked == f"{WEATHER_QUESTION}\n\n{history.messages[-1].text}"
    joined = [path for path, kind in losses(report) if kind == "transformed"]
    assert joined == ["messages[7]"]  # the question joined to the user turn before


def test_a_tool_loop_through_perplexity_goes_on_to_the_other_apis_as_it_was(
    tmp_path: Path,
) -> None:
    history = saved_and_loaded(weather_loop(fixed_version_loop()), tmp_path)
    tools = (FIXED_VERSION_TOOL, WEATHER_TOOL)
    before = {name: to(history, *tools) for name, to in ONWARD.items()}

    to_perplexity(history, *tools)
    asked, answered = perplexity_answer()
    history.add_message(Message.user(asked.messages[-1].text))
    history.add_response(answered)
    history.add_message(Message.user("And the Vasco da Gama bridge?"))

    for name, to in ONWARD.items():
        body, report = to(history, *tools)
        old_body, old_report = before[name]
        sent, sent_before = turns(body), turns(old_body)
        assert sent[: len(sent_before) - 1] == sent_before[:-1], (
            f"{name}: the turns before Perplexity's went on as they were"
        )
        dropped = [path for path, kind in losses(report) if path.startswith("messages[8]")]
        if name == "perplexity":
            assert dropped == []  # its own reasoning goes back to it, in its tags
            assert body["messages"][-2]["content"].startswith("<think>")
        else:
            assert dropped == ["messages[8].parts[0]"], name  # Perplexity's reasoning
        parts = [loss for loss in losses(old_report) if loss[0].startswith("messages[")]
        assert [loss for loss in losses(report) if loss in parts] == parts, name


def turns(body: dict[str, Any]) -> list[Any]:
    """A body's turns, whatever the API calls them."""
    return next(body[key] for key in ("messages", "input", "contents") if key in body)


ONWARD = {
    "anthropic": to_anthropic,
    "chat-completions": to_chat_completions,
    "responses-api": to_responses,
    "mistral": to_mistral,
    "groq": to_groq,
    "google": to_google,
    "deepseek": functools.partial(to_server, deepseek_adapter),
    "perplexity": to_perplexity,
}


def test_perplexity_s_answer_is_cited_and_thought_out_and_goes_to_every_api() -> None:
    asked, answered = perplexity_answer()
    history = ChatHistory(messages=[*asked.messages])
    history.add_response(answered)
    history.add_message(Message.user("And how old is it?"))
    (reasoning,) = history.messages[-2].reasoning
    assert reasoning.provider == "perplexity"

    body, report = to_perplexity(history)
    assert losses(report) == []
    assert reasoning.text in body["messages"][-2]["content"]
    for name, to in ONWARD.items():
        if name != "perplexity":
            body, report = to(history)
            left_out = [loss for loss in losses(report) if loss[0].startswith("messages")]
            assert left_out == [(f"messages[{len(history) - 2}].parts[0]", "dropped")], name


def test_a_later_system_message_goes_to_perplexity_at_the_start() -> None:
    history = ChatHistory(
        messages=[
            Message.system("Be precise and concise."),
            Message.user("When did the Lisbon Oceanarium open?"),
            Message.assistant("On 22 May 1998."),
            Message.system("Answer in Portuguese from now on."),
            Message.user("And who designed it?"),
        ]
    )

    body, report = to_perplexity(history)

    assert [message["content"] for message in body["messages"]] == [
        history.messages[i].text for i in (0, 3, 1, 2, 4)
    ]
    assert losses(report) == [("messages[3]", "transformed")]


def test_validate_request_says_what_perplexity_leaves_out_of_a_tool_loop() -> None:
    history = weather_loop(fixed_version_loop())
    request = ChatRequest(
        model=PERPLEXITY_MODEL, messages=tuple(history.messages), tools=(WEATHER_TOOL,)
    )

    problems = validate_request(request, target="perplexity")

    assert sorted((problem.path, problem.fix) for problem in problems) == sorted(
        tool_losses(history, WEATHER_TOOL)
    )


def test_turns_perplexity_refused_as_they_came_go_joined_and_its_400_is_typed() -> None:
    (refused,) = recorded("perplexity/error_roles_not_alternating.json")
    assert refused.request is not None
    sent = refused.request.json
    request = perplexity_adapter.decode_request(sent)
    error = perplexity_adapter.decode_error(refused.response.status, refused.response.json)
    report = TranslationReport()

    body = perplexity_adapter.encode_request(request, report=report)

    assert isinstance(error, BadRequestError)
    assert error.message == refused.response.json["error"]["message"]
    first, then = sent["messages"][1]["content"], sent["messages"][2]["content"]
    assert body["messages"] == [
        sent["messages"][0],
        {"role": "user", "content": f"{first}\n\n{then}"},
    ]
    assert losses(report) == [("messages[2]", "transformed")]
    assert "alternating" in report.losses[0].reason
    check_perplexity_rules(body)


def to_perplexity_cases() -> list[Any]:
    return [
        case(source, path, "perplexity", "perplexity")
        for source in SOURCES
        for path in answering_files(source)
    ]


@pytest.mark.parametrize(("source", "recorded_file", "target"), to_perplexity_cases())
def test_every_recorded_answer_moves_to_perplexity_and_back_to_its_own_api(
    source: str, recorded_file: Path | MissingCorpus, target: str
) -> None:
    """Each answer of the corpus, its tool calls answered, sent to Perplexity (every
    hop's checks and Perplexity's rules; its tool calls and results reported left
    out, its texts arrived), then to its own API as before the hop."""
    home = MOVING_TARGETS[SOURCES[source].target]
    for history, tools in recorded_histories(recorded_file, source):
        before, report = home(history, *tools)
        body, sent_report = to_perplexity(history, *tools)
        named = set(losses(sent_report))
        assert set(tool_losses(history, *tools)) <= named
        sent = json.dumps(body)
        for message, part in ((m, p) for m in history for p in m.parts):
            if isinstance(part, TextPart) and part.text.strip() and message.role != "tool":
                assert json.dumps(part.text)[1:-1] in sent, "the text arrived"
        after, again = home(history, *tools)
        assert after == before
        assert losses(again) == losses(report)
