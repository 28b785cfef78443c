"""The benchmark harness works, and its floors are fair.

`bench/run.py --quick` runs every path and prints every row, each with a
finite, positive ratio; no time is asserted (the machine may be shared and
noisy). The hand-written baselines write what interlingua writes, field for
field, so interlingua is measured against converters doing the same work; the
generated bodies, responses and streams are ones interlingua reads and writes
back unchanged.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import interlingua_anthropic
import interlingua_bedrock
import interlingua_google
import interlingua_openai
import interlingua_openai.responses
from bench import (
    bedrock,
    contests,
    dict_baseline,
    gemini,
    histories,
    limits,
    standings,
    typed_floor,
)
from bench.harness import ADAPTERS, IMPORTS, QUICK, sse_bytes
from bench.histories import API_MODELS, APIS
from interlingua import (
    ChatRequest,
    TranslationReport,
    accumulate,
    translate_request,
    translate_stream,
)
from interlingua.testing import parse_sse

ROOT = Path(__file__).resolve().parents[1]
CODECS: dict[str, Any] = {
    "anthropic": interlingua_anthropic,
    "chat": interlingua_openai,
    "responses": interlingua_openai.responses,
}
PAIRS = [(source, target) for source in APIS for target in APIS]

REQUEST_PATHS = [
    *(f"decode {api} request" for api in APIS),
    *(f"encode {api} request" for api in APIS),
    *(f"gateway {source} -> {target} request" for source, target in PAIRS if source != target),
]
OTHER_PATHS = [
    *(f"decode {api} response" for api in APIS),
    "gateway anthropic -> chat response",
    "gateway chat -> anthropic response",
    *(f"stream {api}: decode + accumulate" for api in APIS),
    *(f"stream {api}: encode + SSE bytes" for api in APIS),
    *(f"gateway {source} -> {target} stream" for source, target in PAIRS if source != target),
    "ChatHistory.to_json",
    "ChatHistory.from_json",
    *(f"import {module}" for module in IMPORTS),
    *(f"memory: core from {api} body" for api in APIS),
    *(f"memory: typed floor from {api}" for api in APIS),
]
QUICK_SIZES = [10, 40]
DIALECT_PATHS = {contests.dialect_path(name): name for name in contests.DIALECTS}


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    """The quick run's table and its JSON, warnings made errors."""
    out = tmp_path_factory.mktemp("bench") / "results.json"
    command = [sys.executable, "-W", "error", "bench/run.py", "--quick", "--json", str(out)]
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout, json.loads(out.read_text())


def test_the_quick_run_prints_every_row(quick_run: tuple[str, dict[str, Any]]) -> None:
    table, results = quick_run
    rows = [row for section in results["sections"].values() for row in section]
    measured = {(row["path"], row["size"]) for row in rows}
    for path in REQUEST_PATHS:
        assert {(path, size) for size in QUICK_SIZES} <= measured, path
    for path in REQUEST_PATHS + OTHER_PATHS:
        assert path in table
        assert any(row["path"] == path for row in rows), path
    for row in rows:
        assert math.isfinite(row["ratio"]), row["path"]
        assert row["ratio"] > 0, row["path"]
        assert row["interlingua"]["median"] > 0, row["path"]


def test_the_quick_run_shows_growth_and_verdicts(quick_run: tuple[str, dict[str, Any]]) -> None:
    table, results = quick_run
    growths = [growth for growth in results["growth"] if not growth["path"].startswith("limit")]
    assert sorted(growth["path"] for growth in growths) == sorted(REQUEST_PATHS)
    for growth in growths:
        assert growth["sizes"] == QUICK_SIZES
        assert math.isfinite(growth["per_message_growth"])
        assert growth["per_message_growth"] > 0
    imports = results["sections"]["Imports, in fresh processes (baseline: pydantic's BaseModel)"]
    for row in imports:
        assert row["checks"]["no SDK"], row["notes"]  # importing a codec loads no SDK
    assert "Targets:" in table
    assert table.count("PASS") + table.count("MISS") >= len(REQUEST_PATHS)


def _installed(peer: str) -> bool:
    module = {"litellm": "litellm", "pydantic-ai": "pydantic_ai", "sdk": "anthropic"}[peer]
    return importlib.util.find_spec(module) is not None


