"""Messages: a role and the parts it said.

Each role allows only the parts that make sense for it (a system prompt is
text; tool results come in `tool` messages). Messages are pure values: two
messages with the same content are equal, and encoding never changes one.

`created_at` and `updated_at` (aware datetimes, kept in UTC) say when a message
was said and last edited; a `ChatHistory` sets them as messages are added and
replaced, and a message built alone has none. They say when, not what: two
messages that differ only in them are equal (a message sent to a provider and
decoded back, which never carries them, equals the one kept), and they are
saved with a history but never sent to a provider.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, Literal, cast

from pydantic import AwareDatetime, JsonValue, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from interlingua._base import CoreModel, ProviderData, empty_field, provider_data_field
from interlingua._dicts import message_fields
from interlingua._parts import (
    ContentPart,
    FilePart,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    ToolResultContent,
    ToolResultPart,
)

__all__ = ["Message", "Role"]

Role = Literal["system", "user", "assistant", "tool"]

ALLOWED_PARTS: dict[str, tuple[type[Any], ...]] = {
    "system": (TextPart,),
    "user": (TextPart, FilePart, OpaquePart),
    "assistant": (TextPart, FilePart, ReasoningPart, ToolCallPart, RefusalPart, OpaquePart),
    "tool": (ToolResultPart,),
}

# The same, by the parts' `type` tags: a tag is read at C speed, where an
# isinstance check of a pydantic class goes through ABCMeta in Python.
_ALLOWED_TYPES: dict[str, frozenset[str]] = {
    role: frozenset(kind.model_fields["type"].default for kind in kinds)
    for role, kinds in ALLOWED_PARTS.items()
}


_WHEN = frozenset({"created_at", "updated_at"})


def _what(message: Message) -> dict[str, Any]:
    """The fields of a message that take part in equality: all but the timestamps."""
    return {name: value for name, value in message.__dict__.items() if name not in _WHEN}


def _to_parts(content: Iterable[str | ContentPart]) -> tuple[ContentPart, ...]:
    return tuple(TextPart(text=item) if isinstance(item, str) else item for item in content)


class Message(CoreModel):
    """One turn of a conversation."""

    role: Role
    parts: tuple[ContentPart, ...] = ()
    id: str | None = None
    metadata: dict[str, JsonValue] = empty_field()
    created_at: AwareDatetime | None = None
    updated_at: AwareDatetime | None = None
    provider_data: ProviderData = provider_data_field()

    # Unhashable (its mappings are), and said so here since `__eq__` is its own.
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        """Equal when all but the timestamps are (see the module's docstring)."""
        if not isinstance(other, Message):
            return NotImplemented
        return type(self) is type(other) and _what(self) == _what(other)

    @field_validator("created_at", "updated_at")
    @classmethod
    def _in_utc(cls, when: datetime | None) -> datetime | None:
        return None if when is None else when.astimezone(timezone.utc)

    @field_validator("parts")
    @classmethod
    def _parts_fit_role(
        cls, parts: tuple[ContentPart, ...], info: ValidationInfo
    ) -> tuple[ContentPart, ...]:
        role = info.data.get("role")
        allowed = _ALLOWED_TYPES.get(role or "")
        if allowed is None:
            return parts
        for index, part in enumerate(parts):
            if part.type not in allowed:
                names = ", ".join(sorted(allowed))
                raise PydanticCustomError(
                    "part_not_allowed",
                    "part {index} ({part_type}) is not allowed in a {role} message; "
                    "a {role} message takes {names}",
                    {"index": index, "part_type": part.type, "role": role, "names": names},
                )
        return parts

    @classmethod
    def system(cls, text: str, **fields: Any) -> Message:
        return cls(role="system", parts=(TextPart(text=text),), **fields)

    @classmethod
    def user(cls, *content: str | ContentPart, **fields: Any) -> Message:
        """A user turn; plain strings become text parts."""
        return cls(role="user", parts=_to_parts(content), **fields)

    @classmethod
    def assistant(cls, *content: str | ContentPart, **fields: Any) -> Message:
        """An assistant turn; plain strings become text parts."""
        return cls(role="assistant", parts=_to_parts(content), **fields)

    @classmethod
    def tool_result(
        cls,
        tool_call_id: str,
        content: str | Sequence[ToolResultContent],
        *,
        name: str | None = None,
        is_error: bool = False,
    ) -> Message:
        """A `tool` message answering one call."""
        parts = (TextPart(text=content),) if isinstance(content, str) else tuple(content)
        part = ToolResultPart(
            tool_call_id=tool_call_id, name=name, content=parts, is_error=is_error
        )
        return cls(role="tool", parts=(part,))

    @classmethod
    def from_dicts(cls, dicts: Iterable[Mapping[str, Any]]) -> list[Message]:
        """Messages from plain dicts, the history most chat code keeps.

        Each dict has a `role` (`system`, `user`, `assistant` or `tool`) and a
        `content` string (an empty one, or an assistant's null one, gives no
        text part); an assistant's `tool_calls` and a tool message's
        `tool_call_id` and `name` in OpenAI's Chat Completions shape. Any other
        key that holds something is refused, not dropped (a full Chat
        Completions body is for the `openai` adapter's `decode_request`); a bad
        dict raises `InvalidDataError` naming `messages[i]` and the field.
        """
        fields = (message_fields(index, data) for index, data in enumerate(dicts))
        return [cls(role=cast(Role, role), parts=parts) for role, parts in fields]

    @property
    def text(self) -> str:
        """The visible text parts, joined."""
        return "".join(part.text for part in self.parts if isinstance(part, TextPart))

    @property
    def tool_calls(self) -> tuple[ToolCallPart, ...]:
        return tuple(part for part in self.parts if isinstance(part, ToolCallPart))

    @property
    def tool_results(self) -> tuple[ToolResultPart, ...]:
        return tuple(part for part in self.parts if isinstance(part, ToolResultPart))

    @property
    def reasoning(self) -> tuple[ReasoningPart, ...]:
        return tuple(part for part in self.parts if isinstance(part, ReasoningPart))

    @property
    def files(self) -> tuple[FilePart, ...]:
        return tuple(part for part in self.parts if isinstance(part, FilePart))
