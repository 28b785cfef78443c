"""`interlingua convert`, `validate` and `inspect`, run in-process as a user
runs them: on request and answer bodies, recorded streams, saved histories,
the project's fixtures and the recorded corpus; standard input as `-`; each
error one line with exit status 2; `--help` of each command with an example."""

from __future__ import annotations

import base64
import importlib
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from typer.testing import CliRunner

from conftest import (
    ANTHROPIC_TOOL_TURN,
    FIXTURES,
    corpus_id,
    corpus_params,
    from_corpus,
    recorded,
    require_corpus,
)
from interlingua import (
    ChatHistory,
    ChatRequest,
    Message,
    ToolCallPart,
    TranslationReport,
    format_sse,
    get_adapter,
    translate_request,
    translate_response,
    translate_stream,
    validate_request,
)
from interlingua.cli import app
from interlingua.cli._inspect import provider_of
from interlingua.testing import load_cassette

BODY = ANTHROPIC_TOOL_TURN


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=input, env={"COLUMNS": "100"})


def write(folder: Path, name: str, value: Any) -> Path:
    path = folder / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


def loss_lines(losses: Any) -> str:
    return "".join(f"{loss.path}: {loss.kind} ({loss.level}): {loss.reason}\n" for loss in losses)


def unstamped(body: dict[str, Any], since: int) -> dict[str, Any]:
    """An answer for Chat Completions made from one that carries no time, without the
    `created` each translation stamps when it runs (checked to be that time)."""
    body = dict(body)
    assert since <= body.pop("created") <= time.time()
    return body


# --- convert ---


def test_convert_writes_the_target_body_and_the_losses_apart(tmp_path: Path) -> None:
    expected = translate_request(BODY, source="anthropic", target="mistral")

    result = run(
        "convert", "--from", "anthropic", "--to", "mistral", str(write(tmp_path, "r.json", BODY))
    )

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == expected.body
    assert result.stdout.startswith('{\n  "model": "claude-sonnet-4-6"')
    assert result.stderr == loss_lines(expected.losses)
    assert result.stderr.splitlines()[0].startswith("messages[1].parts[0]: dropped (setting): ")


def test_convert_reads_standard_input_and_can_change_the_model() -> None:
    result = run(
        "convert", "--from", "anthropic", "--to", "openai", "--model", "gpt-4.1", "-",
        input=json.dumps(BODY),
    )  # fmt: skip

    assert result.exit_code == 0, result.stderr
    body = json.loads(result.stdout)
    assert body["model"] == "gpt-4.1"
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "tool"]


def test_strict_fails_with_status_1_on_the_first_loss_and_writes_no_body(tmp_path: Path) -> None:
    path = write(tmp_path, "r.json", BODY)

    result = run("convert", "--from", "anthropic", "--to", "mistral", "--strict", str(path))
    lossless = run("convert", "--from", "anthropic", "--to", "anthropic", "--strict", str(path))

    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        "interlingua convert: strict: messages[1].parts[0]: cannot send to mistral "
        "(dropped, setting): "
        "mistral takes no reasoning back (made by anthropic)\n"
    )
    assert lossless.exit_code == 0
    assert json.loads(lossless.stdout) == BODY


def test_strict_takes_the_level_it_fails_from(tmp_path: Path) -> None:
    # To Mistral: Anthropic's thinking left out (a setting), the ids rewritten (hints).
    path = write(tmp_path, "r.json", BODY)
    expected = translate_request(BODY, source="anthropic", target="mistral")
    assert [loss.level for loss in expected.losses] == ["setting", "hint", "hint"]

    content = run(
        "convert", "--from", "anthropic", "--strict", "content", "--to", "mistral", str(path)
    )
    setting = run(
        "convert", "--from", "anthropic", "--to", "mistral", "--strict", "setting", str(path)
    )
    anything = run("convert", "--from", "anthropic", "--to", "mistral", str(path), "--strict")

    assert content.exit_code == 0, content.stderr
    assert json.loads(content.stdout) == expected.body
    assert content.stderr == loss_lines(expected.losses)
    assert content.stderr.splitlines()[1].startswith(
        "messages[1].parts[1].id: transformed (hint): "
    )
    assert (setting.exit_code, setting.stdout) == (1, "")
    assert setting.stderr.startswith(
        "interlingua convert: strict: messages[1].parts[0]: cannot send to mistral "
        "(dropped, setting): "
    )
    assert (anything.exit_code, anything.stderr) == (1, setting.stderr)


