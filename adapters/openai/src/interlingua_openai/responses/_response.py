"""Responses API bodies (`Response` objects) to and from `ChatResponse`.

All output items become the parts of one assistant message, in order: text and
refusals of message items, reasoning (summary text, `encrypted_content` as
the signature), function calls, and built-in tool items as opaque parts.

`status` and `incomplete_details` give the finish reason (`_finish`).

Invariant: `encode_response(decode_response(body)) == body`; the many fields
a response echoes (settings, `created_at`, `status`, ...) are kept verbatim, and
so is what `TokenUsage` cannot hold of the usage (`_wire.ResponseForms`,
`_wire.ResponseEcho`). A response made elsewhere gets the status its finish
reason gives, and its `alternatives` are left out (a Responses body holds one
answer), reported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import ChatResponse, ContentPart, Message, TokenUsage, TranslationReport
from interlingua.codec import (
    WireReader,
    copy_json,
    depth_checked,
    keep,
    kept,
    overlay,
    report_other_response,
    resolve_report,
)
from interlingua_openai.responses._finish import decode_finish, encode_status
from interlingua_openai.responses._parts import PartDecoder, PartEncoder
from interlingua_openai.responses._usage import RESPONSES_USAGE
from interlingua_openai.responses._wire import PROVIDER, ResponseEcho, ResponseForms

__all__ = [
    "KeptResponse",
    "decode_response",
    "encode_response",
    "kept_response",
    "with_id",
    "with_ids",
]

# The response's fields the core models; every other one is kept verbatim.
_MODELLED = ("id", "model", "output", "usage")


def decode_response(body: Any) -> ChatResponse:
    """The `ChatResponse` of a Responses API body (a dict or the SDK's `Response`)."""
    with depth_checked(body, PROVIDER):
        return _decode_response(body)


def _decode_response(body: Any) -> ChatResponse:
    read = WireReader(PROVIDER)
    body = read.body(body)
    output = read.array(read.field(body, "output", "", list), "output")
    decoder = PartDecoder()
    parts: list[ContentPart] = []
    for index, item in enumerate(output):
        path = f"output[{index}]"
        parts.extend(decoder.assistant_item(read.object(item, path), path))
    reason, raw = decode_finish(body)
    response = kept_response(body, "", read)
    return ChatResponse(
        id=read.field(body, "id", "", str, None),
        model=read.field(body, "model", "", str, None),
        provider=PROVIDER,
        message=Message(role="assistant", parts=tuple(parts)),
        finish_reason=reason,
        raw_finish_reason=raw,
        usage=response.usage or TokenUsage(),
        provider_data=keep(
            PROVIDER,
            fields=response.fields,
            forms=response.forms,
            echo=ResponseEcho(usage=response.usage_kept) if response.usage_kept else None,
        ),
    )


@dataclass(frozen=True, slots=True)
class KeptResponse:
    """What a response body gives beside its output: the usage (None when it has
    none), and what the response keeps of the body and of the usage object."""

    usage: TokenUsage | None
    usage_kept: dict[str, Any]
    fields: dict[str, Any]
    forms: ResponseForms


def kept_response(body: Mapping[str, Any], path: str, read: WireReader) -> KeptResponse:
    """The usage and kept data of a response `body` at `path` (a stream's final
    response gives the same as the body)."""
    fields = {key: value for key, value in body.items() if key not in _MODELLED}
    forms: ResponseForms = {}
    if absent := [key for key in _MODELLED if key not in body]:
        forms["absent"] = absent
    where = f"{path}.usage" if path else "usage"
    if body.get("usage") is not None:
        usage, extra = RESPONSES_USAGE.decode_kept(read.object(body["usage"], where), where, read)
        return KeptResponse(usage, extra, fields, forms)
    if "usage" in body:
        fields["usage"] = None
    return KeptResponse(None, {}, fields, forms)


def encode_response(
    response: ChatResponse, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Responses API body for `response`; losses go to `report`."""
    report = resolve_report(report, PROVIDER)
    entry = kept(response, PROVIDER)
    usage = RESPONSES_USAGE.encode(response.usage, report)
    body: dict[str, Any] = {
        "id": response.id or "",
        "model": response.model or "",
        "output": PartEncoder(report, output=True).assistant_items(
            response.message.parts, "message"
        ),
        "usage": overlay(usage, copy_json(entry.get("echo", {}).get("usage", {}))),
    }
    if "fields" in entry:
        body.update(copy_json(entry["fields"]))
    else:
        status = copy_json(encode_status(response, report))
        body.update({"object": "response", "created_at": 0, **status})
    for key in entry.get("forms", {}).get("absent", ()):
        body.pop(key, None)
    for index, _ in enumerate(response.alternatives):
        report.dropped(f"alternatives[{index}]", "a Responses API body holds one answer")
    report_other_response(response, PROVIDER, report)
    return with_ids(body)


# The prefix of the ids this API gives its items, by item type.
_ID_PREFIXES = {"function_call": "fc", "custom_tool_call": "ctc", "reasoning": "rs"}


def with_id(item: dict[str, Any], output_index: int) -> dict[str, Any]:
    """`item` with its id first. A call or reasoning item made elsewhere (it has
    none) gets an id derived from its `call_id` (which says what call it is,
    wherever it stands), or else from its place in the output, with the prefix
    this API gives such items; any other item is as it came."""
    own = item.get("id")
    if isinstance(own, str):
        return {"id": own, **item}
    prefix = _ID_PREFIXES.get(item.get("type", ""))
    if prefix is None:
        return item
    call_id = item.get("call_id")
    if isinstance(call_id, str) and call_id:
        # surrogatepass: an id decoded from JSON may hold a lone surrogate.
        digest = hashlib.sha256(call_id.encode("utf-8", "surrogatepass")).hexdigest()
        return {"id": f"{prefix}_{digest[:48]}", **item}
    return {"id": f"{prefix}_{output_index + 1}", **item}


def with_ids(response: dict[str, Any]) -> dict[str, Any]:
    """`response` whose output items all have the ids their stream items had."""
    output = response.get("output")
    if isinstance(output, list):
        response["output"] = [with_id(item, index) for index, item in enumerate(output)]
    return response
