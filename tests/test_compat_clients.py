"""The clients of the DeepSeek, Cerebras, Ollama and plain OpenAI-compatible
adapters over the real `openai` SDK, pointed at each server's address and
answered by recorded wire bytes through httpx2's mock transport (or respx):
the corpus's real traffic (`../shared/corpus/compat`), and the project's own
fixtures in `fixtures/deepseek/`, `fixtures/cerebras/` and `fixtures/ollama/`
(hand-made, shaped like real traffic). The body sent is exactly the recorded
one; the answer is decoded as the server wrote it; errors come out typed;
nothing of an OpenAI account's environment reaches another server.
"""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import openai
import pytest

from conftest import (
    MissingCorpus,
    RespxHttpx2,
    bodies,
    corpus_id,
    corpus_params,
    fake_key,
    from_corpus,
    in_order,
    recorded,
    require_corpus,
)
from interlingua import (
    AuthenticationError,
    BadRequestError,
    ProviderConnectionError,
    StreamError,
    accumulate,
    accumulate_async,
    get_adapter,
    get_client_class,
)
from interlingua.client import SDKOptions
from interlingua.testing import Interaction, load_cassette, parse_sse

# provider -> (its adapter's module, its client class name, its default address)
SERVERS = {
    "deepseek": ("interlingua_deepseek", "DeepSeekClient", "https://api.deepseek.com"),
    "cerebras": ("interlingua_cerebras", "CerebrasClient", "https://api.cerebras.ai/v1"),
    "ollama": ("interlingua_ollama", "OllamaClient", "http://localhost:11434/v1"),
    "openai-compatible": ("interlingua_openai_compatible", "OpenAICompatibleClient", None),
}
FOLDERS = {
    "compat/deepseek": "deepseek",
    "compat/cerebras": "cerebras",
    "compat/ollama": "ollama",
    "compat/together": "openai-compatible",
    "compat/other": "openai-compatible",
}
KEY_VARIABLES = ("DEEPSEEK_API_KEY", "CEREBRAS_API_KEY", "OLLAMA_API_KEY")


def adapter(provider: str) -> ModuleType:
    return importlib.import_module(SERVERS[provider][0])


def provider_of(path: Path) -> str:
    return next(p for folder, p in FOLDERS.items() if f"/{folder}/" in path.as_posix())


def chat_calls(path: Path) -> list[Interaction]:
    """The file's chat completions calls that the adapter reads (Cloudflare's
    content objects are a decode error: `test_compat_corpus`)."""
    calls = load_cassette(path).interactions
    return [
        call
        for call in calls
        if call.request is not None
        and (call.path or "").endswith("/chat/completions")
        and (call.is_stream or call.response.status >= 400 or plain_content(call))
    ]


def plain_content(call: Interaction) -> bool:
    return not any(
        isinstance(c["message"].get("content"), dict) for c in call.response.json["choices"]
    )


def base_url(call: Interaction) -> str:
    url = str(call.request.url)  # type: ignore[union-attr]
    return url.removesuffix("/chat/completions")


def client_for(provider: str, call: Interaction, http_client: Any, **options: Any) -> Any:
    """The adapter's client for the server `call` went to: at its default address
    when that is where it went, else at the recorded one."""
    module, name, default = SERVERS[provider]
    if base_url(call) != default:
        options["base_url"] = base_url(call)
    client_class = getattr(importlib.import_module(module), name)
    return client_class(api_key=fake_key("sk-"), http_client=http_client, max_retries=0, **options)


CORPUS_FILES = corpus_params(
    *FOLDERS, keep=lambda path: bool(chat_calls(path)), holding="chat completions calls"
)


