"""OpenRouter's chat completions wire: its name, its address, and what its
reasoning parts keep. The shapes are the Chat Completions codec's
(`interlingua_chat_completions._wire`); what the codec keeps lives in
`provider_data["openrouter"]`.

An assistant message carries its reasoning twice: `reasoning`, the readable
text, and `reasoning_details`, one entry per block of the model that made it
(OpenRouter's docs, "Reasoning Tokens"):

    {"type": "reasoning.text", "text", "signature"}   text, signed (Anthropic)
    {"type": "reasoning.summary", "summary"}          a summary (OpenAI, xAI)
    {"type": "reasoning.encrypted", "data"}           encrypted reasoning

each with its `format` (`anthropic-claude-v1`, `openai-responses-v1`, ...),
`index` and, for some, `id`. Each entry is a `ReasoningPart` of provider
`openrouter`; the entry's other fields are the part's `fields`, and its type
the part's form `detail`. A message may carry entries with text and no
`reasoning` repeating it (absent, or null: a client sends the entries back
alone): the form `in_reasoning` says so, and their text is not written in
`reasoning`, which goes back as it came.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from interlingua.codec import OutputLimits

__all__ = [
    "API_KEY_VARIABLE",
    "BASE_URL",
    "DETAIL_TYPES",
    "OUTPUT_LIMITS",
    "PROVIDER",
    "ReasoningForms",
]

PROVIDER = "openrouter"
BASE_URL = "https://openrouter.ai/api/v1"  # the SDK's base URL; it posts to /chat/completions
API_KEY_VARIABLE = "OPENROUTER_API_KEY"
# Where a request asks for output tokens: either name of the limit, and the
# `reasoning` object's budget, which the limit counts (`_settings`).
OUTPUT_LIMITS = OutputLimits(
    tokens=("max_completion_tokens", "max_tokens"), budget=("reasoning.max_tokens",)
)

# Each detail type, and the field that holds its text (or its data).
DETAIL_TYPES = {
    "reasoning.text": "text",
    "reasoning.summary": "summary",
    "reasoning.encrypted": "data",
}


class ReasoningForms(TypedDict, total=False):
    detail: str
    """The `reasoning_details` entry the part is (its `type`); absent: the part
    is the message's `reasoning` text alone."""
    text: Literal["absent"]
    """The entry had no text of its own (a signature alone)."""
    in_reasoning: Literal[False]
    """The message's (or the stream delta's) `reasoning` did not repeat the
    entry's text: it was absent, null or another text, which the message keeps
    as it came. The text goes back in the entry alone, not in `reasoning`."""
