"""Property tests: every core value and stream event survives JSON, histories
survive files, usage adds up, and a stream cut anywhere (text, reasoning,
signature and argument deltas; usage sent again as it grows) accumulates to
the same response."""

from __future__ import annotations

import enum
import itertools
import json
import types
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter

import interlingua_anthropic
import interlingua_groq
import interlingua_openai
import interlingua_openai.responses
from conftest import recorded, same_json
from interlingua import (
    ChatHistory,
    ChatRequest,
    ChatResponse,
    ContentPart,
    ErrorEvent,
    FilePart,
    FinishEvent,
    FinishReason,
    InvocationContext,
    LossKind,
    Message,
    OpaquePart,
    ReasoningConfig,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    RefusalDelta,
    RefusalPart,
    ResponseFormat,
    StreamEvent,
    StreamStart,
    TextDelta,
    TextPart,
    TokenUsage,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
    TranslationLoss,
    UsageEvent,
    accumulate,
)
from interlingua.codec import PROVIDER_DATA_SECTIONS, ProviderData, ProviderEntry

text = st.text(max_size=30)
names = st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)
providers = st.sampled_from(["anthropic", "openai", "openai-responses", "mistral", "groq"])
json_scalars = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | text
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=3),
    max_leaves=8,
)
json_objects = st.dictionaries(names, json_values, max_size=3)
# Aware datetimes at any whole-minute offset from UTC.
times = st.datetimes(
    min_value=datetime(1970, 1, 2),
    max_value=datetime(2200, 1, 1),
    timezones=st.builds(
        timezone, st.integers(-23 * 60, 23 * 60).map(lambda m: timedelta(minutes=m))
    ),
)
provider_entries = st.fixed_dictionaries(
    {},
    optional={
        section: st.dictionaries(names, json_values, min_size=1, max_size=2)
        for section in PROVIDER_DATA_SECTIONS
    },
)
provider_data = st.dictionaries(providers, provider_entries, max_size=2)

text_parts = st.builds(TextPart, text=text, provider_data=provider_data)
file_parts = st.one_of(
    st.builds(FilePart, media_type=st.just("image/png"), data=st.just("aGVsbG8=")),
    st.builds(FilePart, media_type=st.just("application/pdf"), url=text, filename=st.none() | text),
    st.builds(
        FilePart,
        media_type=st.just("image/jpeg"),
        file_id=names,
        provider=st.none() | providers,
        detail=st.none() | text,
        provider_data=provider_data,
    ),
)
reasoning_parts = st.builds(
    ReasoningPart,
    text=text,
    signature=st.none() | text,
    redacted_data=st.none() | text,
    provider=st.none() | providers,
)
tool_calls = st.builds(ToolCallPart, id=names, name=names, arguments=text)
tool_results = st.builds(
    ToolResultPart,
    tool_call_id=names,
    name=st.none() | names,
    content=st.lists(text_parts | file_parts, max_size=2).map(tuple),
    is_error=st.booleans(),
)
opaque_parts = st.builds(OpaquePart, provider=names, data=json_objects)
refusals = st.builds(RefusalPart, text=text)
content_parts = st.one_of(
    text_parts, file_parts, reasoning_parts, tool_calls, tool_results, refusals, opaque_parts
)


def _message(role: str, parts: st.SearchStrategy[ContentPart]) -> st.SearchStrategy[Message]:
    return st.builds(
        Message,
        role=st.just(role),
        parts=st.lists(parts, max_size=4).map(tuple),
        id=st.none() | names,
        metadata=st.dictionaries(names, json_values, max_size=2),
        created_at=st.none() | times,
        updated_at=st.none() | times,
    )


def times_of(messages: list[Message]) -> list[tuple[datetime | None, datetime | None]]:
    """When each message was said and edited: equality leaves them out."""
    return [(message.created_at, message.updated_at) for message in messages]


