"""Moving a history between providers, mid-conversation.

An application keeps its conversation in a `ChatHistory` and sends it to
whichever provider it wants next turn. The histories here are built the way
such an application builds them: every answer is a real recorded response
(`../shared/corpus`), decoded and appended; the tool results and the user's
turns are what the application adds. One history may hold turns recorded in
separate conversations, so what they say does not always follow on; their
shape is what matters.

At every hop (`send`) the same history goes to the next provider, and:
- encoding leaves the history unchanged; it saves and loads back equal;
- the body meets the target's rules, checked here from WIRE-NOTES.md ("Rules
  a history must meet per provider"), not by the adapter;
- reasoning goes back only to the provider that made it, its signature or
  encrypted content exactly (Mistral's, which has none, as the thinking chunk
  it came as; Groq's, which has none either, inside the `<think>` tags it came
  in, or in the `reasoning` field to a model that takes one); elsewhere it is
  left out and reported, and no line of it shows anywhere in the body;
- tool-call ids the target cannot take are rewritten alike in the call and
  its result, and reported as transformed (Mistral takes exactly 9 characters
  of [a-zA-Z0-9]: Groq's ids may fit, no other provider's do);
- nothing else of the history is left out unreported; every loss names the
  part of the history it concerns, and strict mode raises `TranslationError`
  on the first.
"""

from __future__ import annotations

import base64
import copy
import functools
import json
import re
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import interlingua_anthropic as anthropic_adapter
import interlingua_bedrock as bedrock_adapter
import interlingua_google as google_adapter
import interlingua_groq as groq_adapter
import interlingua_mistral as mistral_adapter
import interlingua_openai as openai_adapter
import interlingua_openai.responses as responses_adapter
import interlingua_openrouter as openrouter_adapter
import interlingua_xai as xai_adapter
from conftest import (
    FIXTURES,
    MissingCorpus,
    corpus_files,
    corpus_id,
    corpus_params,
    from_corpus,
    require_corpus,
)
from interlingua import (
    ChatHistory,
    ChatRequest,
    ChatResponse,
    FilePart,
    Message,
    OpaquePart,
    ReasoningConfig,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    ToolSpec,
    TranslationError,
    TranslationReport,
    TranslationWarning,
    accumulate,
)
from interlingua.testing import Interaction, load_cassette

# --- the recordings the histories are made of ---

# Anthropic (claude-haiku-4-5) thinks, signs its thinking and calls `fixed_version`
# (streamed); the second request sends the signed thinking back.
FIXED_VERSION = (
    "anthropic/llm-anthropic/test_fixed_version_tool_chain_with_thinking_display_regression.yaml"
)
# The Responses API (gpt-5-mini) returns encrypted reasoning and calls `get_weather`;
# the second request sends the reasoning item back.
WEATHER = "openai-responses/pydantic-ai/test_tool_choice_matrix[auto-openai_responses].yaml"
# Chat Completions (gpt-4.1-mini) answers a tool result in text.
TOKYO = "openai-chat/pydantic-ai/test_openai_instructions_with_tool_calls_keep_instructions.yaml"
# Chat Completions (gpt-5-mini) calls `get_file`; pydantic-ai sends the image the tool
# returned in a user message after the tool message, which OpenAI answers.
GET_FILE = (
    "openai-chat/pydantic-ai/"
    "test_multimodal_tool_return_matrix[tool_return_content-url-image-openai_chat].yaml"
)
# Anthropic answers with redacted thinking, sent back in the second request.
REDACTED = "anthropic/pydantic-ai/test_anthropic_model_thinking_part_redacted.yaml"
# The Responses API calls a tool twice (streamed); chatlas keeps each call under the
# item id (`fc_...`, 52 characters) and sends that back as the call_id.
FAVORITE_COLORS = "openai-responses/chatlas/test_chat_callbacks.yaml"
# A JPEG downloaded from the web (the first interaction), as a tool may fetch one.
JPEG_DOWNLOAD = "anthropic/pydantic-ai/test_image_url_input_force_download.yaml"
# Mistral (mistral-large-latest) calls `get_weather` under a 9-character id, then
# answers the tool result in text.
MISTRAL_WEATHER = "mistral/pydantic-ai/test_tool_choice_matrix[auto-mistral].yaml"
# The Responses API (o3-mini) reasons (encrypted, with a summary) and answers; pydantic-ai
# sent that summary on to Mistral as a thinking chunk, and magistral answered with
# thinking of its own (no signature) and text.
MAGISTRAL = "mistral/pydantic-ai/test_mistral_model_thinking_part.yaml"
# Mistral calls `get_file`; pydantic-ai sends the image the tool returned in a user
# message after the tool message, with an assistant "OK" between them.
MISTRAL_GET_FILE = (
    "mistral/pydantic-ai/"
    "test_multimodal_tool_return_matrix[tool_return_content-url-image-mistral].yaml"
)
# Chat Completions (gpt-4o) refuses, in its `refusal` field.
REFUSAL = "openai-chat/mirascope/test_refusal__openai_gpt_4o_completions__sync.yaml"
# Chat Completions (gpt-5-mini) spends all its tokens reasoning: an empty answer.
EMPTY_ANSWER = "openai-chat/mirascope/test_max_tokens__openai_gpt_5_mini_completions__sync.yaml"
# Chat Completions (gpt-4o) reads a PDF the user sent.
PDF = "openai-chat/pydantic-ai/test_document_as_binary_content_input.yaml"
# Groq (gpt-oss-120b) calls a tool with arguments its own check refuses (a 400
# `tool_use_failed`); then, reasoning in `message.reasoning`, calls it again, and
# answers the result, reasoning again. pydantic-ai sent the first reasoning back
# inside `<think>` tags at the start of the assistant's content.
GROQ_RETRY = "groq/pydantic-ai/test_tool_use_failed_error.yaml"
# Groq (llama-4-scout) calls `get_weather` under a 9-character id, then answers the
# tool result in text.
GROQ_WEATHER = "groq/pydantic-ai/test_tool_choice_matrix[auto-groq].yaml"
# Groq (llama-4-maverick) calls `get_file`; pydantic-ai sends the image the tool
# returned in a user message after the tool message, which Groq answers.
GROQ_GET_FILE = (
    "groq/pydantic-ai/test_multimodal_tool_return_matrix[tool_return_content-url-image-groq].yaml"
)
# Groq (qwen3-32b) reasons, in `message.reasoning`, and answers: a response body alone.
STRAWBERRY = "groq/vercel-ai/groq-reasoning.json"

FIXED_VERSION_QUESTION = (
    "Use the fixed_version tool. Then tell me the version and make one short joke about it. "
    "Think about it first."
)
FIXED_VERSION_CALL = "toolu_01825dXWLSoJwCst1qTsiWdb"
WEATHER_QUESTION = "What's the weather in Paris?"
WEATHER_CALL = "call_E4xGYcmG4CvUzTabsGjXo6ba"
TOKYO_ANSWER = "The temperature in Tokyo is currently 20.0 degrees Celsius."
PARIS_ANSWER = "Currently it's sunny in Paris with a temperature of 22°C."
GET_FILE_QUESTION = (
    "Use the get_file tool now to retrieve a image file, then describe what you received."
)
ROSE = "https://www.gstatic.com/webp/gallery3/1.png"
MISTRAL_CALL = "KikbB849t"
GROQ_CALL = "48f5r72yf"
RIVER_THANKS = "Thanks! And was it sunny in Paris, earlier?"

FIXED_VERSION_TOOL = ToolSpec(
    name="fixed_version",
    description="Return a fixed test version string",
    parameters={"properties": {}, "type": "object"},
)
WEATHER_TOOL = ToolSpec(
    name="get_weather",
    description="Get the current weather for a city.",
    parameters={
        "additionalProperties": False,
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "type": "object",
    },
    strict=True,
)
GET_FILE_TOOL = ToolSpec(
    name="get_file",
    description="",
    parameters={"additionalProperties": False, "properties": {}, "type": "object"},
)
RETRY_TOOL = ToolSpec(
    name="get_something_by_name",
    description="",
    parameters={
        "additionalProperties": False,
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "type": "object",
    },
)

ANTHROPIC_MODEL = "claude-haiku-4-5-20251001"
# A model that takes a system turn inside `messages` (Anthropic's mid-conversation system
# messages), as Claude Code sends one after the user's turn.
SYSTEM_TURN_MODEL = "claude-opus-4-8"
MISTRAL_MODEL = "mistral-large-latest"
GROQ_MODEL = "openai/gpt-oss-120b"  # a reasoning model: takes its reasoning back
OPENROUTER_MODEL = "anthropic/claude-sonnet-4.5"
XAI_MODEL = "grok-3-mini"
# Through OpenRouter, Anthropic's model reasons, signs the reasoning (a `reasoning.text`
# entry of `reasoning_details`) and calls `get_weather` (the project's own recording).
OPENROUTER_WEATHER = FIXTURES / "openrouter/reasoning_details_tool_round_trip.json"
# grok-3-mini reasons (`reasoning_content`) and answers; the next turn sends it
# back (the project's own recording).
XAI_REASONING = FIXTURES / "xai/reasoning_content_two_turns.json"
QWEN_MODEL = "qwen/qwen3-32b"  # another
GROQ_PLAIN_MODEL = "llama-3.3-70b-versatile"  # takes none back
THINKING = ReasoningConfig(budget_tokens=1024)


def recording(path: str, provider: str | None = None) -> tuple[Interaction, ...]:
    """The interactions of the corpus file `path` (those with `provider`'s API
    when given). A missing file fails the test in CI and skips it elsewhere."""
    folder, _, name = path.rpartition("/")
    found = [file for file in corpus_files(folder) if file.name == name]
    if not found:
        require_corpus(path)  # holds no files: fails in CI, skips elsewhere, naming it
    cassette = load_cassette(found[0])
    return cassette.interactions if provider is None else cassette.for_provider(provider)


def answer(interaction: Interaction, adapter: Any) -> ChatResponse:
    """The response the application's client got: the recorded body, or the
    recorded stream accumulated."""
    if interaction.is_stream:
        return accumulate(adapter.decode_stream(interaction.response.stream_payloads()))
    return adapter.decode_response(interaction.response.json)


# --- the histories ---


def fixed_version_loop() -> ChatHistory:
    """Anthropic thinks, signs its thinking and calls a tool; the application runs it.

    [0] user, [1] assistant by Anthropic (signed thinking, tool call), [2] tool.
    """
    first, _ = recording(FIXED_VERSION, "anthropic")
    history = ChatHistory()
    history.add_message(Message.user(FIXED_VERSION_QUESTION))
    history.add_response(answer(first, anthropic_adapter))
    (call,) = history.last_message.tool_calls
    history.add_message(Message.tool_result(call.id, "0.32a0", name=call.name))
    return history


def weather_loop(history: ChatHistory) -> ChatHistory:
    """The application falls back to OpenAI in the middle of the tool loop: Chat
    Completions answers the tool result; the user asks on; the Responses API
    reasons (encrypted) and calls a tool, which the application runs.

    Adds [3] assistant by Chat Completions, [4] user, [5] assistant by the
    Responses API (encrypted reasoning, tool call), [6] tool.
    """
    _, tokyo = recording(TOKYO, "openai")
    weather, _ = recording(WEATHER, "openai")
    history.add_response(answer(tokyo, openai_adapter))
    history.add_message(Message.user(WEATHER_QUESTION))
    history.add_response(answer(weather, responses_adapter))
    (call,) = history.last_message.tool_calls
    history.add_message(Message.tool_result(call.id, "Sunny, 22C in Paris", name=call.name))
    return history


def paris_weather_loop(path: str, provider: str, adapter: Any) -> ChatHistory:
    """`provider` calls `get_weather` and answers its result, as recorded in `path`.

    [0] user, [1] assistant (tool call), [2] tool, [3] assistant.
    """
    called, told = recording(path, provider)
    history = ChatHistory(messages=[Message.user(WEATHER_QUESTION)])
    history.add_response(answer(called, adapter))
    (call,) = history.last_message.tool_calls
    history.add_message(Message.tool_result(call.id, "Sunny, 22C in Paris", name=call.name))
    history.add_response(answer(told, adapter))
    return history


def mistral_loop() -> ChatHistory:
    """Mistral calls a tool and answers its result; the user asks on, and magistral
    thinks (no signature) and answers; the user asks on.

    [0] user, [1] assistant by Mistral (empty text, tool call `KikbB849t`), [2] tool,
    [3] assistant by Mistral, [4] user, [5] assistant by Mistral (thinking, text),
    [6] user.
    """
    (thought,) = recording(MAGISTRAL, "mistral")
    history = paris_weather_loop(MISTRAL_WEATHER, "mistral", mistral_adapter)
    history.add_message(Message.user(thought.request.json["messages"][-1]["content"]))
    history.add_response(answer(thought, mistral_adapter))
    history.add_message(Message.user(RIVER_THANKS))
    return history


