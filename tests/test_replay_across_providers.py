"""A recording answering code that moved to another provider: `replay(...,
across_providers=True)` matches each chat request by what it means, in the
core, and answers in the asking SDK's own format, whole or streamed.

A tool loop recorded against OpenAI's Chat Completions
(`fixtures/openai/chat_tool_round_trip.json`) answers the anthropic, openai
(Chat Completions and Responses), google-genai, mistralai and groq SDKs, and a
changed user text is refused, naming the recorded request and the path of
the first difference in the core's terms.

The sweep: every fixture interaction (`fixtures/<provider>/*.json`) with a
request and a 200 answer, and, from the recorded corpus (`../shared/corpus`,
or `$INTERLINGUA_CORPUS`), the first `INTERLINGUA_ACROSS_PER_FOLDER` (3 by
default) such interactions of each provider folder, files in name order:
each request is translated to each other API the SDKs speak
(`translate_request`), sent by that API's SDK, whole and streamed, and gets
the recorded answer's text, tool calls and finish, read from the recorded
wire (`across_wire`). `INTERLINGUA_ACROSS_PER_FOLDER=0` sweeps the whole
corpus (long). A pair where the asking API cannot carry what is compared
(the translation drops or transforms a message or a tool) is skipped, with
what is lost as the reason.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anthropic
import pytest

from across_wire import SDK_APIS, WHOLE_ONLY, Said, recorded_answer, send
from conftest import CORPUS, FIXTURES, cassette, corpus_files, require_corpus
from interlingua import CassetteError, InvalidDataError, get_adapter, translate_request
from interlingua.testing import (
    Interaction,
    load_cassette,
    meaning,
    replay,
    use_cassette,
    write_cassette,
)
from interlingua.testing._apis import api_of_url
from interlingua.testing._match import Matcher

TOOL_LOOP = FIXTURES / "openai" / "chat_tool_round_trip.json"
PER_FOLDER = int(os.environ.get("INTERLINGUA_ACROSS_PER_FOLDER", "3"))
MODES = {"whole": False, "streamed": True}


def _answered(api: str, mode: str) -> bool:
    """Whether the kit answers `api`'s SDK so (boto3 streams need AWS's encoder)."""
    return not (api in WHOLE_ONLY and MODES[mode])


SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
PARIS = {"city": "Paris"}


def _chat_interactions(path: Path) -> list[tuple[str, int, Interaction]]:
    """`(api, index, interaction)` of each chat request of `path` answered with a 200."""
    try:
        interactions = cassette(path).interactions
    except CassetteError:
        return []
    found = []
    for index, interaction in enumerate(interactions):
        request, response = interaction.request, interaction.response
        if request is None or response.status != 200 or not isinstance(request.json, dict):
            continue
        if (api := api_of_url(request.url)) is None or _ends_in_error(interaction):
            continue
        found.append((api, index, interaction))
    return found


def _ends_in_error(interaction: Interaction) -> bool:
    """A 200 stream that ends in an error event: no answer to compare."""
    events = interaction.response.events
    if events is None:
        return False
    if any((event.event or "").endswith("Exception") for event in events):
        return True  # an Amazon event stream's exception, as boto3 reads it
    text = interaction.response.body.decode("utf-8", "replace")
    return '"error"' in text or "event: error" in text


def _recorded_request(interaction: Interaction) -> dict[str, Any]:
    assert interaction.request is not None
    body: dict[str, Any] = interaction.request.json
    return body


# --- a tool loop recorded against OpenAI, answering every SDK ---


# Each SDK whole and streamed; boto3 streamed where the kit writes Amazon's event stream.
SDK_MODES = [(api, mode) for api in SDK_APIS for mode in MODES if _answered(api, mode)]


@pytest.mark.parametrize(("api", "mode"), SDK_MODES)
def test_the_recorded_tool_loop_answers_each_sdk(api: str, mode: str) -> None:
    interactions = load_cassette(TOOL_LOOP).interactions
    with replay(TOOL_LOOP, across_providers=True) as played:
        for interaction in interactions:
            body = translate_request(_recorded_request(interaction), source="openai", target=api)
            said = send(api, body.body, MODES[mode])
            assert said == recorded_answer("openai", interaction).as_told_by(api)
    assert played.done
    assert len(played.sent) == 2


def test_anthropic_code_runs_the_tool_loop_recorded_against_openai() -> None:
    """The README's example: the code moved from OpenAI to Anthropic, the cassette kept."""
    recorded = load_cassette(TOOL_LOOP).interactions
    first = recorded[0].response.json["choices"][0]["message"]["tool_calls"][0]
    last = recorded[1].response.json["choices"][0]["message"]["content"]
    client = anthropic.Anthropic(api_key="sk-test", max_retries=0)
    tool = {
        "name": "get_weather",
        "description": "Says the weather of a city.",  # descriptions are not compared
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
            "additionalProperties": False,
        },
    }
    ask = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 300,
        "system": "You answer weather questions in one sentence.",
        "tools": [tool],
    }
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "Is it raining in Lisbon right now?"}
    ]

    with replay(TOOL_LOOP, across_providers=True) as played:
        called = client.messages.create(**ask, messages=messages)
        (use,) = called.content
        messages += [
            {"role": "assistant", "content": [use.model_dump(exclude_none=True)]},
            {"role": "user", "content": [_weather(use.id, use.input["city"])]},
        ]
        with client.messages.stream(**ask, messages=messages) as stream:
            answered = stream.get_final_message()

    assert (use.name, use.input) == (
        first["function"]["name"],
        json.loads(first["function"]["arguments"]),
    )
    assert called.stop_reason == "tool_use"
    assert [block.text for block in answered.content] == [last]
    assert answered.stop_reason == "end_turn"
    usage = recorded[1].response.json["usage"]
    assert (answered.usage.input_tokens, answered.usage.output_tokens) == (
        usage["prompt_tokens"],
        usage["completion_tokens"],
    )
    assert played.sent[1]["messages"][2]["content"][0]["tool_use_id"] == use.id
    assert {loss.path for loss in played.losses} >= {
        "provider_data.openai.fields.system_fingerprint"
    }


