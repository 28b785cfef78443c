"""The OpenRouter clients over the real `openai` SDK at OpenRouter's address,
answered by recorded wire bytes through httpx2's mock transport: the
corpus's real traffic (`../shared/corpus/compat/openrouter`) and the
project's own fixtures in `fixtures/openrouter/`, hand-made in the shape of
that traffic. The body sent is exactly the recorded one (or
`encode_request(request)`); the answer is decoded as OpenRouter wrote it,
`: OPENROUTER PROCESSING` comments and all; errors come out typed."""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Any

import openai
import pytest

from conftest import (
    MissingCorpus,
    bodies,
    corpus_id,
    corpus_params,
    fake_key,
    from_corpus,
    in_order,
    recorded,
    requested,
    strict,
)
from interlingua import (
    ChatRequest,
    FinishReason,
    Message,
    ProviderError,
    RateLimitError,
    StreamError,
    accumulate,
    accumulate_async,
    translate_request,
)
from interlingua.testing import Interaction, Replay, load_cassette
from interlingua_openrouter import (
    AsyncOpenRouterClient,
    OpenRouterClient,
    decode_error,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
)

PATH = "/api/v1/chat/completions"
KEY = fake_key("sk-or-v1-")
CALL_ID = "toolu_vrtx_01Xk7Qm3Rb9Lp2Wd5Fs8Hj4N"
LISBON_WEATHER = '{"city": "Lisbon", "condition": "light rain", "temperature_c": 14}'


def client(replay: Replay) -> OpenRouterClient:
    """A client built from options alone: OpenRouter's address is its own."""
    return OpenRouterClient(api_key=KEY, max_retries=0, http_client=replay.client())


def async_client(replay: Replay) -> AsyncOpenRouterClient:
    return AsyncOpenRouterClient(api_key=KEY, max_retries=0, http_client=replay.async_client())


def typed(error: ProviderError) -> dict[str, Any]:
    """What a typed error holds: its class and every attribute it has."""
    return {"class": type(error), **vars(error)}


def expected_error(interaction: Interaction) -> dict[str, Any]:
    """What the client raises for a recorded error answer: the codec's typed error."""
    response = interaction.response
    return typed(decode_error(response.status, response.json))


# --- the project's own fixtures ---


def test_signed_reasoning_goes_back_to_openrouter_in_place() -> None:
    replay = in_order(recorded("openrouter/reasoning_details_tool_round_trip.json"))
    first_body = replay.interactions[0].request.json  # type: ignore[union-attr]
    request = decode_request(first_body)

    with client(replay) as openrouter:
        first = openrouter.complete(request, report=strict())
        (call,) = first.message.tool_calls
        history = (*request.messages, first.message, Message.tool_result(call.id, LISBON_WEATHER))
        second_request = request.model_copy(update={"messages": history})
        second = openrouter.complete(second_request, report=strict())

    (thought,) = first.message.reasoning
    assert (thought.provider, thought.signature is not None) == ("openrouter", True)
    assistant = replay.sent[1]["messages"][2]
    assert assistant["reasoning_details"] == [
        {
            "type": "reasoning.text",
            "text": thought.text,
            "signature": thought.signature,
            "format": "anthropic-claude-v1",
            "index": 0,
        }
    ]
    assert assistant["reasoning"] == thought.text
    assert assistant["tool_calls"][0]["id"] == CALL_ID
    assert replay.sent[1]["messages"][3] == {
        "role": "tool",
        "tool_call_id": CALL_ID,
        "content": LISBON_WEATHER,
    }
    # OpenRouter's own fields go back as they came.
    assert replay.sent[1]["provider"] == {"order": ["anthropic"], "allow_fallbacks": False}
    assert replay.sent[1]["reasoning"] == {"max_tokens": 512}
    assert replay.sent == [encode_request(request), encode_request(second_request)]
    assert replay.sent == bodies(replay.interactions)
    assert first.finish_reason is FinishReason.TOOL_CALLS
    assert (first.usage.input_tokens, first.usage.output_tokens, first.usage.reasoning_tokens) == (
        612,
        88,
        41,
    )
    assert first.usage.details["cost"] == 0.003156
    assert second.text == "Yes, there is light rain in Lisbon right now, at about 14 °C."
    assert replay.requests[0].headers["authorization"] == f"Bearer {KEY}"
    assert requested(replay) == [f"POST {PATH}"] * 2


