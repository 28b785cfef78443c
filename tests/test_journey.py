"""One conversation across eight APIs, replayed through their real SDK clients.

`fixtures/journey.json` records it (hand-made, shaped like real traffic; the
system prompt, tools and settings are the demo's, `interlingua.cli._demo`): an
application keeps one `ChatHistory` and sends it, turn by turn, to whichever
API it wants next, each through interlingua's client over the provider's own
SDK, answered by `Replay`:

1. Anthropic (claude-sonnet-4-6, thinking on) thinks, signs its thinking and
   calls `get_weather` for two cities; the application runs the tool.
2. Chat Completions (gpt-4.1) gets the calls and results, the thinking left
   out, and answers in text; the user asks on.
3. Mistral (mistral-large-latest) gets the calls under 9-character ids and
   calls `get_forecast`; the application runs it.
4. Groq (openai/gpt-oss-120b) reasons (parsed into `reasoning`) and answers;
   the user asks on.
5. Gemini (gemini-3-flash-preview, thinking level LOW with thought summaries)
   gets the calls made elsewhere, the first of each turn with Google's dummy
   thought signature, and no one's reasoning; it thinks and calls
   `get_forecast` without an id, its thought signature on the call; the
   application runs the tool.
6. The Responses API (gpt-5-mini) gets Gemini's call under the id made for it,
   its thought and signature left out, and answers with encrypted reasoning
   and a message; the user asks on.
7. DeepSeek (deepseek-v4-flash, thinking mode) gets every assistant message of
   a tool-call turn with an empty `reasoning_content`, as its thinking mode
   needs, and no one's reasoning; it reasons and answers, with its
   context-cache counts; the user asks on.
8. Claude on Amazon Bedrock's Converse API (us.anthropic.claude-sonnet-4-6,
   thinking on), through a boto3 client signing with AWS credentials, gets
   turn 1's signed thinking as Converse's `reasoningContent` (Claude's
   signatures cross platforms), Mistral's empty text and no one else's
   reasoning; it thinks, signs its thinking and answers; the user asks on.
9. Anthropic again, which gets turn 1's signed thinking and calls back exactly
   as it sent them, and turn 8's signed thinking as a `thinking` block, and
   no one else's reasoning or signature.

At each turn the body the SDK sent is the recorded one and what the adapter's
`encode_request` makes; each loss is reported with its path; the history is
not changed by sending it. At the end the usage is the sum of the turns', and
the history saves and loads back equal.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anthropic
import boto3
import groq
import httpx
import openai
import pytest
from google import genai
from mistralai.client import Mistral

import interlingua_anthropic
import interlingua_bedrock
import interlingua_deepseek
import interlingua_google
import interlingua_groq
import interlingua_mistral
import interlingua_openai
import interlingua_openai.responses
from conftest import FIXTURES, bodies, in_order
from interlingua import (
    ChatHistory,
    ChatRequest,
    ChatResponse,
    FinishReason,
    LossKind,
    Message,
    TokenUsage,
    TranslationReport,
)
from interlingua.cli._demo import AWS_CREDENTIALS, AWS_REGION, FORECAST, SETTINGS, SYSTEM, WEATHER
from interlingua.client import ChatClient, answered_by
from interlingua.testing import Interaction, Replay, load_cassette
from interlingua_anthropic import AnthropicClient
from interlingua_bedrock import BedrockClient
from interlingua_deepseek import DeepSeekClient
from interlingua_google import GoogleClient
from interlingua_groq import GroqClient
from interlingua_mistral import MistralClient
from interlingua_openai import OpenAIClient
from interlingua_openai.responses import OpenAIResponsesClient

JOURNEY = FIXTURES / "journey.json"

QUESTIONS = (
    "I fly from Lisbon to Oslo tomorrow morning. "
    "What is the weather like in both cities right now?",
    "Will it still be snowing in Oslo when I land tomorrow afternoon?",
    "What should I pack for the two cities?",
    "Will the morning rain in Lisbon hold up my flight?",
    "How much colder will Oslo be than Lisbon when I land?",
    "Thanks! Sum up the weather for my trip in one sentence.",
)
FIRST_THINKING = "The user wants the current weather in Lisbon and in Oslo."
ANTHROPIC_CALLS = ["toolu_01Vq8LsbNw3Hx7Kt2Rm9Pc4D", "toolu_01Gz5OsLk2Wn8Tb4Yq7Jf3Xe"]
# What the application's tools answered.
LISBON = '{"city": "Lisbon", "condition": "light rain", "temperature_c": 14, "wind_kmh": 20}'
OSLO = '{"city": "Oslo", "condition": "snow", "temperature_c": -3, "wind_kmh": 9}'
OSLO_TOMORROW = (
    '{"city": "Oslo", "day": "tomorrow", "forecast": "snow showers until 14:00, then cloudy", '
    '"high_c": -1, "low_c": -6}'
)
LISBON_TOMORROW = (
    '{"city": "Lisbon", "day": "tomorrow", "forecast": "light rain until 10:00, then sunny '
    'spells", "high_c": 17, "low_c": 12}'
)
# Google's dummy thought signature for calls made elsewhere, base64 as the field is bytes.
DUMMY_SIGNATURE = base64.b64encode(b"skip_thought_signature_validator").decode()

ADAPTERS: dict[str, Any] = {
    "anthropic": interlingua_anthropic,
    "openai": interlingua_openai,
    "mistral": interlingua_mistral,
    "groq": interlingua_groq,
    "google": interlingua_google,
    "openai-responses": interlingua_openai.responses,
    "deepseek": interlingua_deepseek,
    "bedrock": interlingua_bedrock,
}
PROVIDERS = [
    "anthropic",
    "openai",
    "mistral",
    "groq",
    "google",
    "openai-responses",
    "deepseek",
    "bedrock",
    "anthropic",
]
GEMINI = PROVIDERS.index("google")
DEEPSEEK = PROVIDERS.index("deepseek")
BEDROCK = PROVIDERS.index("bedrock")


def clients(replay: Replay) -> dict[str, ChatClient]:
    """Each API's client over its real SDK, built with a key and nothing else as the
    demo builds them (Gemini's API version is the SDK's own; boto3's with AWS
    credentials and a region), all answered by the one replay (groq's SDK sends
    through httpx, the others through httpx2, boto3 through botocore while the
    replay is active)."""
    groq_http = httpx.Client(transport=httpx.MockTransport(replay.respond))
    return {
        "anthropic": AnthropicClient(
            anthropic.Anthropic(api_key="test-key", max_retries=0, http_client=replay.client())
        ),
        "openai": OpenAIClient(
            openai.OpenAI(api_key="test-key", max_retries=0, http_client=replay.client())
        ),
        "mistral": MistralClient(Mistral(api_key="test-key", client=replay.client())),
        "groq": GroqClient(groq.Groq(api_key="test-key", max_retries=0, http_client=groq_http)),
        "google": GoogleClient(
            genai.Client(
                api_key="test-key",
                http_options={"httpx_client": replay.client(), "api_version": "v1beta"},
            )
        ),
        "openai-responses": OpenAIResponsesClient(
            openai.OpenAI(api_key="test-key", max_retries=0, http_client=replay.client())
        ),
        # Over the openai SDK, pointed at DeepSeek by the adapter itself.
        "deepseek": DeepSeekClient(api_key="test-key", max_retries=0, http_client=replay.client()),
        "bedrock": BedrockClient(
            boto3.client("bedrock-runtime", region_name=AWS_REGION, **AWS_CREDENTIALS)
        ),
    }


@dataclass(frozen=True)
class Turn:
    """One call: the request, the answer, the losses reported (path, kind), and the
    history as saved right before and right after the call."""

    provider: str
    request: ChatRequest
    response: ChatResponse
    losses: list[tuple[str, LossKind]]
    history_before: str
    history_after: str


@dataclass
class Journey:
    """The conversation as an application holds it, and the turns it took."""

    replay: Replay
    clients: dict[str, ChatClient]
    history: ChatHistory = field(
        default_factory=lambda: ChatHistory(
            messages=[Message.system(SYSTEM), Message.user(QUESTIONS[0])]
        )
    )
    turns: list[Turn] = field(default_factory=list)

    def ask(self, provider: str) -> None:
        """Send the whole history to `provider` and append its answer."""
        request = ChatRequest(
            messages=tuple(self.history.messages), tools=(WEATHER, FORECAST), **SETTINGS[provider]
        )
        before = self.history.to_json()
        report = TranslationReport()
        response = self.clients[provider].complete(request, report=report)
        losses = [(loss.path, loss.kind) for loss in report.losses]
        turn = Turn(provider, request, response, losses, before, self.history.to_json())
        self.turns.append(turn)
        self.history.add_response(response)

    def run_tools(self, *results: str) -> None:
        """Answer each call of the last answer, in order."""
        calls = self.history.last_message.tool_calls
        assert len(calls) == len(results)
        for call, result in zip(calls, results, strict=True):
            self.history.add_message(Message.tool_result(call.id, result))

    def say(self, text: str) -> None:
        self.history.add_message(Message.user(text))


@pytest.fixture(scope="module")
def journey() -> Iterator[Journey]:
    """The conversation, run once for the module's tests."""
    replay = in_order(load_cassette(JOURNEY).interactions)
    conversation = Journey(replay, clients(replay))
    with replay:  # boto3's requests: answered through botocore
        _converse(conversation)
    yield conversation
    for client in conversation.clients.values():
        client.close()


