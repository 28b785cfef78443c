"""Groq's finish reasons, both ways.

    wire             core
    stop             stop
    length           length
    tool_calls       tool_calls
    function_call    tool_calls (the deprecated `functions` API)
    anything else    other

Groq writes no `content_filter`: the groq SDK's `ChatCompletion` takes the
four above only. The wire value is kept as `raw_finish_reason` and goes back
to Groq as it came; a finish reason made elsewhere goes as the first wire
value of the same meaning, or `stop` when Groq has none (reported).
"""

from __future__ import annotations

from interlingua import FinishReason

__all__ = ["FINISH_REASONS"]

# Quirk: Groq's API reference (the groq SDK's `ChatCompletion`, generated from it) gives
# an answer's `finish_reason` as "stop", "length", "tool_calls" or "function_call" only.
FINISH_REASONS: dict[str, FinishReason] = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "function_call": FinishReason.TOOL_CALLS,
}
