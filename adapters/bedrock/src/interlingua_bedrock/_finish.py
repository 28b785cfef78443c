"""Finish reasons: Converse's `stopReason` <-> `FinishReason`.

    stopReason                                FinishReason
    end_turn, stop_sequence                   stop
    max_tokens, model_context_window_exceeded length
    tool_use                                  tool_calls
    guardrail_intervened, content_filtered    content_filter
    malformed_model_output, malformed_tool_use error
    anything else                             other

The values are botocore's `StopReason` enum. The raw value is kept in
`raw_finish_reason`, and goes back as it came when Bedrock made the response
or knows the value. A response made elsewhere that paused, or stopped for a
reason no value names, goes as `end_turn` (reported).
"""

from __future__ import annotations

from interlingua import FinishReason, TranslationReport
from interlingua_bedrock._wire import PROVIDER

__all__ = ["FINISH_REASONS", "STOP_REASONS", "finish_reason", "stop_reason"]

FINISH_REASONS: dict[str, FinishReason] = {
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "max_tokens": FinishReason.LENGTH,
    "model_context_window_exceeded": FinishReason.LENGTH,
    "tool_use": FinishReason.TOOL_CALLS,
    "guardrail_intervened": FinishReason.CONTENT_FILTER,
    "content_filtered": FinishReason.CONTENT_FILTER,
    "malformed_model_output": FinishReason.ERROR,
    "malformed_tool_use": FinishReason.ERROR,
}

# For a response another provider made; `pause` and `other` have no Bedrock value.
STOP_REASONS: dict[FinishReason, str] = {
    FinishReason.STOP: "end_turn",
    FinishReason.LENGTH: "max_tokens",
    FinishReason.TOOL_CALLS: "tool_use",
    FinishReason.CONTENT_FILTER: "content_filtered",
    FinishReason.ERROR: "malformed_model_output",
}
_NEAREST = "end_turn"


def finish_reason(stop_reason: str | None) -> FinishReason | None:
    """The core's finish reason for a `stopReason` (None: the model has not stopped)."""
    if stop_reason is None:
        return None
    return FINISH_REASONS.get(stop_reason, FinishReason.OTHER)


def stop_reason(
    finish: FinishReason | None,
    raw: str | None,
    *,
    provider: str | None,
    report: TranslationReport,
) -> str | None:
    """The `stopReason` for a finish: the raw value as it came when Bedrock
    (`provider`) made the response or the value is Bedrock's, else the value
    of its meaning."""
    if raw is not None and (raw in FINISH_REASONS or provider == PROVIDER):
        return raw
    if finish is None:
        return None
    if (value := STOP_REASONS.get(finish)) is not None:
        return value
    report.transformed("finish_reason", f"Bedrock has no {finish}; sent as {_NEAREST}", "content")
    return _NEAREST
