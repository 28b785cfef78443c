"""The neutral stream events and the accumulator."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from interlingua import (
    AlternativeEvent,
    ChatResponse,
    ErrorEvent,
    FinishEvent,
    FinishReason,
    Message,
    OpaquePart,
    OverloadedError,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningPart,
    ReasoningSignature,
    RefusalDelta,
    RefusalPart,
    StreamAccumulator,
    StreamError,
    StreamEvent,
    StreamStart,
    TextDelta,
    TextPart,
    TokenUsage,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    UsageEvent,
    accumulate,
    accumulate_async,
)

EVENTS: list[StreamEvent] = [
    StreamStart(id="msg_1", model="m", provider="anthropic"),
    UsageEvent(usage=TokenUsage(input_tokens=10, output_tokens=1)),
    ReasoningDelta(index=0, text="Let me ", provider="anthropic"),
    ReasoningDelta(index=0, text="think.", provider="anthropic"),
    ReasoningSignature(index=0, signature="sig==", provider="anthropic"),
    PartEvent(index=1, part=ReasoningPart(redacted_data="opaque", provider="anthropic")),
    TextDelta(index=2, text="It is "),
    TextDelta(index=2, text="sunny."),
    PartDataEvent(index=2, provider="anthropic", data={"fields": {"citations": [{"url": "u"}]}}),
    ToolCallStart(index=3, id="toolu_1", name="get_weather"),
    ToolCallDelta(index=3, arguments='{"city": '),
    ToolCallDelta(index=3, arguments='"Paris"}'),
    UsageEvent(usage=TokenUsage(input_tokens=10, output_tokens=42)),
    FinishEvent(
        finish_reason=FinishReason.TOOL_CALLS,
        raw_finish_reason="tool_use",
        provider_data={"anthropic": {"fields": {"stop_sequence": None}}},
    ),
]

EXPECTED = ChatResponse(
    id="msg_1",
    model="m",
    provider="anthropic",
    message=Message.assistant(
        ReasoningPart(text="Let me think.", signature="sig==", provider="anthropic"),
        ReasoningPart(redacted_data="opaque", provider="anthropic"),
        TextPart(
            text="It is sunny.",
            provider_data={"anthropic": {"fields": {"citations": [{"url": "u"}]}}},
        ),
        ToolCallPart(id="toolu_1", name="get_weather", arguments='{"city": "Paris"}'),
    ),
    finish_reason=FinishReason.TOOL_CALLS,
    raw_finish_reason="tool_use",
    usage=TokenUsage(input_tokens=10, output_tokens=42),
    provider_data={"anthropic": {"fields": {"stop_sequence": None}}},
)


def test_a_stream_accumulates_to_the_whole_response() -> None:
    assert accumulate(EVENTS) == EXPECTED


async def _aiter(events: list[StreamEvent]) -> AsyncIterator[StreamEvent]:
    for event in events:
        yield event


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_an_async_stream_accumulates_the_same() -> None:
    assert await accumulate_async(_aiter(EVENTS)) == EXPECTED


def test_a_text_part_and_a_tool_call_may_share_an_index() -> None:
    # OpenAI's chat stream numbers tool calls from 0 beside the content.
    response = accumulate(
        [
            TextDelta(index=0, text="Checking."),
            ToolCallStart(index=0, id="call_1", name="f", arguments='{"a"'),
            ToolCallDelta(index=0, arguments=":1}"),
            RefusalDelta(index=0, text="no"),
        ]
    )
    assert response.message.parts == (
        TextPart(text="Checking."),
        ToolCallPart(id="call_1", name="f", arguments='{"a":1}'),
        RefusalPart(text="no"),
    )


TOOL_CALLS = FinishEvent(finish_reason=FinishReason.TOOL_CALLS, raw_finish_reason="tool_use")


def test_a_call_without_argument_deltas_has_empty_object_arguments() -> None:
    response = accumulate([ToolCallStart(index=0, id="c", name="now"), TOOL_CALLS])
    assert response.message.tool_calls[0].arguments == "{}"
    assert response.warnings == ()


def test_malformed_arguments_are_kept_and_flagged() -> None:
    response = accumulate(
        [
            TextDelta(index=0, text="x"),
            ToolCallStart(index=1, id="c", name="f"),
            ToolCallDelta(index=1, arguments='{"a": tru'),
            TOOL_CALLS,
        ]
    )
    assert response.message.tool_calls[0].arguments == '{"a": tru'
    (warning,) = response.warnings
    assert warning.path == "message.parts[1].arguments"
    assert warning.kind == "malformed"
    assert "kept as text" in warning.reason


def test_an_error_event_raises_with_what_had_arrived() -> None:
    events: list[StreamEvent] = [
        StreamStart(id="msg_2", provider="anthropic"),
        TextDelta(text="Half an ans"),
        ErrorEvent(message="Overloaded", error_type="overloaded_error", provider="anthropic"),
        TextDelta(text="never read"),
    ]
    with pytest.raises(StreamError) as caught:
        accumulate(events)
    error = caught.value
    assert error.partial is not None
    assert error.partial.text == "Half an ans"
    assert error.partial.finish_reason is None
    assert isinstance(error.error, OverloadedError)
    assert error.error.retryable
    assert error.error.provider == "anthropic"


def test_a_broken_stream_keeps_what_arrived() -> None:
    def broken() -> Iterator[StreamEvent]:
        yield StreamStart(id="msg_3")
        yield TextDelta(text="partial")
        raise ConnectionResetError("peer went away")

    with pytest.raises(StreamError, match="peer went away") as caught:
        accumulate(broken())
    assert caught.value.partial is not None
    assert caught.value.partial.text == "partial"
    assert isinstance(caught.value.__cause__, ConnectionResetError)


def test_the_accumulator_can_be_read_midway() -> None:
    accumulator = StreamAccumulator()
    accumulator.add(TextDelta(text="Hel"))
    assert accumulator.response().text == "Hel"
    accumulator.add(TextDelta(text="lo"))
    assert accumulator.response().text == "Hello"


def test_a_later_usage_event_replaces_an_earlier_one() -> None:
    response = accumulate(
        [
            UsageEvent(usage=TokenUsage(input_tokens=5, output_tokens=1)),
            UsageEvent(usage=TokenUsage(input_tokens=5, output_tokens=9)),
        ]
    )
    assert response.usage.output_tokens == 9


def test_stream_events_round_trip_through_json() -> None:
    from pydantic import TypeAdapter

    adapter: TypeAdapter[StreamEvent] = TypeAdapter(StreamEvent)
    for event in EVENTS:
        assert adapter.validate_json(adapter.dump_json(event)) == event


def test_a_provider_error_raised_by_the_stream_is_kept_on_the_stream_error() -> None:
    def failing() -> Iterator[StreamEvent]:
        yield TextDelta(text="so far")
        raise OverloadedError("busy", provider="anthropic", status=529)

    with pytest.raises(StreamError) as caught:
        accumulate(failing())
    assert isinstance(caught.value.error, OverloadedError)
    assert caught.value.partial is not None
    assert caught.value.partial.text == "so far"


def test_a_response_built_any_way_flags_malformed_arguments_once() -> None:
    message = Message.assistant(ToolCallPart(id="c", name="f", arguments="{oops"))
    response = ChatResponse(message=message)
    (warning,) = response.warnings
    assert warning.path == "message.parts[0].arguments"
    again = ChatResponse.model_validate_json(response.model_dump_json())
    assert again.warnings == response.warnings


def test_a_part_kept_although_malformed_is_flagged_where_it_ends_up() -> None:
    block = OpaquePart(provider="anthropic", data={"type": "server_tool_use", "input": '{"q": '})
    response = accumulate(
        [
            TextDelta(index=0, text="Searching."),
            PartEvent(index=1, part=block, malformed="input is not JSON; kept as text"),
            TOOL_CALLS,
        ]
    )
    assert response.message.parts[1] == block
    (warning,) = response.warnings
    assert (warning.path, warning.kind) == ("message.parts[1]", "malformed")
    assert warning.reason == "input is not JSON; kept as text"


def test_other_choices_become_the_alternatives_in_index_order() -> None:
    second = ChatResponse(message=Message.assistant("Two."), finish_reason=FinishReason.LENGTH)
    third = ChatResponse(message=Message.assistant("Three."), finish_reason=FinishReason.STOP)
    response = accumulate(
        [
            TextDelta(text="One."),
            AlternativeEvent(index=2, response=third),
            AlternativeEvent(index=1, response=second),
        ]
    )
    assert response.text == "One."
    assert response.alternatives == (second, third)


def test_a_stream_that_ends_without_a_finish_is_flagged_as_maybe_cut_off() -> None:
    response = accumulate([StreamStart(id="msg_9"), TextDelta(text="Half an")])
    assert response.text == "Half an"
    assert response.finish_reason is None
    (warning,) = response.warnings
    assert (warning.path, warning.kind) == ("finish_reason", "malformed")
    assert "may be cut off" in warning.reason


def test_a_response_holds_an_assistant_message_and_copies_refresh_their_flags() -> None:
    from interlingua import InvalidDataError

    with pytest.raises(InvalidDataError, match="a response holds an assistant message"):
        ChatResponse(message=Message.user("hi"))
    bad = ChatResponse(message=Message.assistant(ToolCallPart(id="c", name="f", arguments="{")))
    assert len(bad.warnings) == 1
    fixed = bad.model_copy(update={"message": Message.assistant("done")})
    assert fixed.warnings == ()