def test_validate_lists_the_problems_from_the_level_asked(tmp_path: Path) -> None:
    path = write(tmp_path, "r.json", BODY)

    setting = run(
        "validate", "--from", "anthropic", "--to", "mistral", "--strict", "setting", str(path)
    )
    content = run(
        "validate", "--from", "anthropic", "--to", "mistral", "--strict", "content", str(path)
    )

    assert setting.exit_code == 1
    assert [line.split(": ")[0] for line in setting.stdout.splitlines()] == [
        "messages[1].parts[0] (setting)"
    ]
    assert (content.exit_code, content.stdout) == (0, "")


def test_convert_an_answer_body(tmp_path: Path) -> None:
    answer = recorded("anthropic/tool_round_trip_with_thinking.json")[0].response.json
    since = int(time.time())
    expected = translate_response(answer, source="anthropic", target="openai")

    result = run(
        "convert", "--from", "anthropic", "--to", "openai", str(write(tmp_path, "a.json", answer))
    )

    assert result.exit_code == 0, result.stderr
    # Anthropic's answer carries no time: each translation stamps `created` when it runs.
    assert unstamped(json.loads(result.stdout), since) == unstamped(expected.body, since)
    assert json.loads(result.stdout)["choices"][0]["finish_reason"] == "tool_calls"
    assert result.stderr == loss_lines(expected.losses)


def _stream() -> Any:
    (interaction,) = recorded("openai/chat_stream_parallel_tool_calls.json")
    return interaction.response


def test_convert_a_stream_of_server_sent_events_writes_server_sent_events(tmp_path: Path) -> None:
    response = _stream()
    sse = "".join(f"data: {event.data}\n\n" for event in response.events)
    events = translate_stream(response.stream_payloads(), source="openai", target="anthropic")

    result = run(
        "convert", "--from", "openai", "--to", "anthropic", str(write(tmp_path, "s.txt", sse))
    )

    assert result.exit_code == 0, result.stderr
    assert result.stdout == b"".join(format_sse(events)).decode()
    assert result.stdout.startswith("event: message_start\n")
    assert result.stdout.count("event: content_block_start") == 2


def test_convert_a_stream_as_a_json_array_of_payloads() -> None:
    payloads = _stream().stream_payloads()

    result = run(
        "convert", "--from", "openai", "--to", "anthropic", "-", input=json.dumps(payloads)
    )

    assert result.exit_code == 0, result.stderr
    converted = json.loads(result.stdout)
    assert [event["type"] for event in converted][:1] == ["message_start"]
    assert converted[-1] == {"type": "message_stop"}


def test_convert_a_saved_history_to_a_request(tmp_path: Path) -> None:
    history = ChatHistory(messages=[Message.system("Be brief."), Message.user("Hi")])
    history.save(tmp_path / "chat.json")

    result = run(
        "convert", "--to", "anthropic", "--model", "claude-sonnet-4-6", str(tmp_path / "chat.json")
    )
    no_model = run("convert", "--to", "anthropic", str(tmp_path / "chat.json"))

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {
        "model": "claude-sonnet-4-6",
        "max_tokens": 4096,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "Hi"}],
    }
    assert result.stderr == (
        "max_tokens: transformed (setting): Anthropic requires max_tokens; 4096 sent\n"
    )
    assert no_model.exit_code == 2
    assert no_model.stderr.endswith("a saved history names no model: pass --model\n")


# --- validate ---


def test_validate_lists_each_problem_with_its_place_and_exits_1(tmp_path: Path) -> None:
    path = write(tmp_path, "r.json", BODY)
    request = translate_request(BODY, source="anthropic", target="anthropic")
    assert request.losses == []

    result = run("validate", "--from", "anthropic", "--to", "mistral", str(path))
    clean = run("validate", "--from", "anthropic", "--to", "anthropic", str(path))

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == [
        "messages[1].parts[0] (setting)",
        "messages[1].parts[1].id (hint)",
        "messages[2].parts[0].tool_call_id (hint)",
    ]
    assert [line.split(" (")[0] for line in lines] == [
        "messages[1].parts[0]",
        "messages[1].parts[1].id",
        "messages[2].parts[0].tool_call_id",
    ]
    assert lines[0].endswith("(encoding leaves it out)")
    assert lines[1].endswith("(encoding changes it)")
    assert clean.exit_code == 0
    assert clean.stdout == ""
    assert clean.stderr == f"{path}: nothing anthropic would refuse\n"


