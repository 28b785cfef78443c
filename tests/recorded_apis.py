"""Where each API's recorded answers are in the corpus: its folder, the provider
its cassettes name (None: every call of the folder, as an OpenAI-compatible
server's host names none), and how its endpoints' URL paths end, whole and
streamed. The modules that take every recorded answer of every API read it here.
"""

from __future__ import annotations

from interlingua.testing import Interaction

SOURCES: dict[str, tuple[str, str | None, tuple[str, ...]]] = {
    "anthropic": ("anthropic", "anthropic", ("/v1/messages",)),
    "openai": ("openai-chat", "openai", ("/v1/chat/completions",)),
    "openai-responses": ("openai-responses", "openai", ("/v1/responses",)),
    "mistral": ("mistral", "mistral", ("/v1/chat/completions",)),
    "groq": ("groq", "groq", ("/openai/v1/chat/completions",)),
    "google": ("google", "google", (":generateContent", ":streamGenerateContent")),
    "deepseek": ("compat/deepseek", None, ("/chat/completions",)),
    "cerebras": ("compat/cerebras", None, ("/chat/completions",)),
    "ollama": ("compat/ollama", None, ("/chat/completions",)),
    "openai-compatible": ("compat/together", None, ("/chat/completions",)),
    "openrouter": ("compat/openrouter", "openrouter", ("/api/v1/chat/completions",)),
    "bedrock": ("bedrock", "bedrock", ("/converse", "/converse-stream")),
    "anthropic-bedrock": ("bedrock", "bedrock", ("/invoke", "/invoke-with-response-stream")),
}


def legacy_completion(call: Interaction) -> bool:
    """Whether `call` is Claude's legacy Text Completions on InvokeModel (`prompt` in,
    `completion` out), which the adapter refuses by name (tests/test_anthropic_envelopes.py)."""
    body = call.request.json if call.request is not None else None
    return isinstance(body, dict) and "prompt" in body
