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

from interlingua import FinishReason, TranslationReport

__all__ = ["FINISH_REASONS", "decode_finish_reason", "encode_finish_reason"]

FINISH_REASONS: dict[str, FinishReason] = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "content_filter": FinishReason.CONTENT_FILTER,
    "function_call": FinishReason.TOOL_CALLS,
}


def decode_finish_reason(
    raw: str | None, reasons: Mapping[str, FinishReason]
) -> FinishReason | None:
    """The meaning of a wire finish reason by the dialect's table `reasons`."""
    if raw is None:
        return None
    return reasons.get(raw, FinishReason.OTHER)


def encode_finish_reason(
    reason: FinishReason | None,
    raw: str | None,
    *,
    made_by: str | None,
    provider: str,
    reasons: Mapping[str, FinishReason],
    report: TranslationReport,
    path: str = "finish_reason",
) -> str | None:
    """The wire finish reason of an answer (or a stream) `made_by` a provider,
    for `provider` whose table is `reasons`."""
    if raw is not None and (made_by == provider or raw in reasons):
        return raw
    if reason is None:
        return None
    # The first wire value of the table that means `reason`.
    wire = next((value for value, meaning in reasons.items() if meaning is reason), None)
    if wire is None:
        report.transformed(
            path, f"{provider} has no {reason.value!r} finish reason; sent as 'stop'", "content"
        )
    return wire or "stop"
