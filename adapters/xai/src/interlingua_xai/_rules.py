"""What xAI accepts beyond Chat Completions' rules: what each model takes for
reasoning turned off.

xAI's reasoning guide: `grok-3-mini` takes `reasoning_effort` `low` or
`high`; `grok-4.3` takes `none` (reasoning "disabled entirely"), `low`,
`medium`, `high`; `grok-4.5` `low`, `medium`, `high` ("Reasoning cannot be
disabled"); the other Grok 4 reasoning models always reason and take no
effort; a `-non-reasoning` model, and Grok 3 and 2, do not reason: no field.
"""

from __future__ import annotations

from interlingua.codec import ModelRules, ReasoningOff

__all__ = ["LEAST_REASONING"]

_ALWAYS = ReasoningOff(said="xAI's Grok 4 reasoning models always reason, and take no effort")
LEAST_REASONING: ModelRules = (
    (r"grok-3-mini.*", ReasoningOff("low", "xAI's grok-3-mini cannot turn reasoning off")),
    (r"grok-4\.3.*", ReasoningOff("none")),
    (r"grok-4\.5.*", ReasoningOff("low", "xAI's grok-4.5 cannot turn reasoning off")),
    (r"grok-.*non-reasoning.*|grok-[23](-.*)?", ReasoningOff()),
    (r"grok-4.*|grok-code-.*", _ALWAYS),
)
