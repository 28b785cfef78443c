"""interlingua's benchmarks: every translation path against a hand-written floor.

Run from the repository root:

    uv run python bench/run.py                # the full run: a few minutes
    uv run python bench/run.py --quick        # tiny sizes, few repeats, no peers: seconds
    uv run python bench/run.py --sizes 10,1000 --json results.json

One run measures, for histories of 10, 100, 1,000 and 10,000 messages in each
API's wire format (Anthropic, Chat Completions, the Responses API): decoding a
request, encoding a core request and the gateway path between each pair of
APIs; then decoding responses, decoding and accumulating streams of 1,000
chunks, saving and loading a `ChatHistory`, import times in fresh processes
(and whether a provider SDK came with the import), and the memory of a
decoded history. Each figure is a median with its interquartile range and a
ratio to a baseline measured in the same run, sampled in turn with it: the
machine may be shared and noisy, so the ratios are the figures that count.
The baselines are written in `bench/`: `dict_baseline` (Chat Completions and
Anthropic bodies converted dict to dict) and `typed_floor` (plain `__slots__`
classes with hand-written converters). `uv sync --group bench` installs the
peers, LiteLLM and pydantic-ai, measured side by side where installed.
"""

import sys
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, the folder `bench/` heads sys.path: make it the package.
    sys.path[0] = str(Path(__file__).resolve().parents[1])
    from bench.harness import main

    raise SystemExit(main())
