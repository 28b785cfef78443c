"""Ollama's OpenAI-compatible wire (`/v1/chat/completions`): its name and
address. The shapes are the Chat Completions codec's
(`interlingua_chat_completions._wire`); what the codec keeps lives in
`provider_data["ollama"]`.
"""

from __future__ import annotations

__all__ = ["API_KEY_VARIABLE", "BASE_URL", "PLACEHOLDER_KEY", "PROVIDER"]

PROVIDER = "ollama"
# A local server; Ollama's cloud is https://ollama.com/v1, with a key.
BASE_URL = "http://localhost:11434/v1"
API_KEY_VARIABLE = "OLLAMA_API_KEY"
# A local server reads no key, but the SDK sends one: Ollama's documentation uses this.
PLACEHOLDER_KEY = "ollama"