messages = st.one_of(
    _message("system", text_parts),
    _message("user", text_parts | file_parts | opaque_parts),
    _message(
        "assistant",
        text_parts | file_parts | reasoning_parts | tool_calls | refusals | opaque_parts,
    ),
    _message("tool", tool_results),
)
usages = st.builds(
    TokenUsage,
    input_tokens=st.integers(0, 10**6),
    output_tokens=st.integers(0, 10**6),
    cache_read_tokens=st.integers(0, 10**6),
    cache_write_tokens=st.integers(0, 10**6),
    reasoning_tokens=st.integers(0, 10**6),
    details=st.dictionaries(names, st.integers(0, 1000), max_size=3),
)
contexts = st.builds(
    InvocationContext,
    session_id=st.none() | names,
    user_id=st.none() | names,
    llm_settings=st.none() | json_objects,
    workflow_settings=st.none() | json_objects,
)
requests = st.builds(
    ChatRequest,
    model=names,
    messages=st.lists(messages, max_size=4).map(tuple),
    tools=st.lists(
        st.builds(
            ToolSpec, name=names, description=st.none() | text, strict=st.none() | st.booleans()
        ),
        max_size=2,
    ).map(tuple),
    tool_choice=st.none() | st.sampled_from([ToolChoice.auto(), ToolChoice.tool("f")]),
    parallel_tool_calls=st.none() | st.booleans(),
    max_tokens=st.none() | st.integers(1, 10**5),
    temperature=st.none() | st.integers(0, 2) | st.floats(0, 2),
    top_p=st.none() | st.integers(0, 1) | st.floats(0, 1),
    top_k=st.none() | st.integers(1, 500),
    stop=st.lists(text, max_size=2).map(tuple),
    seed=st.none() | st.integers(-(2**63), 2**63 - 1),
    reasoning=st.none() | st.builds(ReasoningConfig, budget_tokens=st.none() | st.integers(1, 9)),
    response_format=st.none() | st.just(ResponseFormat(type="json_object")),
    stream=st.booleans(),
    context=st.none() | contexts,
    provider_options=st.dictionaries(names, st.dictionaries(names, json_values, max_size=2)),
    provider_data=provider_data,
)
warnings = st.builds(
    TranslationLoss, path=text, kind=st.sampled_from(get_args(LossKind)), reason=text
)


def _responses(
    alternatives: st.SearchStrategy[tuple[ChatResponse, ...]],
) -> st.SearchStrategy[ChatResponse]:
    return st.builds(
        ChatResponse,
        id=st.none() | names,
        model=st.none() | names,
        provider=st.none() | names,
        message=_message("assistant", text_parts | reasoning_parts | tool_calls | refusals),
        finish_reason=st.none() | st.sampled_from(FinishReason),
        raw_finish_reason=st.none() | text,
        usage=usages,
        alternatives=alternatives,
        warnings=st.lists(warnings, max_size=2).map(tuple),
        provider_data=provider_data,
    )


# A response whose alternatives are responses without alternatives of their own.
responses = _responses(st.lists(_responses(st.just(())), max_size=2).map(tuple))


@given(messages)
def test_a_message_survives_json(message: Message) -> None:
    loaded = Message.model_validate_json(message.model_dump_json())
    assert loaded == message
    assert times_of([loaded]) == times_of([message])


@given(requests)
def test_a_request_survives_json_all_but_its_context(request: ChatRequest) -> None:
    dumped = request.model_dump_json()

    assert "context" not in json.loads(dumped)  # it belongs to this call, not to the data
    assert ChatRequest.model_validate_json(dumped) == request.model_copy(update={"context": None})


@given(responses)
def test_a_response_survives_json(response: ChatResponse) -> None:
    assert ChatResponse.model_validate_json(response.model_dump_json()) == response


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    max_examples=30,
)
@given(st.lists(messages, max_size=6), usages)
def test_a_history_survives_a_file(
    tmp_path: Path, history: list[Message], usage: TokenUsage
) -> None:
    path = tmp_path / "h.json"
    original = ChatHistory(messages=history, usage=usage, metadata={"k": [1, "two"]})
    original.save(path)
    loaded = ChatHistory.load(path)
    assert loaded == original
    assert times_of(loaded.messages) == times_of(original.messages)


@given(usages, usages, usages)
def test_usage_addition_is_associative_and_commutative(
    a: TokenUsage, b: TokenUsage, c: TokenUsage
) -> None:
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert sum([a, b, c]) == a + b + c
    assert (a + b).total_tokens == a.total_tokens + b.total_tokens


