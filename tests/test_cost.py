"""What a call cost: `ChatResponse.cost()`, by genai-prices.

For every recorded answer of every adapter with prices (the corpus, skipped
when it is absent and failed when `CI` is set, and the project's fixtures),
that genai-prices can read and price, the cost equals genai-prices' own
price of the raw answer: `genai_prices.extract_usage(body, provider_id=...,
api_flavor=...)` read from the body, not through the adapter, priced for the
model the body names (Bedrock's, which names none: the URL's), at the time
the body says it was made. Streams are not among them: genai-prices reads a
whole answer's usage only.
"""

from __future__ import annotations

import functools
import inspect
import json
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import unquote

import genai_prices
import pytest

from boto3_calls import client_for
from conftest import FIXTURES, MissingCorpus, cassette, corpus_files, from_corpus
from interlingua import (
    ChatHistory,
    ChatResponse,
    CostError,
    InvalidDataError,
    Message,
    PriceSource,
    get_adapter,
)
from interlingua.testing import Interaction, replay
from interlingua_bedrock import BedrockClient
from recorded_apis import SOURCES, legacy_completion

# The adapters whose APIs put the model in the URL, not in the answer.
MODEL_IN_URL = {"bedrock", "anthropic-bedrock", "anthropic-vertex"}
# When an answer says it was made: Chat Completions' `created`, the Responses API's
# `created_at` (Unix seconds), Gemini's `createTime` (RFC 3339).
MADE_AT = ("created", "created_at", "createTime")


def mistral_older_cache_reads(body: dict[str, Any], usage: Any) -> Any:
    """Mistral's older name of its cache reads (`num_cached_tokens`, recorded), which
    genai-prices' extractor does not read: added here, from the wire."""
    wire = body["usage"]
    if "num_cached_tokens" in wire and "prompt_tokens_details" not in wire:
        usage.cache_read_tokens = wire["num_cached_tokens"]
    return usage


# What genai-prices' extractors miss of a wire, read here from the raw answer.
EXTRACTOR_GAPS = {"mistral": mistral_older_cache_reads}


class Case(NamedTuple):
    adapter: str
    call: Interaction
    expected: Any  # genai-prices' `PriceCalculation` of the raw answer


def answered(call: Interaction, endings: tuple[str, ...]) -> bool:
    return (
        (call.path or "").endswith(endings)
        and call.response.status == 200
        and not call.is_stream
        and isinstance(call.response.json, dict)
        and not legacy_completion(call)
    )


@functools.cache
def corpus_calls(adapter: str) -> tuple[Interaction, ...]:
    folder, provider, endings = SOURCES[adapter]
    found = []
    for path in corpus_files(folder, "*.yaml"):
        held = cassette(path)
        calls = held.interactions if provider is None else held.for_provider(provider)
        found += [call for call in calls if answered(call, endings)]
    return tuple(found)


def fixture_calls() -> list[tuple[str, str, Interaction]]:
    """(adapter, id, call) of each answer of the fixtures of an adapter with prices."""
    found = []
    for path in sorted(FIXTURES.glob("*/*.json")):
        for n, call in enumerate(cassette(path).interactions):
            adapter = "openai-responses" if call.path == "/v1/responses" else path.parent.name
            endings = SOURCES[adapter][2] if adapter in SOURCES else ("",)
            if prices_of(adapter) is not None and answered(call, endings):
                found.append((adapter, f"fixtures/{path.parent.name}/{path.name}#{n}", call))
    return found


def prices_of(adapter: str) -> PriceSource | None:
    try:
        source = getattr(get_adapter(adapter), "PRICES", None)
    except LookupError:
        return None
    return source if isinstance(source, PriceSource) else None


def url_model(call: Interaction) -> str:
    """The model id of a URL's `/model/<id>/...` or `.../models/<id>:...`, percent-decoded."""
    path = unquote(call.path or "")
    if "/model/" in path:
        return path.split("/model/", 1)[1].rsplit("/", 1)[0]
    return path.rsplit("/models/", 1)[1].split(":", 1)[0]


def made_at(body: dict[str, Any]) -> datetime | None:
    for key in MADE_AT:
        value = body.get(key)
        if isinstance(value, int) and value > 0:
            return datetime.fromtimestamp(value, timezone.utc)
        if isinstance(value, str):
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
    return None


