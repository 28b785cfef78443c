"""A body in one API's format to another's: `translate_request`,
`translate_response`, `validate_request`, over every recorded body.

The matrix: every request and answer each API recorded (the OpenAI-compatible
servers' among them), translated to each of the others. Translated to B, the
body is one B takes as it is (B's own `validate_request` finds nothing in it);
translated back to A, it still holds every text, tool call and tool result
byte for byte; and the request kept in the core gives A, after B, exactly the
body it gave before.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from conftest import (
    ANTHROPIC_TOOL_TURN,
    FIXTURES,
    MissingCorpus,
    answer_fields,
    corpus_files,
    from_corpus,
    same_json,
)
from interlingua import (
    ChatRequest,
    ChatResponse,
    FinishReason,
    InvalidDataError,
    Message,
    ReasoningConfig,
    ReasoningPart,
    RefusalPart,
    StreamAccumulator,
    TextPart,
    TokenUsage,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
    TranslationError,
    TranslationReport,
    format_sse,
    get_adapter,
    translate_request,
    translate_response,
    translate_stream,
    validate_request,
)
from interlingua.testing import Interaction, load_cassette, parse_sse
from interlingua_chat_completions._request import FILES_MOVED_NOTE

# adapter name -> (corpus folder, cassette provider, how its endpoints' URL paths end);
# no provider: every call of the folder (an OpenAI-compatible server's host names none)
APIS: dict[str, tuple[str, str | None, str | tuple[str, ...]]] = {
    "anthropic": ("anthropic", "anthropic", "/v1/messages"),
    "openai": ("openai-chat", "openai", "/v1/chat/completions"),
    "openai-responses": ("openai-responses", "openai", "/v1/responses"),
    "mistral": ("mistral", "mistral", "/v1/chat/completions"),
    "groq": ("groq", "groq", "/openai/v1/chat/completions"),
    "google": ("google", "google", (":generateContent", ":streamGenerateContent")),
    "deepseek": ("compat/deepseek", None, "/chat/completions"),
    "cerebras": ("compat/cerebras", None, "/chat/completions"),
    "ollama": ("compat/ollama", None, "/chat/completions"),
    "openai-compatible": ("compat/together", None, "/chat/completions"),
    "openrouter": ("compat/openrouter", "openrouter", "/api/v1/chat/completions"),
    "bedrock": ("bedrock", "bedrock", ("/converse", "/converse-stream")),
}
# APIs with no recorded traffic of their own: targets of every recorded request
# (their answers and streams are the one Chat Completions codec's, checked by `openai`).
UNRECORDED = ("xai", "perplexity")


def calls(file: Any, provider: str | None) -> tuple[Interaction, ...]:
    cassette = load_cassette(file)
    return cassette.interactions if provider is None else cassette.for_provider(provider)


def answered(api: str) -> list[tuple[str, Interaction]]:
    """The API's answered calls in the corpus, by file."""
    folder, provider, path = APIS[api]
    return [
        (f"{file.parent.name}/{file.name}#{n}", interaction)
        for file in corpus_files(folder, "*.yaml")
        for n, interaction in enumerate(calls(file, provider))
        if (interaction.path or "").endswith(path) and interaction.response.status == 200
    ]


def missing(source: str) -> Any:
    """The one case of an API whose corpus folder holds nothing: it fails in CI
    and skips elsewhere (`from_corpus`)."""
    folder = APIS[source][0]
    return pytest.param(source, source, MissingCorpus((folder,)), id=f"missing-{folder}")


def pairs(kind: str) -> list[Any]:
    """One case per recorded body of `kind` and other API to translate it to."""
    cases = []
    for source in APIS:
        found = answered(source)
        if not found:
            cases.append(missing(source))
        for name, interaction in found:
            if kind == "request" and interaction.request is None:
                continue
            if kind == "response" and not isinstance(interaction.response.json, dict):
                continue  # a stream (Gemini's JSON-array streams among them)
            targets = (*APIS, *UNRECORDED) if kind == "request" else APIS
            cases += [
                pytest.param(source, target, interaction, id=f"{source}:{name}->{target}")
                for target in targets
                if target != source
            ]
    return cases


