"""Google's `generateContent` API as this adapter sees it: wire shapes,
constants, the two spellings of field names, and what the adapter keeps in
`provider_data["google"]`.

The Gemini API (`generativelanguage.googleapis.com/v1beta/models/<model>:
generateContent`) and Vertex AI (`.../publishers/google/models/<model>:
generateContent`) take and give the same bodies; `:streamGenerateContent`
streams the same response objects (`?alt=sse` as server-sent events, else as
one JSON array), and `:countTokens` takes the same request body. The model is
in the URL, not the body.

Quirk: the REST API takes field names in camelCase and in snake_case alike
(Google's JSON mapping of protocol buffers accepts both; the recorded traffic
has `function_call`, `thought_signature`, `file_data`, `thinking_budget`).
Decoders read both (`spelled`), and each value keeps the names it came with
in snake_case (its form `snake_case`), so encoding writes the same names
(`respelled`). Responses are always camelCase.

Provider data (the sections of `interlingua._provider_data`):

    fields  on every value: the wire object's fields the core does not model,
            verbatim, in the spelling they came: a part's `thoughtSignature`
            (on a text, function-call or code part: it goes back in place),
            `videoMetadata`, a null `description` of a declaration; a
            response's `createTime`, `promptFeedback`; a usage's
            modality lists, `serviceTier`, `trafficType`
    forms   `PartForms`, `ToolCallForms`, `ToolResultForms`, `MessageForms`,
            `RequestForms`, `ResponseForms`, `ToolForms` below
    echo    `ResponseEcho`: the first candidate's fields beside its content
            and finish reason (`index`, `safetyRatings`, `groundingMetadata`,
            `citationMetadata`, `urlContextMetadata`, `finishMessage`,
            `avgLogprobs`, `logprobsResult`): the candidate is not the
            response's own object, so its encoder puts them back there
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from itertools import product
from typing import Any, Literal, TypedDict

from interlingua.codec import OutputLimits

__all__ = [
    "API_VERSION",
    "GENERATE_CONTENT",
    "OUTPUT_LIMITS",
    "PROVIDER",
    "STREAM_GENERATE_CONTENT",
    "MessageForms",
    "PartForms",
    "RequestForms",
    "ResponseEcho",
    "ResponseForms",
    "ToolCallForms",
    "ToolForms",
    "ToolResultForms",
    "WireDict",
    "WireRole",
    "respelled",
    "snake",
    "spelled",
]

PROVIDER = "google"
# The methods of a model's resource: `models/<model>:generateContent`.
GENERATE_CONTENT = "generateContent"
STREAM_GENERATE_CONTENT = "streamGenerateContent"
# The Gemini API's version its documentation and recorded traffic use; a client
# the adapter builds pins it, as google-genai's default moved (2.x `v1beta`, 3.x `v1`).
API_VERSION = "v1beta"

WireDict = dict[str, Any]
# A content's role: Gemini's own two.
WireRole = Literal["user", "model"]

_UPPER = re.compile(r"(?<=[a-z0-9])([A-Z])")
_LOWER = re.compile(r"_([a-z0-9])")


@cache
def snake(name: str) -> str:
    """`thoughtSignature` -> `thought_signature`."""
    return _UPPER.sub(r"_\1", name).lower()


@cache
def _camel(name: str) -> str:
    return _LOWER.sub(lambda match: match.group(1).upper(), name)


def spelled(
    wire: Mapping[str, Any], modeled: frozenset[str]
) -> tuple[WireDict, WireDict, list[str]]:
    """A wire object read in both spellings: its `modeled` fields (camelCase
    names) by their camelCase names, its other fields verbatim, and the
    modeled names it wrote in snake_case."""
    values: WireDict = {}
    others: WireDict = {}
    snaked: list[str] = []
    for key, value in wire.items():
        name = _camel(key) if "_" in key else key
        if name not in modeled:
            others[key] = value
            continue
        values[name] = value
        if name != key:
            snaked.append(name)
    return values, others, snaked


def respelled(wire: WireDict, names: Iterable[str] | None) -> WireDict:
    """`wire` with the fields `names` lists (dotted camelCase paths:
    `fileData`, `fileData.fileUri`) written in snake_case again."""
    if not names:
        return wire
    here: set[str] = set()
    inner: dict[str, list[str]] = {}
    for name in names:
        head, dot, rest = name.partition(".")
        if dot:
            inner.setdefault(head, []).append(rest)
        else:
            here.add(head)
    result: WireDict = {}
    for key, value in wire.items():
        if key in inner and isinstance(value, dict):
            value = respelled(value, inner[key])
        result[snake(key) if key in here else key] = value
    return result


def _spellings(path: str) -> tuple[str, ...]:
    """A dotted camelCase path in every spelling the API takes, name by name."""
    names = [dict.fromkeys((name, snake(name))) for name in path.split(".")]
    return tuple(".".join(spelled) for spelled in product(*names))


# Where a request asks for output tokens: the limit, and the thinking budget within it.
OUTPUT_LIMITS = OutputLimits(
    tokens=_spellings("generationConfig.maxOutputTokens"),
    budget=_spellings("generationConfig.thinkingConfig.thinkingBudget"),
)


# --- forms: how the wire wrote what the core holds (never sent) ---


class PartForms(TypedDict, total=False):
    """Any part: the camelCase names of its fields written in snake_case
    (dotted for a nested object's: `inlineData.mimeType`)."""

    snake_case: list[str]


class ToolCallForms(PartForms, total=False):
    """A `functionCall` part. `id: "made"`: the call came without an id, and
    the part's id was made here; it never goes to Google. `args: "absent"`:
    the call had no `args`. `signature: "absent"`: Gemini sent the call
    without a thought signature (so none is filled in for it)."""

    id: Literal["made"]
    args: Literal["absent"]
    signature: Literal["absent"]


class ToolResultForms(PartForms, total=False):
    """A `functionResponse` part. `id: "made"` as for a call; `response`: how
    the content was written (`"output"`, the default: `{"output": text}`;
    `"error"`: `{"error": text}`; `"object"`: any other object, the content
    its JSON text; `"absent"`: no `response`)."""

    id: Literal["made"]
    response: Literal["output", "error", "object", "absent"]


class MessageForms(TypedDict, total=False):
    """A message decoded from a content. `separate_turn`: it opened a content
    of its own right after a content of the same role. `parts: "absent"`:
    the content had no `parts`. `snake_case` as for parts."""

    separate_turn: Literal[True]
    parts: Literal["absent"]
    role: Literal["absent"]
    snake_case: list[str]


class ToolForms(TypedDict, total=False):
    """A function declaration. `parameters`: its `parameters` (Google's
    OpenAPI subset) as it came, sent back in its place while the tool's
    JSON Schema is the one read from it. `schema`: a schema in
    `parametersJsonSchema` (JSON Schema, whole), or `"absent"`, none.
    `snake_case`: the names written in snake_case."""

    parameters: WireDict
    schema: Literal["parametersJsonSchema", "absent"]
    snake_case: list[str]


class RequestForms(TypedDict, total=False):
    """A request body: the names written in snake_case (`systemInstruction`,
    `generationConfig.thinkingConfig.thinkingBudget`), the `tools` entries
    each declaration went in (a list of lists of names, where not all in
    one first entry), and a `topK` or effort written as it came.
    `response_schema`: the `responseSchema` (Google's OpenAPI subset) as it
    came, sent back in its place while the request's JSON Schema is the one
    read from it. `empty`: `generationConfig` or `toolConfig` sent as `{}`."""

    snake_case: list[str]
    tool_layout: list[Any]
    response_schema: WireDict
    empty: list[Literal["generationConfig", "toolConfig"]]


class ResponseForms(TypedDict, total=False):
    """A response body: its usage counts left out (`absent`, by name), the
    candidate's content left out or its role or parts, `candidates` absent."""

    absent: list[str]


class ResponseEcho(TypedDict, total=False):
    """The first candidate's fields beside `content` and `finishReason`."""

    candidate: WireDict
