"""Every answer an API writes is one its own SDK takes: each recorded answer
and stream of every API, decoded and written by every other API, is validated
by the SDK types of the API written for, strictly.

    API written for                     answer                         stream payloads
    anthropic                           anthropic.types.Message        RawMessageStreamEvent
    openai, and the servers its SDK     openai ChatCompletion          ChatCompletionChunk
      speaks to (deepseek, ...)
    openai-responses                    openai Response                ResponseStreamEvent
    mistral                             mistralai ChatCompletionResponse  CompletionChunk
    groq                                groq ChatCompletion            ChatCompletionChunk
    google                              GenerateContentResponse        each chunk the same

The wire is JSON, so each type reads it as JSON, in strict mode
(`model_validate_json(text, strict=True)`; in Python's strict mode an enum
wants its members, where the wire has their values). A stream that ends in an
error ends with the API's error body, which is no stream event of its SDK's,
except the Responses API's `response.failed`, a whole `Response`.

The cases are every recorded answer and stream of the corpus (skipped when it
is absent, failed when `CI` is set), and of the project's fixtures, which run
everywhere.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

import anthropic.types
import groq.types.chat
import openai.types.chat
import openai.types.responses
import pytest
from google.genai import types as genai_types
from mistralai.client import models as mistral_models
from pydantic import BaseModel, ValidationError

import interlingua_openai
import interlingua_openai.responses
from conftest import (
    FIXTURES,
    MissingCorpus,
    cassette,
    corpus_files,
    from_corpus,
    recorded,
)
from interlingua import ChatResponse, ErrorEvent, TranslationReport, get_adapter
from interlingua.testing import Interaction
from recorded_apis import SOURCES, legacy_completion

# The APIs whose answers only fixtures hold, and how their endpoints' URL paths end.
FIXTURE_SOURCES = {"anthropic-vertex": (":rawPredict", ":streamRawPredict")}
# The APIs that write answers: those above, and the servers with no recorded traffic;
# not Bedrock's, whose SDK (boto3) has no types of an answer to check one by.
WRITERS = (
    *(api for api in SOURCES if api not in {"bedrock", "anthropic-bedrock"}),
    "xai",
    "perplexity",
)


def by_type(union: Any) -> dict[str, type[BaseModel]]:
    """The members of an SDK's union of events (`Annotated[Union[...], ...]`), by
    their `type`, so that an event is checked against its own type alone."""
    while get_origin(union) is Annotated:
        union = get_args(union)[0]
    assert get_origin(union) is Union, union
    members: dict[str, type[BaseModel]] = {}
    for member in get_args(union):
        (kind,) = get_args(member.model_fields["type"].annotation)
        members[kind] = member
    return members


RESPONSES_EVENTS = by_type(openai.types.responses.ResponseStreamEvent)
ANTHROPIC_EVENTS = by_type(anthropic.types.RawMessageStreamEvent)


def typed(events: dict[str, type[BaseModel]]) -> Callable[[dict[str, Any]], type[BaseModel]]:
    def event_type(payload: dict[str, Any]) -> type[BaseModel]:
        kind = payload.get("type")
        assert kind in events, f"no event type {kind!r} in the SDK"
        return events[kind]

    return event_type


def always(model: type[BaseModel]) -> Callable[[dict[str, Any]], type[BaseModel]]:
    return lambda payload: model


# The SDK type of an answer, and of each stream payload, by API written for.
CHAT_COMPLETION = (openai.types.chat.ChatCompletion, always(openai.types.chat.ChatCompletionChunk))
SDK_TYPES: dict[str, tuple[type[BaseModel], Callable[[dict[str, Any]], type[BaseModel]]]] = {
    "anthropic": (anthropic.types.Message, typed(ANTHROPIC_EVENTS)),
    "openai-responses": (openai.types.responses.Response, typed(RESPONSES_EVENTS)),
    "mistral": (
        mistral_models.ChatCompletionResponse,
        always(mistral_models.CompletionChunk),
    ),
    "groq": (groq.types.chat.ChatCompletion, always(groq.types.chat.ChatCompletionChunk)),
    "google": (
        genai_types.GenerateContentResponse,
        always(genai_types.GenerateContentResponse),
    ),
}


def refusal(model: type[BaseModel], payload: dict[str, Any]) -> str | None:
    """Why `model` refuses `payload` (None when it takes it), read as JSON, strictly."""
    try:
        model.model_validate_json(json.dumps(payload), strict=True)
    except ValidationError as error:
        return str(error)
    return None


def answer_refusal(writer: str, body: dict[str, Any]) -> str | None:
    answer_type, _ = SDK_TYPES.get(writer, CHAT_COMPLETION)
    return refusal(answer_type, body)


def stream_refusals(writer: str, payloads: list[Any], *, ends_in_error: bool) -> list[str]:
    """Why the SDK refuses each payload of a stream written for `writer` (none when
    it takes them all); `ends_in_error`: the stream ends in an error."""
    _, event_type = SDK_TYPES.get(writer, CHAT_COMPLETION)
    events = [payload for payload in payloads if isinstance(payload, dict)]  # no `[DONE]`
    if ends_in_error and writer != "openai-responses":
        events = events[:-1]  # the API's error body, no event
    found = (refusal(event_type(event), event) for event in events)
    return [reason for reason in found if reason is not None]


# --- the recorded answers and streams ---


@functools.cache
def calls(path: Path, source: str) -> tuple[Interaction, ...]:
    """The answered calls of `source`'s API that a recording holds."""
    _, provider, endings = SOURCES[source]
    held = cassette(path)
    found = held.interactions if provider is None else held.for_provider(provider)
    return tuple(
        call
        for call in found
        if (call.path or "").endswith(endings)
        and call.response.status == 200
        and not legacy_completion(call)
    )


