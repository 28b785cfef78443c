"""Another provider's answer written for an API (a gateway answering an
Anthropic client from Perplexity): each field of the answer's own that the
API's body has no place for (Perplexity's `citations` and `search_results`,
Chat Completions' `system_fingerprint` and `service_tier`, OpenRouter's
`provider`, Anthropic's `container`) is reported once by its own name, as
dropped at `provider_data.<provider>.fields.<name>`, by `encode_response` and
by the stream encoders alike; strict mode raises on the first loss. An API
writing its own provider's answer reports none of them and gives the body
back as it came.

The fields expected are read from the recorded bodies: the top-level keys
beside those every API's answer has in some form (`MODELLED`).
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import recorded, same_json
from interlingua import (
    ChatResponse,
    TranslationError,
    TranslationReport,
    accumulate,
    get_adapter,
)
from interlingua.testing import Interaction
from test_moving_histories import recording

# The APIs that write answers, by adapter name.
WRITERS = (
    "anthropic",
    "openai",
    "openai-responses",
    "google",
    "mistral",
    "groq",
    "deepseek",
    "openrouter",
    "xai",
    "perplexity",
)
# A source's answer: its fixture, the interaction, and the adapter that reads it.
ANSWERS: dict[str, tuple[str, int]] = {
    "perplexity": ("perplexity/citations_answer.json", 0),
    "openai": ("openai/chat_refusal.json", 0),
    "openrouter": ("openrouter/reasoning_details_tool_round_trip.json", 1),
}
STREAMS: dict[str, tuple[str, int]] = {
    "perplexity": ("perplexity/stream_think_citations.json", 0),
    "openrouter": ("openrouter/stream_signed_reasoning.json", 0),
}
# Every API's answer has these in some form (its identity, kind, time, choices, usage).
MODELLED = frozenset({"id", "model", "object", "created", "choices", "usage"})
# A choice's: its place, its answer (Perplexity sends both `message` and `delta`), its end.
CHOICE_MODELLED = frozenset({"index", "message", "delta", "finish_reason"})
CONTAINER = "anthropic/pydantic-ai/test_anthropic_code_execution_tool_stream.yaml"


def interaction(source: str, files: dict[str, tuple[str, int]]) -> Interaction:
    name, index = files[source]
    return recorded(name)[index]


def own_fields(source: str, *bodies: dict[str, Any]) -> list[str]:
    """Where the fields of `source`'s answer `bodies` (its chunks, for a stream)
    are reported, read from the wire: each key beside the modelled ones, not null;
    and each key of its first choice beside the modelled ones (OpenRouter's
    `native_finish_reason`) at `echo.choice.fields`."""
    keys = {key: None for body in bodies for key, value in body.items() if value is not None}
    choices = [choice for body in bodies for choice in body.get("choices") or [] if choice]
    choice_keys = {
        key: None
        for choice in choices
        if choice.get("index", 0) == 0
        for key, value in choice.items()
        if value is not None and key not in CHOICE_MODELLED
    }
    return [f"provider_data.{source}.fields.{key}" for key in keys if key not in MODELLED] + [
        f"provider_data.{source}.echo.choice.fields.{key}" for key in choice_keys
    ]


def answer_losses(report: TranslationReport) -> list[str]:
    return [loss.path for loss in report.losses if loss.path.startswith("provider_data.")]


def cases(files: dict[str, tuple[str, int]]) -> list[Any]:
    return [
        pytest.param(source, writer, id=f"{source}->{writer}")
        for source in files
        for writer in WRITERS
        if writer != source
    ]


@pytest.mark.parametrize(("source", "writer"), cases(ANSWERS))
def test_each_field_of_another_provider_s_answer_is_reported_once_by_name(
    source: str, writer: str
) -> None:
    body = interaction(source, ANSWERS).response.json
    response = get_adapter(source).decode_response(body)
    report = TranslationReport()

    written = get_adapter(writer).encode_response(response, report=report)

    expected = own_fields(source, body)
    assert expected, "the answer carries fields of its own"
    assert sorted(answer_losses(report)) == sorted(expected)
    for loss in report.losses:
        if loss.path in expected:
            assert loss.kind == "dropped"
            assert repr(loss.path.rpartition(".")[2]) in loss.reason
    shown = repr(written)
    for path in expected:
        # (A choice's field may say what the writer says its own way: OpenRouter's
        # `native_finish_reason` is Anthropic's `stop_reason`.)
        if ".fields." in path and ".echo." not in path:
            assert repr(body[path.rpartition(".")[2]]) not in shown


@pytest.mark.parametrize(("source", "writer"), cases(ANSWERS))
def test_strict_mode_raises_on_the_first_loss_of_another_provider_s_answer(
    source: str, writer: str
) -> None:
    response = get_adapter(source).decode_response(interaction(source, ANSWERS).response.json)
    report = TranslationReport()
    get_adapter(writer).encode_response(response, report=report)
    first = report.losses[0]

    with pytest.raises(TranslationError) as raised:
        get_adapter(writer).encode_response(response, report=TranslationReport(strict=True))

    assert (raised.value.path, raised.value.kind) == (first.path, first.kind)


@pytest.mark.parametrize("source", [*ANSWERS])
def test_an_api_writing_its_own_provider_s_answer_reports_none_and_gives_it_back(
    source: str,
) -> None:
    body = interaction(source, ANSWERS).response.json
    adapter = get_adapter(source)
    report = TranslationReport(strict=True)

    assert same_json(adapter.encode_response(adapter.decode_response(body), report=report), body)
    assert report.losses == []


@pytest.mark.parametrize(("source", "writer"), cases(STREAMS))
def test_each_stream_encoder_reports_each_field_of_another_provider_s_answer_once(
    source: str, writer: str
) -> None:
    payloads = interaction(source, STREAMS).response.stream_payloads()
    report = TranslationReport()

    list(
        get_adapter(writer).encode_stream(
            get_adapter(source).decode_stream(payloads), report=report
        )
    )

    assert sorted(answer_losses(report)) == sorted(own_fields(source, *payloads))


@pytest.mark.parametrize("source", [*STREAMS])
def test_a_stream_written_for_its_own_provider_reports_none(source: str) -> None:
    payloads = interaction(source, STREAMS).response.stream_payloads()
    adapter = get_adapter(source)
    report = TranslationReport(strict=True)

    written = [
        event.data
        for event in adapter.encode_stream(adapter.decode_stream(payloads), report=report)
    ]

    assert report.losses == []
    assert accumulate(adapter.decode_stream(written[:-1])) == accumulate(
        adapter.decode_stream(payloads)
    )


def anthropic_container_answer() -> tuple[ChatResponse, str]:
    """Anthropic's answer that ran code in a container, and the container's id."""
    (streamed,) = recording(CONTAINER, "anthropic")
    payloads = streamed.response.stream_payloads()
    (container,) = {
        payload["delta"]["container"]["id"]
        for payload in payloads
        if payload["type"] == "message_delta" and payload["delta"].get("container")
    }
    return accumulate(get_adapter("anthropic").decode_stream(payloads)), container


@pytest.mark.parametrize("writer", [w for w in WRITERS if w != "anthropic"])
def test_anthropic_s_container_is_reported_where_another_api_writes_its_answer(
    writer: str,
) -> None:
    response, container = anthropic_container_answer()
    report = TranslationReport()

    written = get_adapter(writer).encode_response(response, report=report)

    assert "provider_data.anthropic.fields.container" in answer_losses(report)
    assert container not in repr(written)


# The APIs that write another provider's usage breakdown nowhere (Anthropic and
# Gemini report it as one `usage.details` entry).
BREAKDOWN_WRITERS = ("openai", "openai-responses", "mistral", "groq", "deepseek", "xai")


@pytest.mark.parametrize("writer", BREAKDOWN_WRITERS)
def test_each_count_of_perplexity_s_cost_is_reported_where_an_api_has_no_place_for_it(
    writer: str,
) -> None:
    body = interaction("perplexity", ANSWERS).response.json
    response = get_adapter("perplexity").decode_response(body)
    report = TranslationReport()

    written = get_adapter(writer).encode_response(response, report=report)

    cost = {key: value for key, value in body["usage"]["cost"].items() if value}
    assert cost, "the recorded answer has a cost"
    usage = [loss for loss in report.losses if loss.path.startswith("usage.")]
    assert [loss.path for loss in usage] == [f"usage.details.cost.{key}" for key in cost]
    assert all(loss.kind == "dropped" for loss in usage)
    assert "cost" not in written["usage"]
