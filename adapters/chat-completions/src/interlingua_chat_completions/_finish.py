"""Chat Completions finish reasons, both ways.

    wire             core
    stop             stop
    length           length
    tool_calls       tool_calls
    function_call    tool_calls (the deprecated `functions` API)
    content_filter   content_filter
    anything else    other

`raw_finish_reason` keeps the wire value, and goes back as it came to the
provider that sent it (or when the dialect knows it); a finish reason made
elsewhere is sent as its wire name, or as `stop` when there is none (reported).
"""

from __future__ import annotations

from collections.abc import Mapping

from interlingua import ChatResponse, FinishReason, TranslationReport

__all__ = ["FINISH_REASONS", "WIRE_FINISH_REASONS", "decode_finish_reason", "encode_finish_reason"]

FINISH_REASONS: dict[str, FinishReason] = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "content_filter": FinishReason.CONTENT_FILTER,
    "function_call": FinishReason.TOOL_CALLS,
}

WIRE_FINISH_REASONS: dict[FinishReason, str] = {
    FinishReason.STOP: "stop",
    FinishReason.LENGTH: "length",
    FinishReason.TOOL_CALLS: "tool_calls",
    FinishReason.CONTENT_FILTER: "content_filter",
}


def decode_finish_reason(
    raw: str | None, reasons: Mapping[str, FinishReason]
) -> FinishReason | None:
    """The meaning of a wire finish reason by the dialect's table `reasons`."""
    if raw is None:
        return None
    return reasons.get(raw, FinishReason.OTHER)


def encode_finish_reason(
    response: ChatResponse,
    provider: str,
    reasons: Mapping[str, FinishReason],
    report: TranslationReport,
    path: str = "finish_reason",
) -> str | None:
    """The wire finish reason of `response`, for `provider` whose table is `reasons`."""
    raw, reason = response.raw_finish_reason, response.finish_reason
    if raw is not None and (response.provider == provider or raw in reasons):
        return raw
    if reason is None:
        return None
    if reason not in WIRE_FINISH_REASONS:
        report.transformed(path, f"Chat Completions has no {reason.value!r}; sent as 'stop'")
    return WIRE_FINISH_REASONS.get(reason, "stop")
