"""The Bedrock adapter's Converse codec on the project's own fixtures
(`fixtures/bedrock/`), and histories moved to and from Bedrock.

- a cache point travels with the block before it, as Anthropic's
  `cache_control` does, and elsewhere is a hint reported by name;
- media go by Converse's formats; a tool result's `json` content is its JSON
  text, `status: "error"` its error flag; a guarded text is a text;
- the reasoning setting goes in the field of the model's own;
- what Converse cannot take is left out or changed on the wire, reported;
- one Claude answer gives the same `TokenUsage` through Anthropic's API and
  through Converse;
- a history moves from Anthropic to Bedrock to Chat Completions and back,
  each hop's losses reported.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

import interlingua_anthropic as anthropic_adapter
import interlingua_bedrock as bedrock
import interlingua_openai as openai_adapter
from conftest import FIXTURES, same_json
from interlingua import (
    ChatRequest,
    DecodeError,
    FilePart,
    FinishReason,
    Message,
    OpaquePart,
    ReasoningConfig,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
    TranslationReport,
    translate_request,
    translate_response,
)
from interlingua.testing import Interaction, load_cassette

CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
NOVA = "us.amazon.nova-2-lite-v1:0"
# The error result `interlingua.sanitize(repair=True)` adds for a call left unanswered.
PLACEHOLDER = "The tool call was not completed."
# The fixture's 4x4 PNG, as base64.
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAD0lEQVR4nGNgaPiPQMRxAF7CF/FUdRSE"
    "AAAAAElFTkSuQmCC"
)


def fixture(name: str) -> Interaction:
    (interaction,) = load_cassette(FIXTURES / "bedrock" / name).interactions
    return interaction


def request_body(interaction: Interaction) -> dict[str, Any]:
    assert interaction.request is not None
    body = interaction.request.json
    assert isinstance(body, dict)
    return body


def fields(value: Any) -> dict[str, Any]:
    return dict(value.provider_data.get("bedrock", {}).get("fields", {}))


# --- cache points, media, tools ---


def test_a_cache_point_goes_with_the_block_before_it_and_back_in_place() -> None:
    body = request_body(fixture("cache_points_media_and_tools.json"))
    report = TranslationReport()

    request = bedrock.decode_request(body)
    sent = bedrock.encode_request(request, report=report)

    system, user = request.messages
    point = body["system"][1]["cachePoint"]
    assert system.parts == (
        TextPart(
            text=body["system"][0]["text"],
            provider_data={"bedrock": {"fields": {"cachePoint": point}}},
        ),
    )
    image, document, question = user.parts
    assert isinstance(image, FilePart)
    assert isinstance(document, FilePart)
    assert (image.media_type, image.data, fields(image)) == ("image/png", PNG, {})
    wire_document = body["messages"][0]["content"][1]["document"]
    assert (document.media_type, document.filename) == ("application/pdf", wire_document["name"])
    assert document.data == wire_document["source"]["bytes"]
    assert fields(document) == {"cachePoint": body["messages"][0]["content"][2]["cachePoint"]}
    assert question == TextPart(text=body["messages"][0]["content"][3]["text"])
    (tool,) = request.tools
    spec = body["toolConfig"]["tools"][0]["toolSpec"]
    assert (tool.name, tool.description, tool.parameters) == (
        spec["name"],
        spec["description"],
        spec["inputSchema"]["json"],
    )
    assert fields(tool) == {"cachePoint": {"type": "default"}}
    assert request.tool_choice is not None
    assert request.tool_choice.mode == "auto"
    assert (request.max_tokens, request.temperature) == (1024, 0.2)
    assert sent == body
    assert report.losses == []


def test_a_cache_point_is_a_hint_anthropic_is_told_of_by_name() -> None:
    body = request_body(fixture("cache_points_media_and_tools.json"))

    there = translate_request(body, source="bedrock", target="anthropic")

    reported = {(loss.path, loss.kind, loss.level) for loss in there.losses}
    assert reported == {
        ("messages[0].parts[0].provider_data.bedrock.fields.cachePoint", "dropped", "hint"),
        ("messages[1].parts[1].provider_data.bedrock.fields.cachePoint", "dropped", "hint"),
        ("tools[0].provider_data.bedrock.fields.cachePoint", "dropped", "hint"),
    }
    assert "cache_control" not in json.dumps(there.body)
    assert (
        there.body["messages"][0]["content"][1]["source"]["data"]
        == (body["messages"][0]["content"][1]["document"]["source"]["bytes"])
    )


def test_the_answer_reads_the_cache_in_the_core_s_terms() -> None:
    interaction = fixture("cache_points_media_and_tools.json")
    body = interaction.response.json
    usage = body["usage"]

    response = bedrock.decode_response(body)

    assert (response.finish_reason, response.raw_finish_reason) == (
        FinishReason.TOOL_CALLS,
        "tool_use",
    )
    text, call = response.message.parts
    assert isinstance(text, TextPart)
    assert isinstance(call, ToolCallPart)
    use = body["output"]["message"]["content"][1]["toolUse"]
    assert (call.id, call.name, call.parsed_arguments()) == (
        use["toolUseId"],
        use["name"],
        use["input"],
    )
    assert fields(call) == {"type": "tool_use"}
    read = usage["cacheReadInputTokens"]
    assert response.usage.input_tokens == usage["inputTokens"] + read
    assert response.usage.cache_read_tokens == read == usage["cacheReadInputTokenCount"]
    assert response.usage.total_tokens == usage["totalTokens"]
    assert bedrock.encode_response(response, report=TranslationReport(strict=True)) == body


def test_one_claude_answer_has_the_same_usage_through_anthropic_s_api_and_converse() -> None:
    """Converse's `inputTokens` leaves out cache reads and writes, as Anthropic's
    `input_tokens` does: the same counts give the same `TokenUsage`."""
    converse = fixture("cache_points_media_and_tools.json").response.json
    usage = converse["usage"]
    messages_api = {
        "id": "msg_bdrk_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": usage["inputTokens"],
            "cache_creation_input_tokens": usage["cacheWriteInputTokens"],
            "cache_read_input_tokens": usage["cacheReadInputTokens"],
            "output_tokens": usage["outputTokens"],
        },
    }

    via_bedrock = bedrock.decode_response(converse).usage
    via_anthropic = anthropic_adapter.decode_response(messages_api).usage

    assert via_bedrock.model_copy(update={"details": {}}) == via_anthropic


# --- tool results, guarded text, reasoning ---


def test_a_json_result_and_its_error_status_and_a_guarded_question() -> None:
    body = request_body(fixture("tool_result_json_error_and_guard.json"))
    report = TranslationReport()

    request = bedrock.decode_request(body, model=NOVA)

    _, question, ask, answered = request.messages
    guard = body["messages"][0]["content"][0]["guardContent"]["text"]
    (text,) = question.parts
    assert isinstance(text, TextPart)
    assert text.text == guard["text"]
    assert fields(text) == {"qualifiers": guard["qualifiers"]}
    (call,) = ask.parts
    assert isinstance(call, ToolCallPart)
    (result,) = answered.parts
    wire = body["messages"][2]["content"][0]["toolResult"]
    assert isinstance(result, ToolResultPart)
    assert (result.tool_call_id, result.name, result.is_error) == (
        wire["toolUseId"],
        call.name,
        True,
    )
    (content,) = result.content
    assert isinstance(content, TextPart)
    assert json.loads(content.text) == wire["content"][0]["json"]
    assert request.reasoning == ReasoningConfig(effort="low")
    assert request.provider_options["bedrock"] == {"guardrailConfig": body["guardrailConfig"]}
    assert bedrock.encode_request(request, report=report) == body
    assert report.losses == []


def test_the_json_result_reaches_chat_completions_as_its_text() -> None:
    body = request_body(fixture("tool_result_json_error_and_guard.json"))

    there = translate_request(body, source="bedrock", target="openai")

    tool = next(message for message in there.body["messages"] if message["role"] == "tool")
    wire = body["messages"][2]["content"][0]["toolResult"]["content"][0]["json"]
    assert json.loads(tool["content"]) == wire
    levels = {loss.path: loss.level for loss in there.losses}
    assert levels["provider_options.bedrock.guardrailConfig"] == "setting"
    assert levels["messages[1].parts[0].provider_data.bedrock.fields.qualifiers"] == "content"


def test_nova_s_reasoning_without_a_signature_goes_back_to_bedrock_only() -> None:
    response = bedrock.decode_response(
        fixture("tool_result_json_error_and_guard.json").response.json
    )
    thought, _ = response.message.parts
    assert isinstance(thought, ReasoningPart)
    assert (thought.provider, thought.signature) == (
        "bedrock",
        None,
    )
    history = ChatRequest(
        model=NOVA,
        messages=(Message.user("Balance?"), response.message, Message.user("And now?")),
        max_tokens=512,
    )
    report = TranslationReport()

    sent = bedrock.encode_request(history, report=report)
    elsewhere = TranslationReport()
    anthropic_adapter.encode_request(
        history.model_copy(update={"model": "claude-sonnet-4-5"}), report=elsewhere
    )

    assert sent["messages"][1]["content"][0] == {
        "reasoningContent": {"reasoningText": {"text": thought.text}}
    }
    assert report.losses == []
    assert [(loss.path, loss.level) for loss in elsewhere.losses] == [
        ("messages[1].parts[0]", "setting")
    ]


def test_a_cited_answer_is_its_text_with_its_citations_kept() -> None:
    interaction = fixture("citations.json")
    body = request_body(interaction)
    answer = interaction.response.json

    request = bedrock.decode_request(body)
    response = bedrock.decode_response(answer)

    document, _ = request.messages[0].parts
    assert isinstance(document, OpaquePart)  # given as text: Converse's own form
    (text,) = response.message.parts
    cited = answer["output"]["message"]["content"][0]["citationsContent"]
    assert isinstance(text, TextPart)
    assert text.text == cited["content"][0]["text"]
    assert fields(text) == {"citations": cited["citations"]}
    assert bedrock.encode_response(response, report=TranslationReport(strict=True)) == answer
    there = translate_response(answer, source="bedrock", target="anthropic")
    assert there.body["content"] == [{"type": "text", "text": text.text}]
    assert {(loss.path, loss.level) for loss in there.losses} == {
        ("message.parts[0].provider_data.bedrock.fields.citations", "content"),
        ("provider_data.bedrock.fields.metrics", "hint"),
    }


# --- settings by model ---


@pytest.mark.parametrize(
    ("model", "extra"),
    [
        (CLAUDE, {"thinking": {"type": "enabled", "budget_tokens": 2048}}),
        (NOVA, {"reasoningConfig": {"type": "enabled", "maxReasoningEffort": "low"}}),
        ("openai.gpt-oss-120b-1:0", {"reasoning_effort": "low"}),
        ("", {"thinking": {"type": "enabled", "budget_tokens": 2048}}),
    ],
)
def test_reasoning_goes_in_the_field_of_the_model_s_own(model: str, extra: dict[str, Any]) -> None:
    request = ChatRequest(
        model=model, messages=(Message.user("Hi"),), reasoning=ReasoningConfig(budget_tokens=2048)
    )
    report = TranslationReport()

    body = bedrock.encode_request(request, report=report)

    assert body == {
        "messages": [{"role": "user", "content": [{"text": "Hi"}]}],
        "additionalModelRequestFields": extra,
    }
    assert report.losses == []


def test_a_model_without_a_known_reasoning_field_gets_none_reported() -> None:
    request = ChatRequest(
        model="us.meta.llama4-maverick-17b-instruct-v1:0",
        messages=(Message.user("Hi"),),
        reasoning=ReasoningConfig(),
    )
    report = TranslationReport()

    body = bedrock.encode_request(request, report=report)

    assert "additionalModelRequestFields" not in body
    assert "model" not in body
    assert [(loss.path, loss.kind, loss.level) for loss in report.losses] == [
        ("reasoning", "dropped", "setting")
    ]


# --- what Converse cannot take ---


def test_what_converse_cannot_take_is_left_out_or_changed_and_reported() -> None:
    request = ChatRequest(
        model=CLAUDE,
        messages=(
            Message.user(
                "",
                FilePart(media_type="image/png", url="https://example.com/a.png"),
                FilePart(media_type="application/pdf", data="JVBERi0=", filename="report.v2.pdf"),
                FilePart(media_type="audio/wav", data="UklGRg=="),
                "Look.",
            ),
            Message.assistant(ToolCallPart(id="call#1", name="look", arguments='{"x": 1}')),
            Message.tool_result("call#1", "seen"),
            Message.system("Be brief."),
        ),
        tools=(ToolSpec(name="look", parameters={"type": "object"}),),
        seed=7,
    )
    report = TranslationReport()

    body = bedrock.encode_request(request, report=report)

    fitted = body["messages"][1]["content"][0]["toolUse"]["toolUseId"]
    assert body["messages"] == [
        {
            "role": "user",
            "content": [
                {
                    "document": {
                        "format": "pdf",
                        "name": "report v2 pdf",
                        "source": {"bytes": "JVBERi0="},
                    }
                },
                {"text": "Look."},
            ],
        },
        {
            "role": "assistant",
            "content": [{"toolUse": {"toolUseId": fitted, "name": "look", "input": {"x": 1}}}],
        },
        {
            "role": "user",
            "content": [
                {
                    "toolResult": {
                        "toolUseId": fitted,
                        "content": [{"text": "seen"}],
                        "status": "success",
                    }
                }
            ],
        },
    ]
    assert body["system"] == [{"text": "Be brief."}]
    assert fitted != "call#1"
    assert set(fitted) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-")
    assert [(loss.path, loss.kind, loss.level) for loss in report.losses] == [
        ("messages[0].parts[0]", "dropped", "hint"),
        ("messages[0].parts[1]", "dropped", "content"),
        ("messages[0].parts[2].filename", "transformed", "hint"),
        ("messages[0].parts[3]", "dropped", "content"),
        ("messages[1].parts[0].id", "transformed", "hint"),
        ("messages[2].parts[0].tool_call_id", "transformed", "hint"),
        ("messages[3]", "transformed", "content"),
        ("seed", "dropped", "setting"),
    ]


def test_the_model_is_the_url_s_and_never_in_the_body() -> None:
    body = request_body(fixture("citations.json"))

    request = bedrock.decode_request(body, model=CLAUDE)

    assert request.model == CLAUDE
    assert bedrock.decode_request(body).model == ""
    assert "model" not in bedrock.encode_request(request)
    routed = request.model_copy(update={"model": f"bedrock:{CLAUDE}"})
    assert bedrock.encode_request(routed) == body


# --- a history moved between providers ---


def test_a_history_moves_from_anthropic_to_bedrock_to_chat_completions_and_back() -> None:
    signature = base64.b64encode(b"anthropic-signature").decode()
    anthropic_body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": [
            {"type": "text", "text": "You look things up.", "cache_control": {"type": "ephemeral"}}
        ],
        "messages": [
            {"role": "user", "content": "Colour of #1f6feb?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Use the tool.", "signature": signature},
                    {
                        "type": "tool_use",
                        "id": "toolu_01A",
                        "name": "lookup_colour",
                        "input": {"hex": "#1f6feb"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "blue"}],
            },
        ],
        "tools": [{"name": "lookup_colour", "input_schema": {"type": "object"}}],
    }
    history = anthropic_adapter.decode_request(anthropic_body).model_copy(update={"model": CLAUDE})
    report = TranslationReport()

    converse = bedrock.encode_request(history, report=report)

    assert converse["system"] == [{"text": "You look things up."}]
    # Claude's signed thinking goes to Claude on Bedrock as it came (signatures cross platforms).
    thinking = {
        "reasoningContent": {"reasoningText": {"text": "Use the tool.", "signature": signature}}
    }
    call = {
        "toolUse": {"toolUseId": "toolu_01A", "name": "lookup_colour", "input": {"hex": "#1f6feb"}}
    }
    assert converse["messages"][1]["content"] == [thinking, call]
    assert converse["messages"][2]["content"][0]["toolResult"]["content"] == [{"text": "blue"}]
    assert {(loss.path, loss.level) for loss in report.losses} == {
        ("messages[0].parts[0].provider_data.anthropic.fields.cache_control", "hint"),
    }
    decoded = bedrock.decode_request(converse, model=CLAUDE)
    chat_report = TranslationReport()
    chat = openai_adapter.encode_request(
        decoded.model_copy(update={"model": "gpt-4.1"}), report=chat_report
    )
    assert [message["role"] for message in chat["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
    ]
    assert chat["messages"][2]["tool_calls"][0]["id"] == "toolu_01A"
    assert signature not in json.dumps(chat)
    assert ("messages[2].parts[0]", "setting") in [(x.path, x.level) for x in chat_report.losses]
    back = openai_adapter.decode_request(chat).model_copy(update={"model": CLAUDE})
    without_thinking = json.loads(json.dumps(converse))
    without_thinking["messages"][1]["content"] = [call]
    assert same_json(bedrock.encode_request(back, report=TranslationReport()), without_thinking)
    assert (
        anthropic_adapter.encode_request(history.model_copy(update={"model": "claude-sonnet-4-5"}))
        == anthropic_body
    )


def test_a_call_left_unanswered_gets_an_error_result_in_the_next_user_turn() -> None:
    """Converse wants each toolUse's result in the user turn after it ("Expected
    toolResult blocks at messages.N.content for the following Ids"); an error
    result wants content; a history with tool blocks wants `toolConfig`."""
    request = ChatRequest(
        model=CLAUDE,
        messages=(
            Message.user("Weather in Paris and Rome?"),
            Message.assistant(
                ToolCallPart(id="tooluse_paris", name="weather", arguments='{"city": "Paris"}'),
                ToolCallPart(id="tooluse_rome", name="weather", arguments='{"city": "Rome"}'),
            ),
            Message.tool_result("tooluse_paris", (), is_error=True),
            Message.user("Never mind Rome."),
        ),
    )
    report = TranslationReport()

    body = bedrock.encode_request(request, report=report)

    assert body["messages"][2] == {
        "role": "user",
        "content": [
            {
                "toolResult": {
                    "toolUseId": "tooluse_paris",
                    "content": [{"text": "error"}],
                    "status": "error",
                }
            },
            {
                "toolResult": {
                    "toolUseId": "tooluse_rome",
                    "content": [{"text": PLACEHOLDER}],
                    "status": "error",
                }
            },
            {"text": "Never mind Rome."},
        ],
    }
    assert body["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "weather", "inputSchema": {"json": {"type": "object"}}}}]
    }
    assert [(loss.path, loss.kind, loss.level) for loss in report.losses] == [
        ("messages[2].parts[0]", "transformed", "hint"),
        ("messages[1].parts[1]", "transformed", "content"),
        ("tools", "transformed", "content"),
    ]
    assert len(request.messages) == 4  # the history is not changed


def test_claude_s_thinking_leaves_out_what_it_refuses_beside_it() -> None:
    weather = ToolSpec(name="weather", parameters={"type": "object"})
    sampled = ChatRequest(
        model=CLAUDE,
        messages=(Message.user("Hi"),),
        reasoning=ReasoningConfig(budget_tokens=2048),
        temperature=0.5,
        top_p=0.97,
        top_k=40,
    )
    forced = sampled.model_copy(
        update={"temperature": None, "top_p": None, "top_k": None, "tools": (weather,)}
    ).model_copy(update={"tool_choice": ToolChoice.tool("weather")})
    report, forced_report = TranslationReport(), TranslationReport()

    body = bedrock.encode_request(sampled, report=report)
    forced_body = bedrock.encode_request(forced, report=forced_report)

    assert body["inferenceConfig"] == {"topP": 0.97}
    assert body["additionalModelRequestFields"] == {
        "thinking": {"type": "enabled", "budget_tokens": 2048}
    }
    assert [(loss.path, loss.kind) for loss in report.losses] == [
        ("temperature", "transformed"),
        ("top_k", "transformed"),
    ]
    assert "additionalModelRequestFields" not in forced_body
    assert forced_body["toolConfig"]["toolChoice"] == {"tool": {"name": "weather"}}
    assert [(loss.path, loss.level) for loss in forced_report.losses] == [("reasoning", "setting")]


BROKEN = {
    "a schema that is no object": ("toolConfig", "tools", 0, "toolSpec", "inputSchema"),
    "a thinking type that is no string": ("additionalModelRequestFields", "thinking", "type"),
    "an s3Location that is no object": ("messages", 0, "content", 0, "image", "source"),
    "an output schema that is no JSON": (
        "outputConfig", "textFormat", "structure", "jsonSchema", "schema"
    ),
}  # fmt: skip


@pytest.mark.parametrize("place", BROKEN.values(), ids=BROKEN.keys())
@pytest.mark.parametrize("value", [1.5, {"x": 1}, [None], "\ud800", None])
def test_a_broken_body_decodes_or_names_the_place(place: tuple[Any, ...], value: Any) -> None:
    body: dict[str, Any] = {
        "messages": [{"role": "user", "content": [{"image": {"format": "png", "source": {}}}]}],
        "inferenceConfig": None,
        "toolConfig": {"tools": [{"toolSpec": {"name": "t", "inputSchema": {}}}]},
        "additionalModelRequestFields": {"thinking": {}, "top_k": 3},
        "outputConfig": {"textFormat": {"type": "json_schema", "structure": {"jsonSchema": {}}}},
    }
    target = body
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value

    decoded = decoded_or_error(body)

    if isinstance(decoded, DecodeError):  # the place named, in the body's own terms
        assert decoded.provider == "bedrock"
        assert decoded.path.startswith(str(place[0]))
        return
    bedrock.encode_request(decoded.model_copy(update={"model": CLAUDE}), report=TranslationReport())


def decoded_or_error(body: dict[str, Any]) -> ChatRequest | DecodeError:
    try:
        return bedrock.decode_request(body)
    except DecodeError as error:
        return error


def test_nova_s_reasoning_setting_moves_to_claude_s_field_with_the_model() -> None:
    body = request_body(fixture("tool_result_json_error_and_guard.json"))
    request = bedrock.decode_request(body, model=NOVA)

    to_claude = bedrock.encode_request(request.model_copy(update={"model": CLAUDE}))

    assert body["additionalModelRequestFields"] == {
        "reasoningConfig": {"type": "enabled", "maxReasoningEffort": "low"}
    }
    assert to_claude["additionalModelRequestFields"] == {
        "thinking": {"type": "adaptive"},
        "output_config": {"effort": "low"},
    }


def test_two_user_messages_in_a_row_go_in_one_turn_reported() -> None:
    request = ChatRequest(
        model=CLAUDE, messages=(Message.user("Italy?"), Message.user("And Japan?"))
    )
    report = TranslationReport()

    body = bedrock.encode_request(request, report=report)
    decoded = bedrock.decode_request(
        {"messages": [{"role": "user", "content": [{"text": "Italy?"}]}] * 2}
    )

    assert body["messages"] == [
        {"role": "user", "content": [{"text": "Italy?"}, {"text": "And Japan?"}]}
    ]
    assert [(loss.path, loss.kind, loss.level) for loss in report.losses] == [
        ("messages[1]", "transformed", "hint")
    ]
    assert len(bedrock.encode_request(decoded)["messages"]) == 2  # as they came


# --- Claude's signed thinking across Anthropic's API and Converse ---


def _claude_turn(answer: Any) -> tuple[ChatRequest, ReasoningPart]:
    """A history whose assistant turn is `answer`'s, its tool's result after it."""
    thought, call = answer.message.parts[0], answer.message.parts[-1]
    assert isinstance(thought, ReasoningPart)
    assert isinstance(call, ToolCallPart)
    history = ChatRequest(
        model=CLAUDE,
        messages=(
            Message.user("What's the weather in Lisbon right now?"),
            answer.message,
            Message.tool_result(call.id, "18°C and sunny", name=call.name),
        ),
        max_tokens=4096,
        reasoning=ReasoningConfig(budget_tokens=2048),
        tools=(ToolSpec(name=call.name, parameters={"type": "object"}),),
    )
    return history, thought


def test_claude_s_signed_thinking_made_on_converse_goes_to_anthropic_s_api() -> None:
    recorded = fixture("thinking_tool_use.json").response.json
    history, thought = _claude_turn(bedrock.decode_response(recorded))
    wire = recorded["output"]["message"]["content"][0]["reasoningContent"]["reasoningText"]
    assert (thought.provider, thought.signature) == ("bedrock", wire["signature"])
    report = TranslationReport()

    body = anthropic_adapter.encode_request(
        history.model_copy(update={"model": "claude-sonnet-4-5"}), report=report
    )

    assert body["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": wire["text"],
        "signature": wire["signature"],
    }
    assert report.losses == []


def test_claude_s_signed_thinking_made_on_anthropic_s_api_goes_to_claude_on_converse() -> None:
    (recorded,) = load_cassette(
        FIXTURES / "anthropic" / "tool_round_trip_with_thinking.json"
    ).interactions[:1]
    history, thought = _claude_turn(anthropic_adapter.decode_response(recorded.response.json))
    wire = recorded.response.json["content"][0]
    assert (thought.provider, thought.signature) == ("anthropic", wire["signature"])

    claude_report, nova_report = TranslationReport(), TranslationReport()
    body = bedrock.encode_request(history, report=claude_report)
    to_nova = bedrock.encode_request(history.model_copy(update={"model": NOVA}), report=nova_report)

    assert body["messages"][1]["content"][0] == {
        "reasoningContent": {
            "reasoningText": {"text": wire["thinking"], "signature": wire["signature"]}
        }
    }
    assert not [loss for loss in claude_report.losses if loss.path.startswith("messages[1]")]
    # Another model on Bedrock takes no Claude signature: left out, reported.
    assert "reasoningContent" not in to_nova["messages"][1]["content"][0]
    assert ("messages[1].parts[0]", "setting") in [
        (loss.path, loss.level) for loss in nova_report.losses
    ]


# --- what a Converse answer loses elsewhere, and at which level ---


def test_a_converse_answer_elsewhere_loses_only_hints_and_nothing_empty() -> None:
    """Bedrock's serving, tracing and count fields change no meaning (hints), and
    the empty `serverToolUsage: {}` every answer carries says nothing at all."""
    answer = {
        "output": {"message": {"role": "assistant", "content": [{"text": "Hi"}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 5, "outputTokens": 2, "totalTokens": 7, "serverToolUsage": {}},
        "metrics": {"latencyMs": 10},
        "additionalModelResponseFields": {"stop_sequence": "END"},
        "serviceTier": {"type": "priority"},
    }

    translated = translate_response(answer, source="bedrock", target="anthropic")

    assert sorted((loss.path, loss.level) for loss in translated.losses) == [
        ("provider_data.bedrock.fields.additionalModelResponseFields", "hint"),
        ("provider_data.bedrock.fields.metrics", "hint"),
        ("provider_data.bedrock.fields.serviceTier", "hint"),
    ]
    assert translated.body["usage"]["input_tokens"] == 5


@pytest.mark.parametrize(
    ("mode", "reported"),
    [("required", [("tool_choice", "dropped", "setting")]), ("auto", []), ("none", [])],
)
def test_a_tool_choice_without_tools_goes_unsaid(mode: Any, reported: list[Any]) -> None:
    """Converse's `toolConfig` requires its `tools` (botocore refuses one without:
    `Missing required parameter in toolConfig: "tools"`): a history whose only tool
    was another API's built-in one keeps no tool choice, reported where it asked
    for a call (`auto`, `none` and how calls are made say nothing without tools)."""
    request = ChatRequest(
        model=CLAUDE,
        messages=(Message.user("Search the news."),),
        max_tokens=256,
        tool_choice=ToolChoice(mode=mode),
        parallel_tool_calls=False,
    )
    report = TranslationReport()

    body = bedrock.encode_request(request, report=report)

    assert body == {
        "messages": [{"role": "user", "content": [{"text": "Search the news."}]}],
        "inferenceConfig": {"maxTokens": 256},
    }
    assert [(loss.path, loss.kind, loss.level) for loss in report.losses] == reported


def test_tool_settings_converse_has_not_are_reported_beside_tools() -> None:
    """With tools, a choice of `none` and one call at a time change what the model
    may do: left out (Converse has neither), each reported as a setting."""
    request = ChatRequest(
        model=CLAUDE,
        messages=(Message.user("Search the news."),),
        tools=(ToolSpec(name="search", parameters={"type": "object"}),),
        tool_choice=ToolChoice.none(),
        parallel_tool_calls=False,
    )
    report = TranslationReport()

    body = bedrock.encode_request(request, report=report)

    assert body["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "search", "inputSchema": {"json": {"type": "object"}}}}]
    }
    assert [(loss.path, loss.kind, loss.level) for loss in report.losses] == [
        ("tool_choice", "dropped", "setting"),
        ("parallel_tool_calls", "dropped", "setting"),
    ]


def test_parallel_calls_asked_beside_tools_lose_nothing() -> None:
    """Converse's models call tools in parallel as they see fit: asking for it is
    no setting lost."""
    request = ChatRequest(
        model=CLAUDE,
        messages=(Message.user("Search the news."),),
        tools=(ToolSpec(name="search", parameters={"type": "object"}),),
        parallel_tool_calls=True,
    )
    report = TranslationReport()

    bedrock.encode_request(request, report=report)

    assert report.losses == []


def test_a_tool_described_by_nothing_goes_without_a_description() -> None:
    """Converse refuses an empty description ("valid min length: 1"): unsent, as it says nothing."""
    request = ChatRequest(
        model=CLAUDE,
        messages=(Message.user("Roll a die."),),
        tools=(ToolSpec(name="roll", description="", parameters={"type": "object"}),),
    )
    report = TranslationReport()

    body = bedrock.encode_request(request, report=report)

    assert body["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "roll", "inputSchema": {"json": {"type": "object"}}}}]
    }
    assert report.losses == []


def test_an_image_google_genai_wrote_goes_in_the_standard_base64_alphabet() -> None:
    """google-genai writes a file's bytes in URL-safe base64 (`_9j_4AAQ...`, recorded),
    which a history keeps as it came; Converse's blobs are standard base64, which
    boto3 decodes without checking: a `-` or `_` left in would be dropped from the bytes."""
    jpeg = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\xfb\xef\xbe"
    given = base64.urlsafe_b64encode(jpeg).decode()
    assert "_" in given  # the alphabets differ for these bytes
    request = ChatRequest(
        model=CLAUDE,
        messages=(
            Message(
                role="user",
                parts=(FilePart(media_type="image/jpeg", data=given), TextPart(text="What?")),
            ),
        ),
    )

    body = bedrock.encode_request(request, report=TranslationReport())

    sent = body["messages"][0]["content"][0]["image"]["source"]["bytes"]
    assert base64.b64decode(sent, validate=True) == jpeg
    assert request.messages[0].parts[0].data == given  # the history as it was
