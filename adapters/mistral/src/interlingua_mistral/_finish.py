"""Mistral's finish reasons, both ways.

    wire             core
    stop             stop
    length           length
    model_length     length (the model's context was full)
    tool_calls       tool_calls
    error            error
    anything else    other

The wire value is kept as `raw_finish_reason` and goes back to Mistral as it
came; a finish reason made elsewhere goes as the first wire value of the same
meaning (`length`, not `model_length`), or `stop` when Mistral has none.
"""

from __future__ import annotations

from interlingua import FinishReason

__all__ = ["FINISH_REASONS"]

FINISH_REASONS: dict[str, FinishReason] = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "model_length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "error": FinishReason.ERROR,
}