def _weather(call_id: str, city: str) -> dict[str, Any]:
    assert city == "Lisbon"
    text = "Light rain, 14 C, wind 20 km/h from the west."
    return {"type": "tool_result", "tool_use_id": call_id, "content": text}


def test_a_changed_user_text_is_refused_naming_its_path_in_the_core() -> None:
    recorded = _recorded_request(load_cassette(TOOL_LOOP).interactions[0])
    asked = recorded["messages"][1]["content"]
    client = anthropic.Anthropic(api_key="sk-test", max_retries=0)

    with (
        pytest.raises(CassetteError) as raised,
        replay(TOOL_LOOP, across_providers=True) as played,
    ):
        client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=300,
            system=recorded["messages"][0]["content"],
            messages=[{"role": "user", "content": "Is it snowing in Oslo?"}],
        )

    message = str(raised.value)
    assert "no recorded request matches POST https://api.anthropic.com/v1/messages" in message
    assert "(by meaning, anthropic's request in the core)" in message
    assert (
        "the closest is interactions[0], POST https://api.openai.com/v1/chat/completions" in message
    )
    assert f'messages[1].parts[0].text: "Is it snowing in Oslo?" != "{asked}"' in message
    assert played.mismatches == [raised.value]


def test_compare_adds_the_model_to_what_is_matched() -> None:
    recorded = _recorded_request(load_cassette(TOOL_LOOP).interactions[0])
    body = translate_request(recorded, source="openai", target="mistral").body
    difference = r'\n  model: "mistral-large" != "gpt-4.1-mini"'
    with (
        pytest.raises(CassetteError, match=difference),
        replay(TOOL_LOOP, across_providers=True, compare=["model"]),
    ):
        send("mistral", {**body, "model": "mistral-large"}, stream=False)
    with pytest.raises(CassetteError, match="compare: unknown temperature; known: model, "):
        replay(TOOL_LOOP, across_providers=True, compare=["temperature"])


