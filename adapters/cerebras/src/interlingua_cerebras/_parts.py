"""Cerebras' content parts: Chat Completions', but for reasoning going back.

Cerebras answers with reasoning in the message's `reasoning` field (its
`parsed` format, the default of gpt-oss and GLM). Going back, gpt-oss takes the
field; a GLM or Qwen model takes its reasoning as its raw format writes it,
`<think>\n...\n</think>\n\n` before the answer's content.
"""

from __future__ import annotations

from typing import Any

from interlingua import ReasoningPart
from interlingua_cerebras._wire import THINK_TAG_MODELS
from interlingua_chat_completions._parts import PartEncoder

__all__ = ["THINK_CLOSING", "THINK_OPENING", "CerebrasPartEncoder"]

THINK_OPENING = "<think>\n"
THINK_CLOSING = "\n</think>\n\n"


class CerebrasPartEncoder(PartEncoder):
    """Reasoning of Cerebras' back in the form the model reads it."""

    def reasoning(self, part: ReasoningPart, path: str, model: str) -> tuple[str, Any]:
        where, value = super().reasoning(part, path, model)
        # Quirk: GLM and Qwen read earlier reasoning as `<think>` in the content, not a
        # `reasoning` field (Cerebras' reasoning guide: their raw format).
        if where == "field" and model.startswith(THINK_TAG_MODELS):
            return "think", f"{THINK_OPENING}{part.text}{THINK_CLOSING}"
        return where, value