def test_validate_a_history_that_must_be_mended(tmp_path: Path) -> None:
    unanswered = ChatRequest(
        model="mistral-large-latest",
        messages=(Message.user("Go"), Message.assistant(ToolCallPart(id="call_1", name="f"))),
    )
    (problem,) = validate_request(unanswered, target="mistral")
    ChatHistory(messages=list(unanswered.messages)).save(tmp_path / "chat.json")

    result = run(
        "validate",
        "--to",
        "mistral",
        "--model",
        "mistral-large-latest",
        str(tmp_path / "chat.json"),
    )

    assert result.exit_code == 1
    assert result.stdout == (
        f"{problem.path} (content): {problem.rule} (mend the history before sending)\n"
    )


# --- inspect ---


@pytest.mark.parametrize(
    "wire",
    ["interlingua_deepseek", "interlingua_cerebras", "interlingua_openrouter",
     "interlingua_xai", "interlingua_perplexity"],
)  # fmt: skip
def test_inspect_reads_each_server_s_chat_completions_with_its_own_adapter(wire: str) -> None:
    server = importlib.import_module(f"{wire}._wire")
    url = f"{server.BASE_URL}/chat/completions"
    assert provider_of(url, None) == server.PROVIDER
    assert provider_of("https://api.openai.com/v1/chat/completions", None) == "openai"
    assert provider_of("http://localhost:8000/v1/chat/completions", None) == "openai"


def test_inspect_a_cassette_summarises_each_turn() -> None:
    result = run("inspect", str(FIXTURES / "journey.json"))

    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith(f"{FIXTURES / 'journey.json'}: a cassette of 9 interactions\n")
    names = ("Anthropic", "Chat Completions", "Mistral", "Groq", "Gemini", "Responses API")
    for name in (*names, "DeepSeek", "Amazon Bedrock"):
        assert name in out
    # A chat completions answer is read by the adapter of the host it came from.
    assert "6 POST https://api.deepseek.com/chat/completions -> 200  DeepSeek" in out
    assert "tool calls: get_weather x2, get_forecast x2" in out
    assert "reasoning: anthropic x2, groq, google, openai-responses, deepseek, bedrock" in out
    assert "usage: 6,929 in, 996 out (368 reasoning, 256 cache read)" in out


def test_inspect_as_json_from_standard_input() -> None:
    text = (FIXTURES / "groq" / "raw_think_answer.json").read_text()

    result = run("inspect", "--json", "-", input=text)

    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["file"] == "<stdin>"
    assert summary["kind"] == "cassette"
    assert [turn["provider"] for turn in summary["turns"]] == ["groq"]
    assert summary["usage"]["output_tokens"] > 0


def test_inspect_a_saved_history(tmp_path: Path) -> None:
    history = ChatHistory(
        messages=[
            Message.user("Weather?"),
            Message.assistant(ToolCallPart(id="c1", name="get_weather")),
            Message.tool_result("c1", "Sunny"),
        ]
    )
    history.save(tmp_path / "chat.json")

    result = run("inspect", "--json", str(tmp_path / "chat.json"))

    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["kind"] == "history"
    assert [turn["title"] for turn in summary["turns"]] == [
        "0 user: text 'Weather?'",
        "1 assistant: tool call get_weather",
        "2 tool: tool result",
    ]
    assert summary["parts"] == {"text": 1, "tool_call": 1, "tool_result": 1}
    assert summary["tool_calls"] == ["get_weather"]


@pytest.mark.parametrize("param", corpus_params(), ids=corpus_id)
def test_inspect_reads_every_corpus_cassette(param: Path) -> None:
    path = from_corpus(param)
    interactions = load_cassette(path).interactions

    result = run("inspect", "--json", str(path))

    assert result.exit_code == 0, result.stderr
    turns = json.loads(result.stdout)["turns"]
    assert len(turns) == len(interactions)
    assert all(turn["lines"] for turn in turns)


# Corpus folder -> the adapter of its requests, and a target to convert them to.
CORPUS_ROUTES = {
    "bedrock": ("bedrock", "anthropic"),
    "anthropic": ("anthropic", "openai"),
    "openai-chat": ("openai", "anthropic"),
    "openai-responses": ("openai-responses", "anthropic"),
    "groq": ("groq", "openai-responses"),
    "mistral": ("mistral", "anthropic"),
    "google": ("google", "anthropic"),
}
# A Gemini body names no model (it is in the URL): the command is given one.
MODELS = {"google": "claude-sonnet-4-6", "bedrock": "claude-sonnet-4-6"}  # Bedrock's too
# How the path of a request to each corpus folder's chat endpoint ends.
CHAT_PATHS = {
    "anthropic": ("/messages",),
    "openai-responses": ("/responses",),
    "google": (":generateContent", ":streamGenerateContent"),
    "bedrock": ("/converse", "/converse-stream"),  # InvokeModel's bodies are Claude's
}