def test_the_quick_run_prints_the_peers_table(quick_run: tuple[str, dict[str, Any]]) -> None:
    """Every path has its row, interlingua's figure and each peer's figure or
    the reason it has none; a peer that is installed has figures."""
    table, results = quick_run
    rows = results["peers"]
    assert [row["path"] for row in rows] == list(contests.contest_names())
    assert standings.TITLE in table
    for row in rows:
        assert row["path"] in table
        assert row["interlingua"]["median"] > 0, row["path"]
        assert set(row["peers"]) == set(contests.PEERS), row["path"]
        for peer, cell in row["peers"].items():
            if "missing" in cell:
                assert cell["missing"], (row["path"], peer)
                assert not (_installed(peer) and cell["missing"].startswith("not installed"))
            else:
                assert cell["median"] > 0, (row["path"], peer)
        if row["fastest_peer"] is not None:
            assert math.isfinite(row["ratio"]), row["path"]
            assert row["ratio"] > 0, row["path"]
        sized = row["path"].startswith(("history", "chat body", "anthropic body", "own"))
        assert row["size"] == (QUICK_SIZES[-1] if sized else row["size"]), row["path"]
    for peer in contests.PEERS:
        figures = [row for row in rows if "median" in row["peers"][peer]]
        assert bool(figures) == _installed(peer), peer
    dialects = [row for row in rows if row["path"] in DIALECT_PATHS]
    assert [row["path"] for row in dialects] == list(DIALECT_PATHS)
    for row in dialects:  # each beside the Chat Completions encoder, its baseline
        assert row["floor"]["kind"] == contests.CHAT_ENCODER, row["path"]
        assert math.isfinite(row["floor_ratio"]), row["path"]
        assert row["floor_ratio"] > 0, row["path"]
        assert f"x {contests.CHAT_ENCODER}" in next(
            line for line in table.splitlines() if line.startswith(row["path"])
        )
    streams = [row for row in rows if row["path"].endswith("stream -> accumulated")]
    assert {row["size"] for row in streams} == {200}
    for row in streams:
        assert row["floor"]["kind"] == "json.loads"
        assert math.isfinite(row["floor_ratio"])


@pytest.mark.parametrize("path", [contests.CHAT_TO_HISTORY, contests.ANTHROPIC_TO_HISTORY])
def test_each_decoder_row_builds_the_request_its_floor_validates(path: str) -> None:
    """A decoder's row decodes the whole history; its floor, pydantic's
    `model_validate` of the same tree, builds the same request."""
    inputs = contests.build_inputs(QUICK_SIZES[-1], 20)
    contest = next(row for row in contests.CONTESTS if row.path == path)
    assert contest.floor is not None
    assert contest.floor[0] == contests.MODEL_VALIDATE
    decoded = contest.ours(inputs)()
    assert isinstance(decoded, ChatRequest)
    assert len(decoded.messages) > QUICK_SIZES[-1] // 2
    assert contest.floor[1](inputs)() == decoded


@pytest.mark.parametrize("name", list(contests.DIALECTS))
def test_each_dialect_row_encodes_the_whole_history(name: str) -> None:
    """A dialect's timed step writes every message of the history to its body
    (every turn Perplexity takes, to Perplexity's), for its provider's model; its
    baseline, the Chat Completions encoder, too."""
    inputs = contests.build_inputs(QUICK_SIZES[-1], 20)
    chat = inputs.history.bodies["chat"]
    contest = next(row for row in contests.CONTESTS if row.path == contests.dialect_path(name))
    assert contest.floor is not None
    assert contest.floor[0] == contests.CHAT_ENCODER
    body = contest.ours(inputs)()
    baseline = contest.floor[1](inputs)()
    assert isinstance(body, dict)
    assert isinstance(baseline, dict)
    assert len(chat["messages"]) == QUICK_SIZES[-1]
    roles = [m["role"] for m in chat["messages"]]
    if name == "perplexity":
        # No tools there, and turns alternating: the tool messages are left out,
        # and each turn of one role in a row joined to the one before it.
        roles = [role for role in roles if role != "tool"]
        roles = [role for k, role in enumerate(roles) if k == 0 or role != roles[k - 1]]
    assert [m["role"] for m in body["messages"]] == roles
    assert body["model"] == contests.DIALECTS[name][1]
    assert len(baseline["messages"]) == len(chat["messages"])
    assert baseline["model"] == contests.MODELS["chat"]


