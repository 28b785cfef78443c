"""Property tests over generated conversations: encoding never changes the
history it is given, and a request in A's format translated to B and back to
A says the same (every text, tool call and tool result) as before."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from interlingua import (
    ChatRequest,
    Message,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    TranslationReport,
    get_adapter,
    translate_request,
)

APIS = [
    "anthropic",
    "openai",
    "openai-responses",
    "mistral",
    "groq",
    "deepseek",
    "cerebras",
    "ollama",
    "openai-compatible",
]

words = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=20
).filter(str.strip)
names = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
arguments = st.dictionaries(names, st.integers(-100, 100) | words | st.booleans(), max_size=3)
call_ids = st.from_regex(r"(call_|toolu_|fc_)?[a-zA-Z0-9]{1,30}", fullmatch=True)


@st.composite
def turns(draw: st.DrawFn) -> list[Message]:
    """A user question, and the assistant's answer: text, or tool calls and their results."""
    messages = [Message.user(draw(words))]
    calls = draw(
        st.lists(st.tuples(call_ids, names, arguments), max_size=3, unique_by=lambda c: c[0])
    )
    if not calls:
        return [*messages, Message.assistant(draw(words))]
    parts = [ToolCallPart(id=i, name=n, arguments=json.dumps(a)) for i, n, a in calls]
    results = [
        ToolResultPart(tool_call_id=i, content=(TextPart(text=draw(words)),)) for i, _, _ in calls
    ]
    return [*messages, Message.assistant(*parts), Message(role="tool", parts=tuple(results))]


@st.composite
def requests(draw: st.DrawFn) -> ChatRequest:
    messages = [
        message for turn in draw(st.lists(turns(), min_size=1, max_size=3)) for message in turn
    ]
    if messages[-1].role == "assistant":
        messages.append(Message.user(draw(words)))
    return ChatRequest(model="model-1", messages=tuple(messages), max_tokens=1000)


def said(request: ChatRequest) -> list[Any]:
    """Each message's text, and its tool calls (name and argument value) and results."""
    found: list[Any] = []
    for message in request.messages:
        if text := "".join(p.text for p in message.parts if isinstance(p, TextPart)):
            found.append((message.role, text))
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                found.append((part.name, json.loads(part.arguments)))
            elif isinstance(part, ToolResultPart):
                found.append(
                    tuple(item.text for item in part.content if isinstance(item, TextPart))
                )
    return found


@settings(max_examples=25, deadline=None)
@given(requests(), st.sampled_from(APIS))
def test_encoding_never_changes_the_history(request: ChatRequest, target: str) -> None:
    before = request.model_dump_json()
    get_adapter(target).encode_request(request, report=TranslationReport())
    assert request.model_dump_json() == before


@settings(max_examples=25, deadline=None)
@given(requests(), st.sampled_from(APIS), st.sampled_from(APIS))
def test_a_to_b_to_a_says_the_same(request: ChatRequest, source: str, target: str) -> None:
    body = get_adapter(source).encode_request(request, report=TranslationReport())
    there = translate_request(body, source=source, target=target)
    back = translate_request(there.body, source=target, target=source)
    returned = said(get_adapter(source).decode_request(back.body))
    before = said(get_adapter(source).decode_request(body))
    if any(re.fullmatch(r"messages\[\d+\]", loss.path) for loss in there.losses):
        # A turn B's order rules put in (reported): the rest in order around it.
        rest = iter(returned)
        assert all(any(item == other for other in rest) for item in before)
    else:
        assert returned == before