def _converse(conversation: Journey) -> None:
    conversation.ask("anthropic")
    conversation.run_tools(LISBON, OSLO)
    conversation.ask("openai")
    conversation.say(QUESTIONS[1])
    conversation.ask("mistral")
    conversation.run_tools(OSLO_TOMORROW)
    conversation.ask("groq")
    conversation.say(QUESTIONS[2])
    conversation.ask("google")
    conversation.run_tools(LISBON_TOMORROW)
    conversation.ask("openai-responses")
    conversation.say(QUESTIONS[3])
    conversation.ask("deepseek")
    conversation.say(QUESTIONS[4])
    conversation.ask("bedrock")
    conversation.say(QUESTIONS[5])
    conversation.ask("anthropic")


def recorded() -> tuple[Interaction, ...]:
    return load_cassette(JOURNEY).interactions


def answer(index: int) -> dict[str, Any]:
    """The JSON answer of turn `index` (from 0), as recorded."""
    body = recorded()[index].response.json
    assert isinstance(body, dict)
    return body


# --- what was sent ---


def test_each_turn_goes_to_its_api_through_its_sdk(journey: Journey) -> None:
    sent = [(r.method, r.url.host, r.url.path) for r in journey.replay.requests]

    assert [turn.provider for turn in journey.turns] == PROVIDERS
    assert sent == [
        ("POST", "api.anthropic.com", "/v1/messages"),
        ("POST", "api.openai.com", "/v1/chat/completions"),
        ("POST", "api.mistral.ai", "/v1/chat/completions"),
        ("POST", "api.groq.com", "/openai/v1/chat/completions"),
        (
            "POST",
            "generativelanguage.googleapis.com",
            "/v1beta/models/gemini-3-flash-preview:generateContent",
        ),
        ("POST", "api.openai.com", "/v1/responses"),
        ("POST", "api.deepseek.com", "/chat/completions"),
        (
            "POST",
            "bedrock-runtime.us-east-1.amazonaws.com",
            "/model/us.anthropic.claude-sonnet-4-6/converse",
        ),
        ("POST", "api.anthropic.com", "/v1/messages"),
    ]
    assert journey.replay.done
    for request, interaction in zip(journey.replay.requests, recorded(), strict=True):
        assert interaction.request is not None
        assert request.url.host == interaction.host
        for name, (value,) in interaction.request.headers.items():
            assert request.headers[name] == value, (interaction.host, name)


