"""Responses: a Converse answer <-> `ChatResponse`.

    body                            ChatResponse
    output.message.content          message.parts (see `_parts`: a server tool's
                                    toolUse and toolResult are OpaqueParts)
    stopReason                      finish_reason, raw_finish_reason (see `_finish`)
    usage                           usage (see `_usage`)
    metrics, trace,                 provider_data fields, verbatim
      performanceConfig,
      additionalModelResponseFields,
      anything else

A Converse answer has no id and names no model (the model is the request's
URL's): the response's `id` and `model` are None.

Invariant: `encode_response(decode_response(body)) == body` for every body
Converse sends. The usage is written with the counts the body had (its form
`usage`, both spellings of the cache counts where both came); for a response
made elsewhere, the three counts and each cache count that is not 0.

`decode_response` takes boto3's answer too (`client.converse(...)`): its
`ResponseMetadata`, the HTTP answer's, is left out, and bytes boto3 decoded
are read as the base64 the body had.
"""

from __future__ import annotations

from typing import Any, cast

from interlingua import ChatResponse, Message, TranslationReport
from interlingua.codec import (
    WireReader,
    depth_checked,
    keep,
    kept,
    other_fields,
    overlay,
    report_other_response,
    resolve_report,
    wire_fields,
)
from interlingua_bedrock._finish import finish_reason, stop_reason
from interlingua_bedrock._parts import decode_blocks, encode_part
from interlingua_bedrock._usage import decode_usage, encode_usage, usage_fields, usage_forms
from interlingua_bedrock._wire import PROVIDER, WireDict

__all__ = ["decode_response", "encode_response"]

# The body's fields the core models; every other one is kept verbatim.
_MODELED = frozenset({"output", "stopReason", "usage", "ResponseMetadata"})
_MESSAGE_KEYS = frozenset({"role", "content"})

_reader = WireReader(PROVIDER)


def decode_response(body: Any) -> ChatResponse:
    """The response a Converse answer (its JSON, or boto3's dict) holds.

    Raises `DecodeError` naming the path of a missing or mistyped field.
    """
    with depth_checked(body, PROVIDER):
        return _decode_response(_reader.body(body))


def _decode_response(data: WireDict) -> ChatResponse:
    output = _reader.field(data, "output", "", dict)
    message = _reader.field(output, "message", "output", dict)
    blocks = _reader.field(message, "content", "output.message", list)
    parts = decode_blocks(blocks, "output.message.content", role="assistant")
    raw_reason = _reader.field(data, "stopReason", "", str, None)
    usage = _reader.field(data, "usage", "", dict, None)
    fields = other_fields(data, _MODELED)
    if usage is not None and (unmodeled := usage_fields(usage)):
        fields["usage"] = unmodeled
    if beside := other_fields(output, ("message",)):
        fields["output"] = beside
    if around := other_fields(message, _MESSAGE_KEYS):
        fields.setdefault("output", {})["message"] = around
    forms = {"usage": usage_forms(usage)} if usage is not None else None
    return ChatResponse(
        provider=PROVIDER,
        message=Message(role="assistant", parts=tuple(parts)),
        finish_reason=finish_reason(raw_reason),
        raw_finish_reason=raw_reason,
        usage=decode_usage(usage),
        provider_data=keep(PROVIDER, fields=fields, forms=forms),
    )


def encode_response(
    response: ChatResponse, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Converse answer for `response`.

    Parts Converse cannot take (reasoning another provider made, say) are
    left out and recorded in `report`.
    """
    report = resolve_report(report, PROVIDER)
    if response.alternatives:
        report.dropped(
            "alternatives", "Converse answers with one message; the others are left out", "content"
        )
    content: list[WireDict] = []
    for j, part in enumerate(response.message.parts):
        content += encode_part(part, f"message.parts[{j}]", report, in_request=False)
    own = response.provider == PROVIDER
    counts = kept(response, PROVIDER).get("forms", {}).get("usage")
    body: WireDict = {"output": {"message": {"role": "assistant", "content": content}}}
    raw = stop_reason(
        response.finish_reason,
        response.raw_finish_reason,
        provider=response.provider,
        report=report,
    )
    if raw is not None:
        body["stopReason"] = raw
    body["usage"] = encode_usage(
        response.usage, own=own, report=report, counts=cast("list[str] | None", counts)
    )
    report_other_response(response, PROVIDER, report)
    return overlay(body, wire_fields(response, PROVIDER))
