"""Responses API finish reasons, both ways: a response's `status` and
`incomplete_details` give the finish reason.

    wire                                               core
    completed                                          stop (tool_calls when the output holds calls)
    incomplete, incomplete_details.reason              length (max_output_tokens), content_filter,
                                                       other
    failed                                             error
    cancelled                                          other
    in_progress, queued                                none

The raw value is the incomplete reason, else the status. A response made
elsewhere gets the status (and details) its finish reason gives; one the API
has no status for (`pause`, `other`) is sent as `completed` (reported).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ChatResponse, FinishReason, TranslationReport
from interlingua_openai.responses._wire import CALL_ITEMS

__all__ = [
    "FINISH_STATUSES",
    "INCOMPLETE_REASONS",
    "STATUS_REASONS",
    "decode_finish",
    "encode_status",
]

# `status` of a finished response; `completed` with calls in its output means tool calls.
STATUS_REASONS: dict[str, FinishReason] = {
    "completed": FinishReason.STOP,
    "failed": FinishReason.ERROR,
    "cancelled": FinishReason.OTHER,
}

# `incomplete_details.reason` of an `incomplete` response.
INCOMPLETE_REASONS: dict[str, FinishReason] = {
    "max_output_tokens": FinishReason.LENGTH,
    "content_filter": FinishReason.CONTENT_FILTER,
}

# The status (and details) a response made elsewhere gets for its finish reason.
FINISH_STATUSES: dict[FinishReason, dict[str, Any]] = {
    FinishReason.STOP: {"status": "completed"},
    FinishReason.TOOL_CALLS: {"status": "completed"},
    FinishReason.LENGTH: {
        "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"},
    },
    FinishReason.CONTENT_FILTER: {
        "status": "incomplete",
        "incomplete_details": {"reason": "content_filter"},
    },
    FinishReason.ERROR: {"status": "failed"},
}


def decode_finish(body: Mapping[str, Any]) -> tuple[FinishReason | None, str | None]:
    """The finish reason and raw value of a response's `status`."""
    status = body.get("status")
    if status == "incomplete":
        details = body.get("incomplete_details")
        why = details.get("reason") if isinstance(details, dict) else None
        raw = why if isinstance(why, str) else "incomplete"
        return INCOMPLETE_REASONS.get(raw, FinishReason.OTHER), raw
    if not isinstance(status, str) or status not in STATUS_REASONS:
        return None, status if isinstance(status, str) else None
    output = body.get("output") or []
    calls = any(isinstance(item, dict) and item.get("type") in CALL_ITEMS for item in output)
    if status == "completed" and calls:
        return FinishReason.TOOL_CALLS, status
    return STATUS_REASONS[status], status


def encode_status(response: ChatResponse, report: TranslationReport) -> dict[str, Any]:
    """The `status` (and `incomplete_details`) of a response made elsewhere."""
    reason = response.finish_reason
    if reason is None:
        # Not finished (a stream that broke off): decoded back, no finish reason.
        return {"status": "in_progress"}
    if reason not in FINISH_STATUSES:
        report.transformed(
            "finish_reason",
            f"the Responses API has no status for {reason.value!r}; sent as completed",
            "content",
        )
    return FINISH_STATUSES.get(reason, {"status": "completed"})
