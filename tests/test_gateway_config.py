"""The gateway's configuration, its model list and token counts, and the
command that serves it (`interlingua gateway --replay`, as the README shows)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import anthropic
import httpx
import openai
import pytest

import interlingua._adapter
from conftest import ROOT, fake_key, recorded
from gateway_server import LOOPBACK, GatewayServer, close_opened, opened
from interlingua import NotFoundError, get_adapter, register_adapter
from interlingua.gateway import ConfigError, create_app, load
from interlingua.gateway._upstream import Target, Upstreams
from interlingua.testing import Interaction, RecordedRequest, RecordedResponse, Replay

KEY = fake_key("gk-")


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    close_opened()


BOUND = 60.0  # seconds: the subprocesses import SDKs, slow on a loaded machine

CONFIG = """\
keys = ["{key}"]
strict = true
log = "json"
timeout = 30.0

[models."claude-sonnet-4-5"]
upstream = "groq:openai/gpt-oss-120b"
fallbacks = ["openai:gpt-4.1-mini", "anthropic:claude-sonnet-4-5"]

[upstreams.groq]
base_url = "https://api.groq.com"
timeout = 5
api_key_env = "GROQ_API_KEY"
"""


def test_a_config_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "gateway.toml"
    path.write_text(CONFIG.format(key=KEY))
    config = load(path)
    route = config.models["claude-sonnet-4-5"]
    assert route.upstreams == (
        "groq:openai/gpt-oss-120b",
        "openai:gpt-4.1-mini",
        "anthropic:claude-sonnet-4-5",
    )
    assert (config.strict, config.log, config.timeout) == (True, "json", 30.0)
    groq = config.upstreams["groq"]
    assert (groq.base_url, groq.timeout, groq.api_key_env) == (
        "https://api.groq.com",
        5.0,
        "GROQ_API_KEY",
    )
    assert KEY not in repr(config)


@pytest.mark.parametrize(
    ("line", "strict"), [("true", True), ('"setting"', "setting"), ('"content"', "content")]
)
def test_strict_takes_true_or_the_level_it_refuses_from(
    tmp_path: Path, line: str, strict: object
) -> None:
    path = tmp_path / "gateway.toml"
    path.write_text(CONFIG.format(key=KEY).replace("strict = true", f"strict = {line}"))
    assert load(path).strict == strict


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("timeout = 30.0", "timeout = -1"), "timeout: Input should be greater than 0"),
        (("strict = true", "stricter = true"), "stricter: Extra inputs are not permitted"),
        (
            ("strict = true", 'strict = "hint"'),
            'strict: Value error, true, false, "setting" or "content", not \'hint\'',
        ),
        (
            ('"anthropic:claude-sonnet-4-5"]', '"gemini-pro"]'),
            "models.claude-sonnet-4-5.fallbacks[1]: "
            "Value error, 'gemini-pro' is no 'provider:model'",
        ),
        (
            ('upstream = "groq:', 'upstream = "nosuch:'),
            "models.claude-sonnet-4-5.upstream: "
            "Value error, no adapter named 'nosuch' is installed",
        ),
        (
            ("[upstreams.groq]", "[upstreams.grok]"),
            "upstreams: Value error, no adapter named 'grok'",
        ),
        (("base_url =", "base_uri ="), "upstreams.groq.base_uri: Extra inputs are not permitted"),
        (('log = "json"', 'log = "xml"'), "log: Input should be 'human' or 'json'"),
        (("[models.", "[models"), "not TOML"),
    ],
)
def test_a_bad_config_names_the_key(tmp_path: Path, edit: tuple[str, str], message: str) -> None:
    path = tmp_path / "gateway.toml"
    path.write_text(CONFIG.format(key=KEY).replace(*edit))
    with pytest.raises(ConfigError) as raised:
        load(path)
    assert str(raised.value).startswith(f"{path}: {message}")


def test_a_gateway_without_keys_does_not_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INTERLINGUA_GATEWAY_KEYS", raising=False)
    with pytest.raises(ConfigError, match="no gateway keys: set INTERLINGUA_GATEWAY_KEYS"):
        create_app(load(None))


def test_a_provider_registered_after_the_start_is_routed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The installed adapters are looked up once, when the gateway starts; a name
    not among them is looked up again, so an adapter registered since is routed."""
    # The registration is the test's alone: later tests list the adapters.
    monkeypatch.setattr(interlingua._adapter, "_registered", dict(interlingua._adapter._registered))
    upstreams = Upstreams(load(None, keys=[KEY]))
    with pytest.raises(NotFoundError, match="'latecomer:model-1' has no route"):
        upstreams.route("latecomer:model-1")
    register_adapter("latecomer", get_adapter("openai"))
    assert upstreams.route("latecomer:model-1") == [Target("latecomer", "model-1")]
    assert upstreams.route("openai:gpt-4.1") == [Target("openai", "gpt-4.1")]