def without_calls(request: ChatRequest, dropped: list[str]) -> ChatRequest:
    """`request` without the tool calls and results a target left out (reported
    at their paths: Perplexity takes none)."""
    messages = tuple(
        message.model_copy(
            update={
                "parts": tuple(
                    part
                    for j, part in enumerate(message.parts)
                    if not isinstance(part, ToolCallPart | ToolResultPart)
                    or f"messages[{i}].parts[{j}]" not in dropped
                )
            }
        )
        for i, message in enumerate(request.messages)
    )
    return request.model_copy(update={"messages": messages})


# An assistant's content opening with reasoning inside `<think>` tags, as pydantic-ai
# sends Qwen's and Kimi's back to Bedrock: the reasoning of Groq, Cerebras and
# Perplexity, whose APIs write their models' reasoning so (Groq's `reasoning_format: raw`).
THINK = re.compile(r"\s*<think>.*?(?:</think>|\Z)\s*", re.DOTALL)


def said(request: ChatRequest) -> list[Any]:
    """Everything a request's messages say that every API carries: each
    message's text (its text parts joined: some APIs hold one string; a
    refusal is text where the API has no refusal), its tool calls' names and
    argument values, its tool results, in order (reasoning and files are the
    targets' to take or leave, and reported when left: reasoning written in
    `<think>` tags is reasoning, and a tool result's text telling that its
    files went in the next message, as Chat Completions sends them, no text
    of its own)."""
    found: list[Any] = []
    for message in request.messages:
        texts = [p.text for p in message.parts if isinstance(p, TextPart | RefusalPart)]
        if message.role == "assistant" and texts:
            texts[0] = THINK.sub("", texts[0], count=1) if THINK.match(texts[0]) else texts[0]
        if "".join(texts).strip():
            # System messages in a row are one system prompt where an API holds one.
            if message.role == "system" and found and found[-1][:2] == ("text", "system"):
                texts.insert(0, found.pop()[2])
            found.append(("text", message.role, "".join(texts)))
        for part in message.parts:
            match part:
                case ToolCallPart():
                    # The arguments' value: Anthropic's wire holds an object, not its text.
                    found.append(("call", part.name, json.loads(part.arguments or "{}")))
                case ToolResultPart():
                    content = [item.text for item in part.content if isinstance(item, TextPart)]
                    # A result's texts read as one, a blank line between (Gemini's `output`).
                    joined = "\n\n".join(content).replace(FILES_MOVED_NOTE, "")
                    found.append(("result", joined))
    return found


@pytest.mark.parametrize(("source", "target", "interaction"), pairs("request"))
def test_every_recorded_request_goes_to_every_other_api_and_back(
    source: str, target: str, interaction: Interaction | MissingCorpus
) -> None:
    recorded = from_corpus(interaction).request
    assert recorded is not None
    body = recorded.json
    request = get_adapter(source).decode_request(body)
    problems = validate_request(request, target=target)
    if any(problem.fix is None for problem in problems):
        with pytest.raises(InvalidDataError):
            translate_request(body, source=source, target=target)
        return
    there = translate_request(body, source=source, target=target)
    assert [(p.path, p.fix) for p in problems] == [(loss.path, loss.kind) for loss in there.losses]
    assert validate_request(get_adapter(target).decode_request(there.body), target=target) == []
    back = translate_request(there.body, source=target, target=source)
    returned = said(get_adapter(source).decode_request(back.body))
    # Perplexity takes no tools: the calls and results it left out (reported) do not come back.
    no_tools = target == "perplexity"
    sent = said(without_calls(request, [loss.path for loss in there.losses if no_tools]))
    if any(re.fullmatch(r"messages\[\d+\]", loss.path) for loss in [*there.losses, *back.losses]):
        # A turn the target's order rules put in or left out (reported): the rest in order
        # around it, the texts of one role that came to follow each other read as one.
        assert is_subsequence(joined(sent), joined(returned))
    else:
        # Adjacent system messages may come back as one (Anthropic's and Gemini's one prompt).
        assert systems_joined(returned) == systems_joined(sent)
    # Kept in the core, the request gives A, after B, exactly the body it came as.
    assert same_json(get_adapter(source).encode_request(request), body)