def test_each_body_sent_is_the_recorded_one_and_the_encoders(journey: Journey) -> None:
    encoded = [
        ADAPTERS[turn.provider].encode_request(turn.request, report=TranslationReport())
        for turn in journey.turns
    ]

    assert journey.replay.sent == bodies(recorded())
    assert journey.replay.sent == encoded


def test_sending_never_changes_the_history(journey: Journey) -> None:
    for turn in journey.turns:
        assert turn.history_after == turn.history_before, turn.provider
        assert turn.request.messages == tuple(ChatHistory.from_json(turn.history_before).messages)
    # The ids stay as the providers made them (Gemini's as made for it, below),
    # whatever went on the wire.
    calls = [call.id for message in journey.history for call in message.tool_calls]
    assert calls[:3] == [*ANTHROPIC_CALLS, "Xn4Rk7TqB"]
    assert len(calls) == 4


# --- what each hop left out or changed ---


def test_each_hop_reports_exactly_what_it_left_out_or_changed(journey: Journey) -> None:
    anthropic_thinking = ("messages[2].parts[0]", "dropped")
    mistral_empty_text = ("messages[7].parts[0]", "dropped")  # beside its call
    groq_reasoning = ("messages[9].parts[0]", "dropped")
    gemini_thought = ("messages[11].parts[0]", "dropped")
    gemini_signature = (
        "messages[11].parts[1].provider_data.google.fields.thoughtSignature",
        "dropped",
    )
    responses_reasoning = ("messages[13].parts[0]", "dropped")  # encrypted
    deepseek_reasoning = ("messages[15].parts[0]", "dropped")
    # Claude, here and on Bedrock, takes Claude's signed thinking (turn 1's, turn 8's).
    to_claude = [
        mistral_empty_text,
        groq_reasoning,
        gemini_thought,
        responses_reasoning,
        deepseek_reasoning,
        gemini_signature,
    ]
    assert [turn.losses for turn in journey.turns] == [
        [],
        [anthropic_thinking],
        [
            anthropic_thinking,
            # Mistral takes 9 characters of [a-zA-Z0-9]: both calls and both results.
            ("messages[2].parts[2].id", "transformed"),
            ("messages[2].parts[3].id", "transformed"),
            ("messages[3].parts[0].tool_call_id", "transformed"),
            ("messages[4].parts[0].tool_call_id", "transformed"),
        ],
        [anthropic_thinking],
        [
            anthropic_thinking,
            # The first call of each turn made elsewhere: Google's dummy thought signature.
            ("messages[2].parts[2]", "transformed"),
            ("messages[7].parts[1]", "transformed"),
            groq_reasoning,
        ],
        [anthropic_thinking, mistral_empty_text, groq_reasoning, gemini_thought, gemini_signature],
        [
            # Each assistant message of a tool-call turn: an empty reasoning_content.
            *[(f"messages[{index}]", "transformed") for index in (2, 5, 7, 9, 11, 13)],
            anthropic_thinking,
            groq_reasoning,
            gemini_thought,
            responses_reasoning,
            gemini_signature,
        ],
        to_claude,  # Bedrock
        to_claude,  # Anthropic
    ]