def test_peers_left_out_say_so_in_their_columns() -> None:
    """Without the peers, every row still has interlingua's figure, and each
    peer's cell says it was left out; nothing crashes."""
    peers = standings.left_out("left out (--no-peers)")
    rows = standings.measure_standings(peers, [10], 10, 20, QUICK, lambda stage: None, quick=True)
    assert [row.path for row in rows] == list(contests.contest_names())
    out = io.StringIO()
    standings.print_standings(rows, peers.missing, out)
    printed = out.getvalue()
    for row in rows:
        assert row.ours.median > 0
        assert row.fastest is None
        assert row.ratio is None
        assert row.peers == dict.fromkeys(contests.PEERS, "left out (--no-peers)")
        line = next(line for line in printed.splitlines() if line.startswith(row.path))
        assert line.count("left out") == len(contests.PEERS), line
        assert standings.standing_json(row)["peers"]["litellm"] == {
            "missing": "left out (--no-peers)"
        }
    for peer in contests.PEERS:
        assert f"note: {peer} left out: left out (--no-peers)" in printed


def test_the_quick_run_shows_each_limit_at_two_sizes(quick_run: tuple[str, dict[str, Any]]) -> None:
    table, results = quick_run
    rows = results["sections"][limits.TITLE]
    growths = {growth["path"]: growth for growth in results["growth"]}
    for limit in limits.LIMITS:
        for api in APIS:
            for verb in ("decode", "encode"):
                path = f"limit {limit.name} ({limit.unit}): {verb} {api}"
                sizes = [row["size"] for row in rows if row["path"] == path]
                assert sizes == list(limit.quick_sizes), path
                assert growths[path]["sizes"] == list(limit.quick_sizes), path
                assert path in table


@pytest.mark.parametrize("limit", limits.LIMITS, ids=lambda limit: limit.name)
def test_each_limit_is_as_large_as_it_says(limit: limits.Limit) -> None:
    """A 20 MB image, 100,000 messages, 10 MB of arguments at full size; at the quick
    sizes, bodies of just their size that interlingua reads and writes back unchanged."""
    assert limit.sizes[1] >= 4 * limit.sizes[0]
    assert (
        limit.sizes[1]
        == {"image": 20_000, "history": 100_000, "tool arguments": 10_000}[limit.name]
    )
    for size in limit.quick_sizes:
        steps = limit.history(size)
        body = histories.chat_body(steps)
        if limit.name == "history":
            assert len(body["messages"]) == size
        elif limit.name == "image":
            url = body["messages"][1]["content"][1]["image_url"]["url"]
            assert len(url.removeprefix("data:image/png;base64,")) == size * 1000
        else:
            assert len(body["messages"][2]["tool_calls"][0]["function"]["arguments"]) == size * 1000
        for api in APIS:
            written = limits.WRITERS[api](steps)
            report = TranslationReport()
            assert (
                CODECS[api].encode_request(CODECS[api].decode_request(written), report=report)
                == written
            )
            assert not report


@pytest.fixture(scope="module")
def history() -> histories.History:
    return histories.build_history(30)


def gateway(history: histories.History, source: str, target: str) -> dict[str, Any]:
    request = CODECS[source].decode_request(history.bodies[source])
    request = request.model_copy(update={"model": API_MODELS[target]})
    body: dict[str, Any] = CODECS[target].encode_request(request, report=TranslationReport())
    return body


@pytest.mark.parametrize("api", APIS)
def test_each_body_survives_interlingua_unchanged(history: histories.History, api: str) -> None:
    codec, body = CODECS[api], history.bodies[api]
    report = TranslationReport()
    assert codec.encode_request(codec.decode_request(body), report=report) == body
    assert not report


def test_a_history_counts_its_chat_messages() -> None:
    built = histories.build_history(40)
    assert len(built.bodies["chat"]["messages"]) == 40
    assert built.bodies == histories.build_history(40).bodies  # deterministic


def test_the_dict_floor_writes_what_interlingua_writes(history: histories.History) -> None:
    chat, anthropic = history.bodies["chat"], history.bodies["anthropic"]
    assert dict_baseline.chat_request_to_anthropic(chat, API_MODELS["anthropic"]) == gateway(
        history, "chat", "anthropic"
    )
    assert dict_baseline.anthropic_request_to_chat(anthropic, API_MODELS["chat"]) == gateway(
        history, "anthropic", "chat"
    )


