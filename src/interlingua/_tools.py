"""Tools the model may call, and how it is told to choose among them.

Every tool is a function: a name and the JSON Schema of its arguments. What
some wires have beside functions is a function here, under a name that says
what it was (`ToolName`), so that any target can offer it and a call of it
made anywhere goes back in the form it was offered, from its name alone:

- A freeform tool (OpenAI's `custom` tools: free text in, no JSON, maybe
  under a grammar) is a function of one string argument, `input`
  (`FREEFORM_PARAMETERS`); its name ends in `--freeform`, and a call's
  arguments are `{"input": <the text>}` (`freeform_arguments`).
- A function of a namespace (the Responses API's `namespace` tools) is the
  namespace's name and its own joined by `--`: `multi_agent_v1--spawn_agent`.
  The namespace's description, kept with its group, begins the function's
  own on a wire without namespaces (`interlingua.codec.sent_tools`).

`--` is in every API's tool-name alphabet (`[a-zA-Z0-9_-]`, and Gemini's)
and in next to no tool's own name; `ToolName.parse(str(name)) == name` for
any namespace without `--`, and `str(ToolName.parse(text)) == text` for any text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, model_validator

from interlingua._base import CoreModel, ProviderData, provider_data_field
from interlingua._provider_data import OwnedJSON

__all__ = [
    "FREEFORM_INPUT",
    "FREEFORM_PARAMETERS",
    "FreeformText",
    "ToolChoice",
    "ToolName",
    "ToolSpec",
    "freeform_arguments",
    "freeform_input",
    "freeform_piece",
]

_JOINER = "--"
_FREEFORM = "--freeform"
FREEFORM_INPUT = "input"
# The arguments of a freeform tool offered as a function: its text, whole.
FREEFORM_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        FREEFORM_INPUT: {"type": "string", "description": "The input, as free text (not JSON)."}
    },
    "required": [FREEFORM_INPUT],
}


@dataclass(frozen=True, slots=True)
class ToolName:
    """A tool's `name` on a wire, its `namespace` there, and whether it takes
    free text (`freeform`); `str()` is its name in the core (see the module doc)."""

    name: str
    namespace: str | None = None
    freeform: bool = False

    @classmethod
    def parse(cls, text: str) -> ToolName:
        """What a core tool name says: `ns--name`, `name--freeform`, or a name alone."""
        freeform = cls.says_freeform(text)
        rest = text[: -len(_FREEFORM)] if freeform else text
        namespace, joiner, name = rest.partition(_JOINER)
        if joiner and namespace and name:
            return cls(name, namespace, freeform)
        return cls(rest, None, freeform)

    @staticmethod
    def says_freeform(text: str) -> bool:
        """`parse(text).freeform`, without building the name: a codec asks it of
        every call it decodes or encodes."""
        return text.endswith(_FREEFORM) and len(text) > len(_FREEFORM)

    @property
    def plain(self) -> bool:
        """Neither namespaced nor freeform: a function named as it is."""
        return self.namespace is None and not self.freeform

    def without_namespace(self) -> ToolName:
        """The same tool, its namespace joined to its name (a wire without namespaces)."""
        return ToolName(str(ToolName(self.name, self.namespace)), None, self.freeform)

    def __str__(self) -> str:
        joined = self.name if self.namespace is None else f"{self.namespace}{_JOINER}{self.name}"
        return f"{joined}{_FREEFORM}" if self.freeform else joined


def freeform_arguments(text: str) -> str:
    """A freeform call's `input` as the arguments of the function it is offered as."""
    return freeform_piece(text, first=True, last=True)


_OPEN = f'{{"{FREEFORM_INPUT}":"'
_CLOSE = '"}'


def freeform_piece(text: str, *, first: bool = False, last: bool = False) -> str:
    """A piece of a freeform call's arguments as its input streams: `text`
    escaped, opened by `{"input":"` (`first`) and closed by `"}` (`last`), so the
    pieces of a stream join into `freeform_arguments` of the whole input."""
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    return (_OPEN if first else "") + escaped + (_CLOSE if last else "")


