"""interlingua beside its peers: the same work, one row a path, timed in turn.

A `Contest` is one path a user compares libraries on: a chat history to each
provider's body, the gateway's full path from one API's body to another's, a
response body to a response object, a stream to its accumulated answer, an
import, the memory a history takes. Its interlingua step and each peer's way
through the same work (`bench.peers`: LiteLLM, pydantic-ai, and the provider's
own SDK where it accumulates streams) are timed in turn, in the same rounds
(`measure_all`); a row's ratio is interlingua's time over the fastest peer's,
round by round, and its median. Where there is a floor of the work itself
(`json.loads` of a stream's chunks, pydantic alone for an import, the parsed
dicts for memory) its ratio is shown beside; a Chat Completions dialect's
row (DeepSeek, Cerebras, Ollama, OpenAI-compatible servers, OpenRouter, xAI,
Perplexity) shows there its ratio to the Chat Completions encoder, the codec
it is built on.

Every path starts from what its peers start from: parsed JSON bodies (a
proxy's input) or each library's own history objects, built from one script
(`bench.histories`, `bench.gemini`, `bench.bedrock`) before timing; a Converse
stream starts from the events boto3 yields, its floor `json.loads` of their
payloads.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import interlingua_anthropic
import interlingua_bedrock
import interlingua_cerebras
import interlingua_deepseek
import interlingua_google
import interlingua_groq
import interlingua_mistral
import interlingua_ollama
import interlingua_openai
import interlingua_openai_compatible
import interlingua_openrouter
import interlingua_perplexity
import interlingua_xai
from bench import bedrock, gemini
from bench.histories import History, Stream, build_history, build_responses, build_streams
from interlingua import ChatRequest, TranslationReport, accumulate, translate_request

__all__ = [
    "CONTESTS",
    "DIALECTS",
    "IMPORT_CONTESTS",
    "MEMORY_PATH",
    "MODELS",
    "PEERS",
    "Contest",
    "Entry",
    "ImportContest",
    "Inputs",
    "build_inputs",
    "contest_names",
    "dialect_path",
]

Step = Callable[[], object]
Body = dict[str, Any]

PEERS = ("litellm", "pydantic-ai", "sdk")  # the columns: "sdk" is the provider's own SDK
MODELS = {
    "anthropic": "claude-sonnet-4-5",
    "chat": "gpt-4o",
    "mistral": "mistral-large-latest",
    "groq": "llama-3.3-70b-versatile",
    "gemini": gemini.MODEL,
    "bedrock": bedrock.MODEL,
}
# The Chat Completions dialects, each with a model of its provider's: each has a
# row of its own, the history encoded to its body, beside the Chat Completions
# encoder (the codec they share) in the same rounds.
DIALECTS: dict[str, tuple[Any, str]] = {
    "deepseek": (interlingua_deepseek, "deepseek-v4-flash"),
    "cerebras": (interlingua_cerebras, "gpt-oss-120b"),
    "ollama": (interlingua_ollama, "gpt-oss:20b"),
    "openai-compatible": (interlingua_openai_compatible, "meta-llama/Llama-3.1-8B-Instruct"),
    "openrouter": (interlingua_openrouter, "anthropic/claude-sonnet-4.5"),
    "xai": (interlingua_xai, "grok-3-mini"),
    "perplexity": (interlingua_perplexity, "sonar"),
}
MODELS.update({name: model for name, (_, model) in DIALECTS.items()})

FULL_CHAT_TO_ANTHROPIC = "chat body -> anthropic body, full path"
FULL_ANTHROPIC_TO_CHAT = "anthropic body -> chat body, full path"
CHAT_TO_HISTORY = "chat body -> history objects"
ANTHROPIC_TO_HISTORY = "anthropic body -> history objects"
OWN_TO_ANTHROPIC = "own history objects -> anthropic body"
TO_CHAT = "history -> chat body"
TO_MISTRAL = "history -> mistral body"
TO_GROQ = "history -> groq body"
TO_GEMINI = "history -> gemini body"
FULL_CHAT_TO_GEMINI = "chat body -> gemini body, full path"
TO_BEDROCK = "history -> bedrock converse body"
ANTHROPIC_RESPONSE = "anthropic response -> response object"
CHAT_RESPONSE = "chat response -> response object"
GEMINI_RESPONSE = "gemini response -> response object"
BEDROCK_RESPONSE = "bedrock converse response -> response object"
ANTHROPIC_STREAM = "anthropic stream -> accumulated"
CHAT_STREAM = "chat stream -> accumulated"
GEMINI_STREAM = "gemini stream -> accumulated"
BEDROCK_STREAM = "bedrock converse stream -> accumulated"
MEMORY_PATH = "memory: history (bytes)"


@dataclass(frozen=True)
class Inputs:
    """What the paths start from: a history of `size` messages in each API's
    body, and one answer and one stream of `chunks` payloads in each API's."""

    size: int
    history: History
    gemini: Body  # the history as a `generateContent` body
    bedrock: Body  # the history as a Converse body
    responses: dict[str, Body]  # by API: "anthropic", "chat", "gemini", "bedrock"
    streams: dict[str, Stream]  # by API, as above

    def core(self, api: str, model: str | None = None) -> ChatRequest:
        """interlingua's history: the core request `api`'s body decodes to."""
        if api == "gemini":
            request = interlingua_google.decode_request(self.gemini)
        elif api == "bedrock":
            request = interlingua_bedrock.decode_request(self.bedrock, model=MODELS["bedrock"])
        else:
            request = CODECS[api].decode_request(self.history.bodies[api])
        return request if model is None else request.model_copy(update={"model": model})