def genai_price(adapter: str, call: Interaction) -> Any:
    """genai-prices' price of the raw answer; None where it cannot read or price it."""
    source = prices_of(adapter)
    assert source is not None
    body = call.response.json
    if adapter in MODEL_IN_URL:  # the model the URL names (InvokeModel's body may name another)
        body = {**body, "model": url_model(call)}
    try:
        extracted = genai_prices.extract_usage(
            body, provider_id=source.provider_id, api_flavor=source.api_flavor
        )
        usage = EXTRACTOR_GAPS.get(adapter, lambda body, usage: usage)(body, extracted.usage)
        model = body.get("model") or body.get("modelVersion")
        return genai_prices.calc_price(
            usage,
            model,
            provider_id=source.provider_id,
            genai_request_timestamp=made_at(body),
        )
    except (LookupError, ValueError):
        return None


def cases(priced: bool) -> list[Any]:
    """One case per recorded answer genai-prices prices (`priced`), or cannot."""
    params: list[Any] = []
    for adapter, (folder, _, _) in SOURCES.items():
        if prices_of(adapter) is None:  # genai-prices has no provider for it
            continue
        calls = corpus_calls(adapter)
        if not calls:
            missing = MissingCorpus((folder,))
            params.append(pytest.param(missing, id=f"{adapter}:missing-{folder}"))
        for n, call in enumerate(calls):
            expected = genai_price(adapter, call)
            if (expected is not None) == priced:
                name = f"{adapter}:{folder}#{n}"
                params.append(pytest.param(Case(adapter, call, expected), id=name))
    for adapter, name, call in fixture_calls():
        expected = genai_price(adapter, call)
        if (expected is not None) == priced:
            params.append(pytest.param(Case(adapter, call, expected), id=f"{adapter}:{name}"))
    return params


def decoded(case: Case) -> ChatResponse:
    response = get_adapter(case.adapter).decode_response(case.call.response.json)
    if case.adapter in MODEL_IN_URL:  # as the client that asked knows it
        response = response.model_copy(update={"model": url_model(case.call)})
    return response


@pytest.mark.parametrize("case", cases(priced=True))
def test_every_recorded_answer_costs_what_genai_prices_reads_in_it(
    case: Case | MissingCorpus,
) -> None:
    case = from_corpus(case)

    cost = decoded(case).cost(provider=case.adapter)

    expected = case.expected
    assert (cost.input_price, cost.output_price, cost.total_price) == (
        expected.input_price,
        expected.output_price,
        expected.total_price,
    )
    assert (cost.model, cost.provider) == (expected.model.id, expected.provider.id)
    assert cost.total_price > 0 or expected.total_price == 0


@pytest.mark.parametrize("case", cases(priced=False))
def test_a_recorded_answer_genai_prices_cannot_price_raises_a_cost_error(
    case: Case | MissingCorpus,
) -> None:
    case = from_corpus(case)

    with pytest.raises(CostError):
        decoded(case).cost(provider=case.adapter)


# --- each count priced once, as the provider counts it ---


def fixture_answer(name: str, n: int = 0) -> dict[str, Any]:
    body = cassette(FIXTURES / name).interactions[n].response.json
    assert isinstance(body, dict)
    return body


def wire_prices(body: dict[str, Any], provider_id: str) -> Any:
    """genai-prices' prices of the model the answer names, when it was made: read
    from the wire, not from the price interlingua found."""
    model = body.get("model") or body.get("modelVersion")
    return price(model, provider_id, made_at(body), input_tokens=1).model_price


def price(model: str, provider_id: str, at: datetime | None = None, **usage: int) -> Any:
    return genai_prices.calc_price(
        genai_prices.Usage(**usage), model, provider_id=provider_id, genai_request_timestamp=at
    )


def test_an_anthropic_cache_read_is_priced_once_at_the_cache_read_price() -> None:
    body = fixture_answer("anthropic/tool_round_trip_with_thinking.json", 1)
    wire = body["usage"]
    assert wire["cache_read_input_tokens"] > 0

    cost = get_adapter("anthropic").decode_response(body).cost()

    # Anthropic's `input_tokens` leaves the cache out: the three input counts are the input.
    read, written = wire["cache_read_input_tokens"], wire["cache_creation_input_tokens"]
    expected = price(
        body["model"],
        "anthropic",
        input_tokens=wire["input_tokens"] + read + written,
        cache_read_tokens=read,
        cache_write_tokens=written,
        output_tokens=wire["output_tokens"],
    )
    assert cost.total_price == expected.total_price
    # Each token once: the uncached input at the input price, the reads and writes at theirs.
    at = made_at(body)
    uncached = price(body["model"], "anthropic", at, input_tokens=wire["input_tokens"])
    reads = price(body["model"], "anthropic", at, input_tokens=read, cache_read_tokens=read)
    writes = price(body["model"], "anthropic", at, input_tokens=written, cache_write_tokens=written)
    assert cost.input_price == uncached.input_price + reads.input_price + writes.input_price
    assert reads.input_price < price(body["model"], "anthropic", at, input_tokens=read).input_price