def test_a_whole_number_setting_stays_a_whole_number() -> None:
    dumped = ChatRequest(model="m", temperature=1, top_p=0.5).model_dump_json()
    assert '"temperature":1,' in dumped
    assert '"top_p":0.5,' in dumped


# --- stream events: every member of the `StreamEvent` union, found from the union ---


def union_members(annotation: Any) -> tuple[Any, ...]:
    """The members of a union, `Annotated` or not (a lone type for anything else)."""
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) in (Union, types.UnionType):
        return get_args(annotation)
    return (annotation,)


EVENT_CLASSES: tuple[type[BaseModel], ...] = union_members(StreamEvent)

# A strategy for each type an event field has (enums are sampled); a field of
# another type fails the test with its type named, so a new event gets one here.
FIELD_STRATEGIES: dict[Any, st.SearchStrategy[Any]] = {
    str: text,
    int: st.integers(0, 10**6),
    bool: st.booleans(),
    Any: json_values,
    dict[str, Any]: json_objects,
    ProviderData: provider_data,
    ProviderEntry: provider_entries,
    TokenUsage: usages,
    ChatResponse: responses,
    union_members(ContentPart): content_parts,
}


def field_strategy(annotation: Any) -> st.SearchStrategy[Any]:
    """Values of an event field's type: an optional field is None or a value."""
    members = union_members(annotation)
    if type(None) not in members:
        return members_strategy(members)
    return st.none() | members_strategy(tuple(m for m in members if m is not type(None)))