def groq_weather_loop() -> ChatHistory:
    """Groq calls a tool and answers its result; the user asks on.

    [0] user, [1] assistant by Groq (tool call `48f5r72yf`), [2] tool, [3] assistant
    by Groq, [4] user.
    """
    history = paris_weather_loop(GROQ_WEATHER, "groq", groq_adapter)
    history.add_message(Message.user(RIVER_THANKS))
    return history


def groq_retry_loop() -> ChatHistory:
    """The history pydantic-ai kept, and sent, when Groq called its tool again: the
    call Groq's check refused (under pydantic-ai's id) and the validation error, Groq's
    second call with its reasoning (which pydantic-ai sent inside `<think>` tags) and
    the result; then Groq's answer, reasoning in its field; the user thanks it.

    [0] system, [1] user, [2] assistant (tool call), [3] tool, [4] assistant by Groq
    (reasoning split from `<think>` tags, tool call), [5] tool, [6] assistant by Groq
    (reasoning, text), [7] user.
    """
    *_, answered = recording(GROQ_RETRY, "groq")
    kept = groq_adapter.decode_request(answered.request.json).messages
    history = ChatHistory(messages=list(kept))
    history.add_response(answer(answered, groq_adapter))
    history.add_message(Message.user("Thanks."))
    return history


def strawberry_loop() -> ChatHistory:
    """Qwen3 on Groq reasons (in `message.reasoning`) and answers; the user asks on.

    [0] user, [1] assistant by Groq (reasoning, text), [2] user.
    """
    (counted,) = recording(STRAWBERRY)
    history = ChatHistory(messages=[Message.user('How many "r"s are in "strawberry"?')])
    history.add_response(answer(counted, groq_adapter))
    history.add_message(Message.user('And in "raspberry"?'))
    return history


def saved_and_loaded(history: ChatHistory, folder: Path) -> ChatHistory:
    """The history written to a file and read back, as the application keeps it
    between calls; it must load back equal."""
    path = folder / "chat.json"
    history.save(path)
    loaded = ChatHistory.load(path)
    assert loaded == history
    assert loaded.model_dump_json() == history.model_dump_json()
    return loaded


# --- one hop, and what holds at every hop ---

Encode = Callable[..., dict[str, Any]]


def send(
    encode: Encode,
    request: ChatRequest,
    history: ChatHistory,
    *,
    takes_reasoning_of: str | None,
    takes_signed_from: frozenset[str] = frozenset(),
) -> tuple[dict[str, Any], TranslationReport]:
    """The body and report of `request`, made of `history`'s messages, for a
    target that takes back the reasoning of `takes_reasoning_of` only, and the
    signed thinking of `takes_signed_from` (Claude's, made on Bedrock)."""
    before = history.model_dump_json()
    report = TranslationReport()
    body = encode(request, report=report)
    assert history.model_dump_json() == before, "encoding changed the history"
    for loss in report.losses:
        assert loss.reason
        if loss.path.startswith("messages"):
            part_at(history, loss.path)  # names a part the history has
    sent = set(strings(body))
    for message in history:
        for part in message.reasoning:
            proof = part.redacted_data or part.signature
            if takes_signed(part, takes_signed_from):
                assert part.signature in sent, "Claude's signed thinking goes to Claude as it came"
            elif part.provider == takes_reasoning_of and proof:
                assert proof in sent, "the signed reasoning goes back to its maker as it came"
            elif part.provider != takes_reasoning_of:
                shown = shows(part, body, history)
                assert not shown, f"{part.provider}'s reasoning was sent: {shown!r}"
    check_nothing_lost_silently(history, body, report)
    check_strict_mode(encode, request, body, report)
    assert history.model_dump_json() == before
    assert ChatHistory.from_json(history.to_json()) == history, "it saves and loads back equal"
    return body, report


def takes_signed(part: ReasoningPart, makers: frozenset[str]) -> bool:
    """Whether `part` is thinking signed by one of `makers` (not redacted)."""
    return part.provider in makers and bool(part.signature) and part.redacted_data is None


# Claude's thinking signatures "are compatible across platforms (the Claude API, Amazon
# Bedrock, and Google Cloud)" (Anthropic's extended-thinking guide).
CLAUDE_ELSEWHERE = frozenset({"bedrock"})


def check_nothing_lost_silently(
    history: ChatHistory, body: dict[str, Any], report: TranslationReport
) -> None:
    """Each text, refusal, tool call, file and opaque block of the history (tool
    results' content included) shows in the body, or a loss names it, what holds
    it, or a field of it (a rewritten id)."""
    sent = list(strings(body))
    named = [loss.path for loss in report.losses]
    for index, message in enumerate(history):
        for position, part in enumerate(message.parts):
            path = f"messages[{index}].parts[{position}]"
            pieces = [(path, part)]
            if isinstance(part, ToolResultPart):
                pieces += [(f"{path}.content[{k}]", item) for k, item in enumerate(part.content)]
            for at, piece in pieces:
                if all(any(mark in text for text in sent) for mark in marks(piece)):
                    continue
                near = (at, f"{at}.")
                assert any(loss.startswith(near) or at.startswith(f"{loss}.") for loss in named), (
                    f"{at} ({piece.type}) was left out unreported"
                )


def marks(part: Any) -> list[str]:
    """What shows in a body that carries `part` (reasoning has checks of its own, a
    tool result's content is checked item by item)."""
    match part:
        case TextPart() | RefusalPart():
            return [part.text]
        case ToolCallPart() if part.provider_data.get("google", {}).get("forms", {}).get("id"):
            return [part.name]  # an id made for a call Gemini sent without one: never sent back
        case ToolCallPart():
            return [part.id]
        case FilePart():
            return [mark for mark in (part.url, part.data, part.file_id) if mark]
        case ReasoningPart():
            return [mark for mark in (part.redacted_data or part.signature or part.text,) if mark]
        case OpaquePart() if isinstance(part.data, dict):
            return [text for text in strings(part.data) if text != part.data.get("type")]
        case OpaquePart():
            return list(strings(part.data))
    return []


def check_strict_mode(
    encode: Encode, request: ChatRequest, body: dict[str, Any], report: TranslationReport
) -> None:
    """Strict mode raises on the first loss the report has, or sends the same body."""
    strict = TranslationReport(strict=True)
    if not report.losses:
        assert encode(request, report=strict) == body
        return
    first = report.losses[0]
    with pytest.raises(TranslationError) as caught:
        encode(request, report=strict)
    assert (caught.value.path, caught.value.kind) == (first.path, first.kind)
    assert caught.value.target == report.target


def to_anthropic(
    history: ChatHistory,
    *tools: ToolSpec,
    reasoning: ReasoningConfig | None = THINKING,
    model: str = ANTHROPIC_MODEL,
) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(
        model=model,
        messages=tuple(history.messages),
        tools=tools,
        max_tokens=64000,
        reasoning=reasoning,
    )
    body, report = send(
        anthropic_adapter.encode_request,
        request,
        history,
        takes_reasoning_of="anthropic",
        takes_signed_from=CLAUDE_ELSEWHERE,
    )
    check_anthropic_rules(body, system_turns=model == SYSTEM_TURN_MODEL)
    return body, report


def to_chat_completions(
    history: ChatHistory, *tools: ToolSpec
) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(model="gpt-4.1-mini", messages=tuple(history.messages), tools=tools)
    body, report = send(openai_adapter.encode_request, request, history, takes_reasoning_of=None)
    check_chat_completions_rules(body)
    return body, report


def to_responses(
    history: ChatHistory, *tools: ToolSpec
) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(
        model="gpt-5-mini",
        messages=tuple(history.messages),
        tools=tools,
        provider_options={"openai-responses": {"include": ["reasoning.encrypted_content"]}},
    )
    body, report = send(
        responses_adapter.encode_request, request, history, takes_reasoning_of="openai-responses"
    )
    check_responses_rules(body)
    return body, report


def to_mistral(history: ChatHistory, *tools: ToolSpec) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(model=MISTRAL_MODEL, messages=tuple(history.messages), tools=tools)
    body, report = send(
        mistral_adapter.encode_request, request, history, takes_reasoning_of="mistral"
    )
    check_mistral_rules(body, history)
    return body, report


def to_groq(
    history: ChatHistory, *tools: ToolSpec, model: str = GROQ_MODEL
) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(model=model, messages=tuple(history.messages), tools=tools)
    body, report = send(groq_adapter.encode_request, request, history, takes_reasoning_of="groq")
    check_groq_rules(body, history)
    return body, report


def to_openrouter(
    history: ChatHistory, *tools: ToolSpec
) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(model=OPENROUTER_MODEL, messages=tuple(history.messages), tools=tools)
    body, report = send(
        openrouter_adapter.encode_request, request, history, takes_reasoning_of="openrouter"
    )
    check_openrouter_rules(body, history)
    return body, report


def to_xai(history: ChatHistory, *tools: ToolSpec) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(model=XAI_MODEL, messages=tuple(history.messages), tools=tools)
    body, report = send(xai_adapter.encode_request, request, history, takes_reasoning_of="xai")
    check_xai_rules(body, history)
    return body, report


GEMINI_MODEL = "gemini-3-flash-preview"
# Nova 2 Lite on Converse: takes back the reasoning Bedrock made, no other provider's.
BEDROCK_MODEL = "us.amazon.nova-2-lite-v1:0"


def to_bedrock(history: ChatHistory, *tools: ToolSpec) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(model=BEDROCK_MODEL, messages=tuple(history.messages), tools=tools)
    body, report = send(
        bedrock_adapter.encode_request, request, history, takes_reasoning_of="bedrock"
    )
    check_bedrock_rules(body)
    return body, report


def to_google(history: ChatHistory, *tools: ToolSpec) -> tuple[dict[str, Any], TranslationReport]:
    request = ChatRequest(model=GEMINI_MODEL, messages=tuple(history.messages), tools=tools)
    body, report = send(
        google_adapter.encode_request, request, history, takes_reasoning_of="google"
    )
    check_google_rules(body, history)
    return body, report


def losses(report: TranslationReport) -> list[tuple[str, str]]:
    return [(loss.path, loss.kind) for loss in report.losses]


def rewritten(history: ChatHistory, report: TranslationReport) -> list[str]:
    """The tool-call ids the report says were rewritten, each read from the part its
    loss names; the loss's reason must quote it."""
    ids = []
    for loss in report.losses:
        field = loss.path.rpartition(".")[2]
        if loss.kind == "transformed" and field in {"id", "tool_call_id"}:
            call_id = getattr(part_at(history, loss.path), field)
            assert call_id in loss.reason, loss
            ids.append(call_id)
    return ids


# --- the targets' rules (WIRE-NOTES.md), and where a loss points ---

TOOL_CALL_ID = re.compile(r"[a-zA-Z0-9_-]+")
MISTRAL_TOOL_CALL_ID = re.compile(r"[a-zA-Z0-9]{9}")  # else error 3280

# What Mistral's API answers with 422 `extra_forbidden`: these body fields (of other
# Chat Completions servers), and on a message any field but its role's (the
# mistralai SDK's request models): `name` on a user message, `reasoning_content`,
# `refusal` or `audio` on an assistant message.
MISTRAL_REJECTS = frozenset(
    {"max_completion_tokens", "stream_options", "safety_identifier", "store", "user", "seed"}
)
MISTRAL_FIELDS: dict[str, frozenset[str]] = {
    "system": frozenset({"role", "content"}),
    "user": frozenset({"role", "content"}),
    "assistant": frozenset({"role", "content", "tool_calls", "prefix"}),
    "tool": frozenset({"role", "content", "tool_call_id", "name"}),
    "tool_call": frozenset({"id", "type", "function", "index"}),
}


