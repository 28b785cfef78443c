"""interlingua's benchmarks: every translation path against a hand-written floor,
and beside its peers.

Run from the repository root:

    uv run python bench/run.py                # the full run: several minutes
    uv run python bench/run.py --quick        # tiny sizes, few repeats: a minute or more
    uv run python bench/run.py --sizes 10,1000 --json results.json
    uv run python bench/run.py --peers-only --rounds 9    # the peers' table alone

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
classes with hand-written converters).

Last comes the peers' table (`bench.contests`, `bench.standings`): for a
history of 1,000 messages (`--peer-sizes`) to each provider's body (Anthropic,
Chat Completions, Mistral, Groq, Gemini, Bedrock's Converse, and each Chat
Completions dialect: DeepSeek, Cerebras, Ollama, OpenAI-compatible,
OpenRouter, xAI, Perplexity, each beside the Chat Completions encoder too),
the gateway's full path between bodies, a Chat Completions and an Anthropic
body to the core request (beside `ChatRequest.model_validate` of the same
tree, pydantic's floor of a decoder), each API's response body to a response
object, each stream of 1,000 chunks to its answer, the imports and the memory
of a 10,000-message history (`--memory-size`), interlingua and each peer are
timed in turn, and the table gives interlingua's ratio to the fastest peer of
each row. `uv sync --group bench` installs the peers, LiteLLM and pydantic-ai;
the provider SDKs' own stream accumulation is the third column. A peer not
installed is left out, and its cells say so; `--no-peers` leaves them all out.
`--rounds N` takes N samples of every timed figure.
"""

import sys
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, the folder `bench/` heads sys.path: make it the package.
    sys.path[0] = str(Path(__file__).resolve().parents[1])
    from bench.harness import main

    raise SystemExit(main())
