"""The wire of an OpenAI-compatible server that adds nothing of its own: its
name and where its address and key are found. The shapes are the Chat
Completions codec's (`interlingua_chat_completions._wire`); what the codec
keeps lives in `provider_data["openai-compatible"]`.
"""

from __future__ import annotations

__all__ = ["API_KEY_VARIABLE", "BASE_URL_VARIABLE", "PLACEHOLDER_KEY", "PROVIDER"]

PROVIDER = "openai-compatible"
# There is no default address: the server's is given, or read from here.
BASE_URL_VARIABLE = "OPENAI_COMPATIBLE_BASE_URL"
API_KEY_VARIABLE = "OPENAI_COMPATIBLE_API_KEY"
# What a server started without a key is sent (vLLM's documentation uses it).
PLACEHOLDER_KEY = "EMPTY"