def blocks(turn: dict[str, Any]) -> list[dict[str, Any]]:
    """A message's content as a list of blocks (chunks): none for null or no content."""
    content = turn.get("content")
    if content is None:
        return []
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def check_anthropic_rules(body: dict[str, Any], *, system_turns: bool = False) -> None:
    """Messages API: system text at the top, or (`system_turns`: a model that takes
    them, Claude Opus 4.8 and later) in a system turn right after a user turn and
    before an assistant turn or at the end; the first turn a user's, turns
    alternating, each turn's tool_use blocks answered by the tool_result blocks
    that open the next turn (and only those), ids of [a-zA-Z0-9_-], no empty text
    and no turn of whitespace text only."""
    roles = [turn["role"] for turn in body["messages"]]
    for before, role, after in zip([None, *roles[:-1]], roles, [*roles[1:], None], strict=True):
        if role == "system":
            assert system_turns, "a system turn for a model that takes none"
            assert before == "user", "a system turn right after a user turn"
            assert after in {"assistant", None}, "a system turn before an assistant turn or last"
    turns = [turn for turn in body["messages"] if turn["role"] != "system"]
    assert [turn["role"] for turn in turns][:1] == ["user"]
    assert {turn["role"] for turn in turns} <= {"user", "assistant"}
    for before, after in pairwise(turns):
        assert before["role"] != after["role"], "turns must alternate"
    asked: list[str] = []
    for turn in turns:
        content = blocks(turn)
        results = [block for block in content if block["type"] == "tool_result"]
        assert content[: len(results)] == results, "tool results open their turn"
        assert sorted(block["tool_use_id"] for block in results) == sorted(asked)
        asked = [block["id"] for block in content if block["type"] == "tool_use"]
        for block in content:
            assert block["type"] != "text" or block["text"], "no empty text"
        blank = [block["type"] == "text" and not block["text"].strip() for block in content]
        assert not content or not all(blank), "no turn of whitespace text only"
        for call_id in asked + [block["tool_use_id"] for block in results]:
            assert TOOL_CALL_ID.fullmatch(call_id), call_id
    assert not asked, "the last tool calls have no results"


# Converse's `ContentBlock` is a union: each block holds one member (the API reference).
BEDROCK_BLOCKS = frozenset(
    {
        "text", "image", "document", "video", "toolUse", "toolResult", "guardContent",
        "cachePoint", "reasoningContent", "citationsContent", "searchResult",
    }
)  # fmt: skip
BEDROCK_TOOL_USE_ID = re.compile(r"[a-zA-Z0-9_.:-]{1,64}")  # `ToolUseBlock.toolUseId`


def check_bedrock_rules(body: dict[str, Any]) -> None:
    """Converse: no model in the body (it is the URL's); `system` a list of
    blocks; turns of `user` and `assistant` alternating, the first a user's; each
    block one member of the `ContentBlock` union, no blank text ("The text field
    in the ContentBlock object ... is blank"); each turn's toolUse blocks
    answered by the toolResult blocks of the next turn, and only those, ids of
    1 to 64 of [a-zA-Z0-9_.:-]; a `toolConfig` wherever toolUse or toolResult
    blocks are ("The toolConfig field must be defined when using toolUse and
    toolResult content blocks")."""
    assert "model" not in body
    assert isinstance(body.get("system", []), list)
    turns = body["messages"]
    assert [turn["role"] for turn in turns][:1] == ["user"]
    for before, after in pairwise(turns):
        assert before["role"] != after["role"], "turns must alternate"
    asked: list[str] = []
    for turn in turns:
        assert turn["role"] in {"user", "assistant"}
        content = turn["content"]
        uses = [block["toolUse"] for block in content if "toolUse" in block]
        # A server tool's use and its result are both the assistant's (Nova's code interpreter).
        served = {use["toolUseId"] for use in uses if use.get("type") == "server_tool_use"}
        results = [
            block["toolResult"]["toolUseId"]
            for block in content
            if "toolResult" in block and block["toolResult"]["toolUseId"] not in served
        ]
        assert sorted(results) == sorted(asked), "every call answered in the next turn"
        asked = [use["toolUseId"] for use in uses if use["toolUseId"] not in served]
        for block in content:
            assert len(block) == 1, block.keys()
            assert block.keys() <= BEDROCK_BLOCKS, block.keys()
            assert block.get("text", "x"), "no blank text"
        for call_id in [use["toolUseId"] for use in uses] + results:
            assert BEDROCK_TOOL_USE_ID.fullmatch(call_id), call_id
        if uses or results:
            assert body.get("toolConfig", {}).get("tools"), "toolConfig with toolUse blocks"
    assert not asked, "the last tool calls have no results"


def answered_calls(messages: list[dict[str, Any]]) -> list[str]:
    """The ids of the tool calls in Chat Completions `messages` (Mistral's too),
    after checking that the tool messages right after an assistant message answer
    each of its calls and nothing else."""
    every: list[str] = []
    calls: list[str] = []
    answered: list[str] = []
    for message in messages:
        if message["role"] == "tool":
            assert message["tool_call_id"] in calls, "a tool message answers a call before it"
            answered.append(message["tool_call_id"])
            continue
        assert sorted(answered) == sorted(calls), "every call answered right after it"
        calls = [call["id"] for call in message.get("tool_calls") or []]
        every += calls
        answered = []
    assert sorted(answered) == sorted(calls), "every call answered right after it"
    return every


def check_openai_call_ids(messages: list[dict[str, Any]]) -> None:
    """The tool messages right after an assistant message answer each of its tool
    calls and nothing else (`answered_calls`); ids of at most 40 characters of
    [a-zA-Z0-9_-]."""
    for call_id in answered_calls(messages):
        assert len(call_id) <= 40, call_id
        assert TOOL_CALL_ID.fullmatch(call_id), call_id


def check_chat_completions_rules(body: dict[str, Any]) -> None:
    """Chat Completions: the tool messages right after an assistant message answer
    each of its tool calls and nothing else; ids of at most 40 characters of
    [a-zA-Z0-9_-]; tool messages hold text only; no reasoning field."""
    check_openai_call_ids(body["messages"])
    for message in body["messages"]:
        if message["role"] == "tool":
            assert isinstance(message["content"], str), "a tool message takes text only"
        assert not {"reasoning", "reasoning_content"} & message.keys()


def check_xai_rules(body: dict[str, Any], history: ChatHistory) -> None:
    """xAI: Chat Completions' rules, but for its own reasoning, which each
    assistant message carries back in `reasoning_content`, as it came, and no other."""
    sent = [wire.get("reasoning_content") for wire in body["messages"]]
    made = [
        "".join(part.text for part in message.reasoning if part.provider == "xai") or None
        for message in history
    ]
    assert [text for text in sent if text] == [text for text in made if text]
    rest = [
        {k: v for k, v in wire.items() if k != "reasoning_content"} for wire in body["messages"]
    ]
    check_chat_completions_rules({**body, "messages": rest})


def check_openrouter_rules(body: dict[str, Any], history: ChatHistory) -> None:
    """OpenRouter: Chat Completions' tool-message order, ids of [a-zA-Z0-9_-] (of any
    length: it passes the upstream's through), tool messages of text; reasoning in
    `reasoning` and `reasoning_details` only, each entry OpenRouter made sent back
    exactly, and no other."""
    for call_id in answered_calls(body["messages"]):
        assert TOOL_CALL_ID.fullmatch(call_id), call_id
    for wire in body["messages"]:
        assert "reasoning_content" not in wire
        if wire["role"] == "tool":
            assert isinstance(wire["content"], str), "a tool message takes text only"
    sent = [entry for wire in body["messages"] for entry in wire.get("reasoning_details", ())]
    made = [
        part
        for message in history
        for part in message.reasoning
        if part.provider == "openrouter" and "detail" in kept_forms(part)
    ]
    assert [entry.get("signature") for entry in sent] == [part.signature for part in made]
    assert [entry.get("text", "") for entry in sent] == [part.text for part in made]


def kept_forms(part: ReasoningPart) -> dict[str, Any]:
    return dict(part.provider_data.get("openrouter", {}).get("forms", {}))


def check_mistral_rules(body: dict[str, Any], history: ChatHistory) -> None:
    """Mistral: roles system, user, assistant and tool only, and no field it rejects;
    each tool call answered by the tool messages right after it, under an id of
    exactly 9 characters of [a-zA-Z0-9]; no user message right after a tool message
    (error 3230); the last message a user's or a tool's (or an assistant's with
    `prefix: true`); an assistant message says something or calls a tool; tool
    messages hold text only; and the thinking chunks are Mistral's own, each
    thought of the history that Mistral made sent back."""
    assert not MISTRAL_REJECTS & body.keys(), MISTRAL_REJECTS & body.keys()
    messages = body["messages"]
    roles = [message["role"] for message in messages]
    assert set(roles) <= {"system", "user", "assistant", "tool"}, roles
    assert ("tool", "user") not in pairwise(roles), "no user message right after a tool message"
    last = messages[-1]
    assert last["role"] in {"user", "tool"} or (
        last["role"] == "assistant" and last.get("prefix") is True
    ), f"Mistral serves no history ending in {last}"
    for call_id in answered_calls(messages):
        assert MISTRAL_TOOL_CALL_ID.fullmatch(call_id), call_id
    for message in messages:
        extra = message.keys() - MISTRAL_FIELDS[message["role"]]
        assert not extra, f"Mistral rejects {extra} on {message['role']} messages"
        for call in message.get("tool_calls") or []:
            assert call.keys() <= MISTRAL_FIELDS["tool_call"], call
        if message["role"] == "assistant":
            # "Assistant message must have either content or tool_calls, but not none."
            # (error 3240; an empty string is none)
            said = [chunk for chunk in blocks(message) if chunk["type"] != "text" or chunk["text"]]
            assert said or message.get("tool_calls"), f"Mistral rejects {message}"
        if message["role"] == "tool":
            kinds = {chunk["type"] for chunk in blocks(message)}
            assert kinds <= {"text"}, f"a tool message takes text only, not {kinds}"
    thoughts = [
        "".join(inner["text"] for inner in chunk["thinking"] if inner["type"] == "text")
        for message in messages
        for chunk in blocks(message)
        if chunk["type"] == "thinking"
    ]
    own = [
        part.text for message in history for part in message.reasoning if part.provider == "mistral"
    ]
    assert thoughts == own, (
        f"{len(thoughts)} thinking chunks sent for Mistral's {len(own)} thoughts"
    )


# What Groq answers with 400 (it rejects the fields it does not know, WIRE-NOTES.md;
# issue 10): these body fields, and these on any message (`name` on a tool message).
GROQ_REJECTS = frozenset({"stream_options", "safety_identifier"})
GROQ_MESSAGE_REJECTS = frozenset({"reasoning_content", "refusal", "audio"})
GROQ_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})
GROQ_USER_PARTS = frozenset({"text", "image_url"})
# Whether a model takes an assistant `reasoning` field ("reasoning is not supported
# with this model"): Groq's reasoning models, by its documentation, and one that is not.
GROQ_TAKES_REASONING = {GROQ_MODEL: True, QWEN_MODEL: True, GROQ_PLAIN_MODEL: False}
THINK = re.compile(r"<think>(.*?)</think>", re.DOTALL)


def check_groq_rules(body: dict[str, Any], history: ChatHistory) -> None:
    """Groq: roles system, developer, user, assistant and tool; each tool call
    answered by the tool messages right after it, as in Chat Completions, under an
    id OpenAI would take (WIRE-NOTES gives Groq OpenAI's `call_...`; Groq's own ids,
    `fc_` and a UUID or 9 characters, fit it too); no field Groq rejects
    (`reasoning_content`, `refusal`, `audio`, a `name` on a tool message,
    `stream_options`, `safety_identifier`, `max_tokens` beside
    `max_completion_tokens`); user content of text and images only, tool messages
    of text only; and reasoning Groq's own only."""
    assert not GROQ_REJECTS & body.keys(), GROQ_REJECTS & body.keys()
    assert not {"max_tokens", "max_completion_tokens"} <= body.keys(), "one token limit"
    messages = body["messages"]
    assert {message["role"] for message in messages} <= GROQ_ROLES
    check_openai_call_ids(messages)
    for message in messages:
        rejected = GROQ_MESSAGE_REJECTS & message.keys()
        assert not rejected, f"Groq rejects {rejected} on {message['role']} messages"
        if message["role"] != "assistant":
            assert "reasoning" not in message, f"reasoning on a {message['role']} message"
        kinds = {block["type"] for block in blocks(message)}
        if message["role"] == "tool":
            assert "name" not in message, "Groq rejects a name on a tool message"
            assert kinds <= {"text"}, f"a tool message takes text only, not {kinds}"
        if message["role"] == "user":
            assert kinds <= GROQ_USER_PARTS, (
                f"Groq's user messages take no {kinds - GROQ_USER_PARTS}"
            )
    check_groq_reasoning(body, history)


def check_groq_reasoning(body: dict[str, Any], history: ChatHistory) -> None:
    """Reasoning goes to Groq as Groq made it only: inside `<think>` tags at the start
    of an assistant's content, as it came, or in the `reasoning` field, to a model that
    takes one; to such a model, every thought Groq made, in order."""
    model = body["model"]
    assert model in GROQ_TAKES_REASONING, f"whether {model} takes reasoning back is unknown"
    sent: list[str] = []
    for message in body["messages"]:
        if message["role"] != "assistant":
            continue
        texts = [block["text"] for block in blocks(message) if block["type"] == "text"]
        sent += [thought.strip() for text in texts for thought in THINK.findall(text)]
        if "reasoning" in message:
            assert GROQ_TAKES_REASONING[model], f"{model} takes no reasoning field"
            sent.append(message["reasoning"])
    own = [
        part.text for message in history for part in message.reasoning if part.provider == "groq"
    ]
    unmade = [thought for thought in sent if thought not in own]
    assert not unmade, f"reasoning Groq did not make was sent: {unmade}"
    if GROQ_TAKES_REASONING[model]:
        assert sent == [text for text in own if text], "Groq's reasoning, back to its model"


