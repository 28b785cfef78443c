"""OpenAI-Responses-API traffic to servers other than OpenAI, read by the one
Responses codec (`interlingua_openai.responses`): every call to DeepSeek's
`POST https://api.deepseek.com/responses` and OpenRouter's
`POST https://openrouter.ai/api/v1/responses` in `../shared/corpus/compat`.

- a request body decodes and encodes back to itself, with nothing reported;
- a response body decodes and encodes back to itself, and its text, reasoning,
  function calls, every usage count and its status are read from the wire
  without the codec;
- a stream (`event:` lines, SSE comments) accumulates to what its
  `response.completed` event carries;
- an error answer becomes the typed error with its status, type and message;
- each call replays through the real `openai` SDK pointed at the server's
  address, and the body sent is exactly the recorded one.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import openai
import pytest

import interlingua_openai.responses as codec
from conftest import (
    MissingCorpus,
    corpus_id,
    corpus_params,
    fake_key,
    from_corpus,
    in_order,
    require_corpus,
    same_json,
)
from interlingua import (
    BadRequestError,
    ChatResponse,
    ReasoningDelta,
    ReasoningPart,
    TranslationReport,
    accumulate,
)
from interlingua.testing import Interaction, load_cassette
from test_openai_corpus import facts, responses_facts

FOLDERS = ("compat/deepseek", "compat/openrouter")
# Quirk: OpenRouter's `response.completed` gives each reasoning item a fresh
# `rs_tmp_` id, not the one its `response.output_item.*` events carried; the
# stream accumulates to the events' id, so only the rest is compared.
FRESH_REASONING_IDS = frozenset({"test_openai_responses_raw_cot_stream_openrouter.yaml"})


@functools.cache
def calls(path: Path) -> tuple[Interaction, ...]:
    return tuple(
        call
        for call in load_cassette(path).interactions
        if call.request is not None and (call.path or "").endswith("/responses")
    )


def responses_calls(param: Path | MissingCorpus) -> tuple[Interaction, ...]:
    found = calls(from_corpus(param))
    assert found, f"{param} holds no Responses API call"
    return found


def is_answer(call: Interaction) -> bool:
    return not call.is_stream and call.response.status < 400


def is_stream(call: Interaction) -> bool:
    return call.is_stream and call.response.status < 400


def is_failure(call: Interaction) -> bool:
    return call.response.status >= 400


def files_with(kind: Callable[[Interaction], bool], holding: str) -> list[Path | MissingCorpus]:
    """The files holding a Responses call of `kind`, so no case has nothing to check."""
    return corpus_params(*FOLDERS, keep=lambda path: any(map(kind, calls(path))), holding=holding)


FILES = files_with(lambda _: True, "Responses calls")


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_request_body_round_trips_exactly(path: Path | MissingCorpus) -> None:
    for call in responses_calls(path):
        body = call.request.json  # type: ignore[union-attr]
        report = TranslationReport()
        assert same_json(codec.encode_request(codec.decode_request(body), report=report), body)
        assert report.losses == []


@pytest.mark.parametrize("path", files_with(is_answer, "Responses answers"), ids=corpus_id)
def test_every_answer_round_trips_and_says_what_its_wire_says(path: Path | MissingCorpus) -> None:
    for call in filter(is_answer, responses_calls(path)):
        body = call.response.json
        response = codec.decode_response(body)
        encoded = codec.encode_response(response, report=TranslationReport(strict=True))
        assert same_json(encoded, body)
        assert all_facts(response) == wire_facts(body)


@pytest.mark.parametrize("path", files_with(is_stream, "Responses streams"), ids=corpus_id)
def test_every_stream_accumulates_to_its_completed_response(path: Path | MissingCorpus) -> None:
    for call in filter(is_stream, responses_calls(path)):
        payloads = call.response.stream_payloads()
        response = accumulate(codec.decode_stream(payloads))
        (completed,) = (p["response"] for p in payloads if p["type"] == "response.completed")
        assert all_facts(response) == wire_facts(completed)
        assert facts(response)["text"] == "".join(
            p["delta"] for p in payloads if p["type"] == "response.output_text.delta"
        )
        streamed = [
            event.text
            for event in codec.decode_stream(payloads)
            if isinstance(event, ReasoningDelta) and event.text
        ]
        assert streamed == reasoning_deltas(payloads)
        if from_corpus(path).name in FRESH_REASONING_IDS:
            assert response != codec.decode_response(completed)
        else:
            assert response == codec.decode_response(completed)


@pytest.mark.parametrize("path", files_with(is_stream, "Responses streams"), ids=corpus_id)
def test_every_stream_encodes_back_with_its_chain_of_thought_as_reasoning_text(
    path: Path | MissingCorpus,
) -> None:
    for call in filter(is_stream, responses_calls(path)):
        payloads = call.response.stream_payloads()
        events = list(codec.decode_stream(payloads))
        # OpenRouter ends a reasoning item after the message that follows it; the
        # encoder has closed that item by then, and reports the late data.
        report = TranslationReport()
        wire = codec.encode_stream(events, report=report)
        written = [json.loads(json.dumps(event.data)) for event in wire]
        assert all("came after its output item was done" in loss.reason for loss in report.losses)
        assert accumulate(codec.decode_stream(written)) == accumulate(events)
        assert reasoning_deltas(written) == reasoning_deltas(payloads)
        for kind in ("response.reasoning_text.delta", "response.reasoning_summary_text.delta"):
            assert [p["delta"] for p in written if p["type"] == kind] == [
                p["delta"] for p in payloads if p["type"] == kind and p["delta"]
            ]


@pytest.mark.parametrize("path", files_with(is_failure, "Responses errors"), ids=corpus_id)
def test_every_error_answer_is_a_typed_error(path: Path | MissingCorpus) -> None:
    for call in filter(is_failure, responses_calls(path)):
        error = codec.decode_error(call.response.status, call.response.body)
        wire = call.response.json["error"]
        assert type(error) is BadRequestError
        assert (error.status, error.type, error.message, error.code) == (
            call.response.status,
            wire["type"],
            wire["message"],
            wire["code"],
        )


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_call_replays_through_the_openai_sdk(path: Path | MissingCorpus) -> None:
    for call in responses_calls(path):
        replay = in_order([call])
        sdk = openai.OpenAI(
            api_key=fake_key("sk-"),
            base_url=str(call.request.url).removesuffix("/responses"),  # type: ignore[union-attr]
            http_client=replay.client(),
            max_retries=0,
        )
        client = codec.OpenAIResponsesClient(sdk)
        body = call.request.json  # type: ignore[union-attr]
        request = codec.decode_request(body)
        if is_failure(call):
            with pytest.raises(BadRequestError) as caught:
                client.complete(request)
            assert caught.value.message == call.response.json["error"]["message"]
        elif call.is_stream:
            response = accumulate(client.stream(request))
            assert response == accumulate(codec.decode_stream(call.response.stream_payloads()))
        else:
            assert client.complete(request) == codec.decode_response(call.response.json)
        assert replay.sent == [body]


def test_the_corpus_holds_every_kind_of_responses_call_on_both_servers() -> None:
    require_corpus("compat/deepseek")
    require_corpus("compat/openrouter")
    found = [call for path in FILES for call in responses_calls(path)]
    hosts = {urlsplit(str(call.request.url)).hostname for call in found}  # type: ignore[union-attr]
    assert hosts == {"api.deepseek.com", "openrouter.ai"}
    assert (len(FILES), len(found)) == (13, 18)
    assert any(map(is_stream, found))
    assert any(map(is_answer, found))
    assert any(map(is_failure, found))
    # Some answers hold a chain of thought and no summary: the part's text is the content.
    assert any(
        raw_reasoning(item) and not texts(item["summary"], "summary_text")
        for call in found
        if is_answer(call)
        for item in call.response.json["output"]
        if item["type"] == "reasoning"
    )
    assert any(
        p["type"] == "response.reasoning_text.delta"
        for call in found
        if is_stream(call)
        for p in call.response.stream_payloads()
    )


# --- read straight from the wire ---


def all_facts(response: ChatResponse) -> dict[str, Any]:
    """`facts` with each reasoning part's text."""
    reasoning = [p.text for p in response.message.parts if isinstance(p, ReasoningPart)]
    return {**facts(response), "reasoning": reasoning}


def wire_facts(body: dict[str, Any]) -> dict[str, Any]:
    """Each reasoning item's text: its summary, or where that gives none the raw
    chain of thought (`reasoning_text` content), entries joined by a blank line."""
    reasoning = [
        "\n\n".join(texts(item["summary"], "summary_text") or raw_reasoning(item))
        for item in body["output"]
        if item["type"] == "reasoning"
    ]
    return {**responses_facts(body), "reasoning": reasoning}


def texts(entries: list[dict[str, Any]], kind: str) -> list[str]:
    return [entry["text"] for entry in entries if entry["type"] == kind]


def raw_reasoning(item: dict[str, Any]) -> list[str]:
    return texts(item.get("content") or [], "reasoning_text")


def reasoning_deltas(payloads: list[dict[str, Any]]) -> list[str]:
    """The streamed chain of thought and summary, one delta as the wire gives each."""
    kinds = {"response.reasoning_text.delta", "response.reasoning_summary_text.delta"}
    return [p["delta"] for p in payloads if p["type"] in kinds and p["delta"]]
