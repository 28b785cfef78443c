"""Responses API bodies (`Response` objects) to and from `ChatResponse`.

All output items become the parts of one assistant message, in order: text and
refusals of message items, reasoning (summary text, `encrypted_content` as
the signature), function calls, and built-in tool items as opaque parts.

`status` and `incomplete_details` give the finish reason: `completed` is
`stop` (`tool_calls` when the output holds calls), `incomplete` says why
(`max_output_tokens` is `length`), `failed` is `error`. The raw value is the
incomplete reason, else the status.

Invariant: `encode_response(decode_response(body)) == body`; the many fields
a response echoes (settings, `created_at`, `status`, ...) are kept verbatim, and
so is what `TokenUsage` cannot hold of the usage. A response made elsewhere
gets the status its finish reason gives; one the API has no status for
(`pause`, `other`) is sent as `completed`, and its `alternatives` are left out
(a Responses body holds one answer), each reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ChatResponse, FinishReason, Message, TokenUsage, TranslationReport
from interlingua.codec import WireReader, copy_json, overlay, resolve_report
from interlingua_openai._common import entry
from interlingua_openai.responses._items import ItemDecoder, ItemEncoder
from interlingua_openai.responses._wire import (
    CALL_ITEMS,
    FINISH_STATUSES,
    INCOMPLETE_REASONS,
    PROVIDER,
    RESPONSES_USAGE,
    STATUS_REASONS,
)

__all__ = ["decode_finish", "decode_response", "decode_usage", "encode_response", "encode_usage"]

_MODELLED = ("id", "model", "output", "usage")


def decode_response(body: Any) -> ChatResponse:
    """The `ChatResponse` of a Responses API body (a dict or the SDK's `Response`)."""
    read = WireReader(PROVIDER)
    body = read.body(body)
    output = read.array(read.field(body, "output", "", list), "output")
    items = ItemDecoder()
    parts = [
        part
        for index, item in enumerate(output)
        for part in items.assistant_item(read.object(item, f"output[{index}]"), f"output[{index}]")
    ]
    reason, raw = decode_finish(body)
    data: dict[str, Any] = {
        "fields": {key: value for key, value in body.items() if key not in _MODELLED}
    }
    usage = TokenUsage()
    if body.get("usage") is None:
        if "usage" in body:
            data["fields"]["usage"] = None
    else:
        usage, extra = _usage(read.object(body["usage"], "usage"), "usage", read)
        if extra:
            data["usage"] = extra
    if absent := [key for key in _MODELLED if key not in body]:
        data["absent"] = absent
    return ChatResponse(
        id=read.field(body, "id", "", str, None),
        model=read.field(body, "model", "", str, None),
        provider=PROVIDER,
        message=Message(role="assistant", parts=tuple(parts)),
        finish_reason=reason,
        raw_finish_reason=raw,
        usage=usage,
        provider_data={PROVIDER: data},
    )


def encode_response(
    response: ChatResponse, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Responses API body for `response`; losses go to `report`."""
    report = resolve_report(report, PROVIDER)
    data = entry(response, PROVIDER)
    body: dict[str, Any] = {
        "id": response.id or "",
        "model": response.model or "",
        "output": ItemEncoder(report, output=True).assistant_items(
            response.message.parts, "message"
        ),
        "usage": overlay(encode_usage(response.usage), data.get("usage", {})),
    }
    body.update(data["fields"] if "fields" in data else _made_elsewhere(response, report))
    for key in data.get("absent", ()):
        body.pop(key, None)
    for index, _ in enumerate(response.alternatives):
        report.dropped(f"alternatives[{index}]", "a Responses API body holds one answer")
    return copy_json(body)


def decode_usage(usage: Mapping[str, Any], path: str = "usage") -> TokenUsage:
    """`input_tokens` (cached ones included) is the input; every detail is kept."""
    return RESPONSES_USAGE.decode(usage, path, WireReader(PROVIDER))


def encode_usage(usage: TokenUsage) -> dict[str, Any]:
    return RESPONSES_USAGE.encode(usage)


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


def _usage(
    usage: Mapping[str, Any], path: str, read: WireReader
) -> tuple[TokenUsage, dict[str, Any]]:
    """The usage, and what `TokenUsage` cannot hold of it."""
    return decode_usage(usage, path), RESPONSES_USAGE.leftover(usage, path, read)


def _made_elsewhere(response: ChatResponse, report: TranslationReport) -> dict[str, Any]:
    """The fields a response made by another provider gets: its status, from the finish reason."""
    fields: dict[str, Any] = {"object": "response", "created_at": 0}
    reason = response.finish_reason
    if reason is None:
        # Not finished (a stream that broke off): decoded back, no finish reason.
        return {**fields, "status": "in_progress"}
    if reason not in FINISH_STATUSES:
        report.transformed(
            "finish_reason",
            f"the Responses API has no status for {reason.value!r}; sent as completed",
        )
    return {**fields, **FINISH_STATUSES.get(reason, {"status": "completed"})}