def test_the_models_are_listed_in_each_sdk_s_shape() -> None:
    config = load(
        None,
        keys=[KEY],
        models={"b-model": {"upstream": "openai:gpt-4.1"}, "a-model": {"upstream": "groq:qwen"}},
    )
    with GatewayServer(create_app(config)) as gateway:
        openai_ids = [
            model.id
            for model in opened(
                openai.OpenAI(api_key=KEY, base_url=f"{gateway.base_url}/v1")
            ).models.list()
        ]
        anthropic_ids = [
            model.id
            for model in opened(
                anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url)
            ).models.list()
        ]
    assert openai_ids == anthropic_ids == ["a-model", "b-model"]


COUNT = Interaction(
    RecordedRequest("POST", "https://api.anthropic.com/v1/messages/count_tokens", {}, None, None),
    RecordedResponse(
        200,
        {"content-type": ("application/json",)},
        b'{"input_tokens": 14}',
        {"input_tokens": 14},
        None,
    ),
)


def test_tokens_are_counted_by_an_upstream_of_the_client_s_api() -> None:
    routes = {
        "house": {"upstream": "anthropic:claude-sonnet-4-5"},
        "other": {"upstream": "openai:gpt-4.1"},
    }
    config = load(None, keys=[KEY], models=routes)
    user = [{"role": "user", "content": "Hello"}]
    with GatewayServer(create_app(config, default_key=fake_key("sk-ant-"))) as gateway:
        client = opened(anthropic.Anthropic(api_key=KEY, base_url=gateway.base_url, max_retries=0))
        with Replay([COUNT], match_on=("method", "host", "path"), pass_hosts=[LOOPBACK]) as replay:
            counted = client.messages.count_tokens(model="house", messages=user, system="Be brief.")
        with pytest.raises(
            anthropic.NotFoundError,
            match=r"tokens cannot be counted for 'other' here: its upstream openai:gpt-4\.1 ",
        ):
            client.messages.count_tokens(model="other", messages=user)
    assert counted.input_tokens == 14
    assert replay.sent == [{"model": "claude-sonnet-4-5", "messages": user, "system": "Be brief."}]


# --- the upstreams' keys and addresses ---


def _at(interaction: Interaction, base_url: str, path: str) -> Interaction:
    """A recording as answered at another address (a proxy the SDK is sent to)."""
    request = replace(interaction.request, url=f"{base_url}{path}")
    return replace(interaction, request=request)


def ask_gateway(base_url: str, model: str) -> httpx.Response:
    body = {"model": model, "messages": [{"role": "user", "content": "Hi"}]}
    headers = {"authorization": f"Bearer {KEY}"}
    return httpx.post(f"{base_url}/v1/chat/completions", json=body, headers=headers, timeout=BOUND)


CHAT_ANSWER = recorded("openai/chat_tool_round_trip.json")[1]
MATCH_ON = ("method", "host", "path")


def test_an_upstream_s_key_is_read_from_the_variable_its_options_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    upstream_key = fake_key("sk-", "FromItsOwnVariable00")
    options = {"openai": {"api_key_env": "HOUSE_OPENAI_KEY"}}
    config = load(None, keys=[KEY], upstreams=options)
    with GatewayServer(create_app(config)) as gateway:
        monkeypatch.delenv("HOUSE_OPENAI_KEY", raising=False)
        missing = ask_gateway(gateway.base_url, "openai:gpt-4.1-mini")
        monkeypatch.setenv("HOUSE_OPENAI_KEY", upstream_key)
        with Replay([CHAT_ANSWER], match_on=MATCH_ON, pass_hosts=[LOOPBACK]) as replay:
            answered = ask_gateway(gateway.base_url, "openai:gpt-4.1-mini")
    assert missing.status_code == 502
    assert missing.json()["error"]["message"] == (
        "the upstream openai cannot be used: the variable HOUSE_OPENAI_KEY is not set"
    )
    assert answered.status_code == 200
    assert replay.requests[0].headers["authorization"] == f"Bearer {upstream_key}"
    assert upstream_key not in answered.text + str(answered.headers)