def _first_request(path: Path, folder: str) -> Any:
    suffixes = CHAT_PATHS.get(folder, ("/chat/completions",))
    for interaction in load_cassette(path).interactions:
        request = interaction.request
        path_sent = interaction.path or ""
        if request is not None and isinstance(request.json, dict) and path_sent.endswith(suffixes):
            return request.json
    return None


def _translated(body: Any, source: str, target: str, model: str | None) -> Any:
    """What `convert` should write for `body`: `translate_request`'s, or with
    `model`, the decoded request on that model, encoded for `target`."""
    if model is None:
        translated = translate_request(body, source=source, target=target)
        return translated.body, translated.losses
    request = get_adapter(source).decode_request(body).model_copy(update={"model": model})
    report = TranslationReport(target=target)
    return get_adapter(target).encode_request(request, report=report), report.losses


@pytest.mark.parametrize(
    "param",
    corpus_params(
        *CORPUS_ROUTES,
        keep=lambda path: _first_request(path, path.parents[1].name) is not None,
        holding="request bodies",
    ),
    ids=corpus_id,
)
def test_convert_gives_what_translate_request_gives_for_corpus_requests(
    param: Path, tmp_path: Path
) -> None:
    path = from_corpus(param)
    folder = path.parents[1].name
    source, target = CORPUS_ROUTES[folder]
    body = _first_request(path, folder)
    model = MODELS.get(folder)
    try:
        expected: Any = _translated(body, source, target, model)
    except Exception as error:
        expected = error
    given = ["--model", model] if model else []

    result = run(
        "convert", "--from", source, "--to", target, *given, str(write(tmp_path, "r.json", body))
    )

    if isinstance(expected, Exception):
        assert result.exit_code == 2
        assert result.stderr.count("\n") == 1
    else:
        sent, losses = expected
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout) == sent
        assert result.stderr == loss_lines(losses)


# --- Gemini, taken wherever the other APIs are ---

GEMINI_LOOP = "google/tool_round_trip_with_thinking.json"
FIXES = {"dropped": "encoding leaves it out", "transformed": "encoding changes it"}


def _gemini_request() -> Any:
    """A Gemini 3 request mid tool loop: a thought, a call signed in place, its result."""
    return recorded(GEMINI_LOOP)[1].request.json


def test_convert_a_gemini_request_needs_the_model_its_url_names(tmp_path: Path) -> None:
    body = _gemini_request()
    path = write(tmp_path, "gemini.json", body)
    request = get_adapter("google").decode_request(body)
    report = TranslationReport(target="anthropic")
    expected = get_adapter("anthropic").encode_request(
        request.model_copy(update={"model": "claude-sonnet-4-6"}), report=report
    )

    result = run(
        "convert", "--from", "google", "--to", "anthropic", "--model", "claude-sonnet-4-6",
        str(path),
    )  # fmt: skip
    no_model = run("convert", "--from", "google", "--to", "anthropic", str(path))

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == expected
    assert json.loads(result.stdout)["model"] == "claude-sonnet-4-6"
    assert result.stderr == loss_lines(report.losses)
    # Gemini's thought and its signature on the call are left out, each said so.
    assert "messages[1].parts[0]: dropped (setting): " in result.stderr
    assert "messages[1].parts[1].provider_data.google.fields.thoughtSignature: dropped" in (
        result.stderr
    )
    assert no_model.exit_code == 2
    assert no_model.stdout == ""
    assert no_model.stderr == (
        f"interlingua convert: {path}: the request body names no model: pass --model\n"
    )


def test_convert_a_request_to_gemini_signs_the_calls_made_elsewhere(tmp_path: Path) -> None:
    expected = translate_request(BODY, source="anthropic", target="google")

    result = run(
        "convert", "--from", "anthropic", "--to", "google", str(write(tmp_path, "r.json", BODY))
    )

    assert result.exit_code == 0, result.stderr
    body = json.loads(result.stdout)
    assert body == expected.body
    assert result.stderr == loss_lines(expected.losses)
    (call,) = [part for part in body["contents"][1]["parts"] if "functionCall" in part]
    assert base64.b64decode(call["thoughtSignature"]) == b"skip_thought_signature_validator"
    assert "messages[1].parts[1]: transformed (hint): " in result.stderr


