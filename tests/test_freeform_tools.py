"""Freeform (custom) tools and namespaced functions, as Codex sends them to the
Responses API: each is offered to any other API as a function (one string
`input` for a freeform tool, `<namespace>--<name>` for a namespace's), its
calls carry their input there, and a call the other API's model makes comes
back to the Responses API (or Chat Completions) in the form it was offered.
Expectations are read from the recorded wire (`fixtures/openai/`)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import interlingua_openai
import interlingua_openai.responses as responses
from conftest import recorded
from interlingua import (
    ChatRequest,
    Message,
    ToolCallPart,
    ToolName,
    ToolSpec,
    TranslationReport,
    accumulate,
    get_adapter,
    translate_request,
    translate_response,
    translate_stream,
)

CODEX = recorded("openai/responses_codex_tools.json")
FIRST, LATER = (call.request.json for call in CODEX)
STREAMS = [call.response.stream_payloads() for call in CODEX]
ANSWERS = [payloads[-1]["response"] for payloads in STREAMS]
CHAT = recorded("openai/chat_custom_tool.json")
TARGETS = ("anthropic", "openai", "google", "mistral")


def wire_tools(body: dict[str, Any]) -> list[tuple[str | None, dict[str, Any]]]:
    """Each function and custom tool a Responses body offers, with its namespace:
    the `tools` list's and those of its `additional_tools` items."""
    lists = [body.get("tools", [])]
    lists += [item["tools"] for item in body["input"] if item.get("type") == "additional_tools"]
    found: list[tuple[str | None, dict[str, Any]]] = []
    for tools in lists:
        for tool in tools:
            if tool["type"] == "namespace":
                found += [(tool["name"], inner) for inner in tool["tools"]]
            elif tool["type"] in ("function", "custom"):
                found.append((None, tool))
    return found


def core_name(namespace: str | None, tool: dict[str, Any]) -> str:
    """The name the tool goes by elsewhere, spelled out from the wire."""
    joined = tool["name"] if namespace is None else f"{namespace}--{tool['name']}"
    return f"{joined}--freeform" if tool["type"] in ("custom", "custom_tool_call") else joined


def expected_schema(tool: dict[str, Any]) -> dict[str, Any]:
    if tool["type"] == "function":
        return dict(tool["parameters"])
    return {
        "type": "object",
        "properties": {"input": {"type": "string", "description": ANY_TEXT}},
        "required": ["input"],
    }


