"""`interlingua convert`, `validate` and `inspect`, run in-process as a user
runs them: on request and answer bodies, recorded streams, saved histories,
the project's fixtures and the recorded corpus; standard input as `-`; each
error one line with exit status 2; `--help` of each command with an example."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import ANTHROPIC_TOOL_TURN, FIXTURES, corpus_id, corpus_params, from_corpus, recorded
from interlingua import (
    ChatHistory,
    ChatRequest,
    Message,
    ToolCallPart,
    available_adapters,
    format_sse,
    translate_request,
    translate_response,
    translate_stream,
    validate_request,
)
from interlingua.cli import app
from interlingua.testing import load_cassette

BODY = ANTHROPIC_TOOL_TURN


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=input, env={"COLUMNS": "100"})


def write(folder: Path, name: str, value: Any) -> Path:
    path = folder / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


def loss_lines(losses: Any) -> str:
    return "".join(f"{loss.path}: {loss.kind}: {loss.reason}\n" for loss in losses)


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
    assert result.stderr.splitlines()[0].startswith("messages[1].parts[0]: dropped: ")


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
        "interlingua convert: strict: messages[1].parts[0]: cannot send to mistral (dropped): "
        "mistral takes no reasoning back (made by anthropic)\n"
    )
    assert lossless.exit_code == 0
    assert json.loads(lossless.stdout) == BODY


def test_convert_an_answer_body(tmp_path: Path) -> None:
    answer = recorded("anthropic/tool_round_trip_with_thinking.json")[0].response.json
    expected = translate_response(answer, source="anthropic", target="openai")

    result = run(
        "convert", "--from", "anthropic", "--to", "openai", str(write(tmp_path, "a.json", answer))
    )

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == expected.body
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
    assert result.stderr == "max_tokens: transformed: Anthropic requires max_tokens; 4096 sent\n"
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
    assert result.stdout == f"{problem.path}: {problem.rule} (mend the history before sending)\n"


# --- inspect ---


def test_inspect_a_cassette_summarises_each_turn() -> None:
    result = run("inspect", str(FIXTURES / "journey.json"))

    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith(f"{FIXTURES / 'journey.json'}: a cassette of 6 interactions\n")
    for name in ("Anthropic", "Chat Completions", "Mistral", "Groq", "Responses API"):
        assert name in out
    assert "tool calls: get_weather x2, get_forecast" in out
    assert "reasoning: anthropic x2, groq, openai-responses" in out
    assert "usage: 3,742 in, 652 out (236 reasoning)" in out


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
    "anthropic": ("anthropic", "openai"),
    "openai-chat": ("openai", "anthropic"),
    "openai-responses": ("openai-responses", "anthropic"),
    "groq": ("groq", "openai-responses"),
    "mistral": ("mistral", "anthropic"),
}


def _first_request(path: Path, folder: str) -> Any:
    paths = {"anthropic": "/messages", "openai-responses": "/responses"}
    suffix = paths.get(folder, "/chat/completions")
    for interaction in load_cassette(path).interactions:
        request = interaction.request
        path_sent = interaction.path or ""
        if request is not None and isinstance(request.json, dict) and path_sent.endswith(suffix):
            return request.json
    return None


@pytest.mark.parametrize(
    "param",
    corpus_params(
        *CORPUS_ROUTES,
        keep=lambda path: (
            _first_request(path, path.relative_to(path.parents[1]).parts[0]) is not None
        ),
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
    try:
        expected: Any = translate_request(body, source=source, target=target)
    except Exception as error:
        expected = error

    result = run("convert", "--from", source, "--to", target, str(write(tmp_path, "r.json", body)))

    if isinstance(expected, Exception):
        assert result.exit_code == 2
        assert result.stderr.count("\n") == 1
    else:
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout) == expected.body
        assert result.stderr == loss_lines(expected.losses)


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
         "interlingua convert: no adapter named 'gemini' "
         f"(installed: {', '.join(available_adapters())})"),
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


def test_a_missing_adapter_is_named_with_the_command_that_installs_it() -> None:
    # The environment of a user who installed the core alone: interlingua_mistral
    # cannot be imported.
    code = (
        "import sys; sys.modules['interlingua_mistral'] = None\n"
        "from interlingua.cli import main\n"
        "sys.argv = ['interlingua', 'convert', '--from', 'openai', '--to', 'mistral', '-']\n"
        "main()\n"
    )
    body = json.dumps({"model": "gpt-4.1", "messages": [{"role": "user", "content": "Hi"}]})

    result = subprocess.run(
        [sys.executable, "-c", code], input=body, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 2
    assert result.stderr == (
        "interlingua convert: the 'mistral' adapter is not installed: "
        "pip install interlingua-mistral\n"
    )


@pytest.mark.parametrize(
    ("command", "example"),
    [
        ([], "Example: interlingua demo"),
        (["demo"], "Example: interlingua demo"),
        (["convert"], "Example: interlingua convert --from anthropic --to openai"),
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
        "heavy = {'openai', 'anthropic', 'mistralai', 'groq', 'httpx', 'httpx2', 'respx'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