def check_responses_rules(body: dict[str, Any]) -> None:
    """Responses API: function_call and function_call_output items pair up by
    call_id, each output after its call; call_ids of at most 64 characters."""
    items = body["input"] if isinstance(body["input"], list) else []
    calls: list[str] = []
    outputs: list[str] = []
    for item in items:
        if item.get("type") == "function_call":
            calls.append(item["call_id"])
        elif item.get("type") == "function_call_output":
            assert item["call_id"] in calls, "an output answers a call before it"
            outputs.append(item["call_id"])
    assert sorted(outputs) == sorted(calls)
    for call_id in calls:
        assert len(call_id) <= 64, call_id
        assert TOOL_CALL_ID.fullmatch(call_id), call_id


def check_google_rules(body: dict[str, Any], history: ChatHistory) -> None:
    """Gemini's rules (its API reference and thought-signatures guide): two roles,
    no empty content, each function response named after a call, the first call
    of each model turn signed (or sent unsigned as Gemini made it), no id made
    here sent."""
    made = {
        part.id
        for message in history
        for part in message.tool_calls
        if part.provider_data.get("google", {}).get("forms", {}).get("id") == "made"
    }
    called: dict[str | None, str] = {}
    for content in body["contents"]:
        assert content["role"] in {"user", "model"}
        assert content["parts"], "Gemini refuses an empty content"
        calls = [part for part in content["parts"] if "functionCall" in part]
        for part in calls:
            call = part["functionCall"]
            assert call.get("id") not in made
            called[call.get("id")] = call["name"]
        for part in content["parts"]:
            if "functionResponse" in part:
                response = part["functionResponse"]
                assert response["name"] == called[response.get("id")]
                assert response.get("id") not in made
    assert set(body) <= {"contents", "systemInstruction", "tools", "toolConfig", "generationConfig"}


_LOSS_PATH = re.compile(
    r"messages\[(\d+)\](?:\.parts\[(\d+)\](?:\.content\[(\d+)\])?)?"
    r"(?:\.provider_data\.([\w-]+)\.fields\.(\w+)|\.(\w+))?"
)


def part_at(history: ChatHistory, path: str) -> Any:
    """The message, part or tool-result content a loss path names; a field at its
    end (`.id`) must be one of that part's, and a kept wire field
    (`.provider_data.anthropic.fields.cache_control`) one it holds."""
    match = _LOSS_PATH.fullmatch(path)
    assert match is not None, f"not a path into the history: {path}"
    message, part, content, provider, wire_field, field = match.groups()
    found: Any = history.messages[int(message)]
    if part is not None:
        found = found.parts[int(part)]
    if content is not None:
        found = found.content[int(content)]
    if wire_field is not None:
        assert wire_field in found.provider_data[provider]["fields"], path
    if field is not None:
        assert field in type(found).model_fields, path
    return found


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def shows(part: ReasoningPart, body: dict[str, Any], history: ChatHistory) -> str | None:
    """A piece of `part` found in `body`: its signature, its redacted data, or a line
    of its text (one long enough to tell, that no visible text of the history has)."""
    visible = "\n".join(
        piece.text
        for message in history
        for item in message.parts
        for piece in (item.content if isinstance(item, ToolResultPart) else (item,))
        if isinstance(piece, TextPart)
    )
    lines = [line.strip() for line in part.text.splitlines()]
    traces = [line for line in lines if len(line) >= 12 and line not in visible]
    traces += [secret for secret in (part.signature, part.redacted_data) if secret]
    return next((trace for text in strings(body) for trace in traces if trace in text), None)


# --- Anthropic's tool turn with signed thinking, mid tool loop ---


def test_the_tool_loop_goes_back_to_anthropic_with_the_thinking_signed_as_it_came() -> None:
    history = fixed_version_loop()
    thinking = history.messages[1].parts[0]
    assert isinstance(thinking, ReasoningPart)
    assert thinking.provider == "anthropic"
    body, report = to_anthropic(history, FIXED_VERSION_TOOL)
    assert not report
    # What llm-anthropic sent back for this loop, and Anthropic answered.
    sent_back = recording(FIXED_VERSION, "anthropic")[1].request.json["messages"]
    assert body["messages"][1]["content"][0] == sent_back[1]["content"][0]
    assert body["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": thinking.text,
        "signature": thinking.signature,
    }
    # The tool_use block as Anthropic sent it, its `caller` included.
    assert body["messages"][1]["content"][1] == {
        **sent_back[1]["content"][1],
        "caller": {"type": "direct"},
    }
    assert body["messages"][2] == sent_back[2]
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 1024}


def test_mid_tool_loop_the_history_goes_to_chat_completions() -> None:
    history = fixed_version_loop()
    body, report = to_chat_completions(history, FIXED_VERSION_TOOL)
    assert body == {
        "model": "gpt-4.1-mini",
        "messages": [
            {"role": "user", "content": FIXED_VERSION_QUESTION},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": FIXED_VERSION_CALL,
                        "type": "function",
                        "function": {"name": "fixed_version", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": FIXED_VERSION_CALL, "content": "0.32a0"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "fixed_version",
                    "description": "Return a fixed test version string",
                    "parameters": {"properties": {}, "type": "object"},
                },
            }
        ],
    }
    thinking = history.messages[1].reasoning[0]
    assert losses(report) == [("messages[1].parts[0]", "dropped")]
    assert part_at(history, "messages[1].parts[0]") is thinking
    assert "anthropic" in report.losses[0].reason
    assert report.target == "openai"
    assert shows(thinking, body, history) is None  # not turned into text


def test_without_a_report_each_loss_is_a_warning_naming_the_part() -> None:
    history = fixed_version_loop()
    request = ChatRequest(model="gpt-4.1-mini", messages=tuple(history.messages))
    with pytest.warns(TranslationWarning, match=r"openai: messages\[1\]\.parts\[0\]: dropped"):
        openai_adapter.encode_request(request)


def test_mid_tool_loop_the_history_goes_to_the_responses_api() -> None:
    history = fixed_version_loop()
    body, report = to_responses(history, FIXED_VERSION_TOOL)
    assert body == {
        "model": "gpt-5-mini",
        "input": [
            {"role": "user", "content": FIXED_VERSION_QUESTION},
            {
                "type": "function_call",
                "call_id": FIXED_VERSION_CALL,
                "name": "fixed_version",
                "arguments": "{}",
            },
            {"type": "function_call_output", "call_id": FIXED_VERSION_CALL, "output": "0.32a0"},
        ],
        "tools": [
            {
                "type": "function",
                "name": "fixed_version",
                "description": "Return a fixed test version string",
                "parameters": {"properties": {}, "type": "object"},
                "strict": False,
            }
        ],
        "include": ["reasoning.encrypted_content"],
    }
    thinking = history.messages[1].reasoning[0]
    assert losses(report) == [("messages[1].parts[0]", "dropped")]
    assert part_at(history, "messages[1].parts[0]") is thinking
    assert report.target == "openai-responses"
    assert shows(thinking, body, history) is None  # not turned into text


def test_mid_tool_loop_the_history_goes_to_mistral_and_back_to_anthropic_signed() -> None:
    history = fixed_version_loop()
    signed, _ = to_anthropic(history, FIXED_VERSION_TOOL)
    body, report = to_mistral(history, FIXED_VERSION_TOOL)
    stand_in = body["messages"][1]["tool_calls"][0]["id"]
    assert body["messages"] == [
        {"role": "user", "content": FIXED_VERSION_QUESTION},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": stand_in,
                    "type": "function",
                    "function": {"name": "fixed_version", "arguments": "{}"},
                }
            ],
            "content": None,
        },
        {"role": "tool", "tool_call_id": stand_in, "content": "0.32a0"},
    ]
    assert body["tools"] == to_chat_completions(history, FIXED_VERSION_TOOL)[0]["tools"]
    # Anthropic's thinking left out; its id, which Mistral cannot take, rewritten alike
    # in the call and its result.
    assert losses(report) == [
        ("messages[1].parts[0]", "dropped"),
        ("messages[1].parts[1].id", "transformed"),
        ("messages[2].parts[0].tool_call_id", "transformed"),
    ]
    assert part_at(history, "messages[1].parts[0]").provider == "anthropic"
    assert rewritten(history, report) == [FIXED_VERSION_CALL] * 2
    assert report.target == "mistral"
    assert to_mistral(history, FIXED_VERSION_TOOL)[0] == body  # the same stand-in again

    # Back to Anthropic: its thinking signed as it came, the call under its own id.
    body, report = to_anthropic(history, FIXED_VERSION_TOOL)
    assert not report
    assert body == signed
    sent_back = recording(FIXED_VERSION, "anthropic")[1].request.json["messages"]
    assert body["messages"][1]["content"][0] == sent_back[1]["content"][0]


def test_mid_tool_loop_the_history_goes_to_groq_and_back_to_anthropic_signed() -> None:
    history = fixed_version_loop()
    signed, _ = to_anthropic(history, FIXED_VERSION_TOOL)
    body, report = to_groq(history, FIXED_VERSION_TOOL)
    # As to Chat Completions: Groq takes Anthropic's id as it is.
    assert body == {**to_chat_completions(history, FIXED_VERSION_TOOL)[0], "model": GROQ_MODEL}
    assert list(strings(body)).count(FIXED_VERSION_CALL) == 2  # the call and its result
    # Anthropic's thinking left out, reported: Groq takes its own reasoning only.
    assert losses(report) == [("messages[1].parts[0]", "dropped")]
    assert "anthropic" in report.losses[0].reason
    assert report.target == "groq"

    body, report = to_anthropic(history, FIXED_VERSION_TOOL)
    assert not report
    assert body == signed


def test_a_user_turn_right_after_a_tool_result_goes_to_mistral_after_an_assistant_turn() -> None:
    history = fixed_version_loop()
    history.add_message(Message.user("Skip the joke."))
    body, report = to_mistral(history, FIXED_VERSION_TOOL)
    stand_in = body["messages"][2]["tool_call_id"]
    assert body["messages"][2:] == [
        {"role": "tool", "tool_call_id": stand_in, "content": "0.32a0"},
        {"role": "assistant", "content": "OK"},
        {"role": "user", "content": "Skip the joke."},
    ]
    assert losses(report)[3:] == [("messages[3]", "transformed")]
    assert part_at(history, "messages[3]") is history.last_message
    # Anthropic takes the user's text in the turn that holds the tool result.
    body, report = to_anthropic(history, FIXED_VERSION_TOOL)
    assert not report
    assert [block["type"] for block in body["messages"][2]["content"]] == ["tool_result", "text"]


# --- OpenAI answers; the Responses API's encrypted reasoning ---


@pytest.fixture
def weather_history() -> ChatHistory:
    return weather_loop(fixed_version_loop())


def test_encrypted_reasoning_goes_back_to_the_responses_api_exactly(
    weather_history: ChatHistory,
) -> None:
    reasoning = weather_history.messages[5].parts[0]
    assert isinstance(reasoning, ReasoningPart)
    assert reasoning.provider == "openai-responses"
    assert (reasoning.signature or "").startswith("gAAAAA")
    body, report = to_responses(weather_history, FIXED_VERSION_TOOL, WEATHER_TOOL)
    # What pydantic-ai sent back for this loop, and the Responses API answered.
    _, sent_back = recording(WEATHER, "openai")
    recorded_reasoning, recorded_call, recorded_output = sent_back.request.json["input"][1:]
    assert body["input"][3:] == [
        {"role": "assistant", "content": TOKYO_ANSWER},
        {"role": "user", "content": WEATHER_QUESTION},
        recorded_reasoning,
        {**recorded_call, "status": "completed"},
        recorded_output,
    ]
    assert recorded_reasoning["encrypted_content"] == reasoning.signature
    assert losses(report) == [("messages[1].parts[0]", "dropped")]  # Anthropic's thinking