@pytest.mark.parametrize("path", CORPUS_FILES, ids=corpus_id)
def test_every_recorded_call_replays_through_the_sdk(path: Path | MissingCorpus) -> None:
    found = from_corpus(path)
    provider = provider_of(found)
    codec = adapter(provider)
    for call in chat_calls(found):
        replay = in_order([call])
        client = client_for(provider, call, replay.client())
        body = bodies([call])[0]
        request = codec.decode_request(body)

        if call.is_stream:
            response = accumulate(client.stream(request))
            expected = accumulate(codec.decode_stream(call.response.stream_payloads()))
        else:
            response = client.complete(request)
            expected = codec.decode_response(call.response.json)

        assert replay.sent == [sent_for(body, stream=call.is_stream)]
        assert response == expected


def sent_for(body: dict[str, Any], *, stream: bool) -> dict[str, Any]:
    """What the client sends for a recorded body: the body itself, with the usage
    chunk asked for a stream that did not say (the client's documented default)."""
    if stream and "stream_options" not in body:
        return {**body, "stream_options": {"include_usage": True}}
    return body


@pytest.mark.anyio
async def test_an_async_client_replays_a_streamed_deepseek_tool_call() -> None:
    path = require_corpus("compat/deepseek") / "chatlas/test_deepseek_tool_variations.yaml"
    call = chat_calls(path)[0]
    replay = in_order([call])
    sdk = openai.AsyncOpenAI(
        api_key=fake_key("sk-"),
        base_url="https://api.deepseek.com",
        http_client=replay.async_client(),
        max_retries=0,
    )
    codec = adapter("deepseek")
    request = codec.decode_request(bodies([call])[0])

    response = await accumulate_async(await codec.AsyncDeepSeekClient(sdk).stream(request))

    assert replay.sent == bodies([call])
    assert [part.type for part in response.message.parts] == ["reasoning", "tool_call"]
    assert response.message.reasoning[0].provider == "deepseek"


def test_a_deepseek_error_status_raises_the_typed_error() -> None:
    replay = in_order(recorded("deepseek/error_model_not_exist.json"))
    codec = adapter("deepseek")
    request = codec.decode_request(bodies(replay.interactions)[0])
    client = codec.DeepSeekClient(api_key=fake_key("sk-"), http_client=replay.client())

    with pytest.raises(BadRequestError) as caught:
        client.complete(request)

    assert replay.sent == bodies(replay.interactions)
    error = caught.value
    recorded_error = replay.interactions[0].response.json["error"]
    assert (error.status, error.type, error.message, error.provider) == (
        400,
        recorded_error["type"],
        recorded_error["message"],
        "deepseek",
    )
    assert not error.retryable


def test_a_recorded_deepseek_error_body_is_typed() -> None:
    path = "pydantic-ai/test_deepseek_responses_rejects_interleaved_function_calls.yaml"
    (call,) = load_cassette(require_corpus("compat/deepseek") / path).interactions
    body = call.response.body

    error = adapter("deepseek").decode_error(call.response.status, body)

    assert isinstance(error, BadRequestError)
    wire = call.response.json["error"]
    assert (error.type, error.message, error.code) == (wire["type"], wire["message"], wire["code"])


def test_cerebras_bare_error_object_is_typed() -> None:
    replay = in_order(recorded("cerebras/error_wrong_api_key.json"))
    codec = adapter("cerebras")
    request = codec.decode_request(bodies(replay.interactions)[0])
    client = codec.CerebrasClient(api_key=fake_key("csk-"), http_client=replay.client())

    with pytest.raises(AuthenticationError) as caught:
        client.complete(request)

    wire = replay.interactions[0].response.json
    error = caught.value
    assert (error.status, error.type, error.code, error.message) == (
        401,
        wire["type"],
        wire["code"],
        wire["message"],
    )