def test_the_dict_floor_carries_responses_as_interlingua_does() -> None:
    bodies = histories.build_responses()
    report = TranslationReport()
    as_chat = interlingua_openai.encode_response(
        interlingua_anthropic.decode_response(bodies["anthropic"]), report=report
    )
    floor_chat = dict_baseline.anthropic_response_to_chat(bodies["anthropic"])
    # Both stamp the answer with the time of writing (Anthropic's has none).
    assert abs(floor_chat.pop("created") - as_chat.pop("created")) <= 2
    assert floor_chat == as_chat
    as_anthropic = interlingua_anthropic.encode_response(
        interlingua_openai.decode_response(bodies["chat"]), report=report
    )
    assert dict_baseline.chat_response_to_anthropic(bodies["chat"]) == as_anthropic


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_the_typed_floor_writes_what_interlingua_writes(
    history: histories.History, source: str, target: str
) -> None:
    request = typed_floor.decode_request(source, history.bodies[source])
    request.model = API_MODELS[target]
    assert typed_floor.encode_request(target, request) == gateway(history, source, target)


def _summary(parts: Any) -> list[tuple[str, ...]]:
    """What both cores model of an answer's parts: kind, text, ids and arguments."""
    summary = []
    for part in parts:
        kind = getattr(part, "type", type(part).__name__)
        if kind in ("text", "TextPart"):
            summary.append(("text", part.text))
        elif kind in ("reasoning", "ReasoningPart"):
            summary.append(("reasoning", part.text, part.signature or ""))
        else:
            summary.append(("tool_call", part.id, part.name, json.loads(part.arguments)))
    return summary


@pytest.mark.parametrize("api", APIS)
def test_the_typed_floor_reads_responses_as_interlingua_does(api: str) -> None:
    body = histories.build_responses()[api]
    ours, floor = CODECS[api].decode_response(body), typed_floor.decode_response(api, body)
    assert _summary(floor.message.parts) == _summary(ours.message.parts)
    assert (floor.id, floor.model, floor.finish_reason) == (
        ours.id,
        ours.model,
        ours.finish_reason.value,
    )
    counts = (ours.usage.input_tokens, ours.usage.output_tokens, ours.usage.cache_read_tokens)
    assert (floor.usage.input_tokens, floor.usage.output_tokens, floor.usage.cache_read) == counts


@pytest.mark.parametrize("api", APIS)
def test_each_stream_accumulates_to_an_answer(api: str) -> None:
    stream = histories.build_streams(1000)[api]
    assert len(stream.payloads) == len(stream.texts) == 1000
    answer = accumulate(CODECS[api].decode_stream(stream.payloads))
    kinds = [part.type for part in answer.message.parts]
    assert kinds == (["text", "tool_call"] if api == "chat" else ["reasoning", "text", "tool_call"])
    assert answer.message.tool_calls[0].parsed_arguments()["city"] == "Porto"
    assert answer.finish_reason is not None
    assert answer.finish_reason.value == "tool_calls"
    assert not answer.warnings


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[0] != pair[1]])
def test_each_stream_carried_to_another_api_is_the_same_answer(source: str, target: str) -> None:
    """The stream rows do the whole work: the SSE bytes they write read back
    as the answer the stream gives, nothing but the reasoning left out."""
    stream = histories.build_streams(200)[source]
    report = TranslationReport()
    events = translate_stream(
        (json.loads(text) for text in stream.texts),
        source=ADAPTERS[source],
        target=ADAPTERS[target],
        report=report,
    )
    written = [
        json.loads(event.data)
        for event in parse_sse(sse_bytes(events).decode())
        if event.data != "[DONE]"
    ]
    again = accumulate(CODECS[target].decode_stream(written))
    answer = accumulate(CODECS[source].decode_stream(stream.payloads))
    assert again.text == answer.text
    assert [(c.name, c.arguments) for c in again.message.tool_calls] == [
        (c.name, c.arguments) for c in answer.message.tool_calls
    ]
    assert again.usage.output_tokens == answer.usage.output_tokens
    assert {loss.kind for loss in report.losses} <= {"dropped"}


