"""The command line's inputs: a file or standard input read, what it holds
told apart, and each failure as one line naming the input (`InputError`).

A file holds one of four things, told apart by its shape:

- `history`: a saved `ChatHistory` (`"format": "interlingua.chat_history"`);
- `stream`: a recorded stream, as server-sent events (`data: {...}` lines) or
  as a JSON array of the events' payloads;
- `request`: a request body (it has `messages`, the Responses API's `input` or
  Gemini's `contents`);
- `response`: any other JSON object, an answer body.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from interlingua._adapter import Adapter, available_adapters, get_adapter
from interlingua._errors import AdapterNotFoundError, InterlinguaError, InvalidDataError
from interlingua._history import HISTORY_FORMAT

if TYPE_CHECKING:
    from interlingua.testing import Cassette

__all__ = [
    "DISTRIBUTIONS",
    "STDIN",
    "InputError",
    "Kind",
    "Source",
    "adapter",
    "load_cassette_text",
    "one_line",
    "read",
]

STDIN = "-"

Kind = Literal["history", "stream", "request", "response"]

# Adapter name -> the distribution that installs it.
DISTRIBUTIONS = {
    "anthropic": "interlingua-anthropic",
    "openai": "interlingua-openai",
    "openai-responses": "interlingua-openai",
    "mistral": "interlingua-mistral",
    "groq": "interlingua-groq",
    "google": "interlingua-google",
    "deepseek": "interlingua-deepseek",
    "cerebras": "interlingua-cerebras",
    "ollama": "interlingua-ollama",
    "openai-compatible": "interlingua-openai-compatible",
    "bedrock": "interlingua-bedrock",
    "anthropic-bedrock": "interlingua-anthropic",
    "anthropic-vertex": "interlingua-anthropic",
}
_SSE_FIELDS = ("data:", "event:", "id:", "retry:", ":")
# The field that holds a request body's conversation, in each API's format.
_CONVERSATION_FIELDS = ("messages", "input", "contents")


class InputError(Exception):
    """What is wrong with which input, in one line: the command exits with 2."""


@dataclass(frozen=True)
class Source:
    """An input read: its name (the path, or `<stdin>`), its text, and what it holds."""

    name: str
    text: str
    kind: Kind
    value: Any
    """The parsed JSON, or for server-sent events the payloads (`[DONE]` left out)."""
    sse: bool = False


def read_text(path: str) -> tuple[str, str]:
    """The name and text of `path`, or of standard input for `-`."""
    if path == STDIN:
        return "<stdin>", sys.stdin.read()
    try:
        return path, Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a file") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read it: {error.strerror or error}") from None


def read(path: str) -> Source:
    """`path` read and told apart (module docstring)."""
    name, text = read_text(path)
    if text.lstrip().startswith(_SSE_FIELDS):
        return Source(name, text, "stream", _sse_payloads(name, text), sse=True)
    value = parse_json(name, text)
    return Source(name, text, _kind(name, value), value)


def load_cassette_text(name: str, path: str, text: str) -> Cassette:
    """The cassette `path` holds (its `text`, already read: `read_text`), any
    format `load_cassette` reads; an error names it `name`."""
    import tempfile

    from interlingua.testing import load_cassette

    with tempfile.TemporaryDirectory() as folder:
        file = Path(path)
        if path == STDIN:  # `load_cassette` reads a file, and tells formats by its suffix
            suffix = ".json" if text.lstrip().startswith(("{", "[")) else ".yaml"
            file = Path(folder) / f"stdin{suffix}"
            file.write_text(text, encoding="utf-8")
        try:
            return load_cassette(file)
        except InterlinguaError as error:
            raise InputError(one_line(error).replace(str(file), name)) from error


def parse_json(name: str, text: str) -> Any:
    if not text.strip():
        raise InputError(f"{name}: empty, expected JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{name}: not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None


def _kind(name: str, value: Any) -> Kind:
    if isinstance(value, list):
        return "stream"
    if not isinstance(value, dict):
        raise InputError(f"{name}: expected a JSON object or array, found {type(value).__name__}")
    if value.get("format") == HISTORY_FORMAT:
        return "history"
    if any(field in value for field in _CONVERSATION_FIELDS):
        return "request"
    return "response"


def _sse_payloads(name: str, text: str) -> list[Any]:
    from interlingua.testing import parse_sse

    payloads = []
    for index, event in enumerate(parse_sse(text)):
        if event.data.strip() == "[DONE]":
            continue
        try:
            payloads.append(json.loads(event.data))
        except json.JSONDecodeError as error:
            raise InputError(f"{name}: event {index}: data is not JSON: {error.msg}") from None
    return payloads


def adapter(name: str) -> Adapter:
    """The adapter `name`; a missing one is named with the command that installs it."""
    try:
        return get_adapter(name)
    except (AdapterNotFoundError, ImportError):
        pass
    if name in DISTRIBUTIONS:
        raise InputError(
            f"the {name!r} adapter is not installed: pip install {DISTRIBUTIONS[name]}"
        ) from None
    known = ", ".join(available_adapters()) or "none installed"
    raise InputError(f"no adapter named {name!r} (installed: {known})")


def one_line(error: BaseException) -> str:
    """An error's text on one line: an `InvalidDataError`'s first problem, and
    how many more there are."""
    if isinstance(error, InvalidDataError) and len(error.problems) > 1:
        path, message = error.problems[0]
        more = len(error.problems) - 1
        return f"invalid {error.subject} at {path}: {message} (and {more} more)"
    return " ".join(str(error).split("\n")[0].split()) or type(error).__name__
