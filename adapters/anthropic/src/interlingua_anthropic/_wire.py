"""The Anthropic Messages API as this adapter sees it: wire shapes, constants,
and what the adapter keeps in `provider_data["anthropic"]`.

Bodies are read and written as plain JSON values (`WireDict`). The TypedDicts
below name the shapes the adapter builds, field for field as the API takes
them (`POST /v1/messages`).

Provider data (the sections of `interlingua._provider_data`):

    fields  on every value: the wire object's fields the core does not model,
            verbatim: a block's `cache_control`, `citations`, a `caller` that
            is not the model itself; a turn's
            other fields; a response's `stop_sequence`, `container`, the usage's
            `service_tier`; a tool's `type: "custom"`, `cache_control`
    forms   `MessageForms`, `ToolResultForms`, `ToolCallForms`, `ResponseForms` below
    echo    none: Anthropic's own blocks carry all it needs back
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from typing_extensions import NotRequired

from interlingua.codec import OutputLimits

if TYPE_CHECKING:
    from interlingua.codec import ProviderData

__all__ = [
    "API_HEADERS",
    "DEFAULT_MAX_TOKENS",
    "DIRECT_CALLER",
    "MESSAGES_PATH",
    "OUTPUT_LIMITS",
    "PROVIDER",
    "BlockRole",
    "KeptData",
    "MessageBody",
    "MessageForms",
    "ResponseForms",
    "ToolCallForms",
    "ToolResultForms",
    "WireDict",
    "WireRole",
    "WireTurn",
]

PROVIDER = "anthropic"
MESSAGES_PATH = "/v1/messages"

# `max_tokens` is required by the API; this is sent when a request sets none.
DEFAULT_MAX_TOKENS = 4096
# Where a request asks for output tokens: the limit, and the thinking budget within it.
OUTPUT_LIMITS = OutputLimits(tokens=("max_tokens",), budget=("thinking.budget_tokens",))
# The API's headers a client sends with its body: its version, and the betas its body
# may use (`context_management`, a 1M context), which mean nothing without them.
API_HEADERS = ("anthropic-beta", "anthropic-version")

WireDict = dict[str, Any]
# A turn's role; `system` is a mid-conversation system message (Claude Opus 4.8 on).
WireRole = Literal["user", "assistant", "system"]
# Where a block goes: a turn, the system prompt, or a tool result's content.
BlockRole = Literal["system", "user", "assistant", "tool_result"]


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
    caller: NotRequired[dict[str, str]]


# A call the model made itself (not code it ran): the only kind the core holds.
DIRECT_CALLER = {"type": "direct"}


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
    content: str | list[WireDict]
    is_error: bool


@dataclass
class WireTurn:
    """A request turn being built: its blocks, each with the path of the part
    it came from, the form of its `content` its first message keeps
    (`MessageForms.content`), and the wire `fields` its messages keep, in order."""

    role: WireRole
    blocks: list[tuple[str, WireDict]] = field(default_factory=list)
    form: str | None = None
    fields: list[WireDict] = field(default_factory=list)


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
    id: str
    type: Literal["message"]
    role: Literal["assistant"]
    model: str
    content: list[WireDict]
    stop_reason: str | None
    usage: WireDict


# --- provider data ---


class KeptData(TypedDict, total=False):
    """A decoded part's `provider_data` keyword, left out when nothing is kept
    (a part built with the default is quicker than one checked with an empty mapping)."""

    provider_data: ProviderData


# --- forms: how the wire wrote what the core holds (never sent) ---


class MessageForms(TypedDict, total=False):
    """A message decoded from a request's `system` or `messages`."""

    # "blocks": one plain text block sent as a list, where a string is the
    # default; "string": an empty final assistant turn written `""` (not `[]`).
    content: Literal["blocks", "string"]
    # The message opened a turn of its own right after a turn of its wire role.
    separate_turn: Literal[True]
    # A system message that came inside `messages`, where it goes back (not to `system`).
    in_messages: Literal[True]


class ToolResultForms(TypedDict, total=False):
    """A tool result whose content was one plain text block in a list."""

    content: Literal["blocks"]


class ToolCallForms(TypedDict, total=False):
    """A tool call whose block said `caller: {"type": "direct"}` outright."""

    caller: Literal["direct"]


class ResponseForms(TypedDict, total=False):
    """Fields the API always sends (`stop_sequence`, the four usage counts) that
    this body left out (`absent`) or sent as null (`null`), by dotted path."""

    absent: list[str]
    null: list[str]