def test_use_cassette_takes_the_option() -> None:
    interaction = load_cassette(TOOL_LOOP).interactions[0]
    body = translate_request(_recorded_request(interaction), source="openai", target="groq").body
    with use_cassette(TOOL_LOOP, across_providers=True) as played:
        said = send("groq", body, stream=True)
    assert said == recorded_answer("openai", interaction).as_told_by("groq")
    assert played.requests[0].url.host == "api.groq.com"


# --- the sweep: fixtures, and a bounded choice of the corpus ---


def _corpus_picks() -> list[tuple[Path, str, int]]:
    """The first `PER_FOLDER` chat interactions of each corpus provider folder,
    files in name order (all of them when it is 0), and of a folder holding
    more than one kind (`KINDS`), of each kind."""
    picks: list[tuple[Path, str, int]] = []
    for folder in sorted(path.name for path in CORPUS.iterdir() if path.is_dir()):
        kinds = KINDS.get(folder, (None,))
        taken: dict[Any, list[tuple[Path, str, int]]] = {kind: [] for kind in kinds}
        for path in corpus_files(folder):
            for api, index, interaction in _chat_interactions(path):
                kind = (api, interaction.is_stream) if folder in KINDS else None
                if kind in taken:
                    taken[kind].append((path, api, index))
            if PER_FOLDER and all(len(found) >= PER_FOLDER for found in taken.values()):
                break
        for found in taken.values():
            picks += found[:PER_FOLDER] if PER_FOLDER else found
    return picks


# Bedrock's folder: InvokeModel with Claude's bodies, and Converse, whole and streamed.
KINDS: dict[str, tuple[tuple[str, bool], ...]] = {
    "bedrock": (
        ("anthropic-bedrock", False),
        ("anthropic-bedrock", True),
        ("bedrock", False),
        ("bedrock", True),
    )
}


def _sweep_params() -> list[Any]:
    found = [
        (path, api, index)
        for path in sorted(FIXTURES.glob("*/*.json"))
        for api, index, _ in _chat_interactions(path)
    ]
    corpus = _corpus_picks() if CORPUS.is_dir() else []
    params = []
    for path, source, index in [*found, *corpus]:
        base = ("fixtures", FIXTURES) if path.is_relative_to(FIXTURES) else ("corpus", CORPUS)
        where = f"{base[0]}/{path.relative_to(base[1]).as_posix()}"
        for target, mode in SDK_MODES:
            if target != source:
                test_id = f"{where}[{index}]->{target}-{mode}"
                params.append(pytest.param(path, index, source, target, mode, id=test_id))
    return params


def test_the_corpus_is_swept() -> None:
    """The sweep took interactions of the corpus (it skips when the corpus is absent)."""
    require_corpus()
    assert {path.relative_to(CORPUS).parts[0] for path, _, _ in _corpus_picks()} >= {
        "anthropic",
        "google",
        "openai-chat",
    }


@pytest.mark.parametrize(("path", "index", "source", "target", "mode"), _sweep_params())
def test_a_recorded_answer_reaches_each_sdk(
    path: Path, index: int, source: str, target: str, mode: str
) -> None:
    interaction = cassette(path).interactions[index]
    body = _recorded_request(interaction)
    try:
        translation = translate_request(body, source=source, target=target)
    except InvalidDataError as error:
        pytest.skip(f"{target} refuses the request: {error}")
    _skip_what_cannot_be_carried(body, source, translation, target)
    with replay([interaction], across_providers=True) as played:
        said = send(target, translation.body, MODES[mode])
    expected = recorded_answer(source, interaction).as_told_by(target)
    if any(loss.path == "finish_reason" for loss in played.losses):
        expected.finish = said.finish  # the asking API has no word for it: reported
    assert said == expected
    assert played.done


