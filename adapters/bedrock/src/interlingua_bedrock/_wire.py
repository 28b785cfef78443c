"""Amazon Bedrock's Converse wire: its name, its paths, and its shapes.

The model id is in the URL, not the body: `POST /model/{modelId}/converse`,
and `/converse-stream` for a stream, whose answer is an AWS event stream
(`application/vnd.amazon.eventstream`), each event one member of
`ConverseStreamOutput` (`{"messageStart": {...}}`, `{"contentBlockDelta":
{...}}`, ...).

A content block is a union: an object with one member named for its kind
(`{"text": "..."}`, `{"toolUse": {...}}`, `{"cachePoint": {...}}`). The
TypedDicts below name the shapes the adapter builds, as the API reference
gives them; bodies are read and written as plain JSON values (`WireDict`).

Provider data (the sections of `interlingua._provider_data`):

    fields  on every value: the fields of its wire object the core does not
            model, verbatim; for a block, the fields of its member object
            (`toolUse`'s `type`, a document's `context` and `citations`, a
            guard's `qualifiers`, an s3 source's `bucketOwner` under
            `source.s3Location`), and `cachePoint`: the cache point that
            follows the block on the wire (a block of its own, sent right
            after it; a tool's likewise in `toolConfig.tools`, a system
            text's in `system`); a response's `metrics`, `trace`,
            `performanceConfig`, `additionalModelResponseFields`
    forms   `PartForms`, `ToolResultForms`, `MessageForms`, `RequestForms` below
    echo    none: Converse's own blocks carry all it needs back
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from typing_extensions import NotRequired

from interlingua.codec import OutputLimits

__all__ = [
    "CACHE_POINT",
    "CONVERSE",
    "CONVERSE_STREAM",
    "OUTPUT_LIMITS",
    "PROVIDER",
    "MessageForms",
    "PartForms",
    "ReasoningForm",
    "RequestForms",
    "ResponseBody",
    "ToolResultForms",
    "WireDict",
    "WireRole",
]

PROVIDER = "bedrock"

CONVERSE = "/model/{model_id}/converse"
CONVERSE_STREAM = "/model/{model_id}/converse-stream"
# Where a body asks for output tokens: its limit, and Claude's thinking budget.
OUTPUT_LIMITS = OutputLimits(
    tokens=("inferenceConfig.maxTokens",),
    budget=("additionalModelRequestFields.thinking.budget_tokens",),
)

WireDict = dict[str, Any]
# A message's role: Converse's own two (system text goes in `system`).
WireRole = Literal["user", "assistant"]

# The member of a content block that marks a cache point, and the provider
# data key that carries it on the block before it.
CACHE_POINT = "cachePoint"


# --- content blocks (each a union: one member) ---


class S3Location(TypedDict):
    uri: str
    bucketOwner: NotRequired[str]


class MediaSource(TypedDict, total=False):
    """`bytes` (base64 in JSON) or `s3Location`; a document also `text` or `content`."""

    bytes: str
    s3Location: S3Location


class ImageBlock(TypedDict):
    format: str
    source: MediaSource


class VideoBlock(TypedDict):
    format: str
    source: MediaSource


class DocumentBlock(TypedDict):
    format: NotRequired[str]
    name: str
    source: MediaSource


class ToolUseBlock(TypedDict):
    toolUseId: str
    name: str
    input: Any
    type: NotRequired[str]


class ToolResultBlock(TypedDict):
    toolUseId: str
    content: list[WireDict]
    status: NotRequired[Literal["success", "error"]]


class ReasoningText(TypedDict):
    text: str
    signature: NotRequired[str]


class ReasoningBlock(TypedDict, total=False):
    reasoningText: ReasoningText
    redactedContent: str


class CachePoint(TypedDict):
    type: str


# --- request settings ---


class InferenceConfig(TypedDict, total=False):
    maxTokens: int
    temperature: float
    topP: float
    stopSequences: list[str]


class ToolSpecification(TypedDict):
    name: str
    inputSchema: WireDict
    description: NotRequired[str]
    strict: NotRequired[bool]


# --- responses ---


class ResponseBody(TypedDict):
    output: WireDict
    stopReason: str | None
    usage: WireDict


# --- forms: how the wire wrote what the core holds (never sent) ---


class PartForms(TypedDict, total=False):
    """A part decoded from a block of another member than its default."""

    # "guardContent": a text the guardrail evaluates (`{"guardContent": {"text":
    # {...}}}`); "citationsContent": a cited text; "json": a tool result's `json`
    # content, its text the JSON.
    block: Literal["guardContent", "citationsContent", "json"]


class ToolResultForms(TypedDict, total=False):
    """A result whose block said no `status` (written by default)."""

    status: Literal["absent"]


class MessageForms(TypedDict, total=False):
    # The message opened a turn of its own right after a turn of its wire role.
    separate_turn: Literal[True]


# Where a request's reasoning setting was, in `additionalModelRequestFields`:
# Claude's `thinking`, Nova's `reasoningConfig`, gpt-oss's `reasoning_effort`,
# Qwen's `reasoning_config`.
ReasoningForm = Literal["thinking", "reasoningConfig", "reasoning_effort", "reasoning_config"]


class RequestForms(TypedDict, total=False):
    # Objects sent empty (`inferenceConfig: {}`): they go back empty.
    empty: list[str]
    reasoning: ReasoningForm
    # `top_k` was Nova's `additionalModelRequestFields.inferenceConfig.topK`.
    top_k: Literal["inferenceConfig"]
    # The output schema's JSON text, where `json.dumps` of the schema does not
    # write it again (`outputConfig...jsonSchema.schema` is a string).
    schema_text: str
