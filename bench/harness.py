"""The benchmark run: what is measured against what, and the targets.

For each history size and each API (Anthropic, Chat Completions, the
Responses API): decoding a request body, encoding the core request (the one
decoding made), and the gateway path for each ordered pair of APIs
(`B.encode_request(A.decode_request(body).model_copy(update={"model": ...}))`).
Then decoding a response body, a response carried between Chat Completions
and Anthropic, decoding and accumulating a stream, encoding a stream's core
events to each API's SSE bytes (`format_sse(encode_stream(events))`, against
`json.dumps` of the API's own chunks), a stream carried between each ordered
pair of APIs (its SSE `data:` texts parsed, `translate_stream`, written as SSE
bytes; against parsing and writing back every chunk, what a proxy that
translates nothing does), saving and loading a `ChatHistory`, import times
in fresh processes and the memory of a decoded history; then the limits
(`bench.limits`: a 20 MB image, 100,000 messages, 10 MB of tool arguments,
each also at a smaller size). Every encoder gets a `TranslationReport()`:
losses (reasoning another provider made, settings a target has not) are
expected, and no warning is raised. Last, the peers' table (`bench.standings`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from types import ModuleType

import interlingua_anthropic
import interlingua_openai
import interlingua_openai.responses
from bench import dict_baseline, standings, typed_floor
from bench.contests import build_inputs
from bench.histories import (
    API_MODELS,
    APIS,
    History,
    Stream,
    build_history,
    build_responses,
    build_streams,
)
from bench.limits import TITLE as LIMITS_TITLE
from bench.limits import limit_rows
from bench.report import Growth, Row, growth_rows, print_table, write_json
from bench.standings import Standing, print_standings, standing_json
from bench.timing import Figure, Pair, Settings, import_times, measure, retained_bytes
from interlingua import (
    ChatHistory,
    StreamEvent,
    TranslationReport,
    WireEvent,
    accumulate,
    format_sse,
    translate_stream,
)

__all__ = ["main"]

Step = Callable[[], object]
Sections = list[tuple[str, list[Row]]]

CODECS: dict[str, ModuleType] = {
    "anthropic": interlingua_anthropic,
    "chat": interlingua_openai,
    "responses": interlingua_openai.responses,
}
# The adapter names `translate_stream` takes, by API.
ADAPTERS = {"anthropic": "anthropic", "chat": "openai", "responses": "openai-responses"}
IMPORTS = (
    "interlingua",
    "interlingua_anthropic",
    "interlingua_openai",
    "interlingua_openai.responses",
    "interlingua_google",
    "interlingua_bedrock",
)
IMPORT_BASELINE = ("pydantic.main",)  # pydantic's BaseModel: the core's one dependency

# The targets: the most each ratio may be.
GATEWAY_TARGET = 3.0  # Chat Completions <-> Anthropic, over the dict-to-dict floor
ENCODE_TARGET = 2.0  # core to a provider's body, over the typed floor
DECODE_TARGET = 3.0  # a provider's body to core (requests and responses), over the typed floor
STREAM_TARGET = 2.0  # decode and accumulate, over json.loads of the chunks
MEMORY_TARGET = 2.0  # a decoded history, over the parsed JSON body
IMPORT_TARGET_NS = 150_000_000

FULL = Settings(
    min_samples=7, max_samples=15, budget_ns=1_500_000_000, min_sample_ns=20_000_000,
    import_runs=5, memory_runs=2,
)  # fmt: skip
QUICK = Settings(
    min_samples=3, max_samples=3, budget_ns=0, min_sample_ns=1_000_000,
    import_runs=1, memory_runs=1, warmups=1, import_warmup=False,
)  # fmt: skip


@dataclass(frozen=True)
class Plan:
    sizes: tuple[int, ...]
    chunks: int
    settings: Settings
    peers: bool
    json_path: str | None
    limits: bool = True
    quick: bool = False
    peer_sizes: tuple[int, ...] = (1000,)  # the peers' table's history sizes
    memory_size: int = 10_000  # the history of the peers' memory row
    peers_only: bool = False


def parse_args(argv: Sequence[str] | None) -> Plan:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, few repeats")
    parser.add_argument(
        "--sizes", help="history sizes, comma-separated (default 10,100,1000,10000)"
    )
    parser.add_argument(
        "--peer-sizes", help="the peers' table's history sizes, comma-separated (default 1000)"
    )
    parser.add_argument(
        "--memory-size", type=int, help="messages of the peers' memory row (default 10000)"
    )
    parser.add_argument("--rounds", type=int, help="samples of every timed figure (default 7-15)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    parser.add_argument(
        "--no-peers", action="store_true", help="leave LiteLLM, pydantic-ai and the SDKs out"
    )
    parser.add_argument("--no-limits", action="store_true", help="leave the limits rows out")
    parser.add_argument(
        "--peers-only", action="store_true", help="the peers' table alone, no other section"
    )
    args = parser.parse_args(argv)
    default_sizes = "10,40" if args.quick else "10,100,1000,10000"
    sizes = _sizes(args.sizes or default_sizes)
    settings = QUICK if args.quick else FULL
    if args.rounds:
        settings = replace(settings, min_samples=args.rounds, max_samples=args.rounds)
    return Plan(
        sizes=sizes,
        chunks=200 if args.quick else 1000,
        settings=settings,
        peers=not args.no_peers,
        json_path=args.json,
        limits=not args.no_limits,
        quick=args.quick,
        peer_sizes=_sizes(args.peer_sizes or str(sizes[-1] if args.quick else 1000)),
        memory_size=args.memory_size or (sizes[-1] if args.quick else 10_000),
        peers_only=args.peers_only,
    )


def _sizes(text: str) -> tuple[int, ...]:
    return tuple(sorted({int(size) for size in text.split(",")}))


# --- requests ------------------------------------------------------------------


def request_rows(history: History, settings: Settings) -> list[Row]:
    rows = [_decode_request_row(history, api, settings) for api in APIS]
    rows += [_encode_request_row(history, api, settings) for api in APIS]
    rows += [
        _gateway_row(history, source, target, settings)
        for source in APIS
        for target in APIS
        if source != target
    ]
    return rows


def _decode_request_row(history: History, api: str, settings: Settings) -> Row:
    body, decode = history.bodies[api], CODECS[api].decode_request
    pair = measure(lambda: decode(body), lambda: typed_floor.decode_request(api, body), settings)
    return Row(f"decode {api} request", history.size, pair, "typed floor", DECODE_TARGET)


def _encode_request_row(history: History, api: str, settings: Settings) -> Row:
    encode = CODECS[api].encode_request
    core = CODECS[api].decode_request(history.bodies[api])
    typed = typed_floor.decode_request(api, history.bodies[api])
    pair = measure(
        lambda: encode(core, report=TranslationReport()),
        lambda: typed_floor.encode_request(api, typed),
        settings,
    )
    return Row(f"encode {api} request", history.size, pair, "typed floor", ENCODE_TARGET)


def gateway_step(history: History, source: str, target: str) -> Step:
    body, model = history.bodies[source], API_MODELS[target]
    decode, encode = CODECS[source].decode_request, CODECS[target].encode_request
    return lambda: encode(
        decode(body).model_copy(update={"model": model}), report=TranslationReport()
    )


def gateway_floor(history: History, source: str, target: str) -> tuple[Step, str]:
    """The hand-written converter for the pair: dict to dict between Chat
    Completions and Anthropic, through the typed floor for the others."""
    body, model = history.bodies[source], API_MODELS[target]
    if (source, target) == ("chat", "anthropic"):
        return lambda: dict_baseline.chat_request_to_anthropic(body, model), "dict floor"
    if (source, target) == ("anthropic", "chat"):
        return lambda: dict_baseline.anthropic_request_to_chat(body, model), "dict floor"

    def through_typed() -> object:
        request = typed_floor.decode_request(source, body)
        request.model = model
        return typed_floor.encode_request(target, request)

    return through_typed, "typed floor"


def _gateway_row(history: History, source: str, target: str, settings: Settings) -> Row:
    floor, kind = gateway_floor(history, source, target)
    pair = measure(gateway_step(history, source, target), floor, settings)
    goal = GATEWAY_TARGET if kind == "dict floor" else None
    return Row(f"gateway {source} -> {target} request", history.size, pair, kind, goal)


# --- responses, streams, histories -----------------------------------------------


def response_rows(settings: Settings) -> list[Row]:
    bodies = build_responses()
    rows = [_decode_response_row(api, bodies[api], settings) for api in APIS]
    rows += [
        _response_gateway_row("anthropic", "chat", bodies, settings),
        _response_gateway_row("chat", "anthropic", bodies, settings),
    ]
    return rows


def _decode_response_row(api: str, body: dict[str, object], settings: Settings) -> Row:
    decode = CODECS[api].decode_response
    pair = measure(lambda: decode(body), lambda: typed_floor.decode_response(api, body), settings)
    return Row(f"decode {api} response", None, pair, "typed floor", DECODE_TARGET)


_RESPONSE_FLOORS = {
    ("anthropic", "chat"): dict_baseline.anthropic_response_to_chat,
    ("chat", "anthropic"): dict_baseline.chat_response_to_anthropic,
}


def _response_gateway_row(
    source: str, target: str, bodies: dict[str, dict[str, object]], settings: Settings
) -> Row:
    body, floor = bodies[source], _RESPONSE_FLOORS[source, target]
    decode, encode = CODECS[source].decode_response, CODECS[target].encode_response
    pair = measure(
        lambda: encode(decode(body), report=TranslationReport()), lambda: floor(body), settings
    )
    return Row(f"gateway {source} -> {target} response", None, pair, "dict floor")


def stream_rows(chunks: int, settings: Settings) -> list[Row]:
    streams = build_streams(chunks)
    rows = [_stream_row(api, stream, settings) for api, stream in streams.items()]
    rows += [_encode_stream_row(api, stream, settings) for api, stream in streams.items()]
    rows += [
        _stream_gateway_row(source, target, streams[source], settings)
        for source in APIS
        for target in APIS
        if source != target
    ]
    return rows


def _stream_row(api: str, stream: Stream, settings: Settings) -> Row:
    decode, payloads, texts = CODECS[api].decode_stream, stream.payloads, stream.texts
    pair = measure(
        lambda: accumulate(decode(payloads)),
        lambda: [json.loads(text) for text in texts],
        settings,
    )
    return Row(
        f"stream {api}: decode + accumulate", len(payloads), pair, "json.loads", STREAM_TARGET
    )


def sse_bytes(events: Iterable[WireEvent]) -> bytes:
    """What a gateway sends: the events as one body of SSE bytes."""
    return b"".join(format_sse(events))


def _dumped(payloads: list[dict[str, object]]) -> list[str]:
    return [json.dumps(payload, separators=(",", ":")) for payload in payloads]


def _encode_stream_row(api: str, stream: Stream, settings: Settings) -> Row:
    encode, payloads = CODECS[api].encode_stream, stream.payloads
    events: list[StreamEvent] = list(CODECS[api].decode_stream(payloads))
    pair = measure(
        lambda: sse_bytes(encode(events, report=TranslationReport())),
        lambda: _dumped(payloads),
        settings,
    )
    return Row(f"stream {api}: encode + SSE bytes", len(payloads), pair, "json.dumps")


def _stream_gateway_row(source: str, target: str, stream: Stream, settings: Settings) -> Row:
    texts, names = stream.texts, (ADAPTERS[source], ADAPTERS[target])

    def translated() -> bytes:
        payloads = (json.loads(text) for text in texts)
        report = TranslationReport()
        return sse_bytes(
            translate_stream(payloads, source=names[0], target=names[1], report=report)
        )

    pair = measure(translated, lambda: [json.dumps(json.loads(text)) for text in texts], settings)
    return Row(f"gateway {source} -> {target} stream", len(texts), pair, "loads+dumps")


def history_rows(history: History, settings: Settings) -> list[Row]:
    """Saving and loading a `ChatHistory`, against dumping and parsing its JSON."""
    core = interlingua_anthropic.decode_request(history.bodies["anthropic"])
    saved = ChatHistory(messages=list(core.messages))
    text = saved.to_json(indent=None)
    document = json.loads(text)
    return [
        Row(
            "ChatHistory.to_json",
            history.size,
            measure(lambda: saved.to_json(indent=None), lambda: json.dumps(document), settings),
            "json.dumps",
        ),
        Row(
            "ChatHistory.from_json",
            history.size,
            measure(lambda: ChatHistory.from_json(text), lambda: json.loads(text), settings),
            "json.loads",
        ),
    ]


# --- imports and memory --------------------------------------------------------


def import_rows(settings: Settings) -> list[Row]:
    return [_import_row(module, settings) for module in IMPORTS]


def _import_row(module: str, settings: Settings) -> Row:
    result, base = import_times(module, IMPORT_BASELINE, settings)
    checks = (
        ("< 150 ms", result.figure.median < IMPORT_TARGET_NS),
        ("no SDK", not result.sdks),
    )
    own = (result.figure.median - base.median) / 1e6
    notes = (
        f"loaded after the import: provider SDKs {', '.join(result.sdks) or 'none'};"
        f" HTTP clients {', '.join(result.http) or 'none'}; {own:.0f} ms more than pydantic's",
        "self time by package (-X importtime): "
        + ", ".join(f"{name} {ns / 1e6:.0f} ms" for name, ns in result.packages[:5]),
    )
    pair = Pair(result.figure, base)
    return Row(f"import {module}", None, pair, "pydantic", checks=checks, notes=notes)


def memory_rows(history: History, settings: Settings) -> list[Row]:
    """A history decoded from each body, and the typed floor's, against the body
    as parsed JSON; what is counted is what stays allocated."""
    return [row for api in APIS for row in _memory_rows(history, api, settings)]


def _memory_rows(history: History, api: str, settings: Settings) -> list[Row]:
    text, decode = history.texts[api], CODECS[api].decode_request

    def allocated(make: Step) -> Figure:
        return Figure(tuple(float(n) for n in retained_bytes(make, settings.memory_runs)))

    dicts = allocated(lambda: json.loads(text))
    core = allocated(lambda: decode(json.loads(text)))
    typed = allocated(lambda: typed_floor.decode_request(api, json.loads(text)))
    size = history.size
    return [
        Row(f"memory: core from {api} body", size, Pair(core, dicts), "parsed JSON",
            MEMORY_TARGET, unit="bytes"),
        Row(f"memory: typed floor from {api}", size, Pair(typed, dicts), "parsed JSON",
            unit="bytes"),
    ]  # fmt: skip


# --- the run -------------------------------------------------------------------


def _by_path(rows: list[Row]) -> list[Row]:
    """Rows of one path together, in the order paths first appear, sizes rising."""
    order: dict[str, int] = {}
    for row in rows:
        order.setdefault(row.path, len(order))
    return sorted(rows, key=lambda row: (order[row.path], row.size or 0))


class Progress:
    """One line on stderr per stage, with the time since the run began."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def __call__(self, stage: str) -> None:
        elapsed = time.perf_counter() - self.start
        print(f"[{elapsed:6.1f} s] {stage}", file=sys.stderr, flush=True)


