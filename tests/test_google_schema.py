"""Gemini's `responseSchema` (Google's OpenAPI subset) is structured output:
read as the JSON Schema it means, it goes to each API's structured-output
field, and back to Gemini exactly as it came.

- `fixtures/google/structured_output_response_schema.json`: the request
  `@ai-sdk/google` writes for `generateObject` (lower-case types, a nullable
  field, an enum, an array of objects) and its answer, whose text is the JSON;
- the corpus bodies with a `responseSchema` (upper-case types, snake_case
  keywords, `property_ordering`);
- a JSON schema from another API goes to Gemini as `responseJsonSchema`;
- `responseMimeType` alone is JSON mode; an empty `generationConfig` says nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, corpus_id, corpus_params, from_corpus, require_corpus, same_json
from interlingua import ResponseFormat, TranslationReport, translate_request
from interlingua.testing import Replay, load_cassette
from interlingua_google import GoogleClient, decode_request, encode_request
from test_google_client import sdk

(RECIPE,) = load_cassette(
    FIXTURES / "google" / "structured_output_response_schema.json"
).interactions
assert RECIPE.request is not None
BODY: dict[str, Any] = RECIPE.request.json
# The JSON Schema the AI SDK's zod schema was before `convertJSONSchemaToOpenAPISchema`,
# without the `additionalProperties: false` and `$schema` that converter leaves out.
RECIPE_SCHEMA = {
    "required": ["name", "cuisine", "servings", "ingredients", "notes"],
    "type": "object",
    "properties": {
        "name": {"description": "The recipe's name", "type": "string"},
        "cuisine": {"type": "string", "enum": ["italian", "japanese", "mexican"]},
        "servings": {"type": "integer"},
        "ingredients": {
            "type": "array",
            "items": {
                "required": ["item", "amount"],
                "type": "object",
                "properties": {"item": {"type": "string"}, "amount": {"type": "string"}},
            },
        },
        "notes": {"type": ["string", "null"]},
    },
}
CHAT_FORMAT = {"type": "json_schema", "json_schema": {"name": "response", "schema": RECIPE_SCHEMA}}
# Each API's structured-output field for the recipe schema, and the losses reported:
# a Chat Completions server requires a schema name (one is made), Anthropic a max_tokens.
TARGETS = {
    "openai": ({"response_format": CHAT_FORMAT}, ["response_format.name"]),
    "mistral": ({"response_format": CHAT_FORMAT}, ["response_format.name"]),
    "groq": ({"response_format": CHAT_FORMAT}, ["response_format.name"]),
    "openai-responses": (
        {"text": {"format": {"type": "json_schema", "name": "response", "schema": RECIPE_SCHEMA}}},
        ["response_format.name"],
    ),
    "anthropic": (
        {"output_config": {"format": {"type": "json_schema", "schema": RECIPE_SCHEMA}}},
        ["max_tokens"],
    ),
}
HELLO = [{"role": "user", "parts": [{"text": "Hello"}]}]
FORMAT_FIELDS = {"responseMimeType", "response_mime_type", "responseSchema", "response_schema"}


def test_an_ai_sdk_response_schema_is_the_json_schema_it_means() -> None:
    request = decode_request(BODY)

    assert request.response_format == ResponseFormat(type="json_schema", json_schema=RECIPE_SCHEMA)
    assert request.provider_options == {}


def test_it_goes_back_to_gemini_exactly_as_it_came() -> None:
    report = TranslationReport()

    body = encode_request(decode_request(BODY), report=report)

    assert same_json(body, BODY)
    assert "responseJsonSchema" not in body["generationConfig"]
    assert report.losses == []


def test_the_client_sends_it_as_it_came_and_the_answer_is_the_json() -> None:
    replay = Replay([RECIPE])
    response = GoogleClient(sdk(replay)).complete(
        decode_request(BODY).model_copy(update={"model": "gemini-2.5-flash"})
    )

    assert replay.sent == [BODY]
    answer = json.loads(response.message.text)
    assert list(answer) == RECIPE_SCHEMA["required"]
    assert answer["notes"] is None
    assert answer["cuisine"] in ["italian", "japanese", "mexican"]


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_it_goes_to_each_apis_structured_output_as_json_schema(target: str) -> None:
    fields, losses = TARGETS[target]

    there = translate_request(BODY, source="google", target=target)

    assert {key: there.body[key] for key in fields} == fields
    assert [loss.path for loss in there.losses] == losses


def test_the_openapi_subset_is_read_keyword_by_keyword() -> None:
    schema = {
        "type": "OBJECT",
        "properties": {
            "tags": {
                "type": "ARRAY",
                "items": {"type": "STRING", "format": "enum", "enum": ["a", "b"]},
                "max_items": "3",
                "minItems": 1,
            },
            "size": {"type": "STRING", "enum": ["S", "M"], "nullable": True},
            "when": {"type": "STRING", "format": "date-time", "example": "2026-01-01T09:00:00Z"},
            "owner": {
                "any_of": [{"ref": "#/defs/Person"}, {"type": "INTEGER", "format": "int64"}],
                "nullable": True,
            },
            "extra": {"type": "TYPE_UNSPECIFIED", "nullable": False, "description": "Anything."},
        },
        "property_ordering": ["when", "tags", "size", "owner", "extra"],
        "defs": {"Person": {"type": "OBJECT", "properties": {"name": {"type": "STRING"}}}},
    }
    body = {
        "contents": HELLO,
        "generation_config": {"response_mime_type": "application/json", "response_schema": schema},
    }

    request = decode_request(body)

    assert request.response_format is not None
    read = request.response_format.json_schema
    assert read == {
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date-time", "examples": ["2026-01-01T09:00:00Z"]},
            "tags": {
                "type": "array",
                "items": {"type": "string", "enum": ["a", "b"]},
                "maxItems": 3,
                "minItems": 1,
            },
            "size": {"type": ["string", "null"], "enum": ["S", "M", None]},
            "owner": {
                "anyOf": [
                    {"$ref": "#/$defs/Person"},
                    {"type": "integer", "format": "int64"},
                    {"type": "null"},
                ]
            },
            "extra": {"description": "Anything."},
        },
        "$defs": {"Person": {"type": "object", "properties": {"name": {"type": "string"}}}},
    }
    assert read is not None
    assert list(read["properties"]) == schema["property_ordering"]
    assert same_json(encode_request(request), body)


def test_a_schema_changed_since_it_was_read_goes_as_json_schema() -> None:
    request = decode_request(BODY)
    changed = {**RECIPE_SCHEMA, "required": ["name"]}
    format = ResponseFormat(type="json_schema", json_schema=changed)

    body = encode_request(request.model_copy(update={"response_format": format}))

    assert body["generationConfig"] == {
        "responseMimeType": "application/json",
        "responseJsonSchema": changed,
    }


def test_a_json_schema_from_another_api_goes_to_gemini_as_response_json_schema() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    body = {
        "model": "gpt-4.1",
        "messages": [{"role": "user", "content": "Where?"}],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "place", "schema": schema, "strict": False},
        },
    }

    there = translate_request(body, source="openai", target="google")

    assert there.body["generationConfig"] == {
        "responseMimeType": "application/json",
        "responseJsonSchema": schema,
    }
    assert [(loss.path, loss.kind) for loss in there.losses] == [
        ("response_format.name", "dropped"),
        ("response_format.strict", "dropped"),
    ]


def test_a_mime_type_alone_is_json_mode_everywhere() -> None:
    body = {"contents": HELLO, "generationConfig": {"responseMimeType": "application/json"}}

    there = translate_request(body, source="google", target="openai")

    assert decode_request(body).response_format == ResponseFormat(type="json_object")
    assert there.body["response_format"] == {"type": "json_object"}
    assert there.losses == []


@pytest.mark.parametrize("target", ["openai", "openai-responses", "mistral", "groq"])
def test_an_empty_generation_config_is_no_loss_and_goes_back_empty(target: str) -> None:
    body = {"contents": HELLO, "generationConfig": {}, "toolConfig": {}}

    there = translate_request(body, source="google", target=target)

    assert there.losses == []
    assert there.body == translate_request({"contents": HELLO}, source="google", target=target).body
    assert same_json(encode_request(decode_request(body)), body)


# --- the corpus ---


def with_response_schema(path: Path) -> bool:
    return any(
        "responseSchema"
        in json.dumps(call.request.json).replace("response_schema", "responseSchema")
        for call in load_cassette(path).for_provider("google")
        if call.request is not None and isinstance(call.request.json, dict)
    )


@pytest.mark.parametrize(
    "path",
    corpus_params("google", keep=with_response_schema, holding="responseSchema bodies"),
    ids=corpus_id,
)
def test_every_recorded_response_schema_is_json_schema_elsewhere(path: Any) -> None:
    for call in load_cassette(from_corpus(path)).for_provider("google"):
        assert call.request is not None
        body = call.request.json
        request = decode_request(body)

        there = translate_request(body, source="google", target="openai")

        assert request.response_format is not None
        schema = request.response_format.json_schema
        assert there.body["response_format"]["json_schema"]["schema"] == schema
        kept = request.options_for("google").get("generationConfig", {})
        assert not FORMAT_FIELDS & set(kept)
        assert "response_format.name" in [loss.path for loss in there.losses]
        assert openapi_only(schema) == []
        assert same_json(encode_request(request), body)


def openapi_only(schema: Any, at: str = "") -> list[str]:
    """Where `schema` still speaks Google's subset: an upper-case type, a
    `nullable`, a `propertyOrdering`, a snake_case keyword."""
    found: list[str] = []
    if isinstance(schema, list):
        for k, item in enumerate(schema):
            found += openapi_only(item, f"{at}[{k}]")
    if not isinstance(schema, dict):
        return found
    for key, value in schema.items():
        if key in ("nullable", "propertyOrdering") or "_" in key:
            found.append(f"{at}.{key}")
        kinds = value if isinstance(value, list) else [value]
        if key == "type" and any(isinstance(kind, str) and kind.isupper() for kind in kinds):
            found.append(f"{at}.type")
        named = key in ("properties", "$defs")  # property names are any text
        items = value.items() if named and isinstance(value, dict) else [("", value)]
        for name, item in items:
            found += openapi_only(item, f"{at}.{key}{'.' + name if name else ''}")
    return found


def test_a_recorded_any_of_with_property_ordering_reads_as_written() -> None:
    path = require_corpus("google") / "pydantic-ai/test_google_native_output_multiple.yaml"
    (call,) = load_cassette(path).for_provider("google")
    assert call.request is not None

    request = decode_request(call.request.json)

    assert request.response_format is not None
    schema = request.response_format.json_schema
    assert schema == {
        "properties": {
            "result": {
                "anyOf": [
                    {
                        "properties": {
                            "kind": {"enum": ["CityLocation"], "type": "string"},
                            "data": {
                                "properties": {
                                    "city": {"type": "string"},
                                    "country": {"type": "string"},
                                },
                                "required": ["city", "country"],
                                "type": "object",
                            },
                        },
                        "required": ["kind", "data"],
                        "type": "object",
                    },
                    {
                        "properties": {
                            "kind": {"enum": ["CountryLanguage"], "type": "string"},
                            "data": {
                                "properties": {
                                    "country": {"type": "string"},
                                    "language": {"type": "string"},
                                },
                                "required": ["country", "language"],
                                "type": "object",
                            },
                        },
                        "required": ["kind", "data"],
                        "type": "object",
                    },
                ]
            }
        },
        "required": ["result"],
        "type": "object",
    }
    # The recording's properties are alphabetical; `property_ordering` says kind, then data.
    assert schema is not None
    assert list(schema["properties"]["result"]["anyOf"][1]["properties"]) == ["kind", "data"]
