"""Prompt templates with `{placeholder}` fields.

- `{name}` is filled from the fields; a name with no value (or the value
  None) is blanked, and a line that held nothing but it is dropped.
- `{outputs/draft}` walks nested mappings; a path that does not resolve
  (a missing key, a non-mapping on the way, or None at the end) is left
  verbatim, so literal text such as `{a/b}` survives and a mistyped path
  stays visible.
- `{{` and `}}` stand for literal braces. Anything else in braces (JSON, for
  one) is left as written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from interlingua._messages import Message, Role
from interlingua._parts import TextPart

__all__ = ["MessageTemplate"]

# A name starts with a letter or `_` (any script) and goes on with word
# characters and `-`; path segments are word characters and `-`.
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^\W\d][\w-]*(?:/[\w-]+)*)\}")
_ABSENT = object()


class MessageTemplate:
    """A template string to be filled from a mapping of fields."""

    __slots__ = ("template",)

    def __init__(self, template: str) -> None:
        self.template = template

    @classmethod
    def from_string(cls, template: str) -> MessageTemplate:
        return cls(template)

    @classmethod
    def from_file(cls, path: str | Path) -> MessageTemplate:
        return cls(Path(path).read_text(encoding="utf-8"))

    @property
    def fields(self) -> tuple[str, ...]:
        """The placeholders, in order of first use."""
        names = (m.group(1) for m in _PLACEHOLDER.finditer(self.template) if m.group(1))
        return tuple(dict.fromkeys(names))

    def render(self, fields: Mapping[str, Any] | None = None, /, **values: Any) -> str:
        """The filled text. Pass the mapping whole: paths need its structure."""
        context = {**(fields or {}), **values}
        lines = self.template.splitlines(keepends=True)
        return "".join(
            filled for line in lines if (filled := _fill_line(line, context)) is not None
        )

    def message(
        self, role: Role = "user", fields: Mapping[str, Any] | None = None, /, **values: Any
    ) -> Message:
        """The filled text as a one-text-part message."""
        return Message(role=role, parts=(TextPart(text=self.render(fields, **values)),))

    def __repr__(self) -> str:
        return f"MessageTemplate({self.template!r})"


def _fill_line(line: str, context: Mapping[str, Any]) -> str | None:
    """The line filled in, or None when it held nothing but placeholders, all of
    them blanked."""
    blanked, kept = False, False

    def substitute(match: re.Match[str]) -> str:
        nonlocal blanked, kept
        token, name = match.group(0), match.group(1)
        if name is None:
            kept = True
            return token[0]
        if "/" in name:
            kept = True
            value = _resolve(context, name.split("/"))
            return token if value is _ABSENT else str(value)
        value = context.get(name)
        if value is None:
            blanked = True
            return ""
        kept = True
        return str(value)

    filled = _PLACEHOLDER.sub(substitute, line)
    if blanked and not kept and not _PLACEHOLDER.sub("", line).strip():
        return None
    return filled


def _resolve(context: Mapping[str, Any], keys: list[str]) -> Any:
    value: Any = context
    for key in keys:
        if not isinstance(value, Mapping) or key not in value:
            return _ABSENT
        value = value[key]
    return _ABSENT if value is None else value