@pytest.mark.parametrize(("source", "target", "interaction"), pairs("response"))
def test_every_recorded_answer_goes_to_every_other_api_and_back(
    source: str, target: str, interaction: Interaction | MissingCorpus
) -> None:
    body = from_corpus(interaction).response.json
    there = translate_response(body, source=source, target=target)
    back = translate_response(there.body, source=target, target=source)
    original = get_adapter(source).decode_response(body)
    returned = get_adapter(source).decode_response(back.body)
    assert said_in(returned.message) == said_in(original.message)
    if not any(loss.path == "finish_reason" for loss in [*there.losses, *back.losses]):
        assert returned.finish_reason == original.finish_reason
    usage, before = returned.usage, original.usage
    assert (usage.input_tokens, usage.output_tokens) == (before.input_tokens, before.output_tokens)


def joined(items: list[Any]) -> list[Any]:
    """`said` with the texts of one role in a row joined, as one turn (compared
    without their white space: a target may join them with a blank line)."""
    out: list[Any] = []
    for item in items:
        if item[0] == "text":
            item = ("text", item[1], "".join(item[2].split()))
        if out and item[0] == "text" and out[-1][0] == "text" and out[-1][1] == item[1]:
            out[-1] = ("text", item[1], out[-1][2] + item[2])
        else:
            out.append(item)
    return out


def systems_joined(items: list[Any]) -> list[Any]:
    """`said` with the texts of system messages in a row joined, as one prompt."""
    out: list[Any] = []
    for item in items:
        if out and item[:2] == ("text", "system") and out[-1][:2] == ("text", "system"):
            out[-1] = ("text", "system", out[-1][2] + item[2])
        else:
            out.append(item)
    return out


def is_subsequence(items: list[Any], within: list[Any]) -> bool:
    rest = iter(within)
    return all(any(item == other for other in rest) for item in items)


def said_in(message: Message) -> list[Any]:
    return said(ChatRequest(model="m", messages=(message,)))


def test_a_loss_names_the_part_and_strict_mode_raises_on_the_first() -> None:
    body = ANTHROPIC_TOOL_TURN
    there = translate_request(body, source="anthropic", target="mistral")
    assert [(loss.path, loss.kind) for loss in there.losses][:2] == [
        ("messages[1].parts[0]", "dropped"),
        ("messages[1].parts[1].id", "transformed"),
    ]
    call = there.body["messages"][1]["tool_calls"][0]
    assert len(call["id"]) == 9
    assert call["function"]["arguments"] == '{"city":"Paris"}'
    with pytest.raises(TranslationError) as caught:
        translate_request(body, source="anthropic", target="mistral", strict=True)
    assert caught.value.path == "messages[1].parts[0]"


def test_validate_request_names_what_cannot_be_sent() -> None:
    call = ToolCallPart(id="call_1", name="f")
    request = ChatRequest(
        model="m",
        messages=(
            Message.user("Go"),
            Message.assistant(ReasoningPart(text="hm", provider="anthropic", signature="s"), call),
        ),
    )
    # Anthropic takes a last assistant turn as the start of its answer (a prefill).
    for target in ("openai", "openai-responses", "mistral", "groq"):
        problems = validate_request(request, target=target)
        assert any(p.fix is None and p.path == "messages[1].parts[1]" for p in problems), target


def test_an_unknown_adapter_name_is_a_clear_error() -> None:
    with pytest.raises(Exception, match="nosuch"):
        translate_request({}, source="nosuch", target="openai")


def streams() -> list[Any]:
    """One case per recorded stream and other API to translate it to."""
    cases = []
    for source in APIS:
        found = answered(source)
        if not found:
            cases.append(missing(source))
        cases += [
            pytest.param(source, target, interaction, id=f"{source}:{name}->{target}")
            for name, interaction in found
            if interaction.is_stream
            for target in APIS
            if target != source
        ]
    return cases


