"""The peers, where installed (`uv sync --group bench`): LiteLLM, pydantic-ai,
and the provider SDKs' own stream accumulation.

Each does, offline and without a key, the work of one of `bench.contests`'
paths, from what a user of it holds:

- LiteLLM, from OpenAI-format messages (its own history objects, and the
  parsed Chat Completions body): `map_openai_params` then `transform_request`
  of its Anthropic, OpenAI, Mistral and Groq configs and those of the Chat
  Completions dialects it has (DeepSeek, Cerebras, OpenAI-like servers,
  OpenRouter, xAI, Perplexity), `transform_request_body`
  of its Gemini transformation, `transform_request` of its Bedrock Converse
  one (`AmazonConverseConfig`), and its Anthropic-to-OpenAI adapter; a
  response body to its `ModelResponse` (`transform_parsed_response`,
  `convert_to_model_response_object`, the Gemini and Converse configs'
  transformations); a stream's payloads through its chunk parser
  (`chunk_parser`, as `CustomStreamWrapper` calls it; Converse's
  `converse_chunk_parser`) and `stream_chunk_builder`.
- pydantic-ai (`bench.peers_pydantic_ai`): its message mapping from its own
  history, and its response processing of the SDK's response object.
- The SDKs: the anthropic SDK's accumulation of a message stream
  (`accumulate_event`, what `MessageStream` runs on each event) and the
  openai SDK's (`ChatCompletionStreamState`), each on the SDK's event objects
  built from the parsed payloads as its stream builds them (`construct_type`).

A peer that is not installed, or fails to run, is left out with the reason;
its cells say so.
"""

from __future__ import annotations

import copy
import datetime
import json
import logging
import os
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from bench import contests as c
from bench import peers_pydantic_ai
from bench.contests import Entry, Inputs

__all__ = ["Loaded", "load_peers"]

Step = Callable[[], object]
Entries = dict[str, Entry]  # by path
Loaded = tuple[dict[str, Entries], dict[str, str], dict[str, Callable[[Inputs], Step]]]


def load_peers(stack: ExitStack, check: Inputs) -> Loaded:
    """Each peer's entries by path, why a peer is missing (by peer), and each
    peer's own history for the memory row; every entry runs once on `check`,
    so a peer that fails says so here. What they hold open closes with `stack`."""
    found: dict[str, Entries] = {}
    missing: dict[str, str] = {}
    memory: dict[str, Callable[[Inputs], Step]] = {}
    loaders: tuple[tuple[str, Callable[[ExitStack], Entries]], ...] = (
        ("litellm", _litellm),
        ("pydantic-ai", peers_pydantic_ai.entries),
        ("sdk", _sdks),
    )
    for name, loader in loaders:
        try:
            entries = loader(stack)
            for entry in entries.values():
                entry.make(check)()
        except ImportError as exc:
            missing[name] = f"not installed ({exc.name}): `uv sync --group bench`"
        except Exception as exc:
            missing[name] = f"failed: {type(exc).__name__}: {exc}"
        else:
            found[name] = entries
    if "litellm" in found:
        memory["litellm"] = _litellm_history
    if "pydantic-ai" in found:
        memory["pydantic-ai"] = peers_pydantic_ai.history_maker
    return found, missing, memory


# --- LiteLLM -------------------------------------------------------------------


def _litellm_history(inputs: Inputs) -> Step:
    """LiteLLM keeps a history as OpenAI-format dicts: the parsed body."""
    text = inputs.history.texts["chat"]
    return lambda: json.loads(text)


