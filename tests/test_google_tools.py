"""Gemini's function declarations: a tool's `parameters` in Google's OpenAPI
subset is read as the JSON Schema it means, goes to every API's tools as that
JSON Schema, and back to Gemini exactly as it came.

- `fixtures/google/tool_parameters_openapi_schema.json`: the request
  `@ai-sdk/google` writes for a function tool (lower-case types, a nullable
  string, an enum, an array of integers) and its answer, a call to the tool;
- a declaration in snake_case, its schema's keywords too;
- the corpus's declarations with `parameters` (upper-case types, as the
  `google-genai` SDK writes them), their JSON Schema read here from the wire;
- a schema changed since it was read goes as `parametersJsonSchema`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, corpus_id, corpus_params, from_corpus, require_corpus, same_json
from interlingua import FinishReason, ToolSpec, TranslationReport, translate_request
from interlingua.testing import Replay, load_cassette
from interlingua_google import GoogleClient, decode_request, decode_response, encode_request
from test_google_client import sdk

(FORECAST,) = load_cassette(
    FIXTURES / "google" / "tool_parameters_openapi_schema.json"
).interactions
assert FORECAST.request is not None
BODY: dict[str, Any] = FORECAST.request.json
# The JSON Schema the AI SDK's zod schema was before `convertJSONSchemaToOpenAPISchema`,
# without the `additionalProperties: false` and `$schema` that converter leaves out.
FORECAST_SCHEMA = {
    "required": ["city", "country", "unit", "days"],
    "type": "object",
    "properties": {
        "city": {"description": "The city name", "type": "string"},
        "country": {
            "description": "The country, when the city name is ambiguous",
            "type": ["string", "null"],
        },
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "days": {
            "description": "Days ahead: 0 for today",
            "type": "array",
            "items": {"type": "integer"},
        },
    },
}
NAME = "get_forecast"
DESCRIPTION = "The weather forecast for a city, day by day."
CHAT_TOOL = {
    "type": "function",
    "function": {"name": NAME, "description": DESCRIPTION, "parameters": FORECAST_SCHEMA},
}
# Each API's tools for the forecast tool, and the losses reported (Anthropic requires a
# max_tokens, which the AI SDK's body does not give).
TARGETS = {
    "openai": ([CHAT_TOOL], []),
    "mistral": ([CHAT_TOOL], []),
    "groq": ([CHAT_TOOL], []),
    "openai-responses": (
        [
            {
                "type": "function",
                "name": NAME,
                "description": DESCRIPTION,
                "parameters": FORECAST_SCHEMA,
                "strict": False,
            }
        ],
        [],
    ),
    "anthropic": (
        [{"name": NAME, "description": DESCRIPTION, "input_schema": FORECAST_SCHEMA}],
        ["max_tokens"],
    ),
}
HELLO = [{"role": "user", "parts": [{"text": "Hello"}]}]


def test_an_ai_sdk_tool_schema_is_the_json_schema_it_means() -> None:
    request = decode_request(BODY)

    (tool,) = request.tools
    assert (tool.name, tool.description) == (NAME, DESCRIPTION)
    assert tool.parameters == FORECAST_SCHEMA


def test_it_goes_back_to_gemini_exactly_as_it_came() -> None:
    report = TranslationReport()

    body = encode_request(decode_request(BODY), report=report)

    assert same_json(body, BODY)
    (declaration,) = body["tools"][0]["functionDeclarations"]
    assert "parametersJsonSchema" not in declaration
    assert report.losses == []


def test_the_client_sends_it_as_it_came_and_reads_the_call() -> None:
    replay = Replay([FORECAST])
    response = GoogleClient(sdk(replay)).complete(
        decode_request(BODY).model_copy(update={"model": "gemini-2.5-flash"})
    )

    assert replay.sent == [BODY]
    (call,) = response.message.tool_calls
    (part,) = FORECAST.response.json["candidates"][0]["content"]["parts"]
    assert call.name == part["functionCall"]["name"] == NAME
    assert call.parsed_arguments() == part["functionCall"]["args"]
    assert call.parsed_arguments()["country"] is None  # the nullable string, null
    assert response.finish_reason == FinishReason.TOOL_CALLS
    assert response == decode_response(FORECAST.response.json)


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_it_goes_to_each_apis_tools_as_json_schema(target: str) -> None:
    tools, losses = TARGETS[target]

    there = translate_request(BODY, source="google", target=target)

    assert there.body["tools"] == tools
    assert [loss.path for loss in there.losses] == losses


def test_a_snake_case_declaration_goes_back_in_snake_case() -> None:
    parameters = {
        "type": "OBJECT",
        "properties": {
            "query": {"type": "STRING"},
            "limit": {"type": "INTEGER", "nullable": True, "maximum": 50},
            "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "max_items": "5"},
        },
        "property_ordering": ["query", "tags", "limit"],
        "required": ["query"],
    }
    body = {
        "contents": HELLO,
        "tools": [{"function_declarations": [{"name": "search", "parameters": parameters}]}],
    }

    request = decode_request(body)

    assert request.tools[0].parameters == {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
            "limit": {"type": ["integer", "null"], "maximum": 50},
        },
        "required": ["query"],
    }
    assert list(request.tools[0].parameters["properties"]) == parameters["property_ordering"]
    assert same_json(encode_request(request), body)


def test_a_schema_changed_since_it_was_read_goes_as_parameters_json_schema() -> None:
    request = decode_request(BODY)
    changed = {**FORECAST_SCHEMA, "required": ["city", "unit", "days"]}
    tool = request.tools[0].model_copy(update={"parameters": changed})

    body = encode_request(request.model_copy(update={"tools": (tool,)}))

    assert body["tools"] == [
        {
            "functionDeclarations": [
                {"name": NAME, "description": DESCRIPTION, "parametersJsonSchema": changed}
            ]
        }
    ]


def test_a_tool_from_elsewhere_goes_whole_as_parameters_json_schema() -> None:
    tool = ToolSpec(name=NAME, description=DESCRIPTION, parameters=FORECAST_SCHEMA)
    request = decode_request(BODY).model_copy(update={"tools": (tool,)})

    body = encode_request(request)

    (declaration,) = body["tools"][0]["functionDeclarations"]
    assert declaration == {
        "name": NAME,
        "description": DESCRIPTION,
        "parametersJsonSchema": FORECAST_SCHEMA,
    }


# --- the corpus ---

# The keywords the recorded `parameters` use, whose JSON Schema `lowered` gives.
RECORDED_KEYWORDS = {"type", "properties", "required", "title", "description", "items"}


def declarations(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The body's function declarations, in either spelling, in order."""
    return [
        declaration
        for tool in body.get("tools", [])
        for key in ("functionDeclarations", "function_declarations")
        for declaration in tool.get(key, [])
    ]


