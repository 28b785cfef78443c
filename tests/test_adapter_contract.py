"""What every installed adapter promises, checked alike on recorded traffic.

- It is found by name through its entry point and has the six codec functions.
- Wire bodies and core values share nothing mutable: changing an encoded body,
  or the body that was decoded, never changes the request or response.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES, corpus_files, require_corpus, round_trip_sharing_nothing
from interlingua import Adapter, get_adapter
from interlingua.testing import Interaction, load_cassette

# adapter name -> (corpus folder, cassette provider, how its endpoint's URL path ends)
ADAPTERS = {
    "anthropic": ("anthropic", "anthropic", "/v1/messages"),
    "openai": ("openai-chat", "openai", "/v1/chat/completions"),
    "openai-responses": ("openai-responses", "openai", "/v1/responses"),
    "mistral": ("mistral", "mistral", "/v1/chat/completions"),
    "groq": ("groq", "groq", "/openai/v1/chat/completions"),
    "google": ("google", "google", ":generateContent"),
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