@pytest.mark.parametrize(("source", "target", "interaction"), streams())
def test_every_recorded_stream_translated_accumulates_to_the_translated_answer(
    source: str, target: str, interaction: Interaction | MissingCorpus
) -> None:
    payloads = list(from_corpus(interaction).response.stream_payloads())
    report = TranslationReport()
    translated = list(translate_stream(payloads, source=source, target=target, report=report))
    # The payloads as a client reads them: the `[DONE]` sentinel ends, it is no payload.
    payloads_out = [event.data for event in translated if event.data != "[DONE]"]
    streamed, error = accumulated(get_adapter(target).decode_stream(payloads_out))
    original, original_error = accumulated(get_adapter(source).decode_stream(payloads))
    assert error == original_error
    assert said_in(streamed.message) == said_in(original.message)
    assert (streamed.usage.input_tokens, streamed.usage.output_tokens) == (
        original.usage.input_tokens,
        original.usage.output_tokens,
    )
    # The fields of the source's answer itself the target has no place for, by name.
    assert {loss.path for loss in report.losses if loss.path.startswith("provider_data.")} == (
        answer_fields(original)
    )
    for loss in report.losses:
        assert loss.path.startswith(("message.", "finish_reason", "usage", "provider_data."))
    sent = b"".join(format_sse(translated)).decode()
    assert [
        event.json() if event.data != "[DONE]" else event.data for event in parse_sse(sent)
    ] == [event.data for event in translated]


def accumulated(events: Any) -> tuple[ChatResponse, str | None]:
    """The answer a stream gives, and the message of the error it ended in
    (OpenRouter's inside a 200 stream), if any: then the part that arrived."""
    accumulator = StreamAccumulator()
    for event in events:
        accumulator.add(event)
    error = accumulator.error
    return accumulator.finished(), None if error is None else error.message


# --- what one API's values carry that another cannot take, each by name ---


def cache_markers(body: dict[str, Any]) -> int:
    """The `cache_control` markers set in an Anthropic request body, counted on
    the wire: at its top, on its system blocks, its content blocks (and those
    inside tool results) and its tools."""
    blocks = [*(body.get("system") if isinstance(body.get("system"), list) else ())]
    for message in body["messages"]:
        content = message["content"]
        for block in content if isinstance(content, list) else ():
            blocks.append(block)
            inner = block.get("content")
            if block.get("type") == "tool_result" and isinstance(inner, list):
                blocks += inner
    owners = [body, *blocks, *body.get("tools", ())]
    return sum(owner.get("cache_control") is not None for owner in owners)


def cached_requests() -> list[Any]:
    """Every recorded Anthropic request with a cache marker, to each other API."""
    found = [
        (name, interaction)
        for name, interaction in answered("anthropic")
        if interaction.request is not None and cache_markers(interaction.request.json)
    ]
    if not found:
        return [missing("anthropic")]
    return [
        pytest.param("anthropic", target, interaction, id=f"{name}->{target}")
        for name, interaction in found
        for target in APIS
        if target != "anthropic"
    ]


@pytest.mark.parametrize(("source", "target", "interaction"), cached_requests())
def test_each_cache_marker_left_out_elsewhere_is_reported_by_name(
    source: str, target: str, interaction: Interaction | MissingCorpus
) -> None:
    recorded = from_corpus(interaction).request
    assert recorded is not None
    there = translate_request(recorded.json, source=source, target=target)
    named = [loss for loss in there.losses if loss.path.endswith("cache_control")]
    assert len(named) == cache_markers(recorded.json)
    assert all(loss.kind == "dropped" and "anthropic" in loss.reason for loss in named)
    assert "cache_control" not in json.dumps(there.body)


def test_each_setting_left_out_is_its_own_loss_and_the_end_user_goes_to_each_apis_field() -> None:
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Hi"}],
        "n": 2,
        "logprobs": True,
        "top_logprobs": 3,
        "user": "user-42",
    }
    settings = ["n", "logprobs", "top_logprobs"]
    user_field = {
        "anthropic": ("metadata", {"user_id": "user-42"}),
        "openai-responses": ("safety_identifier", "user-42"),
        "groq": ("user", "user-42"),
    }
    for target in ("anthropic", "openai-responses", "mistral", "groq"):
        there = translate_request(body, source="openai", target=target)
        dropped = [loss.path for loss in there.losses if loss.kind == "dropped"]
        assert [path for path in dropped if path.startswith("provider_options.")] == [
            f"provider_options.openai.{name}" for name in settings
        ], target
        assert not any(name in there.body for name in settings), target
        if target in user_field:
            key, value = user_field[target]
            assert there.body[key] == value, target
        else:  # Mistral has no field for it: said so
            assert "context.user_id" in dropped
            assert "user-42" not in json.dumps(there.body)
    back = translate_request(body, source="openai", target="openai")
    assert back.body == body
    assert back.losses == []


