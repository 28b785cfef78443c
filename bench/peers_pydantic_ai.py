"""pydantic-ai, where installed: its message mapping and response processing.

Its history is its own objects (`ModelRequest` and `ModelResponse`), built
from the benchmark's script before timing; each model's mapping
(`AnthropicModel._map_message`, `OpenAIChatModel._map_messages`, and the
Mistral, Groq, Google and Bedrock Converse models' `_map_messages`) is awaited
on one event loop. It maps messages (and the system prompt) only: the tools
are mapped by another step, and images are held as bytes and encoded again.
The full path from a stored history is
`ModelMessagesTypeAdapter.validate_python` of its own JSON form (dumped before
timing), then the mapping. A response body becomes the SDK's response object
as the SDK builds one (`construct_type`; google-genai's `_from_response`;
boto3's parsed JSON for Bedrock), then `_process_response`.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from bench import contests as c
from bench import gemini, histories
from bench.contests import Entry, Inputs

__all__ = ["entries", "history_maker"]

Step = Callable[[], object]

_SYSTEM = {"anthropic": "anthropic", "google": "google-gla", "bedrock": "bedrock"}
_LOADED = "its stored history (its own JSON form) through ModelMessagesTypeAdapter.validate_python"


def entries(stack: ExitStack) -> dict[str, Entry]:
    from pydantic_ai.messages import ModelMessagesTypeAdapter
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.models.bedrock import BedrockConverseModel
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.models.groq import GroqModel
    from pydantic_ai.models.mistral import MistralModel
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.anthropic import AnthropicProvider
    from pydantic_ai.providers.bedrock import BedrockProvider
    from pydantic_ai.providers.google import GoogleProvider
    from pydantic_ai.providers.groq import GroqProvider
    from pydantic_ai.providers.mistral import MistralProvider
    from pydantic_ai.providers.openai import OpenAIProvider

    loop = asyncio.new_event_loop()
    stack.callback(loop.close)
    run = loop.run_until_complete
    parameters = _parameters(ModelRequestParameters)
    anthropic = AnthropicModel(c.MODELS["anthropic"], provider=AnthropicProvider(api_key="unused"))
    chat = OpenAIChatModel(c.MODELS["chat"], provider=OpenAIProvider(api_key="unused"))
    mistral = MistralModel(c.MODELS["mistral"], provider=MistralProvider(api_key="unused"))
    groq = GroqModel(c.MODELS["groq"], provider=GroqProvider(api_key="unused"))
    google = GoogleModel(c.MODELS["gemini"], provider=GoogleProvider(api_key="unused"))
    # Its boto3 client, built offline from static credentials; nothing is sent.
    aws = BedrockProvider(
        region_name="us-east-1", aws_access_key_id="unused", aws_secret_access_key="unused"
    )
    bedrock = BedrockConverseModel(c.MODELS["bedrock"], provider=aws)

    def full_to_anthropic(inputs: Inputs) -> Step:
        stored = ModelMessagesTypeAdapter.dump_python(_history(inputs, "anthropic"), mode="json")

        def step() -> object:
            messages = ModelMessagesTypeAdapter.validate_python(stored)
            return run(anthropic._map_message(messages, parameters, {}))

        return step

    def loaded(provider: str | None) -> Callable[[Inputs], Step]:
        def make(inputs: Inputs) -> Step:
            stored = ModelMessagesTypeAdapter.dump_python(_history(inputs, provider), mode="json")
            return lambda: ModelMessagesTypeAdapter.validate_python(stored)

        return make

    def mapped(model: Any, provider: str | None) -> Callable[[Inputs], Step]:
        def make(inputs: Inputs) -> Step:
            messages = _history(inputs, provider)
            if model is anthropic:
                return lambda: run(anthropic._map_message(messages, parameters, {}))
            if model is bedrock:
                return lambda: run(bedrock._map_messages(messages, parameters, None))
            return lambda: run(model._map_messages(messages, parameters))

        return make

    note = "messages and system only; images held as bytes"
    return {
        c.FULL_CHAT_TO_ANTHROPIC: Entry(
            full_to_anthropic,
            "its stored history: ModelMessagesTypeAdapter.validate_python + _map_message",
        ),
        c.CHAT_TO_HISTORY: Entry(loaded(None), _LOADED),
        c.ANTHROPIC_TO_HISTORY: Entry(loaded("anthropic"), _LOADED),
        c.OWN_TO_ANTHROPIC: Entry(mapped(anthropic, "anthropic"), "_map_message: " + note),
        c.TO_CHAT: Entry(mapped(chat, None), "_map_messages: " + note),
        c.TO_MISTRAL: Entry(mapped(mistral, None), "_map_messages: " + note),
        c.TO_GROQ: Entry(mapped(groq, None), "_map_messages: " + note),
        c.TO_GEMINI: Entry(mapped(google, "google"), "_map_messages: " + note),
        c.TO_BEDROCK: Entry(mapped(bedrock, "bedrock"), "_map_messages: " + note),
        **_responses(anthropic, chat, google, parameters),
        c.BEDROCK_RESPONSE: Entry(
            lambda inputs: _bedrock_answer(bedrock, run, inputs),
            "_process_response of the answer as boto3 parses it (the JSON body)",
        ),
    }


def _bedrock_answer(bedrock: Any, run: Callable[[Any], Any], inputs: Inputs) -> Step:
    """boto3's `converse` answer is the JSON body parsed (blobs aside): it is given that."""
    body = inputs.responses["bedrock"]
    return lambda: run(bedrock._process_response(body))


