"""What Chat Completions accepts, checked before anything is sent: each rule
with OpenAI's own words (its 400 text, or its SDK's or documentation's).

Where the call survives a change, the encoder makes it and reports it (a
rewritten tool-call id, stop sequences past the limit, tool settings without
tools, a nameless schema, a file the wire cannot carry, reasoning turned off
where the model cannot turn it off, an end user's id or a session too long, a
call the conversation went on without answering sent with an error result,
found by the core's `missing_results`); where a change would alter the
conversation (a call the history ends with, or answered elsewhere than right
after it; a result answering no call), `InvalidDataError` names each message
and part.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from interlingua import (
    ChatRequest,
    FilePart,
    InvalidDataError,
    Message,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    TranslationReport,
)
from interlingua.codec import (
    MissingResults,
    ModelRules,
    ReasoningOff,
    copy_json,
    file_field_level,
    fitted_length,
    missing_results,
)

__all__ = [
    "AUDIO_FORMATS",
    "DEFAULT_SCHEMA_NAME",
    "FILE_FIELDS",
    "MAX_STOP_SEQUENCES",
    "MEDIA_TYPES",
    "OPENAI_FILE_STORE",
    "OPENAI_LEAST_REASONING",
    "OPENAI_SHARED_SETTINGS",
    "PROMPT_CACHE_KEY_MAX_LENGTH",
    "STREAM_ONLY_OPTIONS",
    "TOOL_CALL_ID_CHARACTERS",
    "TOOL_CALL_ID_MAX_LENGTH",
    "USER_ID_MAX_LENGTH",
    "FileFields",
    "bridge_tool_turn",
    "came_without_tools",
    "check_tool_pairs",
    "encode_context",
    "fit_stop",
    "guess_media_type",
    "joined_text",
    "part_path",
    "says_something",
    "schema_name",
    "take_shared",
    "takes_file",
    "tool_settings",
]

_REPAIR = "interlingua.sanitize() repairs such a history"

# "Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with
# maximum length 40" (reported); characters outside [a-zA-Z0-9_-] are kept out to
# be safe. Rewritten by the dialect's `fit_call_id`, alike for a call and its result.
TOOL_CALL_ID_CHARACTERS = "a-zA-Z0-9_-"
TOOL_CALL_ID_MAX_LENGTH = 40

# "Invalid 'stop': array too long. Expected an array with maximum length 4"
# (reported). The first ones are sent (`fit_stop`): the model may write past one
# it was not given, a loss the call survives.
MAX_STOP_SEQUENCES = 4

# "Invalid 'safety_identifier': string too long. Expected a string with maximum
# length 64, but got a string with length 150 instead." (`string_above_max_length`,
# reported, and the same of `user`; the SDK's docstring says 128, OpenAI answers
# 64). An end user's id past it goes as a digest of itself (`encode_context`).
USER_ID_MAX_LENGTH = 64
# "Invalid 'prompt_cache_key': string too long. Expected a string with maximum
# length 64" (reported): a session id past it goes as a digest (`encode_context`).
PROMPT_CACHE_KEY_MAX_LENGTH = 64

# The request settings OpenAI's two APIs both have, of one meaning (the SDK's
# `CompletionCreateParams` and `ResponseCreateParams`): a request read from one
# sends them to the other as they came (`shared_settings`), and to no one else.
OPENAI_SHARED_SETTINGS = frozenset(
    {"prompt_cache_key", "prompt_cache_retention", "safety_identifier", "user"}
)

# "Missing required parameter: 'response_format.json_schema.name'": a nameless
# schema is sent under this one (`schema_name`).
DEFAULT_SCHEMA_NAME = "response"

# "The 'stream_options' parameter is only allowed when 'stream' is enabled": a
# call that is not streamed sends none (the client's `chat_prepare`).
STREAM_ONLY_OPTIONS = ("stream_options",)

# `input_audio.format` "currently supports "wav" and "mp3"" (the SDK's
# `ChatCompletionContentPartInputAudioParam`): the media types it takes, with
# their `format` (the first of each format is the one it decodes to).
AUDIO_FORMATS: dict[str, str] = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
}

# Both APIs read `file_id`s from OpenAI's one file store (`/v1/files`): a file
# part either of them decodes names `"openai"` (not `"openai-responses"`) as its
# `provider`, and either takes it back; one of another store is left out
# (`takes_file`).
OPENAI_FILE_STORE = "openai"

# The file types OpenAI takes, by extension: a media type is a label here (the
# wire rarely says one), and must not depend on the machine's mimetypes database.
MEDIA_TYPES: dict[str, str] = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "pdf": "application/pdf",
    "json": "application/json",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "txt": "text/plain",
    "md": "text/markdown",
    "csv": "text/csv",
    "html": "text/html",
    "wav": "audio/wav",
    "mp3": "audio/mpeg",
}


def guess_media_type(name: str | None, *, kind: str) -> str:
    """A media type from a file name or URL path, or `<kind>/*` when it tells none.

    The wire often gives no media type (an image URL, a file id); `kind` keeps
    at least what the part is (`image`, `application`: any kind of document).
    """
    path = (name or "").split("?", 1)[0].split("#", 1)[0]
    extension = path.rpartition(".")[2].lower() if "." in path else ""
    guessed = MEDIA_TYPES.get(extension)
    if guessed and (kind == "application" or guessed.startswith(f"{kind}/")):
        return guessed
    return f"{kind}/*"


def takes_file(part: FilePart, store: str | None, path: str, report: TranslationReport) -> bool:
    """Whether a file part can go to an API reading `store`'s files; a `file_id`
    of another provider's store points at nothing there, and is dropped."""
    if part.file_id is None or part.provider is None or part.provider == store:
        return True
    where = f"{store}'s" if store else "no"
    report.dropped(
        path, f"file {part.file_id!r} is in {part.provider}'s file store, not {where}", "content"
    )
    return False


