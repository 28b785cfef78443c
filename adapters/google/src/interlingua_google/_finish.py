"""Finish reasons: a candidate's `finishReason` <-> `FinishReason`.

    finishReason                                    FinishReason
    STOP                                            stop
    MAX_TOKENS                                      length
    SAFETY, RECITATION, BLOCKLIST,                  content_filter
      PROHIBITED_CONTENT, SPII, IMAGE_SAFETY,
      IMAGE_PROHIBITED_CONTENT, IMAGE_RECITATION,
      MODEL_ARMOR, LANGUAGE
    MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL,  error
      TOO_MANY_TOOL_CALLS, MISSING_THOUGHT_SIGNATURE,
      MALFORMED_RESPONSE
    anything else (OTHER, FINISH_REASON_UNSPECIFIED, other
      NO_IMAGE, IMAGE_OTHER)

A response made elsewhere that paused goes as STOP, one that failed as
OTHER (Gemini has no finish of either meaning; reported). A call with
function calls in it stops with STOP: Gemini has no finish
reason of its own for them, so a STOP answer holding a call is `tool_calls`,
and `tool_calls` goes back as STOP. A prompt blocked before any candidate
(`promptFeedback.blockReason` and no candidates) is `content_filter`, the
block reason its raw value. The raw value is kept in `raw_finish_reason`,
and goes back as it came when Google made the response or knows the value.
"""

from __future__ import annotations

from interlingua import ChatResponse, FinishReason, TranslationReport
from interlingua_google._wire import PROVIDER

__all__ = ["FINISH_REASONS", "decode_finish_reason", "encode_finish_reason"]

_FILTERED = (
    "SAFETY",
    "RECITATION",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_RECITATION",
    "MODEL_ARMOR",
    "LANGUAGE",
)
_FAILED = (
    "MALFORMED_FUNCTION_CALL",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
    "MISSING_THOUGHT_SIGNATURE",
    "MALFORMED_RESPONSE",
)
FINISH_REASONS: dict[str, FinishReason] = {
    "STOP": FinishReason.STOP,
    "MAX_TOKENS": FinishReason.LENGTH,
    **dict.fromkeys(_FILTERED, FinishReason.CONTENT_FILTER),
    **dict.fromkeys(_FAILED, FinishReason.ERROR),
    "OTHER": FinishReason.OTHER,
}

# For a response another provider made.
_FINISH_VALUES: dict[FinishReason, str] = {
    FinishReason.STOP: "STOP",
    FinishReason.TOOL_CALLS: "STOP",
    FinishReason.LENGTH: "MAX_TOKENS",
    FinishReason.CONTENT_FILTER: "SAFETY",
    FinishReason.OTHER: "OTHER",
}
# Gemini has no value of these meanings: the nearest, reported.
_NEAREST: dict[FinishReason, str] = {FinishReason.PAUSE: "STOP", FinishReason.ERROR: "OTHER"}


def decode_finish_reason(raw: str | None, *, has_calls: bool) -> FinishReason | None:
    if raw is None:
        return None
    reason = FINISH_REASONS.get(raw, FinishReason.OTHER)
    return FinishReason.TOOL_CALLS if reason is FinishReason.STOP and has_calls else reason


def encode_finish_reason(response: ChatResponse, report: TranslationReport) -> str | None:
    raw = response.raw_finish_reason
    if raw is not None and (raw in FINISH_REASONS or response.provider == PROVIDER):
        return raw
    if response.finish_reason is None:
        return None
    if (value := _FINISH_VALUES.get(response.finish_reason)) is not None:
        return value
    nearest = _NEAREST[response.finish_reason]
    report.transformed(
        "finish_reason", f"Gemini has no {response.finish_reason}; sent as {nearest}", "content"
    )
    return nearest
