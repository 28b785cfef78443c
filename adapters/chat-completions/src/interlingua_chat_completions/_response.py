"""Chat Completions response bodies to and from `ChatResponse`.

Invariants:

- `encode_response(decode_response(body)) == body` for any body the API
  sends: what the core does not model (`created`, `system_fingerprint`,
  `logprobs`, `refusal: null`, unknown fields) is kept verbatim in the
  response's `provider_data`, and missing canonical keys are remembered
  (`_wire.ResponseForms`, `_wire.ResponseEcho`).
- A refusal is a `RefusalPart`, never text; an audio answer is a `FilePart`
  whose `provider_data` keeps its id, expiry and transcript; non-empty
  annotations live on the text part they annotate.
- Every choice is kept: the first is the response, the others its
  `alternatives`, each with its own message and finish reason (usage is the
  call's and stays on the first); a stream gives them the same way.
- `content` that came as a list of parts (compatible servers) goes back as one,
  refusal items and unknown items in it as parts of their own; usage fields `TokenUsage` cannot hold
  (a null detail group, a router's `cost`) are kept beside it.
- `raw_finish_reason` is the wire value; `finish_reason` its meaning.
- A body made elsewhere gets `object` and `created`: the upstream's creation time
  where its wire said one (`created_time`), else the time of writing; and where
  its answer had none, an id derived from it and an empty `model` (`made_elsewhere`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from typing_extensions import assert_never

from interlingua import (
    ChatResponse,
    ContentPart,
    FilePart,
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
from interlingua.codec import (
    ProviderData,
    copy_json,
    created_time,
    derived_id,
    keep,
    kept,
    merge_provider_data,
    other_fields,
    overlay,
    report_other_response,
    resolve_report,
)
from interlingua_chat_completions._calls import (
    answer_custom_tools,
    decode_tool_calls,
    encode_tool_call,
)
from interlingua_chat_completions._data import text_data
from interlingua_chat_completions._dialect import ChatCompletionsDialect
from interlingua_chat_completions._finish import decode_finish_reason, encode_finish_reason
from interlingua_chat_completions._parts import part_decoder, part_encoder
from interlingua_chat_completions._think import think_prefix, with_think
from interlingua_chat_completions._wire import (
    AudioAnswer,
    FileEcho,
    MessageShape,
    ResponseEcho,
    ResponseForms,
    TextEcho,
)

__all__ = [
    "AUDIO_ANSWER_MEDIA_TYPE",
    "ID_PREFIX",
    "Answer",
    "ResponseEncoder",
    "created_of",
    "decode_response",
    "encode_response",
]

_BODY_OBJECT = "chat.completion"  # a body's `object`, which one made elsewhere gets
ID_PREFIX = "chatcmpl-"  # and the start of its id, where its answer has none
_BODY_MODELLED = ("id", "model", "choices", "usage")
_CHOICE_UNNUMBERED = frozenset({"message", "finish_reason"})
_CHOICE_MODELLED = _CHOICE_UNNUMBERED | {"index"}  # an `index` that is the choice's place
_MESSAGE_MODELLED = ("role", "content", "refusal", "tool_calls", "function_call", "audio")
# An audio answer's format is the one the request asked for; the body does not say.
AUDIO_ANSWER_MEDIA_TYPE = "audio/*"


def decode_response(body: Any, dialect: ChatCompletionsDialect) -> ChatResponse:
    """The `ChatResponse` of a Chat Completions body (a dict or the SDK's `ChatCompletion`)."""
    decoder = _Decoder(dialect)
    return decoder.response(decoder.read.body(body))


def encode_response(
    response: ChatResponse, dialect: ChatCompletionsDialect, report: TranslationReport | None = None
) -> dict[str, Any]:
    """The Chat Completions body for `response`; losses go to `report`."""
    return ResponseEncoder(dialect, resolve_report(report, dialect.provider)).response(response)


# `_shape` and `_rebuilt` are not `leftover` and `overlay`: a kept field replaces
# the canonical value the encoder writes (`annotations: []`, `logprobs: null`), and
# the canonical keys the body lacked are removed again.
def _shape(
    wire: Mapping[str, Any], modelled: Iterable[str], defaults: Mapping[str, Any]
) -> MessageShape:
    """What rebuilds `wire` beside its modelled keys: the other fields verbatim
    (unless equal to their default), and the defaults it lacks."""
    modelled = set(modelled)
    fields = {
        key: value
        for key, value in wire.items()
        if key not in modelled and not (key in defaults and value == defaults[key])
    }
    absent = [key for key in dict.fromkeys((*sorted(modelled), *defaults)) if key not in wire]
    shape: MessageShape = {}
    if fields:
        shape["fields"] = fields
    if absent:
        shape["absent"] = absent
    return shape


def _rebuilt(wire: dict[str, Any], fields: dict[str, Any], absent: Iterable[str]) -> dict[str, Any]:
    """`wire` with the kept `fields` in place (copies of them), the `absent` keys left out."""
    wire.update(copy_json(fields))
    for key in absent:
        wire.pop(key, None)
    return wire


class _Decoder:
    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.parts = part_decoder(dialect)
        self.dialect, self.provider, self.read = dialect, dialect.provider, self.parts.read
        self.message_defaults = {"role": "assistant", "content": None, **dialect.message_defaults}

    def response(self, body: dict[str, Any]) -> ChatResponse:
        read = self.read
        choices = read.field(body, "choices", "", list)
        common: dict[str, Any] = {
            "id": read.field(body, "id", "", str, None),
            "model": read.field(body, "model", "", str, None),
            "provider": self.provider,
        }
        shape = _shape(body, _BODY_MODELLED, {})
        fields = shape.get("fields", {})
        forms: ResponseForms = {}
        if "absent" in shape:
            forms["absent"] = shape["absent"]
        if body.get("usage") is not None:
            usage, extra = self.dialect.usage.decode_kept(
                read.object(body["usage"], "usage"), "usage", read
            )
        else:
            usage, extra = TokenUsage(), None
            if "usage" in body:
                fields["usage"] = None
        answers = [self.choice(choice, f"choices[{i}]", i) for i, choice in enumerate(choices)]
        if not answers:
            forms["choices"] = "empty"
            answers = [({}, {})]
        (head, echo), others = answers[0], answers[1:]
        if extra:
            echo["usage"] = extra
        # Usage is the call's: it stays on the first answer.
        alternatives = tuple(
            ChatResponse(**common, **answer, provider_data=keep(self.provider, echo=kept_echo))
            for answer, kept_echo in others
        )
        return ChatResponse(
            **common,
            **head,
            usage=usage,
            alternatives=alternatives,
            provider_data=keep(self.provider, fields=fields, forms=forms, echo=echo),
        )

    def choice(self, wire: Any, path: str, index: int) -> tuple[dict[str, Any], ResponseEcho]:
        """The `ChatResponse` fields a choice gives, and what rebuilds the rest of it."""
        choice = self.read.object(wire, path)
        message = self.read.field(choice, "message", path, dict)
        raw = self.read.field(choice, "finish_reason", path, str, None)
        modelled = _CHOICE_MODELLED if choice.get("index") == index else _CHOICE_UNNUMBERED
        choice_shape = _shape(choice, modelled, self.dialect.choice_defaults)
        if "index" not in choice:
            choice_shape.setdefault("absent", []).append("index")
        parts, message_shape = self.message(message, f"{path}.message")
        echo: ResponseEcho = {}
        if choice_shape:
            echo["choice"] = choice_shape
        if message_shape:
            echo["message"] = message_shape
        answer = {
            "message": Message(role="assistant", parts=tuple(parts)),
            "finish_reason": decode_finish_reason(raw, self.dialect.finish_reasons),
            "raw_finish_reason": raw,
        }
        return answer, echo

    def message(self, message: Mapping[str, Any], path: str) -> tuple[list[Any], MessageShape]:
        read = self.read
        parts: list[Any] = []
        modelled = set(_MESSAGE_MODELLED)
        reasoning, reasoning_said = self.dialect.decode_reasoning(message, path, read)
        parts.extend(reasoning)
        modelled.update(reasoning_said)
        content = message.get("content")
        if isinstance(content, dict):
            # Quirk: Cloudflare Workers AI answers `json_schema` with the object
            # itself as the content; it is the JSON text a client reads.
            parts.append(text_data(json.dumps(content, ensure_ascii=False, separators=(",", ":"))))
        else:
            parts.extend(self.parts.assistant_content(message, path)[0])
        if (annotations := message.get("annotations")) and self.annotate(parts, annotations):
            modelled.add("annotations")
        if (refusal := read.field(message, "refusal", path, str, None)) is not None:
            parts.append(RefusalPart(text=refusal))
        if (audio := read.field(message, "audio", path, dict, None)) is not None:
            parts.append(self.audio(audio, f"{path}.audio"))
        parts.extend(decode_tool_calls(message, path, self.read))
        # A modelled field the parts cannot say (null, an empty list) is kept verbatim.
        said = {key for key in modelled if message.get(key) or key in ("role", "content")}
        shape = _shape(message, said, self.message_defaults)
        if isinstance(content, list | dict):
            shape["content"] = "list" if isinstance(content, list) else "object"
        return parts, shape

    def annotate(self, parts: list[Any], annotations: list[Any]) -> bool:
        """Puts `annotations` on the one text part they annotate, if there is one."""
        texts = [
            i for i, part in enumerate(parts) if isinstance(part, dict) and part["type"] == "text"
        ]
        if len(texts) != 1:
            return False
        text = parts[texts[0]]  # as data (`_parts.text_data`)
        data = merge_provider_data(
            text.get("provider_data", {}),
            keep(self.provider, echo=TextEcho(annotations=annotations)),
        )
        parts[texts[0]] = {**text, "provider_data": data}
        return True

    def audio(self, audio: Mapping[str, Any], path: str) -> FilePart:
        return FilePart(
            media_type=AUDIO_ANSWER_MEDIA_TYPE,
            data=self.read.field(audio, "data", path, str),
            provider_data=keep(self.provider, echo=FileEcho(audio=_audio_answer(audio))),
        )


def _as_object(content: Any) -> Any:
    """An answer's JSON text as the object it came as; a text that is no longer
    a JSON object goes as text."""
    if isinstance(content, str):
        try:
            value = json.loads(content)
        except ValueError:
            return content
        if isinstance(value, dict):
            return value
    return content


def made_elsewhere(response: ChatResponse) -> dict[str, Any]:
    """What a body made elsewhere says of itself: its id, or one derived from
    the answer where it has none (Bedrock's Converse answers, whose model is in
    the URL, name neither), its model (or an empty name), and when it was made."""
    made = response.id
    if made is None:
        made = derived_id(ID_PREFIX, response.model_dump_json())
    created = created_of(response.provider_data)
    return {"id": made, "object": _BODY_OBJECT, "created": created, "model": response.model or ""}


def created_of(data: ProviderData) -> int:
    """The `created` of an answer made elsewhere, whose `provider_data` is `data`:
    the upstream's creation time where its wire said one, else the time now."""
    return created_time(data) or int(time.time())


def _audio_answer(audio: Mapping[str, Any]) -> AudioAnswer:
    """What an audio answer keeps beside its data (`id`, `expires_at`, `transcript`)."""
    return cast("AudioAnswer", other_fields(audio, ("data",)))


class ResponseEncoder:
    """Core answers to bodies; its `part` and `fill` write a stream's whole parts too."""

    def __init__(self, dialect: ChatCompletionsDialect, report: TranslationReport) -> None:
        self.parts = part_encoder(dialect, report)
        self.dialect, self.provider, self.report = dialect, dialect.provider, report
        self.message_defaults = {"role": "assistant", "content": None, **dialect.message_defaults}
        self.custom_tools = answer_custom_tools(dialect.custom_tools)

    def response(self, response: ChatResponse) -> dict[str, Any]:
        entry = kept(response, self.provider)
        forms = entry.get("forms", {})
        if "fields" in entry:  # its own: an id and a model where its wire had them
            named = {"id": response.id, "model": response.model}
            body: dict[str, Any] = {k: value for k, value in named.items() if value is not None}
        else:
            body = made_elsewhere(response)
        answers = (response, *response.alternatives)
        body["choices"] = [self.choice(answer, index) for index, answer in enumerate(answers)]
        if forms.get("choices") == "empty":
            body["choices"] = []
        elsewhere = "fields" not in entry
        usage = self.dialect.usage.encode(response.usage, self.report, elsewhere=elsewhere)
        extra = entry.get("echo", {}).get("usage")
        body["usage"] = overlay(usage, copy_json(extra)) if extra else usage
        report_other_response(response, self.provider, self.report)
        return _rebuilt(body, entry.get("fields", {}), forms.get("absent", ()))

    def choice(self, response: ChatResponse, index: int) -> dict[str, Any]:
        where = "" if index == 0 else f"alternatives[{index - 1}]."
        echo = kept(response, self.provider).get("echo", {})
        wire: dict[str, Any] = {
            "index": index,
            "message": self.message(response.message, echo.get("message", {}), where),
        }
        wire["finish_reason"] = encode_finish_reason(
            response.finish_reason,
            response.raw_finish_reason,
            made_by=response.provider,
            provider=self.provider,
            reasons=self.dialect.finish_reasons,
            report=self.report,
            path=f"{where}finish_reason",
        )
        wire.update(copy_json(self.dialect.choice_defaults))
        shape = echo.get("choice", {})
        return _rebuilt(wire, shape.get("fields", {}), shape.get("absent", ()))

    def message(self, message: Message, shape: Mapping[str, Any], where: str) -> dict[str, Any]:
        answer = Answer(listed=shape.get("content") == "list")
        wire: dict[str, Any] = copy_json(self.message_defaults)
        for position, part in enumerate(message.parts):
            self.part(answer, wire, part, f"{where}message.parts[{position}]")
        self.fill(wire, answer)
        if shape.get("content") == "object":
            wire["content"] = _as_object(wire.get("content"))
        return _rebuilt(wire, shape.get("fields", {}), shape.get("absent", ()))

    def fill(self, wire: dict[str, Any], answer: Answer) -> dict[str, Any]:
        """`wire` (a message, or a stream's delta) with what `answer`'s parts add
        up to: the content, the reasoning, the tool calls."""
        if answer.listed:
            wire["content"] = answer.items
        elif answer.items:
            wire["content"] = "".join(item.get("text", "") for item in answer.items)
        if answer.think is not None:
            wire["content"] = with_think(answer.think, wire.get("content"))
        self.dialect.encode_reasoning(answer.reasoning, wire)
        if answer.calls:
            wire["tool_calls"] = answer.calls
        return wire

    def part(self, answer: Answer, wire: dict[str, Any], part: ContentPart, path: str) -> None:
        entry = kept(part, self.provider)
        forms, echo = entry.get("forms", {}), entry.get("echo", {})
        match part:
            case TextPart():
                answer.items.append(self.parts.text(part))
                if "annotations" in echo:
                    wire["annotations"] = copy_json(echo["annotations"])
            case OpaquePart() if part.provider == self.provider:
                # An item of a content list this codec does not model: the list goes back.
                answer.items.append(copy_json(part.data))
                answer.listed = True
            case RefusalPart() if (item := self.parts.refusal_as_text(part, path)) is not None:
                answer.items.append(item)
            case RefusalPart() if forms.get("in_content"):
                answer.items.append({"type": "refusal", "refusal": part.text})
                answer.listed = True
            case RefusalPart():
                wire["refusal"] = (wire.get("refusal") or "") + part.text
            case ToolCallPart() if forms.get("function_call"):
                wire["function_call"] = {"name": part.name, "arguments": part.arguments}
            case ToolCallPart():
                answer.calls.append(encode_tool_call(part, part.id, entry, self.custom_tools))
            case ReasoningPart() if (prefix := think_prefix(part, self.provider)) is not None:
                answer.think = prefix
            case ReasoningPart() if (item := self.parts.reasoning_item(part)) is not None:
                answer.items.append(item)
                answer.listed = True
            case ReasoningPart() if self.dialect.holds_reasoning(part):
                answer.reasoning.append(part)
            case FilePart() if "audio" in echo:
                wire["audio"] = {**copy_json(echo["audio"]), "data": part.data}
            case ReasoningPart() | FilePart() | OpaquePart() | ToolResultPart():
                self.report.dropped(
                    path, f"a Chat Completions answer has no place for {part.type}", "content"
                )
            case _:
                assert_never(part)


@dataclass(slots=True)
class Answer:
    """What an answer's parts (or a stream's whole part) add up to on the wire."""

    listed: bool
    items: list[dict[str, Any]] = field(default_factory=list)
    reasoning: list[ReasoningPart] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    think: str | None = None  # the reasoning the content opens with (`_think`)
