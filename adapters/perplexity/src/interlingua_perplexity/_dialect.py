"""Perplexity's dialect of Chat Completions, and the codec bound to it.

What Perplexity does its own way: its answers cite the web, with the sources
as the response's `citations` and `search_results` (`_wire`); usage with
search counts and the call's cost (`_usage`); the reasoning of its reasoning
models (`sonar-reasoning-pro`) inside `<think>` tags at the start of the
content, a `ReasoningPart` of provider `perplexity` that goes back inside the
tags to Perplexity only; and, as data, messages of `role` and `content` alone
(no `refusal` field), `max_tokens` for the limit, no user id field.
"""

from __future__ import annotations

from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_perplexity._usage import PERPLEXITY_USAGE
from interlingua_perplexity._wire import PROVIDER

__all__ = ["CODEC", "PERPLEXITY"]

PERPLEXITY = ChatCompletionsDialect(
    provider=PROVIDER,
    usage=PERPLEXITY_USAGE,
    think_tags=True,
    refusal_field=False,
    max_tokens_field="max_tokens",
    message_defaults={},
    choice_defaults={},
    user_field=None,
)
CODEC = ChatCompletionsCodec(PERPLEXITY)