class _AnyText(str):
    """Equal to any text that says something: the input's description is ours to word."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and bool(other)

    __hash__ = str.__hash__


ANY_TEXT = _AnyText("text")


def offered(target: str, body: dict[str, Any]) -> dict[str, Any]:
    """The functions a body of `target` offers: name -> JSON Schema."""
    match target:
        case "anthropic":
            return {tool["name"]: tool["input_schema"] for tool in body["tools"]}
        case "google":
            declared = [d for tool in body["tools"] for d in tool.get("functionDeclarations", [])]
            return {d["name"]: d["parametersJsonSchema"] for d in declared}
    assert all(tool["type"] == "function" for tool in body["tools"])
    return {tool["function"]["name"]: tool["function"]["parameters"] for tool in body["tools"]}


def calls(target: str, body: dict[str, Any]) -> dict[str, Any]:
    """The calls a body of `target` holds: name -> arguments, as an object."""
    found: dict[str, Any] = {}
    if target == "anthropic":
        for message in body["messages"]:
            blocks = message["content"] if isinstance(message["content"], list) else []
            found |= {b["name"]: b["input"] for b in blocks if b["type"] == "tool_use"}
    elif target == "google":
        for content in body["contents"]:
            found |= {
                p["functionCall"]["name"]: p["functionCall"]["args"]
                for p in content["parts"]
                if "functionCall" in p
            }
    else:
        for message in body["messages"]:
            for call in message.get("tool_calls") or []:
                arguments = call["function"]["arguments"]
                found[call["function"]["name"]] = (
                    json.loads(arguments) if isinstance(arguments, str) else arguments
                )
    return found


def input_items(body: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [item for item in body["input"] if item.get("type") == kind]


# --- the Responses API's own bodies ---


@pytest.mark.parametrize("body", [FIRST, LATER], ids=["first", "later"])
def test_codex_requests_go_back_as_they_came(body: dict[str, Any]) -> None:
    assert responses.encode_request(responses.decode_request(body)) == body


@pytest.mark.parametrize("number", [0, 1], ids=["calls", "answer"])
def test_codex_answers_go_back_as_they_came_and_stream_to_the_same(number: int) -> None:
    answer = ANSWERS[number]
    response = responses.decode_response(answer)
    assert responses.encode_response(response, report=TranslationReport()) == answer
    assert accumulate(responses.decode_stream(STREAMS[number])) == response


def test_every_function_of_a_namespace_and_every_custom_tool_is_a_spec() -> None:
    request = responses.decode_request(FIRST)
    tools = wire_tools(FIRST)
    assert [spec.name for spec in request.tools] == [core_name(ns, tool) for ns, tool in tools]
    for spec, (_, tool) in zip(request.tools, tools, strict=True):
        assert spec.description == tool.get("description")
        assert spec.parameters == expected_schema(tool)
    # Every name is one each API takes as a function's.
    assert all(re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_-]{0,63}", spec.name) for spec in request.tools)
    # The built-in tools are kept in their places, each spec there by its name.
    options = request.options_for(responses.PROVIDER)
    assert [t if isinstance(t, str) else t["type"] for t in options["tools"]] == [
        "shell_command",
        "namespace",
        "apply_patch--freeform",
        "web_search",
    ]
    assert options["additional_tools"][0]["tools"][1] == FIRST["input"][0]["tools"][1]


def test_the_calls_of_a_later_turn_are_the_tools_calls_with_their_input() -> None:
    request = responses.decode_request(LATER)
    parts = {part.name: part for message in request.messages for part in message.tool_calls}
    function_call, custom_call = (
        input_items(LATER, "function_call")[0],
        input_items(LATER, "custom_tool_call")[0],
    )
    spawn = parts[core_name(function_call["namespace"], function_call)]
    assert (spawn.id, spawn.arguments) == (function_call["call_id"], function_call["arguments"])
    patch = parts[core_name(None, custom_call)]
    assert (patch.id, patch.parsed_arguments()) == (
        custom_call["call_id"],
        {"input": custom_call["input"]},
    )
    results = {part.tool_call_id: part.text for m in request.messages for part in m.tool_results}
    outputs = [*input_items(LATER, "function_call_output")]
    outputs += input_items(LATER, "custom_tool_call_output")
    assert results == {item["call_id"]: item["output"] for item in outputs}


# --- to the other APIs ---


@pytest.mark.parametrize("target", TARGETS)
def test_each_tool_is_offered_elsewhere_as_a_function(target: str) -> None:
    body = translate_request(FIRST, source="openai-responses", target=target).body
    assert offered(target, body) == {
        core_name(ns, tool): expected_schema(tool) for ns, tool in wire_tools(FIRST)
    }


@pytest.mark.parametrize("target", TARGETS)
def test_each_call_carries_its_input_elsewhere(target: str) -> None:
    body = translate_request(LATER, source="openai-responses", target=target).body
    function_call = input_items(LATER, "function_call")[0]
    custom_call = input_items(LATER, "custom_tool_call")[0]
    assert calls(target, body) == {
        core_name(function_call["namespace"], function_call): json.loads(
            function_call["arguments"]
        ),
        core_name(None, custom_call): {"input": custom_call["input"]},
    }


def test_what_another_api_cannot_take_is_reported_tool_by_tool() -> None:
    losses = translate_request(FIRST, source="openai-responses", target="anthropic").losses
    tool_losses = {
        (loss.path, loss.kind) for loss in losses if "tools" in loss.path or "format" in loss.path
    }
    apply_patch = [spec.name for spec in responses.decode_request(FIRST).tools].index(
        "apply_patch--freeform"
    )
    assert tool_losses == {
        # web_search, a built-in tool of the list.
        ("provider_options.openai-responses.tools[3]", "dropped"),
        # tool_search, a built-in tool of the additional_tools item.
        ("provider_options.openai-responses.additional_tools[0].tools[1]", "dropped"),
        # apply_patch's grammar; exec's `{"type": "text"}` format loses nothing.
        (f"tools[{apply_patch}].provider_data.openai-responses.fields.format", "dropped"),
    }


# --- a namespace's description, where no API has namespaces ---

NAMESPACE = next(tool for tool in FIRST["tools"] if tool["type"] == "namespace")


def descriptions(target: str, body: dict[str, Any]) -> dict[str, str | None]:
    """The description of each function a body of `target` offers, by name."""
    match target:
        case "anthropic":
            tools = body["tools"]
        case "google":
            tools = [d for tool in body["tools"] for d in tool.get("functionDeclarations", [])]
        case _:
            tools = [tool["function"] for tool in body["tools"]]
    return {tool["name"]: tool.get("description") for tool in tools}


@pytest.mark.parametrize("target", TARGETS)
def test_a_namespaces_description_begins_each_of_its_functions_description_elsewhere(
    target: str,
) -> None:
    request = responses.decode_request(FIRST)
    sent = translate_request(FIRST, source="openai-responses", target=target)

    described = descriptions(target, sent.body)
    group = NAMESPACE["description"]
    assert group
    for tool in NAMESPACE["tools"]:
        name = core_name(NAMESPACE["name"], tool)
        assert described[name] == f"{group}\n\n{tool['description']}"
    others = [(ns, tool) for ns, tool in wire_tools(FIRST) if ns != NAMESPACE["name"]]
    assert {core_name(ns, tool): tool.get("description") for ns, tool in others} == {
        name: text for name, text in described.items() if not name.startswith(NAMESPACE["name"])
    }
    # Its meaning arrives so: the group's description is no loss.
    assert not [loss.path for loss in sent.losses if loss.path.endswith(".description")]
    # On the wire only: the core's tools keep their own descriptions.
    get_adapter(target).encode_request(request, report=TranslationReport())
    assert request == responses.decode_request(FIRST)
    assert [spec.description for spec in request.tools] == [
        tool.get("description") for _, tool in wire_tools(FIRST)
    ]


NAMESPACE_ONLY = {
    "model": "gpt-5.1-codex",
    "input": [
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": "Which sub-agents are running?"}],
        }
    ],
    "tools": [
        {
            "type": "namespace",
            "name": "multi_agent_v1",
            "description": "Tools that start and steer sub-agents.",
            "tools": [
                {
                    "type": "function",
                    "name": "list_agents",
                    "strict": False,
                    "parameters": {"type": "object", "properties": {}},
                }
            ],
        }
    ],
}


@pytest.mark.parametrize("target", TARGETS)
def test_a_function_without_a_description_is_described_by_its_namespace_alone(
    target: str,
) -> None:
    sent = translate_request(NAMESPACE_ONLY, source="openai-responses", target=target)
    group = NAMESPACE_ONLY["tools"][0]
    assert descriptions(target, sent.body) == {
        "multi_agent_v1--list_agents": group["description"]  # type: ignore[index]
    }
    assert [loss.path for loss in sent.losses if loss.level == "content"] == []


def test_a_namespaces_description_with_no_function_sent_to_carry_it_is_reported() -> None:
    request = responses.decode_request(FIRST)
    alone = request.model_copy(
        update={
            "tools": tuple(t for t in request.tools if ToolName.parse(t.name).namespace is None)
        }
    )
    report = TranslationReport()
    get_adapter("anthropic").encode_request(alone, report=report)
    assert ("provider_options.openai-responses.tools[1].description", "content") in [
        (loss.path, loss.level) for loss in report.losses
    ]


# --- answers from elsewhere, back to the Responses API ---

PATCH = input_items(LATER, "custom_tool_call")[0]["input"]
SPAWN = json.loads(input_items(LATER, "function_call")[0]["arguments"])
ANTHROPIC_ANSWER = {
    "id": "msg_01Jq4WcXz7Lp2Ty9Rk3Vn8Bd",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5-20250929",
    "content": [
        {"type": "text", "text": "I'll patch the file and start a sub-agent on the README."},
        {
            "type": "tool_use",
            "id": "toolu_01Ab2Cd3Ef4Gh5Ij6Kl7Mn8",
            "name": "apply_patch--freeform",
            "input": {"input": PATCH},
        },
        {
            "type": "tool_use",
            "id": "toolu_01Op9Qr8St7Uv6Wx5Yz4Ab3",
            "name": "multi_agent_v1--spawn_agent",
            "input": SPAWN,
        },
        {
            "type": "tool_use",
            "id": "toolu_01Cd2Ef3Gh4Ij5Kl6Mn7Op8",
            "name": "functions--exec--freeform",
            "input": {"input": "print(open('README.md').read())"},
        },
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 4210, "output_tokens": 212},
}
CHAT_ANSWER = {
    "id": "chatcmpl-DmR7sKx3Wq9Lc2Vb5Nz8Hy1Tj",
    "object": "chat.completion",
    "created": 1780401300,
    "model": "deepseek-chat",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_00_Xz8Kq2Lm5Vb",
                        "type": "function",
                        "function": {
                            "name": "apply_patch--freeform",
                            "arguments": json.dumps({"input": PATCH}),
                        },
                    },
                    {
                        "id": "call_01_Pw4Ny7Rt1Hc",
                        "type": "function",
                        "function": {
                            "name": "multi_agent_v1--spawn_agent",
                            "arguments": json.dumps(SPAWN),
                        },
                    },
                ],
            },
            "logprobs": None,
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {"prompt_tokens": 3980, "completion_tokens": 140, "total_tokens": 4120},
}


def offered_as(name: str) -> tuple[str | None, dict[str, Any]]:
    """The namespace and wire tool of the tool named `name` elsewhere."""
    return next((ns, tool) for ns, tool in wire_tools(FIRST) if core_name(ns, tool) == name)


def as_offered(call_name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The call item the Responses API would give for a call of `call_name`."""
    namespace, tool = offered_as(call_name)
    item: dict[str, Any] = {"name": tool["name"]}
    if namespace is not None:
        item["namespace"] = namespace
    if tool["type"] == "custom":
        return {"type": "custom_tool_call", **item, "input": arguments["input"]}
    return {"type": "function_call", **item, "arguments": arguments}