def test_the_other_apis_get_the_calls_and_results_but_not_the_thinking(journey: Journey) -> None:
    chat, mistral, groq_body, _, responses = journey.replay.sent[1:6]

    for body in (chat, mistral, groq_body, responses):
        assert FIRST_THINKING not in json.dumps(body)
    assert [m["role"] for m in chat["messages"]] == ["system", "user", "assistant", "tool", "tool"]
    assert [c["id"] for c in chat["messages"][2]["tool_calls"]] == ANTHROPIC_CALLS
    assert [m["tool_call_id"] for m in chat["messages"][3:]] == ANTHROPIC_CALLS
    assert groq_body["messages"][2:5] == chat["messages"][2:5]
    # Mistral takes 9 characters of [a-zA-Z0-9], the same in the call and its result.
    mistral_calls = [c["id"] for c in mistral["messages"][2]["tool_calls"]]
    assert [m["tool_call_id"] for m in mistral["messages"][3:5]] == mistral_calls
    assert all(len(id_) == 9 and id_.isalnum() and id_.isascii() for id_ in mistral_calls)
    # The Responses API: calls and outputs as items, and no reasoning item (none is its own).
    kinds = [item.get("type", item.get("role")) for item in responses["input"]]
    assert kinds.count("function_call") == kinds.count("function_call_output") == 4
    assert "reasoning" not in kinds
    assert responses["include"] == ["reasoning.encrypted_content"]


# --- Gemini's turn ---


def _gemini_text(text: str) -> dict[str, Any]:
    return {"text": text}


def _gemini_call(name: str, args: dict[str, Any], id_: str, **extra: Any) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": args, "id": id_}, **extra}


def _gemini_result(name: str, output: str, id_: str) -> dict[str, Any]:
    return {"functionResponse": {"name": name, "response": {"output": output}, "id": id_}}


def _chat_text(index: int) -> str:
    """The text answer of turn `index` (Chat Completions or Groq), as recorded."""
    return str(answer(index)["choices"][0]["message"]["content"])


def test_gemini_is_sent_the_history_in_its_own_shape(journey: Journey) -> None:
    lisbon, oslo = ANTHROPIC_CALLS
    signed = {"thoughtSignature": DUMMY_SIGNATURE}
    declarations = [
        {
            "name": tool.name,
            "description": tool.description,
            "parametersJsonSchema": tool.parameters,
        }
        for tool in (WEATHER, FORECAST)
    ]

    assert journey.replay.sent[GEMINI] == {
        "contents": [
            {"role": "user", "parts": [_gemini_text(QUESTIONS[0])]},
            {
                "role": "model",
                "parts": [
                    _gemini_text(answer(0)["content"][1]["text"]),  # the thinking left out
                    _gemini_call("get_weather", {"city": "Lisbon"}, lisbon, **signed),
                    _gemini_call("get_weather", {"city": "Oslo"}, oslo),
                ],
            },
            {
                "role": "user",
                "parts": [
                    _gemini_result("get_weather", LISBON, lisbon),
                    _gemini_result("get_weather", OSLO, oslo),
                ],
            },
            {"role": "model", "parts": [_gemini_text(_chat_text(1))]},
            {"role": "user", "parts": [_gemini_text(QUESTIONS[1])]},
            {
                "role": "model",
                "parts": [
                    _gemini_text(""),  # Mistral's content beside its call
                    _gemini_call(
                        "get_forecast", {"city": "Oslo", "day": "tomorrow"}, "Xn4Rk7TqB", **signed
                    ),
                ],
            },
            {"role": "user", "parts": [_gemini_result("get_forecast", OSLO_TOMORROW, "Xn4Rk7TqB")]},
            {"role": "model", "parts": [_gemini_text(_chat_text(3))]},  # Groq's reasoning left out
            {"role": "user", "parts": [_gemini_text(QUESTIONS[2])]},
        ],
        "systemInstruction": {"parts": [_gemini_text(SYSTEM)]},
        "tools": [{"functionDeclarations": declarations}],
        "generationConfig": {
            "maxOutputTokens": 1024,
            "thinkingConfig": {"thinkingLevel": "LOW", "includeThoughts": True},
        },
    }
    assert base64.b64decode(DUMMY_SIGNATURE) == b"skip_thought_signature_validator"
    assert "x-goog-api-key" in journey.replay.requests[GEMINI].headers


