"""Finding adapters by name, through entry points, and routing model strings."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import interlingua
from conftest import fake_key
from interlingua import (
    AdapterNotFoundError,
    ChatRequest,
    Message,
    available_adapters,
    get_adapter,
    get_client_class,
    register_adapter,
    route,
    split_model,
)
from interlingua.client import SDKOptions

ADAPTER_SOURCE = '''
"""A third-party adapter, installed the way `interlingua-gemini` would be."""
PROVIDER = "{name}"

def encode_request(request, *, report=None):
    return {{"model": request.model}}

def decode_request(body):
    raise NotImplementedError

def encode_response(response, *, report=None):
    raise NotImplementedError

def decode_response(body):
    raise NotImplementedError

def decode_stream(events):
    return iter(())

def decode_error(status, body):
    raise NotImplementedError
'''


def install_adapter(site: Path, name: str) -> None:
    """Lay out an installed distribution with an `interlingua.adapters` entry point."""
    package = site / f"interlingua_{name}"
    package.mkdir()
    (package / "__init__.py").write_text(ADAPTER_SOURCE.format(name=name))
    dist_info = site / f"interlingua_{name}-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: interlingua-{name}\nVersion: 1.0\n"
    )
    (dist_info / "entry_points.txt").write_text(
        textwrap.dedent(f"""\
            [interlingua.adapters]
            {name} = interlingua_{name}
            """)
    )


def test_an_installed_adapter_is_found_by_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_adapter(tmp_path, "entrytest")
    monkeypatch.syspath_prepend(str(tmp_path))

    assert "entrytest" in available_adapters()
    adapter = get_adapter("entrytest")

    assert adapter.PROVIDER == "entrytest"
    assert isinstance(adapter, interlingua.Adapter)
    assert adapter.encode_request(ChatRequest(model="m")) == {"model": "m"}
    assert get_adapter("entrytest") is adapter


def test_an_unknown_adapter_says_what_is_available() -> None:
    with pytest.raises(
        AdapterNotFoundError, match=r"no interlingua adapter named 'nope'"
    ) as caught:
        get_adapter("nope")
    assert "install interlingua-nope" in str(caught.value)
    assert isinstance(caught.value, LookupError)


def test_a_registered_adapter_routes_a_prefixed_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_adapter(tmp_path, "routetest")
    monkeypatch.syspath_prepend(str(tmp_path))
    import interlingua_routetest  # type: ignore[import-not-found]

    register_adapter("routetest", interlingua_routetest)
    request = ChatRequest(model="routetest:big-model-2", messages=(Message.user("hi"),))

    adapter, routed = route(request)

    assert adapter is interlingua_routetest
    assert routed.model == "big-model-2"
    assert routed.messages == request.messages
    assert request.model == "routetest:big-model-2"


def test_an_unprefixed_model_needs_a_default() -> None:
    with pytest.raises(AdapterNotFoundError, match="names no provider"):
        route(ChatRequest(model="gpt-4o"))


def test_a_colon_that_names_no_adapter_is_part_of_the_model_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_adapter(tmp_path, "defaulttest")
    monkeypatch.syspath_prepend(str(tmp_path))

    adapter, routed = route(ChatRequest(model="ft:gpt-4o:org::abc"), default="defaulttest")

    assert adapter.PROVIDER == "defaulttest"
    assert routed.model == "ft:gpt-4o:org::abc"


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("anthropic:claude-sonnet-4-5", ("anthropic", "claude-sonnet-4-5")),
        ("openai-responses:gpt-5:mini", ("openai-responses", "gpt-5:mini")),
        ("gpt-4o", (None, "gpt-4o")),
        ("meta-llama/llama-4:scout", (None, "meta-llama/llama-4:scout")),
        ("anthropic:", (None, "anthropic:")),
        (":model", (None, ":model")),
    ],
)
def test_split_model(model: str, expected: tuple[str | None, str]) -> None:
    assert split_model(model) == expected


CLIENT_CLASSES = {
    "anthropic": ("AnthropicClient", "AsyncAnthropicClient"),
    "openai": ("OpenAIClient", "AsyncOpenAIClient"),
    "openai-responses": ("OpenAIResponsesClient", "AsyncOpenAIResponsesClient"),
    "mistral": ("MistralClient", "AsyncMistralClient"),
    "groq": ("GroqClient", "AsyncGroqClient"),
    "deepseek": ("DeepSeekClient", "AsyncDeepSeekClient"),
    "cerebras": ("CerebrasClient", "AsyncCerebrasClient"),
    "ollama": ("OllamaClient", "AsyncOllamaClient"),
    "openai-compatible": ("OpenAICompatibleClient", "AsyncOpenAICompatibleClient"),
    "openrouter": ("OpenRouterClient", "AsyncOpenRouterClient"),
    "xai": ("XAIClient", "AsyncXAIClient"),
    "perplexity": ("PerplexityClient", "AsyncPerplexityClient"),
}


@pytest.mark.parametrize("name", sorted(CLIENT_CLASSES))
def test_each_adapter_s_clients_are_found_by_its_name(name: str) -> None:
    sync, asynchronous = CLIENT_CLASSES[name]
    assert get_client_class(name).__name__ == sync
    assert get_client_class(name, asynchronous=True).__name__ == asynchronous


def test_an_adapter_without_clients_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_adapter(tmp_path, "codeonly")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(AdapterNotFoundError, match="'codeonly' adapter has a client over no SDK"):
        get_client_class("codeonly")


@pytest.mark.parametrize(
    "name",
    [
        "anthropic",
        "openai",
        "groq",
        "deepseek",
        "cerebras",
        "ollama",
        "openai-compatible",
        "openrouter",
        "xai",
        "perplexity",
    ],
)
def test_connect_builds_a_stainless_sdk_from_the_options(name: str) -> None:
    options = SDKOptions(
        api_key=fake_key("sk-"), base_url="http://127.0.0.1:9/x/", timeout=2.5, max_retries=0
    )
    client = get_client_class(name, asynchronous=True).connect(options)
    assert str(client.sdk.base_url) == "http://127.0.0.1:9/x/"
    assert (client.sdk.api_key, client.sdk.timeout, client.sdk.max_retries) == (
        options.api_key,
        2.5,
        0,
    )


def test_connect_gives_mistral_its_own_names_for_the_options() -> None:
    options = SDKOptions(api_key=fake_key("mk-"), base_url="http://127.0.0.1:9/m", timeout=2.5)
    client = get_client_class("mistral").connect(options)
    configuration = client.sdk.sdk_configuration
    assert (configuration.server_url, configuration.timeout_ms) == ("http://127.0.0.1:9/m", 2500)


def test_connect_leaves_the_sdk_its_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", fake_key("sk-"))
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/env/")
    client = get_client_class("openai").connect(SDKOptions())
    assert str(client.sdk.base_url) == "http://127.0.0.1:9/env/"
    assert client.sdk.api_key == fake_key("sk-")


def test_connect_gives_google_its_http_options() -> None:
    options = SDKOptions(
        api_key=fake_key("AIza"), base_url="http://127.0.0.1:9/g/", timeout=2.5, max_retries=0
    )
    client = get_client_class("google").connect(options)
    api = client.sdk._api_client
    assert api.api_key == options.api_key
    http = api._http_options
    assert (http.base_url, http.timeout, http.retry_options.attempts) == (options.base_url, 2500, 1)