@pytest.mark.parametrize("api", APIS)
def test_each_stream_encoded_again_accumulates_to_the_same_answer(api: str) -> None:
    stream = histories.build_streams(200)[api]
    events = list(CODECS[api].decode_stream(stream.payloads))
    text = sse_bytes(CODECS[api].encode_stream(events, report=TranslationReport())).decode()
    written = [json.loads(event.data) for event in parse_sse(text) if event.data != "[DONE]"]
    assert accumulate(CODECS[api].decode_stream(written)) == accumulate(events)


def test_the_gateway_quick_run_gives_finite_positive_figures(tmp_path: Path) -> None:
    """`bench/gateway.py --quick`: a fake upstream and the gateway on 127.0.0.1,
    each case measured; no time is asserted, only that every figure is there."""
    out = tmp_path / "gateway.json"
    command = [sys.executable, "bench/gateway.py", "--quick", "--json", str(out)]
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    cases = json.loads(out.read_text())["cases"]
    assert [case["case"] for case in cases] == ["small chat", "200-message history"]
    for case in cases:
        for name, value in case.items():
            if name in ("case", "added_p50_ms", "added_p99_ms"):
                continue  # an added time may be below zero on a noisy machine
            assert math.isfinite(value), name
            assert value > 0, name
        assert math.isfinite(case["added_p50_ms"])
        assert math.isfinite(case["added_p99_ms"])
    assert "Target:" in result.stdout


# --- Gemini --------------------------------------------------------------------


def test_the_gemini_body_survives_interlingua_unchanged() -> None:
    body = gemini.build_body(30)
    assert body["contents"][0]["role"] == "user"
    report = TranslationReport()
    decoded = interlingua_google.decode_request(body)
    assert interlingua_google.encode_request(decoded, report=report) == body
    assert not report
    # One script: the Gemini history holds the Chat Completions history's parts, and thoughts.
    chat = interlingua_openai.decode_request(histories.build_history(30).bodies["chat"])

    def parts(request: Any) -> list[tuple[str, str | None]]:
        return [
            (part.type, getattr(part, "text", None))
            for message in request.messages
            for part in message.parts
            if part.type != "reasoning"
        ]

    assert parts(decoded) == parts(chat)
    assert len(decoded.messages[2].reasoning) == 1


def test_the_gemini_answer_reads_as_its_wire_says() -> None:
    body = gemini.build_response()
    answer = interlingua_google.decode_response(body)
    candidate, usage = body["candidates"][0], body["usageMetadata"]
    parts = candidate["content"]["parts"]
    assert [part.type for part in answer.message.parts] == [
        "reasoning" if part.get("thought") else "text" if "text" in part else "tool_call"
        for part in parts
    ]
    calls = [part["functionCall"] for part in parts if "functionCall" in part]
    assert [(c.name, c.parsed_arguments()) for c in answer.message.tool_calls] == [
        (call["name"], call["args"]) for call in calls
    ]
    assert answer.raw_finish_reason == candidate["finishReason"]
    assert answer.usage.input_tokens == usage["promptTokenCount"]
    assert answer.usage.output_tokens == usage["candidatesTokenCount"] + usage["thoughtsTokenCount"]
    assert answer.usage.reasoning_tokens == usage["thoughtsTokenCount"]
    assert answer.usage.cache_read_tokens == usage["cachedContentTokenCount"]
    assert answer.usage.total_tokens == usage["totalTokenCount"]
    assert interlingua_google.encode_response(answer, report=TranslationReport()) == body


def test_the_gemini_stream_accumulates_to_what_its_chunks_say() -> None:
    payloads, texts = gemini.build_stream(200)
    assert len(payloads) == len(texts) == 200
    assert [json.loads(text) for text in texts] == payloads
    parts = [part for p in payloads for part in p["candidates"][0]["content"]["parts"]]
    answer = accumulate(interlingua_google.decode_stream(payloads))
    thought = "".join(part["text"] for part in parts if part.get("thought"))
    text = "".join(part["text"] for part in parts if "text" in part and not part.get("thought"))
    assert [part.type for part in answer.message.parts] == ["reasoning", "text", "tool_call"]
    assert answer.message.reasoning[0].text == thought
    assert answer.text == text
    call = parts[-1]["functionCall"]
    assert answer.message.tool_calls[0].parsed_arguments() == call["args"]
    assert answer.raw_finish_reason == payloads[-1]["candidates"][0]["finishReason"]
    assert answer.usage.input_tokens == payloads[-1]["usageMetadata"]["promptTokenCount"]
    assert answer.usage.total_tokens == payloads[-1]["usageMetadata"]["totalTokenCount"]
    assert not answer.warnings


