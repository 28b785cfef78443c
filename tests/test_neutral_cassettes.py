"""Provider-neutral cassettes: each recorded call kept as the core's values.

Every call of the project's fixtures and of the recorded corpus that has a
request and a 200 answer is written neutral and read back: its request,
answer and stream events are the values the adapter of its API decodes from
the wire itself, the file is the same bytes when written twice and holds no
secret. `record(path, neutral=True)` writes what real SDK clients exchanged;
`interlingua convert --to neutral` converts a cassette; a file of an older
history version is migrated, and a broken one is refused with its place.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import anthropic
import openai
import pytest
from typer.testing import CliRunner

from conftest import (
    FIXTURES,
    RespxHttpx2,
    cassette,
    corpus_id,
    corpus_params,
    fake_key,
    from_corpus,
    require_corpus,
)
from interlingua import (
    CassetteError,
    ChatHistory,
    ProviderError,
    StreamError,
    accumulate,
    get_adapter,
)
from interlingua.cli import app
from interlingua.testing import (
    NEUTRAL_FORMAT,
    Interaction,
    NeutralInteraction,
    check_no_secrets,
    load_cassette,
    record,
    write_cassette,
)
from interlingua.testing._records import provider_of


def chat_calls(path: Path, *, status: int = 200) -> list[Interaction]:
    """The calls of a cassette with a request an adapter reads and an answer of `status`."""
    try:
        interactions = cassette(path).interactions
    except CassetteError:
        return []
    return [
        call
        for call in interactions
        if call.request is not None
        and call.response.status == status
        and isinstance(call.request.json, dict)
        and provider_of(call.request.url, None) is not None
        and not is_text_completion(call)
    ]


def is_text_completion(call: Interaction) -> bool:
    """A request in Claude's legacy Text Completions API (`prompt`), on Bedrock's
    InvokeModel: no adapter speaks it (`test_a_legacy_text_completion_is_named`)."""
    assert call.request is not None
    return "prompt" in call.request.json and "messages" not in call.request.json


def fixture_files(status: int = 200) -> list[Path]:
    return [path for path in sorted(FIXTURES.rglob("*.json")) if chat_calls(path, status=status)]


def wire_model(call: Interaction) -> str:
    """The model a recorded request asked for: its body's, or Gemini's and
    Bedrock's in the URL (Bedrock's percent-encoded by botocore)."""
    assert call.request is not None
    found = re.search(r"/models/([^/:]+):|/model/([^/]+)/[a-z-]+$", call.request.url)
    in_url = unquote(found.group(1) or found.group(2)) if found else ""
    return str(call.request.json.get("model") or in_url)


def written_and_read(calls: list[Interaction], path: Path) -> tuple[NeutralInteraction, ...]:
    write_cassette(path, calls, neutral=True)
    first = path.read_bytes()
    write_cassette(path, calls, neutral=True)
    assert path.read_bytes() == first  # stable: the same calls give the same bytes
    check_no_secrets(path)
    document = json.loads(first)
    assert (document["format"], document["version"]) == (NEUTRAL_FORMAT, 1)
    loaded = load_cassette(path)
    assert loaded.interactions == ()
    return loaded.neutral


def assert_as_decoded(call: Interaction, kept: NeutralInteraction) -> None:
    """`kept` holds what the adapter of the call's API decodes from its wire."""
    assert call.request is not None
    provider = provider_of(call.request.url, None)
    assert provider is not None
    codec = get_adapter(provider)
    assert (kept.provider, kept.model, kept.status) == (
        provider,
        wire_model(call),
        call.response.status,
    )
    assert kept.request == codec.decode_request(call.request.json)
    response = call.response
    if response.events is not None or isinstance(response.json, list):
        payloads = response.stream_payloads() if response.events is not None else response.json
        events = tuple(codec.decode_stream(payloads))
        assert kept.events == events
        assert kept.answer is None
        try:
            expected = accumulate(events)
        except StreamError:
            return  # a stream the provider broke: its events are kept, in order
        assert kept.response == expected
    else:
        assert kept.events is None
        assert kept.response == codec.decode_response(response.json)


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_every_fixture_call_reads_back_as_its_wire_decodes(path: Path, tmp_path: Path) -> None:
    calls = chat_calls(path)
    kept = written_and_read(calls, tmp_path / "neutral.json")
    assert len(kept) == len(calls)
    for call, neutral in zip(calls, kept, strict=True):
        assert_as_decoded(call, neutral)


