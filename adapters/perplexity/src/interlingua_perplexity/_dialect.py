"""Perplexity's dialect of Chat Completions, and the codec bound to it.

What Perplexity does its own way: its answers cite the web, with the sources
as the response's `citations` and `search_results` (`_wire`); usage with
search counts and the call's cost (`_usage`); the reasoning of its reasoning
models (`sonar-reasoning-pro`) inside `<think>` tags at the start of the
content, a `ReasoningPart` of provider `perplexity` that goes back inside the
tags to Perplexity only; no tools, and turns that alternate (`_rules`: the
history's tool calls and results left out, later system messages moved to
the start, consecutive turns of one role joined, each reported); and, as
data, messages of `role` and `content` alone (no `refusal` field), images
but no audio or `file` parts (its documents are `file_url`s), `max_tokens`
for the limit, no user id field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interlingua import ChatRequest, TranslationReport
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect
from interlingua_perplexity._rules import in_turns, without_tools
from interlingua_perplexity._usage import PERPLEXITY_USAGE
from interlingua_perplexity._wire import PROVIDER

__all__ = ["CODEC", "PERPLEXITY", "PerplexityDialect"]


@dataclass(frozen=True, eq=False)
class PerplexityDialect(ChatCompletionsDialect):
    """Chat Completions as Perplexity speaks it; see the module doc."""

    def sent_request(self, request: ChatRequest, report: TranslationReport) -> ChatRequest:
        return without_tools(request, report)

    def sent_body(
        self, body: dict[str, Any], request: ChatRequest, report: TranslationReport
    ) -> dict[str, Any]:
        return in_turns(body, request, report)


PERPLEXITY = PerplexityDialect(
    provider=PROVIDER,
    usage=PERPLEXITY_USAGE,
    think_tags=True,
    refusal_field=False,
    max_tokens_field="max_tokens",
    message_defaults={},
    choice_defaults={},
    user_field=None,
    audio_formats={},
    document_parts=False,
    # Quirk: Perplexity's streams give the usage unasked, on the chunk that finishes them
    # (with the citations again; fixtures/perplexity/stream_think_citations.json).
    usage_chunk=False,
    usage_unasked=True,
)
CODEC = ChatCompletionsCodec(PERPLEXITY)
