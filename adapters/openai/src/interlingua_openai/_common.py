"""Helpers both OpenAI codecs share: data URLs, media types, tool-call ids,
verbatim wire fields, and the usage-object flattening.

Invariants: every helper is pure; `split_data_url(format_data_url(t, d))` gives
back `(t, d)`; `encode_usage(decode_usage(u))` gives back `u` exactly.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import TokenUsage, TranslationReport
from interlingua.codec import WireReader, fit_tool_call_id

__all__ = [
    "UsageShape",
    "fit_call_id",
    "format_data_url",
    "guess_media_type",
    "rest",
    "split_data_url",
]

# Only the canonical form `data:<type>;base64,<data>` is split; any other data
# URL (parameters, no base64) stays a URL so that it goes back unchanged.
_DATA_URL = re.compile(r"data:([\w.+-]+/[\w.+*-]+);base64,(.*)", re.DOTALL)

# Chat Completions rejects tool-call ids over 40 characters ("Invalid
# 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum
# length 40", reported); characters outside [a-zA-Z0-9_-] are kept out to be safe.
TOOL_CALL_ID_CHARACTERS = "a-zA-Z0-9_-"
TOOL_CALL_ID_MAX_LENGTH = 40


def split_data_url(url: str) -> tuple[str, str] | None:
    """`(media_type, base64 data)` of a canonical base64 data URL, else None."""
    match = _DATA_URL.fullmatch(url)
    return (match.group(1), match.group(2)) if match else None


def format_data_url(media_type: str, data: str) -> str:
    return f"data:{media_type};base64,{data}"


def guess_media_type(name: str | None, *, kind: str) -> str:
    """A media type from a file name or URL path, or `<kind>/*` when it tells none.

    The wire often gives no media type (an image URL, a file id); `kind` keeps
    at least what the part is (`image`, `application`).
    """
    if name:
        guessed, _ = mimetypes.guess_type(name.split("?", 1)[0], strict=False)
        if guessed and (kind == "application" or guessed.startswith(f"{kind}/")):
            return guessed
    return f"{kind}/*"


def rest(wire: Mapping[str, Any], known: Iterable[str]) -> dict[str, Any]:
    """The fields of `wire` outside `known`, kept verbatim."""
    skip = set(known)
    return {key: value for key, value in wire.items() if key not in skip}


def fit_call_id(
    tool_call_id: str,
    path: str,
    report: TranslationReport,
    *,
    allowed: str = TOOL_CALL_ID_CHARACTERS,
    max_length: int = TOOL_CALL_ID_MAX_LENGTH,
) -> str:
    """The id as the wire takes it; a rewrite is reported, and the same id always
    maps to the same stand-in, so a call and its result stay paired."""
    fitted = fit_tool_call_id(tool_call_id, allowed=allowed, max_length=max_length)
    if fitted != tool_call_id:
        report.transformed(
            path,
            f"tool-call id {tool_call_id!r} does not fit [{allowed}]{{1,{max_length}}}; "
            f"sent as {fitted!r}",
        )
    return fitted


@dataclass(frozen=True, slots=True)
class UsageShape:
    """The names one OpenAI usage object uses.

    Core counts come from the three top-level keys and the modelled details;
    every other numeric leaf of the object is kept in `TokenUsage.details` under
    its dotted path (`prompt_tokens_details.audio_tokens`). The modelled details
    are mirrored there too, so that a detail object that was sent (even with
    zeros) is sent back: the core fields win when the two disagree.
    """

    input: str
    output: str
    groups: tuple[str, ...]
    cache_read: str
    cache_write: str
    reasoning: str
    extra_counts: tuple[str, ...] = ()

    def decode(self, usage: Mapping[str, Any], path: str, read: WireReader) -> TokenUsage:
        details: dict[str, int | float] = {}
        for group in self.groups:
            values = read.field(usage, group, path, dict, None) or {}
            for key, value in values.items():
                if _is_count(value):
                    details[f"{group}.{key}"] = value
        for key in self.extra_counts:
            if _is_count(usage.get(key)):
                details[key] = usage[key]
        input_tokens = read.field(usage, self.input, path, int, None) or 0
        output_tokens = read.field(usage, self.output, path, int, None) or 0
        total = read.field(usage, "total_tokens", path, int, None)
        return TokenUsage(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            total_tokens=input_tokens + output_tokens if total is None else total,
            cache_read_tokens=int(details.get(self.cache_read, 0)),
            cache_write_tokens=int(details.get(self.cache_write, 0)),
            reasoning_tokens=int(details.get(self.reasoning, 0)),
            details=details,
        )

    def encode(self, usage: TokenUsage) -> dict[str, Any]:
        details: dict[str, Any] = dict(usage.details)
        for key, value in (
            (self.cache_read, usage.cache_read_tokens),
            (self.cache_write, usage.cache_write_tokens),
            (self.reasoning, usage.reasoning_tokens),
        ):
            if value or key in details:
                details[key] = value
        out: dict[str, Any] = {
            self.input: usage.input_tokens,
            self.output: usage.output_tokens,
            "total_tokens": usage.total_tokens,
        }
        for key, value in details.items():
            group, _, leaf = key.partition(".")
            if leaf and group in self.groups:
                out.setdefault(group, {})[leaf] = value
            elif not leaf and key in self.extra_counts:
                out[key] = value
        return out


def _is_count(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