# --- Bedrock's Converse ---------------------------------------------------------


def test_the_bedrock_body_survives_interlingua_unchanged() -> None:
    body = bedrock.build_body(30)
    assert body["messages"][0]["role"] == "user"
    report = TranslationReport()
    decoded = interlingua_bedrock.decode_request(body, model=bedrock.MODEL)
    assert interlingua_bedrock.encode_request(decoded, report=report) == body
    assert not report
    # One script: the Converse history holds the Chat Completions history's parts, and
    # Claude's signed thinking.
    chat = interlingua_openai.decode_request(histories.build_history(30).bodies["chat"])

    def parts(request: Any) -> list[tuple[str, str | None]]:
        return [
            (part.type, getattr(part, "text", None))
            for message in request.messages
            for part in message.parts
            if part.type != "reasoning"
        ]

    assert parts(decoded) == parts(chat)
    (thinking,) = decoded.messages[2].reasoning
    (block, *_) = body["messages"][1]["content"]
    assert (thinking.text, thinking.signature) == (
        block["reasoningContent"]["reasoningText"]["text"],
        block["reasoningContent"]["reasoningText"]["signature"],
    )


def test_the_bedrock_answer_reads_as_its_wire_says() -> None:
    body = bedrock.build_response()
    answer = interlingua_bedrock.decode_response(body)
    content, usage = body["output"]["message"]["content"], body["usage"]
    assert [part.type for part in answer.message.parts] == [
        "reasoning" if "reasoningContent" in block else "text" if "text" in block else "tool_call"
        for block in content
    ]
    uses = [block["toolUse"] for block in content if "toolUse" in block]
    assert [(c.id, c.name, c.parsed_arguments()) for c in answer.message.tool_calls] == [
        (use["toolUseId"], use["name"], use["input"]) for use in uses
    ]
    assert answer.raw_finish_reason == body["stopReason"]
    # Converse's inputTokens leaves the cache reads out, as Anthropic's input_tokens does.
    assert answer.usage.input_tokens == usage["inputTokens"] + usage["cacheReadInputTokens"]
    assert answer.usage.output_tokens == usage["outputTokens"]
    assert answer.usage.cache_read_tokens == usage["cacheReadInputTokens"]
    assert answer.usage.total_tokens == usage["totalTokens"]
    assert interlingua_bedrock.encode_response(answer, report=TranslationReport()) == body


def test_the_bedrock_stream_accumulates_to_what_its_events_say() -> None:
    events, texts = bedrock.build_stream(200)
    assert len(events) == len(texts) == 200
    assert [json.loads(text) for text in texts] == [next(iter(e.values())) for e in events]
    deltas = [e["contentBlockDelta"]["delta"] for e in events if "contentBlockDelta" in e]
    answer = accumulate(interlingua_bedrock.decode_stream(events))
    thought = "".join(
        d["reasoningContent"].get("text", "") for d in deltas if "reasoningContent" in d
    )
    arguments = "".join(d["toolUse"]["input"] for d in deltas if "toolUse" in d)
    assert [part.type for part in answer.message.parts] == ["reasoning", "text", "tool_call"]
    assert answer.message.reasoning[0].text == thought
    assert (
        answer.message.reasoning[0].signature
        == deltas[len(thought.split())]["reasoningContent"]["signature"]
    )
    assert answer.text == "".join(d["text"] for d in deltas if "text" in d)
    assert answer.message.tool_calls[0].parsed_arguments() == json.loads(arguments)
    assert answer.raw_finish_reason == events[-2]["messageStop"]["stopReason"]
    usage = events[-1]["metadata"]["usage"]
    assert answer.usage.output_tokens == usage["outputTokens"]
    assert answer.usage.total_tokens == usage["totalTokens"]
    assert not answer.warnings


# --- the peers do the work interlingua does -------------------------------------


@pytest.fixture(scope="module")
def peer_outputs() -> Any:
    """Each installed peer's output on every path it has, for 30 messages and
    streams of 200 chunks, by path then peer."""
    if not any(_installed(peer) for peer in ("litellm", "pydantic-ai")):
        pytest.skip("no peer installed: `uv sync --group bench`")
    inputs = contests.build_inputs(30, 200)
    with contextlib.ExitStack() as stack:
        peers = standings.load(stack, inputs)
        outputs: dict[str, dict[str, Any]] = {}
        for peer, entries in peers.entries.items():
            for path, entry in entries.items():
                outputs.setdefault(path, {})[peer] = entry.make(inputs)()
        yield inputs, outputs, peers.missing


