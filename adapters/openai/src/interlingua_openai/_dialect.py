"""OpenAI's dialect of Chat Completions, the plain one (every default is
OpenAI's), and the codec bound to it: the settings it shares with OpenAI's
Responses API (`prompt_cache_key` and the like) are sent as they came from
a Responses API request."""

from __future__ import annotations

from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_chat_completions._rules import OPENAI_SHARED_SETTINGS
from interlingua_openai._wire import PROVIDER
from interlingua_openai.responses._wire import PROVIDER as RESPONSES

__all__ = ["CODEC", "OPENAI"]

OPENAI = ChatCompletionsDialect(
    provider=PROVIDER, shared_settings={RESPONSES: OPENAI_SHARED_SETTINGS}, custom_tools=True
)
CODEC = ChatCompletionsCodec(OPENAI)
