"""`interlingua.testing.fake`: every SDK client (anthropic, openai's Chat
Completions and Responses, mistralai, groq, google-genai, boto3's
`bedrock-runtime`, its streams where the kit writes Amazon's event stream, and
an OpenAI-compatible server by its host) built as a user's code builds it,
answered by a function of the neutral request: sync and async, whole and
streamed, a text answer, a tool loop, errors the SDK raises as its own, and a
fixed sequence of answers. The requests the handler saw and what each SDK
returned are checked against values written here, read from each SDK's own
objects."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import anthropic
import boto3
import groq
import httpx
import openai
import pytest
from botocore.config import Config as BotoConfig
from botocore.exceptions import ClientError
from google import genai
from google.genai import types as gtypes
from mistralai.client import Mistral
from mistralai.client import errors as mistral_errors

from boto3_calls import CREDENTIALS
from interlingua import (
    BadRequestError,
    CassetteError,
    ChatRequest,
    ChatResponse,
    ErrorEvent,
    FinishEvent,
    FinishReason,
    Message,
    RateLimitError,
    ReasoningPart,
    StreamStart,
    TextDelta,
    TextPart,
    TokenUsage,
    ToolCallPart,
    ToolResultPart,
    accumulate,
)
from interlingua.testing import Fake, fake
from interlingua.testing._apis import response_events
from interlingua_bedrock import can_write_event_streams

pytest_plugins = ["pytester"]

QUESTION = "Weather in Paris?"
CALL_ID = "abcDEF123"  # fit for every provider's rule (Mistral's: 9 of [a-zA-Z0-9])
ARGUMENTS = {"city": "Paris"}
RESULT = "18 C, sunny"
ANSWER = "Sunny, 18 degrees."
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
DESCRIPTION = "Weather of a city"


@dataclass
class Seen:
    """What an SDK returned, read from its own objects."""

    text: str = ""
    calls: list[tuple[str, str, Any]] = field(default_factory=list)
    finish: str | None = None


# --- each SDK, as a user's code calls it ---


def _anthropic_kwargs(answered: bool) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": QUESTION}]
    if answered:
        call = {"type": "tool_use", "id": CALL_ID, "name": "get_weather", "input": ARGUMENTS}
        result = {"type": "tool_result", "tool_use_id": CALL_ID, "content": RESULT}
        messages += [
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": [result]},
        ]
    tool = {"name": "get_weather", "description": DESCRIPTION, "input_schema": SCHEMA}
    return {"model": "claude-test", "max_tokens": 100, "messages": messages, "tools": [tool]}


def _anthropic_seen(message: Any) -> Seen:
    return Seen(
        "".join(block.text for block in message.content if block.type == "text"),
        [(b.id, b.name, b.input) for b in message.content if b.type == "tool_use"],
        message.stop_reason,
    )


class AnthropicSDK:
    model = "claude-test"
    finishes = ("end_turn", "tool_use")
    result = RESULT
    errors: ClassVar[dict[int, type]] = {
        429: anthropic.RateLimitError,
        400: anthropic.BadRequestError,
    }

    def client(self, aio: bool) -> Any:
        sdk = anthropic.AsyncAnthropic if aio else anthropic.Anthropic
        return sdk(api_key="sk-test", max_retries=0)

    def ask(self, client: Any, answered: bool, stream: bool) -> Seen:
        kwargs = _anthropic_kwargs(answered)
        if stream:
            with client.messages.stream(**kwargs) as events:
                return _anthropic_seen(events.get_final_message())
        return _anthropic_seen(client.messages.create(**kwargs))

    async def ask_async(self, client: Any, answered: bool, stream: bool) -> Seen:
        kwargs = _anthropic_kwargs(answered)
        if stream:
            async with client.messages.stream(**kwargs) as events:
                return _anthropic_seen(await events.get_final_message())
        return _anthropic_seen(await client.messages.create(**kwargs))

    def status(self, error: Any) -> int:
        return int(error.status_code)


def _chat_kwargs(model: str, answered: bool) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": QUESTION}]
    if answered:
        function = {"name": "get_weather", "arguments": json.dumps(ARGUMENTS)}
        call = {"id": CALL_ID, "type": "function", "function": function}
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": CALL_ID, "content": RESULT},
        ]
    function = {"name": "get_weather", "description": DESCRIPTION, "parameters": SCHEMA}
    return {
        "model": model,
        "messages": messages,
        "tools": [{"type": "function", "function": function}],
    }


def _chat_seen(completion: Any) -> Seen:
    choice = completion.choices[0]
    calls = choice.message.tool_calls or []
    return Seen(
        choice.message.content or "",
        [(c.id, c.function.name, json.loads(c.function.arguments)) for c in calls],
        choice.finish_reason,
    )


def _chunks_seen(chunks: list[Any]) -> Seen:
    """A Chat Completions stream's chunks (Mistral's too), joined as the SDK user joins them."""
    seen, calls = Seen(), {}
    for chunk in chunks:
        for choice in chunk.choices:
            delta = choice.delta
            if isinstance(delta.content, str):
                seen.text += delta.content
            for position, call in enumerate(getattr(delta, "tool_calls", None) or []):
                index = call.index if isinstance(call.index, int) else position
                held = calls.setdefault(index, ["", "", ""])
                held[0] += call.id if isinstance(call.id, str) else ""
                held[1] += call.function.name or ""
                held[2] += call.function.arguments or ""
            if isinstance(choice.finish_reason, str):
                seen.finish = choice.finish_reason
    seen.calls = [(id_, name, json.loads(arguments)) for id_, name, arguments in calls.values()]
    return seen


@dataclass
class ChatSDK:
    """openai's and groq's Chat Completions clients (the same calls), at a base URL."""

    module: Any
    model: str
    base_url: str | None = None
    finishes = ("stop", "tool_calls")
    result = RESULT

    @property
    def errors(self) -> dict[int, type]:
        return {429: self.module.RateLimitError, 400: self.module.BadRequestError}

    def client(self, aio: bool) -> Any:
        names = ("AsyncGroq", "Groq") if self.module is groq else ("AsyncOpenAI", "OpenAI")
        sdk = getattr(self.module, names[0] if aio else names[1])
        options = {"base_url": self.base_url} if self.base_url else {}
        return sdk(api_key="sk-test", max_retries=0, **options)

    def ask(self, client: Any, answered: bool, stream: bool) -> Seen:
        answer = client.chat.completions.create(**_chat_kwargs(self.model, answered), stream=stream)
        return _chunks_seen(list(answer)) if stream else _chat_seen(answer)

    async def ask_async(self, client: Any, answered: bool, stream: bool) -> Seen:
        kwargs = _chat_kwargs(self.model, answered)
        answer = await client.chat.completions.create(**kwargs, stream=stream)
        return _chunks_seen([chunk async for chunk in answer]) if stream else _chat_seen(answer)

    def status(self, error: Any) -> int:
        return int(error.status_code)


class MistralSDK:
    model = "mistral-small-test"
    finishes = ("stop", "tool_calls")
    result = RESULT
    errors: ClassVar[dict[int, type]] = {429: mistral_errors.SDKError, 400: mistral_errors.SDKError}

    def client(self, aio: bool) -> Any:
        return Mistral(api_key="sk-test")

    def ask(self, client: Any, answered: bool, stream: bool) -> Seen:
        kwargs = _chat_kwargs(self.model, answered)
        if stream:
            return _chunks_seen([event.data for event in client.chat.stream(**kwargs)])
        return _chat_seen(client.chat.complete(**kwargs))

    async def ask_async(self, client: Any, answered: bool, stream: bool) -> Seen:
        kwargs = _chat_kwargs(self.model, answered)
        if stream:
            events = await client.chat.stream_async(**kwargs)
            return _chunks_seen([event.data async for event in events])
        return _chat_seen(await client.chat.complete_async(**kwargs))

    def status(self, error: Any) -> int:
        return int(error.status_code)


def _responses_kwargs(answered: bool) -> dict[str, Any]:
    items: list[dict[str, Any]] = [{"role": "user", "content": QUESTION}]
    if answered:
        arguments = json.dumps(ARGUMENTS)
        items += [
            {
                "type": "function_call",
                "call_id": CALL_ID,
                "name": "get_weather",
                "arguments": arguments,
            },
            {"type": "function_call_output", "call_id": CALL_ID, "output": RESULT},
        ]
    tool = {
        "type": "function",
        "name": "get_weather",
        "description": DESCRIPTION,
        "parameters": SCHEMA,
    }
    return {"model": "gpt-test", "input": items, "tools": [tool]}


def _responses_seen(response: Any) -> Seen:
    calls = [item for item in response.output if item.type == "function_call"]
    return Seen(
        response.output_text,
        [(call.call_id, call.name, json.loads(call.arguments)) for call in calls],
        response.status,
    )


def _completed(events: list[Any]) -> Seen:
    return _responses_seen(next(e.response for e in events if e.type == "response.completed"))


class ResponsesSDK:
    model = "gpt-test"
    finishes = ("completed", "completed")
    result = RESULT
    errors: ClassVar[dict[int, type]] = {429: openai.RateLimitError, 400: openai.BadRequestError}

    def client(self, aio: bool) -> Any:
        sdk = openai.AsyncOpenAI if aio else openai.OpenAI
        return sdk(api_key="sk-test", max_retries=0)

    def ask(self, client: Any, answered: bool, stream: bool) -> Seen:
        answer = client.responses.create(**_responses_kwargs(answered), stream=stream)
        return _completed(list(answer)) if stream else _responses_seen(answer)

    async def ask_async(self, client: Any, answered: bool, stream: bool) -> Seen:
        answer = await client.responses.create(**_responses_kwargs(answered), stream=stream)
        return _completed([e async for e in answer]) if stream else _responses_seen(answer)

    def status(self, error: Any) -> int:
        return int(error.status_code)


_GEMINI_TOOL = gtypes.Tool(
    function_declarations=[
        gtypes.FunctionDeclaration(
            name="get_weather", description=DESCRIPTION, parameters_json_schema=SCHEMA
        )
    ]
)


def _gemini_kwargs(answered: bool) -> dict[str, Any]:
    contents = [gtypes.Content(role="user", parts=[gtypes.Part(text=QUESTION)])]
    if answered:
        call = gtypes.FunctionCall(id=CALL_ID, name="get_weather", args=ARGUMENTS)
        result = gtypes.FunctionResponse(
            id=CALL_ID, name="get_weather", response={"result": RESULT}
        )
        contents += [
            gtypes.Content(role="model", parts=[gtypes.Part(function_call=call)]),
            gtypes.Content(role="user", parts=[gtypes.Part(function_response=result)]),
        ]
    config = gtypes.GenerateContentConfig(tools=[_GEMINI_TOOL])
    return {"model": "gemini-test", "contents": contents, "config": config}


def _gemini_seen(chunks: list[Any]) -> Seen:
    seen = Seen()
    for chunk in chunks:
        for candidate in chunk.candidates or []:
            for part in candidate.content.parts or []:
                seen.text += part.text or ""
                if (call := part.function_call) is not None:
                    seen.calls.append((call.id, call.name, call.args))
            if candidate.finish_reason is not None:
                seen.finish = candidate.finish_reason.value
    return seen


class GeminiSDK:
    model = "gemini-test"
    finishes = ("STOP", "STOP")  # Gemini ends a turn of function calls with STOP
    result = json.dumps({"result": RESULT}, separators=(",", ":"))  # the response object, as JSON
    errors: ClassVar[dict[int, type]] = {
        429: genai.errors.ClientError,
        400: genai.errors.ClientError,
    }

    def client(self, aio: bool) -> Any:
        return genai.Client(api_key="sk-test")

    def ask(self, client: Any, answered: bool, stream: bool) -> Seen:
        models = client.models
        kwargs = _gemini_kwargs(answered)
        if stream:
            return _gemini_seen(list(models.generate_content_stream(**kwargs)))
        return _gemini_seen([models.generate_content(**kwargs)])

    async def ask_async(self, client: Any, answered: bool, stream: bool) -> Seen:
        models = client.aio.models
        kwargs = _gemini_kwargs(answered)
        if stream:
            chunks = await models.generate_content_stream(**kwargs)
            return _gemini_seen([chunk async for chunk in chunks])
        return _gemini_seen([await models.generate_content(**kwargs)])

    def status(self, error: Any) -> int:
        return int(error.code)


def _converse_kwargs(answered: bool) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"text": QUESTION}]}]
    if answered:
        call = {"toolUseId": CALL_ID, "name": "get_weather", "input": ARGUMENTS}
        result = {"toolUseId": CALL_ID, "content": [{"text": RESULT}]}
        messages += [
            {"role": "assistant", "content": [{"toolUse": call}]},
            {"role": "user", "content": [{"toolResult": result}]},
        ]
    spec = {"name": "get_weather", "description": DESCRIPTION, "inputSchema": {"json": SCHEMA}}
    return {
        "modelId": BedrockSDK.model,
        "messages": messages,
        "toolConfig": {"tools": [{"toolSpec": spec}]},
    }


def _converse_seen(blocks: list[dict[str, Any]], stop_reason: str) -> Seen:
    return Seen(
        "".join(block.get("text", "") for block in blocks),
        [
            (use["toolUseId"], use["name"], use["input"])
            for use in (block["toolUse"] for block in blocks if "toolUse" in block)
        ],
        stop_reason,
    )


def _converse_stream_seen(events: Any) -> Seen:
    """A ConverseStream's events, a tool call's input arriving in pieces of JSON."""
    blocks: dict[int, dict[str, Any]] = {}
    stop_reason = ""
    for event in events:
        if start := event.get("contentBlockStart"):
            use = start["start"]["toolUse"]
            blocks[start["contentBlockIndex"]] = {"toolUse": {**use, "input": ""}}
        elif delta := event.get("contentBlockDelta"):
            block = blocks.setdefault(delta["contentBlockIndex"], {"text": ""})
            if "toolUse" in delta["delta"]:
                block["toolUse"]["input"] += delta["delta"]["toolUse"]["input"]
            else:
                block["text"] += delta["delta"]["text"]
        elif stop := event.get("messageStop"):
            stop_reason = stop["stopReason"]
    for block in blocks.values():
        if "toolUse" in block:
            block["toolUse"]["input"] = json.loads(block["toolUse"]["input"])
    return _converse_seen(list(blocks.values()), stop_reason)


class BedrockSDK:
    """boto3's `bedrock-runtime` client; its async use is the sync client in a
    worker thread, as an asyncio program calls boto3."""

    model = "us.amazon.nova-micro-v1:0"  # Converse names the model in the URL alone
    finishes = ("end_turn", "tool_use")
    result = RESULT
    errors: ClassVar[dict[int, type]] = {429: ClientError, 400: ClientError}

    def client(self, aio: bool) -> Any:
        no_retries = BotoConfig(retries={"total_max_attempts": 1})
        return boto3.client(
            "bedrock-runtime", region_name="us-east-1", config=no_retries, **CREDENTIALS
        )

    def ask(self, client: Any, answered: bool, stream: bool) -> Seen:
        kwargs = _converse_kwargs(answered)
        if stream:
            return _converse_stream_seen(client.converse_stream(**kwargs)["stream"])
        answer = client.converse(**kwargs)
        return _converse_seen(answer["output"]["message"]["content"], answer["stopReason"])

    async def ask_async(self, client: Any, answered: bool, stream: bool) -> Seen:
        return await asyncio.to_thread(self.ask, client, answered, stream)

    def status(self, error: Any) -> int:
        return int(error.response["ResponseMetadata"]["HTTPStatusCode"])


SDKS: dict[str, Any] = {
    "anthropic": AnthropicSDK(),
    "openai": ChatSDK(openai, "gpt-test"),
    "openai-responses": ResponsesSDK(),
    "mistral": MistralSDK(),
    "groq": ChatSDK(groq, "llama-test"),
    "google": GeminiSDK(),
    "xai": ChatSDK(openai, "grok-test", base_url="https://api.x.ai/v1"),
    "bedrock": BedrockSDK(),
}
MODES = [
    pytest.param(name, stream, id=f"{name}-{'stream' if stream else 'whole'}")
    for name in SDKS
    for stream in (False, True)
    if not (stream and name == "bedrock" and not can_write_event_streams())
]


def call(name: str, answered: bool, stream: bool, *, aio: bool = False) -> Any:
    sdk = SDKS[name]
    client = sdk.client(aio)  # kept in a variable: google-genai closes a client it frees
    if aio:
        return sdk.ask_async(client, answered, stream)
    return sdk.ask(client, answered, stream)


# --- what the handler saw, in the core's terms ---


def rows(request: ChatRequest) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    for message in request.messages:
        for part in message.parts:
            match part:
                case TextPart():
                    found.append((message.role, "text", part.text))
                case ToolCallPart():
                    found.append(
                        (message.role, "call", part.id, part.name, part.parsed_arguments())
                    )
                case ToolResultPart():
                    found.append((message.role, "result", part.tool_call_id, part.text))
                case _:
                    found.append((message.role, part.type))
    return found


def tools(request: ChatRequest) -> list[tuple[Any, ...]]:
    return [(tool.name, tool.description, tool.parameters) for tool in request.tools]


ASKED = [("user", "text", QUESTION)]
WEATHER_TOOL = [("get_weather", DESCRIPTION, SCHEMA)]


def tool_loop(request: ChatRequest) -> ChatResponse:
    """The model of a tool loop: a call first, the text once the result came back."""
    if not any(message.tool_results for message in request.messages):
        call = ToolCallPart(id=CALL_ID, name="get_weather", arguments=json.dumps(ARGUMENTS))
        return ChatResponse(message=Message.assistant(call))
    return ChatResponse(message=Message.assistant(ANSWER))


def check_tool_loop(name: str, provider: Fake, first: Seen, second: Seen, stream: bool) -> None:
    sdk = SDKS[name]
    assert first == Seen("", [(CALL_ID, "get_weather", ARGUMENTS)], sdk.finishes[1])
    assert second == Seen(ANSWER, [], sdk.finishes[0])
    asked, answered = provider.requests
    assert (asked.model, asked.stream) == (sdk.model, stream)
    assert rows(asked) == ASKED
    assert tools(asked) == tools(answered) == WEATHER_TOOL
    assert rows(answered) == [
        *ASKED,
        ("assistant", "call", CALL_ID, "get_weather", ARGUMENTS),
        ("tool", "result", CALL_ID, sdk.result),
    ]


# --- the tests ---


@pytest.mark.parametrize(("name", "stream"), MODES)
def test_a_text_answer_reaches_the_sync_client(name: str, stream: bool) -> None:
    with fake(lambda request: "Hello from the fake.") as provider:
        seen = call(name, False, stream)
    assert seen == Seen("Hello from the fake.", [], SDKS[name].finishes[0])
    (request,) = provider.requests
    assert (request.model, request.stream, rows(request)) == (SDKS[name].model, stream, ASKED)
    # The JSON body as sent, beside the decoded request: the tool is in it, once.
    assert json.dumps(provider.sent[0]).count('"get_weather"') == 1


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "stream"), MODES)
async def test_a_text_answer_reaches_the_async_client(name: str, stream: bool) -> None:
    async with fake(lambda request: "Hello from the fake.") as provider:
        seen = await call(name, False, stream, aio=True)
    assert seen == Seen("Hello from the fake.", [], SDKS[name].finishes[0])
    assert [rows(request) for request in provider.requests] == [ASKED]


@pytest.mark.parametrize(("name", "stream"), MODES)
def test_the_sync_client_runs_a_tool_loop(name: str, stream: bool) -> None:
    with fake(tool_loop) as provider:
        first = call(name, False, stream)
        second = call(name, True, stream)
    check_tool_loop(name, provider, first, second, stream)


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "stream"), MODES)
async def test_the_async_client_runs_a_tool_loop(name: str, stream: bool) -> None:
    async with fake(tool_loop) as provider:
        first = await call(name, False, stream, aio=True)
        second = await call(name, True, stream, aio=True)
    check_tool_loop(name, provider, first, second, stream)


ERRORS = [
    pytest.param(RateLimitError("slow down", provider="fake", status=429), id="429"),
    pytest.param(BadRequestError("messages: bad field", provider="fake", status=400), id="400"),
]


@pytest.mark.parametrize("error", ERRORS)
@pytest.mark.parametrize(("name", "stream"), MODES)
def test_an_error_is_raised_by_the_sync_sdk_as_its_own(
    name: str, stream: bool, error: RateLimitError
) -> None:
    def refuse(request: ChatRequest) -> ChatResponse:
        raise error

    sdk = SDKS[name]
    assert error.status is not None
    with fake(refuse) as provider, pytest.raises(sdk.errors[error.status]) as raised:
        call(name, False, stream)
    assert sdk.status(raised.value) == error.status
    assert error.message in str(raised.value)
    assert len(provider.requests) == 1


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "stream"), MODES)
async def test_an_error_is_raised_by_the_async_sdk_as_its_own(name: str, stream: bool) -> None:
    sdk = SDKS[name]
    async with fake(responses=[RateLimitError("slow down", provider="fake", status=429)]):
        with pytest.raises(sdk.errors[429]) as raised:
            await call(name, False, stream, aio=True)
    assert sdk.status(raised.value) == 429


JOINED = [
    StreamStart(id="events-1", model="events-model"),
    TextDelta(text="Joined "),
    TextDelta(text="answer."),
    FinishEvent(finish_reason=FinishReason.STOP, raw_finish_reason="stop"),
]


def ask_four_times(name: str, stream: bool, provider: Fake) -> None:
    """Three answers given, four requests: the fourth fails, and the block with it."""
    sdk = SDKS[name]
    with provider:
        assert call(name, False, stream) == Seen("First answer.", [], sdk.finishes[0])
        assert call(name, False, stream) == Seen("Joined answer.", [], sdk.finishes[0])
        with pytest.raises(sdk.errors[429]):
            call(name, False, stream)
        with contextlib.suppress(Exception):  # the SDK's wrapping, or the error itself
            call(name, False, stream)


@pytest.mark.parametrize(("name", "stream"), MODES)
def test_fixed_responses_answer_in_order(name: str, stream: bool) -> None:
    limited = RateLimitError("slow down", provider="fake", status=429)
    provider = fake(responses=["First answer.", JOINED, limited])
    with pytest.raises(CassetteError, match="no answer for request 4"):
        ask_four_times(name, stream, provider)
    assert [rows(request) for request in provider.requests] == [ASKED] * 4


def test_a_request_the_kit_cannot_place_names_its_url() -> None:
    provider = fake(lambda request: "unused")
    with pytest.raises(CassetteError, match=r"GET https://example\.com/v1/models"), provider:
        httpx.get("https://example.com/v1/models")
    assert provider.requests == []


def count_tokens_caught(provider: Fake) -> None:
    client = anthropic.Anthropic(api_key="sk-test", max_retries=0)
    with provider, pytest.raises(anthropic.APIConnectionError):
        client.messages.count_tokens(model="claude-test", messages=[])


def test_a_token_count_the_sdk_wraps_is_refused_on_leaving() -> None:
    with pytest.raises(CassetteError, match=r"POST https://api\.anthropic\.com/v1/messages/count"):
        count_tokens_caught(fake(lambda request: "unused"))


def test_a_failure_the_sdk_wraps_is_raised_on_leaving() -> None:
    """The anthropic SDK says "Connection error." for what its transport raised,
    and the code under test caught that; the handler's own error comes out of
    the block all the same."""

    def broken(request: ChatRequest) -> ChatResponse:
        raise KeyError("the handler's own bug")

    client = anthropic.Anthropic(api_key="sk-test", max_retries=0)
    with (
        pytest.raises(KeyError, match="the handler's own bug"),
        fake(broken),
        contextlib.suppress(anthropic.APIConnectionError),
    ):
        client.messages.create(**_anthropic_kwargs(False))


def test_the_pytest_fixture_answers_with_its_handler(fake_provider: Fake) -> None:
    fake_provider.handler = tool_loop
    first = call("openai", False, False)
    assert first.calls == [(CALL_ID, "get_weather", ARGUMENTS)]
    fake_provider.handler = None
    fake_provider.responses.append("From the queue.")
    assert call("groq", False, True).text == "From the queue."
    assert [request.model for request in fake_provider.requests] == ["gpt-test", "llama-test"]


def test_fake_takes_a_handler_or_responses_not_both() -> None:
    with pytest.raises(ValueError, match="not both"):
        fake(tool_loop, responses=["x"])


def test_a_response_streams_as_events_that_accumulate_to_it() -> None:
    response = ChatResponse(
        id="r-1",
        model="m",
        provider="anthropic",
        message=Message.assistant(
            ReasoningPart(text="Thinking.", signature="sig", provider="anthropic"),
            "Calling.",
            ToolCallPart(id=CALL_ID, name="get_weather", arguments='{"city":"Paris"}'),
        ),
        finish_reason=FinishReason.TOOL_CALLS,
        raw_finish_reason="tool_use",
        usage=TokenUsage(input_tokens=12, output_tokens=7, total_tokens=19),
    )
    events = response_events(response)
    assert [event.type for event in events] == [
        "start",
        "reasoning_delta",
        "reasoning_signature",
        "text_delta",
        "tool_call_start",
        "finish",
        "usage",
    ]
    assert accumulate(events) == response


def test_what_the_api_cannot_hold_is_in_losses() -> None:
    reasoning = ReasoningPart(text="Thinking.", signature="sig", provider="anthropic")
    answer = ChatResponse(message=Message.assistant(reasoning, "Done."))
    with fake(lambda request: answer) as provider:
        assert call("openai", False, False).text == "Done."
    assert [loss.path for loss in provider.losses] == ["message.parts[0]"]


@pytest.mark.parametrize("name", ["anthropic", "openai", "groq"])
def test_the_sdk_retries_a_429_after_the_wait_the_error_asks(name: str) -> None:
    """The SDKs' own retries (two by default) meet the fake as they meet the
    provider: the error's `retry_after` goes as `retry-after-ms`, which they read."""
    limited = RateLimitError("slow down", provider="fake", status=429, retry_after=0.01)
    sdk = SDKS[name]
    client = sdk.client(False).with_options(max_retries=2)
    with fake(responses=[limited, "After the wait."]) as provider:
        seen = sdk.ask(client, False, False)
    assert seen == Seen("After the wait.", [], sdk.finishes[0])
    assert len(provider.requests) == 2