def members_strategy(members: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    key = members[0] if len(members) == 1 else members
    if isinstance(key, type) and issubclass(key, enum.Enum):
        return st.sampled_from(key)
    if key not in FIELD_STRATEGIES:
        raise LookupError(f"no strategy for a stream event field of type {key!r}")
    return FIELD_STRATEGIES[key]


def event_strategy(event: type[BaseModel]) -> st.SearchStrategy[BaseModel]:
    fields = {
        name: field_strategy(info.annotation)
        for name, info in event.model_fields.items()
        if name != "type"
    }
    return st.builds(event, **fields)


def test_the_stream_event_union_is_read_whole() -> None:
    assert {StreamStart, TextDelta, FinishEvent, ErrorEvent} <= set(EVENT_CLASSES)
    tags = [event.model_fields["type"].default for event in EVENT_CLASSES]
    assert len(set(tags)) == len(tags)


STREAM_EVENT = TypeAdapter[Any](StreamEvent)


@pytest.mark.parametrize("event_class", EVENT_CLASSES, ids=lambda event: event.__name__)
@settings(max_examples=50)
@given(data=st.data())
def test_every_stream_event_survives_json(
    event_class: type[BaseModel], data: st.DataObject
) -> None:
    event = data.draw(event_strategy(event_class))

    restored = STREAM_EVENT.validate_json(STREAM_EVENT.dump_json(event))

    assert type(restored) is event_class
    assert restored == event


# --- re-chunked streams: every delta cut anywhere, usage sent again as it grows ---

stream_texts = st.text(min_size=1, max_size=20)
streamed_parts = st.one_of(
    st.builds(TextPart, text=stream_texts),
    st.builds(
        ReasoningPart,
        text=stream_texts,
        signature=st.none() | stream_texts,
        provider=st.none() | providers,
    ),
    st.builds(RefusalPart, text=stream_texts),
    st.builds(ToolCallPart, id=names, name=names, arguments=stream_texts),
)


def cut(data: st.DataObject, value: str) -> list[str]:
    """`value` cut at a few points drawn from `data` (one piece at least)."""
    points = data.draw(st.sets(st.integers(1, max(len(value) - 1, 1)), max_size=4))
    bounds = [0, *sorted(p for p in points if p < len(value)), len(value)]
    return [value[a:b] for a, b in itertools.pairwise(bounds)]


def part_events(index: int, part: ContentPart, data: st.DataObject) -> list[StreamEvent]:
    """The events a stream sends for `part` at `index`, each text cut anew."""
    match part:
        case TextPart():
            return [TextDelta(index=index, text=piece) for piece in cut(data, part.text)]
        case RefusalPart():
            return [RefusalDelta(index=index, text=piece) for piece in cut(data, part.text)]
        case ReasoningPart():
            events: list[StreamEvent] = [
                ReasoningDelta(index=index, text=piece, provider=part.provider)
                for piece in cut(data, part.text)
            ]
            if part.signature is not None:
                events += [
                    ReasoningSignature(index=index, signature=piece, provider=part.provider)
                    for piece in cut(data, part.signature)
                ]
            return events
        case ToolCallPart():
            first, *rest = cut(data, part.arguments)
            start = ToolCallStart(index=index, id=part.id, name=part.name, arguments=first)
            return [start, *(ToolCallDelta(index=index, arguments=piece) for piece in rest)]
    raise AssertionError(f"a part no stream sends in deltas: {part!r}")


@settings(max_examples=150)
@given(
    st.lists(streamed_parts, min_size=1, max_size=4),
    st.lists(usages, max_size=3),
    usages,
    st.sampled_from(FinishReason),
    st.data(),
)
def test_a_stream_cut_anywhere_accumulates_to_the_parts_and_the_last_usage(
    parts: list[ContentPart],
    earlier: list[TokenUsage],
    usage: TokenUsage,
    finish: FinishReason,
    data: st.DataObject,
) -> None:
    events: list[StreamEvent] = [StreamStart(id="r1", model="m", provider="p")]
    for index, part in enumerate(parts):
        events += part_events(index, part, data)
    events += [UsageEvent(usage=seen) for seen in earlier]
    events += [UsageEvent(usage=usage), FinishEvent(finish_reason=finish, raw_finish_reason="x")]

    response = accumulate(events)

    assert response.message == Message(role="assistant", parts=tuple(parts))
    assert response.usage == usage
    assert (response.finish_reason, response.raw_finish_reason) == (finish, "x")
    assert (response.id, response.model, response.provider) == ("r1", "m", "p")


ANTHROPIC_TEXTS = {
    "text_delta": "text",
    "thinking_delta": "thinking",
    "signature_delta": "signature",
    "input_json_delta": "partial_json",
}


def anthropic_rechunked(payloads: list[dict[str, Any]], data: st.DataObject) -> list[Any]:
    """An Anthropic stream with each block's deltas of each kind joined and cut
    anew, and its `message_delta` sent as a few: the usage is cumulative, so
    the earlier ones carry smaller output counts and no stop reason."""
    joined: dict[tuple[int, str], str] = {}
    for payload in payloads:
        if payload["type"] == "content_block_delta":
            key = (payload["index"], payload["delta"]["type"])
            joined[key] = joined.get(key, "") + payload["delta"][ANTHROPIC_TEXTS[key[1]]]
    out: list[dict[str, Any]] = []
    for payload in payloads:
        if payload["type"] == "content_block_delta":
            index, kind = key = (payload["index"], payload["delta"]["type"])
            if key in joined:
                out += [
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": kind, ANTHROPIC_TEXTS[kind]: piece},
                    }
                    for piece in cut(data, joined.pop(key))
                ]
        elif payload["type"] == "message_delta":
            output = payload["usage"]["output_tokens"]
            counts = data.draw(st.lists(st.integers(0, output), max_size=3).map(sorted))
            out += [
                {"type": "message_delta", "delta": {}, "usage": {"output_tokens": count}}
                for count in counts
            ]
            out.append(payload)
        else:
            out.append(payload)
    return out


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_an_anthropic_stream_cut_anywhere_accumulates_to_the_same_response(
    data: st.DataObject,
) -> None:
    payloads = recorded("anthropic/stream_thinking_tool_use.json")[0].response.stream_payloads()
    kinds = {p["delta"]["type"] for p in payloads if p["type"] == "content_block_delta"}
    assert kinds == set(ANTHROPIC_TEXTS)

    again = accumulate(interlingua_anthropic.decode_stream(anthropic_rechunked(payloads, data)))

    assert again == accumulate(interlingua_anthropic.decode_stream(payloads))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_groq_stream_with_reasoning_cut_anywhere_accumulates_to_the_same_response(
    data: st.DataObject,
) -> None:
    payloads = recorded("groq/stream_reasoning_usage.json")[0].response.stream_payloads()
    rechunked: list[dict[str, Any]] = []
    for payload in payloads:
        delta = payload["choices"][0]["delta"]
        field = next((name for name in ("reasoning", "content") if delta.get(name)), None)
        if field is None:
            rechunked.append(payload)
            continue
        for piece in cut(data, delta[field]):
            choice = {**payload["choices"][0], "delta": {**delta, field: piece}}
            rechunked.append({**payload, "choices": [choice]})
    assert any("reasoning" in p["choices"][0]["delta"] for p in payloads)

    again = accumulate(interlingua_groq.decode_stream(rechunked))

    assert again == accumulate(interlingua_groq.decode_stream(payloads))


