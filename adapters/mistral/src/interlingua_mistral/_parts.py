"""Mistral's content chunks to and from core parts, on the Chat Completions
part codec (text, tool calls and the form of `content` are its).

    wire chunk                                   core part
    thinking {thinking: [text...], signature}    ReasoningPart (provider "mistral")
    image_url "<url>" | {url, detail}            FilePart (a data URL: its data)
    document_url {document_url, document_name}   FilePart (a PDF, by URL or data URL)
    input_audio "<base64>"                       FilePart (audio; wav or mp3 by its bytes)
    input_audio {data, format}                   FilePart (audio; its media type by `format`)
    file {file_id}                               FilePart (in Mistral's file store)
    reference, any other chunk                   OpaquePart (back to Mistral only)

Thinking goes back to Mistral only, as the chunk it came as; reasoning other
providers made is left out (reported by the request codec). A file Mistral
cannot take (a file id of another store, audio by URL, a document that is no
PDF) is left out and reported. Decoding then encoding a chunk gives it back:
what the core does not model is kept in the part's `fields`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import FilePart, OpaquePart, ReasoningPart, RefusalPart
from interlingua.codec import copy_json, keep, kept, leftover, other_fields
from interlingua_chat_completions._data import PartData
from interlingua_chat_completions._parts import (
    PartDecoder,
    PartEncoder,
    inline_url,
    split_data_url,
    with_fields,
)
from interlingua_chat_completions._rules import FileFields, guess_media_type, takes_file
from interlingua_mistral._rules import DOCUMENT_MEDIA_TYPES, audio_format, sniff_audio
from interlingua_mistral._wire import FileForms

__all__ = ["MistralPartDecoder", "MistralPartEncoder", "file_chunk"]

_THINKING = frozenset({"type", "thinking", "signature"})
_UNSIGNED_THINKING = frozenset({"type", "thinking"})

# What each chunk type can say of a file beside its bytes.
FILE_FIELDS = FileFields(
    {
        "image_url": frozenset({"detail"}),
        "document_url": frozenset({"filename"}),
        "input_audio": frozenset(),
        "file": frozenset(),
    },
    "Mistral",
)


def _default_chunk(part: FilePart) -> str | None:
    if part.file_id is not None:
        return "file"
    if part.kind == "image":
        return "image_url"
    if part.kind == "audio":
        return "input_audio"
    return "document_url" if part.media_type in DOCUMENT_MEDIA_TYPES else None


def file_chunk(part: FilePart, forms: Mapping[str, Any]) -> dict[str, Any] | None:
    """The Mistral chunk of a file part, None when no chunk can say it."""
    kind = forms.get("type") or _default_chunk(part)
    if kind == "file":
        return None if part.file_id is None else {"type": "file", "file_id": part.file_id}
    if part.file_id is not None:
        return None
    match kind:
        case "image_url" if forms.get("image_url") == "string":
            return {"type": kind, kind: inline_url(part)}
        case "image_url":
            image: dict[str, Any] = {"url": inline_url(part)}
            if part.detail is not None:
                image["detail"] = part.detail
            return {"type": kind, kind: image}
        case "document_url":
            chunk = {"type": kind, kind: inline_url(part)}
            if part.filename is not None:
                chunk["document_name"] = part.filename
            return chunk
        case "input_audio" if part.data is not None and forms.get("input_audio") == "object":
            return {
                "type": kind,
                kind: {"data": part.data, "format": audio_format(part.media_type)},
            }
        case "input_audio" if part.data is not None:
            return {"type": kind, kind: part.data}
    return None


class MistralPartEncoder(PartEncoder):
    """Core parts to Mistral's chunks; what cannot go is reported."""

    def reasoning_item(self, part: ReasoningPart) -> dict[str, Any] | None:
        if part.provider != self.provider or part.redacted:
            return None
        entry = kept(part, self.provider)
        # The inner chunks as they came, when the text alone does not give them back.
        recorded = entry.get("fields", {}).get("thinking")
        inner = [{"type": "text", "text": part.text}] if recorded is None else copy_json(recorded)
        item: dict[str, Any] = {"type": "thinking", "thinking": inner}
        if part.signature is not None:
            item["signature"] = part.signature
        return with_fields(item, entry)

    def file(self, part: FilePart, path: str) -> dict[str, Any] | None:
        if not takes_file(part, self.provider, path, self.report):
            return None
        entry = kept(part, self.provider)
        chunk = file_chunk(part, entry.get("forms", {}))
        if chunk is None:
            source = "a file id" if part.file_id else "a URL" if part.url else "inline data"
            self.report.dropped(
                path, f"Mistral takes no {part.media_type} file by {source}", "content"
            )
            return None
        FILE_FIELDS.report_unsent(part, chunk["type"], path, self.report)
        return with_fields(chunk, entry)