@pytest.mark.parametrize("target", [to_chat_completions, to_groq])
def test_chat_completions_and_groq_take_neither_providers_reasoning_back(
    weather_history: ChatHistory, target: Callable[..., tuple[dict[str, Any], TranslationReport]]
) -> None:
    body, report = target(weather_history, FIXED_VERSION_TOOL, WEATHER_TOOL)
    assert body["messages"][3:] == [
        {"role": "assistant", "content": TOKYO_ANSWER},
        {"role": "user", "content": WEATHER_QUESTION},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": WEATHER_CALL,
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": WEATHER_CALL, "content": "Sunny, 22C in Paris"},
    ]
    assert losses(report) == [
        ("messages[1].parts[0]", "dropped"),
        ("messages[5].parts[0]", "dropped"),
    ]
    assert [part_at(weather_history, loss.path).provider for loss in report.losses] == [
        "anthropic",
        "openai-responses",
    ]


# The Responses API's call and its result (`weather_loop`'s [5] and [6]), as
# Anthropic's turns.
ANTHROPIC_WEATHER_TURNS = [
    {
        "role": "assistant",
        "content": [
            {
                "type": "tool_use",
                "id": WEATHER_CALL,
                "name": "get_weather",
                "input": {"city": "Paris"},
            }
        ],
    },
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": WEATHER_CALL, "content": "Sunny, 22C in Paris"}
        ],
    },
]


def test_mid_openai_tool_loop_anthropic_gets_its_own_thinking_only_and_thinking_off(
    weather_history: ChatHistory,
) -> None:
    body, report = to_anthropic(weather_history, FIXED_VERSION_TOOL, WEATHER_TOOL)
    thinking = weather_history.messages[1].parts[0]
    assert isinstance(thinking, ReasoningPart)
    assert body["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": thinking.text,
        "signature": thinking.signature,
    }
    assert body["messages"][5:] == ANTHROPIC_WEATHER_TURNS
    # The open tool loop is OpenAI's: no thinking block opens it, which Anthropic
    # demands with thinking on; so this call goes with thinking off, reported.
    assert body["thinking"] == {"type": "disabled"}
    assert losses(report) == [("messages[5].parts[0]", "dropped"), ("reasoning", "transformed")]
    assert part_at(weather_history, "messages[5].parts[0]").provider == "openai-responses"


def test_encrypted_reasoning_is_left_out_for_mistral_and_goes_back_to_the_responses_api(
    weather_history: ChatHistory,
) -> None:
    tools = (FIXED_VERSION_TOOL, WEATHER_TOOL)
    sent, _ = to_responses(weather_history, *tools)
    body, report = to_mistral(weather_history, *tools)
    assert losses(report) == [
        ("messages[1].parts[0]", "dropped"),
        ("messages[1].parts[1].id", "transformed"),
        ("messages[2].parts[0].tool_call_id", "transformed"),
        ("messages[5].parts[0]", "dropped"),
        ("messages[5].parts[1].id", "transformed"),
        ("messages[6].parts[0].tool_call_id", "transformed"),
    ]
    dropped = [part_at(weather_history, path) for path, kind in losses(report) if kind == "dropped"]
    assert [part.provider for part in dropped] == ["anthropic", "openai-responses"]
    assert rewritten(weather_history, report) == [FIXED_VERSION_CALL] * 2 + [WEATHER_CALL] * 2
    stand_ins = [m["tool_calls"][0]["id"] for m in body["messages"] if m.get("tool_calls")]
    assert len(set(stand_ins)) == 2
    assert body["messages"][3:5] == [
        {"role": "assistant", "content": TOKYO_ANSWER},
        {"role": "user", "content": WEATHER_QUESTION},
    ]

    # Back to the Responses API: its reasoning exactly, its call under its own id.
    body, report = to_responses(weather_history, *tools)
    assert body == sent
    assert body["input"][5]["encrypted_content"] == dropped[1].signature
    assert body["input"][6]["call_id"] == WEATHER_CALL
    assert losses(report) == [("messages[1].parts[0]", "dropped")]


# --- the whole journey, the history saved and loaded between hops ---