def test_geminis_call_gets_a_made_id_and_keeps_its_signature_here(journey: Journey) -> None:
    (thought, call_part) = answer(GEMINI)["candidates"][0]["content"]["parts"]
    message = journey.history.messages[11]
    (reasoning,) = message.reasoning
    (call,) = message.tool_calls
    again = interlingua_google.decode_response(answer(GEMINI)).message.tool_calls[0]

    assert journey.turns[GEMINI].response.finish_reason is FinishReason.TOOL_CALLS
    assert (reasoning.provider, reasoning.text, reasoning.signature) == (
        "google",
        thought["text"],
        None,
    )
    assert "id" not in call_part["functionCall"]
    assert (call.name, json.loads(call.arguments)) == (
        "get_forecast",
        call_part["functionCall"]["args"],
    )
    # Gemini gave no id: one is made, the same for the same answer, and answers the result.
    assert call.id == again.id
    assert call.id.startswith("call_")
    assert journey.history.messages[12].tool_results[0].tool_call_id == call.id
    # The signature stays on the call, for a later Gemini turn.
    assert call.provider_data["google"]["fields"] == {
        "thoughtSignature": call_part["thoughtSignature"]
    }


def test_geminis_thought_and_signature_go_to_no_other_api(journey: Journey) -> None:
    (thought, call_part) = answer(GEMINI)["candidates"][0]["content"]["parts"]
    call_id = journey.history.messages[11].tool_calls[0].id
    responses, deepseek, converse, last = journey.replay.sent[GEMINI + 1 :]
    anthropic_call, anthropic_result = (m["content"] for m in last["messages"][9:11])
    converse_call, converse_result = (m["content"] for m in converse["messages"][9:11])

    for index in range(GEMINI + 1, len(PROVIDERS)):
        sent = journey.replay.requests[index].content
        assert call_part["thoughtSignature"].encode() not in sent
        assert json.dumps(thought["text"])[1:-1].encode() not in sent
    assert responses["input"][-2:] == [
        {
            "type": "function_call",
            "call_id": call_id,
            "name": "get_forecast",
            "arguments": json.dumps(call_part["functionCall"]["args"], separators=(",", ":")),
        },
        {"type": "function_call_output", "call_id": call_id, "output": LISBON_TOMORROW},
    ]
    assert [call["id"] for call in deepseek["messages"][11]["tool_calls"]] == [call_id]
    assert deepseek["messages"][12]["tool_call_id"] == call_id
    assert anthropic_call == [
        {
            "type": "tool_use",
            "id": call_id,
            "name": "get_forecast",
            "input": call_part["functionCall"]["args"],
        }
    ]
    assert anthropic_result == [
        {"type": "tool_result", "tool_use_id": call_id, "content": LISBON_TOMORROW}
    ]
    args = call_part["functionCall"]["args"]
    assert converse_call == [
        {"toolUse": {"toolUseId": call_id, "name": "get_forecast", "input": args}}
    ]
    assert converse_result == [
        {
            "toolResult": {
                "toolUseId": call_id,
                "content": [{"text": LISBON_TOMORROW}],
                "status": "success",
            }
        }
    ]


# --- DeepSeek's turn ---


def _with_empty_reasoning(message: dict[str, Any]) -> dict[str, Any]:
    return {**message, "reasoning_content": ""} if message["role"] == "assistant" else message


def test_deepseek_is_sent_the_history_in_thinking_modes_shape(journey: Journey) -> None:
    groq_body = journey.replay.sent[3]
    gemini_call = journey.history.messages[11].tool_calls[0]
    call = {"name": gemini_call.name, "arguments": gemini_call.arguments}

    # Every assistant message here is in a tool-call turn, none holds DeepSeek's
    # reasoning: each goes with an empty reasoning_content, the others' left out.
    assert journey.replay.sent[DEEPSEEK] == {
        "model": "deepseek-v4-flash",
        "messages": [
            *[_with_empty_reasoning(message) for message in groq_body["messages"]],
            {"role": "assistant", "content": _chat_text(3), "reasoning_content": ""},
            {"role": "user", "content": QUESTIONS[2]},
            {
                "role": "assistant",
                "content": None,
                "reasoning_content": "",
                "tool_calls": [{"id": gemini_call.id, "type": "function", "function": call}],
            },
            {"role": "tool", "tool_call_id": gemini_call.id, "content": LISBON_TOMORROW},
            {
                "role": "assistant",
                "content": journey.turns[GEMINI + 1].response.text,
                "reasoning_content": "",
            },
            {"role": "user", "content": QUESTIONS[3]},
        ],
        "tools": journey.replay.sent[1]["tools"],
        "max_tokens": 1024,
    }
    assert "thinking" not in journey.replay.sent[DEEPSEEK]  # deepseek-v4-flash's default