class MistralPartDecoder(PartDecoder):
    """Mistral's chunks to core parts."""

    def user_part(self, item: Any, path: str) -> PartData | FilePart | OpaquePart:
        item = self.read.object(item, path)
        kind = self.read.field(item, "type", path, str)
        match kind:
            case "text":
                return self.text(item, path)
            case "image_url" | "document_url" | "input_audio" | "file":
                return self.file_part(item, kind, path)
        return OpaquePart(provider=self.provider, data=item)

    def assistant_item(
        self, item: Any, path: str
    ) -> PartData | RefusalPart | OpaquePart | ReasoningPart:
        item = self.read.object(item, path)
        if item.get("type") == "thinking":
            return self.thinking(item, path)
        return super().assistant_item(item, path)

    def thinking(self, item: Mapping[str, Any], path: str) -> ReasoningPart:
        inner = self.read.field(item, "thinking", path, list)
        text = "".join(
            chunk["text"]
            for chunk in inner
            if isinstance(chunk, dict)
            and chunk.get("type") == "text"
            and isinstance(chunk.get("text"), str)
        )
        signature = self.read.field(item, "signature", path, str, None)
        fields = other_fields(item, _UNSIGNED_THINKING if signature is None else _THINKING)
        if inner != [{"type": "text", "text": text}]:
            fields["thinking"] = inner
        return ReasoningPart(
            text=text,
            signature=signature,
            provider=self.provider,
            provider_data=keep(self.provider, fields=fields),
        )

    def file_part(self, item: Mapping[str, Any], kind: str, path: str) -> FilePart:
        values, forms = self.file_values(item, kind, path)
        part = FilePart(**values)
        if _default_chunk(part) != kind:
            forms["type"] = kind
        fields = leftover(item, file_chunk(part, forms) or {})
        data = keep(self.provider, fields=fields, forms=forms)
        # Built again, with what it keeps, only when it keeps something.
        return FilePart(**values, provider_data=data) if data else part

    def file_values(
        self, item: Mapping[str, Any], kind: str, path: str
    ) -> tuple[dict[str, Any], FileForms]:
        """The `FilePart` fields a file chunk gives, and the form it came in."""
        read, where = self.read, f"{path}.{kind}"
        forms: FileForms = {}
        values: dict[str, Any] = {}
        if kind == "file":
            file_id = read.field(item, "file_id", path, str)
            guessed = guess_media_type(None, kind="application")
            return {"file_id": file_id, "provider": self.provider, "media_type": guessed}, forms
        if kind == "input_audio" and isinstance(item.get(kind), dict):
            # Quirk: Mistral also takes `input_audio` as OpenAI's `{"data", "format"}`
            # (answered 200 by voxtral-small-latest), though its docs show bare base64.
            audio, _ = self.audio(read.field(item, kind, path, dict), where)
            return audio, {"input_audio": "object"}
        if kind == "input_audio":
            data = read.field(item, kind, path, str)
            return {"data": data, "media_type": sniff_audio(data)}, forms
        if kind == "image_url" and isinstance(item.get(kind), dict):
            image = read.field(item, kind, path, dict)
            url = read.field(image, "url", where, str)
            values["detail"] = read.field(image, "detail", where, str, None)
        else:
            url = read.field(item, kind, path, str)
            forms = {"image_url": "string"} if kind == "image_url" else {}
        if kind == "document_url":
            values["filename"] = read.field(item, "document_name", path, str, None)
        if (inline := split_data_url(url)) is not None:
            values["media_type"], values["data"] = inline
        else:
            guess_from = values.get("filename") or url
            media = guess_media_type(
                guess_from, kind="image" if kind == "image_url" else "application"
            )
            values.update(url=url, media_type=media)
        return values, forms
