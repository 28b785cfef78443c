"""Mistral's chat completions wire: its name, and what differs from the Chat
Completions shapes (`interlingua_chat_completions._wire`), which it otherwise
shares, keeping what the core does not model in `provider_data["mistral"]`.
"""

from __future__ import annotations

__all__ = ["PROVIDER"]

PROVIDER = "mistral"