# --- OpenAI usage objects, whatever their detail groups hold ---

counts = st.integers(0, 10**6)
detail_groups = st.none() | st.dictionaries(
    st.sampled_from(["cached_tokens", "reasoning_tokens", "audio_tokens", "note"]),
    counts | st.none() | text,
    max_size=3,
)


@given(
    st.sampled_from(["chat", "responses", "groq"]),
    counts,
    counts,
    st.none() | counts,
    detail_groups,
    detail_groups,
    st.dictionaries(st.sampled_from(["queue_time", "total_time"]), st.none() | text | counts),
    st.dictionaries(st.sampled_from(["cost", "service_tier"]), json_scalars, max_size=1),
)
def test_a_chat_usage_object_goes_back_as_it_came_and_totals_when_it_has_no_total(
    api: str,
    inputs: int,
    outputs: int,
    total: int | None,
    input_details: dict[str, Any] | None,
    output_details: dict[str, Any] | None,
    timings: dict[str, Any],
    unknown: dict[str, Any],
) -> None:
    """Chat Completions' and the Responses API's usage, its detail groups null,
    empty or holding what is no count (and Groq's timings, counts or not), with
    a field no API documents (a router's `cost`); the core counts read straight
    from it."""
    names = {
        "groq": ("prompt_tokens", "completion_tokens"),
        "chat": ("prompt_tokens", "completion_tokens"),
        "responses": ("input_tokens", "output_tokens"),
    }
    inputs_name, outputs_name = names[api]
    usage: dict[str, Any] = {inputs_name: inputs, outputs_name: outputs, **unknown}
    if api == "groq":
        usage.update(timings)
    if total is not None:
        usage["total_tokens"] = total
    for group, details in ((inputs_name, input_details), (outputs_name, output_details)):
        if details is not None or group == inputs_name:
            usage[f"{group}_details"] = details
    codec, body = openai_body(api, usage)

    decoded = codec.decode_response(body).usage

    # A usage without its total goes back with it (their sum).
    whole = usage if total is not None else {**usage, "total_tokens": inputs + outputs}
    assert same_json(codec.encode_response(codec.decode_response(body))["usage"], whole)
    read = (input_details or {}).get("cached_tokens")
    thought = (output_details or {}).get("reasoning_tokens")
    assert (decoded.input_tokens, decoded.output_tokens) == (inputs, outputs)
    assert decoded.total_tokens == (inputs + outputs if total is None else total)
    assert decoded.cache_read_tokens == (read if type(read) is int else 0)
    assert decoded.reasoning_tokens == (thought if type(thought) is int else 0)


def openai_body(api: str, usage: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The codec of `api` and the smallest answer body of its own around `usage`."""
    if api in ("chat", "groq"):
        codec = interlingua_groq if api == "groq" else interlingua_openai
        message = {"role": "assistant", "content": "Hi.", "refusal": None}
        choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}
        body = {"id": "c1", "object": "chat.completion", "created": 1, "model": "m"}
        return codec, {**body, "choices": [choice], "usage": usage}
    text = {"type": "output_text", "text": "Hi.", "annotations": []}
    item = {"id": "m1", "type": "message", "role": "assistant", "status": "completed"}
    body = {"id": "r1", "object": "response", "created_at": 1, "model": "m", "status": "completed"}
    output = [{**item, "content": [text]}]
    return interlingua_openai.responses, {**body, "output": output, "usage": usage}