def test_the_peers_carry_every_message(peer_outputs: Any) -> None:
    inputs, outputs, _ = peer_outputs
    chat = inputs.history.bodies["chat"]
    ours = translate_request(chat, source="openai", target="anthropic").body
    if "litellm" in outputs[contests.FULL_CHAT_TO_ANTHROPIC]:
        theirs = outputs[contests.FULL_CHAT_TO_ANTHROPIC]["litellm"]
        assert len(theirs["messages"]) == len(ours["messages"])
        assert len(theirs["tools"]) == len(ours["tools"])
        for path in (contests.TO_CHAT, contests.TO_MISTRAL, contests.TO_GROQ):
            assert len(outputs[path]["litellm"]["messages"]) == len(chat["messages"])
        dialects = [path for path in DIALECT_PATHS if "litellm" in outputs.get(path, {})]
        # LiteLLM writes Ollama's own /api/chat body, not the /v1 one: no entry there.
        assert dialects == [path for path in DIALECT_PATHS if DIALECT_PATHS[path] != "ollama"]
        for path in dialects:
            assert len(outputs[path]["litellm"]["messages"]) == len(chat["messages"]), path
        gemini_body = outputs[contests.FULL_CHAT_TO_GEMINI]["litellm"]
        ours_gemini = translate_request(chat, source="openai", target="google").body
        # interlingua joins a user remark to the results before it, as one turn.
        assert sum(len(c["parts"]) for c in gemini_body["contents"]) == sum(
            len(c["parts"]) for c in ours_gemini["contents"]
        )
    if "pydantic-ai" in outputs[contests.TO_GEMINI]:
        _, contents = outputs[contests.TO_GEMINI]["pydantic-ai"]
        assert len(contents) == len(inputs.gemini["contents"])
        signed = [p for c in contents for p in c["parts"] if p.get("thought_signature")]
        model_turns = [c for c in inputs.gemini["contents"] if c["role"] == "model"]
        assert len(signed) == len(model_turns)  # every turn's signature went back
        system, messages = outputs[contests.OWN_TO_ANTHROPIC]["pydantic-ai"]
        assert system
        assert len(messages) == len(inputs.history.bodies["anthropic"]["messages"])
        system, messages = outputs[contests.TO_BEDROCK]["pydantic-ai"]
        assert system == inputs.bedrock["system"]
        assert len(messages) == len(inputs.bedrock["messages"])
        signed = [b for m in messages for b in m["content"] if "reasoningContent" in b]
        assert len(signed) == sum(m["role"] == "assistant" for m in inputs.bedrock["messages"])


def test_litellm_writes_a_converse_body_of_the_same_history(peer_outputs: Any) -> None:
    inputs, outputs, _ = peer_outputs
    if "litellm" not in outputs[contests.TO_BEDROCK]:
        pytest.skip("LiteLLM is not installed: `uv sync --group bench`")
    theirs, ours = outputs[contests.TO_BEDROCK]["litellm"], inputs.bedrock
    assert len(theirs["messages"]) == len(ours["messages"])
    assert [m["role"] for m in theirs["messages"]] == [m["role"] for m in ours["messages"]]
    assert theirs["system"] == ours["system"]
    names = [tool["toolSpec"]["name"] for tool in theirs["toolConfig"]["tools"]]
    assert names == [tool["toolSpec"]["name"] for tool in ours["toolConfig"]["tools"]]


def test_the_peers_read_the_same_answers(peer_outputs: Any) -> None:
    inputs, outputs, _ = peer_outputs
    for api, path in (
        ("anthropic", contests.ANTHROPIC_RESPONSE),
        ("chat", contests.CHAT_RESPONSE),
        ("gemini", contests.GEMINI_RESPONSE),
        ("bedrock", contests.BEDROCK_RESPONSE),
    ):
        ours = contests.CODECS[api].decode_response(inputs.responses[api])
        if "litellm" in outputs[path]:
            theirs = outputs[path]["litellm"]
            assert theirs.choices[0].finish_reason == "tool_calls", api
            assert theirs.usage.prompt_tokens == ours.usage.input_tokens, api
            assert len(theirs.choices[0].message.tool_calls) == len(ours.message.tool_calls)
        if "pydantic-ai" in outputs[path]:
            theirs = outputs[path]["pydantic-ai"]
            assert theirs.usage.input_tokens == ours.usage.input_tokens, api
            assert theirs.usage.output_tokens == ours.usage.output_tokens, api
            assert len(theirs.tool_calls) == len(ours.message.tool_calls), api


