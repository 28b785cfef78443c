"""Groq's chat completions wire: its name. The shapes are the Chat
Completions codec's (`interlingua_chat_completions._wire`); what the codec
keeps lives in `provider_data["groq"]`.
"""

from __future__ import annotations

__all__ = ["CHAT_COMPLETIONS_PATH", "PROVIDER"]

PROVIDER = "groq"
# The SDK's base URL is the host alone (https://api.groq.com); its
# `chat.completions.create` posts here.
CHAT_COMPLETIONS_PATH = "/openai/v1/chat/completions"
