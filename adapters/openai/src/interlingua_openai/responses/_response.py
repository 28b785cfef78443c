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

A response made elsewhere is written with every field the SDK's `Response`
requires, in this API's own forms (`Head`):

- its id is `resp_` and 50 hex digits derived from the upstream's name and id
  (the same answer, the same id; an id already in this form is kept), and each
  output item's that has none is its kind's prefix (`msg_`, `fc_`, `rs_`,
  `ctc_`) and 50 hex digits derived from the response's id and the item's call
  id, or its place (`with_ids`);
- `created_at` is the upstream's creation time where its wire gave one (Chat
  Completions' `created`, Gemini's `createTime`), else the time of writing;
- the settings the API echoes from the request (`parallel_tool_calls`,
  `tool_choice`, `tools`), which an answer does not carry, are the API's
  defaults (`ECHOED_DEFAULTS`);
- its usage has both detail groups, their counts zero where the answer has none.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import ChatResponse, ContentPart, Message, TokenUsage, TranslationReport
from interlingua.codec import (
    WireReader,
    copy_json,
    created_time,
    depth_checked,
    derived_id,
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
    "ECHOED_DEFAULTS",
    "Head",
    "KeptResponse",
    "decode_response",
    "encode_body",
    "encode_response",
    "head_of",
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


# The settings a response echoes from its request, which the SDK's `Response`
# requires: an answer made elsewhere does not carry the request, so the API's defaults.
ECHOED_DEFAULTS: dict[str, Any] = {"parallel_tool_calls": True, "tool_choice": "auto", "tools": []}


@dataclass(frozen=True, slots=True)
class Head:
    """The id and creation time of a response made elsewhere, as this API writes them."""

    id: str
    created_at: int


def head_of(response: ChatResponse) -> Head:
    """The `Head` of `response`, made elsewhere: an id derived from the upstream's
    (from the answer itself where it has none), its creation time or now."""
    upstream = response.id
    if upstream is None:
        response_id = derived_id("resp_", response.model_dump_json())
    elif upstream.startswith("resp_"):
        response_id = upstream
    else:
        # The provider too: two providers' ids may be the same text.
        response_id = derived_id("resp_", response.provider or "", upstream)
    return Head(response_id, created_time(response.provider_data) or int(time.time()))


def encode_response(
    response: ChatResponse, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Responses API body for `response`; losses go to `report`."""
    return encode_body(response, resolve_report(report, PROVIDER))


def encode_body(
    response: ChatResponse, report: TranslationReport, head: Head | None = None
) -> dict[str, Any]:
    """The body for `response`; one made elsewhere with `head` (`head_of` it by
    default: a stream gives the one its start was written with)."""
    entry = kept(response, PROVIDER)
    output = PartEncoder(report, output=True).assistant_items(response.message.parts, "message")
    usage = RESPONSES_USAGE.encode(response.usage, report, elsewhere="fields" not in entry)
    usage = overlay(usage, copy_json(entry.get("echo", {}).get("usage", {})))
    body: dict[str, Any]
    if "fields" in entry:
        body = {"id": response.id or "", "model": response.model or "", "output": output}
        body["usage"] = usage
        body.update(copy_json(entry["fields"]))
    else:
        head = head or head_of(response)
        body = {"id": head.id, "object": "response", "created_at": head.created_at}
        body.update(copy_json(encode_status(response, report)))
        body.update(model=response.model or "", output=output, **copy_json(ECHOED_DEFAULTS))
        body["usage"] = usage
    for key in entry.get("forms", {}).get("absent", ()):
        body.pop(key, None)
    for index, _ in enumerate(response.alternatives):
        report.dropped(f"alternatives[{index}]", "a Responses API body holds one answer", "content")
    report_other_response(response, PROVIDER, report)
    return with_ids(body)


# The prefix of the ids this API gives its items, by item type.
_ID_PREFIXES = {
    "message": "msg",
    "function_call": "fc",
    "custom_tool_call": "ctc",
    "reasoning": "rs",
}


def with_id(item: dict[str, Any], output_index: int, response_id: str) -> dict[str, Any]:
    """`item` with its id first. An item made elsewhere (it has none) gets an id
    derived from the response's and the item's `call_id` (which says what call
    it is, wherever it stands), or else its place in the output, with the prefix
    this API gives such items; any other item is as it came."""
    own = item.get("id")
    if isinstance(own, str):
        return {"id": own, **item}
    prefix = _ID_PREFIXES.get(item.get("type", ""))
    if prefix is None:
        return item
    call_id = item.get("call_id")
    if isinstance(call_id, str) and call_id:
        return {"id": derived_id(f"{prefix}_", response_id, call_id), **item}
    return {"id": derived_id(f"{prefix}_", response_id, str(output_index)), **item}


def with_ids(response: dict[str, Any]) -> dict[str, Any]:
    """`response` whose output items all have the ids their stream items had."""
    output = response.get("output")
    response_id = str(response.get("id", ""))
    if isinstance(output, list):
        response["output"] = [
            with_id(item, index, response_id) for index, item in enumerate(output)
        ]
    return response
