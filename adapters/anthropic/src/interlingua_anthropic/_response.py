"""Responses: a Messages API response body <-> `ChatResponse`.

    body                        ChatResponse
    id, model                   id, model (provider "anthropic")
    content                     message.parts (see `_parts`; server-tool and
                                unknown blocks are OpaqueParts)
    stop_reason                 finish_reason, raw_finish_reason (see `_finish`)
    usage                       usage (see `_usage`)
    anything else               provider_data fields (`stop_sequence`,
                                `stop_details`, `container`, the usage's
                                `service_tier`...), verbatim

Invariant: `encode_response(decode_response(body)) == body` for every body
Anthropic sends. The four counts and `stop_sequence` are written for a
response made elsewhere, as the API always sends them; for a decoded body that
left one out or sent it as null, the response's forms (`ResponseForms`) keep
that, so nothing is invented. An answer made with no id or model (Bedrock's
Converse) gets an id derived from it, in this API's form, and an empty model.

`decode_response` takes the SDK's `Message` as well; it is read through its
JSON dump (`exclude_unset`), which holds what was received, an unknown block
too, where the SDK's attributes would show that block as a `TextBlock`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from interlingua import ChatResponse, Message, TranslationReport
from interlingua.codec import (
    WireReader,
    depth_checked,
    derived_id,
    keep,
    kept,
    other_fields,
    overlay,
    report_other_response,
    resolve_report,
    wire_fields,
)
from interlingua_anthropic._finish import decode_finish_reason, encode_stop_reason
from interlingua_anthropic._parts import decode_block, encode_part
from interlingua_anthropic._usage import COUNTS, decode_usage, encode_usage
from interlingua_anthropic._wire import PROVIDER, MessageBody, ResponseForms, WireDict

__all__ = ["ID_PREFIX", "decode_response", "encode_response", "message_delta"]

# Fields the API always sends; a response made elsewhere gets them too.
_DEFAULTS: WireDict = {"stop_sequence": None}
ID_PREFIX = "msg_"  # the start of an answer's id

# The always-sent fields whose absence or null a decoded body's forms record.
_FORM_PATHS = ("stop_sequence", "usage", *(f"usage.{key}" for key in COUNTS))

# What an absent or null field decodes to, so encodes to; only such a value takes the form back.
_UNREAD_VALUES: tuple[Any, ...] = (None, 0, dict.fromkeys(COUNTS, 0))

_reader = WireReader(PROVIDER)


def decode_response(body: Any) -> ChatResponse:
    """The response a Messages API body (a dict or the SDK's `Message`) holds.

    Raises `DecodeError` naming the path of a missing or mistyped field.
    """
    with depth_checked(body, PROVIDER):
        return _decode_response(body)


def _decode_response(body: Any) -> ChatResponse:
    data = _reader.body(body)
    blocks = _reader.field(data, "content", "", list)
    parts = [decode_block(b, f"content[{k}]", role="assistant") for k, b in enumerate(blocks)]
    raw_reason = _reader.field(data, "stop_reason", "", str, None)
    return ChatResponse(
        id=_reader.field(data, "id", "", str, None),
        model=_reader.field(data, "model", "", str, None),
        provider=PROVIDER,
        message=Message(role="assistant", parts=tuple(parts)),
        finish_reason=decode_finish_reason(raw_reason),
        raw_finish_reason=raw_reason,
        usage=decode_usage(data.get("usage"), "usage"),
        provider_data=keep(PROVIDER, fields=_unmodeled(data), forms=_forms(data)),
    )


# The body's fields the core models; every other one is kept verbatim.
_MODELED = frozenset({"id", "type", "role", "model", "content", "stop_reason", "usage"})


def _unmodeled(body: WireDict) -> WireDict:
    """What encoding the decoded response does not give back: the fields beside
    the modeled ones, and what of the usage object is no number (the counts and
    every number are the usage's): `leftover` of the body, without encoding it."""
    fields = other_fields(body, _MODELED)
    usage = body.get("usage")
    if isinstance(usage, dict) and (unmodeled := _no_numbers(usage)):
        fields["usage"] = unmodeled
    return fields


def _no_numbers(usage: WireDict) -> WireDict:
    """A usage object's leaves that are no number: an object without a number
    in it is kept whole, as encoding writes none of it."""
    unmodeled: WireDict = {}
    for key, value in usage.items():
        if isinstance(value, dict):
            inner = _no_numbers(value)
            if inner or not value:
                unmodeled[key] = inner if inner else value
        elif value is None and key in COUNTS:
            continue  # a null count is a form
        elif not isinstance(value, int | float) or isinstance(value, bool):
            unmodeled[key] = value
    return unmodeled


def _forms(body: WireDict) -> ResponseForms:
    """The always-sent fields `body` left out or sent as null."""
    forms = ResponseForms()
    usage = body.get("usage")
    counts = [f"usage.{key}" for key in COUNTS] if isinstance(usage, dict) else []
    for path in ("stop_sequence", "usage", *counts):
        parent, key = _parent(body, path)
        assert parent is not None  # a count's parent, the usage, is an object
        if key not in parent:
            forms.setdefault("absent", []).append(path)
        elif parent[key] is None and path != "stop_sequence":
            forms.setdefault("null", []).append(path)
    return forms


def _parent(body: WireDict, path: str) -> tuple[WireDict | None, str]:
    """The object holding a dotted `path`'s last key (None when there is none), and that key."""
    *names, key = path.split(".")
    for name in names:
        inner = body.get(name)
        if not isinstance(inner, dict):
            return None, key
        body = inner
    return body, key


def encode_response(
    response: ChatResponse, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Messages API body for `response`.

    Parts Anthropic cannot take (reasoning another provider made, say) are
    left out and recorded in `report`.
    """
    report = resolve_report(report, PROVIDER)
    if response.alternatives:
        report.dropped(
            "alternatives", "Anthropic answers with one message; the others are left out", "content"
        )
    body = overlay(
        overlay(_encode_fields(response, report), wire_fields(response, PROVIDER)), _DEFAULTS
    )
    _apply_forms(body, cast(ResponseForms, kept(response, PROVIDER).get("forms", {})))
    report_other_response(response, PROVIDER, report)
    return body


def _apply_forms(body: WireDict, forms: ResponseForms) -> None:
    """Leaves out, or writes as null, the fields the decoded body had so, where
    the value is still the one their absence gave."""
    for path, absent in _form_paths(forms):
        parent, key = _parent(body, path)
        if parent is None or key not in parent or parent[key] not in _UNREAD_VALUES:
            continue
        if absent:
            del parent[key]
        else:
            parent[key] = None


def _form_paths(forms: ResponseForms) -> Iterator[tuple[str, bool]]:
    """Each path of `forms`, and whether it was absent (else null), in `_FORM_PATHS` order:
    an object before its counts."""
    absent, null = set(forms.get("absent", ())), set(forms.get("null", ()))
    for path in _FORM_PATHS:
        if path in absent or path in null:
            yield path, path in absent


def _encode_fields(response: ChatResponse, report: TranslationReport) -> MessageBody:
    content = (
        encode_part(part, f"message.parts[{j}]", report, role="assistant", in_request=False)
        for j, part in enumerate(response.message.parts)
    )
    # An answer made with neither id nor model (Bedrock's Converse): an id of this
    # API's form, and no model name.
    answer_id = response.id
    if answer_id is None:
        answer_id = derived_id(ID_PREFIX, response.model_dump_json())
    return MessageBody(
        id=answer_id,
        type="message",
        role="assistant",
        model="" if response.model is None else response.model,
        content=[block for block in content if block is not None],
        stop_reason=encode_stop_reason(response, report),
        usage=encode_usage(response.usage, own=response.provider == PROVIDER, report=report),
    )


# The message's fields message_delta gives each time; it gives the others that changed.
_STOP_FIELDS = ("stop_reason", "stop_sequence", "stop_details")
_NOT_IN_DELTA = frozenset({"id", "type", "role", "model", "content", "usage", *_STOP_FIELDS})
# Quirk: the beta API's message_delta gives these message fields beside its `delta`,
# not in it (the SDKs' `BetaRawMessageDeltaEvent.context_management`, `.input_transformations`).
_BESIDE_DELTA = frozenset({"context_management", "input_transformations"})
_UNSET: Any = object()


def message_delta(final: WireDict, start: WireDict) -> WireDict:
    """A stream's message_delta event, for the message as it ended (`final`, its body)
    after a message_start that gave `start`: the stop fields and the usage's counts,
    and the other fields that changed (in `delta`, or beside it: `_BESIDE_DELTA`)."""
    delta = {key: final[key] for key in _STOP_FIELDS if key in final}
    changed = _changed(final, start, skip=_NOT_IN_DELTA)
    delta |= {key: value for key, value in changed.items() if key not in _BESIDE_DELTA}
    usage = final.get("usage", {})
    usage = {key: usage[key] for key in COUNTS if key in usage} | _changed(
        usage, start.get("usage", {}), skip=frozenset(COUNTS)
    )
    beside = {key: value for key, value in changed.items() if key in _BESIDE_DELTA}
    return {"type": "message_delta", "delta": delta, "usage": usage, **beside}


def _changed(now: WireDict, before: WireDict, *, skip: frozenset[str]) -> WireDict:
    """The fields of `now` not in `skip` that `before` did not have so."""
    return {
        key: value
        for key, value in now.items()
        if key not in skip and before.get(key, _UNSET) != value
    }
