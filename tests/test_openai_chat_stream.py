"""Chat Completions streams: chunks to stream events, accumulated to the response
the non-streamed call gives; re-chunking the deltas changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionChunk

from conftest import pieces, same_json
from interlingua import (
    DecodeError,
    ErrorEvent,
    FinishEvent,
    FinishReason,
    Message,
    RateLimitError,
    RefusalPart,
    ResponseDataEvent,
    ServerError,
    StreamError,
    StreamStart,
    TextDelta,
    TextPart,
    TokenUsage,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    TranslationReport,
    UsageEvent,
    accumulate,
)
from interlingua.codec import WireReader
from interlingua_chat_completions import ChatStreamDecoder
from interlingua_chat_completions._stream import TEXT_INDEX
from interlingua_chat_completions._usage import CHAT_USAGE
from interlingua_openai import (
    OPENAI,
    decode_error,
    decode_response,
    decode_stream,
    encode_response,
)


def decode_usage(usage: dict[str, Any]) -> TokenUsage:
    return CHAT_USAGE.decode(usage, "usage", WireReader("openai"))


HEAD = {
    "id": "chatcmpl-DhQ3aTz8Lm2Qx5Vc9Kb1Wn4Rp7Hs",
    "object": "chat.completion.chunk",
    "created": 1780312902,
    "model": "gpt-4o-mini-2024-07-18",
    "service_tier": "default",
    "system_fingerprint": "fp_560af6e559",
}
USAGE = {
    "prompt_tokens": 121,
    "completion_tokens": 48,
    "total_tokens": 169,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {
        "reasoning_tokens": 0,
        "audio_tokens": 0,
        "accepted_prediction_tokens": 0,
        "rejected_prediction_tokens": 0,
    },
}


def chunk(
    delta: dict[str, Any] | None = None, finish: str | None = None, **fields: Any
) -> dict[str, Any]:
    choices = (
        []
        if delta is None
        else [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
    )
    return {**HEAD, "choices": choices, "usage": None, "obfuscation": "Xw9", **fields}


def call(index: int, arguments: str, first: tuple[str, str] | None = None) -> dict[str, Any]:
    if first is None:
        return {"tool_calls": [{"index": index, "function": {"arguments": arguments}}]}
    call_id, name = first
    fragment = {
        "index": index,
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": arguments},
    }
    return {"tool_calls": [fragment]}


TOOL_STREAM = [
    chunk({"role": "assistant", "content": None, "refusal": None}),
    chunk(call(0, "", ("call_Ow3s", "get_weather"))),
    chunk(call(0, '{"ci')),
    chunk(call(1, "", ("call_Pz6t", "get_time"))),
    chunk(call(0, 'ty": "Oslo"}')),
    chunk(call(1, '{"city": "Oslo"}')),
    chunk({}, "tool_calls"),
    chunk(usage=USAGE) | {"choices": []},
]


def test_parallel_tool_calls_are_keyed_by_index() -> None:
    events = list(decode_stream(TOOL_STREAM))
    assert events[1:6] == [
        ToolCallStart(index=0, id="call_Ow3s", name="get_weather"),
        ToolCallDelta(index=0, arguments='{"ci'),
        ToolCallStart(index=1, id="call_Pz6t", name="get_time"),
        ToolCallDelta(index=0, arguments='ty": "Oslo"}'),
        ToolCallDelta(index=1, arguments='{"city": "Oslo"}'),
    ]
    response = accumulate(events)
    assert response.message == Message.assistant(
        ToolCallPart(id="call_Ow3s", name="get_weather", arguments='{"city": "Oslo"}'),
        ToolCallPart(id="call_Pz6t", name="get_time", arguments='{"city": "Oslo"}'),
    )
    assert (response.finish_reason, response.raw_finish_reason) == (
        FinishReason.TOOL_CALLS,
        "tool_calls",
    )
    assert response.usage.total_tokens == 169
    assert response.id == HEAD["id"]
    assert response.provider == "openai"


def test_a_stream_accumulates_to_the_body_the_call_would_have_given() -> None:
    response = accumulate(decode_stream(TOOL_STREAM))
    body = encode_response(response)
    assert body == {
        "id": HEAD["id"],
        "object": "chat.completion",
        "created": 1780312902,
        "model": HEAD["model"],
        "service_tier": "default",
        "system_fingerprint": "fp_560af6e559",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "refusal": None,
                    "annotations": [],
                    "tool_calls": [
                        {
                            "id": "call_Ow3s",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                        },
                        {
                            "id": "call_Pz6t",
                            "type": "function",
                            "function": {"name": "get_time", "arguments": '{"city": "Oslo"}'},
                        },
                    ],
                },
                "finish_reason": "tool_calls",
                "logprobs": None,
            }
        ],
        "usage": USAGE,
    }
    again = decode_response(body)
    assert (again.message, again.usage, again.finish_reason) == (
        response.message,
        response.usage,
        response.finish_reason,
    )


def test_text_and_refusal_deltas_and_the_role_chunk() -> None:
    stream = [
        chunk({"role": "assistant", "content": "", "refusal": None}),
        chunk({"content": "I'd rather"}),
        chunk({"refusal": "I can't"}),
        chunk({"content": " not."}),
        chunk({"refusal": " help."}),
        chunk({}, "stop"),
    ]
    events = list(decode_stream(stream))
    assert isinstance(events[0], StreamStart)
    assert events[1] == TextDelta(index=TEXT_INDEX, text="I'd rather")
    response = accumulate(events)
    assert response.message.parts == (
        TextPart(text="I'd rather not."),
        RefusalPart(text="I can't help."),
    )
    assert response.usage == TokenUsage()


def test_the_sdks_chunks_decode_like_their_json() -> None:
    objects = [ChatCompletionChunk.model_validate(copy.deepcopy(c)) for c in TOOL_STREAM]
    assert list(decode_stream(objects)) == list(decode_stream(TOOL_STREAM))


def test_token_logprobs_are_gathered_for_the_choice() -> None:
    entry = {"token": "Hi", "logprob": -0.06, "bytes": [72, 105], "top_logprobs": []}
    stream = [
        chunk({"role": "assistant", "content": ""})
        | {
            "choices": [
                {
                    "index": 0,
                    "delta": {"content": ""},
                    "logprobs": {"content": [], "refusal": None},
                    "finish_reason": None,
                }
            ]
        },
        chunk()
        | {
            "choices": [
                {
                    "index": 0,
                    "delta": {"content": "Hi"},
                    "logprobs": {"content": [entry], "refusal": None},
                    "finish_reason": None,
                }
            ]
        },
        chunk({}, "stop"),
    ]
    response = accumulate(decode_stream(stream))
    choice = encode_response(response)["choices"][0]
    assert choice["logprobs"] == {"content": [entry], "refusal": None}


def test_later_top_level_fields_such_as_moderation_are_kept() -> None:
    moderation = {"input": {"type": "moderation_results", "results": []}}
    stream = [
        chunk({"content": "Paris."}),
        chunk({}, "stop"),
        chunk(moderation=moderation) | {"choices": []},
    ]
    events = list(decode_stream(stream))
    # The stream starts once; what comes later is response data.
    assert [type(event) for event in events].count(StreamStart) == 1
    assert events[-1] == ResponseDataEvent(
        provider_data={"openai": {"fields": {"moderation": moderation}}}
    )
    body = encode_response(accumulate(iter(events)))
    assert body["moderation"] == moderation
    assert "obfuscation" not in body


def test_an_error_chunk_ends_the_stream_with_what_had_arrived() -> None:
    stream = [
        chunk({"content": "Grey breath"}),
        {
            "error": {
                "message": "The server had an error",
                "type": "server_error",
                "param": None,
                "code": None,
            }
        },
    ]
    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream(stream))
    assert caught.value.partial is not None
    assert caught.value.partial.text == "Grey breath"
    assert caught.value.error is not None
    assert caught.value.error.type == "server_error"
    assert caught.value.error.provider == "openai"


def test_an_in_stream_rate_limit_is_a_retryable_rate_limit_error() -> None:
    # OpenAI names a rate limit by its code; the type says which limit.
    limit = {
        "message": "Rate limit reached for gpt-4o on tokens per min (TPM).",
        "type": "tokens",
        "param": None,
        "code": "rate_limit_exceeded",
    }
    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream([chunk({"content": "Fog"}), {"error": limit}]))
    error = caught.value.error
    assert isinstance(error, RateLimitError)
    assert error.retryable
    assert error.body == {"error": limit}


def test_an_error_chunk_is_the_event_of_the_error_decode_error_types() -> None:
    server = {"error": {"message": "The server had an error", "type": "server_error"}}
    decoder = ChatStreamDecoder(OPENAI)
    decoder.feed(chunk({"content": "Fog"}))
    (event,) = decoder.feed(server)
    assert event == ErrorEvent.from_error(decode_error(None, server))
    error = event.to_error()
    assert isinstance(error, ServerError)
    assert (error.message, error.type, error.code, error.status, error.provider) == (
        "The server had an error",
        "server_error",
        None,
        None,
        "openai",
    )
    assert error.body == server


def test_an_error_chunk_with_a_bare_message_keeps_it() -> None:
    # A proxy in front of a compatible server may answer `{"error": "<text>"}`.
    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream([chunk({"content": "Fog"}), {"error": "upstream timed out"}]))
    assert caught.value.error is not None
    assert caught.value.error.message == "upstream timed out"
    assert caught.value.error.body == {"error": "upstream timed out"}


def test_leftover_usage_comes_with_the_usage_event_not_a_second_start() -> None:
    usage = {**USAGE, "cost": 0.00021, "prompt_tokens_details": None}
    events = list(decode_stream([chunk({"content": "Hi"}, "stop"), chunk(usage=usage)]))
    assert [type(event).__name__ for event in events].count("StreamStart") == 1
    (usage_event,) = [event for event in events if isinstance(event, UsageEvent)]
    assert usage_event.provider_data == {
        "openai": {"echo": {"usage": {"cost": 0.00021, "prompt_tokens_details": None}}}
    }
    body = encode_response(accumulate(iter(events)))
    assert same_json(body["usage"], usage)


def test_malformed_tool_arguments_are_kept_and_flagged() -> None:
    stream = [chunk(call(0, '{"city": "Os', ("call_1", "f"))), chunk({}, "tool_calls")]
    response = accumulate(decode_stream(stream))
    assert response.message.tool_calls[0].arguments == '{"city": "Os'
    assert [(w.path, w.kind) for w in response.warnings] == [
        ("message.parts[0].arguments", "malformed")
    ]


def body_of(*choices: dict[str, Any], usage: dict[str, Any] = USAGE) -> dict[str, Any]:
    """The body the same call, not streamed, answers with."""
    head = {key: value for key, value in HEAD.items() if key != "object"}
    return {**head, "object": "chat.completion", "choices": list(choices), "usage": usage}


def message(**fields: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "refusal": None, "annotations": [], **fields}


def test_several_choices_accumulate_to_the_alternatives_of_the_body() -> None:
    def both(first: dict[str, Any], second: dict[str, Any], finish: tuple[Any, Any]) -> Any:
        return chunk() | {
            "choices": [
                {"index": 0, "delta": first, "logprobs": None, "finish_reason": finish[0]},
                {"index": 1, "delta": second, "logprobs": None, "finish_reason": finish[1]},
            ]
        }

    stream = [
        both(
            {"role": "assistant", "content": "One."},
            {"role": "assistant", "content": "Two."},
            (None, None),
        ),
        both({}, {}, ("stop", "length")),
        chunk(usage=USAGE) | {"choices": []},
    ]
    body = body_of(
        {"index": 0, "message": message(content="One."), "logprobs": None, "finish_reason": "stop"},
        {
            "index": 1,
            "message": message(content="Two."),
            "logprobs": None,
            "finish_reason": "length",
        },
    )
    response = accumulate(decode_stream(stream))
    assert response.text == "One."
    assert same_json(encode_response(response, report=TranslationReport(strict=True)), body)
    assert response == decode_response(body)
    (other,) = response.alternatives
    assert (other.text, other.finish_reason) == ("Two.", FinishReason.LENGTH)


def test_choice_fields_and_unknown_delta_fields_are_kept_as_the_body_keeps_them() -> None:
    safe = {"hate": {"filtered": False, "severity": "safe"}}

    def choice(delta: dict[str, Any], finish: str | None = None, **fields: Any) -> Any:
        entry = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return chunk() | {"choices": [{**entry, **fields}]}

    stream = [
        choice(
            {"role": "assistant", "content": "", "reasoning_content": "Think"},
            content_filter_results={},
        ),
        choice({"content": "Hi", "reasoning_content": "ing."}, content_filter_results=safe),
        choice({}, "stop", stop_reason=None),
        chunk(usage=USAGE) | {"choices": []},
    ]
    body = body_of(
        {
            "index": 0,
            "message": message(content="Hi", reasoning_content="Thinking."),
            "logprobs": None,
            "finish_reason": "stop",
            "content_filter_results": safe,
            "stop_reason": None,
        }
    )
    response = accumulate(decode_stream(stream))
    assert response == decode_response(body)
    assert same_json(encode_response(response), body)


CITATION = {
    "type": "url_citation",
    "url_citation": {"start_index": 0, "end_index": 3, "title": "Met", "url": "https://met.no"},
}
CALL_1 = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}


def test_annotations_land_on_the_text_and_never_on_a_tool_call() -> None:
    stream = [
        chunk({"role": "assistant", "content": "See the map."}),
        chunk(call(0, "{}", ("call_1", "f"))),
        chunk({"annotations": [CITATION]}),
        chunk({}, "tool_calls"),
        chunk(usage=USAGE) | {"choices": []},
    ]
    body = body_of(
        {
            "index": 0,
            "message": message(content="See the map.", annotations=[CITATION], tool_calls=[CALL_1]),
            "logprobs": None,
            "finish_reason": "tool_calls",
        }
    )
    response = accumulate(decode_stream(stream))
    assert response == decode_response(body)
    assert response.message.tool_calls[0].provider_data == {}
    assert same_json(encode_response(response), body)


def test_annotations_without_text_make_no_text_part() -> None:
    stream = [
        chunk({"role": "assistant", "content": None}),
        chunk(call(0, "{}", ("call_1", "f"))),
        chunk({"annotations": [CITATION]}),
        chunk({}, "tool_calls"),
        chunk(usage=USAGE) | {"choices": []},
    ]
    body = body_of(
        {
            "index": 0,
            "message": message(annotations=[CITATION], tool_calls=[CALL_1]),
            "logprobs": None,
            "finish_reason": "tool_calls",
        }
    )
    response = accumulate(decode_stream(stream))
    assert [part.type for part in response.message.parts] == ["tool_call"]
    assert response == decode_response(body)
    assert same_json(encode_response(response), body)


def test_the_decoder_takes_one_chunk_at_a_time() -> None:
    decoder = ChatStreamDecoder(OPENAI)
    fields = {
        "object": "chat.completion",
        "created": 1780312902,
        "service_tier": "default",
        "system_fingerprint": "fp_560af6e559",
    }
    assert [decoder.feed(c) for c in TOOL_STREAM] == [
        [
            StreamStart(
                id=HEAD["id"],
                model=HEAD["model"],
                provider="openai",
                provider_data={"openai": {"fields": fields}},
            )
        ],
        [ToolCallStart(index=0, id="call_Ow3s", name="get_weather")],
        [ToolCallDelta(index=0, arguments='{"ci')],
        [ToolCallStart(index=1, id="call_Pz6t", name="get_time")],
        [ToolCallDelta(index=0, arguments='ty": "Oslo"}')],
        [ToolCallDelta(index=1, arguments='{"city": "Oslo"}')],
        [FinishEvent(finish_reason=FinishReason.TOOL_CALLS, raw_finish_reason="tool_calls")],
        [UsageEvent(usage=decode_usage(USAGE))],
    ]
    assert decoder.finish() == []


TOOL_CALL = "events[0].choices[0].delta.tool_calls[0]"


@pytest.mark.parametrize(
    ("chunks", "path"),
    [
        ([chunk() | {"choices": "x"}], "events[0].choices"),
        (
            [chunk() | {"choices": [{"index": 0, "delta": {"tool_calls": [{"function": {}}]}}]}],
            "events[0].choices[0].delta.tool_calls[0].index",
        ),
        ([chunk({"content": 5})], "events[0].choices[0].delta.content"),
        (
            [chunk({}, "stop"), chunk(usage={"prompt_tokens": "x"}) | {"choices": []}],
            "events[1].usage.prompt_tokens",
        ),
        (["[DONE]"], "events[0]"),
        ([chunk({"tool_calls": [{"index": 0, "function": "oops"}]})], f"{TOOL_CALL}.function"),
        (
            [
                chunk(
                    {
                        "tool_calls": [
                            {"index": 0, "id": "c", "function": {"name": "f", "arguments": 5}}
                        ]
                    }
                )
            ],
            f"{TOOL_CALL}.function.arguments",
        ),
        (
            [chunk({"tool_calls": [{"index": 0, "id": "c", "function": {"name": 5}}]})],
            f"{TOOL_CALL}.function.name",
        ),
        ([chunk({"tool_calls": [{"index": 0, "id": 7}]})], f"{TOOL_CALL}.id"),
        ([chunk({"refusal": ["no"]})], "events[0].choices[0].delta.refusal"),
        ([chunk({"audio": {"id": "a", "data": 5}})], "events[0].choices[0].delta.audio.data"),
    ],
)
def test_a_chunk_that_cannot_be_decoded_names_the_path(
    chunks: list[dict[str, Any]], path: str
) -> None:
    with pytest.raises(DecodeError) as caught:
        list(decode_stream(chunks))
    assert caught.value.path == path


# --- re-chunking ---

TEXT = "Fog over the fjord, 4 °C; ☂ maybe."
ARGUMENTS = '{"city": "Ålesund", "units": "metric"}'


@given(
    st.lists(st.integers(min_value=0, max_value=len(TEXT)), max_size=12),
    st.lists(st.integers(min_value=0, max_value=len(ARGUMENTS)), max_size=12),
)
def test_re_chunking_the_deltas_changes_nothing(
    text_cuts: list[int], argument_cuts: list[int]
) -> None:
    stream = [chunk({"role": "assistant", "content": ""})]
    stream += [chunk({"content": piece}) for piece in pieces(TEXT, text_cuts)]
    fragments = pieces(ARGUMENTS, argument_cuts)
    stream.append(chunk(call(0, fragments[0], ("call_1", "get_weather"))))
    stream += [chunk(call(0, piece)) for piece in fragments[1:]]
    stream += [chunk({}, "tool_calls"), chunk(usage=USAGE) | {"choices": []}]
    response = accumulate(decode_stream(stream))
    assert response.message == Message.assistant(
        TEXT, ToolCallPart(id="call_1", name="get_weather", arguments=ARGUMENTS)
    )
    assert response.usage.input_tokens == 121
