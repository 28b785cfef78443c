"""Mistral's codec: the Chat Completions codec with Mistral's chunks and rules.

Every form Mistral's wire takes decodes to the core and encodes back to the
same body; a history made elsewhere is sent as Mistral takes it (9-character
tool-call ids, no user message right after a tool message, its own thinking
back as chunks, no one else's), each change reported; a history Mistral
cannot serve is refused before sending, naming the message.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

import interlingua_openai
from conftest import round_trip_sharing_nothing
from interlingua import (
    ChatRequest,
    ChatResponse,
    DecodeError,
    ErrorEvent,
    FilePart,
    FinishEvent,
    FinishReason,
    InvalidDataError,
    InvocationContext,
    Message,
    OpaquePart,
    RateLimitError,
    ReasoningPart,
    StreamError,
    StreamStart,
    TextPart,
    TokenUsage,
    ToolCallDelta,
    ToolCallPart,
    ToolCallStart,
    ToolChoice,
    ToolResultPart,
    TranslationError,
    TranslationReport,
    UsageEvent,
    accumulate,
)
from interlingua.codec import kept
from interlingua_mistral import (
    decode_error,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
    encode_stream,
)

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n-tiny-").decode()
WAV = base64.b64encode(b"RIFF----WAVEfmt ").decode()
MP3 = base64.b64encode(b"ID3\x03-tiny-").decode()
THINKING = {"type": "thinking", "thinking": [{"type": "text", "text": "The user wants 2+2."}]}
CALL = {"id": "KikbB849t", "function": {"name": "f", "arguments": "{}"}, "index": 0}

# One request with every chunk and field of Mistral's wire at once.
EVERY_FEATURE: dict[str, Any] = {
    "model": "magistral-medium-latest",
    "messages": [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is on these?"},
                {"type": "image_url", "image_url": "https://example.com/cat.png"},
                {"type": "image_url",
                 "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "high"}},
                {"type": "document_url", "document_url": "https://example.com/a.pdf",
                 "document_name": "a.pdf"},
                {"type": "input_audio", "input_audio": WAV},
                {"type": "file", "file_id": "6f3c2b1a-0000-4000-8000-000000000000"},
                {"type": "reference", "reference_ids": [1, 2]},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {**THINKING, "closed": True, "signature": "c2lnbmVk"},
                {"type": "text", "text": "Let me look."},
            ],
            "tool_calls": [
                {"id": "KikbB849t", "type": "function", "index": 0,
                 "function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
                {"id": "3EpsLcLQ3", "function": {"name": "get_file", "arguments": "{}"}},
            ],
            "prefix": False,
        },
        {"role": "tool", "tool_call_id": "KikbB849t", "name": "get_weather", "content": "Sunny"},
        {"role": "tool", "tool_call_id": "3EpsLcLQ3", "content": [{"type": "text", "text": "ok"}]},
        {"role": "assistant", "content": "Sunny in Paris. And then", "prefix": True},
    ],
    "tools": [
        {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
        {"function": {"name": "get_file", "description": "", "parameters": {"type": "object"}}},
    ],
    "tool_choice": "any",
    "parallel_tool_calls": False,
    "response_format": {"type": "json_object"},
    "reasoning_effort": "high",
    "prompt_mode": "reasoning",
    "temperature": 0.3,
    "top_p": 1.0,
    "max_tokens": 512,
    "stop": ["\n\n"],
    "random_seed": 1014,
    "presence_penalty": 0.5,
    "frequency_penalty": 0.25,
    "n": 1,
    "safe_prompt": True,
    "prompt_cache_key": "session-7",
    "guardrails": [{"block_on_error": True}],
    "stream": False,
}  # fmt: skip


def test_every_feature_decodes_and_encodes_back_exactly() -> None:
    round_trip_sharing_nothing(decode_request, encode_request, EVERY_FEATURE)


def test_every_feature_lands_in_the_core() -> None:
    request = decode_request(EVERY_FEATURE)
    user, assistant = request.messages[1], request.messages[2]
    files = [part for part in user.parts if isinstance(part, FilePart)]
    assert [(f.media_type, f.url is not None, f.detail, f.filename) for f in files] == [
        ("image/png", True, None, None),
        ("image/png", False, "high", None),
        ("application/pdf", True, None, "a.pdf"),
        ("audio/wav", False, None, None),
        ("application/*", False, None, None),
    ]
    assert files[4].file_id is not None
    assert files[4].provider == "mistral"
    assert isinstance(user.parts[-1], OpaquePart)
    reasoning, text, weather, get_file = assistant.parts
    assert isinstance(reasoning, ReasoningPart)
    assert (reasoning.text, reasoning.signature, reasoning.provider) == (
        "The user wants 2+2.",
        "c2lnbmVk",
        "mistral",
    )
    assert isinstance(text, TextPart)
    assert text.text == "Let me look."
    assert isinstance(weather, ToolCallPart)
    assert weather.parsed_arguments() == {"city": "Paris"}
    assert isinstance(get_file, ToolCallPart)
    assert get_file.arguments == "{}"
    assert [tool.name for tool in request.tools] == ["get_weather", "get_file"]
    assert request.tool_choice == ToolChoice(mode="required")
    assert (request.seed, request.max_tokens, request.temperature) == (1014, 512, 0.3)
    assert request.reasoning is not None
    assert request.reasoning.effort == "high"
    assert request.provider_options["mistral"]["prompt_mode"] == "reasoning"
    assert request.provider_options["mistral"]["safe_prompt"] is True


@pytest.mark.parametrize("word", ["any", "required"])
def test_both_words_for_a_required_tool_go_back_as_they_came(word: str) -> None:
    body = {
        "model": "mistral-large-latest",
        "messages": [{"role": "user", "content": "Weather?"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
        "tool_choice": word,
    }
    assert decode_request(body).tool_choice == ToolChoice(mode="required")
    assert encode_request(decode_request(body)) == body


WEATHER_CALL = ToolCallPart(id="toolu_01825dXWLSoJwCst1qTsiWdb", name="get_weather")


def anthropic_history() -> tuple[Message, ...]:
    """A tool loop another provider made: signed thinking, a `toolu_` id, an image result."""
    return (
        Message.user("Weather in Paris, with a photo?"),
        Message.assistant(
            ReasoningPart(text="I should call the tool.", signature="sig", provider="anthropic"),
            WEATHER_CALL,
        ),
        Message(
            role="tool",
            parts=(
                ToolResultPart(
                    tool_call_id=WEATHER_CALL.id,
                    content=(TextPart(text="Sunny"), FilePart(media_type="image/png", data=PNG)),
                ),
            ),
        ),
        Message.user("Thanks. And tomorrow?"),
    )


def test_a_history_made_elsewhere_meets_mistrals_rules_each_change_reported() -> None:
    history = anthropic_history()
    request = ChatRequest(model="mistral-large-latest", messages=history)
    before = request.model_dump_json()
    report = TranslationReport()
    body = encode_request(request, report=report)
    assert request.model_dump_json() == before
    messages = body["messages"]
    call_id = messages[1]["tool_calls"][0]["id"]
    assert len(call_id) == 9
    assert call_id.isalnum()
    assert messages[2]["tool_call_id"] == call_id
    assert messages[1]["content"] is None  # the reasoning left out: no thinking chunk
    roles = ["user", "assistant", "tool", "assistant", "user", "user"]
    assert [message["role"] for message in messages] == roles
    assert messages[3:5] == [
        {"role": "assistant", "content": "OK"},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}
            ],
        },
    ]
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[1].parts[0]", "dropped"),
        ("messages[1].parts[1].id", "transformed"),
        ("messages[2].parts[0].tool_call_id", "transformed"),
        ("messages[2].parts[0].content[1]", "transformed"),
        ("messages[2]", "transformed"),
    ]  # fmt: skip
    # The same history gives the same ids every time.
    again = encode_request(request, report=TranslationReport())
    assert again["messages"][1]["tool_calls"][0]["id"] == call_id


def test_rewritten_ids_do_not_collide() -> None:
    calls = [ToolCallPart(id=f"call_{n:040d}", name="f") for n in range(20)]
    results = [
        ToolResultPart(tool_call_id=call.id, content=(TextPart(text="x"),)) for call in calls
    ]
    request = ChatRequest(
        model="mistral-large-latest",
        messages=(
            Message.user("go"),
            Message.assistant(*calls),
            Message(role="tool", parts=tuple(results)),
        ),
    )
    body = encode_request(request, report=TranslationReport())
    sent = [call["id"] for call in body["messages"][1]["tool_calls"]]
    assert len(set(sent)) == 20
    assert [m["tool_call_id"] for m in body["messages"][2:]] == sent


def test_mistrals_own_ids_and_thinking_go_back_unchanged() -> None:
    answer = {
        "id": "a1", "object": "chat.completion", "created": 1, "model": "magistral-medium-latest",
        "usage": {"prompt_tokens": 5, "total_tokens": 9, "completion_tokens": 4},
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": [THINKING, {"type": "text", "text": "Checking."}],
            "tool_calls": [CALL],
        }}],
    }  # fmt: skip
    message = decode_response(answer).message
    request = ChatRequest(
        model="magistral-medium-latest",
        messages=(Message.user("2+2?"), message, Message.tool_result("KikbB849t", "4")),
    )
    report = TranslationReport()
    sent = encode_request(request, report=report)["messages"][1]
    assert sent["content"] == [THINKING, {"type": "text", "text": "Checking."}]
    assert sent["tool_calls"][0]["id"] == "KikbB849t"
    assert report.losses == []


def test_a_history_ending_in_a_system_message_sends_it_as_a_user_message_reported() -> None:
    """Claude Code's history: the user's turn, then a system message (Anthropic
    takes it there); Mistral serves no history ending in one."""
    request = ChatRequest(
        model="mistral-large-latest",
        messages=(
            Message.system("Be brief."),
            Message.user("Which files define an entry point?"),
            Message.system("Only use the exact tools provided."),
        ),
    )
    report = TranslationReport()

    body = encode_request(request, report=report)

    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Which files define an entry point?"},
        {"role": "user", "content": "Only use the exact tools provided."},
    ]
    (loss,) = report.losses
    assert (loss.path, loss.kind) == ("messages[2]", "transformed")
    assert "Expected last role User or Tool" in loss.reason
    assert request.messages[2] == Message.system("Only use the exact tools provided.")
    with pytest.raises(TranslationError) as caught:
        encode_request(request, report=TranslationReport(strict=True))
    assert (caught.value.path, caught.value.kind) == ("messages[2]", "transformed")


def test_system_messages_ending_a_tool_turn_go_as_user_messages_after_the_bridge() -> None:
    request = ChatRequest(
        model="mistral-large-latest",
        messages=(
            Message.user("Weather in Oslo?"),
            Message.assistant(ToolCallPart(id="OsLo12345", name="get_weather")),
            Message.tool_result("OsLo12345", "snow"),
            Message.system("Answer in French."),
            Message.system("Use metric units."),
        ),
    )
    report = TranslationReport()

    body = encode_request(request, report=report)

    assert [(m["role"], m.get("content")) for m in body["messages"][2:]] == [
        ("tool", "snow"),
        ("assistant", "OK"),
        ("user", "Answer in French."),
        ("user", "Use metric units."),
    ]
    # Each system message sent as a user message, then the bridge put before the first.
    assert [(loss.path, "Expected last role" in loss.reason) for loss in report.losses] == [
        ("messages[3]", True),
        ("messages[4]", True),
        ("messages[3]", False),
    ]


def test_a_last_assistant_message_that_says_it_is_no_prefix_is_refused() -> None:
    body = {
        "model": "mistral-large-latest",
        "messages": [
            {"role": "user", "content": "Write a haiku."},
            {"role": "assistant", "content": "Autumn", "prefix": False},
        ],
    }
    with pytest.raises(InvalidDataError) as caught:
        encode_request(decode_request(body))
    assert caught.value.path == "messages[1]"
    assert str(caught.value).endswith("not an assistant message with prefix: false")


def test_a_history_ending_in_an_assistant_message_goes_with_prefix_true() -> None:
    request = ChatRequest(
        model="mistral-large-latest",
        messages=(Message.user("Write a haiku."), Message.assistant("Autumn")),
    )
    report = TranslationReport()
    body = encode_request(request, report=report)
    assert body["messages"][1] == {"role": "assistant", "content": "Autumn", "prefix": True}
    assert not report
    assert request.messages[1] == Message.assistant("Autumn")  # the history is not changed


def test_prefix_true_on_the_last_message_is_the_prefill_the_core_holds() -> None:
    body = {
        "model": "mistral-large-latest",
        "messages": [
            {"role": "user", "content": "Write a haiku."},
            {"role": "assistant", "content": "Autumn", "prefix": True},
        ],
    }
    request = round_trip_sharing_nothing(decode_request, encode_request, body)
    # The prefix is no field of Mistral's kept aside: the last assistant message says it.
    assert request.messages[1] == Message.assistant("Autumn")
    # Once the history goes on, the message is no prefill, and goes without it.
    later = request.model_copy(update={"messages": (*request.messages, Message.user("More"))})
    assert "prefix" not in encode_request(later)["messages"][1]


def test_no_user_id_is_sent_and_the_session_is_the_cache_key() -> None:
    request = ChatRequest(
        model="mistral-large-latest",
        messages=(Message.user("Hi"),),
        context=InvocationContext(user_id="u-1", session_id="s-1"),
    )
    report = TranslationReport()
    body = encode_request(request, report=report)
    assert "safety_identifier" not in body
    assert "user" not in body
    assert body["prompt_cache_key"] == "s-1"
    assert [(loss.path, loss.kind) for loss in report.losses] == [("context.user_id", "dropped")]


def test_files_mistral_cannot_take_are_left_out_and_reported() -> None:
    parts = (
        TextPart(text="Listen and read"),
        FilePart(media_type="audio/wav", url="https://example.com/a.wav"),
        FilePart(media_type="text/csv", data=base64.b64encode(b"a,b").decode()),
        FilePart(media_type="application/pdf", file_id="file-abc", provider="openai"),
        FilePart(media_type="audio/mpeg", data=MP3),
    )
    report = TranslationReport()
    body = encode_request(
        ChatRequest(model="mistral-large-latest", messages=(Message(role="user", parts=parts),)),
        report=report,
    )
    assert body["messages"][0]["content"] == [
        {"type": "text", "text": "Listen and read"},
        {"type": "input_audio", "input_audio": MP3},
    ]
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("messages[0].parts[1]", "dropped"),
        ("messages[0].parts[2]", "dropped"),
        ("messages[0].parts[3]", "dropped"),
    ]


def test_a_response_with_thinking_and_cache_reads_decodes_and_encodes_back() -> None:
    body = {
        "id": "b2", "object": "chat.completion", "created": 1767220876,
        "model": "magistral-medium-latest",
        "usage": {"prompt_tokens": 268, "total_tokens": 300, "completion_tokens": 32,
                  "prompt_tokens_details": {"cached_tokens": 224}},
        "choices": [{"index": 0, "finish_reason": "model_length", "message": {
            "role": "assistant", "tool_calls": None,
            "content": [{**THINKING, "closed": True}, {"type": "text", "text": "4"}]}}],
    }  # fmt: skip
    response = round_trip_sharing_nothing(decode_response, encode_response, body)
    assert (response.finish_reason, response.raw_finish_reason) == (
        FinishReason.LENGTH,
        "model_length",
    )
    assert (response.usage.input_tokens, response.usage.cache_read_tokens) == (268, 224)
    reasoning, text = response.message.parts
    assert isinstance(reasoning, ReasoningPart)
    assert reasoning.provider == "mistral"
    assert isinstance(text, TextPart)
    assert text.text == "4"


def test_a_response_made_elsewhere_is_sent_as_mistral_writes_one() -> None:
    response = ChatResponse(
        id="r", model="m", provider="anthropic", message=Message.assistant("Hi"),
        finish_reason=FinishReason.CONTENT_FILTER, raw_finish_reason="refusal",
    )  # fmt: skip
    report = TranslationReport()
    body = encode_response(response, report=report)
    message = {"role": "assistant", "content": "Hi", "tool_calls": None}
    assert body["choices"] == [{"index": 0, "message": message, "finish_reason": "stop"}]
    assert [(loss.path, loss.kind) for loss in report.losses] == [("finish_reason", "transformed")]


def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "s1", "object": "chat.completion.chunk", "created": 1,
            "model": "magistral-medium-latest", "choices": [choice], **extra}  # fmt: skip


def thinking(text: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": [{"type": "text", "text": text}]}


def test_a_stream_of_thinking_then_text_accumulates_to_the_answer_not_streamed() -> None:
    usage = {"prompt_tokens": 10, "total_tokens": 16, "completion_tokens": 6}
    chunks = [
        chunk({"role": "assistant", "content": [thinking("The user ")]}),
        chunk({"content": [thinking("wants 2+2.")]}, p="abcdef"),
        chunk({"content": [{"type": "text", "text": "2 + 2 "}]}, p="abc"),
        chunk({"content": "= 4"}),
        chunk({"tool_calls": [CALL]}),
        chunk({"content": ""}, "tool_calls", usage=usage, p="a"),
    ]  # fmt: skip
    streamed = accumulate(decode_stream(chunks))
    body = {
        "id": "s1", "object": "chat.completion", "created": 1, "model": "magistral-medium-latest",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": [THINKING, {"type": "text", "text": "2 + 2 = 4"}],
            "tool_calls": [CALL]}}],
        "usage": usage,
    }  # fmt: skip
    assert streamed == decode_response(body)
    assert encode_response(streamed) == body


def test_an_error_chunk_ends_the_stream_with_the_typed_error() -> None:
    error = {"object": "error", "message": "Rate limit exceeded", "type": "rate_limited",
             "param": None, "code": "1300"}  # fmt: skip
    events = list(decode_stream([chunk({"role": "assistant", "content": "Hel"}), error]))
    assert isinstance(events[-1], ErrorEvent)
    with pytest.raises(StreamError) as caught:
        accumulate(events)
    assert isinstance(caught.value.error, RateLimitError)
    assert caught.value.error.retryable
    assert caught.value.partial.message.text == "Hel"


def test_a_tool_call_streamed_in_pieces_accumulates_to_the_whole_call() -> None:
    first = {"id": "Xy7Qk2mZp", "type": "function", "index": 0,
             "function": {"name": "get_weather", "arguments": ""}}  # fmt: skip
    pieces = ['{"city"', ': "Par', 'is"}']
    chunks = [
        chunk({"role": "assistant", "content": "", "tool_calls": [first]}),
        *(
            chunk({"tool_calls": [{"index": 0, "function": {"name": "", "arguments": piece}}]})
            for piece in pieces
        ),
        chunk({"content": ""}, "tool_calls"),
    ]
    (call,) = accumulate(decode_stream(chunks)).message.tool_calls
    assert (call.id, call.name, call.parsed_arguments()) == (
        "Xy7Qk2mZp",
        "get_weather",
        {"city": "Paris"},
    )


def whole_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    """A tool call as Mistral streams it: whole, with no `index` and no `type`."""
    return {"id": call_id, "function": {"name": name, "arguments": arguments}}


USAGE = {"prompt_tokens": 131, "total_tokens": 171, "completion_tokens": 40}
WEATHER_OSLO = whole_call("Gk3vPq8Ls", "get_weather", '{"city": "Oslo"}')
TIME_OSLO = whole_call("Wn5tRb2Yx", "get_time", '{"city": "Oslo"}')


def test_calls_streamed_whole_in_one_chunk_are_told_apart_by_their_place() -> None:
    chunks = [
        chunk({"role": "assistant", "content": ""}),
        chunk(
            {"content": None, "tool_calls": [WEATHER_OSLO, TIME_OSLO]}, "tool_calls", usage=USAGE
        ),
    ]
    streamed = accumulate(decode_stream(chunks))
    numbered = [{**WEATHER_OSLO, "index": 0}, {**TIME_OSLO, "index": 1}]
    body = {
        "id": "s1", "object": "chat.completion", "created": 1, "model": "magistral-medium-latest",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None, "tool_calls": numbered}}],
        "usage": USAGE,
    }  # fmt: skip
    assert streamed == decode_response(body)
    assert encode_response(streamed) == body
    assert [(call.id, call.name) for call in streamed.message.tool_calls] == [
        ("Gk3vPq8Ls", "get_weather"),
        ("Wn5tRb2Yx", "get_time"),
    ]


def test_a_call_without_an_index_is_told_apart_by_its_id_across_chunks() -> None:
    """An id seen in an earlier chunk continues that call; a new id, or the same
    id twice in one chunk, starts a call; indexed pieces may come beside them."""
    f, g, h = whole_call("Aaaaaaaa1", "f", '{"x"'), whole_call("Bbbbbbbb2", "g", "{}"), "Ccccccc3"
    k = {"index": 5, "id": "Ddddddd4", "function": {"name": "k", "arguments": ""}}
    chunks = [
        chunk({"role": "assistant", "content": ""}),
        chunk({"tool_calls": [f]}),
        chunk({"tool_calls": [whole_call("Aaaaaaaa1", "f", ": 1}"), g]}),
        chunk({"tool_calls": [whole_call(h, "h", "{}"), whole_call(h, "h", "[]")]}),
        chunk({"tool_calls": [k]}),
        chunk({"tool_calls": [{"index": 5, "function": {"arguments": "{}"}}]}),
        chunk({}, "tool_calls"),
    ]
    calls = accumulate(decode_stream(chunks)).message.tool_calls
    assert [(call.id, call.name, call.arguments) for call in calls] == [
        ("Aaaaaaaa1", "f", '{"x": 1}'),
        ("Bbbbbbbb2", "g", "{}"),
        ("Ccccccc3", "h", "{}"),
        ("Ccccccc3", "h", "[]"),
        ("Ddddddd4", "k", "{}"),
    ]
    assert [kept(call, "mistral")["fields"]["index"] for call in calls] == [0, 1, 2, 3, 5]


def test_only_a_dialect_that_streams_calls_whole_may_leave_out_the_index() -> None:
    chunks = [chunk({"role": "assistant", "content": None, "tool_calls": [WEATHER_OSLO]})]
    with pytest.raises(StreamError) as caught:
        accumulate(interlingua_openai.decode_stream(chunks))
    assert "events[0].choices[0].delta.tool_calls[0].index" in str(caught.value)
    assert accumulate(decode_stream(chunks)).message.tool_calls[0].id == "Gk3vPq8Ls"


def test_calls_from_another_api_stream_to_mistral_whole_on_the_finish_chunk() -> None:
    """OpenAI's pieces, two calls at once: Mistral's stream holds each call to the
    finish chunk, and writes it there whole, with no `index`."""
    events = [
        StreamStart(id="chatcmpl-1", model="gpt-4o-mini", provider="openai"),
        ToolCallStart(index=0, id="Gk3vPq8Ls", name="get_weather", arguments='{"ci'),
        ToolCallStart(index=1, id="Wn5tRb2Yx", name="get_time", arguments=""),
        ToolCallDelta(index=0, arguments='ty": "Oslo"}'),
        ToolCallDelta(index=1, arguments='{"city": "Oslo"}'),
        UsageEvent(usage=TokenUsage(input_tokens=131, output_tokens=40)),
        FinishEvent(finish_reason=FinishReason.TOOL_CALLS, raw_finish_reason="tool_calls"),
    ]
    report = TranslationReport(strict=True)

    chunks = [event.data for event in encode_stream(events, report=report)]

    role, last, done = chunks
    assert isinstance(role, dict)
    assert role["choices"] == [
        {"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}
    ]
    assert isinstance(last, dict)
    typed = [{**call, "type": "function"} for call in (WEATHER_OSLO, TIME_OSLO)]
    assert last["choices"] == [
        {
            "index": 0,
            "delta": {"content": None, "tool_calls": typed},
            "finish_reason": "tool_calls",
        }
    ]
    assert last["usage"] == USAGE
    assert done == "[DONE]"
    again = accumulate(decode_stream(chunks[:-1]))
    assert [(c.id, c.name, c.arguments) for c in again.message.tool_calls] == [
        ("Gk3vPq8Ls", "get_weather", '{"city": "Oslo"}'),
        ("Wn5tRb2Yx", "get_time", '{"city": "Oslo"}'),
    ]


def test_a_call_held_whole_goes_before_an_error_that_ends_the_stream() -> None:
    error = decode_error(None, {"object": "error", "message": "Internal server error",
                                "type": "server_error", "param": None, "code": None})  # fmt: skip
    events = [
        StreamStart(id="s1", model="mistral-small-latest", provider="mistral"),
        ToolCallStart(index=0, id="Gk3vPq8Ls", name="get_weather", arguments='{"city": "Oslo"}'),
        ErrorEvent.from_error(error),
    ]

    chunks = [event.data for event in encode_stream(events)]

    assert len(chunks) == 3  # the role, the call, the error
    assert isinstance(chunks[1], dict)
    delta = chunks[1]["choices"][0]["delta"]
    assert delta == {"content": None, "tool_calls": [{**WEATHER_OSLO, "type": "function"}]}
    with pytest.raises(StreamError) as caught:
        accumulate(decode_stream(chunks))
    assert caught.value.partial.message.tool_calls[0].arguments == '{"city": "Oslo"}'


MP3_OBJECT = {"type": "input_audio", "input_audio": {"data": MP3, "format": "mp3"}}


@pytest.mark.parametrize(
    ("chunk", "media_type", "forms"),
    [
        pytest.param({"type": "input_audio", "input_audio": MP3}, "audio/mpeg", None, id="base64"),
        pytest.param(MP3_OBJECT, "audio/mpeg", {"input_audio": "object"}, id="object"),
        pytest.param(
            {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav", "rate": 16000}},
            "audio/wav",
            {"input_audio": "object"},
            id="object with a field",
        ),
        pytest.param(
            {"type": "input_audio", "input_audio": {"data": "ZkxhQw==", "format": "flac"}},
            "audio/flac",
            {"input_audio": "object"},
            id="object of another format",
        ),
    ],
)
def test_audio_in_either_form_is_a_file_part_and_goes_back_as_it_came(
    chunk: dict[str, Any], media_type: str, forms: dict[str, str] | None
) -> None:
    body = {
        "model": "voxtral-small-latest",
        "messages": [{"role": "user", "content": [chunk, {"type": "text", "text": "What?"}]}],
    }
    request = round_trip_sharing_nothing(decode_request, encode_request, body)
    audio = request.messages[0].parts[0]
    assert isinstance(audio, FilePart)
    wire = chunk["input_audio"]
    assert (audio.kind, audio.media_type) == ("audio", media_type)
    assert audio.data == (wire if isinstance(wire, str) else wire["data"])
    assert kept(audio, "mistral").get("forms") == forms


def test_audio_made_elsewhere_goes_as_mistral_documents_it() -> None:
    """OpenAI's `input_audio` object, decoded there, goes to Mistral as bare base64."""
    openai_body = {
        "model": "gpt-4o-audio-preview",
        "messages": [{"role": "user", "content": [MP3_OBJECT]}],
    }
    request = interlingua_openai.decode_request(openai_body)
    mistral = request.model_copy(update={"model": "voxtral-small-latest"})
    body = encode_request(mistral, report=TranslationReport(strict=True))
    assert body["messages"][0]["content"] == [{"type": "input_audio", "input_audio": MP3}]


@pytest.mark.parametrize(
    ("audio", "field"), [({"format": "mp3"}, "data"), ({"data": MP3}, "format")]
)
def test_an_audio_object_without_its_data_or_format_names_the_field(
    audio: dict[str, Any], field: str
) -> None:
    body = {
        "model": "voxtral-small-latest",
        "messages": [{"role": "user", "content": [{"type": "input_audio", "input_audio": audio}]}],
    }
    with pytest.raises(DecodeError) as caught:
        decode_request(body)
    assert caught.value.path == f"messages[0].content[0].input_audio.{field}"
