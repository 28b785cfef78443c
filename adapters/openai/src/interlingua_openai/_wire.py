"""OpenAI's Chat Completions wire: its name and its beta header. The shapes are the Chat
Completions codec's (`interlingua_chat_completions._wire`), whose defaults are
OpenAI's; what the codec keeps lives in `provider_data["openai"]`.
"""

from __future__ import annotations

__all__ = ["API_HEADERS", "PROVIDER", "SERVICE_TIER"]

PROVIDER = "openai"
# The API's header a client sends with its body, for the betas it uses (Chat
# Completions' and the Responses API's alike).
API_HEADERS = ("openai-beta",)

# What an answer of either API says of the prices it is charged at, for
# genai-prices (`interlingua.PriceSource.context`): the tier that served it, its
# `service_tier` ("default", "flex", "priority"), which picks the price.
SERVICE_TIER = {"service_tier": "service_tier"}