def with_parameters(path: Path) -> bool:
    return any(
        "parameters" in declaration
        for call in load_cassette(path).for_provider("google")
        if call.request is not None and isinstance(call.request.json, dict)
        for declaration in declarations(call.request.json)
    )


def lowered(schema: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema a recorded schema means: Google's upper-case type names
    lower-cased, the rest as it came (the corpus uses `RECORDED_KEYWORDS` only)."""
    assert set(schema) <= RECORDED_KEYWORDS, set(schema) - RECORDED_KEYWORDS
    read = dict(schema)
    if isinstance(schema.get("type"), str):
        read["type"] = schema["type"].lower()
    if "items" in schema:
        read["items"] = lowered(schema["items"])
    if "properties" in schema:
        read["properties"] = {name: lowered(item) for name, item in schema["properties"].items()}
    return read


@pytest.mark.parametrize(
    "path",
    corpus_params("google", keep=with_parameters, holding="declarations with parameters"),
    ids=corpus_id,
)
def test_every_recorded_tool_schema_is_json_schema_elsewhere(path: Any) -> None:
    for call in load_cassette(from_corpus(path)).for_provider("google"):
        assert call.request is not None
        body = call.request.json
        recorded = {
            declaration["name"]: lowered(declaration["parameters"])
            for declaration in declarations(body)
            if "parameters" in declaration
        }
        if not recorded:
            continue
        request = decode_request(body)

        there = translate_request(body, source="google", target="openai")

        decoded = {tool.name: tool.parameters for tool in request.tools}
        sent = {tool["function"]["name"]: tool["function"] for tool in there.body["tools"]}
        for name, schema in recorded.items():
            assert decoded[name] == schema
            assert sent[name]["parameters"] == schema
        assert same_json(encode_request(request), body)


def test_a_recorded_upper_case_schema_arrives_in_lower_case() -> None:
    path = (
        require_corpus("google")
        / "mirascope/test_call_with_tool_error__google_gemini_2_5_flash.yaml"
    )
    call = load_cassette(path).for_provider("google")[0]
    assert call.request is not None
    (declaration,) = declarations(call.request.json)
    assert declaration["parameters"]["type"] == "OBJECT"

    there = translate_request(call.request.json, source="google", target="anthropic")

    (tool,) = there.body["tools"]
    assert tool["input_schema"] == {
        "properties": {"passphrase": {"title": "Passphrase", "type": "string"}},
        "required": ["passphrase"],
        "type": "object",
    }