@dataclass(frozen=True, slots=True)
class FileFields:
    """Which of a file part's `filename` and `detail` each wire content type has."""

    fields: Mapping[str, frozenset[str]]
    api: str

    def report_unsent(
        self, part: FilePart, kind: str, path: str, report: TranslationReport
    ) -> None:
        taken = self.fields.get(kind, frozenset())
        for name in ("filename", "detail"):
            if getattr(part, name) is not None and name not in taken:
                report.dropped(
                    f"{path}.{name}",
                    f"a {kind} part of {self.api} has no {name}",
                    file_field_level(name),
                )


# What each content-part type can say of a file beside its bytes.
FILE_FIELDS = FileFields(
    {
        "image_url": frozenset({"detail"}),
        "file": frozenset({"filename"}),
        "input_audio": frozenset(),
    },
    "Chat Completions",
)


def check_tool_pairs(
    messages: Sequence[Message],
    target: str,
    report: TranslationReport,
    *,
    adjacent: bool,
    continued: bool = False,
) -> MissingResults:
    """Every tool call answered and every result answering a call, else
    `InvalidDataError`; but for the calls the conversation went on without
    answering, whose error results the encoder sends (returned: the core's
    `missing_results`, none in strict mode).

    Chat Completions wants results right after their calls' message: "An
    assistant message with 'tool_calls' must be followed by tool messages
    responding to each 'tool_call_id'", and "messages with role 'tool' must be a
    response to a preceeding message with 'tool_calls'".

    `adjacent`: results must follow their calls' message directly (Chat
    Completions); else anywhere after them (the Responses API). `continued`: the
    request continues a stored response, whose calls a result may answer.
    """
    # Most histories answer every call: the calls sent with error results are
    # looked for only where the check finds a problem.
    missing = MissingResults()
    problems = _pair_problems(messages, target, adjacent, continued, missing.places)
    if problems and (missing := missing_results(messages, report)):
        problems = _pair_problems(messages, target, adjacent, continued, missing.places)
    if problems:
        raise InvalidDataError(problems, subject=f"request for {target}")
    return missing