# Each SDK's own variables for its address and key (each sends the key as a bearer token).
SDK_VARIABLES = {
    "openai": (
        {"OPENAI_BASE_URL": "https://llm-proxy.example.com/v1", "OPENAI_API_KEY": "sk-"},
        ("openai/chat_tool_round_trip.json", 1, "/v1/chat/completions", "gpt-4.1-mini"),
    ),
    "anthropic": (
        {"ANTHROPIC_BASE_URL": "https://llm-proxy.example.com", "ANTHROPIC_API_KEY": "sk-ant-"},
        ("anthropic/tool_round_trip_with_thinking.json", 1, "/v1/messages", "claude-sonnet-4-5"),
    ),
    "groq": (
        {"GROQ_BASE_URL": "https://llm-proxy.example.com", "GROQ_API_KEY": "gsk_"},
        ("groq/raw_think_answer.json", 0, "/openai/v1/chat/completions", "qwen/qwen3-32b"),
    ),
}


@pytest.mark.parametrize("provider", list(SDK_VARIABLES))
def test_a_provider_model_with_no_route_uses_the_sdk_s_own_variables(
    provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    variables, (name, index, path, model) = SDK_VARIABLES[provider]
    base_url, key_variable = variables
    upstream_key = fake_key(variables[key_variable])
    monkeypatch.setenv(base_url, variables[base_url])
    monkeypatch.setenv(key_variable, upstream_key)
    answer = _at(recorded(name)[index], "https://llm-proxy.example.com", path)
    config = load(None, keys=[KEY])  # no route, no upstream options, no key of the gateway's
    with (
        GatewayServer(create_app(config)) as gateway,
        Replay([answer], match_on=MATCH_ON, pass_hosts=[LOOPBACK]) as replay,
    ):
        answered = ask_gateway(gateway.base_url, f"{provider}:{model}")
    assert answered.status_code == 200, answered.text
    (asked,) = replay.requests
    assert (asked.url.host, asked.url.path) == ("llm-proxy.example.com", path)
    assert asked.headers["authorization"] == f"Bearer {upstream_key}"
    assert replay.sent[0]["model"] == model


# --- the command ---


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def readme_gateway_commands() -> tuple[str, str]:
    """The README's command that starts the gateway, and the Python its client runs."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Gateway") :]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None
    lines = block[1].splitlines()
    (serve,) = [line for line in lines if "interlingua gateway --replay" in line]
    script = block[1].split("<<'EOF'\n", 1)[1].split("\nEOF", 1)[0]
    return serve.rstrip(" &"), script


@pytest.mark.parametrize("workers", [1, 2])
def test_the_readme_s_gateway_answers_the_anthropic_sdk_from_a_recording(workers: int) -> None:
    serve, script = readme_gateway_commands()
    port = _free_port()
    assignment, command = serve.split(" ", 1)
    variable, value = assignment.split("=", 1)
    argv = [*command.replace("uv run ", "").split(), "--host", LOOPBACK, "--port", str(port)]
    argv += ["--workers", str(workers)] if workers > 1 else []
    environment = {**os.environ, variable: value}
    interlingua = str(Path(sys.executable).with_name("interlingua"))
    server = subprocess.Popen(
        [interlingua, *argv[1:]],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_until_serving(port, server)
        client = subprocess.run(
            [sys.executable, "-c", script.replace("8000", str(port))],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=BOUND,
            check=False,
        )
    finally:
        server.terminate()
        _, log = server.communicate(timeout=BOUND)
    assert client.returncode == 0, client.stderr
    printed = [
        line.split("#", 1)[1].strip() for line in script.splitlines() if line.startswith("print(")
    ]
    assert client.stdout.splitlines() == printed
    assert "POST /v1/messages  groq:qwen/qwen3-32b -> groq:qwen/qwen3-32b  200" in log


def _wait_until_serving(port: int, server: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        assert server.poll() is None, server.communicate()[1]
        try:
            httpx.get(f"http://{LOOPBACK}:{port}/v1/models", timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("the gateway did not start")


def test_the_command_names_a_bad_config_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "gateway.toml"
    path.write_text("timeout = 0\n")
    interlingua = str(Path(sys.executable).with_name("interlingua"))
    done = subprocess.run(
        [interlingua, "gateway", "--config", str(path)],
        capture_output=True,
        text=True,
        timeout=BOUND,
        check=False,
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == f"interlingua gateway: {path}: timeout: Input should be greater than 0"
    )
