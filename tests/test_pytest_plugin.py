"""interlingua's pytest plugin: first used as the README shows it (the test's
own cassette, beside this module, answers the SDK client the test builds),
then each record mode run by `pytester` against a stand-in provider on
127.0.0.1, and a cassette recorded by vcrpy itself replayed as it is."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import groq
import pytest
import vcr

from conftest import FIXTURES, ROOT
from interlingua.testing import load_cassette
from provider_server import ProviderServer

pytest_plugins = ["pytester"]

# --- as the README shows it ---

QUESTION = 'How many times does the letter r appear in "strawberry"? Answer with the number only.'


@pytest.mark.interlingua
def test_counting_letters(interlingua_cassette):
    client = groq.Groq(api_key="test-key")  # built as the code under test builds it
    answer = client.chat.completions.create(
        model="qwen/qwen3-32b",
        messages=[{"role": "user", "content": QUESTION}],
        reasoning_format="raw",
    )
    assert answer.choices[0].message.content.endswith("3")
    assert interlingua_cassette.sent[0]["model"] == "qwen/qwen3-32b"


def test_the_readme_shows_this_module_s_test_as_it_is() -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("@pytest.mark.interlingua\n", 1)[1].split("```", 1)[0]
    assert "@pytest.mark.interlingua\n" + block in Path(__file__).read_text()
    assert QUESTION in readme


def test_the_cassette_is_named_after_the_test_beside_the_module() -> None:
    path = Path(__file__).parent / "cassettes" / "test_pytest_plugin" / "test_counting_letters.json"
    assert (
        load_cassette(path).interactions
        == load_cassette(FIXTURES / "groq" / "raw_think_answer.json").interactions
    )


# --- the record modes, in a pytest run of their own ---

RECORDED = load_cassette(FIXTURES / "groq" / "raw_think_answer.json").interactions[0]
KEY = "gsk_" + "Mn7bVc4xZl1kJh8gFd5sAp2oIu9yTr6e"
USER_TESTS = f'''
import os

import groq
import pytest

BODY = {RECORDED.request.json!r}  # type: ignore[union-attr]


def ask(question):
    client = groq.Groq(api_key="{KEY}", base_url=os.environ["PROVIDER_URL"], max_retries=0)
    body = dict(BODY, messages=[{{"role": "user", "content": question}}])
    return client.chat.completions.create(**body).choices[0].message.content


@pytest.mark.interlingua
def test_ask(interlingua_cassette):
    assert ask(os.environ.get("QUESTION", BODY["messages"][0]["content"])).endswith("3")
    assert interlingua_cassette.sent[0]["model"] == "qwen/qwen3-32b"
'''
SECOND_TEST = """

@pytest.mark.interlingua
def test_ask_twice(interlingua_cassette):
    assert ask("Once?").endswith("3")
    assert ask("Twice?").endswith("3")
