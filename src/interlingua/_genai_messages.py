"""Core messages in the OpenTelemetry GenAI conventions' JSON parts form: the
one encoder of `gen_ai.system_instructions`, `gen_ai.input.messages` and
`gen_ai.output.messages`, whatever the provider.

The forms are the conventions' published JSON schemas
(`gen-ai-system-instructions.json`, `gen-ai-input-messages.json`,
`gen-ai-output-messages.json`): a message is `{"role", "parts"}` (an output
message's `finish_reason`, which the current schema deprecates, is left out:
the span has the finish reasons), a part is one of

- `text` (`content`), `reasoning` (`content`: the readable text);
- `tool_call` (`id`, `name`, `arguments`: the JSON object, or the text as
  the model wrote it when it is not JSON) and `tool_call_response` (`id`,
  `response`: the result's text, or its parts where it holds files);
- `blob` (inline `content`, base64), `uri` (`uri`) and `file` (`file_id`),
  each with its `mime_type` and `modality` (`image`, `audio`, `video`,
  `document`);
- the conventions' generic part for the rest: `refusal` (`content`), and a
  provider's block kept opaque (`opaque`, its `provider`: the block itself
  is the provider's, not the conversation's text).

The leading system messages are the instructions; a system message further on
stays in the history, where it was sent. Pure values, no OpenTelemetry import:
the caller writes them as JSON text on the span.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from interlingua._errors import ToolArgumentsError
from interlingua._messages import Message
from interlingua._parts import (
    ContentPart,
    FilePart,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    ToolResultContent,
    ToolResultPart,
)
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse

__all__ = [
    "encode_part",
    "input_messages",
    "output_messages",
    "system_instructions",
    "to_json",
]

JSONObject = dict[str, Any]

_MODALITIES = ("image", "audio", "video")


def system_instructions(request: ChatRequest) -> list[JSONObject]:
    """The parts of the system messages the request starts with."""
    return [encode_part(part) for message in _leading_system(request) for part in message.parts]


def input_messages(request: ChatRequest) -> list[JSONObject]:
    """The messages after the leading system ones, in the order sent."""
    skipped = len(_leading_system(request))
    return [_message(message) for message in request.messages[skipped:]]


def output_messages(response: ChatResponse) -> list[JSONObject]:
    """The answer and its alternatives, one message per choice."""
    return [_output(choice) for choice in (response, *response.alternatives)]


def to_json(value: Any) -> str:
    """`value` as the JSON text a span attribute holds."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode_part(part: ContentPart | ToolResultContent) -> JSONObject:
    """One part in the conventions' form."""
    match part:
        case TextPart():
            return {"type": "text", "content": part.text}
        case ReasoningPart():
            return {"type": "reasoning", "content": part.text}
        case ToolCallPart():
            return {"type": "tool_call", "id": part.id, "name": part.name,
                    "arguments": _arguments(part)}  # fmt: skip
        case ToolResultPart():
            return {"type": "tool_call_response", "id": part.tool_call_id,
                    "response": _result(part)}  # fmt: skip
        case FilePart():
            return _file(part)
        case RefusalPart():
            return {"type": "refusal", "content": part.text}
        case OpaquePart():
            return {"type": "opaque", "provider": part.provider}
        case _:  # pragma: no cover - every part type is above
            raise TypeError(f"no GenAI form for a {type(part).__name__}")


def _leading_system(request: ChatRequest) -> tuple[Message, ...]:
    count = 0
    for message in request.messages:
        if message.role != "system":
            break
        count += 1
    return request.messages[:count]


def _message(message: Message) -> JSONObject:
    return {"role": message.role, "parts": _parts(message.parts)}


def _output(choice: ChatResponse) -> JSONObject:
    # No `finish_reason`: the schema deprecates it for `gen_ai.response.finish_reasons`.
    return _message(choice.message)


def _parts(parts: Iterable[ContentPart | ToolResultContent]) -> list[JSONObject]:
    return [encode_part(part) for part in parts]


def _arguments(call: ToolCallPart) -> Any:
    # The object the model gave; its text as written where it is no JSON object.
    try:
        return call.parsed_arguments()
    except ToolArgumentsError:
        return call.arguments


def _result(result: ToolResultPart) -> Any:
    # Its text; its parts where it holds more than text.
    if all(isinstance(part, TextPart) for part in result.content):
        return result.text
    return _parts(result.content)


def _file(part: FilePart) -> JSONObject:
    kind = part.media_type.partition("/")[0]
    common = {"mime_type": part.media_type, "modality": kind if kind in _MODALITIES else "document"}
    if part.data is not None:
        return {"type": "blob", **common, "content": part.data}
    if part.url is not None:
        return {"type": "uri", **common, "uri": part.url}
    return {"type": "file", **common, "file_id": part.file_id}
