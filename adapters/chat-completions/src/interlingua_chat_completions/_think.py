"""Reasoning written inside `<think>...</think>` at the start of an assistant's
content (Groq's `reasoning_format: "raw"`, and many servers of open models),
split out as a `ReasoningPart` and put back where it was, for a dialect with
`think_tags`.

    "<think>\\nI should call it.\\n</think>\\n\\nThe answer"
    ReasoningPart("I should call it.")   forms.think = ["<think>\\n", "\\n</think>\\n\\n"]
    TextPart("The answer")

The reasoning is the text between the tags without the whitespace around it;
`forms.think` keeps what came before and after it, so the content goes back
exactly. A `<think>` never closed (an answer cut off) holds reasoning to the
end. A stream is split alike, piece by piece (`ThinkStream`): its reasoning
part says its form as it opens (`forms.think` with what came before it, and
an empty closing), so that a stream encoder writes it back inside the
content as it comes; the whole form follows once the reasoning has ended.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from interlingua import PartDataEvent, ReasoningDelta, ReasoningPart, StreamEvent, TextDelta
from interlingua.codec import keep, kept
from interlingua_chat_completions._wire import ABSENT, ReasoningForms

__all__ = ["ThinkStream", "split_think", "think_form", "think_prefix", "with_think"]

_OPEN, _CLOSE = "<think>", "</think>"
_SPLIT = re.compile(r"(\s*<think>\s*)(.*?)(\s*</think>\s*|\s*$)", re.DOTALL)


def split_think(text: str, provider: str) -> tuple[ReasoningPart, str] | None:
    """The reasoning `text` opens with, and the answer after it; None without one."""
    match = _SPLIT.match(text)
    if match is None:
        return None
    forms = ReasoningForms(think=[match.group(1), match.group(3)])
    part = ReasoningPart(
        text=match.group(2), provider=provider, provider_data=keep(provider, forms=forms)
    )
    return part, text[match.end() :]


def think_prefix(part: ReasoningPart, provider: str) -> str | None:
    """The content a reasoning part split from it opened with; None for another part."""
    if part.provider != provider:
        return None
    think = kept(part, provider).get("forms", {}).get("think")
    return None if think is None else f"{think[0]}{part.text}{think[1]}"


def think_form(data: Mapping[str, Any]) -> tuple[str, str] | None:
    """The opening and closing of the `<think>` form a part's data holds, if any."""
    think = data.get("forms", {}).get("think")
    if not isinstance(think, list) or len(think) != 2:
        return None
    opening, closing = think
    return (opening, closing) if isinstance(opening, str) and isinstance(closing, str) else None


def with_think(prefix: str, content: Any) -> Any:
    """`content` (a string, a list of items, null or absent) opening with `prefix`."""
    if isinstance(content, str):
        return prefix + content
    if isinstance(content, list):
        return [{"type": "text", "text": prefix}, *content]
    return prefix if content is None or content is ABSENT else content


class ThinkStream:
    """Splits a stream's content text as `split_think` splits the whole: the
    reasoning as `ReasoningDelta`s at `reasoning_index`, the answer as
    `TextDelta`s at `text_index`, and `forms.think` once the reasoning has
    ended (and, as the reasoning opens, with the opening alone). Text that may
    still turn out to be whitespace around the reasoning, or the start of a
    tag, is held until the next piece tells."""

    def __init__(self, provider: str, text_index: int, reasoning_index: int) -> None:
        self.provider = provider
        self.text_index, self.reasoning_index = text_index, reasoning_index
        self.state = "start"  # then "think", "gap" (after `</think>`), "answer"
        self.held = ""  # text received and not given out yet
        self.before = self.after = ""  # what `forms.think` keeps
        self.started = False  # reasoning text given out

    def feed(self, text: str) -> list[StreamEvent]:
        self.held += text
        events: list[StreamEvent] = []
        if self.state == "start":
            opening = self.held.lstrip()
            if len(opening) < len(_OPEN) and _OPEN.startswith(opening):
                return events  # perhaps `<think>`: too early to tell
            self.state = "think" if opening.startswith(_OPEN) else "answer"
            if self.state == "think":
                cut = self.held.index(_OPEN) + len(_OPEN)
                self.before, self.held = self.held[:cut], self.held[cut:]
        if self.state == "think":
            events += self.thinking()
        if self.state == "gap":
            rest = self.held.lstrip()
            self.after += self.held[: len(self.held) - len(rest)]
            self.held = rest
            if rest:
                events.append(self.forms())
                self.state = "answer"
        if self.state == "answer" and self.held:
            events.append(TextDelta(index=self.text_index, text=self.held))
            self.held = ""
        return events

    def thinking(self) -> list[StreamEvent]:
        """The reasoning given out so far; at `</think>`, on to the gap."""
        if not self.started:
            rest = self.held.lstrip()
            self.before += self.held[: len(self.held) - len(rest)]
            self.held = rest
        end = self.held.find(_CLOSE)
        if end >= 0:
            body, self.held = self.held[:end], self.held[end + len(_CLOSE) :]
            reasoning = body.rstrip()
            closing, self.state = body[len(reasoning) :] + _CLOSE, "gap"
            events = self.reasoning(reasoning)
            self.after = closing
            return events
        # Held back: a tail that may begin `</think>`, and the whitespace before it.
        partial = next(
            (n for n in range(len(_CLOSE) - 1, 0, -1) if self.held.endswith(_CLOSE[:n])), 0
        )
        ready = self.held[: len(self.held) - partial].rstrip()
        self.held = self.held[len(ready) :]
        return self.reasoning(ready) if ready else []

    def reasoning(self, text: str) -> list[StreamEvent]:
        """The reasoning's next piece; the first time, the part opened with its
        opening (the closing is not known yet)."""
        events: list[StreamEvent] = []
        if not self.started:
            self.started = True
            opened = ReasoningDelta(index=self.reasoning_index, text="", provider=self.provider)
            events += [opened, self.forms()]
        if text:
            events.append(
                ReasoningDelta(index=self.reasoning_index, text=text, provider=self.provider)
            )
        return events

    def forms(self) -> PartDataEvent:
        """`forms.think` as far as it is known."""
        forms = ReasoningForms(think=[self.before, self.after])
        entry = keep(self.provider, forms=forms)[self.provider]
        return PartDataEvent(index=self.reasoning_index, provider=self.provider, data=entry)

    def finish(self) -> list[StreamEvent]:
        """At the end of the content: what is still held."""
        events: list[StreamEvent] = []
        if self.state == "start" and self.held:
            events.append(TextDelta(index=self.text_index, text=self.held))
        elif self.state in ("think", "gap"):
            if self.state == "think":  # never closed: reasoning to the end
                reasoning = self.held.rstrip()
                events += self.reasoning(reasoning)
                self.after = self.held[len(reasoning) :]
            events.append(self.forms())
        self.held, self.state = "", "answer"
        return events