@pytest.mark.parametrize("target", [api for api in APIS if api != "anthropic"])
def test_another_apis_reasoning_goes_as_marked_text_only_by_option(target: str) -> None:
    marked = '<reasoning provider="anthropic">\nCall the tool.\n</reasoning>'
    left_out = translate_request(ANTHROPIC_TOOL_TURN, source="anthropic", target=target)
    assert ("messages[1].parts[0]", "dropped") in [(x.path, x.kind) for x in left_out.losses]
    assert "Call the tool." not in json.dumps(left_out.body)

    there = translate_request(
        ANTHROPIC_TOOL_TURN, source="anthropic", target=target, foreign_reasoning="text"
    )
    losses = [(loss.path, loss.kind) for loss in there.losses]
    assert ("messages[1].parts[0]", "transformed") in losses
    assert ("messages[1].parts[0]", "dropped") not in losses
    sent = json.dumps(there.body)
    assert json.dumps(marked)[1:-1] in sent
    assert "c2ln" not in sent  # the signature goes back to Anthropic only
    assert validate_request(get_adapter(target).decode_request(there.body), target=target) == []


def test_reasoning_as_text_never_changes_the_request_and_its_own_api_still_gets_reasoning() -> None:
    request = get_adapter("anthropic").decode_request(ANTHROPIC_TOOL_TURN)
    asked = request.model_copy(update={"foreign_reasoning": "text"})
    before = asked.model_dump_json()
    report = TranslationReport()
    get_adapter("openai").encode_request(asked, report=report)
    assert asked.model_dump_json() == before
    assert get_adapter("anthropic").encode_request(asked) == ANTHROPIC_TOOL_TURN
    redacted = Message.assistant(ReasoningPart(redacted_data="ZW5j", provider="anthropic"))
    hidden = ChatRequest(
        model="m", messages=(Message.user("Hi"), redacted, Message.user("Go")),
        foreign_reasoning="text",
    )  # fmt: skip
    report = TranslationReport()
    body = get_adapter("openai").encode_request(hidden, report=report)
    assert "ZW5j" not in json.dumps(body)
    assert (report.losses[0].path, report.losses[0].kind) == ("messages[1].parts[0]", "dropped")


def test_an_answers_citations_left_out_elsewhere_are_reported_by_name() -> None:
    cited = [
        (name, interaction)
        for name, interaction in answered("anthropic")
        if not interaction.is_stream
        and "citations" in json.dumps(interaction.response.json)
        and any(block.get("citations") for block in interaction.response.json["content"])
    ]
    if not cited:
        from_corpus(MissingCorpus(("anthropic",)))
    for _, interaction in cited:
        body = interaction.response.json
        # Each content block is one part (a block the core does not model, whole).
        expected = [
            f"message.parts[{k}].provider_data.anthropic.fields.citations"
            for k, block in enumerate(body["content"])
            if block.get("citations")
        ]
        for target in ("openai", "openai-responses", "mistral", "groq"):
            there = translate_response(body, source="anthropic", target=target)
            named = [x.path for x in there.losses if x.path.endswith(".citations")]
            assert named == expected, target


# --- a finish reason made elsewhere, as each API writes it ---

