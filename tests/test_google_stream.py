"""The Gemini stream decoder chunk by chunk: every chunk repeats the usage so
far and the response's fields, and each is said again only when it changed,
whatever the chunks before it carried. Expectations are read from the wire
here, apart from the decoder."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua import (
    ReasoningDelta,
    ResponseDataEvent,
    StreamEvent,
    StreamStart,
    TextDelta,
    UsageEvent,
)
from interlingua_google import decode_stream

COUNTS = (
    "promptTokenCount",
    "cachedContentTokenCount",
    "candidatesTokenCount",
    "toolUsePromptTokenCount",
    "thoughtsTokenCount",
    "totalTokenCount",
)
PROMPT = [{"modality": "TEXT", "tokenCount": 11}]


def chunk(part: dict[str, Any], usage: dict[str, Any] | None, **candidate: Any) -> dict[str, Any]:
    """One `?alt=sse` payload, shaped as Gemini sends them."""
    body: dict[str, Any] = {
        "candidates": [{"content": {"parts": [part], "role": "model"}, "index": 0, **candidate}],
        "modelVersion": "gemini-2.5-flash",
        "responseId": "IopyaseNCL-s-8YP7urOoAY",
    }
    if usage is not None:
        body["usageMetadata"] = usage
    return body


def usage(**counts: int) -> dict[str, Any]:
    return {**counts, "promptTokensDetails": PROMPT, "serviceTier": "standard"}


PROMPTED = usage(promptTokenCount=11, totalTokenCount=11)
THINKING = usage(promptTokenCount=11, totalTokenCount=302, thoughtsTokenCount=291)
ANSWERING = usage(
    promptTokenCount=11, candidatesTokenCount=2, totalTokenCount=304, thoughtsTokenCount=291
)
CHUNKS = [
    chunk({"text": "**Considering**", "thought": True}, PROMPTED),
    chunk({"text": " the name", "thought": True}, PROMPTED),
    chunk({"text": ".", "thought": True}, THINKING),  # the counts grow: one more form
    chunk({"text": "Sc"}, THINKING),
    chunk({"text": "oop"}, None),  # no usage on this chunk
    chunk({"text": "!"}, THINKING),
    chunk({"text": " Yes"}, THINKING, safetyRatings=[]),  # the candidate's echo grows
    chunk({"text": "."}, ANSWERING, finishReason="STOP"),
]


def per_chunk(chunks: list[dict[str, Any]]) -> list[list[StreamEvent]]:
    """The events each chunk added: each prefix's stream less the one before."""
    said: list[list[StreamEvent]] = []
    before = 0
    for k in range(1, len(chunks) + 1):
        events = list(decode_stream(copy.deepcopy(chunks[:k])))
        said.append(events[before:])
        before = len(events)
    return said


def test_every_chunk_with_usage_says_its_own_counts() -> None:
    for events, wire in zip(per_chunk(CHUNKS), CHUNKS, strict=True):
        said = [event.usage for event in events if isinstance(event, UsageEvent)]
        counts = wire.get("usageMetadata")
        if counts is None:
            assert said == []
            continue
        (usage_so_far,) = said
        assert usage_so_far.input_tokens == counts["promptTokenCount"]
        assert usage_so_far.output_tokens == counts.get("candidatesTokenCount", 0) + counts.get(
            "thoughtsTokenCount", 0
        )
        assert usage_so_far.reasoning_tokens == counts.get("thoughtsTokenCount", 0)
        assert usage_so_far.total_tokens == counts["totalTokenCount"]
        assert usage_so_far.details == {"promptTokensDetails.TEXT": 11}


# A stream whose first chunk has no parts yet (its content the role alone, as
# Gemini sends an empty answer's): the parts' absence is a form until they come.
ROLE_FIRST = [
    {**chunk({"text": "x"}, PROMPTED), "candidates": [{"content": {"role": "model"}, "index": 0}]},
    *CHUNKS,
]


@pytest.mark.parametrize(
    ("chunks", "changes"),
    [
        # the first; counts grown; no usage, then usage again; the echo; counts grown
        (CHUNKS, [0, 2, 4, 5, 6, 7]),
        # the first; the parts come; then as above
        (ROLE_FIRST, [0, 1, 3, 5, 6, 7, 8]),
    ],
    ids=["text-first", "role-first"],
)
def test_the_response_data_is_said_again_exactly_when_it_changed(
    chunks: list[dict[str, Any]], changes: list[int]
) -> None:
    said = [
        [event.provider_data["google"] for event in events if isinstance(event, ResponseDataEvent)]
        for events in per_chunk(chunks)
    ]
    last: Any = None
    echo: dict[str, Any] = {}  # the candidate's fields so far, a later over an earlier
    content: set[str] = set()  # the content's fields so far
    for data, wire in zip(said, chunks, strict=True):
        counts = wire.get("usageMetadata")
        candidate = wire["candidates"][0]
        echo |= {key: candidate[key] for key in ("index", "safetyRatings") if key in candidate}
        content |= set(candidate["content"])
        absent = [key for key in COUNTS if counts is not None and key not in counts]
        absent += [f"content.{key}" for key in ("role", "parts") if key not in content]
        expected: Any = {"forms": {"absent": absent}, "echo": {"candidate": dict(echo)}}
        if counts is not None:
            expected["fields"] = {
                "usageMetadata": {key: v for key, v in counts.items() if key not in COUNTS}
            }
        assert data == ([] if expected == last else [expected])
        last = expected
    assert [k for k, data in enumerate(said) if data] == changes


def test_a_delta_chunk_says_its_delta_and_its_usage_alone() -> None:
    deltas = per_chunk(CHUNKS)
    assert [type(event) for event in deltas[0]] == [
        StreamStart,
        ReasoningDelta,
        UsageEvent,
        ResponseDataEvent,
    ]
    assert [type(event) for event in deltas[1]] == [ReasoningDelta, UsageEvent]
    assert [type(event) for event in deltas[3]] == [TextDelta, UsageEvent]
    texts = [
        (event.index, event.text)
        for events in deltas
        for event in events
        if isinstance(event, TextDelta | ReasoningDelta)
    ]
    wire = [part["text"] for body in CHUNKS for part in body["candidates"][0]["content"]["parts"]]
    assert [text for _, text in texts] == wire
    assert [index for index, _ in texts] == [0, 0, 0, 1, 1, 1, 1, 1]