@pytest.mark.parametrize("method", ["complete", "stream"])
def test_an_ollama_cloud_bad_key_is_an_authentication_error(
    method: str, respx_httpx2: RespxHttpx2
) -> None:
    """A 401 whose type is Ollama's generic `api_error`: the status names the class."""
    replay = in_order(recorded("ollama/error_unauthorized.json"))
    respx_httpx2("https://ollama.com").post("/v1/chat/completions").mock(side_effect=replay.respond)
    codec = adapter("ollama")
    client = codec.OllamaClient(
        api_key=fake_key("sk-"), base_url="https://ollama.com/v1", max_retries=0
    )
    request = codec.decode_request(bodies(replay.interactions)[0])

    with pytest.raises(AuthenticationError) as caught:
        getattr(client, method)(request)

    asked = bodies(replay.interactions)[0]
    streamed = {"stream": True, "stream_options": {"include_usage": True}}
    assert replay.sent == [asked if method == "complete" else {**asked, **streamed}]
    wire = replay.interactions[0].response.json
    error = caught.value
    assert (error.provider, error.status, error.type, error.code, error.message) == (
        "ollama",
        401,
        wire["error"]["type"],
        wire["error"]["code"],
        wire["error"]["message"],
    )
    assert error.body == wire
    assert not error.retryable


# --- where each client goes, with which key ---


def test_each_server_is_found_by_name_with_its_clients() -> None:
    for provider, (module, name, _) in SERVERS.items():
        found = get_adapter(provider)
        assert found.__name__ == module
        assert provider == found.PROVIDER
        assert get_client_class(provider).__name__ == name
        assert get_client_class(provider, asynchronous=True).__name__ == f"Async{name}"


@pytest.mark.parametrize("provider", ["deepseek", "cerebras", "ollama"])
def test_a_client_connected_by_the_registry_goes_to_the_server_s_address(provider: str) -> None:
    client = get_client_class(provider).connect(SDKOptions(api_key=fake_key("sk-"), timeout=5))
    assert str(client.sdk.base_url).rstrip("/") == SERVERS[provider][2]
    assert client.sdk.timeout == 5


def test_the_key_comes_from_the_server_s_variable_and_no_openai_setting_goes_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key, openai_key = fake_key("sk-"), fake_key("sk-proj-", "Qw8eRt5yUi2oPa7sDf4g")
    monkeypatch.setenv("DEEPSEEK_API_KEY", key)
    monkeypatch.setenv("OPENAI_API_KEY", openai_key)
    monkeypatch.setenv("OPENAI_BASE_URL", "https://api.openai.com/v1")
    monkeypatch.setenv("OPENAI_ORG_ID", "org-Ab12Cd34")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj_Ef56Gh78")
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", f"X-Team: a\nAuthorization: Bearer {openai_key}")
    path = require_corpus("compat/deepseek") / "pydantic-ai/test_deepseek_model_thinking_part.yaml"
    (call,) = chat_calls(path)
    replay = in_order([call])
    codec = adapter("deepseek")

    codec.DeepSeekClient(http_client=replay.client()).complete(
        codec.decode_request(bodies([call])[0])
    )

    (sent,) = replay.requests
    assert sent.url.host == "api.deepseek.com"
    assert sent.headers["authorization"] == f"Bearer {key}"
    headers = {name.lower() for name in sent.headers}
    assert headers.isdisjoint({"openai-organization", "openai-project", "x-team"})


def test_a_missing_key_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CEREBRAS_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", fake_key("sk-"))
    with pytest.raises(
        openai.OpenAIError, match="no api_key for 'cerebras': set CEREBRAS_API_KEY or pass api_key"
    ):
        adapter("cerebras").CerebrasClient()


def test_a_local_ollama_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in KEY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    client = adapter("ollama").OllamaClient()
    assert client.sdk.api_key == "ollama"
    assert str(client.sdk.base_url) == "http://localhost:11434/v1/"


def test_the_plain_dialect_needs_an_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_COMPATIBLE_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "https://api.openai.com/v1")
    codec = adapter("openai-compatible")
    with pytest.raises(
        openai.OpenAIError,
        match="no base_url for 'openai-compatible': set OPENAI_COMPATIBLE_BASE_URL or pass",
    ):
        codec.OpenAICompatibleClient()
    monkeypatch.setenv("OPENAI_COMPATIBLE_BASE_URL", "http://localhost:8000/v1")
    client = codec.OpenAICompatibleClient()
    assert str(client.sdk.base_url) == "http://localhost:8000/v1/"


