"""Perplexity's chat completions wire: its name and address. The shapes are
the Chat Completions codec's (`interlingua_chat_completions._wire`); what the
codec keeps lives in `provider_data["perplexity"]`.

Beside the message, an answer carries its web sources at the top level:
`citations` (their URLs, which the text cites as `[1]`, `[2]`, ...) and
`search_results` (`title`, `url`, `date`, ...), kept verbatim as the
response's fields, in a stream from the chunk that brings them.
"""

from __future__ import annotations

__all__ = ["API_KEY_VARIABLE", "BASE_URL", "PROVIDER"]

PROVIDER = "perplexity"
BASE_URL = "https://api.perplexity.ai"  # the SDK's base URL; it posts to /chat/completions
API_KEY_VARIABLE = "PERPLEXITY_API_KEY"
