"""Reading recorded provider traffic with `interlingua.testing.load_cassette`."""

from __future__ import annotations

import base64
import gzip
import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from botocore.eventstream import EventStreamBuffer

import interlingua.testing
from conftest import (
    CORPUS,
    MissingCorpus,
    corpus_id,
    corpus_params,
    from_corpus,
    require_corpus,
)
from interlingua._errors import CassetteError
from interlingua.testing import Cassette, Interaction, RecordedResponse, SSEEvent, load_cassette
from interlingua_bedrock import read_event_stream

PROVIDER_OF_DIRECTORY = {
    "openai-chat": "openai",
    "openai-responses": "openai",
    "anthropic": "anthropic",
    "mistral": "mistral",
    "groq": "groq",
    "google": "google",
    "compat/deepseek": "deepseek",
    "compat/cerebras": "cerebras",
    "compat/openrouter": "openrouter",
    "bedrock": "bedrock",
}
# Folders holding one folder per provider.
NESTED_DIRECTORIES = frozenset({"compat"})
# Folders of OpenAI-compatible servers whose hosts name no one provider (a local
# Ollama, routers, self-hosted servers): `test_compat_corpus` reads them with the
# adapter of the folder, `ollama` or `openai-compatible`.
HOSTLESS_DIRECTORIES = frozenset({"compat/ollama", "compat/together", "compat/other"})


def is_aws_event_stream(response: RecordedResponse) -> bool:
    return response.headers.get("content-type") == ("application/vnd.amazon.eventstream",)


def aws_event_payloads(body: bytes) -> list[dict[str, Any]]:
    """The JSON payload of each frame of Bedrock's binary stream, read by
    botocore's framing (CRCs checked): a stream no bytes were lost from."""
    frames = EventStreamBuffer()
    frames.add_data(body)
    payloads = [json.loads(frame.to_response_dict()["body"]) for frame in frames]
    assert all(isinstance(payload, dict) for payload in payloads)
    return payloads


def directory(path: Path) -> str:
    """A corpus file's provider folder: `compat/<server>` within `compat`."""
    parts = path.relative_to(CORPUS).parts
    return "/".join(parts[:2]) if parts[0] in NESTED_DIRECTORIES else parts[0]


# Google's model calls end their path with the method (`models/<model>:generateContent`).
GOOGLE_METHODS = (":generateContent", ":streamGenerateContent", ":countTokens")


def is_model_call(interaction: Interaction) -> bool:
    """Whether a call to a provider's host is a model call (every call, but Google's)."""
    if interaction.provider != "google":
        return True
    return (interaction.path or "").endswith(GOOGLE_METHODS)


def load(relative: str) -> Cassette:
    """A known corpus file; its provider folder must be there (CI) or the test skips."""
    folder, rest = relative.split("/", 1)
    return load_cassette(require_corpus(folder) / rest)


def only(interactions: tuple[Interaction, ...]) -> Interaction:
    assert len(interactions) == 1
    return interactions[0]


def write_cassette(tmp_path: Path, *interactions: dict[str, Any]) -> Path:
    path = tmp_path / "cassette.yaml"
    path.write_text(yaml.safe_dump({"interactions": list(interactions), "version": 1}))
    return path


def vcr_interaction(
    body: str | bytes | None,
    *,
    headers: dict[str, Any] | None = None,
    status: Any = None,
    uri: str = "https://api.openai.com/v1/chat/completions",
) -> dict[str, Any]:
    return {
        "request": {
            "method": "POST",
            "uri": uri,
            "headers": {"Content-Type": ["application/json"]},
            "body": '{"model": "gpt-4o"}',
        },
        "response": {
            "status": {"code": 200, "message": "OK"} if status is None else status,
            "headers": headers or {},
            "body": {"string": body},
        },
    }


