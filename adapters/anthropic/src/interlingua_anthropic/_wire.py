"""The Anthropic Messages API as this adapter sees it: wire shapes and constants.

Bodies are read and written as plain JSON values (`WireDict`). The TypedDicts
below name the shapes the adapter builds, field for field as the API takes
them (`POST /v1/messages`); anything else a body carries travels beside the
core values, never inside them (`interlingua.codec.leftover` finds it,
`overlay` lays it back).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "EFFORTS",
    "IMAGE_MEDIA_TYPES",
    "MESSAGES_PATH",
    "MIN_THINKING_BUDGET",
    "PROVIDER",
    "TOOL_ID_CHARACTERS",
    "Block",
    "MessageBody",
    "RequestTurn",
    "WireDict",
]

PROVIDER = "anthropic"
MESSAGES_PATH = "/v1/messages"

# `max_tokens` is required by the API; this is sent when a request sets none.
DEFAULT_MAX_TOKENS = 4096

# Tool-use ids must match ^[a-zA-Z0-9_-]+$ (reported by users; the API answers 400).
TOOL_ID_CHARACTERS = "a-zA-Z0-9_-"

# Inline images the API accepts; any other image type is rejected with a 400.
IMAGE_MEDIA_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})

# A file given by URL or file id carries no media type on the wire.
URL_IMAGE_MEDIA_TYPE = "image/*"
URL_DOCUMENT_MEDIA_TYPE = "application/pdf"

# `thinking.budget_tokens` is at least this (the API answers 400 below it).
MIN_THINKING_BUDGET = 1024

# `output_config.effort` levels; the API rejects others (`xhigh` on some models only).
EFFORTS = frozenset({"low", "medium", "high", "max", "xhigh"})

WireDict = dict[str, Any]
WireRole = Literal["user", "assistant"]


# --- content blocks ---


class TextBlock(TypedDict):
    type: Literal["text"]
    text: str


class ThinkingBlock(TypedDict):
    type: Literal["thinking"]
    thinking: str
    signature: str


class RedactedThinkingBlock(TypedDict):
    type: Literal["redacted_thinking"]
    data: str


class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]


class Base64Source(TypedDict):
    type: Literal["base64"]
    media_type: str
    data: str


class PlainTextSource(TypedDict):
    """A plain-text document: `data` is the text itself, not base64."""

    type: Literal["text"]
    media_type: Literal["text/plain"]
    data: str


class URLSource(TypedDict):
    type: Literal["url"]
    url: str


class FileSource(TypedDict):
    type: Literal["file"]
    file_id: str


Source = Base64Source | PlainTextSource | URLSource | FileSource


class ImageBlock(TypedDict):
    type: Literal["image"]
    source: Source


class _DocumentFields(TypedDict):
    type: Literal["document"]
    source: Source


class DocumentBlock(_DocumentFields, total=False):
    title: str


class _ToolResultFields(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: str


class ToolResultBlock(_ToolResultFields, total=False):
    content: str | list[Mapping[str, Any]]
    is_error: bool


Block = (
    TextBlock
    | ThinkingBlock
    | RedactedThinkingBlock
    | ToolUseBlock
    | ImageBlock
    | DocumentBlock
    | ToolResultBlock
)


class RequestTurn(TypedDict):
    role: WireRole
    content: str | list[WireDict]


# --- request settings ---


class _ToolFields(TypedDict):
    name: str
    input_schema: dict[str, Any]


class Tool(_ToolFields, total=False):
    """A client tool (`type` absent or `custom`); server tools are kept as they come."""

    description: str
    strict: bool


class ToolChoice(TypedDict, total=False):
    type: Literal["auto", "any", "tool", "none"]
    name: str
    disable_parallel_tool_use: bool


class Thinking(TypedDict, total=False):
    type: Literal["enabled", "adaptive", "disabled"]
    budget_tokens: int


# --- responses ---


class Usage(TypedDict):
    """`input_tokens` excludes cache reads and writes, which are counted apart."""

    input_tokens: int
    cache_creation_input_tokens: int
    cache_read_input_tokens: int
    output_tokens: int


class MessageBody(TypedDict):
    id: str | None
    type: Literal["message"]
    role: Literal["assistant"]
    model: str | None
    content: list[WireDict]
    stop_reason: str | None
    usage: WireDict