def test_convert_a_gemini_answer_and_an_answer_to_gemini(tmp_path: Path) -> None:
    gemini = recorded(GEMINI_LOOP)[0].response.json
    anthropic = recorded("anthropic/tool_round_trip_with_thinking.json")[0].response.json
    since = int(time.time())
    from_gemini = translate_response(gemini, source="google", target="openai")
    to_gemini = translate_response(anthropic, source="anthropic", target="google")

    out = run(
        "convert", "--from", "google", "--to", "openai", str(write(tmp_path, "g.json", gemini))
    )
    back = run(
        "convert",
        "--from",
        "anthropic",
        "--to",
        "google",
        str(write(tmp_path, "a.json", anthropic)),
    )

    assert out.exit_code == back.exit_code == 0, out.stderr + back.stderr
    # Gemini's answer carries no time either.
    converted = unstamped(json.loads(out.stdout), since)
    assert converted == unstamped(from_gemini.body, since)
    assert converted["choices"][0]["finish_reason"] == "tool_calls"
    assert out.stderr == loss_lines(from_gemini.losses)
    assert json.loads(back.stdout) == to_gemini.body
    assert "candidates" in json.loads(back.stdout)
    assert back.stderr == loss_lines(to_gemini.losses)


def test_convert_gemini_streams_both_ways(tmp_path: Path) -> None:
    (gemini,) = recorded("google/stream_parallel_tool_calls.json")
    sse = "".join(f"data: {event.data}\r\n\r\n" for event in gemini.response.events)
    from_gemini = translate_stream(
        gemini.response.stream_payloads(), source="google", target="anthropic"
    )
    payloads = _stream().stream_payloads()
    to_gemini = translate_stream(payloads, source="openai", target="google")

    out = run(
        "convert", "--from", "google", "--to", "anthropic", str(write(tmp_path, "g.txt", sse))
    )
    back = run("convert", "--from", "openai", "--to", "google", "-", input=json.dumps(payloads))

    assert out.exit_code == back.exit_code == 0, out.stderr + back.stderr
    assert out.stdout == b"".join(format_sse(from_gemini)).decode()
    assert out.stdout.count("event: content_block_start") == 3  # a text and two calls
    chunks = json.loads(back.stdout)
    assert chunks == [event.data for event in to_gemini]
    calls = [
        part["functionCall"]["name"]
        for chunk in chunks
        for candidate in chunk.get("candidates", [])
        for part in candidate.get("content", {}).get("parts", [])
        if "functionCall" in part
    ]
    assert calls == ["get_weather", "get_time"]


def test_validate_a_request_for_gemini_and_a_gemini_request(tmp_path: Path) -> None:
    gemini = write(tmp_path, "gemini.json", _gemini_request())
    request = get_adapter("google").decode_request(_gemini_request())
    problems = validate_request(request.model_copy(update={"model": "m"}), target="mistral")

    to_gemini = run(
        "validate", "--from", "anthropic", "--to", "google", str(write(tmp_path, "r.json", BODY))
    )
    from_gemini = run(
        "validate", "--from", "google", "--to", "mistral", "--model", "m", str(gemini)
    )

    assert to_gemini.exit_code == 1
    assert [line.split(" (")[0] for line in to_gemini.stdout.splitlines()] == [
        "messages[1].parts[0]",  # Anthropic's thinking
        "messages[1].parts[1]",  # the call, sent with Google's dummy signature
    ]
    assert from_gemini.exit_code == 1
    assert from_gemini.stdout.splitlines() == [
        f"{problem.path} ({problem.level}): {problem.rule} ({FIXES[problem.fix]})"
        for problem in problems
    ]
    assert {problem.fix for problem in problems} == {"dropped", "transformed"}


@pytest.mark.parametrize(
    "name",
    sorted(path.name for path in (FIXTURES / "google").glob("*.json")),
)
def test_inspect_reads_each_gemini_recording_as_gemini(name: str) -> None:
    interactions = recorded(f"google/{name}")

    result = run("inspect", "--json", str(FIXTURES / "google" / name))

    assert result.exit_code == 0, result.stderr
    turns = json.loads(result.stdout)["turns"]
    assert [turn["provider"] for turn in turns] == ["google"] * len(interactions)
    for turn, interaction in zip(turns, interactions, strict=True):
        if interaction.response.status >= 400:
            error = interaction.response.json["error"]
            (line,) = turn["lines"]
            assert line.startswith(f"error: google {error['code']} {error['status']}: ")
            assert " ".join(error["message"].splitlines()[0].split()) in line
        else:
            assert turn["lines"][-1].startswith("finished: ")
            usage = (interaction.response.json or interaction.response.stream_payloads()[-1])[
                "usageMetadata"
            ]
            assert turn["usage"]["input_tokens"] == usage["promptTokenCount"]