def test_the_export_list() -> None:
    assert sorted(interlingua.testing.__all__) == [
        "COMPARE_OPTIONS",
        "Cassette",
        "DEFAULT_MATCH_ON",
        "Fake",
        "FakeAnswer",
        "Interaction",
        "MASK",
        "MASKED_HEADERS",
        "NEUTRAL_FORMAT",
        "NEUTRAL_VERSION",
        "NeutralInteraction",
        "RECORDING_FORMAT",
        "RECORD_MODES",
        "REMOVED_HEADERS",
        "RecordedRequest",
        "RecordedResponse",
        "Recorder",
        "Replay",
        "SDK_QUERY_PARAMETERS",
        "SSEEvent",
        "SecretFinding",
        "check_no_secrets",
        "fake",
        "find_secrets",
        "load_cassette",
        "meaning",
        "parse_sse",
        "record",
        "replay",
        "use_cassette",
        "write_cassette",
    ]


# --- every file of the recorded corpus ---


@pytest.mark.parametrize("param", corpus_params(), ids=corpus_id)
def test_every_corpus_file_loads(param: Path | MissingCorpus) -> None:
    path = from_corpus(param)
    cassette = load_cassette(path)
    assert cassette.path == path
    assert cassette.interactions
    response_only = path.suffix == ".json" or path.name.endswith(".chunks.txt")

    for interaction in cassette.interactions:
        response = interaction.response
        assert 100 <= response.status < 600
        if response_only:
            assert interaction.request is None
            assert interaction.provider is None
        elif interaction.provider is not None:
            assert interaction.request is not None
            if not is_model_call(interaction):
                continue  # Google's other REST resources (cachedContents, fileSearchStores)
            assert interaction.request.method == "POST"
            assert isinstance(interaction.request.json, dict)
        else:
            continue  # an image download or other non-provider traffic
        if 200 <= response.status < 300:
            if is_aws_event_stream(response):
                assert aws_event_payloads(response.body)
            elif response.events is None:
                assert response.json is not None
            else:
                payloads = response.stream_payloads()
                assert payloads
                assert all(isinstance(payload, dict) for payload in payloads)

    folder = directory(path)
    if not response_only and folder not in HOSTLESS_DIRECTORIES:
        assert cassette.for_provider(PROVIDER_OF_DIRECTORY[folder])


@pytest.mark.parametrize("folder", sorted(PROVIDER_OF_DIRECTORY))
def test_every_provider_folder_of_the_corpus_holds_recordings(folder: str) -> None:
    assert any(path.suffix in {".yaml", ".json"} for path in require_corpus(folder).rglob("*"))


# --- known corpus files ---


def test_a_gzip_body_is_decompressed() -> None:
    cassette = load("anthropic/mirascope/test_max_tokens__anthropic_claude_sonnet_4_0__sync.yaml")
    response = only(cassette.for_provider("anthropic")).response

    assert response.headers["content-encoding"] == ("gzip",)
    assert response.body.startswith(b"{")
    assert response.json["stop_reason"] == "max_tokens"
    assert json.loads(response.body) == response.json


def test_replay_headers_of_a_gzip_response_drop_the_encoding() -> None:
    cassette = load("anthropic/mirascope/test_max_tokens__anthropic_claude_sonnet_4_0__sync.yaml")
    headers = only(cassette.interactions).response.replay_headers()

    assert "content-encoding" not in headers
    assert "transfer-encoding" not in headers
    assert headers["content-type"] == "application/json"
    assert headers["request-id"] == "req_011CWF2V6eRL45akuhak4273"


def test_a_gzip_event_stream_is_decompressed_and_split() -> None:
    cassette = load("anthropic/llm-anthropic/test_prompt_with_prefill_and_stop_sequences.yaml")
    interaction = only(cassette.interactions)

    assert interaction.response.headers["content-encoding"] == ("gzip",)
    assert interaction.is_stream
    assert interaction.response.body.startswith(b"event: message_start\n")
    payloads = interaction.response.stream_payloads()
    assert payloads[-1] == {"type": "message_stop"}


def test_a_parsed_body_is_serialized_back_to_json() -> None:
    cassette = load("anthropic/pydantic-ai/test_tool_choice_matrix[none-anthropic].yaml")
    interaction = only(cassette.interactions)
    request, response = interaction.request, interaction.response

    assert request is not None
    assert request.url == "https://api.anthropic.com/v1/messages?beta=true"
    assert interaction.path == "/v1/messages"
    assert request.json["tool_choice"] == {"type": "none"}
    assert request.body == json.dumps(request.json).encode()
    assert response.body == json.dumps(response.json).encode()
    assert response.json["content"] == [
        {"type": "text", "text": "Hello! \N{WAVING HAND SIGN} How can I help you today?"}
    ]
    assert not interaction.is_stream


