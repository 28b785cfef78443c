"""What the Chat Completions corpus tests share (Groq, Mistral, OpenRouter and
the compatible servers): which calls of a corpus file a dialect's tests read,
the three round trips every call is checked by, and the facts of a request
and an answer the core models, with the pieces of reading them from the wire
that the dialects write alike.

A dialect's test module names its `ChatCorpus` (its folders, and which calls
are its chat calls), reads the wire its own way where its wire differs, and
checks each call with `assert_request_round_trips` and
`assert_response_round_trips`, and each stream with
`assert_stream_is_the_answer` (against the answer its test rebuilds from the
chunks) or `assert_stream_written_again` (the adapter's own stream of it;
the xAI and Perplexity tests check their own fixtures' streams with it too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from conftest import (
    MissingCorpus,
    cassette,
    corpus_files,
    corpus_params,
    from_corpus,
    same_json,
    strict,
    usage_counts,
)
from interlingua import (
    ChatRequest,
    ChatResponse,
    FilePart,
    FinishReason,
    Message,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    TranslationReport,
    accumulate,
)
from interlingua.testing import Interaction

# The finish reasons of OpenAI's Chat Completions, which most dialects keep.
FINISH_REASONS = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "content_filter": FinishReason.CONTENT_FILTER,
}
TOOL_CHOICES = {"auto": ("auto", None), "none": ("none", None), "required": ("required", None)}

Facts = Callable[[Any], Any]


@dataclass(frozen=True)
class ChatCorpus:
    """A dialect's corpus folders and which calls of a file are its chat calls."""

    folders: tuple[str, ...]
    is_chat_call: Callable[[Interaction], bool]

    def calls(self, param: Path | MissingCorpus) -> list[Interaction]:
        """The file's chat calls, in the order they were recorded."""
        return [
            call for call in cassette(from_corpus(param)).interactions if self.is_chat_call(call)
        ]

    def files_with(
        self, kind: Callable[[Interaction], bool], holding: str
    ) -> list[Path | MissingCorpus]:
        """The files of the folders holding a chat call of `kind`."""
        return corpus_params(
            *self.folders, keep=lambda path: any(map(kind, self.calls(path))), holding=holding
        )

    def every_call(self, folder: str) -> list[Interaction]:
        """The chat calls of every file of `folder`."""
        return [call for path in corpus_files(folder) for call in self.calls(path)]


def posts_to(path: str, provider: str | None = None) -> Callable[[Interaction], bool]:
    """Whether a call is a POST to `path` (of `provider`'s host, when named)."""

    def posted(call: Interaction) -> bool:
        return (
            call.request is not None
            and call.request.method == "POST"
            and call.path == path
            and (provider is None or call.provider == provider)
        )

    return posted


def any_call(call: Interaction) -> bool:
    return True


# --- the round trips every call is checked by ---


def assert_request_round_trips(
    adapter: ModuleType, body: dict[str, Any], facts: Facts, wire_facts: Facts
) -> None:
    """`body` decodes and encodes back to itself with nothing reported, and
    `facts` of the request are `wire_facts` of the body."""
    report = TranslationReport()

    request = adapter.decode_request(body)

    assert same_json(adapter.encode_request(request, report=report), body)
    assert report.losses == []
    assert facts(request) == wire_facts(body)


def assert_response_round_trips(
    adapter: ModuleType, body: dict[str, Any], facts: Facts, wire_facts: Facts
) -> None:
    """`body` decodes and encodes back to itself, strictly, and `facts` of the
    response are `wire_facts` of the body."""
    response = adapter.decode_response(body)

    assert same_json(adapter.encode_response(response, report=strict()), body)
    assert facts(response) == wire_facts(body)


def assert_stream_is_the_answer(
    adapter: ModuleType,
    payloads: list[dict[str, Any]],
    answer: dict[str, Any],
    facts: Facts,
    wire_facts: Facts,
) -> None:
    """The stream accumulates to `answer` (the body its chunks describe, built
    without the adapter): the same facts, the same response as the body
    decoded, and it encodes back to the body."""
    streamed = accumulate(adapter.decode_stream(payloads))

    assert facts(streamed) == wire_facts(answer)
    assert streamed == adapter.decode_response(answer)
    assert same_json(adapter.encode_response(streamed, report=strict()), answer)


def assert_stream_written_again(adapter: ModuleType, payloads: list[dict[str, Any]]) -> None:
    """The stream the adapter writes for what `payloads` decode to ends with
    `[DONE]` and accumulates to the same answer."""
    events = list(adapter.decode_stream(payloads))

    written = [event.data for event in adapter.encode_stream(events, report=strict())]

    assert written[-1] == "[DONE]"
    assert accumulate(adapter.decode_stream(written[:-1])) == accumulate(events)


# --- what the core models ---


def request_facts(
    request: ChatRequest, messages: Callable[[Message], Any] | None = None
) -> dict[str, Any]:
    """The model, settings, response format, tools, tool choice and messages
    (each read by `messages`, `message_facts` by default) of a request."""
    choice, form = request.tool_choice, request.response_format
    return {
        "model": request.model,
        "settings": (
            request.max_tokens,
            request.temperature,
            request.top_p,
            request.seed,
            request.stream,
        ),
        "response_format": None
        if form is None
        else (form.type, form.name, form.description, form.json_schema, form.strict),
        "tools": [(tool.name, tool.description, tool.parameters) for tool in request.tools],
        "tool_choice": None if choice is None else (choice.mode, choice.name),
        "messages": [(messages or message_facts)(message) for message in request.messages],
    }