def test_deepseeks_answer_and_cache_counts_are_read_from_its_wire(journey: Journey) -> None:
    response = journey.turns[DEEPSEEK].response
    message = answer(DEEPSEEK)["choices"][0]["message"]
    usage = answer(DEEPSEEK)["usage"]

    (reasoning,) = response.message.reasoning
    assert (reasoning.provider, reasoning.text) == ("deepseek", message["reasoning_content"])
    assert response.text == message["content"]
    assert response.usage.input_tokens == usage["prompt_tokens"]
    assert response.usage.output_tokens == usage["completion_tokens"]
    assert response.usage.total_tokens == usage["total_tokens"]
    assert response.usage.reasoning_tokens == usage["completion_tokens_details"]["reasoning_tokens"]
    assert response.usage.cache_read_tokens == usage["prompt_cache_hit_tokens"]
    assert response.usage.cache_read_tokens == usage["prompt_tokens_details"]["cached_tokens"]
    assert response.usage.details["prompt_cache_miss_tokens"] == usage["prompt_cache_miss_tokens"]
    assert (
        usage["prompt_cache_hit_tokens"] + usage["prompt_cache_miss_tokens"]
        == (usage["prompt_tokens"])
    )
    # In the history it goes back to DeepSeek only (Anthropic's last body: above).
    assert journey.history.messages[15].reasoning == (reasoning,)


# --- Claude on Bedrock's turn ---


def _reasoning_text(block: dict[str, Any]) -> dict[str, Any]:
    """A Converse `reasoningContent` block's `reasoningText`."""
    return block["reasoningContent"]["reasoningText"]  # type: ignore[no-any-return]


def test_claude_on_bedrock_gets_anthropics_signed_thinking_in_converses_shape(
    journey: Journey,
) -> None:
    converse = journey.replay.sent[BEDROCK]
    thinking, text, *calls = answer(0)["content"]

    # No model and no stream in the body: the model is in the URL.
    assert list(converse) == [
        "messages",
        "system",
        "inferenceConfig",
        "additionalModelRequestFields",
        "toolConfig",
    ]
    assert converse["system"] == [{"text": SYSTEM}]
    assert converse["inferenceConfig"] == {"maxTokens": 4096}
    assert converse["additionalModelRequestFields"] == {
        "thinking": {"type": "enabled", "budget_tokens": 2048}
    }
    assert converse["toolConfig"]["tools"] == [
        {
            "toolSpec": {
                "name": tool.name,
                "inputSchema": {"json": tool.parameters},
                "description": tool.description,
            }
        }
        for tool in (WEATHER, FORECAST)
    ]
    # Anthropic's first answer, its signed thinking as it came: Claude's signatures
    # are accepted across platforms.
    assert converse["messages"][1] == {
        "role": "assistant",
        "content": [
            {
                "reasoningContent": {
                    "reasoningText": {
                        "text": thinking["thinking"],
                        "signature": thinking["signature"],
                    }
                }
            },
            {"text": text["text"]},
            *[
                {"toolUse": {"toolUseId": c["id"], "name": c["name"], "input": c["input"]}}
                for c in calls
            ],
        ],
    }
    assert converse["messages"][2]["content"] == [
        {"toolResult": {"toolUseId": call_id, "content": [{"text": result}], "status": "success"}}
        for call_id, result in zip(ANTHROPIC_CALLS, (LISBON, OSLO), strict=True)
    ]
    assert [m["role"] for m in converse["messages"]] == ["user", "assistant"] * 7 + ["user"]
    assert converse["messages"][-1] == {"role": "user", "content": [{"text": QUESTIONS[4]}]}
    # Only Claude's reasoning went: no other provider's, nor Mistral's empty text.
    blocks = [block for message in converse["messages"] for block in message["content"]]
    assert sum("reasoningContent" in block for block in blocks) == 1
    assert {"text": ""} not in blocks
    sent = json.dumps(converse)
    assert answer(3)["choices"][0]["message"]["reasoning"] not in sent
    assert answer(DEEPSEEK)["choices"][0]["message"]["reasoning_content"] not in sent


def test_boto3_signed_the_bedrock_request_with_the_credentials_and_region(
    journey: Journey,
) -> None:
    request = journey.replay.requests[BEDROCK]
    key = AWS_CREDENTIALS["aws_access_key_id"]

    assert request.url.host == f"bedrock-runtime.{AWS_REGION}.amazonaws.com"
    # SigV4: the key and the region in the credential scope; the secret only signs.
    authorization = request.headers["authorization"]
    assert authorization.startswith(f"AWS4-HMAC-SHA256 Credential={key}/")
    assert f"/{AWS_REGION}/bedrock/aws4_request" in authorization
    assert "x-amz-date" in request.headers
    assert AWS_CREDENTIALS["aws_secret_access_key"] not in str(request.headers)
    assert request.headers["content-type"] == "application/json"