def test_inspect_tells_a_gemini_answer_by_its_shape(tmp_path: Path) -> None:
    answer = recorded(GEMINI_LOOP)[1].response.json

    path = write(tmp_path, "answer.json", answer)

    result = run("inspect", str(path))
    as_json = run("inspect", "--json", str(path))

    assert result.exit_code == as_json.exit_code == 0, result.stderr
    assert " ".join(result.stdout.split()).startswith(
        f"{path}: a cassette of 1 interaction 0 a response only -> 200 Gemini "
    )
    (turn,) = json.loads(as_json.stdout)["turns"]
    assert turn["provider"] == "google"
    assert turn["lines"] == [
        f"text {answer['candidates'][0]['content']['parts'][0]['text']!r}",
        f"finished: stop ({answer['candidates'][0]['finishReason']})",
    ]


# --- errors and help ---


@pytest.mark.parametrize(
    ("args", "input", "message"),
    [
        (["convert", "--from", "openai", "--to", "anthropic", "missing.json"], None,
         "interlingua convert: missing.json: no such file"),
        (["convert", "--from", "openai", "--to", "anthropic", "-"], '{"model": ',
         "interlingua convert: <stdin>: not JSON: Expecting value at line 1 column 11"),
        (["convert", "--to", "anthropic", "-"], json.dumps(BODY),
         "interlingua convert: <stdin>: a request body needs --from (its API's adapter)"),
        (["convert", "--from", "anthropic", "--to", "gemini", "-"], json.dumps(BODY),
         # The installed ones, which other tests may add to: their first names.
         "interlingua convert: no adapter named 'gemini' (installed: anthropic, "
         "anthropic-bedrock, anthropic-vertex, bedrock, cerebras, "),
        (["validate", "--from", "anthropic", "--to", "openai", "-"], "[1, 2]",
         "interlingua validate: <stdin>: expected a request body or a saved history"),
        (["convert", "--from", "anthropic", "--to", "openai", "-"], '{"messages": 3}',
         "interlingua convert: <stdin>: invalid "),
        (["inspect", "-"], "interactions: [1]",
         "interlingua inspect: <stdin>: "),
    ],
)  # fmt: skip
def test_an_error_is_one_line_naming_the_input_and_status_2(
    args: list[str], input: str | None, message: str
) -> None:
    result = run(*args, input=input)

    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_debug_shows_the_traceback() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "interlingua.cli", "convert", "--debug", "--from", "openai",
         "--to", "anthropic", "missing.json"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip

    assert result.returncode == 1
    assert "Traceback (most recent call last)" in result.stderr
    assert result.stderr.rstrip().endswith("InputError: missing.json: no such file")