_OPENING = re.compile(r'\s*\{\s*"input"\s*:\s*"')
_HIGH_SURROGATE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}$")


class FreeformText:
    """The input of a freeform call as its arguments stream: `feed` each piece of
    `{"input": "..."}`, get the text that piece completes. Arguments of any
    other shape give nothing until the end (`freeform_input` of the whole)."""

    __slots__ = ("body", "done", "raw")

    def __init__(self) -> None:
        self.raw = ""  # the arguments until the input's opening quote
        self.body: str | None = None  # the escaped input after it, once found
        self.done = 0  # how much of `body` has been given as text

    def feed(self, piece: str) -> str:
        if self.body is None:
            self.raw += piece
            opening = _OPENING.match(self.raw)
            if opening is None:
                return ""
            self.body, self.raw = self.raw[opening.end() :], ""
        else:
            self.body += piece
        end = self._safe_end()
        text = json.loads(f'"{self.body[self.done : end]}"')
        self.done = end
        return str(text)

    def _safe_end(self) -> int:
        """Where the escaped text can be cut: before its closing quote, or an escape
        not yet whole (a high surrogate waits for its low half)."""
        assert self.body is not None
        body, index = self.body, self.done
        while index < len(body) and body[index] != '"':
            if body[index] != "\\":
                index += 1
                continue
            size = 6 if body[index + 1 : index + 2] == "u" else 2
            if index + size > len(body):
                break
            if _HIGH_SURROGATE.search(body[: index + size]):
                if index + size + 6 > len(body):
                    break
                size += 6
            index += size
        return index


def freeform_input(arguments: str) -> str | None:
    """The text of a freeform call's arguments (`{"input": "..."}`), None when they
    are not that."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return None
    match value:
        case {"input": str(text)} if len(value) == 1:
            return text
    return None


def _empty_object_schema() -> dict[str, Any]:
    return {"type": "object", "properties": {}}


class ToolSpec(CoreModel):
    """A tool's name, what it does, and the JSON Schema of its arguments."""

    name: str
    description: str | None = None
    parameters: OwnedJSON = Field(default_factory=_empty_object_schema)
    strict: bool | None = None
    provider_data: ProviderData = provider_data_field()

    @classmethod
    def freeform(
        cls,
        name: str,
        description: str | None = None,
        *,
        namespace: str | None = None,
        provider_data: ProviderData | None = None,
    ) -> ToolSpec:
        """A tool that takes free text: the function of one string `input` it is
        offered as, named so that its calls go back as freeform calls."""
        return cls(
            name=str(ToolName(name, namespace, freeform=True)),
            description=description,
            parameters=FREEFORM_PARAMETERS,
            provider_data=provider_data or {},
        )


class ToolChoice(CoreModel):
    """`auto`, `none`, `required` (some tool), or `tool` (the one named)."""

    mode: Literal["auto", "none", "required", "tool"]
    name: str | None = None

    @model_validator(mode="after")
    def _name_with_tool(self) -> ToolChoice:
        if (self.mode == "tool") != (self.name is not None):
            raise ValueError("a tool name is given with mode 'tool', and only then")
        return self

    @classmethod
    def auto(cls) -> ToolChoice:
        return cls(mode="auto")

    @classmethod
    def none(cls) -> ToolChoice:
        return cls(mode="none")

    @classmethod
    def required(cls) -> ToolChoice:
        return cls(mode="required")

    @classmethod
    def tool(cls, name: str) -> ToolChoice:
        return cls(mode="tool", name=name)

    @property
    def asks_for_a_call(self) -> bool:
        """Whether the choice asks the model to call a tool (`required`, `tool`):
        of a request without tools, the one choice that changes its answer (its
        provider refuses it), where `auto` and `none` say nothing."""
        return self.mode in ("required", "tool")