def _skip_what_cannot_be_carried(
    body: dict[str, Any], source: str, translation: Any, target: str
) -> None:
    """Skip the pair when the translation lost (reporting it) some of what is
    compared, the content; a difference with no content loss reported (none,
    or a setting or a hint alone) is left to fail the test."""
    asked = get_adapter(target).decode_request(translation.body)
    first = next(
        Matcher().differences(meaning(asked), meaning(get_adapter(source).decode_request(body))),
        None,
    )
    content = [loss for loss in translation.losses if loss.level == "content"]
    if first is not None and content:
        losses = "; ".join(f"{loss.path}: {loss.reason}" for loss in content)
        pytest.skip(f"{target} cannot carry it ({first}): {losses}")


def test_said_compares_what_differs() -> None:
    """The sweep's comparison can fail: another text, call or finish is not equal."""
    said = Said("Sunny.", [("get_weather", {"city": "Paris"})], "stop")
    assert said != Said("Rainy.", said.calls, "stop")
    assert said != Said("Sunny.", [("get_weather", {"city": "Rome"})], "stop")
    assert said.as_told_by("google") == said != Said("Sunny.", said.calls, "length")


# --- the comparable view ---

ANTHROPIC_TURN: dict[str, Any] = {
    "model": "claude-sonnet-4-6",
    "max_tokens": 500,
    "temperature": 0.5,
    "system": [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Use tools."}],
    "tools": [{"name": "get_weather", "description": "Weather.", "input_schema": SCHEMA}],
    "messages": [
        {
            "role": "user",
            "content": [{"type": "text", "text": "Paris?"}, {"type": "text", "text": "And Rome?"}],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Two cities.", "signature": "c2ln"},
                {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": PARIS},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "Sunny"},
                {"type": "text", "text": "Thanks."},
            ],
        },
    ],
}
CHAT_TURN: dict[str, Any] = {
    "model": "gpt-4.1-mini",
    "temperature": 1,
    "messages": [
        {"role": "developer", "content": "Be brief.\n\nUse tools."},
        {"role": "user", "content": "Paris?\n\nAnd Rome?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_9",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{ "city" : "Paris" }'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_9", "content": "Sunny"},
        {"role": "user", "content": "Thanks."},
    ],
    "tools": [
        {
            "type": "function",
            "function": {"name": "get_weather", "description": "Weather", "parameters": SCHEMA},
        }
    ],
}


def test_one_conversation_in_two_apis_means_the_same() -> None:
    """System field or message, split or joined texts, ids, argument whitespace,
    reasoning, a result as a tool message or a user block: none counts."""
    anthropic_view = meaning(get_adapter("anthropic").decode_request(ANTHROPIC_TURN))
    chat_view = meaning(get_adapter("openai").decode_request(CHAT_TURN))
    assert (
        anthropic_view
        == chat_view
        == {
            "messages": [
                {"role": "system", "parts": [{"type": "text", "text": "Be brief.\n\nUse tools."}]},
                {"role": "user", "parts": [{"type": "text", "text": "Paris?\n\nAnd Rome?"}]},
                {
                    "role": "assistant",
                    "parts": [
                        {"type": "tool_call", "call": 1, "name": "get_weather", "arguments": PARIS}
                    ],
                },
                {
                    "role": "user",
                    "parts": [
                        {
                            "type": "tool_result",
                            "call": 1,
                            "content": [{"type": "text", "text": "Sunny"}],
                        },
                        {"type": "text", "text": "Thanks."},
                    ],
                },
            ],
            "tools": [{"name": "get_weather", "parameters": SCHEMA}],
        }
    )


@pytest.mark.parametrize(
    ("option", "field", "anthropic_value", "chat_value"),
    [
        ("model", "model", "claude-sonnet-4-6", "gpt-4.1-mini"),
        ("settings", "temperature", 0.5, 1),
        ("limits", "max_tokens", 500, None),
        ("descriptions", "tools[0].description", "Weather.", "Weather"),
        ("ids", "messages[2].parts[0].call", "toolu_01A", "call_9"),
    ],
)
def test_compare_adds_what_is_left_out(
    option: str, field: str, anthropic_value: Any, chat_value: Any
) -> None:
    anthropic_request = get_adapter("anthropic").decode_request(ANTHROPIC_TURN)
    chat_request = get_adapter("openai").decode_request(CHAT_TURN)
    differences = Matcher().differences(
        meaning(anthropic_request, [option]), meaning(chat_request, [option])
    )
    assert [(d.field, d.sent, d.recorded) for d in differences][:1] == [
        (field, anthropic_value, chat_value)
    ]


@pytest.mark.interlingua(across_providers=True)
def test_the_marker_takes_the_option(interlingua_cassette: Any) -> None:
    interaction = load_cassette(TOOL_LOOP).interactions[0]
    body = translate_request(_recorded_request(interaction), source="openai", target="google")
    said = send("google", body.body, stream=False)
    assert said == recorded_answer("openai", interaction).as_told_by("google")
    assert "generativelanguage.googleapis.com" in str(interlingua_cassette.requests[0].url)


@pytest.fixture
def interlingua_cassette_name() -> str:
    return TOOL_LOOP.stem


@pytest.fixture(scope="module")
def interlingua_cassette_dir() -> Path:
    return TOOL_LOOP.parent


def test_each_recorded_answer_serves_once_unless_repeats_are_allowed() -> None:
    interaction = load_cassette(TOOL_LOOP).interactions[0]
    body = translate_request(_recorded_request(interaction), source="openai", target="anthropic")
    expected = recorded_answer("openai", interaction).as_told_by("anthropic")
    with replay(TOOL_LOOP, across_providers=True) as once:
        assert send("anthropic", body.body, stream=False) == expected
        with pytest.raises(anthropic.APIConnectionError):  # the SDK wraps the mismatch
            send("anthropic", body.body, stream=False)
        (refused,) = once.mismatches
        once.mismatches.clear()  # seen here: not raised again on leaving
    assert "interactions[0], POST https://api.openai.com/v1/chat/completions" in str(refused)
    assert "(answered already; allow_playback_repeats=True answers it again)" in str(refused)
    with replay(TOOL_LOOP, across_providers=True, allow_playback_repeats=True) as played:
        said = [send("anthropic", body.body, stream=stream) for stream in (False, True)]
    assert said == [expected, expected]
    assert not played.done  # the second answer was never asked for


def test_reasoning_in_think_tags_and_blank_texts_say_nothing() -> None:
    def chat(*assistant: Any) -> dict[str, Any]:
        return meaning(
            get_adapter("openai").decode_request(
                {"model": "m", "messages": [{"role": "user", "content": "Hi"}, *assistant]}
            )
        )

    said = chat({"role": "assistant", "content": "Hello."})
    assert chat({"role": "assistant", "content": "<think>\nGreet.\n</think>\n\nHello."}) == said
    parts = [{"type": "text", "text": "\n\n"}, {"type": "text", "text": "Hello."}]
    assert chat({"role": "assistant", "content": parts}) == said
    assert chat({"role": "assistant", "content": "Hello!"}) != said


def test_a_message_that_says_nothing_leaves_the_turns_beside_it_in_a_row() -> None:
    """Gemini's empty model turn between two user turns, which the other APIs
    leave out (a hint: it says nothing), means the user's two texts in a row."""
    contents = [
        {"role": "user", "parts": [{"text": "Hi"}]},
        {"role": "model", "parts": [{"text": ""}]},
        {"role": "user", "parts": [{"text": "Was your previous response empty?"}]},
    ]
    recorded = meaning(get_adapter("google").decode_request({"contents": contents}))
    together = {"role": "user", "content": "Hi\n\nWas your previous response empty?"}
    sent = meaning(get_adapter("openai").decode_request({"model": "m", "messages": [together]}))
    assert sent == recorded
    worded = {**together, "content": "Hi\n\nWas your previous answer empty?"}
    other = meaning(get_adapter("openai").decode_request({"model": "m", "messages": [worded]}))
    assert other != recorded


# A Responses history as pydantic-ai sends it to DeepSeek: each earlier
# assistant text, reasoning in <think> tags, an item of its own, then the calls.
RESPONSES_THINK_ITEMS: dict[str, Any] = {
    "model": "deepseek-v4-flash",
    "stream": False,
    "input": [
        {"content": "<think>\ninspect inputs\n</think>", "role": "assistant"},
        {"content": "<think>\ninspect views\n</think>", "role": "assistant"},
        {"arguments": '{"path":"a"}', "call_id": "call-a", "name": "read", "type": "function_call"},
        {"arguments": '{"path":"b"}', "call_id": "call-b", "name": "view", "type": "function_call"},
        {"call_id": "call-a", "output": "contents-a", "type": "function_call_output"},
        {"call_id": "call-b", "output": "contents-b", "type": "function_call_output"},
        {"content": "Reply exactly: done", "role": "user"},
    ],
}


@pytest.mark.parametrize("target", ["anthropic", "google", "groq", "deepseek"])
def test_think_tags_say_nothing_in_assistant_turns_joined_or_not(target: str) -> None:
    """Anthropic and Gemini join the assistant items into one turn, DeepSeek opens
    each with its empty reasoning, Groq reads the tags as reasoning: each text's
    opening <think> is reasoning, wherever the text ends up in the turn."""
    source = get_adapter("openai-responses").decode_request(RESPONSES_THINK_ITEMS)
    sent = translate_request(RESPONSES_THINK_ITEMS, source="openai-responses", target=target)
    asked = get_adapter(target).decode_request(sent.body)
    calls = [item for item in RESPONSES_THINK_ITEMS["input"] if item.get("type") == "function_call"]
    assistant = meaning(asked)["messages"][0]
    assert assistant == {
        "role": "assistant",
        "parts": [
            {
                "type": "tool_call",
                "call": number,
                "name": call["name"],
                "arguments": json.loads(call["arguments"]),
            }
            for number, call in enumerate(calls, 1)
        ],
    }
    assert meaning(asked) == meaning(source)


# --- a recording in the core's terms, answered the same way ---


@pytest.mark.parametrize(("api", "mode"), SDK_MODES)
def test_a_neutral_recording_answers_each_sdk(api: str, mode: str, tmp_path: Path) -> None:
    """The tool loop written as a provider-neutral cassette answers as the wire
    recording does: what the SDK gets is read from the recorded wire."""
    interactions = load_cassette(TOOL_LOOP).interactions
    neutral = tmp_path / "tool_loop.json"
    write_cassette(neutral, interactions, neutral=True)
    with replay(neutral, across_providers=True) as played:
        for interaction in interactions:
            body = translate_request(_recorded_request(interaction), source="openai", target=api)
            said = send(api, body.body, MODES[mode])
            assert said == recorded_answer("openai", interaction).as_told_by(api)
    assert played.done


def test_a_neutral_recording_is_answered_by_meaning_alone(tmp_path: Path) -> None:
    neutral = tmp_path / "tool_loop.json"
    write_cassette(neutral, load_cassette(TOOL_LOOP).interactions, neutral=True)
    with pytest.raises(CassetteError, match="replay it with across_providers=True"):
        replay(neutral)


def test_a_changed_text_is_refused_by_a_neutral_recording(tmp_path: Path) -> None:
    neutral = tmp_path / "tool_loop.json"
    interactions = load_cassette(TOOL_LOOP).interactions
    write_cassette(neutral, interactions, neutral=True)
    body = translate_request(
        _recorded_request(interactions[0]), source="openai", target="anthropic"
    )
    changed = json.loads(json.dumps(body.body).replace("Lisbon", "Porto"))
    with (
        pytest.raises(CassetteError, match=r"recorded in the core's terms(.|\n)*messages\[\d\]"),
        replay(neutral, across_providers=True),
    ):
        send("anthropic", changed, False)