def _parameters(kind: Any) -> Any:
    from pydantic_ai.tools import ToolDefinition

    tools = [
        ToolDefinition(
            name=tool["name"],
            description=tool["description"],
            parameters_json_schema=tool["parameters"],
        )
        for tool in histories.TOOLS
    ]
    return kind(function_tools=tools)


def _responses(anthropic: Any, chat: Any, google: Any, parameters: Any) -> dict[str, Entry]:
    from anthropic._models import construct_type as anthropic_construct
    from anthropic.types.beta import BetaMessage
    from google.genai.types import GenerateContentResponse
    from openai._models import construct_type as openai_construct
    from openai.types.chat import ChatCompletion

    def from_anthropic(inputs: Inputs) -> Step:
        body = inputs.responses["anthropic"]
        return lambda: anthropic._process_response(
            anthropic_construct(type_=BetaMessage, value=body), parameters, {}
        )

    def from_chat(inputs: Inputs) -> Step:
        body = inputs.responses["chat"]
        return lambda: chat._process_response(openai_construct(type_=ChatCompletion, value=body))

    def from_gemini(inputs: Inputs) -> Step:
        body = inputs.responses["gemini"]
        return lambda: google._process_response(
            GenerateContentResponse._from_response(response=body, kwargs={}), parameters
        )

    note = "the SDK's response object, then _process_response"
    return {
        c.ANTHROPIC_RESPONSE: Entry(from_anthropic, note),
        c.CHAT_RESPONSE: Entry(from_chat, note),
        c.GEMINI_RESPONSE: Entry(from_gemini, note),
    }


def history_maker(inputs: Inputs) -> Step:
    """Its history of the inputs' size, for the memory row: built, not parsed."""
    steps = histories.script(inputs.size)
    return lambda: _messages(steps, "anthropic")


# --- its history ---------------------------------------------------------------


def _history(inputs: Inputs, provider: str | None) -> list[Any]:
    return _messages(histories.script(inputs.size), provider)


def _messages(steps: list[histories.Step], provider: str | None) -> list[Any]:
    """The script as pydantic-ai's messages: requests (system, user, tool returns)
    and responses (thinking signed by `provider`, if any, text, tool calls)."""
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
                history.append(_response(step, provider))
    if request:
        history.append(m.ModelRequest(parts=request))
    return history


def _response(step: histories.Assistant, provider: str | None) -> Any:
    from pydantic_ai import messages as m

    parts: list[Any] = []
    calls = [
        m.ToolCallPart(
            tool_name=call.name, args=call.arguments, tool_call_id=histories.anthropic_call_id(call)
        )
        for call in step.calls
    ]
    text = m.TextPart(content=step.text)
    if provider in ("anthropic", "bedrock"):  # Claude's signed thinking, on either platform
        signature = histories.signature(step.n)
        parts.append(
            m.ThinkingPart(content=step.thought, signature=signature, provider_name=provider)
        )
    elif provider == "google":
        # pydantic-ai keeps a Gemini signature in the details of the part it came on.
        signed = calls[0] if calls else text
        signed.provider_details = {"thought_signature": gemini.thought_signature(step.n)}
        parts.append(m.ThinkingPart(content=step.thought))
    parts += [text, *calls]
    name = _SYSTEM.get(provider or "", "openai")
    return m.ModelResponse(parts=parts, provider_name=name, model_name="model")
