"""What every installed adapter promises, checked alike on recorded traffic.

- It is found by name through its entry point and has the six codec functions;
  its `decode_error` takes the answer's headers (`headers=`, optional).
- Wire bodies and core values share nothing mutable: changing an encoded body,
  or the body that was decoded, never changes the request or response.
- Its package is the adapter: importing it imports no SDK, asking for a client
  does; every name of its `__all__` is there, and no other is made up.
"""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, corpus_files, require_corpus, round_trip_sharing_nothing
from interlingua import Adapter, available_adapters, get_adapter
from interlingua.testing import Interaction, load_cassette

# adapter name -> (corpus folder, cassette provider, how its endpoint's URL path ends)
ADAPTERS = {
    "anthropic": ("anthropic", "anthropic", "/v1/messages"),
    "openai": ("openai-chat", "openai", "/v1/chat/completions"),
    "openai-responses": ("openai-responses", "openai", "/v1/responses"),
    "mistral": ("mistral", "mistral", "/v1/chat/completions"),
    "groq": ("groq", "groq", "/openai/v1/chat/completions"),
    "google": ("google", "google", ":generateContent"),
    # Converse (`/model/<model id>/converse`), by its path: no other host's call ends so.
    "bedrock": ("bedrock", None, "/converse"),
    # OpenAI-compatible servers: every call of their folder (no host names one provider).
    "deepseek": ("compat/deepseek", None, "/chat/completions"),
    "cerebras": ("compat/cerebras", None, "/chat/completions"),
    "ollama": ("compat/ollama", None, "/chat/completions"),
    "openai-compatible": ("compat/together", None, "/chat/completions"),
    "openrouter": ("compat/openrouter", "openrouter", "/api/v1/chat/completions"),
    # No recorded traffic: the project's own fixtures (`fixtures/<name>/`).
    "xai": (None, "xai", "/v1/chat/completions"),
    "perplexity": (None, "perplexity", "/chat/completions"),
}


def interactions(name: str) -> list[Interaction]:
    """The adapter's answered calls in the corpus (the folder must be there in CI,
    else the test skips), or in its fixtures where the corpus has none."""
    folder, provider, path = ADAPTERS[name]
    if folder is None:
        files = sorted((FIXTURES / name).glob("*.json"))
    else:
        require_corpus(folder)
        files = corpus_files(folder, "*.yaml")
    found = []
    for file in files:
        cassette = load_cassette(file)
        calls = cassette.interactions if provider is None else cassette.for_provider(provider)
        for interaction in calls:
            if (interaction.path or "").endswith(path) and interaction.response.status == 200:
                found.append(interaction)
    return found


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_the_adapter_is_found_by_name(name: str) -> None:
    adapter = get_adapter(name)
    assert isinstance(adapter, Adapter)
    assert name == adapter.PROVIDER


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_decode_error_takes_the_answer_s_headers(name: str) -> None:
    decode_error = get_adapter(name).decode_error
    headers = inspect.signature(decode_error).parameters.get("headers")

    assert headers is not None
    assert (headers.kind, headers.default) == (inspect.Parameter.KEYWORD_ONLY, None)
    error = decode_error(500, b"<html>Bad gateway</html>", headers={"X-Request-Id": "req_1"})
    assert (error.status, error.request_id) == (500, "req_1")


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_encoded_requests_share_nothing_with_the_request(name: str) -> None:
    adapter = get_adapter(name)
    bodies = [i.request.json for i in interactions(name) if i.request is not None]
    assert bodies, f"no recorded {name} requests"
    for recorded in bodies:
        round_trip_sharing_nothing(adapter.decode_request, adapter.encode_request, recorded)


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_encoded_responses_share_nothing_with_the_response(name: str) -> None:
    adapter = get_adapter(name)
    bodies = [i.response.json for i in interactions(name) if i.response.json is not None]
    assert bodies, f"no recorded {name} responses"
    for recorded in bodies:
        round_trip_sharing_nothing(adapter.decode_response, adapter.encode_response, recorded)


# Folders under adapters/ that hold no adapter: the codec other adapters share.
SHARED_CODECS = {"chat-completions"}


def test_every_adapter_folder_is_checked_here() -> None:
    adapters = Path(__file__).parents[1] / "adapters"
    installed = {path.name for path in adapters.iterdir() if path.is_dir()} - SHARED_CODECS
    covered = set(ADAPTERS) | {name.split("-")[0] for name in ADAPTERS}
    assert installed <= covered


# adapter name -> (its package, its client's name, the SDK that client imports);
# `interlingua_openai` (two adapters) and `interlingua_google` have their own tests.
PACKAGES = {
    "anthropic": ("interlingua_anthropic", "AnthropicClient", "anthropic"),
    "bedrock": ("interlingua_bedrock", "BedrockClient", "boto3"),
    "anthropic-bedrock": ("interlingua_anthropic.bedrock", "AnthropicBedrockClient", "anthropic"),
    "anthropic-vertex": ("interlingua_anthropic.vertex", "AnthropicVertexClient", "anthropic"),
    "groq": ("interlingua_groq", "GroqClient", "groq"),
    "mistral": ("interlingua_mistral", "MistralClient", "mistralai"),
    "deepseek": ("interlingua_deepseek", "DeepSeekClient", "openai"),
    "cerebras": ("interlingua_cerebras", "CerebrasClient", "openai"),
    "ollama": ("interlingua_ollama", "OllamaClient", "openai"),
    "openai-compatible": ("interlingua_openai_compatible", "OpenAICompatibleClient", "openai"),
    "openrouter": ("interlingua_openrouter", "OpenRouterClient", "openai"),
    "xai": ("interlingua_xai", "XAIClient", "openai"),
    "perplexity": ("interlingua_perplexity", "PerplexityClient", "openai"),
}


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_importing_the_adapter_imports_no_sdk_until_a_client_is_asked_for(name: str) -> None:
    package, client, sdk = PACKAGES[name]
    code = (
        f"import sys, {package} as adapter\n"
        "assert adapter.encode_request and adapter.decode_stream\n"
        f"print(sorted({{{sdk!r}, 'httpx', 'httpx2'}} & set(sys.modules)))\n"
        f"adapter.{client}\n"
        f"print({sdk!r} in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )

    assert result.stdout.splitlines() == ["[]", "True"]


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_the_package_is_the_adapter_found_by_name(name: str) -> None:
    package, _, _ = PACKAGES[name]

    adapter = get_adapter(name)

    assert adapter is importlib.import_module(package)
    assert isinstance(adapter, Adapter)
    assert name == adapter.PROVIDER
    assert name in available_adapters()


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_the_export_list_names_what_the_package_has(name: str) -> None:
    package, client, _ = PACKAGES[name]
    module = importlib.import_module(package)

    assert [export for export in module.__all__ if not hasattr(module, export)] == []
    assert {client, f"Async{client}"} <= set(module.__all__) & set(dir(module))
    with pytest.raises(AttributeError):
        module.NoSuchClient  # noqa: B018