def test_a_conversation_moves_from_anthropic_to_openai_mistral_and_groq_and_back(
    tmp_path: Path,
) -> None:
    history = saved_and_loaded(fixed_version_loop(), tmp_path)
    for target in (to_chat_completions, to_responses, to_mistral, to_groq, to_openrouter, to_xai):
        target(history, FIXED_VERSION_TOOL)

    history = saved_and_loaded(weather_loop(history), tmp_path)
    for target in (to_groq, to_mistral, to_xai, to_openrouter, to_chat_completions, to_responses):
        target(history, FIXED_VERSION_TOOL, WEATHER_TOOL)

    _, paris = recording(WEATHER, "openai")
    history.add_response(answer(paris, responses_adapter))
    history.add_message(Message.user("Thanks! Which version did the tool report earlier?"))
    history = saved_and_loaded(history, tmp_path)
    body, report = to_anthropic(history, FIXED_VERSION_TOOL, WEATHER_TOOL)

    thinking = recording(FIXED_VERSION, "anthropic")[1].request.json["messages"][1]["content"][0]
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert body["messages"] == [
        {"role": "user", "content": FIXED_VERSION_QUESTION},
        {
            "role": "assistant",
            "content": [
                thinking,
                {
                    "type": "tool_use",
                    "id": FIXED_VERSION_CALL,
                    "name": "fixed_version",
                    "input": {},
                    "caller": {"type": "direct"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": FIXED_VERSION_CALL, "content": "0.32a0"}
            ],
        },
        {"role": "assistant", "content": TOKYO_ANSWER},
        {"role": "user", "content": WEATHER_QUESTION},
        *ANTHROPIC_WEATHER_TURNS,
        {"role": "assistant", "content": PARIS_ANSWER},
        {"role": "user", "content": "Thanks! Which version did the tool report earlier?"},
    ]
    assert losses(report) == [("messages[5].parts[0]", "dropped")]
    assert part_at(history, "messages[5].parts[0]").provider == "openai-responses"
    # Usage of the four answers, from two providers and three APIs, adds up.
    assert (history.usage.input_tokens, history.usage.output_tokens) == (
        598 + 75 + 50 + 149,
        92 + 15 + 81 + 17,
    )


def test_claude_codes_system_turn_moves_to_mistral_and_chat_completions_and_back_in_place(
    tmp_path: Path,
) -> None:
    """Claude Code's request: the user's turn, then a system turn (which Claude Opus
    4.8 takes there). Ending the history, it goes to Mistral as a user message
    (reported), to Chat Completions in place; once answered, in place to both, and
    back to Anthropic where it came."""
    (interaction,) = load_cassette(FIXTURES / "anthropic" / "system_in_messages.json").interactions
    assert interaction.request is not None
    request = anthropic_adapter.decode_request(interaction.request.json)
    history = saved_and_loaded(ChatHistory(messages=list(request.messages)), tmp_path)
    only_tools = interaction.request.json["messages"][1]["content"]

    body, report = to_mistral(history, *request.tools)
    assert body["messages"][-1] == {"role": "user", "content": only_tools}
    assert losses(report) == [("messages[2]", "transformed")]
    body, report = to_chat_completions(history, *request.tools)
    assert body["messages"][-1] == {"role": "system", "content": only_tools}
    assert losses(report) == []

    stream = interaction.response.stream_payloads()
    history.add_response(accumulate(anthropic_adapter.decode_stream(stream)))
    (call,) = history.last_message.tool_calls
    history.add_message(Message.tool_result(call.id, "src/bookshop/cli.py"))
    history = saved_and_loaded(history, tmp_path)
    for target in (to_mistral, to_chat_completions):
        body, report = target(history, *request.tools)
        assert [m["role"] for m in body["messages"]] == [
            "system", "user", "system", "assistant", "tool"
        ]  # fmt: skip
        # Only the call's id may change (Mistral's 9 characters), alike in its result.
        assert {path for path, _ in losses(report)} <= {
            "messages[3].parts[1].id",
            "messages[4].parts[0].tool_call_id",
        }
    body, report = to_anthropic(history, *request.tools, reasoning=None, model=SYSTEM_TURN_MODEL)
    assert body["messages"][:2] == interaction.request.json["messages"]
    assert [turn["role"] for turn in body["messages"]] == ["user", "system", "assistant", "user"]
    assert losses(report) == []


def openrouter_weather_loop() -> ChatHistory:
    """Through OpenRouter, Anthropic's model reasons (signed, a `reasoning.text`
    entry) and calls `get_weather`; the application runs it."""
    first, _ = load_cassette(OPENROUTER_WEATHER).interactions
    assert first.request is not None
    request = openrouter_adapter.decode_request(first.request.json)
    history = ChatHistory(messages=list(request.messages))
    history.add_response(answer(first, openrouter_adapter))
    (call,) = history.messages[-1].tool_calls
    history.add_message(Message.tool_result(call.id, "Sunny, 22C in Lisbon"))
    return history


def test_openrouter_s_signed_reasoning_goes_back_to_openrouter_only_in_place(
    tmp_path: Path,
) -> None:
    history = saved_and_loaded(openrouter_weather_loop(), tmp_path)
    entry = history.messages[2].parts[0]
    assert isinstance(entry, ReasoningPart)
    assert (entry.provider, entry.signature is not None) == ("openrouter", True)
    sent, report = to_openrouter(history, WEATHER_TOOL)
    assert report.losses == []
    assert sent["messages"][2]["reasoning_details"][0]["signature"] == entry.signature

    for target in (to_anthropic, to_chat_completions, to_responses, to_mistral, to_groq, to_xai):
        body, report = target(history, WEATHER_TOOL)
        assert ("messages[2].parts[0]", "dropped") in losses(report), target

    body, report = to_openrouter(saved_and_loaded(history, tmp_path), WEATHER_TOOL)
    assert body == sent


def test_xai_s_reasoning_goes_back_to_xai_only_as_it_came(tmp_path: Path) -> None:
    first, second = load_cassette(XAI_REASONING).interactions
    assert first.request is not None
    assert second.request is not None
    request = xai_adapter.decode_request(first.request.json)
    history = ChatHistory(messages=list(request.messages))
    history.add_response(answer(first, xai_adapter))
    history.add_message(Message.user("And 101*4?"))
    history = saved_and_loaded(history, tmp_path)
    (thought,) = history.messages[2].reasoning
    assert thought.provider == "xai"

    body, report = to_xai(history)

    assert report.losses == []
    assert body["messages"] == second.request.json["messages"]
    others = (to_anthropic, to_chat_completions, to_responses, to_mistral, to_groq, to_openrouter)
    for target in (*others, to_google):
        body, report = target(history)
        assert ("messages[2].parts[0]", "dropped") in losses(report), target


def test_an_application_may_change_the_body_it_sends_without_changing_the_history() -> None:
    history = fixed_version_loop()
    before = history.model_dump_json()
    body, _ = to_anthropic(history, FIXED_VERSION_TOOL)
    sent = copy.deepcopy(body)
    # Prompt caching added, and blocks edited, in the body about to be sent.
    body["messages"][-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    body["messages"][1]["content"][0]["signature"] = "changed"
    body["messages"][1]["content"][1]["caller"]["type"] = "changed"
    assert history.model_dump_json() == before
    assert to_anthropic(history, FIXED_VERSION_TOOL)[0] == sent


# --- Mistral's answers: thinking without a signature, 9-character ids ---


def recorded_message(interaction: Interaction) -> dict[str, Any]:
    """The message of a recorded Chat Completions answer, as it came, less the
    `tool_calls: null` of every Mistral answer (which a request need not carry)."""
    message: dict[str, Any] = interaction.response.json["choices"][0]["message"]
    return {key: value for key, value in message.items() if (key, value) != ("tool_calls", None)}


def test_mistral_thinking_and_tool_call_go_to_the_other_apis() -> None:
    history = mistral_loop()
    thinking = history.messages[5].parts[0]
    assert isinstance(thinking, ReasoningPart)
    assert (thinking.provider, thinking.signature) == ("mistral", None)
    assert history.messages[1].tool_calls[0].id == MISTRAL_CALL

    # Anthropic takes no empty text block: Mistral's "" beside its call is left out too.
    body, report = to_anthropic(history, WEATHER_TOOL)
    assert losses(report) == [
        ("messages[1].parts[0]", "dropped"),
        ("messages[5].parts[0]", "dropped"),
    ]
    assert "mistral" in report.losses[1].reason
    assert body["messages"][1]["content"] == [
        {"type": "tool_use", "id": MISTRAL_CALL, "name": "get_weather", "input": {"city": "Paris"}}
    ]
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert list(strings(body)).count(MISTRAL_CALL) == 2  # the call and its result

    for target in (to_chat_completions, to_responses, to_groq):
        body, report = target(history, WEATHER_TOOL)
        # The Responses API takes no empty message: Mistral's "" is left out there too.
        empty_text = [("messages[1].parts[0]", "dropped")] if target is to_responses else []
        assert losses(report) == [*empty_text, ("messages[5].parts[0]", "dropped")]
        assert part_at(history, "messages[5].parts[0]") is thinking
        assert list(strings(body)).count(MISTRAL_CALL) == 2  # the id fits: kept


def test_mistral_thinking_and_ids_go_back_to_mistral_as_they_came() -> None:
    history = mistral_loop()
    body, report = to_mistral(history, WEATHER_TOOL)
    assert not report
    called, told = recording(MISTRAL_WEATHER, "mistral")
    (thought,) = recording(MAGISTRAL, "mistral")
    # Mistral's three answers as it sent them (its thinking chunk and its id
    # included), the tool result as pydantic-ai sent it.
    assert body["messages"] == [
        {"role": "user", "content": WEATHER_QUESTION},
        recorded_message(called),
        told.request.json["messages"][2],
        recorded_message(told),
        thought.request.json["messages"][-1],
        recorded_message(thought),
        {"role": "user", "content": RIVER_THANKS},
    ]
    assert body["messages"][5]["content"][0]["type"] == "thinking"
    # Through each other API, and back: the same body.
    for target in (to_anthropic, to_chat_completions, to_responses, to_groq):
        target(history, WEATHER_TOOL)
        assert to_mistral(history, WEATHER_TOOL) == (body, report)


def test_a_history_ending_in_an_answer_goes_to_mistral_as_a_prefix_to_go_on_from() -> None:
    history = ChatHistory(messages=mistral_loop().messages[:-1])
    request = ChatRequest(model=MISTRAL_MODEL, messages=tuple(history.messages))
    report = TranslationReport()
    body = mistral_adapter.encode_request(request, report=report)
    # Mistral's own form of the prefill Anthropic takes: the answer goes on from it.
    asked_on = (*request.messages, Message.user(RIVER_THANKS))
    sent = mistral_adapter.encode_request(request.model_copy(update={"messages": asked_on}))
    assert body["messages"][5] == {**sent["messages"][5], "prefix": True}
    assert report.losses == []
    assert history.last_message.role == "assistant"


def test_reasoning_pydantic_ai_sent_to_mistral_as_thinking_is_left_out() -> None:
    reasoned, thought = recording(MAGISTRAL)
    assert (reasoned.path, thought.provider) == ("/v1/responses", "mistral")
    asked = thought.request.json["messages"]
    history = ChatHistory(messages=[Message.user(asked[0]["content"])])
    history.add_response(answer(reasoned, responses_adapter))
    history.add_message(Message.user(asked[2]["content"]))

    # pydantic-ai sent o3-mini's reasoning summary on to magistral as a thinking chunk,
    # which Mistral takes for its own: here it is left out, and reported.
    body, report = to_mistral(history)
    summary, text = asked[1]["content"]
    assert summary["type"] == "thinking"
    assert body["messages"] == [asked[0], {"role": "assistant", "content": text["text"]}, asked[2]]
    assert losses(report) == [("messages[1].parts[0]", "dropped")]

    # Magistral's answer appended: each provider gets its own reasoning back, only.
    history.add_response(answer(thought, mistral_adapter))
    history.add_message(Message.user(RIVER_THANKS))
    body, report = to_responses(history)
    encrypted = reasoned.response.json["output"][0]["encrypted_content"]
    assert body["input"][1]["encrypted_content"] == encrypted
    assert losses(report) == [("messages[3].parts[0]", "dropped")]
    body, report = to_mistral(history)
    assert body["messages"][3] == recorded_message(thought)
    assert losses(report) == [("messages[1].parts[0]", "dropped")]


@pytest.mark.parametrize("target", [to_mistral, to_groq])
def test_an_openai_refusal_goes_as_text_to_an_api_with_no_refusal_field(
    target: Callable[..., tuple[dict[str, Any], TranslationReport]],
) -> None:
    (refused,) = recording(REFUSAL, "openai")
    asked = openai_adapter.decode_request(refused.request.json).messages
    history = ChatHistory(messages=list(asked))
    history.add_response(answer(refused, openai_adapter))
    history.add_message(Message.user("Why not?"))
    assert [message.role for message in history] == ["user", "assistant", "user"]
    # Mistral and Groq have no `refusal` field (they reject one): the refusal goes as
    # the assistant's text, reported, as it goes to Anthropic.
    body, report = target(history)
    assert body["messages"][1] == {
        "role": "assistant",
        "content": recorded_message(refused)["refusal"],
    }
    assert losses(report) == [("messages[1].parts[0]", "transformed")]
    assert to_anthropic(history, reasoning=None)[0]["messages"][1] == body["messages"][1]


@pytest.mark.parametrize("made_by", ["openai", "anthropic"])
def test_an_answer_with_nothing_mistral_takes_is_left_out_and_reported(made_by: str) -> None:
    history = ChatHistory(messages=[Message.user("Go ahead.")])
    if made_by == "openai":
        (empty,) = recording(EMPTY_ANSWER, "openai")
        history.add_response(answer(empty, openai_adapter))
    else:  # thinking only, as when Anthropic is cut off mid-thought
        thinking = fixed_version_loop().messages[1].parts[0]
        history.add_message(Message(role="assistant", parts=[thinking]))
    history.add_message(Message.user("Go on."))
    body, report = to_mistral(history)
    assert [message["role"] for message in body["messages"]] == ["user", "user"]
    paths = [loss.path for loss in report.losses]
    assert paths, "left out, reported"
    assert all(path == "messages[1]" or path.startswith("messages[1].") for path in paths), paths


# --- Groq's answers: reasoning in its field or in `<think>` tags ---


def test_groq_reasoning_goes_back_to_groq_as_it_came() -> None:
    history = groq_retry_loop()
    _, retried, answered = recording(GROQ_RETRY, "groq")
    # pydantic-ai sent the reasoning of Groq's second call back inside `<think>` tags:
    # split out, it is the reasoning Groq answered with.
    retold = history.messages[4].parts[0]
    assert isinstance(retold, ReasoningPart)
    assert (retold.provider, retold.text) == ("groq", recorded_message(retried)["reasoning"])
    assert history.messages[6].reasoning[0].provider == "groq"

    body, report = to_groq(history, RETRY_TOOL)
    assert not report
    # As pydantic-ai sent it, `<think>` tags included; Groq's answer as it came, its
    # reasoning in the `reasoning` field.
    assert body["messages"] == [
        *answered.request.json["messages"],
        recorded_message(answered),
        {"role": "user", "content": "Thanks."},
    ]
    assert "reasoning" in body["messages"][6]
    assert body["tools"] == answered.request.json["tools"]


@pytest.mark.parametrize(
    ("loop", "tools", "model", "said"),
    [
        pytest.param(groq_retry_loop, (RETRY_TOOL,), GROQ_MODEL, "messages[6]", id="gpt-oss"),
        pytest.param(strawberry_loop, (), QWEN_MODEL, "messages[1]", id="qwen3"),
    ],
)
def test_groq_reasoning_goes_back_in_its_field_only_to_a_model_that_takes_it(
    loop: Callable[[], ChatHistory], tools: tuple[ToolSpec, ...], model: str, said: str
) -> None:
    history = loop()
    (thought,) = part_at(history, said).reasoning
    body, report = to_groq(history, *tools, model=model)
    assert not report
    assert [m["reasoning"] for m in body["messages"] if "reasoning" in m] == [thought.text]

    # A model that takes none ("reasoning is not supported with this model"): left out,
    # reported; reasoning in `<think>` tags stays in the content, as it came.
    plain, report = to_groq(history, *tools, model=GROQ_PLAIN_MODEL)
    assert plain["messages"] == [
        {key: value for key, value in message.items() if key != "reasoning"}
        for message in body["messages"]
    ]
    assert losses(report) == [(f"{said}.parts[0]", "dropped")]
    assert GROQ_PLAIN_MODEL in report.losses[0].reason
    assert to_groq(history, *tools, model=model)[0] == body


@pytest.mark.parametrize("target", ["anthropic", "chat-completions", "responses-api", "mistral"])
def test_groq_reasoning_is_left_out_for_the_other_apis_and_goes_back_to_groq(target: str) -> None:
    history = groq_retry_loop()
    sent, _ = to_groq(history, RETRY_TOOL)
    body, report = TARGETS[target](history, RETRY_TOOL)
    # Both thoughts, the one split from `<think>` tags too (never sent as text: `send`).
    dropped = [loss for loss in report.losses if loss.kind == "dropped"]
    assert [loss.path for loss in dropped] == ["messages[4].parts[0]", "messages[6].parts[0]"]
    assert all("groq" in loss.reason for loss in dropped)
    assert not any("<think>" in text for text in strings(body))

    body, report = to_groq(history, RETRY_TOOL)
    assert not report
    assert body == sent


def test_a_groq_tool_call_goes_to_every_api_under_its_own_id_and_back() -> None:
    history = groq_weather_loop()
    assert history.messages[1].tool_calls[0].id == GROQ_CALL
    body, report = to_groq(history, WEATHER_TOOL)
    assert not report
    _, told = recording(GROQ_WEATHER, "groq")
    user, call, result = told.request.json["messages"]
    # As pydantic-ai sent them (the call with `content: null`, where it sent none),
    # Groq's answer as it came.
    assert body["messages"] == [
        user,
        {**call, "content": None},
        result,
        recorded_message(told),
        {"role": "user", "content": RIVER_THANKS},
    ]
    # Nine characters of [a-zA-Z0-9]: Mistral takes it as it is, as do the others.
    for target in (to_mistral, to_anthropic, to_chat_completions, to_responses):
        sent, report = target(history, WEATHER_TOOL)
        assert not report, target.__name__
        assert list(strings(sent)).count(GROQ_CALL) == 2  # the call and its result
    assert to_groq(history, WEATHER_TOOL)[0] == body


def test_an_image_in_a_tool_result_goes_to_groq_in_a_user_message() -> None:
    image = FilePart(media_type="image/png", url=ROSE)
    history = get_file_loop(TextPart(text="File attached"), image, by="groq")
    body, report = to_groq(history, GET_FILE_TOOL)
    # As pydantic-ai sent it, and Groq answered: the image after the tool message (the
    # call with `content: null`, where pydantic-ai sent none).
    _, described = recording(GROQ_GET_FILE, "groq")
    user, call, *results = described.request.json["messages"]
    assert body["messages"] == [user, {**call, "content": None}, *results]
    assert losses(report) == [("messages[2].parts[0].content[1]", "transformed")]
    assert part_at(history, "messages[2].parts[0].content[1]") is image

    # Chat Completions' call and the same result: as Chat Completions takes them.
    history = get_file_loop(TextPart(text="File attached"), image)
    body, report = to_groq(history, GET_FILE_TOOL)
    sent, moved = to_chat_completions(history, GET_FILE_TOOL)
    assert body["messages"] == sent["messages"]
    assert losses(report) == losses(moved)


def pdf_loop() -> ChatHistory:
    """The user sends a PDF (its bytes), which Chat Completions reads; the user asks on.

    [0] user (text, PDF), [1] assistant by Chat Completions, [2] user.
    """
    (read,) = recording(PDF, "openai")
    history = ChatHistory(messages=list(openai_adapter.decode_request(read.request.json).messages))
    history.add_response(answer(read, openai_adapter))
    history.add_message(Message.user("Thanks. Who wrote it?"))
    return history


def voice_loop() -> ChatHistory:
    """The user asks with a recording of their voice (WAV bytes).

    [0] user (text, audio).
    """
    wav = FilePart.from_bytes(b"RIFF\x24\x00\x00\x00WAVEfmt ", "audio/wav")
    return ChatHistory(messages=[Message.user(TextPart(text="Answer this."), wav)])


@pytest.mark.parametrize(
    ("loop", "media_type", "item"),
    [
        pytest.param(pdf_loop, "application/pdf", "file", id="pdf"),
        pytest.param(voice_loop, "audio/wav", "input_audio", id="wav"),
    ],
)
def test_a_users_file_groq_cannot_take_is_left_out_and_goes_to_chat_completions(
    loop: Callable[[], ChatHistory], media_type: str, item: str
) -> None:
    history = loop()
    question, file = history.messages[0].parts
    assert isinstance(question, TextPart)
    assert isinstance(file, FilePart)
    assert (file.media_type, file.url) == (media_type, None)

    # Groq's user messages take text and images only.
    body, report = to_groq(history)
    assert body["messages"][0] == {"role": "user", "content": question.text}
    assert losses(report) == [("messages[0].parts[1]", "dropped")]

    # Chat Completions takes it (its bytes in the body: `send`).
    body, report = to_chat_completions(history)
    assert not report
    assert [part["type"] for part in body["messages"][0]["content"]] == ["text", item]


@pytest.mark.parametrize(
    ("loop", "reason"),
    [(pdf_loop, "groq takes no documents"), (voice_loop, "groq takes no audio")],
    ids=["pdf", "wav"],
)
def test_groq_says_why_a_users_file_is_left_out(
    loop: Callable[[], ChatHistory], reason: str
) -> None:
    _, report = to_groq(loop())
    (loss,) = report.losses
    assert loss.kind == "dropped"
    assert loss.reason.startswith(reason), loss.reason


# --- redacted thinking ---


def test_redacted_thinking_goes_back_to_anthropic_only() -> None:
    first, second = recording(REDACTED, "anthropic")
    history = ChatHistory()
    history.add_message(Message.user(first.request.json["messages"][0]["content"][0]["text"]))
    history.add_response(answer(first, anthropic_adapter))
    history.add_message(Message.user("What was that?"))
    redacted = history.messages[1].parts[0]
    assert isinstance(redacted, ReasoningPart)
    assert redacted.redacted

    body, report = to_anthropic(history)
    assert not report
    assert body["messages"][1] == second.request.json["messages"][1]  # as pydantic-ai sent it

    for target in (to_chat_completions, to_responses, to_mistral, to_groq):
        body, report = target(history)
        assert losses(report) == [("messages[1].parts[0]", "dropped")]
        assert part_at(history, "messages[1].parts[0]") is redacted


# --- tool-call ids the target cannot take ---


def favorite_colors_loop() -> ChatHistory:
    """The history chatlas kept, and sent: the Responses API's two calls under their
    52-character item ids, and their results; then its answer.

    [0] user, [1] assistant (two calls), [2] tool (two results), [3] assistant.
    """
    _, answered = recording(FAVORITE_COLORS, "openai")
    kept = responses_adapter.decode_request(answered.request.json).messages
    history = ChatHistory(messages=list(kept))
    history.add_response(answer(answered, responses_adapter))
    return history


def kimi_loop() -> ChatHistory:
    """Kimi K2 (served by Groq, say) calls a tool twice, under ids no recording has
    (`functions.get_weather:0`); the application runs both.

    [0] user, [1] assistant (two calls), [2] tool, [3] tool.
    """
    calls = [
        {
            "id": f"functions.get_weather:{k}",
            "type": "function",
            "function": {"name": "get_weather", "arguments": f'{{"city":"{city}"}}'},
        }
        for k, city in enumerate(("Lisbon", "Porto"))
    ]
    kimi = openai_adapter.decode_response(
        {
            "id": "chatcmpl-kimi",
            "object": "chat.completion",
            "created": 1760000000,
            "model": "moonshotai/kimi-k2-instruct-0905",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": None, "tool_calls": calls},
                }
            ],
            "usage": {"prompt_tokens": 61, "completion_tokens": 30, "total_tokens": 91},
        }
    )
    history = ChatHistory(messages=[Message.user("Is it raining in Lisbon or Porto?")])
    history.add_response(kimi)
    for call, result in zip(history.last_message.tool_calls, ("Rain", "Clear"), strict=True):
        history.add_message(Message.tool_result(call.id, result, name=call.name))
    return history


def test_ids_too_long_for_chat_completions_are_rewritten_alike_in_call_and_result() -> None:
    history = favorite_colors_loop()
    call_ids = [call.id for call in history.messages[1].tool_calls]
    assert call_ids == [
        "fc_0ac6a4d9e19151d50169fb7cb76ccc81939c747589e4dddeb4",
        "fc_0ac6a4d9e19151d50169fb7cb76cdc819384be259721da45e4",
    ]

    body, report = to_chat_completions(history)
    on_the_wire = [call["id"] for call in body["messages"][1]["tool_calls"]]
    assert [len(call_id) for call_id in on_the_wire] == [40, 40]
    assert len(set(on_the_wire)) == 2
    assert [m["tool_call_id"] for m in body["messages"][2:4]] == on_the_wire
    assert losses(report) == [
        ("messages[1].parts[0].id", "transformed"),
        ("messages[1].parts[1].id", "transformed"),
        ("messages[2].parts[0].tool_call_id", "transformed"),
        ("messages[2].parts[1].tool_call_id", "transformed"),
    ]
    assert rewritten(history, report) == call_ids + call_ids
    # The same history, to the same provider again: the same stand-ins; and to Groq.
    assert to_chat_completions(history)[0] == body
    sent, again = to_groq(history)
    assert (sent["messages"], losses(again)) == (body["messages"], losses(report))

    # The Responses API (64 characters) and Anthropic take them as they are.
    body, report = to_responses(history)
    assert not report
    assert [item["call_id"] for item in body["input"][1:5]] == call_ids + call_ids
    body, report = to_anthropic(history)
    assert not report
    assert [block["id"] for block in body["messages"][1]["content"]] == call_ids


def test_ids_with_characters_anthropic_cannot_take_are_rewritten_alike() -> None:
    history = kimi_loop()
    each_call_and_result = [
        ("messages[1].parts[0].id", "transformed"),
        ("messages[1].parts[1].id", "transformed"),
        ("messages[2].parts[0].tool_call_id", "transformed"),
        ("messages[3].parts[0].tool_call_id", "transformed"),
    ]
    body, report = to_anthropic(history, WEATHER_TOOL, reasoning=None)
    calls = [block["id"] for block in body["messages"][1]["content"]]
    results = [block["tool_use_id"] for block in body["messages"][2]["content"]]
    assert calls == results
    assert calls[0] != calls[1]
    assert losses(report) == each_call_and_result
    assert history.last_message.tool_results[0].tool_call_id == "functions.get_weather:1"

    for target in (to_chat_completions, to_groq):
        body, report = target(history, WEATHER_TOOL)
        calls = [call["id"] for call in body["messages"][1]["tool_calls"]]
        assert [message["tool_call_id"] for message in body["messages"][2:]] == calls
        assert calls[0] != calls[1]
        assert losses(report) == each_call_and_result


@pytest.mark.parametrize(
    ("loop", "results"),
    [
        pytest.param(favorite_colors_loop, ["messages[2].parts[0]", "messages[2].parts[1]"]),
        pytest.param(kimi_loop, ["messages[2].parts[0]", "messages[3].parts[0]"]),
    ],
)
def test_other_providers_ids_go_to_mistral_as_nine_characters_alike_in_call_and_result(
    loop: Callable[[], ChatHistory], results: list[str]
) -> None:
    history = loop()
    if history.last_message.role == "assistant":
        history.add_message(Message.user("Thanks."))
    body, report = to_mistral(history, WEATHER_TOOL)
    calls = [call["id"] for call in body["messages"][1]["tool_calls"]]
    answers = [message["tool_call_id"] for message in body["messages"] if message["role"] == "tool"]
    assert answers == calls
    assert len(set(calls)) == 2
    assert losses(report) == [
        ("messages[1].parts[0].id", "transformed"),
        ("messages[1].parts[1].id", "transformed"),
        *((f"{result}.tool_call_id", "transformed") for result in results),
    ]
    assert rewritten(history, report) == [call.id for call in history.messages[1].tool_calls] * 2
    assert to_mistral(history, WEATHER_TOOL)[0] == body  # the same stand-ins again


# --- an image inside a tool result ---


# Who calls `get_file`: the recording and the adapter that reads it.
GET_FILE_CALLERS: dict[str, tuple[str, Any]] = {
    "openai": (GET_FILE, openai_adapter),
    "groq": (GROQ_GET_FILE, groq_adapter),
}


def get_file_loop(*content: TextPart | FilePart, by: str = "openai") -> ChatHistory:
    """Chat Completions (or Groq, `by`) calls `get_file`; the tool returns `content`.

    [0] user, [1] assistant (tool call), [2] tool.
    """
    path, adapter = GET_FILE_CALLERS[by]
    asked, _ = recording(path, by)
    history = ChatHistory(messages=[Message.user(GET_FILE_QUESTION)])
    history.add_response(answer(asked, adapter))
    (call,) = history.last_message.tool_calls
    history.add_message(Message.tool_result(call.id, content, name=call.name))
    return history


def test_an_image_in_a_tool_result_goes_to_chat_completions_in_a_user_message() -> None:
    image = FilePart(media_type="image/png", url=ROSE)
    history = get_file_loop(TextPart(text="File attached"), image)

    body, report = to_chat_completions(history, GET_FILE_TOOL)
    # Chat Completions tool messages take text only: the image follows them in a user
    # message, as pydantic-ai sent it and OpenAI answered.
    _, described = recording(GET_FILE, "openai")
    assert body["messages"] == described.request.json["messages"]
    assert body["messages"][3] == {
        "role": "user",
        "content": [{"type": "image_url", "image_url": {"url": ROSE}}],
    }
    assert losses(report) == [("messages[2].parts[0].content[1]", "transformed")]
    assert part_at(history, "messages[2].parts[0].content[1]") is image

    # The Responses API and Anthropic take the image where it is.
    body, report = to_responses(history, GET_FILE_TOOL)
    assert not report
    assert body["input"][2]["output"] == [
        {"type": "input_text", "text": "File attached"},
        {"type": "input_image", "image_url": ROSE},
    ]
    body, report = to_anthropic(history, GET_FILE_TOOL, reasoning=None)
    assert not report
    assert body["messages"][2]["content"][0]["content"] == [
        {"type": "text", "text": "File attached"},
        {"type": "image", "source": {"type": "url", "url": ROSE}},
    ]

    # OpenAI's description appended, the conversation goes on with Anthropic.
    history.add_response(answer(described, openai_adapter))
    history.add_message(Message.user("Thanks. Is it a rose?"))
    body, report = to_anthropic(history, GET_FILE_TOOL)
    assert not report
    assert [turn["role"] for turn in body["messages"]] == ["user", "assistant"] * 2 + ["user"]


def test_an_image_alone_in_a_tool_result_leaves_a_note_in_the_tool_message() -> None:
    download, _ = recording(JPEG_DOWNLOAD)
    assert download.host == "t3.ftcdn.net"
    assert download.response.body[:3] == b"\xff\xd8\xff"  # a JPEG
    image = FilePart.from_bytes(download.response.body, "image/jpeg")
    history = get_file_loop(image)

    body, report = to_chat_completions(history, GET_FILE_TOOL)
    call_id = history.messages[1].tool_calls[0].id
    assert body["messages"][2:] == [
        {"role": "tool", "tool_call_id": call_id, "content": "(the result is in the next message)"},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": f"data:image/jpeg;base64,{image.data}"}}
            ],
        },
    ]
    assert losses(report) == [("messages[2].parts[0].content[0]", "transformed")]

    body, report = to_anthropic(history, GET_FILE_TOOL, reasoning=None)
    assert not report
    assert body["messages"][2]["content"][0]["content"] == [
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/jpeg", "data": image.data},
        }
    ]