S, L, T, F, P, E = (
    FinishReason.STOP,
    FinishReason.LENGTH,
    FinishReason.TOOL_CALLS,
    FinishReason.CONTENT_FILTER,
    FinishReason.PAUSE,
    FinishReason.ERROR,
)
# The wire value each API's documentation gives a finish reason; None where it
# has none (then `stop`, or its like, is sent and the change reported).
CHAT_WIRE = {S: "stop", L: "length", T: "tool_calls", F: "content_filter"}
WIRE_FINISH: dict[str, dict[FinishReason, Any]] = {
    "anthropic": {S: "end_turn", L: "max_tokens", T: "tool_use", P: "pause_turn", F: "refusal"},
    "openai": CHAT_WIRE,
    # Groq's reference (its SDK's `ChatCompletion`) has no `content_filter`.
    "groq": {S: "stop", L: "length", T: "tool_calls"},
    "mistral": {S: "stop", L: "length", T: "tool_calls", E: "error"},
    "openai-responses": {
        S: ("completed", None),
        T: ("completed", None),
        L: ("incomplete", "max_output_tokens"),
        F: ("incomplete", "content_filter"),
        E: ("failed", None),
    },
}
FALLBACK = {"openai-responses": ("completed", None), "anthropic": "end_turn"}


def wire_finish(api: str, body: dict[str, Any]) -> Any:
    if api == "anthropic":
        return body["stop_reason"]
    if api == "openai-responses":
        return body["status"], (body.get("incomplete_details") or {}).get("reason")
    return body["choices"][0]["finish_reason"]


@pytest.mark.parametrize("api", list(WIRE_FINISH))
@pytest.mark.parametrize("reason", list(FinishReason))
def test_a_finish_reason_made_elsewhere_goes_as_the_apis_own_value(
    api: str, reason: FinishReason
) -> None:
    calls = [ToolCallPart(id="call_1", name="f", arguments="{}")] if reason is T else []
    made = ChatResponse(
        id="r1",
        model="m",
        provider="elsewhere",
        message=Message.assistant("Done.", *calls),
        finish_reason=reason,
        raw_finish_reason="elsewhere_only",
    )
    report = TranslationReport()
    adapter = get_adapter(api)

    body = adapter.encode_response(made, report=report)

    expected = WIRE_FINISH[api].get(reason)
    assert wire_finish(api, body) == (expected or FALLBACK.get(api, "stop"))
    changed = [(loss.path, loss.kind) for loss in report.losses]
    assert changed == ([] if expected else [("finish_reason", "transformed")])
    back = adapter.decode_response(body).finish_reason
    assert back is (reason if expected else FinishReason.STOP)


@pytest.mark.parametrize("api", ["anthropic", "openai", "groq", "mistral"])
def test_a_finish_reason_the_api_made_goes_back_raw_even_unknown(api: str) -> None:
    made = ChatResponse(
        id="r1",
        model="m",
        provider=get_adapter(api).PROVIDER,
        message=Message.assistant("Done."),
        finish_reason=FinishReason.OTHER,
        raw_finish_reason="a_new_reason",
    )

    body = get_adapter(api).encode_response(made, report=TranslationReport(strict=True))

    assert wire_finish(api, body) == "a_new_reason"


# --- usage counted elsewhere, under each API's own names ---

COUNTED = TokenUsage(
    input_tokens=100,
    output_tokens=40,
    cache_read_tokens=30,
    cache_write_tokens=20,
    reasoning_tokens=10,
)
CHAT_USAGE = {
    "prompt_tokens": 100,
    "completion_tokens": 40,
    "total_tokens": 140,
    "prompt_tokens_details": {"cached_tokens": 30, "cache_write_tokens": 20},
    "completion_tokens_details": {"reasoning_tokens": 10},
}
# Anthropic counts the input without its cache reads and writes.
WIRE_USAGE: dict[str, dict[str, Any]] = {
    "anthropic": {
        "input_tokens": 50,
        "cache_creation_input_tokens": 20,
        "cache_read_input_tokens": 30,
        "output_tokens": 40,
        "output_tokens_details": {"thinking_tokens": 10},
    },
    "openai": CHAT_USAGE,
    "groq": CHAT_USAGE,
    "mistral": CHAT_USAGE,
    "openai-responses": {
        "input_tokens": 100,
        "output_tokens": 40,
        "total_tokens": 140,
        "input_tokens_details": {"cached_tokens": 30, "cache_write_tokens": 20},
        "output_tokens_details": {"reasoning_tokens": 10},
    },
}