def test_claude_on_bedrocks_answer_is_read_from_its_wire(journey: Journey) -> None:
    response = journey.turns[BEDROCK].response
    wire = answer(BEDROCK)
    reasoning_block, text_block = wire["output"]["message"]["content"]
    usage = wire["usage"]

    (reasoning,) = response.message.reasoning
    assert (reasoning.provider, reasoning.text, reasoning.signature) == (
        "bedrock",
        _reasoning_text(reasoning_block)["text"],
        _reasoning_text(reasoning_block)["signature"],
    )
    assert response.text == text_block["text"]
    assert response.raw_finish_reason == wire["stopReason"]
    assert response.usage.input_tokens == usage["inputTokens"]
    assert response.usage.output_tokens == usage["outputTokens"]
    assert response.usage.total_tokens == usage["totalTokens"]
    assert response.usage.cache_read_tokens == usage["cacheReadInputTokens"] == 0


def test_anthropic_gets_claude_on_bedrocks_signed_thinking_back(journey: Journey) -> None:
    last = journey.replay.sent[-1]
    reasoning_block, text_block = answer(BEDROCK)["output"]["message"]["content"]
    signed = _reasoning_text(reasoning_block)

    # Converse's reasoningContent as Anthropic's thinking block, text and signature
    # as Claude wrote them on Bedrock.
    assert last["messages"][15] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": signed["text"], "signature": signed["signature"]},
            {"type": "text", "text": text_block["text"]},
        ],
    }
    assert signed["signature"].encode() in journey.replay.requests[-1].content
    assert last["messages"][16] == {"role": "user", "content": QUESTIONS[5]}


# --- what came back ---


def test_each_answer_is_decoded_as_its_api_wrote_it(journey: Journey) -> None:
    responses = [turn.response for turn in journey.turns]

    # Of the model asked where the answer names none (Converse's: it is in the URL).
    assert responses == [
        answered_by(turn.request.model, ADAPTERS[provider].decode_response(answer(index)))
        for index, (provider, turn) in enumerate(zip(PROVIDERS, journey.turns, strict=True))
    ]
    assert "model" not in answer(BEDROCK)
    assert responses[BEDROCK].model == journey.turns[BEDROCK].request.model
    assert [r.finish_reason for r in responses] == [
        FinishReason.TOOL_CALLS,
        FinishReason.STOP,
        FinishReason.TOOL_CALLS,
        FinishReason.STOP,
        FinishReason.TOOL_CALLS,
        FinishReason.STOP,
        FinishReason.STOP,
        FinishReason.STOP,
        FinishReason.STOP,
    ]
    assert [r.raw_finish_reason for r in responses][GEMINI] == "STOP"
    assert [r.raw_finish_reason for r in responses][BEDROCK] == "end_turn"  # Gemini's, with calls
    assert [
        (p.provider, bool(p.signature), bool(p.text))
        for r in responses
        for p in r.message.reasoning
    ] == [
        ("anthropic", True, True),
        ("groq", False, True),
        ("google", False, True),  # a thought summary: the signature is on the call
        ("openai-responses", True, False),  # encrypted, no summary asked for
        ("deepseek", False, True),
        ("bedrock", True, True),  # Claude's, signed
        ("anthropic", True, True),
    ]
    assert responses[1].text.startswith("Right now Lisbon has light rain")
    assert responses[3].text.startswith("The snow showers should stop by about 14:00")
    assert responses[5].text.startswith("For Lisbon, a light rain jacket")
    assert responses[6].text.startswith("Probably not: the forecast is only light rain")
    assert responses[7].text.startswith("About 18°C colder: Oslo should be around -1°C")
    assert responses[8].text.startswith("You leave a rainy, mild Lisbon")


# --- Anthropic gets its own thinking back ---


def test_anthropic_gets_its_signed_thinking_and_calls_back_unchanged(journey: Journey) -> None:
    first, last = journey.replay.sent[0], journey.replay.sent[-1]
    recorded_blocks = answer(0)["content"]
    thinking = journey.history.messages[2].reasoning[0]

    assert last["messages"][:1] == first["messages"]
    # The first answer's blocks, thinking, text and both tool_use, exactly as they came.
    assert last["messages"][1] == {"role": "assistant", "content": recorded_blocks}
    signature = recorded_blocks[0]["signature"]
    assert thinking.signature == last["messages"][1]["content"][0]["signature"] == signature
    assert signature.encode() in journey.replay.requests[-1].content  # on the wire, as sent
    blocks = [block for message in last["messages"] for block in _blocks(message)]
    # Turn 1's thinking and Claude's on Bedrock (below): no other reasoning.
    assert [block["type"] for block in blocks].count("thinking") == 2
    # No other provider's reasoning shows anywhere in the body.
    text = json.dumps(last)
    assert answer(3)["choices"][0]["message"]["reasoning"] not in text
    assert answer(GEMINI + 1)["output"][0]["encrypted_content"] not in text
    assert answer(DEEPSEEK)["choices"][0]["message"]["reasoning_content"] not in text


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return [] if isinstance(content, str) else list(content)


