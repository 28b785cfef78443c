"""A Responses API reasoning item to and from a core `ReasoningPart`.

The part's text is the item's summary (`summary_text` entries, joined by a
blank line). Where the summary gives no text and the item's `content` holds
the chain of thought as `reasoning_text` entries (DeepSeek, gpt-oss through
OpenRouter or OpenAI), the text is that content, joined the same way, and
`forms.text` says so. `encrypted_content` is the part's signature. What the
text does not give back (a summary beside content, several entries, other
fields) is kept in `fields`, so the item encodes back to itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ReasoningPart
from interlingua.codec import WireReader, copy_json, keep, kept, other_fields
from interlingua_openai.responses._wire import PROVIDER, ReasoningForms

__all__ = ["JOINER", "content_of", "decode_reasoning", "encode_reasoning", "summary_of"]

JOINER = "\n\n"
"""Between the summary parts (or `reasoning_text` entries) of one item's text."""


def summary_of(text: str) -> list[dict[str, Any]]:
    """The reasoning summary a part's text stands for."""
    return [{"type": "summary_text", "text": text}] if text else []


def content_of(text: str) -> list[dict[str, Any]]:
    """The reasoning content a part's text stands for."""
    return [{"type": "reasoning_text", "text": text}] if text else []


def _texts(entries: Any, kind: str) -> list[str]:
    if not isinstance(entries, list):
        return []
    return [
        entry["text"]
        for entry in entries
        if isinstance(entry, dict)
        and entry.get("type") == kind
        and isinstance(entry.get("text"), str)
    ]


def decode_reasoning(read: WireReader, item: Mapping[str, Any], path: str) -> ReasoningPart:
    summary = read.field(item, "summary", path, list)
    text = JOINER.join(_texts(summary, "summary_text"))
    content = item.get("content")
    from_content = not text and bool(_texts(content, "reasoning_text"))
    if from_content:
        text = JOINER.join(_texts(content, "reasoning_text"))
    encrypted = item.get("encrypted_content")
    fields = other_fields(item, ("type", "summary", "encrypted_content"))
    if "encrypted_content" in item and not isinstance(encrypted, str):
        fields["encrypted_content"] = encrypted  # null, kept as sent
    if summary != (summary_of("") if from_content else summary_of(text)):
        fields["summary"] = summary
    if from_content and content == content_of(text):
        del fields["content"]
    return ReasoningPart(
        text=text,
        signature=encrypted if isinstance(encrypted, str) else None,
        provider=PROVIDER,
        provider_data=keep(
            PROVIDER, fields=fields, forms=ReasoningForms(text="content") if from_content else None
        ),
    )


def encode_reasoning(part: ReasoningPart) -> dict[str, Any]:
    # The fields kept give the summary (or content) when the text does not.
    entry = kept(part, PROVIDER)
    fields = copy_json(entry.get("fields", {}))
    item: dict[str, Any] = {"type": "reasoning"}
    if entry.get("forms", {}).get("text") == "content":
        item.update(summary=[], content=content_of(part.text))
    else:
        item["summary"] = summary_of(part.text)
    item.update(fields)
    if part.signature is not None:
        item["encrypted_content"] = part.signature
    return item