BROKEN = [
    StreamStart(id="broken-1", model="claude-test"),
    TextDelta(text="Partial"),
    ErrorEvent(message="Overloaded", error_type="overloaded_error", status=529),
]


def test_events_that_end_in_an_error_answer_as_the_api_does() -> None:
    """Whole, the error is the answer, with its status; streamed, the text goes
    first and Anthropic's `error` event ends the stream."""
    client = anthropic.Anthropic(api_key="sk-test", max_retries=0)
    with fake(responses=[BROKEN, BROKEN]):
        with pytest.raises(anthropic.APIStatusError) as whole:
            client.messages.create(**_anthropic_kwargs(False))
        texts: list[str] = []
        with (  # noqa: PT012
            pytest.raises(anthropic.APIStatusError, match="overloaded_error"),
            client.messages.stream(**_anthropic_kwargs(False)) as events,
        ):
            for event in events:
                texts += [event.text] if event.type == "text" else []
    assert whole.value.status_code == 529
    assert texts == ["Partial"]


USER_TESTS = """
import groq


def broken(request):
    raise KeyError("the handler's own bug")


def test_ask(fake_provider):
    fake_provider.handler = broken
    client = groq.Groq(api_key="sk-test", max_retries=0)
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])
"""


def test_the_fixture_fails_a_test_with_the_error_the_sdk_wrapped(
    pytester: pytest.Pytester,
) -> None:
    """groq's SDK says "Connection error."; the plugin fails the test with the handler's error."""
    pytester.makepyfile(test_user=USER_TESTS)
    result = pytester.runpytest_inprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(['E*KeyError: "the handler\'s own bug"'])