def test_the_signed_reasoning_does_not_reach_anthropic_and_the_routing_is_reported() -> None:
    second = recorded("openrouter/reasoning_details_tool_round_trip.json")[1]
    assert second.request is not None
    body = {**second.request.json, "model": "claude-sonnet-4-5"}

    translation = translate_request(body, source="openrouter", target="anthropic")

    assistant = translation.body["messages"][1]
    assert [block["type"] for block in assistant["content"]] == ["tool_use"]
    lost = {loss.path: loss for loss in translation.losses}
    assert lost["messages[2].parts[0]"].kind == "dropped"  # the signature is OpenRouter's
    assert lost["provider_options.openrouter.provider"].kind == "dropped"  # OpenRouter's routing
    # The `reasoning` object is the core's setting: it reaches Anthropic, whose
    # rules for this history (no thinking before the tool results) turn it off.
    assert "provider_options.openrouter.reasoning" not in lost
    assert lost["reasoning"].kind == "transformed"
    assert translation.body["thinking"] == {"type": "disabled"}


def test_a_document_by_url_stays_a_url_back_to_openrouter_and_to_other_apis() -> None:
    replay = in_order(recorded("openrouter/document_by_url.json"))
    (interaction,) = replay.interactions
    assert interaction.request is not None
    body = interaction.request.json
    sent_file = body["messages"][0]["content"][1]["file"]
    url, filename = sent_file["file_data"], sent_file["filename"]
    media_type, _ = mimetypes.guess_type(filename)

    request = decode_request(body)

    (document,) = request.messages[0].files
    assert (document.url, document.data, document.file_id) == (url, None, None)
    assert (document.filename, document.media_type) == (filename, media_type)
    with client(replay) as openrouter:
        answer = openrouter.complete(request, report=strict())
    assert replay.sent == bodies(replay.interactions)
    assert answer.text == interaction.response.json["choices"][0]["message"]["content"]
    to_google = translate_request(body, source="openrouter", target="google")
    assert to_google.body["contents"][0]["parts"][1] == {
        "fileData": {"mimeType": media_type, "fileUri": url}
    }
    assert [(loss.path, loss.kind) for loss in to_google.losses] == [
        ("messages[0].parts[1].filename", "dropped")  # Gemini's parts have no file name
    ]
    to_anthropic = translate_request(body, source="openrouter", target="anthropic")
    assert to_anthropic.body["messages"][0]["content"][1] == {
        "type": "document",
        "source": {"type": "url", "url": url},
        "title": filename,
    }
    # A document by URL made elsewhere goes to OpenRouter in `file_data` too.
    back = translate_request(to_anthropic.body, source="anthropic", target="openrouter")
    assert back.body["messages"][0]["content"][1] == body["messages"][0]["content"][1]
    # OpenAI's Chat Completions take a document's data or file id, no URL.
    to_openai = translate_request(body, source="openrouter", target="openai")
    assert to_openai.body["messages"][0]["content"] == body["messages"][0]["content"][0]["text"]
    (lost,) = to_openai.losses
    assert (lost.path, lost.kind) == ("messages[0].parts[1]", "dropped")


