"""What Mistral accepts, checked before anything is sent: each rule with
Mistral's own words (its 400 texts, as users have reported them).

The Chat Completions rules hold too (every tool call answered, right after
its message); these are Mistral's own. Where the call survives a change, the
encoder makes it and reports it: a history ending in system messages (Claude
Code's `{"role": "system"}` after the user's turn) sends them as user
messages (`system_ending_as_user`); where it would not (an assistant message
that keeps `prefix: false` last), the history is refused before sending with
`InvalidDataError` naming the message. A history ending in an assistant
message (a prefill, as Anthropic takes it) goes with `prefix: true` on that
message, Mistral's own form of the same request, unreported.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from interlingua import ChatRequest, InvalidDataError, Message, TranslationReport
from interlingua.codec import ModelRules, ReasoningOff, kept
from interlingua_mistral._wire import PROVIDER

__all__ = [
    "AUDIO_MEDIA_TYPES",
    "DOCUMENT_MEDIA_TYPES",
    "LEAST_REASONING",
    "PREFILL_FIELD",
    "TOOL_CALL_ID_CHARACTERS",
    "TOOL_CALL_ID_LENGTH",
    "TOOL_USER_BRIDGE",
    "audio_format",
    "check_last_message",
    "sniff_audio",
    "system_ending_as_user",
]

# "Tool call id was turn1_0 but must be a-z, A-Z, 0-9, with a length of 9."
# (error 3280): ids of other providers are rewritten, alike for a call and its result.
TOOL_CALL_ID_CHARACTERS = "a-zA-Z0-9"
TOOL_CALL_ID_LENGTH = 9

# "Unexpected role 'user' after role 'tool'" (error 3230, some models): an
# assistant turn with this text is put between them, and reported.
TOOL_USER_BRIDGE = "OK"

# "Expected last role User or Tool (or Assistant with prefix True) for serving
# but got assistant". Quirk: a last assistant message is "a prefix to condition
# the model response ... to force the model to start its answer by the content of
# the message" (the API reference's `prefix`): the prefill Anthropic takes as it is.
# The encoder sends it true on a last assistant message (as the Vercel AI SDK's
# Mistral provider does), unless the message keeps a `prefix` of its own.
PREFILL_FIELD = "prefix"

# Quirk: Mistral serves no history ending in a system message ("Expected last role User or
# Tool (or Assistant with prefix True) for serving but got system"), and takes no system
# message right after an assistant or tool message ("Unexpected role 'system' after role
# 'assistant'", as users report it), so the text moved before the last user message would be
# refused in any conversation past its first turn. Sent as a user message in its place, it
# is still the last thing the model reads before answering; it loses a system message's
# authority, reported.
_SYSTEM_ENDING = (
    "sent as a user message: Mistral serves a history ending in a user or tool message "
    "(or an assistant message with prefix: true), not a system message ('Expected last "
    "role User or Tool (or Assistant with prefix True) for serving but got system')"
)

# What `document_url` reads (a URL or a data URL), and `input_audio` (bare
# base64 of a wav or mp3 file; the wire does not say which).
DOCUMENT_MEDIA_TYPES = frozenset({"application/pdf"})
AUDIO_MEDIA_TYPES = frozenset({"audio/wav", "audio/x-wav", "audio/wave", "audio/mpeg", "audio/mp3"})

# `input_audio` as `{"data", "format"}` reads its media type from `format` as Chat
# Completions does (wav and mp3 as below, any other as `audio/<format>`); written back so.
_OBJECT_FORMATS = {"audio/wav": "wav", "audio/mpeg": "mp3"}

# The first bytes of each audio format, as base64: `RIFF` (wav), `ID3` or an
# MPEG frame (mp3).
_AUDIO_MAGIC = (("UklGR", "audio/wav"), ("SUQz", "audio/mpeg"), ("//", "audio/mpeg"))


def system_ending_as_user(request: ChatRequest, report: TranslationReport) -> ChatRequest:
    """`request` with the system messages that end its history (those after the
    last message of another role) as user messages, each reported."""
    messages = request.messages
    start = len(messages)
    while start and messages[start - 1].role == "system":
        start -= 1
    if start == len(messages):
        return request
    ending = []
    for index in range(start, len(messages)):
        report.transformed(f"messages[{index}]", _SYSTEM_ENDING, "content")
        ending.append(messages[index].model_copy(update={"role": "user"}))
    return request.model_copy(update={"messages": (*messages[:start], *ending)})


def check_last_message(messages: Sequence[Message]) -> None:
    """The history ends as Mistral serves it, else `InvalidDataError` naming
    the last message (ending system messages are sent as user messages first,
    `system_ending_as_user`)."""
    if not messages:
        raise InvalidDataError([("messages", "Mistral needs at least one message")])
    index, last = len(messages) - 1, messages[-1]
    if last.role != "assistant":
        return
    # sent with `prefix: true` unless it keeps another
    prefix = kept(last, PROVIDER).get("fields", {}).get(PREFILL_FIELD, True)
    if prefix is True:
        return
    raise InvalidDataError(
        [
            (
                f"messages[{index}]",
                f"Mistral serves a history ending in a user or tool message (or an assistant "
                f"message with prefix: true), not an assistant message with prefix: "
                f"{json.dumps(prefix)}",
            )
        ],
        subject="request for mistral",
    )


def sniff_audio(data: str) -> str:
    """The media type of bare base64 audio, by its first bytes (`audio/*` if unknown)."""
    return next((kind for magic, kind in _AUDIO_MAGIC if data.startswith(magic)), "audio/*")


def audio_format(media_type: str) -> str:
    """The `format` of an `input_audio` object holding audio of `media_type`."""
    return _OBJECT_FORMATS.get(media_type) or media_type.partition("/")[2]


# What Mistral's models take for reasoning turned off. Its adjustable-reasoning guide:
# `reasoning_effort` on mistral-small-latest (Small 4) and mistral-medium-3-5, "none"
# (the model "thinks minimally and the thinking chunk is omitted") or "high"; Magistral
# models always reason, with no such setting; its other models do not reason: no field.
LEAST_REASONING: ModelRules = (
    (r"mistral-small-(latest|2603)|mistral-medium-(3[.-]5.*|latest)", ReasoningOff("none")),
    (r"magistral-.*", ReasoningOff(said="Mistral's Magistral models always reason")),
    (r"(mistral|ministral|codestral|devstral|pixtral|open-mi[sx]tral)-.*", ReasoningOff()),
)