CODECS: dict[str, Any] = {
    "anthropic": interlingua_anthropic,
    "chat": interlingua_openai,
    "mistral": interlingua_mistral,
    "groq": interlingua_groq,
    "gemini": interlingua_google,
    "bedrock": interlingua_bedrock,
    **{name: codec for name, (codec, _) in DIALECTS.items()},
}


def build_inputs(size: int, chunks: int) -> Inputs:
    streams = build_streams(chunks)
    return Inputs(
        size=size,
        history=build_history(size),
        gemini=gemini.build_body(size),
        bedrock=bedrock.build_body(size),
        responses={
            **build_responses(),
            "gemini": gemini.build_response(),
            "bedrock": bedrock.build_response(),
        },
        streams={
            "anthropic": streams["anthropic"],
            "chat": streams["chat"],
            "gemini": Stream(*gemini.build_stream(chunks)),
            "bedrock": Stream(*bedrock.build_stream(chunks)),
        },
    )


@dataclass(frozen=True)
class Entry:
    """A peer's way through a path's work: `make(inputs)` gives the timed step."""

    make: Callable[[Inputs], Step]
    note: str


@dataclass(frozen=True)
class Contest:
    """A path: interlingua's step, and its floor (a name and a step) if any."""

    path: str
    scale: Literal["messages", "chunks", "none"]  # what the row's size counts
    ours: Callable[[Inputs], Step]
    floor: tuple[str, Callable[[Inputs], Step]] | None = None
    note: str = ""


@dataclass(frozen=True)
class ImportContest:
    """An import in a fresh process: interlingua's modules, each peer's."""

    path: str
    ours: tuple[str, ...]
    peers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    floor: tuple[str, ...] = ("pydantic.main",)  # pydantic's BaseModel: the core's one dependency


# --- interlingua's steps -------------------------------------------------------


def _translated(api: str, source: str, target: str) -> Callable[[Inputs], Step]:
    def make(inputs: Inputs) -> Step:
        body = inputs.history.bodies[api]
        return lambda: translate_request(body, source=source, target=target)

    return make


def _encoded(api: str, target: str) -> Callable[[Inputs], Step]:
    """The target's encoder, of the core request `api`'s body decodes to."""

    def make(inputs: Inputs) -> Step:
        request, encode = inputs.core(api, MODELS[target]), CODECS[target].encode_request
        return lambda: encode(request, report=TranslationReport())

    return make


def _decoded(api: str) -> Callable[[Inputs], Step]:
    def make(inputs: Inputs) -> Step:
        body, decode = inputs.responses[api], CODECS[api].decode_response
        return lambda: decode(body)

    return make


def _request_decoded(api: str) -> Callable[[Inputs], Step]:
    def make(inputs: Inputs) -> Step:
        body, decode = inputs.history.bodies[api], CODECS[api].decode_request
        return lambda: decode(body)

    return make


def _validated(api: str) -> tuple[str, Callable[[Inputs], Step]]:
    """pydantic's floor of a decoder: `ChatRequest.model_validate` of the tree
    (the core request's dump) the decoder builds."""

    def make(inputs: Inputs) -> Step:
        tree = inputs.core(api).model_dump()
        return lambda: ChatRequest.model_validate(tree)

    return MODEL_VALIDATE, make


def _accumulated(api: str) -> Callable[[Inputs], Step]:
    def make(inputs: Inputs) -> Step:
        payloads, decode = inputs.streams[api].payloads, CODECS[api].decode_stream
        return lambda: accumulate(decode(payloads))

    return make


def _loads(api: str) -> tuple[str, Callable[[Inputs], Step]]:
    def make(inputs: Inputs) -> Step:
        texts = inputs.streams[api].texts
        return lambda: [json.loads(text) for text in texts]

    return "json.loads", make


_TRANSLATE = "interlingua: translate_request of the parsed body"
_ACCUMULATE = "interlingua: accumulate(decode_stream(payloads))"
_DECODE = "interlingua: decode_request of the parsed body"