def _pair_problems(
    messages: Sequence[Message],
    target: str,
    adjacent: bool,
    continued: bool,
    answered: Collection[tuple[int, int]],
) -> list[tuple[str, str]]:
    """Where `check_tool_pairs` finds a call without its result (but those
    `answered`) or a result without its call, and what it finds there."""
    problems: list[tuple[str, str]] = []
    open_calls: dict[str, tuple[int, int]] = {}  # id: (message, part)
    for index, message in enumerate(messages):
        if message.role == "tool":
            for position, part in enumerate(message.parts):
                if (
                    isinstance(part, ToolResultPart)
                    and open_calls.pop(part.tool_call_id, None) is None
                    and not continued
                ):
                    problem = f"tool result for {part.tool_call_id!r} answers no open tool call"
                    problems.append((part_path(index, position), problem))
            continue
        if adjacent and open_calls:
            problems += _unanswered(open_calls, target, answered)
            open_calls = {}
        if message.role == "assistant":  # the only role that holds calls (`Message` checks)
            for position, part in enumerate(message.parts):
                if isinstance(part, ToolCallPart):
                    open_calls[part.id] = (index, position)
    return problems + _unanswered(open_calls, target, answered)


def part_path(index: int, position: int, key: str = "") -> str:
    """Where a loss is reported: a request's part (`messages[1].parts[0]`), or a
    field of it (`key`). Built only when a loss is: most parts report none."""
    if key:
        return f"messages[{index}].parts[{position}].{key}"
    return f"messages[{index}].parts[{position}]"


def _unanswered(
    calls: dict[str, tuple[int, int]], target: str, answered: Collection[tuple[int, int]]
) -> list[tuple[str, str]]:
    return [
        (
            part_path(*where),
            f"tool call {call_id!r} has no result, which {target} rejects; {_REPAIR}",
        )
        for call_id, where in calls.items()
        if where not in answered
    ]


def fit_stop(
    stop: tuple[str, ...], limit: int | None, report: TranslationReport
) -> tuple[str, ...]:
    """The stop sequences the server takes (the first `limit`); the rest reported."""
    kept = stop if limit is None else stop[:limit]
    for index in range(len(kept), len(stop)):
        report.dropped(
            f"stop[{index}]", f"Chat Completions takes at most {limit} stop sequences", "setting"
        )
    return kept


def tool_settings(
    settings: dict[str, Any],
    report: TranslationReport,
    *,
    has_tools: bool,
    choice: ToolChoice | None,
) -> dict[str, Any]:
    """`settings` (`tool_choice`, `parallel_tool_calls`) when there are tools to
    choose from; else none ("Invalid value for 'parallel_tool_calls':
    'parallel_tool_calls' is only allowed when 'tools' are specified.", and alike
    for `tool_choice`): reported where the choice asked for a call, which no
    tool can answer; `auto`, `none` and how calls are made say nothing there."""
    if has_tools:
        return settings
    if choice is not None and choice.asks_for_a_call:
        reason = f"{report.target} takes it only beside tools, and the request has none"
        report.dropped("tool_choice", reason, "setting")
    return {}


def came_without_tools(body: Mapping[str, Any], *settings: Any) -> bool:
    """Whether the tool `settings` read from `body` (`tool_choice`,
    `parallel_tool_calls`) came in it without tools: the API they came to judges
    them (xAI and OpenAI's Responses API answer such a body 200), so they go back
    to it as they came, where a request from elsewhere leaves them out
    (`tool_settings`)."""
    return any(setting is not None for setting in settings) and not body.get("tools")


def schema_name(name: str | None, report: TranslationReport) -> str:
    """The name a JSON schema is sent under."""
    if name is None:
        report.transformed(
            "response_format.name",
            f"{report.target} requires a schema name; sent as {DEFAULT_SCHEMA_NAME!r}",
            "hint",
        )
    return name or DEFAULT_SCHEMA_NAME


def bridge_tool_turn(
    out: list[dict[str, Any]], bridge: str | None, path: str, report: TranslationReport
) -> None:
    """Before a user message: an assistant turn saying `bridge`, if a tool message
    came last, for a server that refuses the pair (Mistral: "Unexpected role
    'user' after role 'tool'"); reported at `path`."""
    if bridge is not None and out and out[-1]["role"] == "tool":
        out.append({"role": "assistant", "content": bridge})
        reason = f"{report.target} takes no user message right after a tool message"
        report.transformed(path, f"{reason}: an assistant turn put between them", "content")


