"""A conversation kept between calls, saved as versioned JSON.

The file is one JSON object: `{"format": "interlingua.chat_history",
"version": 6, ...}`. A file of an older version is migrated on load (see
`_migrations`: version 2 keeps provider data in the sections of
`_provider_data`, version 3 adds the messages' `created_at` and `updated_at`,
version 4 holds an Anthropic tool call's direct `caller` as a form, version 5
names a freeform tool's call and a namespace's function's as `ToolName` does,
version 6 adds `turns`, what each answer used, so that a history knows its cost);
one of a newer version or another format is refused with `HistoryFormatError`,
and a message that breaks the core's rules raises `InvalidDataError` naming
the message, part and field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import AwareDatetime, Field, JsonValue, model_validator

from interlingua._base import CoreModel, MutableCoreModel, validate
from interlingua._errors import HistoryFormatError, InvalidDataError
from interlingua._messages import Message
from interlingua._migrations import MIGRATIONS
from interlingua._response import ChatResponse
from interlingua._usage import TokenUsage

if TYPE_CHECKING:
    from interlingua._cost import Cost

__all__ = ["HISTORY_FORMAT", "HISTORY_VERSION", "ChatHistory", "TurnUsage", "migrated_messages"]

HISTORY_FORMAT = "interlingua.chat_history"
HISTORY_VERSION = 6


class TurnUsage(CoreModel):
    """What one answer of a history used: the index of the message it gave, the
    adapter that answered (`provider`), the model, the usage, when the answer
    says it was made (None: it said not, and its message's time is taken), and
    what it says of the prices it is charged at (`interlingua.PriceSource.context`)."""

    message: int
    provider: str | None = None
    model: str | None = None
    usage: TokenUsage = TokenUsage()
    made_at: AwareDatetime | None = None
    price_context: dict[str, str] = Field(default_factory=dict)


class ChatHistory(MutableCoreModel):
    """Messages, with the metadata and artefacts a run gathers beside them.

    Metadata and artefacts are JSON values, so a saved history loads back equal.
    `add_message` and `add_response` stamp a message that has no `created_at`
    with the time it is added (UTC), `replace_message` stamps `updated_at`;
    messages given otherwise (`ChatHistory(messages=...)`, `messages.append`)
    keep what they carry, as their time is not known.
    """

    id: str | None = None
    title: str | None = None
    messages: list[Message] = Field(default_factory=list)
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
    artefacts: list[JsonValue] = Field(default_factory=list)
    usage: TokenUsage = TokenUsage()
    turns: list[TurnUsage] = Field(default_factory=list)

    @model_validator(mode="after")
    def _turns_at_answers(self) -> ChatHistory:
        # Each turn names the answer it is of: an assistant message, once.
        seen: set[int] = set()
        for i, turn in enumerate(self.turns):
            index = turn.message
            if not 0 <= index < len(self.messages) or self.messages[index].role != "assistant":
                raise ValueError(f"turns[{i}].message: {index} is no assistant message's index")
            if index in seen:
                raise ValueError(f"turns[{i}].message: {index} has a turn already")
            seen.add(index)
        return self

    @property
    def last_message(self) -> Message:
        if not self.messages:
            raise IndexError("the history has no messages")
        return self.messages[-1]

    def add_message(self, message: Message) -> None:
        """Append `message`, stamped with the time now unless it has a `created_at`."""
        _check_message(message, len(self.messages))
        if message.created_at is None:
            message = message.model_copy(update={"created_at": _now()})
        self.messages.append(message)

    def replace_message(self, index: int, message: Message) -> None:
        """Put `message` in place of the one at `index`, as an edit of it: it keeps
        the first one's `created_at` (if it has one) and is stamped `updated_at`."""
        _check_message(message, index)
        created_at = self.messages[index].created_at or message.created_at
        stamps = {"created_at": created_at, "updated_at": _now()}
        self.messages[index] = message.model_copy(update=stamps)

    def add_response(self, response: ChatResponse, *, provider: str | None = None) -> None:
        """Append the response's message, add its usage to the total, and keep
        what it used in `turns`. `provider`: the adapter that answered, where the
        response's `provider` is not it (Claude on Bedrock answers as `"anthropic"`)."""
        from interlingua._cost import price_context
        from interlingua._elsewhere import made_at

        self.add_message(response.message)
        self.usage = self.usage + response.usage
        turn = TurnUsage(
            message=len(self.messages) - 1,
            provider=provider or response.provider,
            model=response.model,
            usage=response.usage,
            made_at=made_at(response.provider_data),
            price_context=price_context(response.provider_data, provider or response.provider),
        )
        self.turns = [*self.turns, turn]

    def cost(self, *, skip_unknown: bool = False) -> Cost:
        """What the conversation's answers cost, added up across providers, by
        genai-prices (the `prices` extra). An assistant message with no price (no
        turn kept for it, or one genai-prices does not price) raises `CostError`
        naming the message's index, unless `skip_unknown`, which leaves it out."""
        from interlingua._cost import history_cost

        return history_cost(self, skip_unknown=skip_unknown)

    def __len__(self) -> int:
        return len(self.messages)

    def __iter__(self) -> Iterator[Message]:  # type: ignore[override]
        # Iterating a history gives its messages (pydantic's gives the fields).
        return iter(self.messages)

    def to_json(self, *, indent: int | None = 2) -> str:
        document = {"format": HISTORY_FORMAT, "version": HISTORY_VERSION}
        document.update(self.model_dump(mode="json", exclude_none=True))
        # ASCII escapes keep even a lone surrogate (which JSON from a provider may
        # hold) writable and readable back.
        return json.dumps(document, ensure_ascii=True, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> ChatHistory:
        try:
            document = json.loads(text)
        except (ValueError, RecursionError) as exc:
            reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise HistoryFormatError(f"not JSON: {reason}") from None
        return cls.from_document(document)

    @classmethod
    def from_document(cls, document: Any) -> ChatHistory:
        """A history from an already parsed file, migrated to this version."""
        body = _migrate(_checked_header(document))
        return validate(cls, body, subject="chat history")

    def save(self, path: str | Path) -> None:
        """Write the history to `path`, replacing the file only once all is written."""
        target = Path(path)
        text = self.to_json()
        import tempfile  # only a save needs it (and what it imports)

        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        try:
            with os.fdopen(handle, "w", encoding="ascii") as file:
                file.write(text)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: str | Path) -> ChatHistory:
        return cls.from_json(Path(path).read_bytes())

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """The JSON Schema of a saved history file."""
        schema = cls.model_json_schema()
        schema["properties"] = {
            "format": {"const": HISTORY_FORMAT, "type": "string"},
            "version": {"const": HISTORY_VERSION, "type": "integer"},
            **schema["properties"],
        }
        schema["required"] = ["format", "version", *schema.get("required", [])]
        return schema


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _check_message(message: object, index: int) -> None:
    if not isinstance(message, Message):
        problem = f"expected a Message, got {type(message).__name__}"
        raise InvalidDataError([(f"messages[{index}]", problem)], subject="chat history")


def _checked_header(document: Any) -> dict[str, Any]:
    if not isinstance(document, dict):
        raise HistoryFormatError(f"expected a JSON object, got {type(document).__name__}")
    if document.get("format") != HISTORY_FORMAT:
        found = document.get("format")
        raise HistoryFormatError(
            f"not an interlingua chat history (format is {found!r}, expected {HISTORY_FORMAT!r})",
            path="format",
        )
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise HistoryFormatError(
            f"version must be a positive integer, got {version!r}", path="version"
        )
    if version > HISTORY_VERSION:
        raise HistoryFormatError(
            f"written by a newer interlingua (version {version}); "
            f"this one reads versions up to {HISTORY_VERSION}",
            path="version",
        )
    return document


def _migrate(document: dict[str, Any]) -> dict[str, Any]:
    version = document["version"]
    while version < HISTORY_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise HistoryFormatError(f"version {version} can no longer be read", path="version")
        document = step(document)
        version += 1
    return {k: v for k, v in document.items() if k not in {"format", "version"}}


def migrated_messages(messages: list[Any], version: int) -> list[Any]:
    """Messages as a history of `version` saved them, as this version saves them
    (for files that keep messages in the history's form, a cassette's say)."""
    return list(_migrate({"version": version, "messages": messages})["messages"])
