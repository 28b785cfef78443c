"""DeepSeek's chat completions wire: its name and address. The shapes are the
Chat Completions codec's (`interlingua_chat_completions._wire`); what the codec
keeps lives in `provider_data["deepseek"]`.
"""

from __future__ import annotations

__all__ = ["API_KEY_VARIABLE", "BASE_URL", "NON_THINKING_MODELS", "PROVIDER"]

PROVIDER = "deepseek"
# The documented base URL (`/v1` is an alias); the codec's path `/chat/completions` follows it.
BASE_URL = "https://api.deepseek.com"
API_KEY_VARIABLE = "DEEPSEEK_API_KEY"
# The model names that run without thinking mode (DeepSeek's pricing page: `deepseek-chat`
# is the non-thinking mode, `deepseek-reasoner` the thinking mode).
NON_THINKING_MODELS = frozenset({"deepseek-chat"})