@pytest.mark.parametrize(
    "param", corpus_params(keep=lambda p: bool(chat_calls(p)), holding="chat calls"), ids=corpus_id
)
def test_every_corpus_call_reads_back_as_its_wire_decodes(param: Any, tmp_path: Path) -> None:
    path = from_corpus(param)
    calls = chat_calls(path)
    kept = written_and_read(calls, tmp_path / "neutral.json")
    for call, neutral in zip(calls, kept, strict=True):
        assert_as_decoded(call, neutral)


def test_both_kinds_of_answer_are_swept() -> None:
    calls = [call for path in fixture_files() for call in chat_calls(path)]
    streamed = [call for call in calls if call.is_stream]
    assert streamed
    assert len(streamed) < len(calls)


@pytest.mark.parametrize(
    "path",
    fixture_files(status=429) + fixture_files(status=400),
    ids=lambda p: p.relative_to(FIXTURES).as_posix(),
)
def test_an_error_answer_is_kept_as_the_cores_error(path: Path, tmp_path: Path) -> None:
    calls = chat_calls(path, status=429) + chat_calls(path, status=400)
    kept = written_and_read(calls, tmp_path / "neutral.json")
    for call, neutral in zip(calls, kept, strict=True):
        assert call.request is not None
        codec = get_adapter(neutral.provider)
        headers = call.response.joined_headers()  # Bedrock's error type is in its header
        expected = codec.decode_error(call.response.status, call.response.json, headers=headers)
        assert neutral.response is None
        assert neutral.events is None
        assert isinstance(neutral.error, ProviderError)
        assert type(neutral.error) is type(expected)
        assert (neutral.error.status, neutral.error.message, neutral.error.type) == (
            call.response.status,
            expected.message,
            expected.type,
        )
        assert neutral.error.body == call.response.json


def test_a_legacy_text_completion_is_named_not_converted(tmp_path: Path) -> None:
    path = require_corpus("bedrock") / "openllmetry" / "test_anthropic_2_completion.yaml"
    (call,) = cassette(path).interactions

    with pytest.raises(CassetteError, match="Text Completions request") as caught:
        write_cassette(tmp_path / "neutral.json", [call], neutral=True)

    assert "interactions[0]" in str(caught.value)
    assert is_text_completion(call)


def test_the_file_reads_in_a_diff(tmp_path: Path) -> None:
    calls = chat_calls(FIXTURES / "anthropic" / "stream_thinking_tool_use.json")
    path = tmp_path / "neutral.json"
    write_cassette(path, calls, neutral=True)
    text = path.read_text(encoding="utf-8")
    document = json.loads(text)
    assert text == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    item = document["interactions"][0]
    assert list(item) == ["provider", "model", "status", "request", "events"]
    user = call_text(calls[0])
    assert item["request"]["messages"][0]["parts"][0] == {"type": "text", "text": user}
    assert '"headers"' not in text
    assert '"sse"' not in text


def call_text(call: Interaction) -> str:
    assert call.request is not None
    content = call.request.json["messages"][0]["content"]
    return str(content if isinstance(content, str) else content[0]["text"])


# --- recording through the real SDK clients ---

ANTHROPIC = "https://api.anthropic.com"
OPENAI = "https://api.openai.com"


def served_in_order(calls: list[Interaction]) -> Any:
    """A respx side effect answering each request with the next recorded answer."""
    pending = list(calls)

    def answer(request: Any) -> Any:
        recorded = pending.pop(0).response
        # respx hands over its own kind of request: answer in the same library's kind.
        library = sys.modules[type(request).__module__.partition(".")[0]]
        return library.Response(
            recorded.status, headers=recorded.replay_headers(), content=recorded.body
        )

    return answer


def sdk_arguments(call: Interaction) -> dict[str, Any]:
    """The recorded body as an SDK's `create` takes it: what its signature
    names, the rest in `extra_body`, so that the body sent is the one recorded."""
    assert call.request is not None
    named = ("model", "max_tokens", "messages", "stream")
    body = call.request.json
    rest = {key: value for key, value in body.items() if key not in named}
    return {key: body[key] for key in named if key in body} | {"extra_body": rest}


