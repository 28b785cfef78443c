"""Finish reasons: Anthropic's `stop_reason` <-> `FinishReason`.

    stop_reason                               FinishReason
    end_turn, stop_sequence                   stop
    max_tokens, model_context_window_exceeded length
    tool_use                                  tool_calls
    pause_turn                                pause
    refusal                                   content_filter
    anything else                             other

The raw value is kept in `raw_finish_reason`, and goes back as it came when
Anthropic made the response or knows the value.
"""

from __future__ import annotations

from interlingua import ChatResponse, FinishReason, TranslationReport
from interlingua_anthropic._wire import PROVIDER

__all__ = ["FINISH_REASONS", "STOP_REASONS", "decode_finish_reason", "encode_stop_reason"]

FINISH_REASONS: dict[str, FinishReason] = {
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "max_tokens": FinishReason.LENGTH,
    "model_context_window_exceeded": FinishReason.LENGTH,
    "tool_use": FinishReason.TOOL_CALLS,
    "pause_turn": FinishReason.PAUSE,
    "refusal": FinishReason.CONTENT_FILTER,
}

# For a response another provider made; `error` and `other` have no Anthropic value.
STOP_REASONS: dict[FinishReason, str] = {
    FinishReason.STOP: "end_turn",
    FinishReason.LENGTH: "max_tokens",
    FinishReason.TOOL_CALLS: "tool_use",
    FinishReason.PAUSE: "pause_turn",
    FinishReason.CONTENT_FILTER: "refusal",
}


def decode_finish_reason(stop_reason: str | None) -> FinishReason | None:
    if stop_reason is None:
        return None
    return FINISH_REASONS.get(stop_reason, FinishReason.OTHER)


def encode_stop_reason(response: ChatResponse, report: TranslationReport) -> str | None:
    raw = response.raw_finish_reason
    if raw is not None and (raw in FINISH_REASONS or response.provider == PROVIDER):
        return raw
    if response.finish_reason is None:
        return None
    if (stop_reason := STOP_REASONS.get(response.finish_reason)) is not None:
        return stop_reason
    report.transformed(
        "finish_reason", f"Anthropic has no {response.finish_reason}; sent as end_turn", "content"
    )
    return "end_turn"