@pytest.mark.parametrize(
    ("adapter", "module", "distribution"),
    [
        ("mistral", "interlingua_mistral", "interlingua-mistral"),
        ("google", "interlingua_google", "interlingua-google"),
        ("bedrock", "interlingua_bedrock", "interlingua-bedrock"),
    ],
)
def test_a_missing_adapter_is_named_with_the_command_that_installs_it(
    adapter: str, module: str, distribution: str
) -> None:
    # The environment of a user who installed the core alone: the adapter's module
    # cannot be imported.
    code = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from interlingua.cli import main\n"
        f"sys.argv = ['interlingua', 'convert', '--from', 'openai', '--to', {adapter!r}, '-']\n"
        "main()\n"
    )
    body = json.dumps({"model": "gpt-4.1", "messages": [{"role": "user", "content": "Hi"}]})

    result = subprocess.run(
        [sys.executable, "-c", code], input=body, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 2
    assert result.stderr == (
        f"interlingua convert: the {adapter!r} adapter is not installed: "
        f"pip install {distribution}\n"
    )


@pytest.mark.parametrize(
    ("command", "example"),
    [
        ([], "Example: interlingua demo"),
        (["demo"], "Example: interlingua demo"),
        (["convert"], "Example: interlingua convert --from anthropic --to openai"),
        (["convert"], "openai-responses, mistral, groq, google."),
        (["validate"], "Example: interlingua validate --from anthropic --to mistral"),
        (["inspect"], "Example: interlingua inspect fixtures/journey.json"),
    ],
)
def test_help_of_each_command_shows_an_example(command: list[str], example: str) -> None:
    result = run(*command, "--help")

    assert result.exit_code == 0
    assert example in " ".join(result.stdout.split())


def test_the_command_line_imports_no_provider_sdk_until_the_demo_runs() -> None:
    code = (
        "import sys, interlingua.cli\n"
        "heavy = {'openai', 'anthropic', 'mistralai', 'groq', 'google.genai', 'httpx', 'httpx2',"
        " 'respx'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


# --- Bedrock's Converse, taken wherever the other APIs are ---

CONVERSE = "bedrock/converse_boto3.json"
CONVERSE_STREAM = FIXTURES / "bedrock" / "stream_citations.json"  # the events boto3 yields
NOVA = "us.amazon.nova-micro-v1:0"


def test_convert_a_converse_request_needs_the_model_its_url_names(tmp_path: Path) -> None:
    (call,) = recorded(CONVERSE)
    assert call.request is not None
    body = call.request.json
    path = write(tmp_path, "converse.json", body)
    request = get_adapter("bedrock").decode_request(body)
    report = TranslationReport(target="anthropic")
    expected = get_adapter("anthropic").encode_request(
        request.model_copy(update={"model": "claude-sonnet-4-6"}), report=report
    )

    result = run(
        "convert", "--from", "bedrock", "--to", "anthropic", "--model", "claude-sonnet-4-6",
        str(path),
    )  # fmt: skip
    no_model = run("convert", "--from", "bedrock", "--to", "anthropic", str(path))

    assert result.exit_code == 0, result.stderr
    sent = json.loads(result.stdout)
    assert sent == expected
    # What the Converse body says, in Anthropic's fields.
    assert sent["system"] == body["system"][0]["text"]
    assert sent["messages"] == [
        {"role": "user", "content": body["messages"][0]["content"][0]["text"]}
    ]
    assert (sent["max_tokens"], sent["temperature"]) == (
        body["inferenceConfig"]["maxTokens"],
        body["inferenceConfig"]["temperature"],
    )
    assert result.stderr == loss_lines(report.losses)
    assert no_model.exit_code == 2
    assert no_model.stderr == (
        f"interlingua convert: {path}: the request body names no model: pass --model\n"
    )


def test_convert_a_request_to_converse_writes_no_model(tmp_path: Path) -> None:
    result = run(
        "convert", "--from", "anthropic", "--to", "bedrock", str(write(tmp_path, "a.json", BODY))
    )
    expected = translate_request(BODY, source="anthropic", target="bedrock")

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == expected.body
    assert "model" not in json.loads(result.stdout)
    assert result.stderr == loss_lines(expected.losses)


def test_validate_a_converse_request_for_anthropic(tmp_path: Path) -> None:
    (call,) = recorded(CONVERSE)
    assert call.request is not None
    # Without its limit: Anthropic requires max_tokens, Converse does not.
    body = {key: value for key, value in call.request.json.items() if key != "inferenceConfig"}
    path = write(tmp_path, "converse.json", body)

    result = run("validate", "--from", "bedrock", "--to", "anthropic", "--model", NOVA, str(path))
    clean = run("validate", "--from", "bedrock", "--to", "bedrock", "--model", NOVA, str(path))

    assert result.exit_code == 1
    assert [line.split(": ")[0] for line in result.stdout.splitlines()] == ["max_tokens (setting)"]
    assert result.stdout.rstrip().endswith("(encoding changes it)")
    assert clean.exit_code == 0, clean.stdout
    assert clean.stderr == f"{path}: nothing bedrock would refuse\n"


def test_convert_a_converse_answer_and_an_answer_to_converse(tmp_path: Path) -> None:
    (call,) = recorded(CONVERSE)
    body = call.response.json
    there = translate_response(body, source="bedrock", target="anthropic")

    result = run(
        "convert", "--from", "bedrock", "--to", "anthropic", str(write(tmp_path, "a.json", body))
    )
    back = run("convert", "--from", "anthropic", "--to", "bedrock", "-", input=result.stdout)

    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer == there.body
    assert answer["content"] == [
        {"type": "text", "text": body["output"]["message"]["content"][0]["text"]}
    ]
    assert answer["stop_reason"] == body["stopReason"]
    assert (answer["usage"]["input_tokens"], answer["usage"]["output_tokens"]) == (
        body["usage"]["inputTokens"],
        body["usage"]["outputTokens"],
    )
    assert result.stderr == loss_lines(there.losses)
    assert back.exit_code == 0, back.stderr
    assert json.loads(back.stdout)["output"] == body["output"]


def test_convert_a_converse_stream_as_boto3_yields_it(tmp_path: Path) -> None:
    events = json.loads(CONVERSE_STREAM.read_text(encoding="utf-8"))["events"]
    report = TranslationReport(target="anthropic")
    expected = list(translate_stream(events, source="bedrock", target="anthropic", report=report))

    result = run(
        "convert", "--from", "bedrock", "--to", "anthropic", str(write(tmp_path, "s.json", events))
    )
    back = run("convert", "--from", "anthropic", "--to", "bedrock", "-", input=result.stdout)

    assert result.exit_code == 0, result.stderr
    written = json.loads(result.stdout)
    # A Converse stream has no id: each writing gives it a new one of Anthropic's form.
    made_id = written[0]["message"]["id"]
    assert re.fullmatch(r"msg_[0-9a-f]{50}", made_id)
    expected[0].data["message"]["id"] = made_id
    assert written == [event.data for event in expected]
    assert result.stderr == loss_lines(report.losses)
    assert back.exit_code == 0, back.stderr
    said = "".join(
        e["contentBlockDelta"]["delta"].get("text", "") for e in events if "contentBlockDelta" in e
    )
    again = json.loads(back.stdout)
    assert (
        "".join(
            e["contentBlockDelta"]["delta"].get("text", "")
            for e in again
            if "contentBlockDelta" in e
        )
        == said
    )


BEDROCK_CASSETTES = {
    # file: (the API its call speaks, streamed)
    "openllmetry/test_meta_converse.yaml": ("bedrock", False),
    "openllmetry/test_meta_converse_stream.yaml": ("bedrock", True),
    "openllmetry/test_anthropic_3_completion_string_content.yaml": ("anthropic-bedrock", False),
    "openllmetry/test_anthropic_3_completion_streaming.yaml": ("anthropic-bedrock", True),
}


def bedrock_text(api: str, payloads: Any) -> str:
    """The answer's text, read from the recorded wire: Converse's blocks or deltas,
    or Claude's body or its events (base64 in InvokeModel's chunks)."""
    if isinstance(payloads, dict):
        blocks = (
            payloads["output"]["message"]["content"] if api == "bedrock" else payloads["content"]
        )
        return "".join(block["text"] for block in blocks if "text" in block)
    if api == "bedrock":
        deltas = [p["contentBlockDelta"]["delta"] for p in payloads if "contentBlockDelta" in p]
        return "".join(delta.get("text", "") for delta in deltas)
    events = [json.loads(base64.b64decode(p["chunk"]["bytes"])) for p in payloads]
    return "".join(e["delta"].get("text", "") for e in events if e["type"] == "content_block_delta")


@pytest.mark.parametrize("name", sorted(BEDROCK_CASSETTES))
def test_inspect_reads_a_bedrock_cassette_whole_and_streamed(name: str) -> None:
    path = require_corpus("bedrock") / name
    api, streamed = BEDROCK_CASSETTES[name]
    (call,) = load_cassette(path).interactions
    wire = call.response.stream_payloads() if streamed else call.response.json

    result = run("inspect", "--json", str(path))

    assert result.exit_code == 0, result.stderr
    (turn,) = json.loads(result.stdout)["turns"]
    assert turn["provider"] == api
    assert turn["title"].endswith(" -> 200 (streamed)" if streamed else " -> 200")
    text = bedrock_text(api, wire)
    shown = turn["lines"][0].removeprefix("text '").removesuffix("'").removesuffix("…")
    assert shown
    assert " ".join(text.split()).startswith(shown)  # on one line
    assert turn["usage"]["output_tokens"] > 0


@pytest.mark.parametrize("name", sorted(BEDROCK_CASSETTES))
def test_convert_a_bedrock_cassette_to_neutral(name: str) -> None:
    path = require_corpus("bedrock") / name
    api, streamed = BEDROCK_CASSETTES[name]
    (call,) = load_cassette(path).interactions
    model = unquote(call.path.split("/model/", 1)[1].rsplit("/", 1)[0])

    result = run("convert", "--to", "neutral", str(path))

    assert result.exit_code == 0, result.stderr
    (item,) = json.loads(result.stdout)["interactions"]
    assert (item["provider"], item["model"], item["status"]) == (api, model, 200)
    assert ("events" in item, "response" in item) == (streamed, not streamed)