def test_record_neutral_keeps_what_the_sdk_clients_exchanged(
    respx_httpx2: RespxHttpx2, tmp_path: Path
) -> None:
    whole = chat_calls(FIXTURES / "anthropic" / "title_thinking_disabled.json")[0]
    streamed = chat_calls(FIXTURES / "openai" / "chat_stream_parallel_tool_calls.json")[0]
    assert whole.request is not None
    assert streamed.request is not None
    messages = respx_httpx2(ANTHROPIC).post("/v1/messages")
    messages.mock(side_effect=served_in_order([whole]))
    completions = respx_httpx2(OPENAI).post("/v1/chat/completions")
    completions.mock(side_effect=served_in_order([streamed]))
    keys = (fake_key("sk-ant-api03-"), fake_key("sk-proj-"))
    path = tmp_path / "recorded.json"

    with record(path, neutral=True):
        answer = anthropic.Anthropic(api_key=keys[0], max_retries=0).messages.create(
            **sdk_arguments(whole)
        )
        sdk = openai.OpenAI(api_key=keys[1], max_retries=0)
        chunks = list(sdk.chat.completions.create(**sdk_arguments(streamed)))

    sent = [
        json.loads(messages.calls[0].request.content),
        json.loads(completions.calls[0].request.content),
    ]
    kept = load_cassette(path).neutral
    assert [(call.provider, call.model) for call in kept] == [
        ("anthropic", whole.request.json["model"]),
        ("openai", streamed.request.json["model"]),
    ]
    assert kept[0].request == get_adapter("anthropic").decode_request(sent[0])
    assert kept[1].request == get_adapter("openai").decode_request(sent[1])
    assert kept[0].response is not None
    assert kept[0].events is None
    assert kept[0].response.text == "".join(b.text for b in answer.content if b.type == "text")
    assert kept[1].events is not None
    streamed_calls = kept[1].response.message.tool_calls if kept[1].response else ()
    wire_calls = [
        call.function.name
        for chunk in chunks
        for choice in chunk.choices
        for call in choice.delta.tool_calls or ()
        if call.function and call.function.name
    ]
    assert [call.name for call in streamed_calls] == wire_calls
    assert wire_calls
    text = path.read_text(encoding="utf-8")
    assert not any(key in text for key in keys)
    check_no_secrets(path)


def test_a_neutral_recording_takes_a_json_file_only(tmp_path: Path) -> None:
    with pytest.raises(
        CassetteError, match=r"neutral\.yaml: a provider-neutral cassette is a \.json"
    ):
        record(tmp_path / "neutral.yaml", neutral=True)


def test_a_call_no_adapter_reads_is_refused_not_dropped(tmp_path: Path) -> None:
    call = chat_calls(FIXTURES / "openai" / "chat_refusal.json")[0]
    assert call.request is not None
    upload = Interaction(
        request=type(call.request)("POST", "https://example.com/v1/files", {}, b"{}", {}),
        response=call.response,
    )
    with pytest.raises(
        CassetteError, match=r"interactions\[1\]: POST https://example.com/v1/files"
    ):
        write_cassette(tmp_path / "neutral.json", [call, upload], neutral=True)


# --- reading: versions and broken files ---


def neutral_document(messages: list[Any], history_version: int) -> dict[str, Any]:
    return {
        "format": NEUTRAL_FORMAT,
        "version": 1,
        "history_version": history_version,
        "interactions": [
            {
                "provider": "openai",
                "model": "gpt-5",
                "status": 200,
                "request": {"model": "gpt-5", "messages": messages},
                "response": {
                    "message": {"role": "assistant", "parts": [{"type": "text", "text": "Done."}]}
                },
            }
        ],
    }


def test_messages_of_an_older_history_version_are_migrated(tmp_path: Path) -> None:
    # Version 4 kept a custom tool's call under its own name, its form `custom`.
    messages: list[Any] = [
        {"role": "user", "parts": [{"type": "text", "text": "Patch it."}]},
        {
            "role": "assistant",
            "parts": [
                {
                    "type": "tool_call",
                    "id": "call_1",
                    "name": "apply_patch",
                    "arguments": "*** Begin Patch",
                    "provider_data": {"openai": {"forms": {"type": "custom"}}},
                }
            ],
        },
    ]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(neutral_document(messages, 4)), encoding="utf-8")
    history = ChatHistory.from_document(
        {"format": "interlingua.chat_history", "version": 4, "messages": messages}
    )

    (call,) = load_cassette(path).neutral
    assert call.request.messages == tuple(history.messages)
    assert call.request.messages[1].tool_calls[0].name == "apply_patch--freeform"


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (lambda d: d.update(version=2), r"version: written by a newer interlingua"),
        (lambda d: d.update(history_version=99), r"history_version: written by a newer"),
        (
            lambda d: d["interactions"][0]["request"]["messages"][0].update(role="robot"),
            r"interactions\[0\]\.request\.messages\[0\]",
        ),
        (
            lambda d: d["interactions"][0].pop("response"),
            r"interactions\[0\]: expected one of response, events or error",
        ),
        (lambda d: d["interactions"][0].update(events=[{"type": "nope"}]), r"interactions\[0\]"),
    ],
)
def test_a_broken_file_is_refused_naming_the_place(change: Any, place: str, tmp_path: Path) -> None:
    document = neutral_document([{"role": "user", "parts": [{"type": "text", "text": "Hi"}]}], 5)
    change(document)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CassetteError, match=rf"broken\.json: .*{place}"):
        load_cassette(path)