def test_openai_cached_tokens_are_priced_at_the_cache_read_price() -> None:
    body = fixture_answer("openai/chat_parallel_tool_calls_cached.json")
    wire = body["usage"]
    cached = wire["prompt_tokens_details"]["cached_tokens"]
    assert cached > 0

    cost = get_adapter("openai").decode_response(body).cost()

    prices = wire_prices(body, "openai")
    expected = (
        wire["prompt_tokens"] - cached
    ) * prices.input_mtok + cached * prices.cache_read_mtok
    assert cost.input_price == expected / 1_000_000
    assert cost.output_price == wire["completion_tokens"] * prices.output_mtok / 1_000_000


def test_openai_reasoning_is_priced_once_as_output() -> None:
    body = fixture_answer("openai/chat_forced_tool_reasoning.json")
    wire = body["usage"]
    assert wire["completion_tokens_details"]["reasoning_tokens"] > 0

    cost = get_adapter("openai").decode_response(body).cost()

    prices = wire_prices(body, "openai")
    assert cost.output_price == wire["completion_tokens"] * prices.output_mtok / 1_000_000


def test_gemini_thoughts_are_priced_as_output_beside_the_candidates() -> None:
    body = fixture_answer("google/tool_round_trip_with_thinking.json")
    wire = body["usageMetadata"]
    assert wire["thoughtsTokenCount"] > 0

    cost = get_adapter("google").decode_response(body).cost()

    # Gemini counts its thoughts apart from the candidates: both are output.
    outputs = wire["candidatesTokenCount"] + wire["thoughtsTokenCount"]
    prices = wire_prices(body, "google")
    assert cost.output_price == outputs * prices.output_mtok / 1_000_000


def test_xai_reasoning_outside_the_completion_is_priced_as_output() -> None:
    body = fixture_answer("xai/reasoning_content_sent_back.json")
    wire = body["usage"]
    reasoning = wire["completion_tokens_details"]["reasoning_tokens"]
    assert reasoning > wire["completion_tokens"]

    cost = get_adapter("xai").decode_response(body).cost()

    prices = wire_prices(body, "x-ai")
    outputs = wire["completion_tokens"] + reasoning
    assert cost.output_price == outputs * prices.output_mtok / 1_000_000


def test_mistral_audio_tokens_are_kept_and_priced_as_genai_prices_reads_them() -> None:
    body = fixture_answer("mistral/audio_input.json")
    assert body["usage"]["prompt_tokens_details"]["audio_tokens"] > 0
    extracted = genai_prices.extract_usage(body, provider_id="mistral")

    cost = get_adapter("mistral").decode_response(body).cost()

    made = made_at(body)
    assert cost.total_price == extracted.calc_price(genai_request_timestamp=made).total_price


def test_openai_audio_tokens_are_priced_at_the_audio_price() -> None:
    body: dict[str, Any] = {
        "id": "chatcmpl-audio",
        "object": "chat.completion",
        "created": 1_760_000_000,
        "model": "gpt-audio",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Hi."},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": 120,
            "completion_tokens": 40,
            "total_tokens": 160,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 100},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 30},
        },
    }

    cost = get_adapter("openai").decode_response(body).cost()

    prices = wire_prices(body, "openai")
    assert prices.input_audio_mtok != prices.input_mtok
    expected_input = 20 * prices.input_mtok + 100 * prices.input_audio_mtok
    expected_output = 10 * prices.output_mtok + 30 * prices.output_audio_mtok
    assert (cost.input_price, cost.output_price) == (
        expected_input / 1_000_000,
        expected_output / 1_000_000,
    )


# --- what has no price ---


def test_a_provider_genai_prices_does_not_price_is_named() -> None:
    body = fixture_answer("ollama/reasoning_answer.json")

    with pytest.raises(CostError, match="'ollama'"):
        get_adapter("ollama").decode_response(body).cost()


def test_a_model_genai_prices_does_not_know_is_named() -> None:
    body = {**fixture_answer("openai/chat_tool_round_trip.json"), "model": "gpt-nonesuch-9"}

    with pytest.raises(CostError, match="'gpt-nonesuch-9'") as raised:
        get_adapter("openai").decode_response(body).cost()

    assert isinstance(raised.value, LookupError)