@pytest.mark.parametrize("api", list(WIRE_USAGE))
def test_usage_counted_elsewhere_goes_under_the_apis_own_names_and_reads_back(api: str) -> None:
    made = ChatResponse(
        id="r1",
        model="m",
        provider="elsewhere",
        message=Message.assistant("Done."),
        finish_reason=FinishReason.STOP,
        usage=COUNTED,
    )
    adapter = get_adapter(api)

    body = adapter.encode_response(made, report=TranslationReport(strict=True))

    assert body["usage"] == WIRE_USAGE[api]
    assert adapter.decode_response(body).usage.model_copy(update={"details": {}}) == COUNTED


def test_a_responses_status_that_is_no_finish_reads_as_none() -> None:
    adapter = get_adapter("openai-responses")
    for status in ("in_progress", "queued"):
        body = {"id": "r1", "object": "response", "model": "m", "status": status, "output": []}
        response = adapter.decode_response(body)
        assert (response.finish_reason, response.raw_finish_reason) == (None, status)


# --- a request one API takes and another refuses, where a faithful form exists ---


def recorded_request(name: str) -> dict[str, Any]:
    """The body of the one request a fixture recorded (`fixtures/<name>`), answered 200."""
    (interaction,) = load_cassette(FIXTURES / name).interactions
    assert interaction.request is not None
    assert interaction.response.status == 200
    return interaction.request.json


def test_a_prefill_goes_to_mistral_as_its_prefix_and_comes_back_a_prefill() -> None:
    anthropic_body = recorded_request("anthropic/prefill.json")
    mistral_body = recorded_request("mistral/prefix.json")
    request = get_adapter("anthropic").decode_request(anthropic_body)

    there = translate_request(anthropic_body, source="anthropic", target="mistral")

    # Mistral's own form of the same request, silently: the last assistant message
    # with `prefix: true`.
    assert there.body["messages"] == mistral_body["messages"]
    assert there.losses == []
    strict = translate_request(anthropic_body, source="anthropic", target="mistral", strict=True)
    assert strict == there
    assert validate_request(request, target="mistral") == []
    back = translate_request(mistral_body, source="mistral", target="anthropic", strict=True)
    assert (back.body["system"], back.body["messages"]) == (
        anthropic_body["system"],
        anthropic_body["messages"],
    )
    assert back.losses == []