def test_a_402_is_a_rate_limit_error_no_retry_mends() -> None:
    replay = in_order(recorded("openrouter/error_insufficient_credits.json"))
    (interaction,) = replay.interactions
    assert interaction.request is not None

    with pytest.raises(RateLimitError) as raised, client(replay) as openrouter:
        openrouter.complete(decode_request(interaction.request.json))

    error = raised.value
    body = interaction.response.json
    assert (error.status, error.code, error.message) == (402, "402", body["error"]["message"])
    assert error.body == body
    assert not error.retryable
    assert replay.sent == bodies(replay.interactions)


def test_the_key_comes_from_openrouter_s_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENROUTER_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", fake_key("sk-"))
    replay = in_order(recorded("openrouter/error_insufficient_credits.json"))
    request = ChatRequest(model="openai/gpt-5", messages=(Message.user("?"),))

    with pytest.raises(RateLimitError), OpenRouterClient(http_client=replay.client()) as openrouter:
        openrouter.complete(request)

    assert replay.requests[0].headers["authorization"] == f"Bearer {KEY}"
    assert str(replay.requests[0].url) == f"https://openrouter.ai{PATH}"


def test_without_a_key_the_client_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    with pytest.raises(openai.OpenAIError, match="OPENROUTER_API_KEY"):
        OpenRouterClient()


# --- the real traffic of the corpus, replayed through the real clients ---


def corpus_calls(param: Path | MissingCorpus) -> list[Interaction]:
    """The file's chat completions calls (not those to OpenRouter's Responses API)."""
    path = from_corpus(param)
    return [call for call in load_cassette(path).for_provider("openrouter") if call.path == PATH]


def answered(call: Interaction) -> bool:
    """A call answered without an error (the async test's; the sync one has all)."""
    return b'"error"' not in call.response.body


CASSETTES = corpus_params(
    "compat/openrouter", pattern="*.yaml", keep=lambda p: bool(corpus_calls(p)), holding="calls"
)
ANSWERED = corpus_params(
    "compat/openrouter",
    pattern="*.yaml",
    keep=lambda p: any(map(answered, corpus_calls(p))),
    holding="answered calls",
)


def expected(call: Interaction) -> Any:
    """What the client gives for a recorded answer: the codec's own reading of it."""
    if call.is_stream:
        return accumulate(decode_stream(call.response.stream_payloads()))
    return decode_response(call.response.json)


@pytest.mark.parametrize("path", CASSETTES, ids=corpus_id)
def test_the_corpus_replayed_through_the_sdk_client(path: Path | MissingCorpus) -> None:
    calls = corpus_calls(path)
    replay = in_order(calls)

    with client(replay) as openrouter:
        for call in calls:
            assert call.request is not None
            request = decode_request(call.request.json)
            if call.response.status >= 400:
                with pytest.raises(ProviderError) as raised:
                    (openrouter.stream if request.stream else openrouter.complete)(request)
                assert typed(raised.value) == expected_error(call)
            elif not answered(call):
                with pytest.raises(StreamError) as broken:
                    accumulate(openrouter.stream(request))
                assert broken.value.error is not None
                assert broken.value.error.message == "Token limit reached"
            elif call.is_stream:
                assert accumulate(openrouter.stream(request)) == expected(call)
            else:
                assert openrouter.complete(request) == expected(call)
            assert replay.sent[-1] == call.request.json

    assert replay.sent == bodies(calls)
    assert requested(replay) == [f"POST {PATH}"] * len(calls)


@pytest.mark.anyio
@pytest.mark.parametrize("path", ANSWERED, ids=corpus_id)
async def test_the_corpus_replayed_through_the_async_sdk_client(
    path: Path | MissingCorpus,
) -> None:
    calls = list(filter(answered, corpus_calls(path)))
    replay = in_order(calls)

    async with async_client(replay) as openrouter:
        for call in calls:
            assert call.request is not None
            request = decode_request(call.request.json)
            if call.is_stream:
                assert await accumulate_async(await openrouter.stream(request)) == expected(call)
            else:
                assert await openrouter.complete(request) == expected(call)

    assert replay.sent == bodies(calls)