def _encode_note(api: str) -> str:
    return f"interlingua: encode_request of the ChatRequest the {api} body decodes to"


def dialect_path(name: str) -> str:
    """The row of a Chat Completions dialect: the history to its body."""
    return f"history -> {name} body"


CHAT_ENCODER = "chat encoder"
MODEL_VALIDATE = "model_validate"
_DIALECT_NOTES = {  # why a dialect's row has no LiteLLM figure
    "ollama": "; LiteLLM's Ollama transforms write Ollama's own /api/chat body, not /v1's",
}


def _dialects() -> tuple[Contest, ...]:
    """A row per dialect; its floor is the Chat Completions encoder, its baseline."""
    return tuple(
        Contest(
            dialect_path(name),
            "messages",
            _encoded("chat", name),
            (CHAT_ENCODER, _encoded("chat", "chat")),
            _encode_note("Chat Completions") + _DIALECT_NOTES.get(name, ""),
        )
        for name in DIALECTS
    )


CONTESTS: tuple[Contest, ...] = (
    Contest(FULL_CHAT_TO_ANTHROPIC, "messages", _translated("chat", "openai", "anthropic"),
            note=_TRANSLATE),
    Contest(FULL_ANTHROPIC_TO_CHAT, "messages", _translated("anthropic", "anthropic", "openai"),
            note=_TRANSLATE),
    Contest(CHAT_TO_HISTORY, "messages", _request_decoded("chat"), _validated("chat"),
            note=_DECODE),
    Contest(ANTHROPIC_TO_HISTORY, "messages", _request_decoded("anthropic"),
            _validated("anthropic"), note=_DECODE),
    Contest(OWN_TO_ANTHROPIC, "messages", _encoded("anthropic", "anthropic"),
            note=_encode_note("Anthropic")),
    Contest(TO_CHAT, "messages", _encoded("chat", "chat"), note=_encode_note("Chat Completions")),
    Contest(TO_MISTRAL, "messages", _encoded("chat", "mistral"),
            note=_encode_note("Chat Completions") + " (tool-call ids rewritten as Mistral's)"),
    Contest(TO_GROQ, "messages", _encoded("chat", "groq"), note=_encode_note("Chat Completions")),
    *_dialects(),
    Contest(TO_GEMINI, "messages", _encoded("gemini", "gemini"), note=_encode_note("Gemini")),
    Contest(FULL_CHAT_TO_GEMINI, "messages", _translated("chat", "openai", "google"),
            note=_TRANSLATE),
    Contest(TO_BEDROCK, "messages", _encoded("bedrock", "bedrock"), note=_encode_note("Converse")),
    Contest(ANTHROPIC_RESPONSE, "none", _decoded("anthropic"), note="interlingua: decode_response"),
    Contest(CHAT_RESPONSE, "none", _decoded("chat"), note="interlingua: decode_response"),
    Contest(GEMINI_RESPONSE, "none", _decoded("gemini"), note="interlingua: decode_response"),
    Contest(BEDROCK_RESPONSE, "none", _decoded("bedrock"), note="interlingua: decode_response"),
    Contest(ANTHROPIC_STREAM, "chunks", _accumulated("anthropic"), _loads("anthropic"),
            note=_ACCUMULATE),
    Contest(CHAT_STREAM, "chunks", _accumulated("chat"), _loads("chat"), note=_ACCUMULATE),
    Contest(GEMINI_STREAM, "chunks", _accumulated("gemini"), _loads("gemini"), note=_ACCUMULATE),
    Contest(BEDROCK_STREAM, "chunks", _accumulated("bedrock"), _loads("bedrock"),
            note="interlingua: accumulate(decode_stream(events)), the events as boto3 yields them"),
)  # fmt: skip

IMPORT_CONTESTS: tuple[ImportContest, ...] = (
    ImportContest(
        "import: the Anthropic codec",
        ("interlingua_anthropic",),
        {"litellm": ("litellm",), "pydantic-ai": ("pydantic_ai.models.anthropic",)},
    ),
    ImportContest(
        "import: the Gemini codec",
        ("interlingua_google",),
        {"litellm": ("litellm",), "pydantic-ai": ("pydantic_ai.models.google",)},
    ),
    ImportContest(
        "import: the Bedrock Converse codec",
        ("interlingua_bedrock",),
        {"litellm": ("litellm",), "pydantic-ai": ("pydantic_ai.models.bedrock",)},
    ),
)


def contest_names() -> Sequence[str]:
    """Every row's path, in the table's order."""
    return [
        *(contest.path for contest in CONTESTS),
        *(contest.path for contest in IMPORT_CONTESTS),
        MEMORY_PATH,
    ]