def test_an_answer_without_usage_has_no_price() -> None:
    response = ChatResponse(model="gpt-4o", provider="openai")

    with pytest.raises(CostError, match="no usage"):
        response.cost()


def test_without_genai_prices_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "genai_prices", None)
    response = get_adapter("openai").decode_response(
        fixture_answer("openai/chat_tool_round_trip.json")
    )

    with pytest.raises(CostError, match=r'pip install "interlingua\[prices\]"'):
        response.cost()


def test_the_price_is_that_of_the_time_the_answer_was_made() -> None:
    body = fixture_answer("openai/chat_tool_round_trip.json")
    made = datetime.fromtimestamp(body["created"], timezone.utc)

    cost = get_adapter("openai").decode_response(body).cost()

    wire = body["usage"]
    expected = price(
        body["model"],
        "openai",
        made,
        input_tokens=wire["prompt_tokens"],
        output_tokens=wire["completion_tokens"],
        cache_read_tokens=wire["prompt_tokens_details"]["cached_tokens"],
    )
    assert cost.total_price == expected.total_price
    assert isinstance(cost.total_price, Decimal)


def test_costs_add_up() -> None:
    one = get_adapter("openai").decode_response(fixture_answer("openai/chat_tool_round_trip.json"))
    cost = one.cost()

    total = sum([cost, cost])

    assert isinstance(total, type(cost))
    assert total.total_price == 2 * cost.total_price
    assert (total.model, total.provider) == (cost.model, cost.provider)


# --- a conversation's cost ---


def answers() -> list[tuple[str, ChatResponse]]:
    """Three answers of three providers (adapter, response)."""
    return [
        ("openai", get_adapter("openai").decode_response(
            fixture_answer("openai/chat_tool_round_trip.json"))),
        ("anthropic", get_adapter("anthropic").decode_response(
            fixture_answer("anthropic/tool_round_trip_with_thinking.json", 1))),
        ("google", get_adapter("google").decode_response(
            fixture_answer("google/tool_round_trip_with_thinking.json"))),
    ]  # fmt: skip


def test_a_history_costs_the_sum_of_its_answers_across_providers(tmp_path: Path) -> None:
    history = ChatHistory()
    for _, response in answers():
        history.add_message(Message.user("go on"))
        history.add_response(response)
    history.save(tmp_path / "chat.json")

    cost = ChatHistory.load(tmp_path / "chat.json").cost()

    each = [response.cost() for _, response in answers()]
    assert cost.total_price == sum(c.total_price for c in each) > 0
    assert cost.input_price == sum(c.input_price for c in each)
    assert (cost.model, cost.provider) == (None, None)
    assert [turn.message for turn in history.turns] == [1, 3, 5]
    assert [turn.provider for turn in history.turns] == ["openai", "anthropic", "google"]


def test_a_claude_answer_on_bedrock_is_kept_with_the_adapter_that_answered() -> None:
    call = cassette(FIXTURES / "anthropic-bedrock/thinking_tool_use.json").interactions[0]
    response = get_adapter("anthropic-bedrock").decode_response(call.response.json)
    response = response.model_copy(update={"model": url_model(call)})
    history = ChatHistory()

    history.add_response(response, provider="anthropic-bedrock")

    assert response.provider == "anthropic"
    assert history.cost() == response.cost(provider="anthropic-bedrock")
    assert history.cost().provider == "aws"


def test_an_answer_with_no_price_is_named_by_its_index_unless_skipped() -> None:
    history = ChatHistory()
    (_, priced), *_ = answers()
    history.add_response(priced)
    history.add_message(Message.user("and locally?"))
    history.add_response(
        get_adapter("ollama").decode_response(fixture_answer("ollama/reasoning_answer.json"))
    )
    history.add_message(Message.assistant("typed by hand"))

    with pytest.raises(CostError, match=r"messages\[2\].*'ollama'"):
        history.cost()

    assert history.cost(skip_unknown=True) == priced.cost()


def test_an_assistant_message_added_without_its_response_has_no_price() -> None:
    history = ChatHistory(messages=[Message.user("hi"), Message.assistant("hello")])

    with pytest.raises(CostError, match=r"messages\[1\].*add_response"):
        history.cost()

    assert history.cost(skip_unknown=True).total_price == 0