"""


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ProviderServer]:
    answers = {("POST", "/openai/v1/chat/completions"): [RECORDED.response] * 20}
    with ProviderServer(answers) as running:
        monkeypatch.setenv("PROVIDER_URL", running.base_url)
        yield running


@pytest.fixture
def user_tests(pytester: pytest.Pytester) -> Path:
    pytester.makepyfile(test_weather=USER_TESTS)
    return pytester.path / "cassettes" / "test_weather"


def test_none_is_the_default_and_a_missing_cassette_fails_saying_how_to_record(
    pytester: pytest.Pytester, server: ProviderServer, user_tests: Path
) -> None:
    result = pytester.runpytest()

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*CassetteError*test_ask.json (no such cassette: record it with --record-mode=once)*"]
    )
    assert server.received == []
    assert not user_tests.exists()


def test_once_records_a_missing_cassette_then_replays_it(
    pytester: pytest.Pytester, server: ProviderServer, user_tests: Path
) -> None:
    pytester.runpytest("--record-mode=once").assert_outcomes(passed=1)
    assert len(server.received) == 1
    cassette = user_tests / "test_ask.json"
    assert KEY not in cassette.read_text()
    assert [i.request.json for i in load_cassette(cassette).interactions] == [RECORDED.request.json]  # type: ignore[union-attr]

    pytester.runpytest("--record-mode=once").assert_outcomes(passed=1)
    pytester.runpytest().assert_outcomes(passed=1)
    assert len(server.received) == 1  # both answered from the cassette


def test_a_request_the_cassette_lacks_fails_with_the_differing_field(
    pytester: pytest.Pytester,
    server: ProviderServer,
    user_tests: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytester.runpytest("--record-mode=once").assert_outcomes(passed=1)
    monkeypatch.setenv("QUESTION", "How many times does the letter s appear?")

    result = pytester.runpytest()

    # groq's SDK says "Connection error."; the plugin fails the test with the mismatch.
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E*CassetteError: *test_ask.json: no recorded request matches POST http://127.0.0.1:*",
            "E*the closest is interactions[[]0[]], POST http://127.0.0.1:*",
            'E*messages[[]0[]].content: "How many times does the letter s appear?" != "How many*',
        ]
    )
    assert len(server.received) == 1


def test_new_episodes_adds_what_the_cassette_lacks(
    pytester: pytest.Pytester, server: ProviderServer, user_tests: Path
) -> None:
    pytester.runpytest("--record-mode=once").assert_outcomes(passed=1)
    pytester.makepyfile(test_weather=USER_TESTS + SECOND_TEST)
    (user_tests / "test_ask_twice.json").write_text(
        (user_tests / "test_ask.json")
        .read_text()
        .replace(
            json.dumps(RECORDED.request.json["messages"][0]["content"])[1:-1],
            "Once?",  # type: ignore[index]
        )
    )

    pytester.runpytest("--record-mode=new_episodes").assert_outcomes(passed=2)

    assert len(server.received) == 2  # "Twice?" alone went out
    kept = load_cassette(user_tests / "test_ask_twice.json").interactions
    assert [i.request.json["messages"][0]["content"] for i in kept] == ["Once?", "Twice?"]  # type: ignore[index]
    pytester.runpytest().assert_outcomes(passed=2)
    assert len(server.received) == 2


def test_all_records_everything_again(
    pytester: pytest.Pytester, server: ProviderServer, user_tests: Path
) -> None:
    pytester.runpytest("--record-mode=once").assert_outcomes(passed=1)
    pytester.runpytest("--record-mode=all").assert_outcomes(passed=1)
    pytester.runpytest("--record-mode=all").assert_outcomes(passed=1)
    assert len(server.received) == 3
    assert len(load_cassette(user_tests / "test_ask.json").interactions) == 1


def test_a_yaml_cassette_is_recorded_by_option(
    pytester: pytest.Pytester, server: ProviderServer, user_tests: Path
) -> None:
    pytester.makeconftest(
        "import pytest\n\n\n@pytest.fixture(scope='module')\n"
        "def interlingua_config():\n    return {'format': 'yaml'}\n"
    )
    pytester.runpytest("--record-mode=once").assert_outcomes(passed=1)
    assert (user_tests / "test_ask.yaml").exists()
    pytester.runpytest().assert_outcomes(passed=1)
    assert len(server.received) == 1


def test_a_cassette_vcrpy_recorded_replays_as_it_is(
    pytester: pytest.Pytester, server: ProviderServer, user_tests: Path
) -> None:
    server.gzip_json = True  # vcrpy keeps the body as it came: gzip bytes
    body = RECORDED.request.json
    with vcr.use_cassette(str(user_tests / "test_ask.yaml"), record_mode="once"):
        groq.Groq(api_key=KEY, base_url=server.base_url, max_retries=0).chat.completions.create(
            **body
        )  # type: ignore[arg-type]
    assert "!!binary" in (user_tests / "test_ask.yaml").read_text()

    pytester.runpytest().assert_outcomes(passed=1)
    assert len(server.received) == 1


def test_the_option_is_listed(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(["*--record-mode=*", "*vcrpy's record modes*"])