def call_items(output: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The call items of an output, their arguments parsed, without ids and status."""
    found = []
    for item in output:
        if item.get("type") not in ("function_call", "custom_tool_call"):
            continue
        kept = {k: v for k, v in item.items() if k not in ("id", "call_id", "status")}
        if "arguments" in kept:
            kept["arguments"] = json.loads(kept["arguments"])
        found.append(kept)
    return found


@pytest.mark.parametrize(
    ("source", "answer"),
    [("anthropic", ANTHROPIC_ANSWER), ("deepseek", CHAT_ANSWER)],
    ids=["anthropic", "chat-completions"],
)
def test_a_call_made_elsewhere_comes_back_in_the_form_codex_offered(
    source: str, answer: dict[str, Any]
) -> None:
    translation = translate_response(answer, source=source, target="openai-responses")
    made = get_adapter(source).decode_response(answer).message.tool_calls
    assert call_items(translation.body["output"]) == [
        as_offered(call.name, call.parsed_arguments()) for call in made
    ]
    ids = [item["call_id"] for item in translation.body["output"] if "call_id" in item]
    assert ids == [call.id for call in made]
    assert translation.losses == []


def test_a_streamed_call_made_elsewhere_streams_back_as_a_custom_call() -> None:
    start = {k: v for k, v in ANTHROPIC_ANSWER.items() if k not in ("content", "usage")}
    encoded = json.dumps({"input": PATCH})
    cut = len('{"input": "*** Begin')
    events = [
        {
            "type": "message_start",
            "message": {**start, "content": [], "stop_reason": None, "usage": {}},
        },
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {**ANTHROPIC_ANSWER["content"][1], "input": {}},  # type: ignore[dict-item]
        },
        *(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": piece},
            }
            for piece in (encoded[:cut], encoded[cut : cut + 7], encoded[cut + 7 :])
        ),
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {}},
        {"type": "message_stop"},
    ]
    written = [
        event.data
        for event in translate_stream(events, source="anthropic", target="openai-responses")
    ]
    deltas = [e["delta"] for e in written if e["type"] == "response.custom_tool_call_input.delta"]
    assert deltas[0] == "*** Begin"
    assert "".join(deltas) == PATCH
    done = next(e["item"] for e in written if e["type"] == "response.output_item.done")
    assert call_items([done]) == [as_offered("apply_patch--freeform", {"input": PATCH})]
    assert accumulate(responses.decode_stream(written)).message.tool_calls[0].name == (
        "apply_patch--freeform"
    )


def test_a_history_answered_elsewhere_goes_back_to_the_responses_api_as_codex_wrote_it() -> None:
    request = responses.decode_request(FIRST)
    answered = get_adapter("anthropic").decode_response(ANTHROPIC_ANSWER).message
    results = [Message.tool_result(call.id, "done") for call in answered.tool_calls]
    history = (*request.messages, answered, *results)
    report = TranslationReport()
    body = responses.encode_request(request.model_copy(update={"messages": history}), report=report)
    sent = body["input"][len(FIRST["input"]) :]
    assert call_items(sent) == [
        as_offered(call.name, call.parsed_arguments()) for call in answered.tool_calls
    ]
    outputs = [item["type"] for item in sent if item.get("type", "").endswith("_output")]
    assert outputs == ["custom_tool_call_output", "function_call_output", "custom_tool_call_output"]
    assert body["tools"] == FIRST["tools"]
    assert body["input"][: len(FIRST["input"])] == FIRST["input"]
    assert report.losses == []


# --- Chat Completions' custom tools ---

CHAT_FIRST, CHAT_LATER = (call.request.json for call in CHAT)


def test_chat_custom_tools_and_calls_go_back_as_they_came() -> None:
    codec = interlingua_openai
    for call in CHAT:
        body = call.request.json
        assert codec.encode_request(codec.decode_request(body)) == body
        answer = call.response.json
        assert codec.encode_response(codec.decode_response(answer)) == answer


def test_a_chat_custom_tool_is_offered_elsewhere_as_a_function_and_its_call_carries_its_input() -> (
    None
):
    custom = CHAT_FIRST["tools"][1]["custom"]
    call = CHAT_LATER["messages"][2]["tool_calls"][0]["custom"]
    translation = translate_request(CHAT_LATER, source="openai", target="anthropic")
    tools = offered("anthropic", translation.body)
    name = f"{custom['name']}--freeform"
    assert tools[name]["required"] == ["input"]
    assert calls("anthropic", translation.body) == {name: {"input": call["input"]}}
    grammar = [loss.path for loss in translation.losses if loss.path.endswith(".format")]
    assert grammar == ["tools[1].provider_data.openai.fields.format"]


def test_an_answer_made_elsewhere_comes_back_to_chat_completions_as_a_custom_call() -> None:
    body = translate_response(ANTHROPIC_ANSWER, source="anthropic", target="openai").body
    tool_calls = body["choices"][0]["message"]["tool_calls"]
    assert tool_calls[0] == {
        "id": ANTHROPIC_ANSWER["content"][1]["id"],  # type: ignore[index]
        "type": "custom",
        "custom": {"name": "apply_patch", "input": PATCH},
    }
    # Chat Completions has no namespaces: a namespace's function keeps its joined name.
    assert tool_calls[1]["function"]["name"] == "multi_agent_v1--spawn_agent"


def test_a_streamed_chat_custom_call_accumulates_to_the_call_of_the_answer() -> None:
    answer = CHAT[0].response.json
    call = answer["choices"][0]["message"]["tool_calls"][0]
    head = {k: answer[k] for k in ("id", "object", "created", "model")}
    head["object"] = "chat.completion.chunk"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    text = call["custom"]["input"]
    chunks = [
        chunk(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "index": 0,
                        "id": call["id"],
                        "type": "custom",
                        "custom": {"name": call["custom"]["name"], "input": text[:9]},
                    }
                ],
            }
        ),
        chunk({"tool_calls": [{"index": 0, "custom": {"input": text[9:]}}]}),
        chunk({}, "tool_calls"),
    ]
    streamed = accumulate(interlingua_openai.decode_stream(chunks)).message.tool_calls
    assert streamed == interlingua_openai.decode_response(answer).message.tool_calls
    written = [
        e.data
        for e in interlingua_openai.encode_stream(
            interlingua_openai.decode_stream(chunks), report=TranslationReport()
        )
    ]
    pieces = [
        entry["custom"]
        for data in written
        if isinstance(data, dict)
        for choice in data.get("choices", [])
        for entry in choice["delta"].get("tool_calls", [])
    ]
    assert pieces == [{"name": call["custom"]["name"], "input": text}]


# --- names, and calls kept before freeform tools had their names ---


@pytest.mark.parametrize(
    "name",
    [
        "apply_patch",
        "apply_patch--freeform",
        "multi_agent_v1--spawn_agent",
        "a--b--freeform",
        "--freeform",
        "mcp__node_repl__--js",
        "a--",
    ],
)
def test_a_core_name_reads_back_to_itself(name: str) -> None:
    assert str(ToolName.parse(name)) == name


def test_a_function_whose_own_name_reads_as_a_namespaced_one_goes_back_as_it_came() -> None:
    item = {"type": "function_call", "call_id": "c1", "name": "a--b", "arguments": "{}"}
    answered = {"id": "fc_1", **item, "status": "completed"}
    body = {
        "model": "gpt-5",
        "input": [item, {"type": "function_call_output", "call_id": "c1", "output": "1"}],
    }
    request = responses.decode_request(body)
    assert responses.encode_request(request) == body
    # An answer's call, which another API's would give back as a namespace's.
    answer = {"id": "resp_1", "object": "response", "model": "gpt-5", "output": [answered]}
    response = responses.decode_response(answer)
    assert responses.encode_response(response)["output"] == [answered]


@pytest.mark.parametrize(
    ("adapter", "forms", "expected"),
    [
        (
            responses,
            {"type": "custom_tool_call"},
            {"type": "custom_tool_call", "call_id": "c1", "name": "sql", "input": "SELECT 1"},
        ),
        (
            interlingua_openai,
            {"type": "custom"},
            {"id": "c1", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}},
        ),
    ],
    ids=["responses", "chat-completions"],
)
def test_a_custom_call_kept_before_freeform_names_goes_back_as_it_came(
    adapter: Any, forms: dict[str, Any], expected: dict[str, Any]
) -> None:
    # Saved when a custom call kept its own name and its input as the arguments.
    call = ToolCallPart(
        id="c1",
        name="sql",
        arguments="SELECT 1",
        provider_data={adapter.PROVIDER: {"forms": forms}},
    )
    messages = (Message.user("Count."), Message.assistant(call), Message.tool_result("c1", "1"))
    body = adapter.encode_request(ChatRequest(model="gpt-5", messages=messages))
    sent = body["input"][1] if adapter is responses else body["messages"][1]["tool_calls"][0]
    assert sent == expected


def test_a_freeform_spec_is_a_function_of_one_string_input_under_a_name_that_says_so() -> None:
    spec = ToolSpec.freeform("exec", "Runs a script.", namespace="functions")
    assert (spec.name, spec.description) == ("functions--exec--freeform", "Runs a script.")
    assert spec.parameters["required"] == ["input"]
    assert spec.parameters["properties"]["input"]["type"] == "string"
    assert ToolName.parse(spec.name) == ToolName("exec", "functions", freeform=True)
