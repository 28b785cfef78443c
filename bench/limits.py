"""The limits: a 20 MB base64 image, a 100,000-message history and a 10 MB
tool-argument string go through each API's request decoder and encoder in
time linear in their size.

Each limit is measured at a tenth of its size (the image: a quarter) and at
its size (the quick run: far smaller), against `json.loads` of the body's JSON text
(decoding) and `json.dumps` of the body (encoding), both linear, in the same
run. Linearity is the growth row: the cost per kB (or per message) at the
limit over that at the smaller size, 1.00x when linear. Building a string by
repeated concatenation, or scanning it once per piece, would show there as
about 10x; a ratio to the baseline that stays put between the sizes says the
same.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import interlingua_anthropic
import interlingua_openai
import interlingua_openai.responses
from bench.histories import (
    APIS,
    Assistant,
    Call,
    Step,
    System,
    ToolResult,
    User,
    anthropic_body,
    chat_body,
    responses_body,
    script,
    sentence,
)
from bench.report import Row
from bench.timing import Settings, measure
from interlingua import TranslationReport

__all__ = ["LIMITS", "TITLE", "Limit", "limit_rows"]

TITLE = "Limits: one huge value, decoded and encoded (baselines: json.loads, json.dumps)"

CODECS: dict[str, ModuleType] = {
    "anthropic": interlingua_anthropic,
    "chat": interlingua_openai,
    "responses": interlingua_openai.responses,
}
WRITERS: dict[str, Callable[[list[Step]], dict[str, object]]] = {
    "anthropic": anthropic_body,
    "chat": chat_body,
    "responses": responses_body,
}


def image_history(kilobytes: int) -> list[Step]:
    """A user's question with one PNG of `kilobytes` kB of base64."""
    raw = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * (kilobytes * 750 // 256 + 1)
    data = base64.b64encode(raw).decode("ascii")[: kilobytes * 1000]
    return [System(text="You describe pictures."), User(text="What is in it?", image=data)]


def arguments_history(kilobytes: int) -> list[Step]:
    """A tool call whose arguments are `kilobytes` kB of JSON text, and its result."""
    words = sentence(0, 200) + " "
    query = (words * (kilobytes * 1000 // len(words) + 1))[: kilobytes * 1000 - 25]
    call = Call(0, "search_docs", {"query": query, "limit": 3})
    return [
        System(text="You search the travel guide."),
        User(text="Look this up.", image=None),
        Assistant(n=0, thought="The guide has it.", text="Searching.", calls=(call,)),
        ToolResult(call=call, output="Three passages found."),
    ]


def text_history(messages: int) -> list[Step]:
    """The benchmark's history of `messages` messages, without its images."""
    return [User(step.text, None) if isinstance(step, User) else step for step in script(messages)]


@dataclass(frozen=True)
class Limit:
    """One limit: its name and unit, the history of a given size, and the sizes."""

    name: str
    unit: str
    history: Callable[[int], list[Step]]
    sizes: tuple[int, int]
    quick_sizes: tuple[int, int]


LIMITS = (
    # 5 MB, not 2: a 2 MB string still fits the CPU's cache, and is quicker per kB.
    Limit("image", "kB", image_history, (5_000, 20_000), (20, 200)),
    Limit("history", "messages", text_history, (10_000, 100_000), (100, 1_000)),
    Limit("tool arguments", "kB", arguments_history, (1_000, 10_000), (10, 100)),
)


def limit_rows(settings: Settings, *, quick: bool, progress: Callable[[str], None]) -> list[Row]:
    """Decoding and encoding each API's request body at both sizes of each limit."""
    rows: list[Row] = []
    for limit in LIMITS:
        for api in APIS:
            measured: list[Row] = []
            for size in limit.quick_sizes if quick else limit.sizes:
                progress(f"limits: {limit.name}, {api}, {size:,} {limit.unit}")
                body = WRITERS[api](limit.history(size))
                measured += _rows(limit, size, api, body, settings)
            rows += sorted(measured, key=lambda row: (row.path, row.size or 0))
    return rows


def _rows(
    limit: Limit, size: int, api: str, body: dict[str, object], settings: Settings
) -> list[Row]:
    codec = CODECS[api]
    text = json.dumps(body)
    request = codec.decode_request(body)
    decoding = measure(lambda: codec.decode_request(body), lambda: json.loads(text), settings)
    encoding = measure(
        lambda: codec.encode_request(request, report=TranslationReport()),
        lambda: json.dumps(body),
        settings,
    )
    where = f"limit {limit.name} ({limit.unit})"
    return [
        Row(f"{where}: decode {api}", size, decoding, "json.loads"),
        Row(f"{where}: encode {api}", size, encoding, "json.dumps"),
    ]