def message_facts(message: Message) -> tuple[Any, ...]:
    """A message's role, text, reasoning, tool calls, tool results and how many
    files it holds (those inside its tool results too)."""
    parts = message.parts
    results = [part for part in parts if isinstance(part, ToolResultPart)]
    files = [part for part in parts if isinstance(part, FilePart)]
    files += [item for result in results for item in result.content if isinstance(item, FilePart)]
    return (
        message.role,
        "".join(part.text for part in parts if isinstance(part, TextPart)),
        [(part.provider, part.text) for part in parts if isinstance(part, ReasoningPart)],
        [(part.id, part.name, part.arguments) for part in parts if isinstance(part, ToolCallPart)],
        [(result.tool_call_id, result.text) for result in results],
        len(files),
    )


def answer_facts(response: ChatResponse) -> dict[str, Any]:
    """An answer's ids, text, each reasoning part (with its signature and
    encrypted data), tool calls, finish reason and every usage count."""
    parts = response.message.parts
    return {
        "answer": (response.provider, response.id, response.model),
        "text": "".join(part.text for part in parts if isinstance(part, TextPart)),
        "reasoning": [
            (part.provider, part.text, part.signature, part.redacted_data)
            for part in parts
            if isinstance(part, ReasoningPart)
        ],
        "tool_calls": [
            (part.id, part.name, part.arguments) for part in parts if isinstance(part, ToolCallPart)
        ],
        "finish": (response.finish_reason, response.raw_finish_reason),
        "usage": usage_counts(response.usage),
    }


# --- the same, read from the wire ---


def wire_request_facts(
    body: dict[str, Any],
    messages: Callable[[dict[str, Any]], Any],
    *,
    max_tokens: tuple[str, ...] = ("max_completion_tokens", "max_tokens"),
    seed: str = "seed",
    choices: Mapping[str, tuple[str, None]] = TOOL_CHOICES,
) -> dict[str, Any]:
    """`request_facts` of a request body, read without the adapter: each
    message by `messages`, the token limit from the first of the dialect's
    `max_tokens` fields the body has, its `seed` field and its words for the
    tool choices."""
    return {
        "model": body["model"],
        "settings": (
            next((body[field] for field in max_tokens if field in body), None),
            body.get("temperature"),
            body.get("top_p"),
            body.get(seed),
            body.get("stream", False),
        ),
        "response_format": wire_response_format(body.get("response_format")),
        "tools": wire_tools(body),
        "tool_choice": wire_tool_choice(body.get("tool_choice"), choices),
        "messages": [messages(message) for message in body["messages"]],
    }


def wire_tool_choice(
    choice: str | dict[str, Any] | None, choices: Mapping[str, tuple[str, None]] = TOOL_CHOICES
) -> tuple[str, str | None] | None:
    """A body's `tool_choice` as the core's mode and tool name. An object is a
    named tool in the documented form, `{"type": "function", "function":
    {"name": ...}}`, or with its `type` left out (the Hugging Face router's
    client); another is not a choice the core models, and stays the body's own."""
    match choice:
        case None:
            return None
        case {"function": {"name": str(name)} as function} if len(function) == 1 and (
            choice.keys() == {"function"} or choice == {"type": "function", "function": function}
        ):
            return ("tool", name)
        case dict():
            return None
    return choices[choice]


def wire_response_format(form: dict[str, Any] | None) -> tuple[Any, ...] | None:
    """A body's `response_format` as the core's type, name, description,
    schema and strictness."""
    if form is None:
        return None
    schema = form.get("json_schema") or {}
    return (
        form["type"],
        schema.get("name"),
        schema.get("description"),
        schema.get("schema"),
        schema.get("strict"),
    )


def wire_tools(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The name, description and parameters of each function a body offers."""
    functions = [tool["function"] for tool in body.get("tools") or [] if "function" in tool]
    return [(f["name"], f.get("description"), f.get("parameters")) for f in functions]


def wire_finish(reason: str | None, reasons: Mapping[str, FinishReason] = FINISH_REASONS) -> Any:
    """A choice's `finish_reason` as the core's reason and the raw one."""
    return (reasons.get(reason or "", FinishReason.OTHER), reason)


def wire_usage(usage: dict[str, Any], cache_read: int, cache_write: int = 0) -> tuple[int, ...]:
    """A usage object's counts in `usage_counts`' order, the cache counts as
    the dialect reads them."""
    return (
        usage["prompt_tokens"],
        usage["completion_tokens"],
        usage["total_tokens"],
        cache_read,
        cache_write,
        (usage.get("completion_tokens_details") or {}).get("reasoning_tokens", 0),
    )


# --- the answer a stream describes, rebuilt from its raw chunks ---


def assert_known(value: Mapping[str, Any], fields: frozenset[str], what: str) -> None:
    """A chunk (or choice, or delta) holds only the fields the corpus was known to hold."""
    assert set(value) <= fields, f"a {what} the corpus was not known to hold: {value}"


def grow_call(
    calls: dict[int, dict[str, Any]], fragment: dict[str, Any], *, indexed: bool = False
) -> None:
    """One tool-call fragment added to the call of its `index` (the id, type and
    name come in the first). `indexed`: Mistral's shape, where a fragment may
    have no `index` (its call is then the first) and the call keeps it."""
    index = fragment.get("index", 0) if indexed else fragment["index"]
    function = fragment.get("function") or {}
    call = calls.setdefault(index, {"function": {"arguments": "", "name": ""}})
    if indexed:
        call.setdefault("index", index)
    call["function"]["name"] = call["function"]["name"] or function.get("name", "")
    call["function"]["arguments"] += function.get("arguments") or ""
    for field in ("id", "type"):
        if fragment.get(field):
            call.setdefault(field, fragment[field])
