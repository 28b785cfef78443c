"""Chat Completions response bodies to and from `ChatResponse`.

Invariants:

- `encode_response(decode_response(body)) == body` for any body the API
  sends: what the core does not model (`created`, `system_fingerprint`,
  `logprobs`, `refusal: null`, unknown fields) is kept verbatim in the
  response's `provider_data`, and missing canonical keys are remembered.
- A refusal is a `RefusalPart`, never text; an audio answer is a `FilePart`
  whose `provider_data` keeps its id, expiry and transcript; non-empty
  annotations live on the text part they annotate.
- Every choice is kept: the first is the response, the others its
  `alternatives`, each with its own message and finish reason (usage is the
  call's and stays on the first); a stream gives them the same way.
- `content` that came as a list of parts (compatible servers) goes back as one,
  unknown items in it as opaque parts; usage fields `TokenUsage` cannot hold
  (a null detail group, a router's `cost`) are kept beside it.
- `raw_finish_reason` is the wire value; `finish_reason` its meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import (
    ChatResponse,
    ContentPart,
    FilePart,
    FinishReason,
    Message,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    TokenUsage,
    ToolCallPart,
    ToolResultPart,
    TranslationReport,
)
from interlingua.codec import WireReader, copy_json, overlay, resolve_report
from interlingua_openai._common import assert_never, entry, rest
from interlingua_openai._dialect import OPENAI, ChatCompletionsDialect
from interlingua_openai._parts import PartDecoder, PartEncoder, decode_tool_call, encode_tool_call
from interlingua_openai._wire import WIRE_FINISH_REASONS

__all__ = [
    "decode_finish_reason",
    "decode_response",
    "decode_usage",
    "encode_response",
    "encode_usage",
]

# A choice always has these; `logprobs` is null unless asked for.
_CHOICE_DEFAULTS: dict[str, Any] = {"logprobs": None}
# What a body made elsewhere gets for the fields only OpenAI knows.
_BODY_DEFAULTS: dict[str, Any] = {"object": "chat.completion", "created": 0}
# An audio answer's format is the one the request asked for; the body does not say.
AUDIO_ANSWER_MEDIA_TYPE = "audio/*"
# Where a stream's response carries its other choices (dumped `ChatResponse`s):
# the seam until the core's accumulator builds `alternatives` itself.


def decode_response(body: Any, *, dialect: ChatCompletionsDialect = OPENAI) -> ChatResponse:
    """The `ChatResponse` of a Chat Completions body (a dict or the SDK's `ChatCompletion`)."""
    decoder = _Decoder(dialect)
    return decoder.response(decoder.read.body(body))


def encode_response(
    response: ChatResponse,
    *,
    report: TranslationReport | None = None,
    dialect: ChatCompletionsDialect = OPENAI,
) -> dict[str, Any]:
    """The Chat Completions body for `response`; losses go to `report`."""
    encoder = _Encoder(dialect, resolve_report(report, dialect.provider))
    return copy_json(encoder.response(response))


def decode_usage(
    usage: Mapping[str, Any], path: str = "usage", *, dialect: ChatCompletionsDialect = OPENAI
) -> TokenUsage:
    """`prompt_tokens` (cached ones included) is the input; every detail is kept."""
    return dialect.usage.decode(usage, path, WireReader(dialect.provider))


def encode_usage(usage: TokenUsage, *, dialect: ChatCompletionsDialect = OPENAI) -> dict[str, Any]:
    return dialect.usage.encode(usage)


def decode_finish_reason(
    raw: str | None, *, dialect: ChatCompletionsDialect = OPENAI
) -> FinishReason | None:
    if raw is None:
        return None
    return dialect.finish_reasons.get(raw, FinishReason.OTHER)


# `_shape` and `_rebuilt` are not `leftover` and `overlay`: a kept field replaces
# the canonical value the encoder writes (`annotations: []`, `logprobs: null`), and
# the canonical keys the body lacked are removed again.
def _shape(
    wire: Mapping[str, Any], modelled: set[str], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """What rebuilds `wire` beside its modelled keys: the other fields verbatim
    (unless equal to their default), and the defaults it lacks."""
    fields = {
        key: value
        for key, value in wire.items()
        if key not in modelled and not (key in defaults and value == defaults[key])
    }
    absent = [key for key in dict.fromkeys((*sorted(modelled), *defaults)) if key not in wire]
    shape: dict[str, Any] = {}
    if fields:
        shape["fields"] = fields
    if absent:
        shape["absent"] = absent
    return shape


def _rebuilt(wire: dict[str, Any], shape: Mapping[str, Any]) -> dict[str, Any]:
    wire.update(shape.get("fields", {}))
    for key in shape.get("absent", ()):
        wire.pop(key, None)
    return wire


class _Decoder:
    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.read = WireReader(dialect.provider)
        self.parts = PartDecoder(dialect)

    def response(self, body: dict[str, Any]) -> ChatResponse:
        read = self.read
        choices = read.array(read.field(body, "choices", "", list), "choices")
        common: dict[str, Any] = {
            "id": read.field(body, "id", "", str, None),
            "model": read.field(body, "model", "", str, None),
            "provider": self.provider,
        }
        data = _shape(body, {"id", "model", "choices", "usage"}, {})
        usage = self.usage(body, data)
        answers = [
            self.choice(choice, f"choices[{i}]", i, common) for i, choice in enumerate(choices)
        ]
        if not answers:
            data["choices"] = []
            answers = [ChatResponse(**common)]
        head = answers[0]
        return head.model_copy(
            update={
                "usage": usage,
                "alternatives": tuple(answers[1:]),
                "provider_data": {
                    self.provider: {**data, **head.provider_data.get(self.provider, {})}
                },
            }
        )

    def usage(self, body: Mapping[str, Any], data: dict[str, Any]) -> TokenUsage:
        """The usage; a null one, and what `TokenUsage` cannot hold, kept in `data`."""
        if body.get("usage") is None:
            if "usage" in body:
                data.setdefault("fields", {})["usage"] = None
            return TokenUsage()
        usage = self.read.object(body["usage"], "usage")
        if extra := self.dialect.usage.leftover(usage, "usage", self.read):
            data["usage"] = extra
        return decode_usage(usage, dialect=self.dialect)

    def choice(self, wire: Any, path: str, index: int, common: Mapping[str, Any]) -> ChatResponse:
        choice = self.read.object(wire, path)
        message = self.read.field(choice, "message", path, dict)
        raw = self.read.field(choice, "finish_reason", path, str, None)
        modelled = {"message", "finish_reason"} | (
            {"index"} if choice.get("index") == index else set()
        )
        choice_shape = _shape(choice, modelled, _CHOICE_DEFAULTS)
        if "index" not in choice:
            choice_shape.setdefault("absent", []).append("index")
        parts, message_shape = self.message(message, f"{path}.message")
        data: dict[str, Any] = {}
        if choice_shape:
            data["choice"] = choice_shape
        if message_shape:
            data["message"] = message_shape
        return ChatResponse(
            **common,
            message=Message(role="assistant", parts=tuple(parts)),
            finish_reason=decode_finish_reason(raw, dialect=self.dialect),
            raw_finish_reason=raw,
            provider_data={self.provider: data} if data else {},
        )

    def message(self, message: Mapping[str, Any], path: str) -> tuple[list[Any], dict[str, Any]]:
        read, parts = self.read, list[Any]()
        modelled = {"role", "content", "refusal", "tool_calls", "function_call", "audio"}
        field = self.dialect.reasoning_field
        if field is not None and message.get(field) is not None:
            modelled.add(field)
            parts.append(
                ReasoningPart(text=read.field(message, field, path, str), provider=self.provider)
            )
        parts.extend(self.content(message, path))
        annotations = message.get("annotations")
        texts = [i for i, part in enumerate(parts) if isinstance(part, TextPart)]
        if annotations and len(texts) == 1:
            modelled.add("annotations")
            text = parts[texts[0]]
            parts[texts[0]] = text.model_copy(
                update={"provider_data": {self.provider: {"annotations": annotations}}}
            )
        if (refusal := read.field(message, "refusal", path, str, None)) is not None:
            parts.append(RefusalPart(text=refusal))
        if (audio := read.field(message, "audio", path, dict, None)) is not None:
            parts.append(self.audio(audio, f"{path}.audio"))
        calls = read.field(message, "tool_calls", path, list, None) or []
        parts.extend(
            decode_tool_call(c, f"{path}.tool_calls[{i}]", read) for i, c in enumerate(calls)
        )
        if (call := read.field(message, "function_call", path, dict, None)) is not None:
            parts.append(self.function_call(call, f"{path}.function_call"))
        defaults = {"role": "assistant", "content": None, **self.dialect.message_defaults}
        # A modelled field the parts cannot say (null, an empty list) is kept verbatim.
        said = {key for key in modelled if message.get(key) or key in ("role", "content")}
        shape = _shape(message, said, defaults)
        if isinstance(message.get("content"), list):
            shape["content"] = "list"
        return parts, shape

    def content(self, message: Mapping[str, Any], path: str) -> list[TextPart | OpaquePart]:
        content = message.get("content")
        if isinstance(content, str):
            return [TextPart(text=content)]
        if content is None:
            return []
        # Some compatible servers send parts; OpenAI sends a string.
        items = self.read.array(content, f"{path}.content")
        parts: list[TextPart | OpaquePart] = []
        for index, item in enumerate(items):
            where = f"{path}.content[{index}]"
            item = self.read.object(item, where)
            if item.get("type") == "text":
                parts.append(self.parts.text(item, where))
            else:
                parts.append(OpaquePart(provider=self.provider, data=item))
        return parts

    def audio(self, audio: Mapping[str, Any], path: str) -> FilePart:
        return FilePart(
            media_type=AUDIO_ANSWER_MEDIA_TYPE,
            data=self.read.field(audio, "data", path, str),
            provider_data={self.provider: {"audio": rest(audio, {"data"})}},
        )

    def function_call(self, call: Mapping[str, Any], path: str) -> ToolCallPart:
        return ToolCallPart(
            id="",
            name=self.read.field(call, "name", path, str),
            arguments=self.read.field(call, "arguments", path, str),
            provider_data={self.provider: {"function_call": True}},
        )


class _Encoder:
    def __init__(self, dialect: ChatCompletionsDialect, report: TranslationReport) -> None:
        self.dialect = dialect
        self.provider = dialect.provider
        self.report = report
        self.parts = PartEncoder(dialect, report)

    def data(self, owner: Any) -> dict[str, Any]:
        return entry(owner, self.provider)

    def response(self, response: ChatResponse) -> dict[str, Any]:
        data = self.data(response)
        body: dict[str, Any] = {} if "fields" in data else dict(_BODY_DEFAULTS)
        if response.id is not None:
            body["id"] = response.id
        if response.model is not None:
            body["model"] = response.model
        answers = (response, *response.alternatives)
        body["choices"] = [self.choice(answer, index) for index, answer in enumerate(answers)]
        if "choices" in data:
            body["choices"] = data["choices"]
        body["usage"] = overlay(
            encode_usage(response.usage, dialect=self.dialect), data.get("usage", {})
        )
        return _rebuilt(body, data)

    def choice(self, response: ChatResponse, index: int) -> dict[str, Any]:
        where = "" if index == 0 else f"alternatives[{index - 1}]."
        data = self.data(response)
        wire: dict[str, Any] = {
            "index": index,
            "message": self.message(response.message, data.get("message", {}), where),
            "finish_reason": self.finish_reason(response, where),
            **_CHOICE_DEFAULTS,
        }
        return _rebuilt(wire, data.get("choice", {}))

    def finish_reason(self, response: ChatResponse, where: str) -> str | None:
        raw, reason = response.raw_finish_reason, response.finish_reason
        if raw is not None and (
            response.provider == self.provider or raw in self.dialect.finish_reasons
        ):
            return raw
        if reason is None:
            return None
        if reason not in WIRE_FINISH_REASONS:
            self.report.transformed(
                f"{where}finish_reason", f"Chat Completions has no {reason.value!r}; sent as 'stop'"
            )
        return WIRE_FINISH_REASONS.get(reason, "stop")

    def message(self, message: Message, shape: Mapping[str, Any], where: str) -> dict[str, Any]:
        answer = _Answer(listed=shape.get("content") == "list")
        wire: dict[str, Any] = {
            "role": "assistant",
            "content": None,
            **self.dialect.message_defaults,
        }
        for position, part in enumerate(message.parts):
            self.part(answer, wire, part, f"{where}message.parts[{position}]")
        if answer.listed:
            wire["content"] = answer.items
        elif answer.items:
            wire["content"] = "".join(item.get("text", "") for item in answer.items)
        if answer.reasoning and self.dialect.reasoning_field is not None:
            wire[self.dialect.reasoning_field] = "".join(answer.reasoning)
        if answer.calls:
            wire["tool_calls"] = answer.calls
        return _rebuilt(wire, shape)

    def part(self, answer: _Answer, wire: dict[str, Any], part: ContentPart, path: str) -> None:
        data = self.data(part)
        match part:
            case TextPart():
                answer.items.append(self.parts.text(part))
                if "annotations" in data:
                    wire["annotations"] = data["annotations"]
            case OpaquePart() if part.provider == self.provider:
                # An item of a content list this codec does not model: the list goes back.
                answer.items.append(dict(part.data))
                answer.listed = True
            case RefusalPart():
                wire["refusal"] = (wire.get("refusal") or "") + part.text
            case ToolCallPart() if data.get("function_call"):
                wire["function_call"] = {"name": part.name, "arguments": part.arguments}
            case ToolCallPart():
                answer.calls.append(encode_tool_call(part, part.id, self.provider))
            case ReasoningPart() if self.dialect.reasoning_field is not None:
                answer.reasoning.append(part.text)
            case FilePart() if "audio" in data:
                wire["audio"] = {**data["audio"], "data": part.data}
            case ReasoningPart() | FilePart() | OpaquePart() | ToolResultPart():
                self.report.dropped(path, f"a Chat Completions answer has no place for {part.type}")
            case _:
                assert_never(part)


class _Answer:
    """What an answer's parts add up to on the wire."""

    __slots__ = ("calls", "items", "listed", "reasoning")

    def __init__(self, *, listed: bool) -> None:
        self.items: list[dict[str, Any]] = []
        self.listed = listed
        self.reasoning: list[str] = []
        self.calls: list[dict[str, Any]] = []
