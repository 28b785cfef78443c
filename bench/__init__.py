"""interlingua's benchmark harness: run it with `uv run python bench/run.py`.

`histories` builds the conversations, responses and streams in each API's
wire format; `dict_baseline` and `typed_floor` are the hand-written
converters interlingua is measured against; `timing` measures, `peers` runs
LiteLLM and pydantic-ai where installed, and `run` puts it all in one table.
"""