def says_something(wire: Mapping[str, Any], index: int, report: TranslationReport) -> bool:
    """Whether assistant message `index` has content or tool calls, for a server
    that refuses one with neither (Mistral: "Assistant message must have either
    content or tool_calls"); one that has neither is left out, reported."""
    if wire.get("content") or wire.get("tool_calls"):
        return True
    reason = f"{report.target} takes no assistant message without content or tool calls"
    report.dropped(f"messages[{index}]", reason, "hint")
    return False


def joined_text(
    items: Sequence[Mapping[str, Any]], path: str, provider: str, report: TranslationReport
) -> str:
    """An assistant turn's content parts as the one string a dialect without
    `assistant_content_parts` takes (reported at `path`)."""
    report.transformed(
        path, f"{provider} takes an assistant turn's text as one string; parts joined", "hint"
    )
    return "\n\n".join(str(item.get("text", item.get("refusal", ""))) for item in items)


# What OpenAI's models take for reasoning turned off, in both APIs (`reasoning_effort`,
# `reasoning.effort`). The API reference: "gpt-5.1 defaults to none, which does not
# perform reasoning"; "All models before gpt-5.1 default to medium reasoning effort,
# and do not support none"; "The gpt-5-pro model defaults to (and only supports)
# high reasoning effort". A model without reasoning takes no effort at all
# ("Unsupported parameter: 'reasoning_effort' is not supported with this model.").
_DATED = r"(-\d{4}-\d{2}-\d{2})?"
_NO_NONE = "OpenAI's {} cannot turn reasoning off ('do not support none')"
OPENAI_LEAST_REASONING: ModelRules = (
    (
        rf"gpt-5-pro{_DATED}",
        ReasoningOff(said="OpenAI's gpt-5-pro reasons at 'high' only ('only supports high')"),
    ),
    # The codex models take `low`, `medium`, `high` ("neither offers a minimal").
    (rf"gpt-5(\.1)?-codex(-mini|-max)?{_DATED}", ReasoningOff("low", _NO_NONE.format("codex"))),
    (rf"gpt-5\.\d+{_DATED}", ReasoningOff("none")),
    (rf"gpt-5(-mini|-nano)?{_DATED}", ReasoningOff("minimal", _NO_NONE.format("gpt-5"))),
    (
        rf"o1-(mini|preview){_DATED}",
        ReasoningOff(said="OpenAI's o1-mini and o1-preview always reason, and take no effort"),
    ),
    (rf"o[134](-mini|-pro)?{_DATED}", ReasoningOff("low", _NO_NONE.format("o-series"))),
    (r"(gpt-4|gpt-3\.5|chatgpt-4o|gpt-5-chat).*", ReasoningOff()),
)


# --- the settings both APIs (and every dialect) send beside the modelled ones ---


def take_shared(
    options: dict[str, Any], request: ChatRequest, shared: Mapping[str, frozenset[str]]
) -> None:
    """Into `options`, the settings of each API in `shared` that this one takes
    as they came (the request's own options first)."""
    for name, keys in shared.items():
        for key, value in request.options_for(name).items():
            if key in keys and key not in options:
                options[key] = copy_json(value)


def encode_context(
    options: dict[str, Any],
    request: ChatRequest,
    *,
    user_field: str | None,
    report: TranslationReport,
) -> None:
    """The context's user and session, where the request does not name them itself
    (both APIs: `safety_identifier`, the legacy `user`, `prompt_cache_key`), each
    at most 64 characters, else a digest of itself, reported; a server with no
    `user_field` is sent no user (reported)."""
    context = request.context
    if context is None:
        return
    named = {"user", "safety_identifier"} & options.keys()
    if context.user_id is not None and user_field is None:
        report.dropped(
            "context.user_id", f"{report.target} has no field for the end user's id", "hint"
        )
    elif context.user_id is not None and user_field is not None and not named:
        said = f"{report.target}'s {user_field} takes at most {USER_ID_MAX_LENGTH}"
        options[user_field] = fitted_length(
            context.user_id, USER_ID_MAX_LENGTH, "context.user_id", report, said
        )
    if context.session_id is not None and "prompt_cache_key" not in options:
        said = f"{report.target}'s prompt_cache_key takes at most {PROMPT_CACHE_KEY_MAX_LENGTH}"
        options["prompt_cache_key"] = fitted_length(
            context.session_id, PROMPT_CACHE_KEY_MAX_LENGTH, "context.session_id", report, said
        )
