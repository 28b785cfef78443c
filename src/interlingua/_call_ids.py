"""Tool-call ids rewritten to fit a provider's rules, deterministically, so a
call and its result stay paired and two ids never collide (`interlingua.codec`
re-exports both functions)."""

from __future__ import annotations

import functools
import hashlib
import re

from interlingua._report import TranslationReport

__all__ = ["fit_tool_call_id", "fitted_tool_call_id"]


# A history is sent again, whole, at every turn: each id is fitted once, not at
# each encoding (a hash, and for Mistral a base-62 loop, per call and per result).
@functools.lru_cache(maxsize=4096)
def fit_tool_call_id(
    tool_call_id: str, *, allowed: str, length: int | None = None, max_length: int | None = None
) -> str:
    """`tool_call_id` unchanged when it fits, else a deterministic stand-in.

    `allowed` is a regex character class body (`"a-zA-Z0-9_-"`); `length` asks
    for exactly that many characters, `max_length` for at most that many. The
    stand-in keeps the allowed characters of the id and ends in a hash of the
    whole id, so two ids never collide and a call and its result map alike.
    """
    if (
        _id_pattern(allowed).fullmatch(tool_call_id)
        and (length is None or len(tool_call_id) == length)
        and (max_length is None or len(tool_call_id) <= max_length)
    ):
        return tool_call_id
    # surrogatepass: an id decoded from JSON may hold a lone surrogate.
    digest = hashlib.sha256(tool_call_id.encode("utf-8", "surrogatepass")).hexdigest()
    if length is not None:
        return _alphanumeric(digest, length)
    kept = "".join(re.findall(f"[{allowed}]", tool_call_id))
    stand_in = f"{kept}_{digest[:12]}" if re.fullmatch(f"[{allowed}]", "_") else kept + digest[:12]
    if max_length is not None and len(stand_in) > max_length:
        stand_in = stand_in[-max_length:]
    return stand_in


def fitted_tool_call_id(
    tool_call_id: str,
    path: str,
    report: TranslationReport,
    *,
    allowed: str,
    length: int | None = None,
    max_length: int | None = None,
) -> str:
    """`fit_tool_call_id`, a rewrite reported at `path` as transformed: what every
    encoder sends as a call's or a result's id."""
    fitted = fit_tool_call_id(tool_call_id, allowed=allowed, length=length, max_length=max_length)
    if fitted != tool_call_id:
        rule = _id_rule(allowed, length, max_length)
        report.transformed(
            path, f"tool-call id {tool_call_id!r} does not fit {rule}; sent as {fitted!r}", "hint"
        )
    return fitted


def _id_rule(allowed: str, length: int | None, max_length: int | None) -> str:
    if length is not None:
        return f"[{allowed}]{{{length}}}"
    if max_length is not None:
        return f"[{allowed}]{{1,{max_length}}}"
    return f"[{allowed}]+"


@functools.cache
def _id_pattern(allowed: str) -> re.Pattern[str]:
    return re.compile(f"[{allowed}]+")


def _alphanumeric(digest: str, length: int) -> str:
    """`length` characters of [a-zA-Z0-9] drawn from a hex digest."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    number = int(digest, 16)
    chars = []
    for _ in range(length):
        number, rest = divmod(number, len(alphabet))
        chars.append(alphabet[rest])
    return "".join(chars)