# --- the whole conversation ---


def _wire_counts(index: int) -> tuple[int, int, int]:
    """Turn `index`'s input, output and reasoning tokens, read from its answer in
    each API's own words (Gemini's output: candidates and thoughts)."""
    body = answer(index)
    if "usageMetadata" in body:
        usage = body["usageMetadata"]
        thoughts = usage.get("thoughtsTokenCount", 0)
        return usage["promptTokenCount"], usage["candidatesTokenCount"] + thoughts, thoughts
    usage = body["usage"]
    if "inputTokens" in usage:  # Converse's (no cache here)
        return usage["inputTokens"], usage["outputTokens"], 0
    if "prompt_tokens" in usage:
        details = usage.get("completion_tokens_details") or {}
        return (
            usage["prompt_tokens"],
            usage["completion_tokens"],
            details.get("reasoning_tokens", 0),
        )
    details = usage.get("output_tokens_details") or {}
    return usage["input_tokens"], usage["output_tokens"], details.get("reasoning_tokens", 0)


def test_the_usage_adds_up_over_the_turns(journey: Journey) -> None:
    usages = [turn.response.usage for turn in journey.turns]
    counts = [(u.input_tokens, u.output_tokens, u.reasoning_tokens) for u in usages]
    total = journey.history.usage

    assert counts == [_wire_counts(index) for index in range(len(PROVIDERS))]
    assert counts == [
        (748, 163, 0),
        (318, 29, 0),
        (367, 24, 0),
        (512, 86, 44),
        (604, 95, 71),
        (712, 226, 192),
        (703, 97, 61),
        (1446, 139, 0),
        (1519, 137, 0),
    ]
    assert total == sum(usages, TokenUsage())
    assert total == TokenUsage(
        input_tokens=6929,
        output_tokens=996,
        total_tokens=7925,
        cache_read_tokens=256,  # DeepSeek's cache hits
        reasoning_tokens=368,
        # Each API's own counts, summed by name (the timings are Groq's alone,
        # the cache hits and misses DeepSeek's).
        details={
            "cache_creation.ephemeral_5m_input_tokens": 0,
            "cache_creation.ephemeral_1h_input_tokens": 0,
            "prompt_tokens_details.cached_tokens": 256,
            "prompt_tokens_details.audio_tokens": 0,
            "completion_tokens_details.reasoning_tokens": 105,
            "completion_tokens_details.audio_tokens": 0,
            "completion_tokens_details.accepted_prediction_tokens": 0,
            "completion_tokens_details.rejected_prediction_tokens": 0,
            "queue_time": 0.051283904,
            "prompt_time": 0.021874315,
            "completion_time": 0.168627451,
            "total_time": 0.190501766,
            "promptTokensDetails.TEXT": 604,
            "input_tokens_details.cached_tokens": 0,
            "output_tokens_details.reasoning_tokens": 192,
            "prompt_cache_hit_tokens": 256,
            "prompt_cache_miss_tokens": 447,
        },
    )


def test_the_history_saves_and_loads_back_equal(journey: Journey, tmp_path: Path) -> None:
    path = tmp_path / "journey.json"
    journey.history.save(path)

    loaded = ChatHistory.load(path)

    assert loaded == journey.history
    assert loaded.to_json() == journey.history.to_json()
    assert [m.created_at for m in loaded] == [m.created_at for m in journey.history]
    # Loaded, it still gives Anthropic the last body, signature and all, and Gemini
    # its own call back signed in place.
    last = journey.turns[-1].request.model_copy(update={"messages": tuple(loaded.messages[:-1])})
    assert (
        interlingua_anthropic.encode_request(last, report=TranslationReport())
        == (journey.replay.sent[-1])
    )
    gemini = interlingua_google.encode_request(
        journey.turns[GEMINI].request.model_copy(update={"messages": tuple(loaded.messages[:13])}),
        report=TranslationReport(),
    )
    (_, call_part) = answer(GEMINI)["candidates"][0]["content"]["parts"]
    assert gemini["contents"][-2] == {
        "role": "model",
        "parts": [
            {
                "text": answer(GEMINI)["candidates"][0]["content"]["parts"][0]["text"],
                "thought": True,
            },
            call_part,
        ],
    }
