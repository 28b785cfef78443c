"""Responses: a Messages API response body <-> `ChatResponse`, with the stop
reason and usage tables.

Content blocks map as `_blocks` says (server-tool blocks and unknown ones are
kept whole as `OpaquePart`s). `stop_reason` maps onto `FinishReason` through
`FINISH_REASONS`, the raw value kept in `raw_finish_reason`.

Usage: core `input_tokens` counts every input token, so it is Anthropic's
`input_tokens` (uncached) + `cache_creation_input_tokens` (cache writes) +
`cache_read_input_tokens` (cache reads). Every other number in the usage
object (the `cache_creation` breakdown, `server_tool_use` counts,
`output_tokens_details.thinking_tokens`...) goes into `details` under its
dotted path, and the thinking tokens are `reasoning_tokens` as well. A count
that is absent or null reads as 0.

Invariant: `encode_response(decode_response(body)) == body` for every body
Anthropic sends. The fields the core does not model (`stop_sequence`,
`stop_details`, `container`, the usage's `service_tier`...) are kept in
`provider_data["anthropic"]`, found with `leftover` against the body the core
fields give, and laid back over it. The four counts and `stop_sequence` are
written for a response made elsewhere, as the API always sends them; for a
decoded body that left one out or sent it as null, the marker
`provider_data["anthropic"]["wire_forms"]` (`{"usage.cache_read_input_tokens":
"absent"}`, say) keeps that form, so nothing is invented. Markers are never sent.

`decode_response` takes the SDK's `Message` as well; it is read through its
JSON dump (`exclude_unset`), which holds what was received, an unknown block
too, where the SDK's attributes would show that block as a `TextBlock`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from interlingua import ChatResponse, FinishReason, Message, TokenUsage, TranslationReport
from interlingua.codec import WireReader, copy_json, leftover, overlay, resolve_report
from interlingua_anthropic._blocks import decode_block, encode_part
from interlingua_anthropic._wire import (
    PROVIDER,
    MessageBody,
    Usage,
    WireDict,
)

__all__ = [
    "FINISH_REASONS",
    "STOP_REASONS",
    "decode_response",
    "decode_usage",
    "encode_response",
    "encode_usage",
]

FINISH_REASONS: dict[str, FinishReason] = {
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "max_tokens": FinishReason.LENGTH,
    "model_context_window_exceeded": FinishReason.LENGTH,
    "tool_use": FinishReason.TOOL_CALLS,
    "pause_turn": FinishReason.PAUSE,
    "refusal": FinishReason.CONTENT_FILTER,
}

# For a response another provider made; `error` and `other` have no Anthropic value.
STOP_REASONS: dict[FinishReason, str] = {
    FinishReason.STOP: "end_turn",
    FinishReason.LENGTH: "max_tokens",
    FinishReason.TOOL_CALLS: "tool_use",
    FinishReason.PAUSE: "pause_turn",
    FinishReason.CONTENT_FILTER: "refusal",
}

_COUNTS = (
    "input_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "output_tokens",
)
THINKING_TOKENS = "output_tokens_details.thinking_tokens"

# Fields the API always sends; a response made elsewhere gets them too.
_DEFAULTS: WireDict = {"stop_sequence": None}

# Marker in provider_data["anthropic"]: dotted path -> "absent" or "null", for
# the fields above and the counts, where the body had that form.
WIRE_FORMS = "wire_forms"
_FORM_PATHS = ("stop_sequence", "usage", *(f"usage.{key}" for key in _COUNTS))

# What an absent or null field decodes to, so encodes to; only such a value takes the form back.
_UNREAD_VALUES: tuple[Any, ...] = (None, 0, dict.fromkeys(_COUNTS, 0))

_reader = WireReader(PROVIDER)


# --- decoding ---


def decode_response(body: Any) -> ChatResponse:
    """The response a Messages API body (a dict or the SDK's `Message`) holds.

    Raises `DecodeError` naming the path of a missing or mistyped field.
    """
    data = _reader.body(body)
    response = _decode_fields(data)
    written = _encode_fields(response, TranslationReport())
    extras = leftover(data, written)
    if forms := _forms(data, overlay(written, _DEFAULTS)):
        extras[WIRE_FORMS] = forms
    if not extras:
        return response
    return response.model_copy(update={"provider_data": {PROVIDER: extras}})


def _forms(body: WireDict, written: WireDict) -> dict[str, str]:
    """The fields encoding writes that `body` left out or sent as null."""
    forms: dict[str, str] = {}
    for path in _FORM_PATHS:
        wire, key = _parent(body, path)
        modeled, _ = _parent(written, path)
        if wire is None or modeled is None or key not in modeled:
            continue
        if key not in wire:
            forms[path] = "absent"
        elif wire[key] is None and modeled[key] is not None:
            forms[path] = "null"
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


def _decode_fields(body: WireDict) -> ChatResponse:
    blocks = _reader.field(body, "content", "", list)
    parts = [decode_block(b, f"content[{k}]", role="assistant") for k, b in enumerate(blocks)]
    raw_reason = _reader.field(body, "stop_reason", "", str, None)
    return ChatResponse(
        id=_reader.field(body, "id", "", str, None),
        model=_reader.field(body, "model", "", str, None),
        provider=PROVIDER,
        message=Message(role="assistant", parts=tuple(parts)),
        finish_reason=finish_reason(raw_reason),
        raw_finish_reason=raw_reason,
        usage=decode_usage(body.get("usage"), "usage"),
    )


def finish_reason(stop_reason: str | None) -> FinishReason | None:
    if stop_reason is None:
        return None
    return FINISH_REASONS.get(stop_reason, FinishReason.OTHER)


def decode_usage(raw: Any, path: str) -> TokenUsage:
    """The core usage of an Anthropic usage object (absent: nothing used)."""
    if raw is None:
        return TokenUsage()
    usage = _reader.object(raw, path)
    counts = {key: _reader.field(usage, key, path, int, 0) or 0 for key in _COUNTS}
    details = dict(_numbers(usage, "", skip=frozenset(_COUNTS)))
    written, read = counts["cache_creation_input_tokens"], counts["cache_read_input_tokens"]
    return TokenUsage(
        input_tokens=counts["input_tokens"] + written + read,
        output_tokens=counts["output_tokens"],
        cache_read_tokens=read,
        cache_write_tokens=written,
        reasoning_tokens=_thinking_tokens(details),
        details=details,
    )


def _thinking_tokens(details: Mapping[str, int | float]) -> int:
    value = details.get(THINKING_TOKENS)
    return value if isinstance(value, int) else 0


def _numbers(
    value: Mapping[str, Any], prefix: str, *, skip: frozenset[str] = frozenset()
) -> Iterator[tuple[str, int | float]]:
    """The numbers in a usage object, each under its dotted path."""
    for key, item in value.items():
        if key in skip:
            continue
        if isinstance(item, Mapping):
            yield from _numbers(item, f"{prefix}{key}.")
        elif isinstance(item, int | float) and not isinstance(item, bool):
            yield f"{prefix}{key}", item


# --- encoding ---


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
            "alternatives", "Anthropic answers with one message; the others are left out"
        )
    extras = dict(response.provider_data.get(PROVIDER, {}))
    forms = extras.pop(WIRE_FORMS, {})
    body = overlay(overlay(_encode_fields(response, report), extras), _DEFAULTS)
    _apply_forms(body, forms)
    return copy_json(body)


def _apply_forms(body: WireDict, forms: Mapping[str, str]) -> None:
    """Leaves out, or writes as null, the fields the decoded body had so, where
    the value is still the one their absence gave."""
    for path, form in forms.items():
        parent, key = _parent(body, path)
        if parent is None or key not in parent or parent[key] not in _UNREAD_VALUES:
            continue
        if form == "absent":
            del parent[key]
        else:
            parent[key] = None


def _encode_fields(response: ChatResponse, report: TranslationReport) -> MessageBody:
    content = (
        encode_part(part, f"message.parts[{j}]", report, role="assistant", in_request=False)
        for j, part in enumerate(response.message.parts)
    )
    return MessageBody(
        id=response.id,
        type="message",
        role="assistant",
        model=response.model,
        content=[block for block in content if block is not None],
        stop_reason=_stop_reason(response, report),
        usage=encode_usage(response.usage, own=response.provider == PROVIDER, report=report),
    )


def _stop_reason(response: ChatResponse, report: TranslationReport) -> str | None:
    raw = response.raw_finish_reason
    if raw is not None and (raw in FINISH_REASONS or response.provider == PROVIDER):
        return raw
    if response.finish_reason is None:
        return None
    if (stop_reason := STOP_REASONS.get(response.finish_reason)) is not None:
        return stop_reason
    report.transformed(
        "finish_reason", f"Anthropic has no {response.finish_reason}; sent as end_turn"
    )
    return "end_turn"


def encode_usage(usage: TokenUsage, *, own: bool, report: TranslationReport) -> WireDict:
    """Anthropic's usage object. `details` are Anthropic's own only when `own`;
    another provider's are left out."""
    counts = Usage(
        input_tokens=usage.uncached_input_tokens,
        cache_creation_input_tokens=usage.cache_write_tokens,
        cache_read_input_tokens=usage.cache_read_tokens,
        output_tokens=usage.output_tokens,
    )
    details = dict(usage.details) if own else {}
    if usage.details and not own:
        report.dropped("usage.details", "another provider's usage breakdown")
    if usage.reasoning_tokens and THINKING_TOKENS not in details:
        details[THINKING_TOKENS] = usage.reasoning_tokens
    return overlay(counts, _nested(details))


def _nested(flat: Mapping[str, int | float]) -> WireDict:
    """`{"a.b": 1}` -> `{"a": {"b": 1}}`."""
    nested: WireDict = {}
    for dotted, value in flat.items():
        *parents, last = dotted.split(".")
        target = nested
        for key in parents:
            target = target.setdefault(key, {})
        target[last] = value
    return nested