def _litellm(stack: ExitStack) -> Entries:
    # Read the model cost map from the package, not the network.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    # Its Converse transformation logs a warning on each call (tool results joined
    # to the user turn after them): lines written to the terminal, not its work.
    logger = logging.getLogger("LiteLLM")
    stack.callback(logger.setLevel, logger.level)
    logger.setLevel(logging.ERROR)
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig
    from litellm.llms.anthropic.messages.adapters.transformation import (
        LiteLLMAnthropicMessagesAdapter,
    )
    from litellm.llms.groq.chat.transformation import GroqChatConfig
    from litellm.llms.mistral.chat.transformation import MistralConfig
    from litellm.llms.openai.chat.gpt_transformation import OpenAIGPTConfig

    adapter = LiteLLMAnthropicMessagesAdapter()

    def anthropic_to_chat(inputs: Inputs) -> Step:
        body = copy.deepcopy(inputs.history.bodies["anthropic"])
        return lambda: adapter.translate_anthropic_to_openai(body)  # type: ignore[arg-type]

    def own_to_anthropic(inputs: Inputs) -> Step:
        """From its own history objects: the parameters mapped before timing."""
        config, model, (params, messages) = AnthropicConfig(), c.MODELS["anthropic"], _chat(inputs)
        optional = config.map_openai_params(params, {}, model, drop_params=False)
        return lambda: config.transform_request(model, messages, dict(optional), {}, {})

    full = "map_openai_params + transform_request"
    return {
        c.FULL_CHAT_TO_ANTHROPIC: Entry(_full_path(AnthropicConfig(), "anthropic"), full),
        c.FULL_ANTHROPIC_TO_CHAT: Entry(
            anthropic_to_chat,
            "translate_anthropic_to_openai; keeps thinking blocks, a LiteLLM extension",
        ),
        c.OWN_TO_ANTHROPIC: Entry(
            own_to_anthropic, "transform_request of OpenAI-format messages (no thinking)"
        ),
        c.TO_CHAT: Entry(_full_path(OpenAIGPTConfig(), "chat"), full),
        c.TO_MISTRAL: Entry(
            _full_path(MistralConfig(), "mistral"), full + "; tool-call ids sent unchanged"
        ),
        c.TO_GROQ: Entry(_full_path(GroqChatConfig(), "groq"), full),
        **_litellm_dialects(),
        **_litellm_gemini(),
        **_litellm_responses(),
        **_litellm_streams(),
        **_litellm_bedrock(),
    }


def _chat(inputs: Inputs) -> tuple[dict[str, Any], list[Any]]:
    """A Chat Completions body as LiteLLM takes it, parameters and messages: its
    own copy, as LiteLLM changes some of what it is given."""
    body = copy.deepcopy(inputs.history.bodies["chat"])
    return {k: v for k, v in body.items() if k not in ("model", "messages")}, body["messages"]


def _full_path(config: Any, api: str, provider: str | None = None) -> Callable[[Inputs], Step]:
    """`provider`: the `custom_llm_provider` its `completion` would pass along."""
    litellm_params = {} if provider is None else {"custom_llm_provider": provider}

    def make(inputs: Inputs) -> Step:
        model, (params, messages) = c.MODELS[api], _chat(inputs)

        def step() -> object:
            optional = config.map_openai_params(dict(params), {}, model, drop_params=False)
            return config.transform_request(model, messages, optional, dict(litellm_params), {})

        return step

    return make


def _litellm_dialects() -> Entries:
    """Its configs of the Chat Completions dialects it has. Its Ollama
    transforms write Ollama's own `/api/chat` body, not the `/v1` one: no row."""
    from litellm.llms.cerebras.chat import CerebrasConfig
    from litellm.llms.deepseek.chat.transformation import DeepSeekChatConfig
    from litellm.llms.openai_like.chat.transformation import OpenAILikeChatConfig
    from litellm.llms.openrouter.chat.transformation import OpenrouterConfig
    from litellm.llms.perplexity.chat.transformation import PerplexityChatConfig
    from litellm.llms.xai.chat.transformation import XAIChatConfig

    configs: dict[str, tuple[Any, str]] = {  # by dialect: the config, its provider name
        "deepseek": (DeepSeekChatConfig(), "deepseek"),
        "cerebras": (CerebrasConfig(), "cerebras"),
        "openai-compatible": (OpenAILikeChatConfig(), "openai_like"),
        "openrouter": (OpenrouterConfig(), "openrouter"),
        "xai": (XAIChatConfig(), "xai"),
        "perplexity": (PerplexityChatConfig(), "perplexity"),
    }
    return {
        c.dialect_path(name): Entry(
            _full_path(config, name, provider),
            f"map_openai_params + transform_request (custom_llm_provider {provider})",
        )
        for name, (config, provider) in configs.items()
    }


