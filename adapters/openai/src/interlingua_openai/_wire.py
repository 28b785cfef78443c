"""OpenAI's Chat Completions wire: its name. The shapes are the Chat
Completions codec's (`interlingua_chat_completions._wire`), whose defaults are
OpenAI's; what the codec keeps lives in `provider_data["openai"]`.
"""

from __future__ import annotations

__all__ = ["PROVIDER"]

PROVIDER = "openai"