def payloads_of(call: Interaction) -> list[Any] | None:
    """A stream's payloads (Gemini's JSON-array streams among them), None for an answer."""
    if call.is_stream:
        return list(call.response.stream_payloads())
    body = call.response.json
    return body if isinstance(body, list) else None


def fixture_source(path: Path, call: Interaction) -> str:
    """The API a fixture's call is of: its folder's, or the Responses API's."""
    return "openai-responses" if call.path == "/v1/responses" else path.parent.name


def answers(source: str, call: Interaction) -> bool:
    """Whether `call` of a fixture is an answer of `source`'s API (Bedrock's
    fixtures hold ConverseStream events apart from cassettes, for one)."""
    endings = SOURCES[source][2] if source in SOURCES else FIXTURE_SOURCES.get(source)
    if endings is None:
        return source in WRITERS
    return (call.path or "").endswith(endings)


def cases(streamed: bool) -> list[Any]:
    """One case per recorded answer (stream) and other API to write it for."""
    found: list[tuple[str, str, Interaction | MissingCorpus]] = []
    for source, (folder, _, _) in SOURCES.items():
        held = [
            (f"{path.relative_to(path.parents[1]).as_posix()}#{n}", call)
            for path in corpus_files(folder, "*.yaml")
            for n, call in enumerate(calls(path, source))
        ]
        if not held:
            found.append((source, f"missing-{folder}", MissingCorpus((folder,))))
        found += [(source, name, call) for name, call in held]
    for path in sorted(FIXTURES.glob("*/*.json")):
        for n, call in enumerate(cassette(path).interactions):
            source = fixture_source(path, call)
            if call.response.status == 200 and answers(source, call):
                found.append((source, f"fixtures/{path.name}#{n}", call))
    params = []
    for source, name, call in found:
        if isinstance(call, MissingCorpus):
            # One case, which skips (fails in CI), naming the folder.
            params.append(pytest.param(source, source, call, id=f"{source}:{name}"))
        elif (payloads_of(call) is not None) == streamed:
            params += [
                pytest.param(source, writer, call, id=f"{source}:{name}->{writer}")
                for writer in WRITERS
                if writer != source
            ]
    return params


@pytest.mark.parametrize(("source", "writer", "call"), cases(streamed=False))
def test_every_answer_written_for_another_api_is_one_its_sdk_takes(
    source: str, writer: str, call: Interaction | MissingCorpus
) -> None:
    response = get_adapter(source).decode_response(from_corpus(call).response.json)

    body = get_adapter(writer).encode_response(response, report=TranslationReport())

    assert answer_refusal(writer, body) is None, answer_refusal(writer, body)


@pytest.mark.parametrize(("source", "writer", "call"), cases(streamed=True))
def test_every_stream_written_for_another_api_is_one_its_sdk_takes(
    source: str, writer: str, call: Interaction | MissingCorpus
) -> None:
    payloads = payloads_of(from_corpus(call))
    assert payloads is not None
    events = list(get_adapter(source).decode_stream(payloads))

    written = get_adapter(writer).encode_stream(events, report=TranslationReport())

    ends_in_error = any(isinstance(event, ErrorEvent) for event in events)
    refused = stream_refusals(
        writer, [event.data for event in written], ends_in_error=ends_in_error
    )
    assert refused == [], refused[0]