def test_every_adapter_with_prices_has_recorded_answers_priced() -> None:
    from interlingua import available_adapters

    priced = {
        param.values[0].adapter for param in cases(priced=True) if isinstance(param.values[0], Case)
    }
    with_prices = {name for name in available_adapters() if prices_of(name) is not None}

    assert with_prices - priced == set()


def test_perplexity_reasoning_and_citations_are_priced_as_output_beside_the_completion() -> None:
    # A deep-research answer's usage, as Perplexity's API reference gives it.
    body = {
        "id": "2f9a4c1e-7b3d-4e8f-9a2c-5d6e7f8a9b0c",
        "model": "sonar-deep-research",
        "created": 1_760_000_000,
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": "Lisbon's oceanarium opened in 1998."},
            }
        ],
        "usage": {
            "prompt_tokens": 19,
            "completion_tokens": 498,
            "total_tokens": 517,
            "citation_tokens": 10_863,
            "num_search_queries": 18,
            "reasoning_tokens": 73_997,
            "search_context_size": "low",
        },
    }
    extracted = genai_prices.extract_usage(body, provider_id="perplexity")
    expected = extracted.calc_price(genai_request_timestamp=made_at(body))

    cost = get_adapter("perplexity").decode_response(body).cost()

    assert (cost.input_price, cost.output_price, cost.total_price) == (
        expected.input_price,
        expected.output_price,
        expected.total_price,
    )
    # More than the completion alone: the reasoning and the citations are output too.
    usage = body["usage"]
    alone = price("sonar-deep-research", "perplexity", made_at(body), output_tokens=498)
    assert cost.output_price > alone.output_price
    assert extracted.usage.output_tokens == (
        usage["completion_tokens"] + usage["reasoning_tokens"] + usage["citation_tokens"]
    )


def test_a_converse_answer_from_the_client_is_priced_as_the_model_it_asked() -> None:
    (call,) = cassette(FIXTURES / "bedrock/thinking_tool_use.json").interactions
    assert call.request is not None
    assert "model" not in call.response.json  # Converse names it in the URL alone
    expected = genai_price("bedrock", call)
    request = get_adapter("bedrock").decode_request(
        json.loads(call.request.body or b"{}"), model=url_model(call)
    )
    with replay([call]) as played:
        answer = BedrockClient(client_for(call.request.url)).complete(request)
    assert played.sent == [json.loads(call.request.body or b"{}")]
    history = ChatHistory(messages=list(request.messages))
    history.add_response(answer)

    assert answer.cost().total_price == expected.total_price > 0
    assert history.cost().total_price == expected.total_price


def test_a_turn_must_name_an_answer_of_its_history() -> None:
    (_, priced), *_ = answers()
    history = ChatHistory()
    history.add_response(priced)
    saved = json.loads(history.to_json())

    for moved in (0, 5):
        saved["messages"] = [{"role": "user", "parts": [{"type": "text", "text": "hi"}]}] + (
            saved["messages"] if moved else []
        )
        saved["turns"][0]["message"] = moved
        with pytest.raises(InvalidDataError, match=rf"turns\[0\]\.message: {moved} "):
            ChatHistory.from_document(saved)


@pytest.mark.skipif(
    "price_context" not in inspect.signature(genai_prices.calc_price).parameters,
    reason="this genai-prices (before 0.2, Python 3.10's) has one price per model",
)
@pytest.mark.parametrize("tier", ["flex", "priority"])
def test_an_openai_answer_is_priced_at_the_tier_that_served_it(tier: str) -> None:
    # Made when genai-prices has prices by tier for gpt-5 (from 12 October 2026).
    made = {"model": "gpt-5", "created": 1793491200}  # 1 November 2026
    body = {**fixture_answer("openai/chat_tool_round_trip.json", 1), **made}
    served = {**body, "service_tier": tier}
    usage = genai_prices.extract_usage(served, provider_id="openai", api_flavor="chat").usage
    at = made_at(body)

    def priced(answer: dict[str, Any]) -> Any:
        return get_adapter("openai").decode_response(answer).cost().total_price

    standard = genai_prices.calc_price(
        usage, "gpt-5", provider_id="openai", genai_request_timestamp=at
    )
    expected = genai_prices.calc_price(
        usage, "gpt-5", provider_id="openai", genai_request_timestamp=at,
        price_context={"service_tier": tier},
    )  # fmt: skip
    assert expected.total_price != standard.total_price
    assert priced(served) == expected.total_price
    assert priced(body) == standard.total_price  # "default", as recorded
    history = ChatHistory()
    history.add_response(get_adapter("openai").decode_response(served))
    assert history.cost().total_price == expected.total_price
