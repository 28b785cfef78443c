"""The OpenAI Agents SDK against the gateway, one case a run (bench/agents).

    python agents_sdk.py <model class> <case> <base url> <model>

Run by the Python of its own venv (openai-agents installed, not this
project). model class: `responses` (OpenAIResponsesModel) or `chat`
(OpenAIChatCompletionsModel); case: tool (a tool loop), stream (the same,
`Runner.run_streamed`), structured (a tool, then `output_type`), 429 (the tool
loop, whose first answer is a 429), broken (streamed, whose first stream is
cut). The key is INTERLINGUA_GATEWAY_KEY; tracing, which would send spans to
OpenAI, is off. Prints one JSON line: {"text", "object", "error"}.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any, Literal

from agents import (
    Agent,
    OpenAIChatCompletionsModel,
    OpenAIResponsesModel,
    Runner,
    function_tool,
    set_tracing_disabled,
)
from openai import AsyncOpenAI
from pydantic import BaseModel

TOOL_WORD = "interlingua-tool-ok"
PROMPT = "What is the weather in Lisbon? Use the tool, then answer in one sentence."


class Forecast(BaseModel):
    city: str
    conditions: Literal["lisbon", "sunny", "rain"]
    temperature: float
    warnings: list[str]


@function_tool
def get_weather(city: str) -> str:
    """Gives the weather in a city now.

    Args:
        city: The city's name.
    """
    return f"{TOOL_WORD}: 21 C and sunny in {city}"


async def run(kind: str, case: str, base_url: str, model_name: str) -> dict[str, Any]:
    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=f"{base_url}/v1", api_key=os.environ["INTERLINGUA_GATEWAY_KEY"])
    model: Any
    if kind == "chat":
        model = OpenAIChatCompletionsModel(model=model_name, openai_client=client)
    else:
        model = OpenAIResponsesModel(model=model_name, openai_client=client)
    agent = Agent(
        name="Weather",
        instructions="You answer questions about the weather, using the tool.",
        tools=[get_weather],
        model=model,
        output_type=Forecast if case == "structured" else None,
    )
    if case in ("stream", "broken"):
        streamed = Runner.run_streamed(agent, PROMPT)
        async for _ in streamed.stream_events():
            pass
        output = streamed.final_output
    else:
        output = (await Runner.run(agent, PROMPT)).final_output
    if isinstance(output, BaseModel):
        return {"object": output.model_dump(), "text": output.model_dump_json()}
    return {"text": str(output)}


def main() -> int:
    kind, case, base_url, model_name = sys.argv[1:5]
    try:
        print(json.dumps(asyncio.run(run(kind, case, base_url, model_name))))
    except Exception as error:  # the lane's failure, named in the table
        print(json.dumps({"error": f"{type(error).__name__}: {error}"[:500]}))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
