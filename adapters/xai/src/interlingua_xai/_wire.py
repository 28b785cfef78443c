"""xAI's chat completions wire: its name and address. The shapes are the
Chat Completions codec's (`interlingua_chat_completions._wire`); what the
codec keeps lives in `provider_data["xai"]`.
"""

from __future__ import annotations

__all__ = ["API_KEY_VARIABLE", "BASE_URL", "PROVIDER"]

PROVIDER = "xai"
BASE_URL = "https://api.x.ai/v1"  # the SDK's base URL; it posts to /chat/completions
API_KEY_VARIABLE = "XAI_API_KEY"
