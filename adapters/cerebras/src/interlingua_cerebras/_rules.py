"""What Cerebras accepts beyond Chat Completions' rules: what each model takes
for reasoning turned off.

Cerebras' reasoning guide: `reasoning_effort` `none` turns GLM's reasoning
off (the older `disable_reasoning` is deprecated); `gpt-oss-120b` takes
`low`, `medium`, `high` only (`none` is refused); Llama, Qwen's instruct
models and Gemma do not reason: no field.
"""

from __future__ import annotations

from interlingua.codec import ModelRules, ReasoningOff

__all__ = ["LEAST_REASONING"]

LEAST_REASONING: ModelRules = (
    (r"zai-glm-.*", ReasoningOff("none")),
    (r"gpt-oss-.*", ReasoningOff("low", "Cerebras' gpt-oss cannot turn reasoning off")),
    (r"llama.*|qwen-3-.*-instruct.*|gemma.*", ReasoningOff()),
)
