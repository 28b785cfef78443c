"""Responses: a `GenerateContentResponse` body <-> `ChatResponse`.

    body                                 ChatResponse
    responseId, modelVersion             id, model (provider "google")
    candidates[0].content.parts          message.parts (see `_parts`)
    candidates[0].finishReason           finish_reason, raw_finish_reason (see `_finish`)
    candidates[0]'s other fields         provider_data echo `candidate` (`index`,
                                         `safetyRatings`, `groundingMetadata`, ...)
    candidates[1:]                       alternatives, each likewise
    promptFeedback.blockReason, with     finish content_filter, the block reason raw
      no candidate
    usageMetadata                        usage (see `_usage`)
    anything else (createTime,           provider_data fields, verbatim
      promptFeedback)

Invariant: `encode_response(decode_response(body)) == body` for every body
Google sends; the counts, content and candidates the body left out are its
forms (`ResponseForms`), so nothing is invented. Tool calls without an id
get ids made from the response's id and their place (`_parts.CallIds`).

`decode_response` takes the SDK's `GenerateContentResponse` as well, read
through its JSON dump (by alias: camelCase, as sent).
"""

from __future__ import annotations

from typing import Any, cast

from interlingua import ChatResponse, FinishReason, Message, ToolCallPart, TranslationReport
from interlingua.codec import (
    WireReader,
    as_wire_dict,
    copy_json,
    depth_checked,
    keep,
    kept,
    other_fields,
    overlay,
    report_other_response,
    resolve_report,
    wire_fields,
)
from interlingua_google._finish import decode_finish_reason, encode_finish_reason
from interlingua_google._parts import CallBook, CallIds, decode_part, encode_part
from interlingua_google._usage import COUNTS, USAGE, decode_usage, encode_usage, usage_fields
from interlingua_google._wire import PROVIDER, ResponseForms, WireDict

__all__ = ["decode_candidate", "decode_response", "encode_candidate", "encode_response"]

_MODELED = frozenset({"candidates", USAGE, "modelVersion", "responseId"})
_CANDIDATE = frozenset({"content", "finishReason"})

_reader = WireReader(PROVIDER)


def decode_response(body: Any) -> ChatResponse:
    """The response a `generateContent` body (a dict or the SDK's object) holds.

    Raises `DecodeError` naming the path of a missing or mistyped field.
    """
    if not isinstance(body, dict) and callable(getattr(body, "model_dump", None)):
        body = as_wire_dict(body, by_alias=True)
    with depth_checked(body, PROVIDER):
        return _decode_response(body)


def _decode_response(body: Any) -> ChatResponse:
    data = _reader.body(body)
    response_id = _reader.field(data, "responseId", "", str, None)
    candidates = _reader.field(data, "candidates", "", list, None)
    forms = ResponseForms()
    absent = forms["absent"] = [] if candidates is not None else ["candidates"]
    usage = data.get(USAGE)
    if isinstance(usage, dict):
        absent += [key for key in COUNTS if key not in usage]
    fields = other_fields(data, _MODELED)
    if isinstance(usage, dict) and (kept_usage := usage_fields(usage)):
        fields[USAGE] = kept_usage
    decoded = [
        decode_candidate(raw, f"candidates[{k}]", seed=response_id or "")
        for k, raw in enumerate(candidates or [])
    ]
    first = decoded[0] if decoded else _blocked(data)
    return ChatResponse(
        id=response_id,
        model=_reader.field(data, "modelVersion", "", str, None),
        provider=PROVIDER,
        message=first.message,
        finish_reason=first.finish_reason,
        raw_finish_reason=first.raw_finish_reason,
        usage=decode_usage(usage, USAGE),
        alternatives=tuple(decoded[1:]),
        provider_data=_merged(first, fields, forms),
    )


def _merged(first: ChatResponse, fields: WireDict, forms: ResponseForms) -> Any:
    entry = kept(first, PROVIDER)
    absent = [*forms.get("absent", []), *entry.get("forms", {}).get("absent", [])]
    return keep(
        PROVIDER,
        fields=fields,
        forms=ResponseForms(absent=absent),
        echo=entry.get("echo"),
    )