# --- a Chat Completions answer with calls, written for the Responses API ---


def test_a_chat_completions_answer_with_calls_is_written_as_the_responses_api_writes_it() -> None:
    (call,) = recorded("openai/chat_parallel_tool_calls_cached.json")
    wire = call.response.json
    calls, usage = wire["choices"][0]["message"]["tool_calls"], wire["usage"]
    report = TranslationReport()

    body = interlingua_openai.responses.encode_response(
        interlingua_openai.decode_response(wire), report=report
    )

    assert answer_refusal("openai-responses", body) is None, answer_refusal(
        "openai-responses", body
    )
    item_ids = [item["id"] for item in body["output"]]
    assert body == {
        "id": body["id"],
        "object": "response",
        "created_at": wire["created"],  # when Chat Completions made it
        "status": "completed",
        "model": wire["model"],
        "output": [
            {
                "id": item_id,
                "type": "function_call",
                "call_id": tool_call["id"],
                "name": tool_call["function"]["name"],
                "arguments": tool_call["function"]["arguments"],
                "status": "completed",
            }
            for item_id, tool_call in zip(item_ids, calls, strict=True)
        ],
        # What a response echoes of its request, which the answer does not carry: defaults.
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": usage["prompt_tokens"],
            "output_tokens": usage["completion_tokens"],
            "total_tokens": usage["total_tokens"],
            "input_tokens_details": {
                "cached_tokens": usage["prompt_tokens_details"]["cached_tokens"],
                "cache_write_tokens": 0,
            },
            "output_tokens_details": {
                "reasoning_tokens": usage["completion_tokens_details"]["reasoning_tokens"]
            },
        },
    }
    # Ids in the API's own form, not Chat Completions' `chatcmpl-...`.
    assert re.fullmatch(r"resp_[0-9a-f]{50}", body["id"])
    assert all(re.fullmatch(r"fc_[0-9a-f]{50}", item_id) for item_id in item_ids)
    assert len(set(item_ids)) == len(calls)
    # The same answer, the same ids.
    again = interlingua_openai.responses.encode_response(
        interlingua_openai.decode_response(wire), report=TranslationReport()
    )
    assert [again["id"], *(item["id"] for item in again["output"])] == [body["id"], *item_ids]
    # Only Chat Completions' own fields are lost, each by name.
    assert sorted(loss.path for loss in report.losses) == [
        "provider_data.openai.fields.service_tier",
        "provider_data.openai.fields.system_fingerprint",
    ]


def test_an_answer_that_says_not_when_it_was_made_is_stamped_with_the_time_of_writing() -> None:
    (call,) = recorded("openai/chat_parallel_tool_calls_cached.json")
    wire = {key: value for key, value in call.response.json.items() if key != "created"}

    body = interlingua_openai.responses.encode_response(
        interlingua_openai.decode_response(wire), report=TranslationReport()
    )

    assert type(body["created_at"]) is int
    assert abs(body["created_at"] - time.time()) < 60


# --- a Gemini answer blocked by a safety setting, on Vertex AI ---


def blocked_gemini_answer() -> tuple[dict[str, Any], ChatResponse]:
    (call,) = recorded("google/vertex_safety_blocked.json")
    wire = call.response.json
    return wire, get_adapter("google").decode_response(wire)


def test_a_blocked_answer_written_for_groq_finishes_as_groq_can_say() -> None:
    wire, response = blocked_gemini_answer()
    assert wire["candidates"][0]["finishReason"] == "SAFETY"
    report = TranslationReport()

    body = get_adapter("groq").encode_response(response, report=report)

    assert answer_refusal("groq", body) is None, answer_refusal("groq", body)
    # The groq SDK's `ChatCompletion` takes no `content_filter`.
    assert body["choices"][0]["finish_reason"] == "stop"
    (changed,) = [loss for loss in report.losses if loss.path == "finish_reason"]
    assert changed.kind == "transformed"
    assert "content_filter" in changed.reason


def test_an_answer_written_for_the_responses_api_keeps_the_time_its_wire_gave() -> None:
    wire, response = blocked_gemini_answer()
    made = datetime.fromisoformat(wire["createTime"].replace("Z", "+00:00"))

    body = interlingua_openai.responses.encode_response(response, report=TranslationReport())

    assert answer_refusal("openai-responses", body) is None
    assert body["created_at"] == int(made.timestamp())
    assert (body["status"], body["incomplete_details"]) == (
        "incomplete",
        {"reason": "content_filter"},
    )
    assert body["output"] == []


