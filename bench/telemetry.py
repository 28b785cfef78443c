"""What the OpenTelemetry instrumentation costs a client call when nothing
collects it: `opentelemetry-api` installed, no tracer or meter provider set.

Run from the repository root:

    uv run python bench/telemetry.py            # about ten seconds
    uv run python bench/telemetry.py --quick

A Groq client (the real `groq` SDK) calls an in-process HTTP transport that
answers at once with a recorded body (`fixtures/groq/reasoning_with_temperature.json`)
or a recorded stream (`fixtures/groq/stream_reasoning_usage.json`), so the
figure is the client's own work: encoding, the SDK, decoding, and the
instrumentation. Each call is timed with the instrumentation (a span that does
not record, the no-op histograms) against the same call with it absent (the
path taken without OpenTelemetry: `interlingua._telemetry.NO_CALL`, and no
trace context looked for), sampled in
turn in the same run; the ratio is the figure that counts. A third row sets
the SDK's tracer provider (spans recorded, exported nowhere), for scale.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import groq
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import interlingua.client
from bench.timing import Settings, measure
from interlingua import accumulate
from interlingua._telemetry import NO_CALL, client_call, traced
from interlingua.testing import load_cassette
from interlingua_groq import GroqClient, decode_request

ROOT = Path(__file__).resolve().parents[1]
WHOLE = ROOT / "fixtures/groq/reasoning_with_temperature.json"
STREAMED = ROOT / "fixtures/groq/stream_reasoning_usage.json"
FULL = Settings(
    min_samples=7, max_samples=15, budget_ns=1_000_000_000, min_sample_ns=20_000_000,
    import_runs=0, memory_runs=0,
)  # fmt: skip
QUICK = Settings(
    min_samples=3, max_samples=3, budget_ns=0, min_sample_ns=1_000_000,
    import_runs=0, memory_runs=0, warmups=1,
)  # fmt: skip


def _answer(path: Path) -> tuple[Any, bytes, str]:
    """The recorded request (decoded), the answer's bytes and its content type."""
    interaction = load_cassette(path).interactions[0]
    assert interaction.request is not None
    request = decode_request(interaction.request.json)
    response = interaction.response
    if response.events is None:
        return request, json.dumps(response.json).encode(), "application/json"
    frames = [f"data: {json.dumps(p)}\n\n" for p in response.stream_payloads()]
    return request, ("".join(frames) + "data: [DONE]\n\n").encode(), "text/event-stream"


def _client(content: bytes, media_type: str) -> GroqClient:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=content, headers={"content-type": media_type})

    http = httpx.Client(transport=httpx.MockTransport(answer))
    return GroqClient(groq.Groq(api_key="sk-test", max_retries=0, http_client=http))


def _absent(*args: object, **kwargs: object) -> Any:
    return NO_CALL


def _untraced(headers: Any) -> Any:
    return headers  # no trace context looked for: as without OpenTelemetry


def _steps(path: Path) -> tuple[Callable[[], object], Callable[[], object]]:
    """The call with the instrumentation, and the same call without it."""
    request, content, media_type = _answer(path)
    client = _client(content, media_type)
    streamed = media_type == "text/event-stream"

    def call() -> object:
        return accumulate(client.stream(request)) if streamed else client.complete(request)

    def instrumented() -> object:
        interlingua.client.client_call = client_call  # type: ignore[attr-defined]
        interlingua._sdk_binding.traced = traced  # type: ignore[attr-defined]
        return call()

    def absent() -> object:
        interlingua.client.client_call = _absent  # type: ignore[attr-defined]
        interlingua._sdk_binding.traced = _untraced  # type: ignore[attr-defined]
        return call()

    return instrumented, absent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few samples")
    settings = QUICK if parser.parse_args(argv).quick else FULL
    print(f"{'call':<40} {'ours (us)':>10} {'absent (us)':>12} {'ratio':>7}")
    rows = [("complete, no tracer provider", WHOLE), ("stream, no tracer provider", STREAMED)]
    for label, path in rows:
        pair = measure(*_steps(path), settings)
        ours, base = pair.ours.median / 1000, pair.base.median / 1000
        print(f"{label:<40} {ours:>10.1f} {base:>12.1f} {pair.ratio:>7.3f}")
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider

    trace.set_tracer_provider(TracerProvider())  # spans recorded, exported nowhere
    pair = measure(*_steps(WHOLE), settings)
    ours, base = pair.ours.median / 1000, pair.base.median / 1000
    label = "complete, SDK tracer provider"
    print(f"{label:<40} {ours:>10.1f} {base:>12.1f} {pair.ratio:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