def test_the_peers_accumulate_the_same_streams(peer_outputs: Any) -> None:
    inputs, outputs, _ = peer_outputs
    for api, path in (
        ("anthropic", contests.ANTHROPIC_STREAM),
        ("chat", contests.CHAT_STREAM),
        ("gemini", contests.GEMINI_STREAM),
        ("bedrock", contests.BEDROCK_STREAM),
    ):
        ours = accumulate(contests.CODECS[api].decode_stream(inputs.streams[api].payloads))
        call = ours.message.tool_calls[0]
        if "litellm" in outputs[path]:
            message = outputs[path]["litellm"].choices[0].message
            assert message.content == ours.text, api
            assert json.loads(message.tool_calls[0].function.arguments) == json.loads(
                call.arguments
            )
    sdk = outputs[contests.ANTHROPIC_STREAM].get("sdk")
    if sdk is not None:
        assert [block.type for block in sdk.content] == ["thinking", "text", "tool_use"]
        chat = outputs[contests.CHAT_STREAM]["sdk"].choices[0].message
        answer = accumulate(interlingua_openai.decode_stream(inputs.streams["chat"].payloads))
        assert chat.content == answer.text


def _peers_run(tmp_path: Path, *flags: str) -> tuple[list[dict[str, Any]], list[str], str]:
    out = tmp_path / "peers.json"
    command = [sys.executable, "bench/gateway_peers.py", "--tiny", "--json", str(out), *flags]
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=400, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    figures = json.loads(out.read_text())
    return figures["rows"], figures["notes"], result.stdout


def _assert_measured(rows: list[dict[str, Any]], ways: list[str]) -> None:
    assert [row["way"] for row in rows] == ["direct", *ways]
    for row in rows:
        assert row["requests"] == 5, row["way"]
        for name in ("p50_ms", "p99_ms", "p50_ratio", "rps", "rps_ratio"):
            assert math.isfinite(row[name]), (row["way"], name)
            assert row[name] > 0, (row["way"], name)
        assert row["p99_ms"] >= row["p50_ms"], row["way"]
        if row["way"] != "direct":  # each server's own overhead header was read
            assert math.isfinite(row["own_overhead_p50_ms"]), row["way"]
            assert row["own_overhead_p50_ms"] > 0, row["way"]
    assert rows[0]["p50_ratio"] == rows[0]["rps_ratio"] == 1.0


def test_the_gateway_beside_its_peers_runs_on_a_tiny_load(tmp_path: Path) -> None:
    """`bench/gateway_peers.py --tiny`: a fake Anthropic upstream, the gateway on
    uvicorn's default stack and on h11 and asyncio, a handful of requests each,
    every answer checked to carry the recorded text; no time is asserted."""
    rows, notes, printed = _peers_run(tmp_path, "--no-litellm")
    _assert_measured(rows, ["interlingua gateway", "gateway on h11, asyncio"])
    assert notes == []
    assert all(row["rps_against_litellm"] == 0.0 for row in rows)
    assert "gateway on h11, asyncio" in printed


@pytest.mark.skipif(
    os.environ.get("INTERLINGUA_BENCH_LITELLM") != "1",
    reason="LiteLLM's proxy takes minutes to install and start: INTERLINGUA_BENCH_LITELLM=1",
)
def test_litellm_s_proxy_is_measured_beside_the_gateway(tmp_path: Path) -> None:
    """LiteLLM's proxy, from uv's tool environment, runs against the same fake
    upstream, and every way's requests per second are put against its."""
    rows, notes, _ = _peers_run(tmp_path)
    assert notes == []
    _assert_measured(rows, ["interlingua gateway", "gateway on h11, asyncio", "LiteLLM proxy"])
    litellm = rows[-1]["rps"]
    for row in rows:
        assert row["rps_against_litellm"] == pytest.approx(row["rps"] / litellm)
