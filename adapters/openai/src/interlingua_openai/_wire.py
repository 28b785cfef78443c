"""OpenAI's Chat Completions wire: its name and its beta header. The shapes are the Chat
Completions codec's (`interlingua_chat_completions._wire`), whose defaults are
OpenAI's; what the codec keeps lives in `provider_data["openai"]`.
"""

from __future__ import annotations

__all__ = ["API_HEADERS", "PROVIDER"]

PROVIDER = "openai"
# The API's header a client sends with its body, for the betas it uses (Chat
# Completions' and the Responses API's alike).
API_HEADERS = ("openai-beta",)