def test_an_image_in_a_tool_result_goes_to_mistral_after_an_assistant_turn() -> None:
    image = FilePart(media_type="image/png", url=ROSE)
    history = get_file_loop(TextPart(text="File attached"), image)
    body, report = to_mistral(history, GET_FILE_TOOL)
    # As pydantic-ai sent it, and Mistral answered: the tool's text in the tool message,
    # the image in a user message after it, an assistant turn between them (which the
    # SDK wrote as a text chunk, with `prefix: false`).
    stand_in = body["messages"][1]["tool_calls"][0]["id"]
    moved = {"role": "user", "content": [{"type": "image_url", "image_url": {"url": ROSE}}]}
    assert body["messages"][2:] == [
        {"role": "tool", "tool_call_id": stand_in, "content": "File attached"},
        {"role": "assistant", "content": "OK"},
        moved,
    ]
    _, described = recording(MISTRAL_GET_FILE, "mistral")
    assert described.request.json["messages"][3:] == [
        {"role": "assistant", "content": [{"type": "text", "text": "OK"}], "prefix": False},
        moved,
    ]
    assert losses(report)[:3] == [
        ("messages[1].parts[0].id", "transformed"),
        ("messages[2].parts[0].tool_call_id", "transformed"),
        ("messages[2].parts[0].content[1]", "transformed"),
    ]
    check_bridge_names_the_tool_result(report, "messages[2]")

    # Mistral's description appended, the user asks on: the same turns again.
    history.add_response(answer(described, mistral_adapter))
    history.add_message(Message.user("Thanks. Is it a rose?"))
    body, report = to_mistral(history, GET_FILE_TOOL)
    assert body["messages"][4] == moved
    check_bridge_names_the_tool_result(report, "messages[2]")


def check_bridge_names_the_tool_result(report: TranslationReport, tool_message: str) -> None:
    """The one assistant turn put after a tool message is reported on the tool message
    (or a part of it) whose files it goes before."""
    (bridge,) = [loss for loss in report.losses if "after a tool message" in loss.reason]
    assert bridge.kind == "transformed"
    assert re.fullmatch(re.escape(tool_message) + r"(\.parts\[\d+\].*)?", bridge.path), bridge.path


# --- every recorded answer, moved to every provider ---


