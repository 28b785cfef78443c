"""`interlingua demo`: the conversation of `fixtures/journey.json`,
replayed through each provider's real SDK client, shown a table a turn (plain
when piped, coloured for a terminal) or as JSON; run in-process and as the
installed console script and module, as a newcomer runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from interlingua.cli import app
from interlingua.testing import load_cassette

PROVIDERS = [
    "anthropic",
    "openai",
    "mistral",
    "groq",
    "google",
    "openai-responses",
    "deepseek",
    "bedrock",
    "anthropic",
]
NAMES = [
    "Anthropic",
    "Chat Completions",
    "Mistral",
    "Groq",
    "Gemini",
    "Responses API",
    "DeepSeek",
    "Amazon Bedrock",
]
PROOF = (
    "signature proof: Claude's signed thinking from turn 1 (Anthropic) and turn 8 "
    "(Amazon Bedrock) came back to Anthropic in turn 9 unchanged"
)
GEMINI = PROVIDERS.index("google")
DEEPSEEK = PROVIDERS.index("deepseek")
BEDROCK = PROVIDERS.index("bedrock")
ANSI = "\x1b["


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "100", "NO_COLOR": None})


def test_the_demo_run_as_a_command_names_every_provider_and_proves_the_signature(
    tmp_path: Path,
) -> None:
    # As a newcomer runs it, piped, from a folder of no interest: the fixture is found
    # beside the package's source.
    script = Path(sys.executable).with_name("interlingua")
    result = subprocess.run(
        [str(script), "demo"], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )

    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert ANSI not in out
    for number, (provider, name) in enumerate(
        zip(PROVIDERS, [*NAMES, "Anthropic"], strict=True), 1
    ):
        assert f"Turn {number} · {name} ({provider})" in out
    assert PROOF in " ".join(out.split())
    assert result.stderr == ""


@pytest.fixture(scope="module")
def plain() -> Any:
    return run("demo")


@pytest.fixture(scope="module")
def as_json() -> Any:
    return run("demo", "--json")


def test_the_demo_as_json_has_a_turn_per_call(as_json: Any) -> None:
    assert as_json.exit_code == 0, as_json.output
    document = json.loads(as_json.stdout)
    turns = document["turns"]
    assert [turn["provider"] for turn in turns] == PROVIDERS
    assert [turn["turn"] for turn in turns] == list(range(1, 10))
    recorded = load_cassette(FIXTURES / "journey.json").interactions
    assert [turn["sent"] for turn in turns] == [i.request.json for i in recorded if i.request]
    assert [turn["usage"]["input_tokens"] for turn in turns] == [
        748, 318, 367, 512, 604, 712, 703, 1446, 1519
    ]  # fmt: skip
    assert document["usage"]["input_tokens"] == sum(t["usage"]["input_tokens"] for t in turns)
    assert document["usage"]["input_tokens"] == 6929
    assert document["usage"]["output_tokens"] == 996
    assert turns[0]["losses"] == []
    assert [loss["path"] for loss in turns[2]["losses"]] == [
        "messages[2].parts[0]",
        "messages[2].parts[2].id",
        "messages[2].parts[3].id",
        "messages[3].parts[0].tool_call_id",
        "messages[4].parts[0].tool_call_id",
    ]
    assert "9" in turns[2]["losses"][1]["reason"]  # Mistral's 9-character ids, said why
    # Anthropic's thinking left out changes how the model goes on; the ids, nothing it reads.
    assert [loss["level"] for loss in turns[2]["losses"]] == ["setting", *["hint"] * 4]


def test_the_json_gemini_turn_goes_to_its_url_and_says_what_changed(as_json: Any) -> None:
    turns = json.loads(as_json.stdout)["turns"]
    gemini, after = turns[GEMINI], turns[GEMINI + 1 :]
    recorded = load_cassette(FIXTURES / "journey.json").interactions[GEMINI]
    (_, call) = recorded.response.json["candidates"][0]["content"]["parts"]

    assert gemini["provider_name"] == "Gemini"
    assert gemini["model"] == "gemini-3-flash-preview"
    assert gemini["endpoint"] == (
        "POST generativelanguage.googleapis.com"
        "/v1beta/models/gemini-3-flash-preview:generateContent"
    )
    assert gemini["sent"] == recorded.request.json
    # The calls made elsewhere went with Google's dummy thought signature, said why.
    filled = [loss for loss in gemini["losses"] if loss["kind"] == "transformed"]
    assert [loss["path"] for loss in filled] == ["messages[2].parts[2]", "messages[7].parts[1]"]
    assert all("skip_thought_signature_validator" in loss["reason"] for loss in filled)
    assert gemini["answer"]["finish_reason"] == "tool_calls"
    assert gemini["answer"]["raw_finish_reason"] == "STOP"
    # Gemini's signature, kept in the history, is left out of every later turn and said so.
    signature = "messages[11].parts[1].provider_data.google.fields.thoughtSignature"
    for turn in after:
        assert signature in [loss["path"] for loss in turn["losses"]]
        assert call["thoughtSignature"] not in json.dumps(turn["sent"])


def test_the_json_proof_holds_the_blocks_claude_made_and_anthropic_got_back(
    as_json: Any,
) -> None:
    proof = json.loads(as_json.stdout)["signature_proof"]
    recorded = load_cassette(FIXTURES / "journey.json").interactions
    made_here = recorded[0].response.json["content"][0]
    made_on_bedrock = recorded[BEDROCK].response.json["output"]["message"]["content"][0]
    converse = made_on_bedrock["reasoningContent"]["reasoningText"]

    anthropic, bedrock = proof["signed"]
    assert proof["sent_back_in_turn"] == len(PROVIDERS)
    assert (anthropic["made_by"], anthropic["made_in_turn"]) == ("anthropic", 1)
    assert anthropic["made"] == anthropic["sent_back"] == made_here
    assert anthropic["made"]["signature"].startswith("EvcCCkYI")
    # Claude's thinking on Bedrock, as Converse wrote it and as Anthropic got it back.
    assert (bedrock["made_by"], bedrock["made_in_turn"]) == ("bedrock", BEDROCK + 1)
    assert bedrock["made"] == made_on_bedrock
    assert bedrock["sent_back"] == {
        "type": "thinking",
        "thinking": converse["text"],
        "signature": converse["signature"],
    }
    assert [signed["on_the_wire"] for signed in proof["signed"]] == [True, True]
    assert [signed["unchanged"] for signed in proof["signed"]] == [True, True]
    assert proof["reasoning_sent"] == 2  # those two: no other provider's
    assert proof["unchanged"] is True


def test_the_json_bedrock_turn_goes_through_boto3_to_its_url(as_json: Any) -> None:
    bedrock = json.loads(as_json.stdout)["turns"][BEDROCK]
    recorded = load_cassette(FIXTURES / "journey.json").interactions[BEDROCK]
    wire = recorded.response.json
    usage = wire["usage"]

    assert bedrock["provider_name"] == "Amazon Bedrock"
    assert bedrock["model"] == "us.anthropic.claude-sonnet-4-6"
    assert bedrock["endpoint"] == (
        "POST bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-6/converse"
    )
    assert bedrock["sent"] == recorded.request.json
    # Anthropic's signed thinking went to Claude there: not among what was left out.
    assert "messages[2].parts[0]" not in [loss["path"] for loss in bedrock["losses"]]
    assert [loss["reason"] for loss in bedrock["losses"] if loss["level"] == "setting"] == [
        f"reasoning made by {provider} goes back to {provider} only"
        for provider in ("groq", "google", "openai-responses", "deepseek")
    ]
    assert bedrock["answer"]["finish_reason"] == "stop"
    assert bedrock["answer"]["raw_finish_reason"] == wire["stopReason"]
    (reasoning, text) = bedrock["answer"]["message"]["parts"]
    assert (reasoning["provider"], reasoning["text"]) == (
        "bedrock",
        wire["output"]["message"]["content"][0]["reasoningContent"]["reasoningText"]["text"],
    )
    assert text["text"] == wire["output"]["message"]["content"][1]["text"]
    assert (bedrock["usage"]["input_tokens"], bedrock["usage"]["output_tokens"]) == (
        usage["inputTokens"],
        usage["outputTokens"],
    )


def test_the_json_deepseek_turn_says_what_its_thinking_mode_was_given(as_json: Any) -> None:
    deepseek = json.loads(as_json.stdout)["turns"][DEEPSEEK]
    usage = load_cassette(FIXTURES / "journey.json").interactions[DEEPSEEK].response.json["usage"]
    assistants = [
        index
        for index, message in enumerate(deepseek["sent"]["messages"])
        if message["role"] == "assistant"
    ]

    assert deepseek["endpoint"] == "POST api.deepseek.com/chat/completions"
    # Each assistant message (all in tool-call turns) goes with an empty reasoning_content,
    # said so at its path; the others' reasoning is left out, said so by whose it was.
    assert [deepseek["sent"]["messages"][i]["reasoning_content"] for i in assistants] == [""] * 6
    transformed = [loss for loss in deepseek["losses"] if loss["kind"] == "transformed"]
    assert [loss["path"] for loss in transformed] == [f"messages[{i}]" for i in assistants]
    assert all("reasoning_content" in loss["reason"] for loss in transformed)
    dropped = [loss["reason"] for loss in deepseek["losses"] if loss["path"].endswith("parts[0]")]
    assert dropped == [
        f"deepseek takes no reasoning back (made by {provider})"
        for provider in ("anthropic", "groq", "google", "openai-responses")
    ]
    assert deepseek["answer"]["message"]["parts"][0]["provider"] == "deepseek"
    assert deepseek["usage"]["cache_read_tokens"] == usage["prompt_cache_hit_tokens"]
    assert (
        deepseek["usage"]["reasoning_tokens"]
        == (usage["completion_tokens_details"]["reasoning_tokens"])
    )


def test_in_a_terminal_the_demo_is_coloured_and_shows_each_part_of_a_turn(plain: Any) -> None:
    coloured = run("demo", "--color", "always")

    assert coloured.exit_code == plain.exit_code == 0
    assert ANSI in coloured.stdout
    assert ANSI not in plain.stdout
    for label in ("history", "sent", "left out, changed", "answer", "usage", "total"):
        assert label in plain.stdout
    assert "POST api.mistral.ai/v1/chat/completions" in plain.stdout
    assert "generativelanguage.googleapis.com/v1beta/models/gemini-3-flash-preview" in plain.stdout
    assert "9 contents, 2 tools" in plain.stdout  # Gemini's body, in its own words
    assert "POST api.deepseek.com/chat/completions" in plain.stdout
    assert "703 in, 97 out (61 reasoning, 256 cache read)" in plain.stdout  # DeepSeek's
    assert "Turn 8 · Amazon Bedrock (bedrock) · us.anthropic.claude-sonnet-4-6" in plain.stdout
    assert "POST" in plain.stdout
    assert (
        "bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet" in plain.stdout
    )
    assert "1,446 in, 139 out" in plain.stdout  # Claude on Bedrock's
    assert "6,929" in plain.stdout  # the total input tokens


def test_a_fixture_that_is_not_there_is_one_line_and_status_2(tmp_path: Path) -> None:
    result = run("demo", "--fixture", str(tmp_path / "nowhere.json"))

    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "nowhere.json: no such file" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("module", "distribution"),
    [
        ("interlingua_google", "interlingua-google"),
        ("interlingua_deepseek", "interlingua-deepseek"),
        ("interlingua_bedrock", "interlingua-bedrock"),
    ],
)
def test_a_missing_adapter_the_demo_calls_is_named_with_the_command_that_installs_it(
    module: str, distribution: str
) -> None:
    # A user who installed every adapter but one: its module cannot be imported.
    code = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from interlingua.cli import main\n"
        "sys.argv = ['interlingua', 'demo']\n"
        "main()\n"
    )

    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"interlingua demo: the demo needs {distribution}: pip install {distribution} "
        "(in a clone, `uv run interlingua demo` installs them all)\n"
    )


@pytest.mark.parametrize(
    ("turn", "field", "url"),
    [
        (-1, ("max_tokens",), "https://api.anthropic.com/v1/messages"),
        (
            BEDROCK,  # boto3's request, matched whole as the others are
            ("inferenceConfig", "maxTokens"),
            "https://bedrock-runtime.us-east-1.amazonaws.com"
            "/model/us.anthropic.claude-sonnet-4-6/converse",
        ),
    ],
)
def test_a_recording_that_the_bodies_sent_do_not_match_fails_naming_the_difference(
    tmp_path: Path, turn: int, field: tuple[str, ...], url: str
) -> None:
    # A recorded request changed: the demo's body no longer matches it.
    document = json.loads((FIXTURES / "journey.json").read_text())
    body = document["interactions"][turn]["request"]["json"]
    for name in field[:-1]:
        body = body[name]
    body[field[-1]] = 1
    changed = tmp_path / "journey.json"
    changed.write_text(json.dumps(document))

    result = run("demo", "--fixture", str(changed))

    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("interlingua demo: CassetteError: ")
    assert f"no recorded request matches POST {url}" in result.stderr


def test_the_demo_in_process_shows_what_the_command_shows(plain: Any) -> None:
    assert plain.exit_code == 0
    assert plain.stdout.startswith("One conversation across eight APIs, replayed from ")
    assert PROOF in " ".join(plain.stdout.split())
    assert [name for name in NAMES if name not in plain.stdout] == []
    # A reason is shown whole, however long (here read across the table's wrapped lines).
    words = " ".join(plain.stdout.replace("│", " ").split())
    assert "that Google's thought-signatures guide gives for histories from other models" in words


def test_the_module_runs_the_command_and_its_help_shows_an_example() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "interlingua.cli", "demo", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "100"},
    )

    assert result.returncode == 0, result.stderr
    assert "Example: interlingua demo" in result.stdout
    assert "--json" in result.stdout
    assert "--fixture" in result.stdout


def test_the_readme_begins_with_the_demo_then_the_tests() -> None:
    readme = (FIXTURES.parent / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```sh\n", 1)[1].split("```", 1)[0]

    commands = [line.split("#")[0].strip() for line in first_block.splitlines()]
    assert commands == ["python3 -m pip install uv && uv run interlingua demo", "uv run pytest"]
    assert readme.index("## Set up and see it work") < readme.index("## Quickstart: the core")
    assert readme.index("## The command line") < readme.index("## Performance")
