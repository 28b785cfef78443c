"""Helpers both OpenAI codecs share: data URLs, media types, tool-call ids, where
a codec keeps what the core does not model, what a file part may carry to each
API, request context, and the usage-object flattening.

Invariants: every helper is pure; `split_data_url(format_data_url(t, d))` gives
back `(t, d)`; `overlay(encode_usage(u), leftover)` gives back the usage object
`u` that was decoded, exactly.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from interlingua import ChatRequest, FilePart, TokenUsage, TranslationReport
from interlingua.codec import WireReader, fit_tool_call_id, leftover

if sys.version_info >= (3, 11):
    from typing import assert_never
else:  # pragma: no cover
    from typing_extensions import assert_never

__all__ = [
    "OPENAI_FILE_STORE",
    "FileFields",
    "UsageShape",
    "assert_never",
    "encode_context",
    "entry",
    "fit_call_id",
    "format_data_url",
    "guess_media_type",
    "inline_data",
    "inline_url",
    "provider_data",
    "report_other_providers",
    "rest",
    "split_data_url",
    "takes_file",
]

# Both APIs read `file_id`s from OpenAI's one file store (`/v1/files`): a file
# part either of them decodes names `"openai"` (not `"openai-responses"`) as its
# `provider`, and either takes it back.
OPENAI_FILE_STORE = "openai"

# Only the canonical form `data:<type>;base64,<data>` is split; any other data
# URL (parameters, no base64) stays a URL so that it goes back unchanged.
_DATA_URL = re.compile(r"data:([\w.+-]+/[\w.+*-]+);base64,(.*)", re.DOTALL)

# Chat Completions rejects tool-call ids over 40 characters ("Invalid
# 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum
# length 40", reported); characters outside [a-zA-Z0-9_-] are kept out to be safe.
TOOL_CALL_ID_CHARACTERS = "a-zA-Z0-9_-"
TOOL_CALL_ID_MAX_LENGTH = 40

# The file types OpenAI takes, by extension: a media type is a label here (the
# wire rarely says one), and must not depend on the machine's mimetypes database.
_MEDIA_TYPES: dict[str, str] = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "pdf": "application/pdf",
    "json": "application/json",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "txt": "text/plain",
    "md": "text/markdown",
    "csv": "text/csv",
    "html": "text/html",
    "wav": "audio/wav",
    "mp3": "audio/mpeg",
}


def split_data_url(url: str) -> tuple[str, str] | None:
    """`(media_type, base64 data)` of a canonical base64 data URL, else None."""
    match = _DATA_URL.fullmatch(url)
    return (match.group(1), match.group(2)) if match else None


def format_data_url(media_type: str, data: str) -> str:
    return f"data:{media_type};base64,{data}"


def inline_url(part: FilePart) -> str:
    """The part's URL, or its inline data as a data URL."""
    return part.url if part.url is not None else format_data_url(part.media_type, part.data or "")


def inline_data(part: FilePart, *, raw: bool) -> str:
    """The part's inline data as a data URL, or bare (`raw`) as it came."""
    return (part.data or "") if raw else format_data_url(part.media_type, part.data or "")


def guess_media_type(name: str | None, *, kind: str) -> str:
    """A media type from a file name or URL path, or `<kind>/*` when it tells none.

    The wire often gives no media type (an image URL, a file id); `kind` keeps
    at least what the part is (`image`, `application`: any kind of document).
    """
    path = (name or "").split("?", 1)[0].split("#", 1)[0]
    extension = path.rpartition(".")[2].lower() if "." in path else ""
    guessed = _MEDIA_TYPES.get(extension)
    if guessed and (kind == "application" or guessed.startswith(f"{kind}/")):
        return guessed
    return f"{kind}/*"


def entry(owner: Any, provider: str) -> dict[str, Any]:
    """What `owner.provider_data` keeps for `provider` (empty when nothing, or when
    `owner` has no `provider_data`: an opaque part)."""
    data: dict[str, dict[str, Any]] = getattr(owner, "provider_data", {})
    return data.get(provider, {})


def provider_data(provider: str, **data: Any) -> dict[str, dict[str, Any]]:
    """`provider_data` holding the entries of `data` that say something (not None,
    False or an empty object)."""
    kept = {key: value for key, value in data.items() if _says_something(value)}
    return {provider: kept} if kept else {}


def _says_something(value: Any) -> bool:
    return value is not None and value is not False and value != {}


def rest(wire: Mapping[str, Any], known: Iterable[str]) -> dict[str, Any]:
    """The fields of a body or message outside `known`, verbatim; the codec rebuilds
    the known ones itself. (A part keeps the `leftover` of its encoding instead.)"""
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


# --- requests ---


def report_other_providers(request: ChatRequest, provider: str, report: TranslationReport) -> None:
    """Every setting in another provider's `provider_options`, as dropped."""
    for name, settings in request.provider_options.items():
        for key in settings if name != provider else ():
            report.dropped(f"provider_options.{name}.{key}", f"a {name} setting")


def encode_context(options: dict[str, Any], request: ChatRequest) -> None:
    """The context's user and session, where the request does not name them itself
    (both APIs: `safety_identifier`, the legacy `user`, `prompt_cache_key`)."""
    context = request.context
    if context is None:
        return
    if context.user_id is not None and not {"user", "safety_identifier"} & options.keys():
        options["safety_identifier"] = context.user_id
    if context.session_id is not None:
        options.setdefault("prompt_cache_key", context.session_id)


def takes_file(part: FilePart, store: str | None, path: str, report: TranslationReport) -> bool:
    """Whether a file part can go to an API reading `store`'s files; a `file_id`
    of another provider's store points at nothing there, and is dropped."""
    if part.file_id is None or part.provider is None or part.provider == store:
        return True
    where = f"{store}'s" if store else "no"
    report.dropped(path, f"file {part.file_id!r} is in {part.provider}'s file store, not {where}")
    return False


@dataclass(frozen=True, slots=True)
class FileFields:
    """Which of a file part's `filename` and `detail` each wire content type has."""

    fields: Mapping[str, frozenset[str]]
    api: str

    def report_unsent(
        self, part: FilePart, kind: str, path: str, report: TranslationReport
    ) -> None:
        taken = self.fields.get(kind, frozenset())
        for name in ("filename", "detail"):
            if getattr(part, name) is not None and name not in taken:
                report.dropped(f"{path}.{name}", f"a {kind} part of {self.api} has no {name}")


# --- usage ---


@dataclass(frozen=True, slots=True)
class UsageShape:
    """The names one OpenAI usage object uses.

    Core counts come from the three top-level keys and the modelled details;
    every other numeric leaf of the detail groups is kept in `TokenUsage.details`
    under its dotted path (`prompt_tokens_details.audio_tokens`). The modelled
    details are mirrored there too, so that a detail object that was sent (even
    with zeros) is sent back: the core fields win when the two disagree. What
    `TokenUsage` cannot hold (a null group, a non-count detail, an unknown key
    such as a router's `cost`) is `leftover` for the codec to keep beside it.
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
            details.update({f"{group}.{k}": v for k, v in values.items() if _is_count(v)})
        details.update({key: usage[key] for key in self.extra_counts if _is_count(usage.get(key))})
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

    def leftover(self, usage: Mapping[str, Any], path: str, read: WireReader) -> dict[str, Any]:
        """What `decode` cannot hold of `usage`, for `overlay` onto `encode`."""
        return leftover(usage, self.encode(self.decode(usage, path, read)))

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