class Source(NamedTuple):
    """An API whose recorded answers the histories are made of."""

    provider: str  # the cassettes' name for its host
    endpoint: str | tuple[str, ...]  # how its URL paths end
    adapter: Any
    folder: str  # its recordings, in the corpus
    target: str  # its own API, in TARGETS


SOURCES: dict[str, Source] = {
    "anthropic": Source("anthropic", "/v1/messages", anthropic_adapter, "anthropic", "anthropic"),
    "openai": Source(
        "openai", "/v1/chat/completions", openai_adapter, "openai-chat", "chat-completions"
    ),
    "openai-responses": Source(
        "openai", "/v1/responses", responses_adapter, "openai-responses", "responses-api"
    ),
    "mistral": Source("mistral", "/v1/chat/completions", mistral_adapter, "mistral", "mistral"),
    "groq": Source("groq", "/openai/v1/chat/completions", groq_adapter, "groq", "groq"),
    "bedrock": Source(
        "bedrock", ("/converse", "/converse-stream"), bedrock_adapter, "bedrock", "bedrock"
    ),
}


@functools.cache
def answers_in(path: Path, source: str) -> tuple[Interaction, ...]:
    """The interactions of `path` in which `source` (an adapter's name) answered; a
    response body recorded alone (vercel-ai's fixtures) is an answer of the API
    whose folder holds it."""
    provider, endpoint = SOURCES[source].provider, SOURCES[source].endpoint
    return tuple(
        interaction
        for interaction in load_cassette(path).interactions
        if interaction.response.status == 200
        and (
            interaction.request is None
            or (interaction.provider == provider and (interaction.path or "").endswith(endpoint))
        )
    )


TARGETS: dict[str, Callable[..., tuple[dict[str, Any], TranslationReport]]] = {
    "anthropic": to_anthropic,
    "chat-completions": to_chat_completions,
    "responses-api": to_responses,
    "mistral": to_mistral,
    "groq": to_groq,
    # The same API, to a model that takes no reasoning back.
    "groq-llama": functools.partial(to_groq, model=GROQ_PLAIN_MODEL),
    "bedrock": to_bedrock,
}


RECORDINGS = frozenset({".yaml", ".json"})  # cassettes, and response bodies alone


def answering_files(source: str) -> list[Path | MissingCorpus]:
    """The corpus files in which `source` answered (a `MissingCorpus` if none)."""
    return corpus_params(
        SOURCES[source].folder,
        keep=lambda path: path.suffix in RECORDINGS and bool(answers_in(path, source)),
        holding=f"answers from {source}",
    )


def case(source: str, path: Path | MissingCorpus, target: str, name: str) -> Any:
    return pytest.param(source, path, target, id=f"{corpus_id(path)}->{name}")


def recorded_answers() -> list[Any]:
    return [
        case(source, path, target, target)
        for source in SOURCES
        for path in answering_files(source)
        for target in TARGETS
    ]


def answered(response: ChatResponse) -> tuple[ChatHistory, tuple[ToolSpec, ...]]:
    """The history an application holds after `response`: its question, the answer,
    and a result for every tool call (or, when there is none, the user's next turn);
    with the tools it offered."""
    history = ChatHistory(messages=[Message.system("Answer briefly."), Message.user("Go ahead.")])
    history.add_response(response)
    calls = history.last_message.tool_calls
    for call in calls:
        history.add_message(Message.tool_result(call.id, "done", name=call.name))
    if not calls:
        history.add_message(Message.user("Go on."))
    names = dict.fromkeys(call.name for call in calls)
    return history, tuple(ToolSpec(name=name, parameters={"type": "object"}) for name in names)


def recorded_histories(
    recorded: Path | MissingCorpus, source: str
) -> Iterator[tuple[ChatHistory, tuple[ToolSpec, ...]]]:
    """The history and tools `answered` gives for each of `source`'s answers in `recorded`."""
    answers = answers_in(from_corpus(recorded), source)
    assert answers, "the file was picked for holding answers"
    for interaction in answers:
        yield answered(answer(interaction, SOURCES[source].adapter))


@pytest.mark.parametrize(("source", "recorded", "target"), recorded_answers())
def test_every_recorded_answer_moves_to_every_provider(
    source: str, recorded: Path | MissingCorpus, target: str
) -> None:
    """Each answer of the corpus, its tool calls answered, sent on to each API
    (its own included): every hop's checks (`send`) and the target's rules hold."""
    for history, tools in recorded_histories(recorded, source):
        body, report = TARGETS[target](history, *tools)
        assert body["model"] if target != "bedrock" else "model" not in body  # Bedrock's: its URL's
        check_the_answer_arrived(history, body, report, TAKES_REASONING_OF[target])


# Whose reasoning each target takes back (Groq's llama model takes none).
TAKES_REASONING_OF: dict[str, str | None] = {
    "anthropic": "anthropic",
    "chat-completions": None,
    "responses-api": "openai-responses",
    "mistral": "mistral",
    "groq": "groq",
    "groq-llama": None,
    "bedrock": "bedrock",
}
ANSWER = 2  # `answered`'s history: the system prompt, the question, the answer


def check_the_answer_arrived(
    history: ChatHistory, body: dict[str, Any], report: TranslationReport, taker: str | None
) -> None:
    """The recorded answer's texts, its tool calls (name and arguments) and their
    results show in the body, but for what a loss names; another provider's
    reasoning is reported dropped where it stands."""
    sent = list(strings(body))
    named = {loss.path: loss.kind for loss in report.losses}
    answer = history.messages[ANSWER]
    for position, part in enumerate(answer.parts):
        path = f"messages[{ANSWER}].parts[{position}]"
        match part:
            case TextPart() if part.text.strip() and path not in named:
                assert any(part.text in text for text in sent), f"{path}: the text arrived"
            case ToolCallPart():
                assert part.name in sent, f"{path}: the call's name arrived"
                assert arrived(part.arguments, body), f"{path}: the call's arguments arrived"
            case ReasoningPart() if part.provider != taker and not (
                taker == "anthropic" and takes_signed(part, CLAUDE_ELSEWHERE)
            ):
                assert named.get(path) == "dropped", f"{path}: {part.provider}'s reasoning"
    for result in history.messages[ANSWER + 1 :]:
        for part in result.tool_results:
            assert part.text in sent, "the tool result arrived"


def arrived(arguments: str, body: Any) -> bool:
    """Whether tool-call `arguments` show in `body`: as the same JSON text, or
    as an object or a JSON text that reads as the same value."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return any(arguments in text for text in strings(body))
    stack = [body]
    while stack:
        item = stack.pop()
        if item == value:
            return True
        if isinstance(item, str) and item[:1] in "{[":
            try:
                if json.loads(item) == value:
                    return True
            except ValueError:
                pass
        elif isinstance(item, dict):
            stack += item.values()
        elif isinstance(item, list):
            stack += item
    return False


# The APIs every other API's answers go through and back; their own answers go
# through each of the others.
ROUND_TRIPS = ("mistral", "groq")


def there_and_back() -> list[Any]:
    """Each answering file with each API its histories go through: Mistral and Groq,
    or for Mistral's and Groq's own answers each of the others."""
    cases: list[Any] = []
    for source in SOURCES:
        home = SOURCES[source].target
        vias = [via for via in TARGETS if via != home]
        if home not in ROUND_TRIPS:
            vias = [via for via in vias if via in ROUND_TRIPS]
        cases += [
            case(source, path, via, f"{via}->back")
            for path in answering_files(source)
            for via in vias
        ]
    return cases


@pytest.mark.parametrize(("source", "recorded", "via"), there_and_back())
def test_every_recorded_answer_goes_to_another_api_and_back(
    source: str, recorded: Path | MissingCorpus, via: str
) -> None:
    """Each answer of the corpus, its tool calls answered, sent to its own API, then
    through another (Mistral and Groq; from those two, each of the others), then to
    its own again: the same body and the same losses, for the hop changed nothing in
    the history."""
    home = TARGETS[SOURCES[source].target]
    for history, tools in recorded_histories(recorded, source):
        before, report = home(history, *tools)
        TARGETS[via](history, *tools)
        after, again = home(history, *tools)
        assert after == before
        assert losses(again) == losses(report)


def test_a_legacy_function_call_and_its_result_go_back_to_chat_completions_paired() -> None:
    boston = recording("openai-chat/openllmetry/test_open_ai_function_calls.yaml", "openai")[0]
    history = ChatHistory(messages=[Message.user("What's the weather like in Boston?")])
    history.add_response(answer(boston, openai_adapter))
    (call,) = history.last_message.tool_calls
    assert (call.id, call.name) == ("", "get_current_weather")  # `functions` name no call
    history.add_message(Message.tool_result(call.id, "72 F and sunny", name=call.name))

    body, report = to_chat_completions(history)
    assert body["messages"][1:] == [
        {
            "role": "assistant",
            "content": None,
            "function_call": {
                "name": "get_current_weather",
                "arguments": '{\n  "location": "Boston"\n}',
            },
        },
        {"role": "function", "name": "get_current_weather", "content": "72 F and sunny"},
    ]
    assert not report


# --- Gemini ---

# llm-gemini: gemini-2.5-flash thinks and calls `pelican_name_generator` without an id,
# its thought signature on the call; streamed as one JSON array.
PELICAN = "google/llm-gemini/test_tools.yaml"
PELICAN_TOOL = ToolSpec(
    name="pelican_name_generator",
    description=None,
    parameters={"properties": {}, "type": "object"},
)


def pelican_loop() -> ChatHistory:
    """Gemini thinks and calls a tool with a signed call and no id; the
    application runs it.

    [0] user, [1] assistant by Gemini (thought, signed call), [2] tool.
    """
    first = recording(PELICAN, "google")[0]
    history = ChatHistory(messages=[Message.user("Two names for a pet pelican")])
    history.add_response(accumulate(google_adapter.decode_stream(first.response.json)))
    (call,) = history.last_message.tool_calls
    history.add_message(Message.tool_result(call.id, "Charles"))
    return history


def test_a_gemini_tool_loop_goes_to_every_api_and_back_to_gemini_signed_in_place() -> None:
    history = pelican_loop()
    (call,) = history.messages[1].tool_calls
    signature = call.provider_data["google"]["fields"]["thoughtSignature"]

    signed = "messages[1].parts[1].provider_data.google.fields.thoughtSignature"
    for hop in (to_chat_completions, to_responses, to_mistral, to_groq):
        body, report = hop(history, PELICAN_TOOL)
        # Gemini's thought, and the signature on its call, each by name.
        assert {("messages[1].parts[0]", "dropped"), (signed, "dropped")} <= set(losses(report))
        assert signature not in json.dumps(body)
    body, report = to_anthropic(history, PELICAN_TOOL, reasoning=None)
    assert ("messages[1].parts[0]", "dropped") in losses(report)
    body, report = to_google(history, PELICAN_TOOL)

    assert not report
    assert body["contents"][1]["parts"][1] == {
        "functionCall": {"name": "pelican_name_generator", "args": {}},
        "thoughtSignature": signature,
    }
    assert body["contents"][2] == {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "name": "pelican_name_generator",
                    "response": {"output": "Charles"},
                }
            }
        ],
    }


def test_the_anthropic_tool_loop_goes_to_gemini_with_the_dummy_signature_reported() -> None:
    history = fixed_version_loop()

    body, report = to_google(history, FIXED_VERSION_TOOL)

    assert losses(report) == [
        ("messages[1].parts[0]", "dropped"),  # Anthropic's signed thinking
        ("messages[1].parts[1]", "transformed"),  # the dummy thought signature
    ]
    (call,) = [part for part in body["contents"][1]["parts"] if "functionCall" in part]
    assert call["functionCall"]["id"] == FIXED_VERSION_CALL
    # Google's dummy `skip_thought_signature_validator`, base64 as the bytes field is.
    assert base64.b64decode(call["thoughtSignature"]) == b"skip_thought_signature_validator"
    result = body["contents"][2]["parts"][0]["functionResponse"]
    assert (result["id"], result["name"]) == (FIXED_VERSION_CALL, "fixed_version")
    assert body["tools"][0]["functionDeclarations"][0]["parametersJsonSchema"] == (
        FIXED_VERSION_TOOL.parameters
    )


@pytest.mark.parametrize(
    ("loop", "call_id"), [("mistral", MISTRAL_CALL), ("groq", GROQ_CALL)], ids=["mistral", "groq"]
)
def test_other_providers_tool_loops_go_to_gemini_under_their_own_ids(
    loop: str, call_id: str
) -> None:
    history = mistral_loop() if loop == "mistral" else groq_weather_loop()

    body, report = to_google(history, WEATHER_TOOL)

    sent = json.dumps(body)
    assert sent.count(call_id) == 2  # the call and its result
    assert ("tools[0].strict", "dropped") in losses(report)