ASK = "Is it raining in Lisbon right now?"
WEATHER_TOOL = ToolSpec(
    name="get_weather",
    description="The current weather in a city.",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
# case -> (target, a request every other API takes as it is, what the target's body
# holds instead, the loss: its path, or None when the target's form means the same)
NEAREST_FORMS: dict[str, tuple[str, ChatRequest, dict[str, Any], str | None]] = {
    "prefill": (
        "mistral",
        ChatRequest(
            model="m", max_tokens=64, messages=(Message.user(ASK), Message.assistant('{"rain":'))
        ),
        {
            "messages": [
                {"role": "user", "content": ASK},
                {"role": "assistant", "content": '{"rain":', "prefix": True},
            ]
        },
        None,
    ),
    "temperature with reasoning": (
        "anthropic",
        ChatRequest(
            model="m",
            max_tokens=1024,
            temperature=0.6,
            reasoning=ReasoningConfig(effort="medium"),
            messages=(Message.user(ASK),),
        ),
        {"thinking": {"type": "adaptive"}, "output_config": {"effort": "medium"}},
        "temperature",
    ),
    "forced tool with reasoning": (
        "anthropic",
        ChatRequest(
            model="m",
            max_tokens=2048,
            tools=(WEATHER_TOOL,),
            tool_choice=ToolChoice.tool("get_weather"),
            reasoning=ReasoningConfig(effort="low"),
            messages=(Message.user(ASK),),
        ),
        {
            "tool_choice": {"type": "tool", "name": "get_weather"},
            "output_config": {"effort": "low"},
        },
        "reasoning",
    ),
    "max_tokens below 16": (
        "openai-responses",
        ChatRequest(model="m", max_tokens=8, messages=(Message.user(ASK),)),
        {"max_output_tokens": 16},
        "max_tokens",
    ),
}
# The APIs that refuse what a target refuses, and write no such request: Bedrock
# asks a model it does not know for Claude's thinking, with Claude's rules.
SAME_RULES = {"anthropic": ("bedrock",)}
# What the target's body no longer holds, by case.
LEFT_OUT = {
    "prefill": (),
    "temperature with reasoning": ("temperature",),
    "forced tool with reasoning": ("thinking",),
    "max_tokens below 16": (),
}


@pytest.mark.parametrize(
    ("case", "source"),
    [
        (case, source)
        for case, (target, *_) in NEAREST_FORMS.items()
        for source in APIS
        if source not in (target, *SAME_RULES.get(target, ()))
    ],
)
def test_a_request_the_target_refuses_goes_in_the_nearest_form_it_takes(
    case: str, source: str
) -> None:
    target, request, nearest, changed = NEAREST_FORMS[case]
    body = get_adapter(source).encode_request(request, report=TranslationReport(strict=True))

    there = translate_request(body, source=source, target=target)

    assert {key: there.body.get(key) for key in nearest} == nearest
    assert not set(LEFT_OUT[case]) & there.body.keys()
    expected = [] if changed is None else [(changed, "transformed")]
    assert [(loss.path, loss.kind) for loss in there.losses] == expected
    problems = validate_request(get_adapter(source).decode_request(body), target=target)
    assert [(p.path, p.fix, p.rule) for p in problems] == [
        (loss.path, loss.kind, loss.reason) for loss in there.losses
    ]
    if changed is None:
        assert translate_request(body, source=source, target=target, strict=True) == there
        return
    with pytest.raises(TranslationError) as caught:
        translate_request(body, source=source, target=target, strict=True)
    assert (caught.value.path, caught.value.kind) == (changed, "transformed")


@pytest.mark.parametrize(
    ("fixture", "source", "target", "body", "changed"),
    [
        (
            "groq/reasoning_with_temperature.json",
            "groq",
            "anthropic",
            {
                "model": "openai/gpt-oss-20b",
                "max_tokens": 1024,
                "thinking": {"type": "adaptive"},
                "output_config": {"effort": "medium"},
                "messages": [{"role": "user", "content": "Give one short name for a grey cat."}],
            },
            ("temperature", "0.6", "`temperature` may only be set to 1 when thinking is enabled"),
        ),
        (
            "openai/chat_forced_tool_reasoning.json",
            "openai",
            "anthropic",
            {
                "model": "o4-mini",
                "max_tokens": 2048,
                "tool_choice": {"type": "tool", "name": "get_weather"},
                "output_config": {"effort": "low"},
                "messages": [{"role": "user", "content": ASK}],
                "tools": [
                    {
                        "name": "get_weather",
                        "description": "The current weather in a city.",
                        "input_schema": WEATHER_TOOL.parameters,
                    }
                ],
            },
            ("reasoning", "tool", "Thinking may not be enabled when tool_choice forces tool use"),
        ),
        (
            "openai/chat_short_limit.json",
            "openai",
            "openai-responses",
            {
                "model": "gpt-4.1-mini",
                "input": [
                    {"role": "user", "content": "Name the planets of the solar system, in order."}
                ],
                "max_output_tokens": 16,
            },
            ("max_tokens", "not 8", "at least 16"),
        ),
    ],
)
def test_a_recorded_request_the_target_refuses_goes_changed_a_little_and_reported(
    fixture: str, source: str, target: str, body: dict[str, Any], changed: tuple[str, ...]
) -> None:
    recorded = recorded_request(fixture)
    path, *said = changed

    there = translate_request(recorded, source=source, target=target)

    assert same_json(there.body, body)
    assert [(loss.path, loss.kind) for loss in there.losses] == [(path, "transformed")]
    assert all(words in there.losses[0].reason for words in said)
    (problem,) = validate_request(get_adapter(source).decode_request(recorded), target=target)
    assert (problem.path, problem.fix, problem.rule) == (
        path,
        "transformed",
        there.losses[0].reason,
    )
    with pytest.raises(TranslationError) as caught:
        translate_request(recorded, source=source, target=target, strict=True)
    assert (caught.value.path, caught.value.kind) == (path, "transformed")
