"""Property tests: every core value survives JSON, histories survive files, usage adds up."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interlingua import (
    ChatHistory,
    ChatRequest,
    ChatResponse,
    ContentPart,
    FilePart,
    FinishReason,
    Message,
    OpaquePart,
    ReasoningConfig,
    ReasoningPart,
    RefusalPart,
    ResponseFormat,
    TextPart,
    TokenUsage,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    ToolSpec,
)

text = st.text(max_size=30)
names = st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)
json_scalars = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | text
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=3),
    max_leaves=8,
)
provider_data = st.dictionaries(
    st.sampled_from(["anthropic", "openai", "mistral"]),
    st.dictionaries(names, json_values, max_size=2),
    max_size=2,
)

text_parts = st.builds(TextPart, text=text, provider_data=provider_data)
file_parts = st.one_of(
    st.builds(FilePart, media_type=st.just("image/png"), data=st.just("aGVsbG8=")),
    st.builds(FilePart, media_type=st.just("application/pdf"), url=text, filename=st.none() | text),
    st.builds(FilePart, media_type=st.just("image/jpeg"), file_id=names, detail=st.none() | text),
)
reasoning_parts = st.builds(
    ReasoningPart,
    text=text,
    signature=st.none() | text,
    redacted_data=st.none() | text,
    provider=st.none() | st.sampled_from(["anthropic", "mistral", "groq"]),
)
tool_calls = st.builds(ToolCallPart, id=names, name=names, arguments=text)
tool_results = st.builds(
    ToolResultPart,
    tool_call_id=names,
    name=st.none() | names,
    content=st.lists(text_parts | file_parts, max_size=2).map(tuple),
    is_error=st.booleans(),
)
opaque_parts = st.builds(
    OpaquePart, provider=names, data=st.dictionaries(names, json_values, max_size=3)
)
refusals = st.builds(RefusalPart, text=text)


def _message(role: str, parts: st.SearchStrategy[ContentPart]) -> st.SearchStrategy[Message]:
    return st.builds(
        Message,
        role=st.just(role),
        parts=st.lists(parts, max_size=4).map(tuple),
        id=st.none() | names,
        metadata=st.dictionaries(names, json_values, max_size=2),
    )


messages = st.one_of(
    _message("system", text_parts),
    _message("user", text_parts | file_parts | opaque_parts),
    _message(
        "assistant",
        text_parts | file_parts | reasoning_parts | tool_calls | refusals | opaque_parts,
    ),
    _message("tool", tool_results),
)
usages = st.builds(
    TokenUsage,
    input_tokens=st.integers(0, 10**6),
    output_tokens=st.integers(0, 10**6),
    cache_read_tokens=st.integers(0, 10**6),
    cache_write_tokens=st.integers(0, 10**6),
    reasoning_tokens=st.integers(0, 10**6),
    details=st.dictionaries(names, st.integers(0, 1000), max_size=3),
)
requests = st.builds(
    ChatRequest,
    model=names,
    messages=st.lists(messages, max_size=4).map(tuple),
    tools=st.lists(
        st.builds(
            ToolSpec, name=names, description=st.none() | text, strict=st.none() | st.booleans()
        ),
        max_size=2,
    ).map(tuple),
    tool_choice=st.none() | st.sampled_from([ToolChoice.auto(), ToolChoice.tool("f")]),
    max_tokens=st.none() | st.integers(1, 10**5),
    temperature=st.none() | st.floats(0, 2),
    stop=st.lists(text, max_size=2).map(tuple),
    reasoning=st.none() | st.builds(ReasoningConfig, budget_tokens=st.none() | st.integers(1, 9)),
    response_format=st.none() | st.just(ResponseFormat(type="json_object")),
    provider_options=st.dictionaries(names, st.dictionaries(names, json_values, max_size=2)),
)
responses = st.builds(
    ChatResponse,
    id=st.none() | names,
    model=st.none() | names,
    provider=st.none() | names,
    message=_message("assistant", text_parts | reasoning_parts | tool_calls),
    finish_reason=st.none() | st.sampled_from(FinishReason),
    raw_finish_reason=st.none() | text,
    usage=usages,
    provider_data=provider_data,
)


@given(messages)
def test_a_message_survives_json(message: Message) -> None:
    assert Message.model_validate_json(message.model_dump_json()) == message


@given(requests)
def test_a_request_survives_json(request: ChatRequest) -> None:
    assert ChatRequest.model_validate_json(request.model_dump_json()) == request


@given(responses)
def test_a_response_survives_json(response: ChatResponse) -> None:
    assert ChatResponse.model_validate_json(response.model_dump_json()) == response


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=30)
@given(st.lists(messages, max_size=6), usages)
def test_a_history_survives_a_file(
    tmp_path: Path, history: list[Message], usage: TokenUsage
) -> None:
    path = tmp_path / "h.json"
    original = ChatHistory(messages=history, usage=usage, metadata={"k": [1, "two"]})
    original.save(path)
    assert ChatHistory.load(path) == original


@given(usages, usages, usages)
def test_usage_addition_is_associative_and_commutative(
    a: TokenUsage, b: TokenUsage, c: TokenUsage
) -> None:
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert sum([a, b, c]) == a + b + c
    assert (a + b).total_tokens == a.total_tokens + b.total_tokens


def test_a_whole_number_setting_stays_a_whole_number() -> None:
    dumped = ChatRequest(model="m", temperature=1, top_p=0.5).model_dump_json()
    assert '"temperature":1,' in dumped
    assert '"top_p":0.5,' in dumped
