"""Mistral's chat completions wire: its name, and what its content chunks keep.

Mistral speaks Chat Completions (`interlingua_chat_completions._wire` lays out
the bodies and what the codec keeps in `provider_data["mistral"]`), with
content chunks of its own:

    {"type": "thinking", "thinking": [{"type": "text", "text"}], "signature"?}
    {"type": "image_url", "image_url": "<url>" | {"url", "detail"}}
    {"type": "document_url", "document_url": "<url>", "document_name"?}
    {"type": "input_audio", "input_audio": "<base64>" | {"data", "format"}}
    {"type": "file", "file_id"}
    {"type": "reference", "reference_ids": [...]}, and others: kept whole

The TypedDicts below are what those parts keep, beside the Chat Completions
sections; each key's meaning is written beside it, and the list is this
adapter's part of the saved history format.
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict

__all__ = ["PROVIDER", "FileForms", "ReasoningFields"]

PROVIDER = "mistral"


class FileForms(TypedDict, total=False):
    type: str
    """The chunk type, when not the one the part's kind gives."""
    image_url: Literal["string"]
    """The image's URL came as a bare string, not `{"url": ...}`."""
    input_audio: Literal["object"]
    """The audio came as `{"data", "format"}`, not as bare base64 (Mistral's documented form)."""


class ReasoningFields(TypedDict, total=False):
    """A `thinking` chunk's fields beside its text and signature (`fields`)."""

    thinking: list[Any]
    """The inner chunks verbatim, when they are not one text chunk of the part's text."""
    closed: bool
    """Whether the model closed its thinking (as Mistral sent it)."""