def _blocked(data: WireDict) -> ChatResponse:
    """A prompt blocked before any candidate: a content-filter finish, not an error."""
    feedback = data.get("promptFeedback")
    reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
    if not isinstance(reason, str):
        return ChatResponse(provider=PROVIDER)
    return ChatResponse(
        provider=PROVIDER, finish_reason=FinishReason.CONTENT_FILTER, raw_finish_reason=reason
    )


def decode_candidate(raw: Any, path: str, *, seed: str) -> ChatResponse:
    """One candidate as a response of its own: its message, its finish, and
    its other fields as the echo `candidate`."""
    candidate = _reader.object(raw, path)
    absent: list[str] = []
    content = _reader.field(candidate, "content", path, dict, None)
    if content is None:
        absent.append("content")
    else:
        absent += [f"content.{key}" for key in ("role", "parts") if key not in content]
    content = content or {}
    raw_parts = _reader.field(content, "parts", f"{path}.content", list, None)
    ids = CallIds(seed=seed)
    parts = tuple(
        decode_part(part, f"{path}.content.parts[{k}]", role="model", ids=ids)
        for k, part in enumerate(raw_parts or [])
    )
    message = Message(
        role="assistant",
        parts=parts,
        provider_data=keep(PROVIDER, fields=other_fields(content, ("role", "parts"))),
    )
    raw_reason = _reader.field(candidate, "finishReason", path, str, None)
    has_calls = any(isinstance(part, ToolCallPart) for part in parts)
    return ChatResponse(
        provider=PROVIDER,
        message=message,
        finish_reason=decode_finish_reason(raw_reason, has_calls=has_calls),
        raw_finish_reason=raw_reason,
        provider_data=keep(
            PROVIDER,
            forms=ResponseForms(absent=absent) if absent else None,
            echo={"candidate": other_fields(candidate, _CANDIDATE) or None},
        ),
    )


def encode_response(
    response: ChatResponse, *, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The `generateContent` body for `response`.

    Parts Gemini cannot take (reasoning another provider made, say) are left
    out and recorded in `report`.
    """
    report = resolve_report(report, PROVIDER)
    own = response.provider == PROVIDER
    forms = cast(ResponseForms, kept(response, PROVIDER).get("forms", {}))
    absent = frozenset(forms.get("absent", ()))
    body: WireDict = {}
    if "candidates" not in absent:
        alternatives = [
            encode_candidate(alternative, f"alternatives[{k}]", report)
            for k, alternative in enumerate(response.alternatives)
        ]
        body["candidates"] = [encode_candidate(response, "", report), *alternatives]
    if USAGE not in absent:
        body[USAGE] = encode_usage(response.usage, own=own, absent=absent, report=report)
    if response.model is not None:
        body["modelVersion"] = response.model
    if response.id is not None:
        body["responseId"] = response.id
    report_other_response(response, PROVIDER, report)
    return overlay(body, wire_fields(response, PROVIDER))


def encode_candidate(response: ChatResponse, path: str, report: TranslationReport) -> WireDict:
    """The candidate for a response's message, finish and echoed fields."""
    entry = kept(response, PROVIDER)
    absent = frozenset(cast(ResponseForms, entry.get("forms", {})).get("absent", ()))
    where = f"{path}.message" if path else "message"
    book = CallBook((response.message,))
    parts_path = f"{where}.parts"
    parts = (
        encode_part(part, (parts_path, j), report, book=book)
        for j, part in enumerate(response.message.parts)
    )
    candidate: WireDict = {}
    if "content" not in absent:
        content: WireDict = {"parts": [wire for wire in parts if wire is not None], "role": "model"}
        if "content.role" in absent:
            del content["role"]
        if "content.parts" in absent and not content["parts"]:
            del content["parts"]
        candidate["content"] = overlay(content, wire_fields(response.message, PROVIDER))
    if (reason := encode_finish_reason(response, report)) is not None:
        candidate["finishReason"] = reason
    echoed = cast(WireDict, entry.get("echo", {}).get("candidate", {}))
    return overlay(candidate, copy_json(echoed))