# --- the command line ---


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "100"})


def test_convert_to_neutral_writes_what_the_kit_writes(tmp_path: Path) -> None:
    source = FIXTURES / "openai" / "chat_tool_round_trip.json"
    result = run("convert", "--to", "neutral", str(source))
    assert result.exit_code == 0, result.output
    path = tmp_path / "from-cli.json"
    path.write_text(result.stdout, encoding="utf-8")
    kept = load_cassette(path).neutral
    calls = chat_calls(source)
    assert len(kept) == len(calls) > 0
    for call, neutral in zip(calls, kept, strict=True):
        assert_as_decoded(call, neutral)
    # A neutral cassette converts to itself, but for its description.
    again = run("convert", "--to", "neutral", str(path))
    assert json.loads(again.stdout)["interactions"] == json.loads(result.stdout)["interactions"]


def test_convert_leaves_out_and_names_a_call_no_adapter_reads(tmp_path: Path) -> None:
    call = chat_calls(FIXTURES / "openai" / "chat_refusal.json")[0]
    assert call.request is not None
    upload = Interaction(
        request=type(call.request)("GET", "https://example.com/image.png", {}, None, None),
        response=call.response,
    )
    source = tmp_path / "mixed.json"
    write_cassette(source, [call, upload])
    result = run("convert", "--to", "neutral", str(source))
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)["interactions"]) == 1
    assert (
        "mixed.json: interactions[1]: left out, no adapter reads it (GET https://example.com/image.png)"
        in result.stderr
    )


def test_convert_refuses_a_bad_file_naming_the_place(tmp_path: Path) -> None:
    source = tmp_path / "bad.json"
    recording = json.loads((FIXTURES / "openai" / "chat_refusal.json").read_text(encoding="utf-8"))
    recording["interactions"][0]["response"]["status"] = "200"
    source.write_text(json.dumps(recording), encoding="utf-8")
    result = run("convert", "--to", "neutral", str(source))
    assert result.exit_code == 2
    assert "bad.json: interactions[0].response.status: expected an integer" in result.stderr


@pytest.mark.parametrize(
    "name",
    [
        "openai/chat_tool_round_trip.json",
        "anthropic/stream_thinking_tool_use.json",
        "anthropic/error_rate_limited.json",
    ],
)
def test_inspect_summarises_a_neutral_cassette_as_its_wire(name: str, tmp_path: Path) -> None:
    source = FIXTURES / name
    path = tmp_path / "neutral.json"
    write_cassette(path, chat_calls(source) + chat_calls(source, status=429), neutral=True)
    wire = json.loads(run("inspect", "--json", str(source)).stdout)
    neutral = json.loads(run("inspect", "--json", str(path)).stdout)
    for key in ("kind", "parts", "tool_calls", "reasoning", "usage"):
        assert neutral[key] == wire[key], key
    assert [(t["provider"], t["lines"], t["usage"]) for t in neutral["turns"]] == [
        (t["provider"], t["lines"], t["usage"]) for t in wire["turns"]
    ]


def test_convert_reads_a_vcr_cassette_from_standard_input(tmp_path: Path) -> None:
    calls = chat_calls(FIXTURES / "anthropic" / "stream_thinking_tool_use.json")
    source = tmp_path / "recorded.yaml"
    write_cassette(source, calls)
    result = CliRunner().invoke(
        app, ["convert", "--to", "neutral", "-"], input=source.read_text(encoding="utf-8")
    )
    assert result.exit_code == 0, result.output
    path = tmp_path / "neutral.json"
    path.write_text(result.stdout, encoding="utf-8")
    for call, neutral in zip(calls, load_cassette(path).neutral, strict=True):
        assert_as_decoded(call, neutral)


def test_a_lone_surrogate_is_written_escaped_and_read_back(tmp_path: Path) -> None:
    call = chat_calls(FIXTURES / "openai" / "chat_refusal.json")[0]
    assert call.request is not None
    body = dict(call.request.json)
    body["messages"] = [{"role": "user", "content": "half an emoji: \ud83d"}]
    broken = Interaction(
        request=type(call.request)("POST", call.request.url, {}, json.dumps(body).encode(), body),
        response=call.response,
    )
    (kept,) = written_and_read([broken], tmp_path / "neutral.json")
    assert kept.request.messages[0].text == "half an emoji: \ud83d"