def _litellm_gemini() -> Entries:
    from litellm.llms.gemini.chat.transformation import GoogleAIStudioGeminiConfig
    from litellm.llms.vertex_ai.gemini.transformation import transform_request_body

    config, model = GoogleAIStudioGeminiConfig(), c.MODELS["gemini"]

    def full(inputs: Inputs) -> Step:
        params, messages = _chat(inputs)

        def step() -> object:
            optional = config.map_openai_params(dict(params), {}, model, drop_params=False)
            return transform_request_body(list(messages), model, optional, "gemini", {}, None)

        return step

    def own(inputs: Inputs) -> Step:
        params, messages = _chat(inputs)
        optional = config.map_openai_params(params, {}, model, drop_params=False)
        return lambda: transform_request_body(
            list(messages), model, dict(optional), "gemini", {}, None
        )

    # It pops the system messages from the list it is given: each call gets a copy.
    copied = "; a copy of the message list each call, as it pops the system message"
    note = "transform_request_body of OpenAI-format messages (no thoughts, no signatures)"
    return {
        c.TO_GEMINI: Entry(own, note + copied),
        c.FULL_CHAT_TO_GEMINI: Entry(full, "map_openai_params + transform_request_body" + copied),
    }


def _logging(model: str) -> Any:
    """LiteLLM's per-call logging object, which its Gemini transformations read."""
    from litellm.litellm_core_utils.litellm_logging import Logging

    log = Logging(
        model=model, messages=[], stream=False, call_type="completion",
        start_time=datetime.datetime.now(), litellm_call_id="bench", function_id="bench",
    )  # fmt: skip
    log.update_environment_variables(litellm_params={}, optional_params={}, model=model)
    return log


def _litellm_responses() -> Entries:
    import httpx
    from litellm import ModelResponse
    from litellm.litellm_core_utils.llm_response_utils.convert_dict_to_response import (
        convert_to_model_response_object,
    )
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig
    from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import (
        VertexGeminiConfig,
    )

    raw = httpx.Response(200, headers={"content-type": "application/json"})
    anthropic, google, log = AnthropicConfig(), VertexGeminiConfig(), _logging(c.MODELS["gemini"])

    def from_anthropic(inputs: Inputs) -> Step:
        body = copy.deepcopy(inputs.responses["anthropic"])
        return lambda: anthropic.transform_parsed_response(body, raw, ModelResponse())

    def from_chat(inputs: Inputs) -> Step:
        body = copy.deepcopy(inputs.responses["chat"])
        return lambda: convert_to_model_response_object(body, ModelResponse())

    def from_gemini(inputs: Inputs) -> Step:
        body, model = copy.deepcopy(inputs.responses["gemini"]), c.MODELS["gemini"]
        return lambda: google._transform_google_generate_content_to_openai_model_response(
            body, ModelResponse(), model, log, raw
        )

    return {
        c.ANTHROPIC_RESPONSE: Entry(from_anthropic, "transform_parsed_response"),
        c.CHAT_RESPONSE: Entry(from_chat, "convert_to_model_response_object"),
        c.GEMINI_RESPONSE: Entry(
            from_gemini, "_transform_google_generate_content_to_openai_model_response"
        ),
    }


def _litellm_streams() -> Entries:
    from litellm import stream_chunk_builder
    from litellm.llms.anthropic.chat.handler import ModelResponseIterator as AnthropicChunks
    from litellm.llms.openai.chat.gpt_transformation import OpenAIChatCompletionStreamingHandler
    from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import (
        ModelResponseIterator as GeminiChunks,
    )

    log = _logging(c.MODELS["gemini"])
    parsers: dict[str, Callable[[], Any]] = {
        "anthropic": lambda: AnthropicChunks(streaming_response=None, sync_stream=True),
        "chat": lambda: OpenAIChatCompletionStreamingHandler(
            streaming_response=None, sync_stream=True
        ),
        "gemini": lambda: GeminiChunks(streaming_response=None, sync_stream=True, logging_obj=log),
    }

    def accumulated(api: str) -> Callable[[Inputs], Step]:
        def make(inputs: Inputs) -> Step:
            # Its own copy: the chat chunk parser writes into the deltas it reads.
            payloads, parser = copy.deepcopy(inputs.streams[api].payloads), parsers[api]

            def step() -> object:
                parse = parser().chunk_parser
                chunks = [chunk for chunk in map(parse, payloads) if chunk is not None]
                return stream_chunk_builder(chunks)

            return step

        return make

    note = "chunk_parser of each payload + stream_chunk_builder"
    return {
        c.ANTHROPIC_STREAM: Entry(accumulated("anthropic"), note),
        c.CHAT_STREAM: Entry(accumulated("chat"), note),
        c.GEMINI_STREAM: Entry(accumulated("gemini"), note),
    }


