"""OpenRouter's reasoning in the form it came: the `reasoning` text is written
from the `reasoning_details` entries only where the wire repeated their text
there. A client that sends a signed entry back alone, an answer whose
`reasoning` is null beside its entries, and a stream of an encrypted entry
whole all go back as they came. On the project's own fixtures
(`fixtures/openrouter/`, hand-made in the shape of OpenRouter's traffic),
through the real `openai` SDK where a client sends them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import interlingua_openrouter
from chat_corpus import assert_stream_written_again
from conftest import bodies, fake_key, in_order, recorded, same_json, strict
from interlingua import ReasoningPart, accumulate
from interlingua.testing import Replay
from interlingua_openrouter import (
    PROVIDER,
    OpenRouterClient,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
    encode_stream,
)

KEY = fake_key("sk-or-v1-")
# Each entry type's readable text, read here without the adapter.
ENTRY_TEXT = {"reasoning.text": "text", "reasoning.summary": "summary"}


def client(replay: Replay) -> OpenRouterClient:
    return OpenRouterClient(api_key=KEY, max_retries=0, http_client=replay.client())


def wire_entries(details: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Each entry's text, signature and encrypted data, read from the wire."""
    return [
        (
            entry.get(ENTRY_TEXT.get(entry["type"], ""), ""),
            entry.get("signature"),
            entry.get("data"),
        )
        for entry in details
    ]


def deltas(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [choice["delta"] for choice in payload["choices"]]


def parts(reasoning: tuple[ReasoningPart, ...]) -> list[tuple[Any, ...]]:
    assert {part.provider for part in reasoning} == {PROVIDER}
    return [(part.text, part.signature, part.redacted_data) for part in reasoning]


def test_a_signed_entry_sent_back_alone_goes_back_without_a_reasoning_text() -> None:
    replay = in_order(recorded("openrouter/reasoning_details_sent_alone.json"))
    (interaction,) = replay.interactions
    assert interaction.request is not None
    body = interaction.request.json
    sent_back = body["messages"][2]
    assert "reasoning" not in sent_back  # the client sent the entry alone

    request = decode_request(body)

    assert parts(request.messages[2].reasoning) == wire_entries(sent_back["reasoning_details"])
    assert request.messages[2].text == sent_back["content"]
    assert same_json(encode_request(request, report=strict()), body)
    with client(replay) as openrouter:
        answer = openrouter.complete(request, report=strict())
    assert replay.sent == bodies(replay.interactions)
    message = interaction.response.json["choices"][0]["message"]
    assert parts(answer.message.reasoning) == wire_entries(message["reasoning_details"])
    assert same_json(encode_response(answer, report=strict()), interaction.response.json)


def test_a_null_reasoning_beside_the_entries_stays_null() -> None:
    replay = in_order(recorded("openrouter/encrypted_reasoning_beside_null.json"))
    first, second = replay.interactions
    assert first.request is not None
    assert second.request is not None
    answer_body = first.response.json
    message = answer_body["choices"][0]["message"]
    assert message["reasoning"] is None

    with client(replay) as openrouter:
        answer = openrouter.complete(decode_request(first.request.json), report=strict())
        openrouter.complete(decode_request(second.request.json), report=strict())

    assert parts(answer.message.reasoning) == wire_entries(message["reasoning_details"])
    assert same_json(encode_response(answer, report=strict()), answer_body)
    assert replay.sent == bodies(
        replay.interactions
    )  # the null and the entry sent back as they came
    # The same answer had its entries held readable text (a summary before the
    # encrypted entry): the null stays null, and the text stays in its entry.
    summarised = copy.deepcopy(answer_body)
    details = summarised["choices"][0]["message"]["reasoning_details"]
    details.insert(0, {**details[0], "type": "reasoning.summary", "summary": "Twenty-three."})
    del details[0]["data"], details[0]["id"]
    assert same_json(encode_response(decode_response(summarised), report=strict()), summarised)
    follow_up = copy.deepcopy(second.request.json)
    follow_up["messages"][1]["reasoning_details"] = details
    assert same_json(encode_request(decode_request(follow_up), report=strict()), follow_up)


def test_an_encrypted_entry_streamed_whole_brings_no_reasoning_text() -> None:
    (interaction,) = recorded("openrouter/stream_encrypted_reasoning.json")
    payloads = interaction.response.stream_payloads()
    entries = [
        entry
        for payload in payloads
        for entry in payload["choices"][0]["delta"].get("reasoning_details", [])
    ]
    text = "".join(payload["choices"][0]["delta"].get("content") or "" for payload in payloads)

    streamed = accumulate(decode_stream(payloads))

    assert parts(streamed.message.reasoning) == wire_entries(entries)
    assert streamed.text == text
    assert encode_response(streamed, report=strict())["choices"][0]["message"]["reasoning"] is None
    written = [event.data for event in encode_stream(decode_stream(payloads), report=strict())]
    deltas = [chunk["choices"][0]["delta"] for chunk in written[:-1] if chunk["choices"]]
    assert [delta.get("reasoning") for delta in deltas if "reasoning" in delta] == []
    assert [d for delta in deltas for d in delta.get("reasoning_details", [])] == entries
    assert_stream_written_again(interlingua_openrouter, payloads)


@pytest.mark.parametrize("opening", [True, False], ids=["empty opening piece", "text first"])
def test_a_stream_whose_deltas_do_not_repeat_the_entry_text_writes_none(opening: bool) -> None:
    (interaction,) = recorded("openrouter/stream_signed_reasoning.json")
    payloads = copy.deepcopy(interaction.response.stream_payloads())
    if not opening:  # the entry's first piece holds text: the part opens with it
        payloads = [p for p in payloads if not any(d.get("reasoning") == "" for d in deltas(p))]
    for payload in payloads:
        for delta in deltas(payload):
            delta.pop("reasoning", None)  # the entry's pieces alone
    pieces = [
        piece for p in payloads for d in deltas(p) for piece in d.get("reasoning_details", [])
    ]
    assert bool(pieces[0].get("text")) != opening

    streamed = accumulate(decode_stream(payloads))

    (thought,) = streamed.message.reasoning
    assert thought.text == "".join(piece.get("text", "") for piece in pieces)
    assert thought.signature == "".join(piece.get("signature", "") for piece in pieces)
    assert encode_response(streamed, report=strict())["choices"][0]["message"]["reasoning"] is None
    written = [event.data for event in encode_stream(decode_stream(payloads), report=strict())]
    assert not any("reasoning" in c["choices"][0]["delta"] for c in written[:-1] if c["choices"])
    assert_stream_written_again(interlingua_openrouter, payloads)