# --- when a Chat Completions answer written from another API was made ---

CHAT_APIS = ("openai", "groq", "mistral", "xai", "openrouter", "deepseek")


@pytest.mark.parametrize("target", CHAT_APIS)
def test_an_answer_written_for_chat_completions_keeps_the_time_its_wire_gave(target: str) -> None:
    wire, response = blocked_gemini_answer()
    made = datetime.fromisoformat(wire["createTime"].replace("Z", "+00:00"))
    (call,) = recorded("openai/chat_parallel_tool_calls_cached.json")

    body = get_adapter(target).encode_response(response, report=TranslationReport())
    chat = get_adapter(target).encode_response(
        interlingua_openai.decode_response(call.response.json), report=TranslationReport()
    )

    assert body["created"] == int(made.timestamp())
    assert chat["created"] == call.response.json["created"]


@pytest.mark.parametrize("target", CHAT_APIS)
def test_a_chat_completions_answer_that_says_not_when_it_was_made_gets_the_time_of_writing(
    target: str,
) -> None:
    call = recorded("anthropic/tool_round_trip_with_thinking.json")[0]
    before = int(time.time())

    body = get_adapter(target).encode_response(
        get_adapter("anthropic").decode_response(call.response.json), report=TranslationReport()
    )

    assert type(body["created"]) is int
    assert before <= body["created"] <= time.time()


@pytest.mark.parametrize("target", CHAT_APIS)
def test_every_chunk_of_a_stream_from_another_api_says_one_creation_time(target: str) -> None:
    (claude,) = recorded("anthropic/stream_thinking_tool_use.json")
    (gpt,) = recorded("openai/chat_stream_parallel_tool_calls.json")
    before = int(time.time())

    def created(source: str, call: Interaction) -> set[Any]:
        events = get_adapter(source).decode_stream(call.response.stream_payloads())
        chunks = get_adapter(target).encode_stream(events, report=TranslationReport())
        return {chunk.data["created"] for chunk in chunks if isinstance(chunk.data, dict)}

    (written,) = created("anthropic", claude)
    assert type(written) is int
    assert before <= written <= time.time()
    # OpenAI's stream said when: another Chat Completions API writes that.
    said = {payload["created"] for payload in gpt.response.stream_payloads()}
    assert created("openai", gpt) == said


# --- a Converse answer, which has no id and no model, written for another API ---

ID_FORMS = {
    "openai": r"chatcmpl-[0-9a-f]{50}",
    "mistral": r"chatcmpl-[0-9a-f]{50}",
    "anthropic": r"msg_[0-9a-f]{50}",
    "openai-responses": r"resp_[0-9a-f]{50}",
}


@pytest.mark.parametrize("target", ID_FORMS)
def test_an_answer_with_no_id_gets_one_of_the_api_s_form_the_same_each_time(target: str) -> None:
    (call,) = recorded("bedrock/thinking_tool_use.json")
    assert {"id", "model"}.isdisjoint(call.response.json)  # Converse says neither
    other = recorded("bedrock/citations.json")[0].response.json

    def written(wire: dict[str, Any]) -> dict[str, Any]:
        response = get_adapter("bedrock").decode_response(wire)
        return get_adapter(target).encode_response(response, report=TranslationReport())

    body = written(call.response.json)

    assert re.fullmatch(ID_FORMS[target], body["id"])
    assert body["model"] == ""
    assert written(call.response.json)["id"] == body["id"]
    assert written(other)["id"] != body["id"]


@pytest.mark.parametrize("target", ["openai", "mistral", "anthropic"])
def test_a_stream_with_no_id_gets_one_id_of_the_api_s_form(target: str) -> None:
    events = json.loads((FIXTURES / "bedrock" / "stream_citations.json").read_text())["events"]
    decoded = list(get_adapter("bedrock").decode_stream(events))

    def ids() -> set[str]:
        chunks = get_adapter(target).encode_stream(decoded, report=TranslationReport())
        payloads = [chunk.data for chunk in chunks if isinstance(chunk.data, dict)]
        if target == "anthropic":
            return {p["message"]["id"] for p in payloads if p["type"] == "message_start"}
        assert {p["model"] for p in payloads} == {""}
        return {p["id"] for p in payloads}

    (made,) = ids()
    assert re.fullmatch(ID_FORMS[target], made)
    assert ids() != {made}  # each stream its own
