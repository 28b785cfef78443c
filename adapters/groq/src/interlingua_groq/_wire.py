"""Groq's chat completions wire: its name. The shapes are the Chat
Completions codec's (`interlingua_chat_completions._wire`); what the codec
keeps lives in `provider_data["groq"]`.
"""

from __future__ import annotations

__all__ = ["PROVIDER"]

PROVIDER = "groq"
