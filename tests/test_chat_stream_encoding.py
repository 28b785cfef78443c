"""Chat Completions streams written from the core's events, for each dialect
(OpenAI, Mistral, Groq): `encode_stream(events)` gives the chunks the server
would send for the same answer.

- every recorded stream (the corpus and `fixtures/`) decoded and encoded again
  accumulates to the recording's own response, provider data included, with
  nothing reported; its chunks carry the recording's id, model and `created`,
  and the usage sits where the server put it; as SSE bytes they parse back to
  the same payloads, `[DONE]` last;
- a stream from another API (Anthropic's recordings) accumulates, in each
  dialect, to its text, tool calls and usage; what the dialect cannot stream
  is reported at the part's path;
- an error mid-stream ends it with the dialect's error chunk, which decodes
  to the same error; the chunks leave as the events come.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import interlingua_anthropic
import interlingua_groq
import interlingua_mistral
import interlingua_openai
from conftest import (
    FIXTURES,
    MissingCorpus,
    answer_fields,
    corpus_id,
    corpus_params,
    from_corpus,
    pieces,
    provider_files,
    same_json,
)
from interlingua import (
    BadRequestError,
    ChatResponse,
    ErrorEvent,
    FinishEvent,
    FinishReason,
    GatewayAdapter,
    OpaquePart,
    ProviderError,
    RateLimitError,
    ReasoningPart,
    ServerError,
    StreamError,
    StreamEvent,
    StreamStart,
    TextDelta,
    TokenUsage,
    ToolCallDelta,
    ToolCallStart,
    TranslationReport,
    UsageEvent,
    WireEvent,
    accumulate,
    format_sse,
    get_adapter,
    translate_stream,
)
from interlingua.testing import Cassette, load_cassette, parse_sse

DIALECTS: dict[str, ModuleType] = {
    "openai": interlingua_openai,
    "mistral": interlingua_mistral,
    "groq": interlingua_groq,
}
CHAT_COMPLETIONS = {
    "openai": "/v1/chat/completions",
    "mistral": "/v1/chat/completions",
    "groq": "/openai/v1/chat/completions",
}
CORPUS_FOLDERS = {"openai": "openai-chat", "mistral": "mistral", "groq": "groq"}


@functools.cache
def cassette(path: Path) -> Cassette:
    return load_cassette(path)


def recorded_streams(path: Path, provider: str) -> list[list[Any]]:
    """The payloads of each stream the file holds from `provider`'s chat
    completions (a response-only file's too)."""
    return [
        call.response.stream_payloads()
        for call in cassette(path).interactions
        if call.is_stream
        and call.response.status < 400
        and (call.request is None or call.path == CHAT_COMPLETIONS[provider])
        and (call.request is None or call.provider == provider)
    ]


# Each file holding a stream of a dialect, in the corpus and in `fixtures/`.
STREAM_FILES = provider_files(CORPUS_FOLDERS, recorded_streams, "streams")


def payloads(chunks: list[WireEvent]) -> list[Any]:
    """The JSON payloads of encoded chunks, as `decode_stream` takes them."""
    return [chunk.data for chunk in chunks if chunk.data != "[DONE]"]


def outcome(events: Iterator[StreamEvent]) -> Any:
    """What a stream accumulates to: its response, or the partial response and
    the error it ended in."""
    try:
        return accumulate(events)
    except StreamError as broken:
        error = broken.error
        assert error is not None
        fields = (error.type, error.code, error.message, error.failed_generation)
        return broken.partial, type(error), fields


def encoded(codec: ModuleType, recorded: list[Any], **options: Any) -> list[WireEvent]:
    report = options.pop("report", TranslationReport(strict=True))
    return list(codec.encode_stream(codec.decode_stream(recorded), report=report))


@pytest.mark.parametrize(("name", "path"), STREAM_FILES)
def test_every_recorded_stream_encodes_to_chunks_that_accumulate_to_its_response(
    name: str, path: Path | MissingCorpus
) -> None:
    codec = DIALECTS[name]
    for recorded in recorded_streams(from_corpus(path), name):
        chunks = encoded(codec, recorded)

        again = outcome(codec.decode_stream(payloads(chunks)))

        assert again == outcome(codec.decode_stream(recorded))
        if isinstance(again, ChatResponse):
            assert chunks[-1] == WireEvent(data="[DONE]")
            assert same_json(
                codec.encode_response(again, report=TranslationReport()),
                codec.encode_response(accumulate(codec.decode_stream(recorded))),
            )


def usage_place(chunks: list[Any], name: str) -> tuple[bool, Any] | None:
    """Whether the last chunk carrying usage has choices too, and the usage (None: no
    chunk carries any, as a stream asked without `stream_options`)."""
    carrying = [c for c in chunks if DIALECTS[name].CODEC.dialect.stream_usage(c) is not None]
    if not carrying:
        return None
    return bool(carrying[-1]["choices"]), DIALECTS[name].CODEC.dialect.stream_usage(carrying[-1])


@pytest.mark.parametrize(("name", "path"), STREAM_FILES)
def test_the_chunks_are_the_recordings_own(name: str, path: Path | MissingCorpus) -> None:
    """The same identity on every chunk, the role first, the finish reason on
    the last choice chunk, the usage where the server put it."""
    for recorded in recorded_streams(from_corpus(path), name):
        chunks = payloads(encoded(DIALECTS[name], recorded))
        first = recorded[0]
        identity = ("id", "object", "created", "model", "service_tier", "system_fingerprint")
        for chunk in chunks:
            if "choices" in chunk:
                assert {k: chunk[k] for k in identity if k in chunk} == {
                    k: first[k] for k in identity if k in first
                }
        assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
        reasons = [c["choices"][0]["finish_reason"] for c in chunks if c.get("choices")]
        assert all(reason is None for reason in reasons[:-1])
        if any(chunk.get("choices") and chunk["choices"][0]["finish_reason"] for chunk in recorded):
            assert reasons[-1] is not None
            assert usage_place(chunks, name) == usage_place(recorded, name)


@pytest.mark.parametrize(("name", "path"), STREAM_FILES)
def test_the_chunks_as_sse_bytes_parse_back_to_the_same_payloads(
    name: str, path: Path | MissingCorpus
) -> None:
    for recorded in recorded_streams(from_corpus(path), name):
        chunks = encoded(DIALECTS[name], recorded)

        events = parse_sse(b"".join(format_sse(chunks)).decode())

        assert [event.event for event in events] == [None] * len(chunks)
        read = [
            event.data if event.data == "[DONE]" else json.loads(event.data) for event in events
        ]
        assert same_json(read, [chunk.data for chunk in chunks])


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_the_first_chunk_leaves_before_the_last_event_arrives(name: str) -> None:
    def upstream() -> Iterator[StreamEvent]:
        yield StreamStart(id="msg_01", model="claude-sonnet-4-5", provider="anthropic")
        yield TextDelta(text="Fog")
        raise ConnectionError("the upstream went away")

    stream = DIALECTS[name].encode_stream(upstream(), report=TranslationReport())

    assert next(stream).data["choices"][0]["delta"]["role"] == "assistant"  # type: ignore[index]
    assert next(stream).data["choices"][0]["delta"] == {"content": "Fog"}  # type: ignore[index]
    with pytest.raises(ConnectionError):
        next(stream)


# --- a stream from another API ---


def anthropic_recorded(path: Path) -> list[list[Any]]:
    """The payloads of each Anthropic stream the file holds."""
    calls = cassette(path).for_provider("anthropic")
    return [call.response.stream_payloads() for call in calls if call.is_stream]


ANTHROPIC_FILES = [
    *corpus_params(
        "anthropic", keep=lambda path: bool(anthropic_recorded(path)), holding="streams"
    ),
    *(path for path in sorted((FIXTURES / "anthropic").glob("*.json")) if anthropic_recorded(path)),
]


def anthropic_id(param: object) -> str | None:
    if isinstance(param, Path) and param.is_relative_to(FIXTURES):
        return f"fixtures/{param.name}"
    return corpus_id(param)


def facts(response: ChatResponse) -> dict[str, Any]:
    """What every dialect's stream holds of an answer: its text, tool calls, usage counts."""
    usage = response.usage.model_dump(exclude={"details"})
    calls = [(call.id, call.name, call.arguments) for call in response.message.tool_calls]
    return {"text": response.message.text, "calls": calls, "usage": usage}


def reported(report: TranslationReport) -> list[str]:
    """The paths `report` names: the answer's own fields first (sorted, for they
    are reported as the stream brings them), then the parts' in their order."""
    paths = [loss.path for loss in report.losses]
    answer = sorted(path for path in paths if path.startswith("provider_data."))
    return answer + [path for path in paths if not path.startswith("provider_data.")]


def expected_losses(source: ChatResponse, name: str) -> list[str]:
    """The paths the dialect reports: Anthropic's fields of the answer (its
    `usage` beside the counts, a `stop_sequence`), parts it has no place for
    (reasoning other than in Groq's field, opaque blocks), signatures,
    Anthropic's fields of the parts it sends (`citations`), a finish reason it
    lacks; in that order, the answer's fields as they arrive."""
    losses = sorted(answer_fields(source))  # the answer's own fields, by name
    for index, part in enumerate(source.message.parts):
        # Groq takes the text of reasoning in its field, and no signature.
        carried = isinstance(part, ReasoningPart) and name == "groq" and part.text
        if isinstance(part, OpaquePart) or (
            isinstance(part, ReasoningPart) and (not carried or part.signature)
        ):
            losses.append(f"message.parts[{index}]")
        elif not isinstance(part, ReasoningPart):
            fields = part.provider_data.get("anthropic", {}).get("fields", {})
            losses += [
                f"message.parts[{index}].provider_data.anthropic.fields.{key}"
                for key, value in fields.items()
                if value
            ]
    if source.finish_reason in (FinishReason.PAUSE, FinishReason.OTHER):
        losses.append("finish_reason")
    return losses


@pytest.mark.parametrize("path", ANTHROPIC_FILES, ids=anthropic_id)
def test_an_anthropic_stream_accumulates_in_every_dialect_to_its_text_calls_and_usage(
    path: Path | MissingCorpus,
) -> None:
    for recorded in anthropic_recorded(from_corpus(path)):
        source = outcome(interlingua_anthropic.decode_stream(recorded))
        for name, codec in DIALECTS.items():
            report = TranslationReport()
            chunks = codec.encode_stream(
                interlingua_anthropic.decode_stream(recorded), report=report
            )

            again = outcome(codec.decode_stream(payloads(list(chunks))))

            if isinstance(source, tuple):  # it ended in an error
                assert again[1:] == source[1:]
                assert facts(again[0]) == facts(source[0])
                continue
            assert facts(again) == facts(source)
            assert reported(report) == expected_losses(source, name)
            reasoning = "".join(part.text for part in source.message.reasoning)
            assert "".join(part.text for part in again.message.reasoning) == (
                reasoning if name == "groq" else ""
            )


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_every_dialect_serves_a_gateway(name: str) -> None:
    assert isinstance(get_adapter(name), GatewayAdapter)


def test_translate_stream_goes_from_anthropic_to_each_dialect_lazily() -> None:
    (recorded,) = anthropic_recorded(FIXTURES / "anthropic" / "stream_thinking_tool_use.json")
    source = accumulate(interlingua_anthropic.decode_stream(recorded))
    for name, codec in DIALECTS.items():
        report = TranslationReport()
        chunks = translate_stream(iter(recorded), source="anthropic", target=name, report=report)
        assert facts(accumulate(codec.decode_stream(payloads(list(chunks))))) == facts(source)
        assert reported(report) == expected_losses(source, name)


# --- an error inside the stream ---

# Each dialect's in-stream error chunk, as its server sends it (the fixtures'),
# and the class its decoder types it with.
ERROR_CHUNKS: dict[str, tuple[dict[str, Any], type[ProviderError]]] = {
    "openai": (
        {"error": {"message": "The server had an error", "type": "server_error",
                   "param": None, "code": None}},
        ServerError,
    ),
    "groq": (
        {"error": {"message": "Failed to call a function.", "type": "invalid_request_error",
                   "param": None, "code": "tool_use_failed",
                   "failed_generation": '<function=get_weather{"city": "Lisbon"}</function>'}},
        BadRequestError,
    ),
    "mistral": (
        {"object": "error", "message": "Rate limit exceeded", "type": "rate_limited",
         "param": None, "code": "1300"},
        RateLimitError,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_an_error_mid_stream_ends_it_with_the_dialects_error_chunk(name: str) -> None:
    codec = DIALECTS[name]
    chunk, error_class = ERROR_CHUNKS[name]
    error = codec.decode_error(None, chunk)
    events = [
        StreamStart(id="chatcmpl-1", model="m", provider=name),
        TextDelta(text="Hel"),
        ErrorEvent.from_error(error),
        TextDelta(text="never sent"),
    ]

    chunks = list(codec.encode_stream(events, report=TranslationReport(strict=True)))

    assert chunks[-1] == WireEvent(data=chunk)
    assert len(chunks) == 3  # the role, the text, the error: no [DONE]
    with pytest.raises(StreamError) as caught:
        accumulate(codec.decode_stream(payloads(chunks)))
    again = caught.value.error
    assert type(again) is error_class
    assert (again.type, again.code, again.message, again.failed_generation) == (
        error.type,
        error.code,
        error.message,
        error.failed_generation,
    )
    assert caught.value.partial.message.text == "Hel"


def test_the_encoder_takes_one_event_at_a_time() -> None:
    before = int(time.time())
    encoder = interlingua_openai.CODEC.stream_encoder(report=TranslationReport())
    (role,) = encoder.feed(StreamStart(id="chatcmpl-1", model="gpt-4o-mini", provider="openai"))
    assert isinstance(role.data, dict)
    # A start that says not when the answer was made: the time the stream starts.
    assert before <= role.data["created"] <= time.time()
    assert role.data == {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": role.data["created"],
        "model": "gpt-4o-mini",
        "choices": [
            {
                "index": 0,
                "delta": {"role": "assistant", "content": "", "refusal": None},
                "logprobs": None,
                "finish_reason": None,
            }
        ],
    }
    assert encoder.feed(FinishEvent(finish_reason=FinishReason.STOP)) == []  # held to the end
    (finish, done) = encoder.finish()
    assert finish.data["choices"][0]["finish_reason"] == "stop"  # type: ignore[index]
    assert finish.data["created"] == role.data["created"]  # type: ignore[index]
    assert done == WireEvent(data="[DONE]")
    assert encoder.finish() == []


# --- what each dialect streams its own way ---

OPENAI_HEAD = {"id": "chatcmpl-Dh", "object": "chat.completion.chunk", "created": 1780312902,
               "model": "gpt-4o-mini-2024-07-18", "service_tier": "default",
               "system_fingerprint": "fp_560af6e559"}  # fmt: skip
MISTRAL_HEAD = {"id": "b71e0c4d", "object": "chat.completion.chunk", "created": 1771402529,
                "model": "magistral-medium-latest"}  # fmt: skip
GROQ_HEAD = {"id": "chatcmpl-9a4f", "object": "chat.completion.chunk", "created": 1771512377,
             "model": "qwen/qwen3-32b", "system_fingerprint": "fp_e99e93f2ac"}  # fmt: skip
USAGE = {"prompt_tokens": 21, "completion_tokens": 9, "total_tokens": 30}


def chunk(
    head: dict[str, Any], delta: dict[str, Any] | None, finish: str | None = None, **fields: Any
) -> dict[str, Any]:
    """A chunk of the first choice (`delta` None: no choice); `choice` adds to the choice."""
    extra = fields.pop("choice", {})
    choice = {"index": 0, "delta": delta, "finish_reason": finish, **extra}
    return {**head, "choices": [] if delta is None else [choice], **fields}


def call(index: int, arguments: str, first: tuple[str, str] | None = None) -> dict[str, Any]:
    if first is None:
        return {"index": index, "function": {"arguments": arguments}}
    call_id, name = first
    return {"index": index, "id": call_id, "type": "function",
            "function": {"name": name, "arguments": arguments}}  # fmt: skip


def openai(delta: dict[str, Any] | None, finish: str | None = None, **fields: Any) -> Any:
    fields["choice"] = {"logprobs": None, **fields.get("choice", {})}
    return chunk(OPENAI_HEAD, delta, finish, **fields)


def mistral(delta: dict[str, Any] | None, finish: str | None = None, **fields: Any) -> Any:
    return chunk(MISTRAL_HEAD, delta, finish, **fields)


def groq(delta: dict[str, Any] | None, finish: str | None = None, **fields: Any) -> Any:
    return chunk(GROQ_HEAD, delta, finish, **fields)


def thinking(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "thinking", "thinking": [{"type": "text", "text": text}], **fields}


CITATION = {
    "type": "url_citation",
    "url_citation": {"start_index": 0, "end_index": 3, "title": "Met", "url": "https://met.no"},
}
LOGPROBS = {"content": [{"token": "Hi", "logprob": -0.06, "bytes": [72, 105], "top_logprobs": []}]}
AUDIO = {"id": "audio_1", "data": "UklG", "transcript": "Hi"}
CUSTOM_CALL = {
    "index": 0,
    "id": "call_9",
    "type": "custom",
    "custom": {"name": "grep", "input": "f"},
}
MISTRAL_CALL = {"id": "Gk3vPq8Ls", "function": {"name": "f", "arguments": {"x": 1}}, "index": 0}


def two_choices(first: dict[str, Any], second: dict[str, Any], finish: tuple[Any, Any]) -> Any:
    return {
        **OPENAI_HEAD,
        "choices": [
            {"index": 0, "delta": first, "logprobs": None, "finish_reason": finish[0]},
            {"index": 1, "delta": second, "logprobs": None, "finish_reason": finish[1]},
        ],
    }


OWN_STREAMS = {
    "openai-refusal": (
        "openai",
        [
            openai({"role": "assistant", "content": None, "refusal": ""}),
            openai({"refusal": "I can't"}),
            openai({"refusal": " help with that."}),
            openai({}, "stop"),
            openai(None, usage=USAGE),
        ],
    ),
    "openai-choices": (
        "openai",
        [
            two_choices(
                {"role": "assistant", "content": "One."},
                {"role": "assistant", "tool_calls": [call(0, "{}", ("call_2", "f"))]},
                (None, None),
            ),
            two_choices({}, {"content": "Two."}, ("stop", "length")),
        ],
    ),
    "openai-fields": (
        "openai",
        [
            openai(
                {"role": "assistant", "content": "", "reasoning_content": "Think"},
                choice={"content_filter_results": {}},
            ),
            openai({"content": "Hi", "reasoning_content": "ing."}, choice={"logprobs": LOGPROBS}),
            openai({"annotations": [CITATION]}),
            openai({"tool_calls": [call(0, '{"ci', ("call_1", "get_weather"))]}),
            openai({"tool_calls": [call(0, 'ty": "Oslo"}')]}),
            openai({}, "tool_calls", moderation={"flagged": False}, choice={"stop_reason": None}),
            openai(None, usage=USAGE | {"cost": 0.02}),
        ],
    ),
    "openai-function-call": (
        "openai",
        [
            openai({"role": "assistant", "function_call": {"name": "f", "arguments": ""}}),
            openai({"function_call": {"arguments": '{"x": 1}'}}),
            openai({}, "function_call"),
        ],
    ),
    "openai-custom-call": (
        "openai",
        [
            openai({"role": "assistant", "tool_calls": [CUSTOM_CALL]}),
            openai({"tool_calls": [{"index": 0, "custom": {"input": "og"}}]}),
            openai({}, "tool_calls"),
        ],
    ),
    "openai-audio": (
        "openai",
        [
            openai({"role": "assistant", "audio": AUDIO}),
            openai({"audio": {"data": "RiQA", "transcript": " there", "expires_at": 1780316502}}),
            openai({}, "stop"),
        ],
    ),
    "mistral-thinking": (
        "mistral",
        [
            mistral({"role": "assistant", "content": [thinking("The user ")]}),
            mistral({"content": [thinking("wants 4.", signature="c2ln")]}),
            mistral({"content": [{"type": "text", "text": "2 + 2 "}]}),
            mistral({"content": "= 4", "tool_calls": [MISTRAL_CALL]}),
            mistral({"content": ""}, "tool_calls", usage=USAGE),
        ],
    ),
    "mistral-listed-text": (
        "mistral",
        [
            mistral({"role": "assistant", "content": [{"type": "text", "text": "Hi"}]}),
            mistral({"content": " there"}),
            mistral({}, "stop", usage=USAGE),
        ],
    ),
    "groq-reasoning": (
        "groq",
        [
            groq({"role": "assistant", "content": ""}, x_groq={"id": "req_01"}),
            groq({"reasoning": "Weather, "}),
            groq({"reasoning": "so a call."}),
            groq({"tool_calls": [call(0, '{"city": "Oslo"}', ("call_g", "get_weather"))]}),
            groq({}, "tool_calls", x_groq={"id": "req_01", "usage": USAGE | {"queue_time": 0.01}}),
        ],
    ),
}


# Groq's stream of `reasoning_format: "raw"` (qwen/qwen3-32b), as the server
# sends it: the role chunk, the content token by token, `<think>` and the
# whitespace around the reasoning in tokens of their own, `x_groq` on the first
# and last chunks, the usage with its timings in the last one's.
RAW_THINK_CONTENT = [
    "<think>", "\n", "Spell", " it", ": s-t-r-a-w-b-e-r-r-y", ".", " The letter", " r",
    " appears", " three", " times", ".", "\n", "</think>", "\n\n", "3",
]  # fmt: skip
GROQ_USAGE = {
    "queue_time": 0.051348662, "prompt_tokens": 31, "prompt_time": 0.001207413,
    "completion_tokens": 52, "completion_time": 0.098113208, "total_tokens": 83,
    "total_time": 0.099320621,
}  # fmt: skip


def groq_raw(delta: dict[str, Any], finish: str | None = None, **fields: Any) -> Any:
    return groq(delta, finish, choice={"logprobs": None}, **fields)


def raw_think_stream(content: list[str]) -> list[Any]:
    x_groq = {"id": "req_01khw3k2d7fz8r1c5n0v6e3b9t"}
    return [
        groq_raw({"role": "assistant", "content": ""}, x_groq=x_groq),
        *(groq_raw({"content": piece}) for piece in content),
        groq_raw({}, "stop", x_groq={**x_groq, "usage": GROQ_USAGE}),
    ]


OWN_STREAMS["groq-raw-think"] = ("groq", raw_think_stream(RAW_THINK_CONTENT))


def content_written(chunks: list[Any]) -> list[str]:
    """The content deltas' text, chunk by chunk (the role chunk's empty one left out)."""
    return [
        choice["delta"]["content"]
        for chunk in chunks
        for choice in chunk["choices"]
        if choice["delta"].get("content")
    ]


@pytest.mark.parametrize("case", sorted(OWN_STREAMS))
def test_a_dialects_own_stream_encodes_back_to_the_same_answer(case: str) -> None:
    name, recorded = OWN_STREAMS[case]
    codec = DIALECTS[name]

    chunks = encoded(codec, recorded)

    assert outcome(codec.decode_stream(payloads(chunks))) == outcome(codec.decode_stream(recorded))


def test_groqs_raw_reasoning_goes_back_inside_the_content_as_it_came() -> None:
    recorded = raw_think_stream(RAW_THINK_CONTENT)
    events = list(interlingua_groq.decode_stream(recorded))
    reasoning, text = accumulate(events).message.parts
    assert isinstance(reasoning, ReasoningPart)
    assert reasoning.text == "Spell it: s-t-r-a-w-b-e-r-r-y. The letter r appears three times."
    assert text.text == "3"  # type: ignore[union-attr]

    chunks = payloads(list(interlingua_groq.encode_stream(events)))

    written = content_written(chunks)
    assert "".join(written) == "".join(RAW_THINK_CONTENT)
    assert written[0] == "<think>\n"  # the opening, whole, before the reasoning
    assert written[-2:] == ["\n</think>\n\n", "3"]
    assert not [c for c in chunks for choice in c["choices"] if "reasoning" in choice["delta"]]
    # As the server sent it but for the tokens the split held together.
    assert same_json(chunks[0], recorded[0])
    assert same_json(chunks[-1], recorded[-1])
    assert accumulate(interlingua_groq.decode_stream(chunks)) == accumulate(events)


def test_groqs_raw_reasoning_leaves_as_it_comes() -> None:
    """Each piece of the reasoning is written before the next one is read."""
    recorded = raw_think_stream(RAW_THINK_CONTENT)
    read: list[int] = []

    def arriving() -> Iterator[Any]:
        for number, chunk in enumerate(recorded):
            read.append(number)
            yield chunk

    stream = interlingua_groq.encode_stream(interlingua_groq.decode_stream(arriving()))
    for event in stream:
        assert isinstance(event.data, dict)
        if content_written([event.data]) == [" r"]:
            break
    assert read[-1] == RAW_THINK_CONTENT.index(" r") + 1  # the role chunk before them


@given(st.lists(st.integers(min_value=0, max_value=len("".join(RAW_THINK_CONTENT))), max_size=8))
def test_raw_reasoning_cut_anywhere_goes_back_as_the_same_content(cuts: list[int]) -> None:
    content = "".join(RAW_THINK_CONTENT)
    for raw in (content, "  <think></think>Just this.", "<think>\ncut off before it clo"):
        recorded = raw_think_stream(pieces(raw, cuts))
        chunks = payloads(encoded(interlingua_groq, recorded))
        assert "".join(content_written(chunks)) == raw
        assert outcome(interlingua_groq.decode_stream(chunks)) == outcome(
            interlingua_groq.decode_stream(recorded)
        )


def test_raw_reasoning_goes_to_another_dialect_in_its_field_or_not_at_all() -> None:
    recorded = raw_think_stream(RAW_THINK_CONTENT)
    for name in ("openai", "mistral"):
        report = TranslationReport()
        codec = DIALECTS[name]
        chunks = payloads(
            list(codec.encode_stream(interlingua_groq.decode_stream(recorded), report=report))
        )
        assert "".join(content_written(chunks)) == "3"
        assert "think" not in json.dumps(chunks)
        source = accumulate(interlingua_groq.decode_stream(recorded))
        assert reported(report) == [*sorted(answer_fields(source)), "message.parts[0]"]
        assert {loss.kind for loss in report.losses} == {"dropped"}


def test_a_refusal_goes_as_text_where_the_dialect_has_no_refusal_field() -> None:
    _, recorded = OWN_STREAMS["openai-refusal"]
    for name in ("mistral", "groq"):
        report = TranslationReport()
        codec = DIALECTS[name]
        chunks = codec.encode_stream(interlingua_openai.decode_stream(recorded), report=report)
        response = accumulate(codec.decode_stream(payloads(list(chunks))))
        assert response.message.text == "I can't help with that."
        source = accumulate(interlingua_openai.decode_stream(recorded))
        assert reported(report) == [*sorted(answer_fields(source)), "message.parts[0]"]
        assert [loss.kind for loss in report.losses if loss.path.startswith("message")] == [
            "transformed"
        ]


TEXT = "Rain in Bergen, 11 °C; ☔ all day."
ARGUMENTS = '{"city": "Bergen", "days": 2}'


@given(
    st.sampled_from(sorted(DIALECTS)),
    st.lists(st.integers(min_value=0, max_value=len(TEXT)), max_size=8),
    st.lists(st.integers(min_value=0, max_value=len(ARGUMENTS)), max_size=8),
)
def test_deltas_cut_anywhere_give_the_same_answer_in_every_dialect(
    name: str, text_cuts: list[int], argument_cuts: list[int]
) -> None:
    usage = TokenUsage(input_tokens=12, output_tokens=30, total_tokens=42, cache_read_tokens=8)
    first, *rest = pieces(ARGUMENTS, argument_cuts)
    events: list[StreamEvent] = [
        StreamStart(id="msg_01", model="claude-sonnet-4-5", provider="anthropic"),
        *(TextDelta(text=piece) for piece in pieces(TEXT, text_cuts)),
        ToolCallStart(index=1, id="toolu_01", name="get_weather", arguments=first),
        *(ToolCallDelta(index=1, arguments=piece) for piece in rest),
        UsageEvent(usage=usage),
        FinishEvent(finish_reason=FinishReason.TOOL_CALLS, raw_finish_reason="tool_use"),
    ]
    codec = DIALECTS[name]

    chunks = list(codec.encode_stream(events, report=TranslationReport(strict=True)))

    again = accumulate(codec.decode_stream(payloads(chunks)))
    assert facts(again) == {
        "text": TEXT,
        "calls": [("toolu_01", "get_weather", ARGUMENTS)],
        "usage": usage.model_dump(exclude={"details"}),
    }
    assert again.finish_reason is FinishReason.TOOL_CALLS