def test_an_anthropic_stream_has_named_events() -> None:
    cassette = load("anthropic/pydantic-ai/test_request_stream_fallback_for_high_max_tokens.yaml")
    response = only(cassette.for_provider("anthropic")).response

    assert response.events is not None
    assert [event.event for event in response.events] == [
        "message_start",
        "content_block_start",
        "ping",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    payloads = response.stream_payloads()
    assert payloads[0]["type"] == "message_start"
    assert payloads[3]["delta"] == {"type": "text_delta", "text": "2"}
    assert response.replay_headers()["content-type"] == "text/event-stream; charset=utf-8"


def test_an_openai_stream_ends_in_done_which_payloads_leave_out() -> None:
    cassette = load("openai-chat/pydantic-ai/test_openai_moderation_stream.yaml")
    response = only(cassette.for_provider("openai")).response

    assert response.events is not None
    assert response.events[-1] == SSEEvent(event=None, data="[DONE]")
    payloads = response.stream_payloads()
    assert len(payloads) == len(response.events) - 1
    assert {payload["object"] for payload in payloads} == {"chat.completion.chunk"}


def aws_event_types(body: bytes) -> list[str]:
    """The `:event-type` (or `:exception-type`) of each frame of an Amazon event
    stream, read here by botocore's framing."""
    frames = EventStreamBuffer()
    frames.add_data(body)
    headers = [frame.to_response_dict()["headers"] for frame in frames]
    return [str(item.get(":event-type") or item[":exception-type"]) for item in headers]


def as_json(event: dict[str, Any]) -> Any:
    """An event as the kit keeps it: a blob (`chunk.bytes`) in base64, as the frame has it."""
    return json.loads(json.dumps(event, default=lambda blob: base64.b64encode(blob).decode()))


@pytest.mark.parametrize(
    ("relative", "operation"),
    [
        ("bedrock/pydantic-ai/test_bedrock_model_stream.yaml", "ConverseStream"),
        (
            "bedrock/openllmetry/test_anthropic_3_completion_streaming.yaml",
            "InvokeModelWithResponseStream",
        ),
    ],
)
def test_an_amazon_event_stream_reads_into_the_events_boto3_yields(
    relative: str, operation: str
) -> None:
    cassette = load(relative)
    (call,) = [call for call in cassette.for_provider("bedrock") if call.path.endswith("-stream")]
    response = call.response

    assert call.is_stream
    assert response.json is None
    assert [event.event for event in response.events or ()] == aws_event_types(response.body)
    # The events a boto3 client's stream yields (botocore's parser, by the operation's shape).
    boto3_events = read_event_stream(response.body, operation)
    assert response.stream_payloads() == [as_json(event) for event in boto3_events]
    # The body is kept as recorded: frames and CRCs, served as they are.
    assert response.replay_headers()["content-type"] == "application/vnd.amazon.eventstream"


def test_the_mistral_stream_fragment_is_stripped() -> None:
    cassette = load("mistral/openllmetry/test_mistralai_streaming_chat_legacy.yaml")
    interaction = only(cassette.for_provider("mistral"))

    assert interaction.request is not None
    assert interaction.request.url == "https://api.mistral.ai/v1/chat/completions"
    assert interaction.host == "api.mistral.ai"
    assert interaction.path == "/v1/chat/completions"
    assert interaction.is_stream


def test_an_authentication_error_is_kept_as_recorded() -> None:
    cassette = load(
        "anthropic/mirascope/test_authentication_error__anthropic_claude_sonnet_4_0.yaml"
    )
    response = only(cassette.for_provider("anthropic")).response

    assert response.status == 401
    assert response.events is None
    assert response.json["error"] == {
        "type": "authentication_error",
        "message": "invalid x-api-key",
    }


def test_image_downloads_are_not_provider_traffic() -> None:
    cassette = load("anthropic/pydantic-ai/test_image_url_input_force_download.yaml")
    download, call = cassette.interactions

    assert download.host == "t3.ftcdn.net"
    assert download.provider is None
    assert download.response.body.startswith(b"\xff\xd8")  # JPEG
    assert download.response.json is None
    assert download.response.events is None
    assert download.request is not None
    assert download.request.body is None
    assert cassette.for_provider("anthropic") == (call,)


def test_a_cassette_can_hold_several_providers() -> None:
    cassette = load("mistral/pydantic-ai/test_mistral_model_thinking_part.yaml")

    assert only(cassette.for_provider("openai")).path == "/v1/responses"
    assert only(cassette.for_provider("mistral")).path == "/v1/chat/completions"
    assert cassette.for_provider("groq") == ()


def test_a_vercel_json_fixture_is_a_response_only() -> None:
    cassette = load("groq/vercel-ai/groq-reasoning.json")
    interaction = only(cassette.interactions)

    assert interaction.request is None
    assert interaction.host is None
    assert interaction.provider is None
    assert interaction.response.status == 200
    assert interaction.response.json["object"] == "chat.completion"
    assert interaction.response.replay_headers() == {"content-type": "application/json"}


# --- small cassettes ---


def test_a_vercel_chunks_file_is_one_event_per_line(tmp_path: Path) -> None:
    path = tmp_path / "openai-text.chunks.txt"
    path.write_text('{"id": "a", "n": 1}\n\n{"id": "a", "n": 2}\n')

    response = only(load_cassette(path).interactions).response

    assert response.events == (
        SSEEvent(event=None, data='{"id": "a", "n": 1}'),
        SSEEvent(event=None, data='{"id": "a", "n": 2}'),
    )
    assert response.stream_payloads() == [{"id": "a", "n": 1}, {"id": "a", "n": 2}]
    assert response.body == b'data: {"id": "a", "n": 1}\n\ndata: {"id": "a", "n": 2}\n\n'
    assert response.replay_headers() == {"content-type": "text/event-stream"}


def test_a_chunks_line_that_is_not_json_is_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.chunks.txt"
    path.write_text('{"n": 1}\ndata: {"n": 2}\n')

    with pytest.raises(CassetteError, match=r"broken\.chunks\.txt: line 2: not JSON"):
        load_cassette(path)


def test_sse_parsing_follows_the_spec(tmp_path: Path) -> None:
    stream = (
        ": a comment line\r\n"
        "event: first\r\n"
        "id: 7\r\n"
        "retry: 1000\r\n"
        "data: {\r\n"
        'data:  "a": 1\r\n'
        "data: }\r\n"
        "\r\n"
        "event: ping\n"
        "\n"
        "data:no space\n"
        "\n"
        "data: last without a blank line"
    )
    headers = {"Content-Type": ["text/event-stream"]}
    path = write_cassette(tmp_path, vcr_interaction(stream, headers=headers))

    response = only(load_cassette(path).interactions).response

    assert response.events == (
        SSEEvent(event="first", data='{\n "a": 1\n}'),
        SSEEvent(event=None, data="no space"),
        SSEEvent(event=None, data="last without a blank line"),
    )
    assert response.events[0].json() == {"a": 1}


def test_a_body_starting_with_data_is_a_stream_without_a_content_type(tmp_path: Path) -> None:
    path = write_cassette(tmp_path, vcr_interaction('data: {"n": 1}\n\ndata: [DONE]\n\n'))

    interaction = only(load_cassette(path).interactions)

    assert interaction.is_stream
    assert interaction.response.stream_payloads() == [{"n": 1}]
    assert interaction.response.replay_headers()["content-type"] == "text/event-stream"


def test_headers_are_lower_case_tuples_and_a_bare_string_is_accepted(tmp_path: Path) -> None:
    headers = {
        "Content-Type": "application/json",
        "Set-Cookie": ["a=REDACTED", "b=REDACTED"],
        "set-cookie": ["c=REDACTED"],
        "X-Request-ID": ["req_1"],
    }
    path = write_cassette(tmp_path, vcr_interaction('{"ok": true}', headers=headers))

    response = only(load_cassette(path).interactions).response

    assert response.headers == {
        "content-type": ("application/json",),
        "set-cookie": ("a=REDACTED", "b=REDACTED", "c=REDACTED"),
        "x-request-id": ("req_1",),
    }
    assert response.replay_headers() == {
        "content-type": "application/json",
        "x-request-id": "req_1",
    }


def test_a_gzip_binary_body_becomes_text(tmp_path: Path) -> None:
    body = gzip.compress(b'{"answer": 42}')
    headers = {"Content-Encoding": ["gzip"], "Content-Length": [str(len(body))]}
    path = write_cassette(tmp_path, vcr_interaction(body, headers=headers))

    response = only(load_cassette(path).interactions).response

    assert response.body == b'{"answer": 42}'
    assert response.json == {"answer": 42}
    assert response.replay_headers() == {"content-type": "application/json"}


def test_header_values_recorded_as_bytes_read_as_text(tmp_path: Path) -> None:
    # botocore records the headers it sent as bytes, which YAML keeps as `!!binary`.
    headers = {"Content-Type": [b"application/json"], "amz-sdk-request": [b"attempt=1; max=3"]}
    path = write_cassette(tmp_path, vcr_interaction('{"answer": 42}', headers=headers))

    response = only(load_cassette(path).interactions).response

    assert response.headers == {
        "content-type": ("application/json",),
        "amz-sdk-request": ("attempt=1; max=3",),
    }
    assert response.json == {"answer": 42}


def test_a_plain_text_body_stays_bytes(tmp_path: Path) -> None:
    headers = {"Content-Type": ["text/plain"]}
    path = write_cassette(tmp_path, vcr_interaction("hello, world", headers=headers))

    response = only(load_cassette(path).interactions).response

    assert response.body == b"hello, world"
    assert response.json is None
    assert response.events is None
    with pytest.raises(CassetteError, match="not an event stream"):
        response.stream_payloads()


def test_stream_payloads_name_an_event_that_is_not_json(tmp_path: Path) -> None:
    path = write_cassette(tmp_path, vcr_interaction('data: {"n": 1}\n\ndata: oops\n\n'))
    response = only(load_cassette(path).interactions).response

    with pytest.raises(CassetteError, match=r"events\[1\]\.data is not JSON"):
        response.stream_payloads()


def test_for_provider_rejects_an_unknown_name(tmp_path: Path) -> None:
    cassette = load_cassette(write_cassette(tmp_path, vcr_interaction("{}")))

    assert len(cassette.for_provider("openai")) == 1
    with pytest.raises(ValueError, match="unknown provider 'open-ai'"):
        cassette.for_provider("open-ai")


@pytest.mark.parametrize(
    ("interaction", "place"),
    [
        pytest.param(
            vcr_interaction("{}", status={"message": "OK"}),
            r"interactions\[1\]\.response\.status\.code: expected an integer",
            id="status-without-code",
        ),
        pytest.param(
            {**vcr_interaction("{}"), "response": ["not", "a", "mapping"]},
            r"interactions\[1\]\.response: expected a mapping",
            id="response-not-a-mapping",
        ),
        pytest.param(
            vcr_interaction("{}", headers={"Content-Type": [3]}),
            r"interactions\[1\]\.response\.headers\.Content-Type\[0\]: expected a string",
            id="header-value-not-a-string",
        ),
        pytest.param(
            vcr_interaction("not gzip", headers={"Content-Encoding": ["gzip"]}),
            r"interactions\[1\]\.response\.body: Content-Encoding is gzip but the body is not",
            id="gzip-header-plain-body",
        ),
        pytest.param(
            vcr_interaction("{oops", headers={"Content-Type": ["application/json"]}),
            r"interactions\[1\]\.response\.body: Content-Type is application/json but",
            id="json-content-type-not-json",
        ),
        pytest.param(
            {**vcr_interaction("{}"), "request": {"method": "POST", "uri": 42}},
            r"interactions\[1\]\.request\.uri: expected a string",
            id="uri-not-a-string",
        ),
    ],
)
def test_a_malformed_cassette_names_the_file_and_place(
    tmp_path: Path, interaction: dict[str, Any], place: str
) -> None:
    path = write_cassette(tmp_path, vcr_interaction("{}"), interaction)

    with pytest.raises(CassetteError, match=rf"cassette\.yaml: {place}"):
        load_cassette(path)


def test_a_body_of_the_wrong_type_is_named(tmp_path: Path) -> None:
    interaction = vcr_interaction("{}")
    interaction["response"]["body"] = {"string": ["a", "list"]}
    path = write_cassette(tmp_path, interaction)

    with pytest.raises(CassetteError, match=r"interactions\[0\]\.response\.body\.string"):
        load_cassette(path)


def test_invalid_yaml_is_a_cassette_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("interactions: [\n  - {request: \n")

    with pytest.raises(CassetteError, match=r"bad\.yaml: <root>: not valid YAML"):
        load_cassette(path)


def test_a_missing_file_is_a_cassette_error(tmp_path: Path) -> None:
    with pytest.raises(CassetteError, match=r"absent\.yaml: cannot read the file"):
        load_cassette(tmp_path / "absent.yaml")


def test_an_unknown_kind_of_file_is_a_cassette_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello")

    with pytest.raises(CassetteError, match=r"notes\.txt: <root>: not a recording"):
        load_cassette(path)


def test_importing_needs_no_pyyaml_but_reading_yaml_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "yaml", None)  # makes `import yaml` fail
    monkeypatch.setattr(interlingua, "testing", interlingua.testing)
    monkeypatch.delitem(sys.modules, "interlingua.testing")
    monkeypatch.delitem(sys.modules, "interlingua.testing._cassette")
    testing = importlib.import_module("interlingua.testing")
    path = tmp_path / "cassette.yaml"
    path.write_text("interactions: []\n")

    with pytest.raises(CassetteError, match=r'pip install "interlingua\[testing\]"'):
        testing.load_cassette(path)


