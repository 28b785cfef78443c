"""The peers, where installed (`uv sync --group bench`): LiteLLM and pydantic-ai.

Each does, offline and without a key, the work of one of interlingua's paths,
and is measured against the same baseline:

- LiteLLM: its Anthropic transformation of a Chat Completions request
  (`AnthropicConfig.map_openai_params` then `transform_request`) and its
  Anthropic-to-OpenAI adapter (`LiteLLMAnthropicMessagesAdapter
  .translate_anthropic_to_openai`), both from the parsed request body;
- pydantic-ai: its message mapping from its own history (`ModelRequest` and
  `ModelResponse`, built from the same script) to Anthropic's messages
  (`AnthropicModel._map_message`) and to Chat Completions'
  (`OpenAIChatModel._map_messages`), awaited on one event loop.

A peer that is not installed, or fails to run, is left out with the reason.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from bench import histories
from bench.histories import History

__all__ = ["PeerPath", "load_peers"]

Step = Callable[[], object]


@dataclass(frozen=True)
class PeerPath:
    """A peer's way through the work of interlingua's path `like`."""

    peer: str
    like: str
    make: Callable[[History], Step]
    note: str


def load_peers(stack: ExitStack) -> tuple[list[PeerPath], list[str]]:
    """The peers' paths, and why any peer was left out; what they hold open is
    closed with `stack`."""
    paths: list[PeerPath] = []
    notes: list[str] = []
    for name, loader in (("litellm", _litellm), ("pydantic-ai", _pydantic_ai)):
        try:
            found = loader(stack)
            for path in found:  # one small run each, so a peer that fails says so here
                path.make(histories.build_history(10))()
        except ImportError as exc:
            notes.append(f"{name} left out: not installed ({exc.name}); `uv sync --group bench`")
        except Exception as exc:
            notes.append(f"{name} left out: {type(exc).__name__}: {exc}")
        else:
            paths += found
    return paths, notes


# --- LiteLLM -------------------------------------------------------------------


def _litellm(stack: ExitStack) -> list[PeerPath]:
    # Read the model cost map from the package, not the network.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig
    from litellm.llms.anthropic.messages.adapters.transformation import (
        LiteLLMAnthropicMessagesAdapter,
    )

    config = AnthropicConfig()
    adapter = LiteLLMAnthropicMessagesAdapter()

    def chat_to_anthropic(history: History) -> Step:
        body = history.bodies["chat"]
        params = {k: v for k, v in body.items() if k not in ("model", "messages")}
        model = histories.API_MODELS["anthropic"]

        def step() -> object:
            optional = config.map_openai_params(dict(params), {}, model, drop_params=False)
            return config.transform_request(model, body["messages"], optional, {}, {})

        return step

    def anthropic_to_chat(history: History) -> Step:
        body = history.bodies["anthropic"]
        return lambda: adapter.translate_anthropic_to_openai(body)  # type: ignore[arg-type]

    return [
        PeerPath(
            "litellm",
            "gateway chat -> anthropic request",
            chat_to_anthropic,
            "map_openai_params + transform_request",
        ),
        PeerPath(
            "litellm",
            "gateway anthropic -> chat request",
            anthropic_to_chat,
            "translate_anthropic_to_openai; keeps thinking_blocks, a LiteLLM extension",
        ),
    ]


# --- pydantic-ai ---------------------------------------------------------------


def _pydantic_ai(stack: ExitStack) -> list[PeerPath]:
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.anthropic import AnthropicProvider
    from pydantic_ai.providers.openai import OpenAIProvider
    from pydantic_ai.tools import ToolDefinition

    loop = asyncio.new_event_loop()
    stack.callback(loop.close)
    parameters = ModelRequestParameters(
        function_tools=[
            ToolDefinition(
                name=tool["name"],
                description=tool["description"],
                parameters_json_schema=tool["parameters"],
            )
            for tool in histories.TOOLS
        ]
    )
    anthropic = AnthropicModel("claude-sonnet-4-5", provider=AnthropicProvider(api_key="unused"))
    chat = OpenAIChatModel("gpt-4o", provider=OpenAIProvider(api_key="unused"))

    def to_anthropic(history: History) -> Step:
        messages = _pydantic_ai_history(histories.script(history.size), thinking=True)
        return lambda: loop.run_until_complete(anthropic._map_message(messages, parameters, {}))

    def to_chat(history: History) -> Step:
        messages = _pydantic_ai_history(histories.script(history.size), thinking=False)
        return lambda: loop.run_until_complete(chat._map_messages(messages, parameters))

    return [
        PeerPath(
            "pydantic-ai",
            "encode anthropic request",
            to_anthropic,
            "AnthropicModel._map_message: messages and system only; images held as bytes",
        ),
        PeerPath(
            "pydantic-ai",
            "encode chat request",
            to_chat,
            "OpenAIChatModel._map_messages: messages only; images held as bytes",
        ),
    ]


def _pydantic_ai_history(steps: list[histories.Step], *, thinking: bool) -> list[Any]:
    """The script as pydantic-ai's messages: requests (system, user, tool returns)
    and responses (thinking with its signature, text, tool calls)."""
    from pydantic_ai import messages as m

    history: list[Any] = []
    request: list[Any] = []
    for step in steps:
        match step:
            case histories.System(text):
                request.append(m.SystemPromptPart(content=text))
            case histories.User(text, None):
                request.append(m.UserPromptPart(content=text))
            case histories.User(text, str() as data):
                image = m.BinaryContent(data=base64.b64decode(data), media_type="image/png")
                request.append(m.UserPromptPart(content=[text, image]))
            case histories.ToolResult(call, output):
                call_id = histories.anthropic_call_id(call)
                request.append(
                    m.ToolReturnPart(tool_name=call.name, content=output, tool_call_id=call_id)
                )
            case histories.Assistant():
                if request:
                    history.append(m.ModelRequest(parts=request))
                    request = []
                history.append(_pydantic_ai_response(step, thinking=thinking))
    if request:
        history.append(m.ModelRequest(parts=request))
    return history


def _pydantic_ai_response(step: histories.Assistant, *, thinking: bool) -> Any:
    from pydantic_ai import messages as m

    parts: list[Any] = []
    if thinking:
        signature = histories.signature(step.n)
        parts.append(
            m.ThinkingPart(content=step.thought, signature=signature, provider_name="anthropic")
        )
    parts.append(m.TextPart(content=step.text))
    parts += [
        m.ToolCallPart(
            tool_name=call.name,
            args=call.arguments,
            tool_call_id=histories.anthropic_call_id(call),
        )
        for call in step.calls
    ]
    return m.ModelResponse(parts=parts, provider_name="anthropic", model_name="claude-sonnet-4-5")