def measure_peers(plan: Plan, progress: Progress) -> tuple[list[Standing], dict[str, str]]:
    """The peers' table, measured last: importing the peers leaves half a million
    objects behind, which every `gc.collect()` after would walk."""
    with ExitStack() as stack:
        if plan.peers:
            progress("peers: importing")
            peers = standings.load(stack, build_inputs(10, 20))
        else:
            peers = standings.left_out("left out (--no-peers)")
        sizes = (plan.peer_sizes, plan.memory_size, plan.chunks)
        rows = standings.measure_standings(peers, *sizes, plan.settings, progress, quick=plan.quick)
    return rows, dict(peers.missing)


@dataclass(frozen=True)
class Results:
    sections: Sections
    peers: list[Standing]
    missing: dict[str, str]  # by peer: why it has no figures


def run(plan: Plan) -> Results:
    progress = Progress()
    sections = [] if plan.peers_only else _sections(plan, progress)
    peers, missing = measure_peers(plan, progress)
    progress("done")
    return Results(sections, peers, missing)


def _sections(plan: Plan, progress: Progress) -> Sections:
    settings = plan.settings
    requests: list[Row] = []
    saved: list[Row] = []
    memory: list[Row] = []
    history_size = max([s for s in plan.sizes if s <= 1000] or plan.sizes[:1])
    for size in plan.sizes:
        progress(f"{size:,} messages: requests")
        history = build_history(size)
        requests += request_rows(history, settings)
        if size == history_size:
            progress(f"{size:,} messages: ChatHistory")
            saved = history_rows(history, settings)
        if size == plan.sizes[-1]:
            progress(f"{size:,} messages: memory")
            memory = memory_rows(history, settings)
    progress("responses")
    responses = response_rows(settings)
    progress("streams")
    streams = stream_rows(plan.chunks, settings)
    progress("imports")
    imports = import_rows(settings)
    limits = limit_rows(settings, quick=plan.quick, progress=progress) if plan.limits else []
    return [
        ("Requests: decode, encode, gateway (A's body -> core -> B's body)", _by_path(requests)),
        ("Responses", responses),
        (f"Streams of {plan.chunks:,} chunks", streams),
        ("ChatHistory saved and loaded", saved),
        ("Imports, in fresh processes (baseline: pydantic's BaseModel)", imports),
        ("Memory of a decoded history (bytes still allocated)", memory),
        (LIMITS_TITLE, limits),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    plan = parse_args(argv)
    results = run(plan)
    sections = results.sections
    growths: list[Growth] = []
    if sections:  # the requests and the limits: the paths measured at more than one size
        growths = growth_rows(sections[0][1]) + growth_rows(dict(sections)[LIMITS_TITLE])
        print_table(sections, growths, [])
    print_standings(results.peers, results.missing)
    if plan.json_path:
        notes = [f"{peer} left out: {reason}" for peer, reason in results.missing.items()]
        peers = {"peers": [standing_json(row) for row in results.peers]}
        write_json(plan.json_path, sections, growths, notes, extra=peers)
    return 0