def write_recording(tmp_path: Path, response: dict[str, Any]) -> Path:
    document = {
        "format": "interlingua.recording",
        "version": 1,
        "description": "one call",
        "interactions": [
            {
                "request": {
                    "method": "post",
                    "url": "https://api.anthropic.com/v1/messages",
                    "headers": {"Content-Type": "application/json"},
                    "json": {"model": "claude-sonnet-4-5", "max_tokens": 10, "messages": []},
                },
                "response": response,
            }
        ],
    }
    path = tmp_path / "recording.json"
    path.write_text(json.dumps(document))
    return path


def test_an_own_recording_rebuilds_json_bodies(tmp_path: Path) -> None:
    body = {"id": "msg_1", "type": "message", "content": []}
    path = write_recording(
        tmp_path, {"status": 200, "headers": {"Request-Id": "req_1"}, "json": body}
    )

    interaction = only(load_cassette(path).interactions)

    assert interaction.provider == "anthropic"
    assert interaction.request is not None
    assert interaction.request.method == "POST"
    assert interaction.request.headers == {"content-type": ("application/json",)}
    assert json.loads(interaction.request.body or b"") == interaction.request.json
    assert interaction.response.json == body
    assert json.loads(interaction.response.body) == body
    assert interaction.response.replay_headers() == {
        "request-id": "req_1",
        "content-type": "application/json",
    }


def test_an_own_recording_rebuilds_an_event_stream(tmp_path: Path) -> None:
    sse = [
        {"event": "message_start", "data": {"type": "message_start"}},
        {"data": "[DONE]"},
    ]
    path = write_recording(tmp_path, {"status": 200, "sse": sse})

    response = only(load_cassette(path).interactions).response

    assert response.body == (
        b'event: message_start\ndata: {"type": "message_start"}\n\ndata: [DONE]\n\n'
    )
    assert response.stream_payloads() == [{"type": "message_start"}]
    assert response.replay_headers()["content-type"] == "text/event-stream"


def test_an_own_recording_of_an_unknown_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "recording.json"
    path.write_text(json.dumps({"format": "interlingua.recording", "version": 7}))

    with pytest.raises(CassetteError, match=r"recording.json: version: unknown version 7"):
        load_cassette(path)