def _litellm_bedrock() -> Entries:
    """Its Converse transformation (`AmazonConverseConfig`), as its `completion`
    runs it for a `bedrock/converse/...` model: the request, the answer, and
    its stream decoder's parser of each event's payload."""
    import httpx
    from litellm import ModelResponse, stream_chunk_builder
    from litellm.llms.bedrock.chat.converse_transformation import AmazonConverseConfig
    from litellm.llms.bedrock.chat.invoke_handler import AWSEventStreamDecoder

    config, model = AmazonConverseConfig(), c.MODELS["bedrock"]
    log = _logging(model)

    class _ParsedResponse(httpx.Response):
        """The answer, its JSON parsed before timing: `json()` gives it (a copy
        of the parsed body would be timed; it only reads it)."""

        def __init__(self, body: dict[str, Any]) -> None:
            super().__init__(200, headers={"content-type": "application/json"}, json=body)
            self._body = body

        def json(self, **_: Any) -> Any:
            return self._body

    def own(inputs: Inputs) -> Step:
        params, messages = _chat(inputs)
        optional = config.map_openai_params(params, {}, model, drop_params=False)
        return lambda: config.transform_request(model, messages, dict(optional), {}, {})

    def answer(inputs: Inputs) -> Step:
        raw = _ParsedResponse(inputs.responses["bedrock"])
        return lambda: config.transform_response(
            model, raw, ModelResponse(), log, {}, [], {}, {}, None
        )

    def accumulated(inputs: Inputs) -> Step:
        # What its decoder parses out of each event: the payload, its member's value.
        events = copy.deepcopy(inputs.streams["bedrock"].payloads)
        payloads = [next(iter(event.values())) for event in events]

        def step() -> object:
            parse = AWSEventStreamDecoder(model=model).converse_chunk_parser
            return stream_chunk_builder([parse(payload) for payload in payloads])

        return step

    return {
        c.TO_BEDROCK: Entry(
            own, "transform_request of OpenAI-format messages (no thinking, no signatures)"
        ),
        c.BEDROCK_RESPONSE: Entry(
            answer, "transform_response of the answer, its JSON parsed before timing"
        ),
        c.BEDROCK_STREAM: Entry(
            accumulated,
            "AWSEventStreamDecoder.converse_chunk_parser of each payload + stream_chunk_builder",
        ),
    }


# --- the SDKs' own stream accumulation -----------------------------------------


def _sdks(stack: ExitStack) -> Entries:
    from anthropic._models import construct_type as anthropic_construct
    from anthropic.lib.streaming._messages import accumulate_event
    from anthropic.types import RawMessageStreamEvent
    from openai._models import construct_type as openai_construct
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    def anthropic_stream(inputs: Inputs) -> Step:
        payloads = inputs.streams["anthropic"].payloads

        def step() -> object:
            snapshot: Any = None
            buffers: dict[int, bytes] = {}
            for payload in payloads:
                event = anthropic_construct(type_=RawMessageStreamEvent, value=payload)
                snapshot = accumulate_event(
                    event=event, current_snapshot=snapshot, json_bufs=buffers
                )
            return snapshot

        return step

    def chat_stream(inputs: Inputs) -> Step:
        payloads = inputs.streams["chat"].payloads

        def step() -> object:
            state: Any = ChatCompletionStreamState()
            for payload in payloads:
                state.handle_chunk(openai_construct(type_=ChatCompletionChunk, value=payload))
            return state.get_final_completion()

        return step

    return {
        c.ANTHROPIC_STREAM: Entry(anthropic_stream, "anthropic: accumulate_event (MessageStream)"),
        c.CHAT_STREAM: Entry(chat_stream, "openai: ChatCompletionStreamState"),
    }