def test_a_user_s_own_sdk_client_is_used_as_it_is() -> None:
    sdk = openai.OpenAI(api_key=fake_key("sk-"), base_url="https://deepseek.example/v1")
    client = adapter("deepseek").DeepSeekClient(sdk)
    assert client.sdk is sdk
    with pytest.raises(TypeError, match="not both"):
        adapter("deepseek").DeepSeekClient(sdk, max_retries=0)


# --- the project's own recordings: one question, whole and streamed ---

QUESTION = "Is it raining in Lisbon right now?"
# provider -> its model, and the recordings answering the question whole and streamed
OWN_RECORDINGS = {
    "deepseek": (
        "deepseek-v4-flash",
        "deepseek/thinking_answer.json",
        "deepseek/stream_thinking_answer.json",
    ),
    "cerebras": (
        "gpt-oss-120b",
        "cerebras/reasoning_answer.json",
        "cerebras/stream_reasoning_answer.json",
    ),
    "ollama": (
        "gpt-oss:20b",
        "ollama/reasoning_answer.json",
        "ollama/stream_reasoning_answer.json",
    ),
    "openai-compatible": (
        "meta-llama/Llama-3.1-8B-Instruct",
        "openai-compatible/answer.json",
        "openai-compatible/stream_answer.json",
    ),
}


def answer_facts(response: Any) -> tuple[Any, ...]:
    parts = [
        (part.type, part.text, part.provider if part.type == "reasoning" else None)
        for part in response.message.parts
    ]
    return (response.id, response.model, parts, response.finish_reason, response.usage)


@pytest.mark.parametrize("provider", sorted(OWN_RECORDINGS))
def test_a_question_answered_whole_and_streamed_alike(provider: str) -> None:
    model, whole, streamed = OWN_RECORDINGS[provider]
    (asked,) = recorded(whole)
    (streamed_call,) = recorded(streamed)
    replay = in_order([asked, streamed_call])
    client = client_for(provider, asked, replay.client())
    request = adapter(provider).decode_request(
        {"model": model, "messages": [{"role": "user", "content": QUESTION}]}
    )

    answer = client.complete(request)
    streamed_answer = accumulate(client.stream(request))

    question = {"model": model, "messages": [{"role": "user", "content": QUESTION}]}
    assert replay.sent == [
        question,
        {**question, "stream": True, "stream_options": {"include_usage": True}},
    ]
    assert [str(r.url) for r in replay.requests] == [str(asked.request.url)] * 2  # type: ignore[union-attr]
    assert answer_facts(streamed_answer) == answer_facts(answer)
    reasoning = [part.provider for part in answer.message.reasoning]
    assert reasoning == ([] if provider == "openai-compatible" else [provider])


@pytest.mark.parametrize(
    ("provider", "name"),
    [
        ("cerebras", "cerebras/stream_reasoning_answer.json"),
        ("openai-compatible", "openai-compatible/stream_answer.json"),
        ("deepseek", "deepseek/stream_thinking_answer.json"),
    ],
)
def test_a_stream_cut_before_it_finishes_is_broken_and_keeps_what_arrived(
    provider: str, name: str
) -> None:
    (call,) = recorded(name)
    body = call.response.body
    cut = body[: body.rindex(b"data: {")]  # the finishing chunk, and what follows, never came
    response = dataclasses.replace(call.response, body=cut, events=parse_sse(cut.decode()))
    replay = in_order([dataclasses.replace(call, response=response)])
    client = client_for(provider, call, replay.client())
    request = adapter(provider).decode_request(bodies([call])[0])

    with pytest.raises(StreamError) as caught:
        accumulate(client.stream(request))

    assert isinstance(caught.value.error, ProviderConnectionError)
    arrived = response.stream_payloads()
    text = "".join(
        choice["delta"].get("content") or "" for chunk in arrived for choice in chunk["choices"]
    )
    assert caught.value.partial is not None
    assert caught.value.partial.message.text == text
