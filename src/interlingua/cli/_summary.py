"""Short descriptions of core values, shared by the commands' output: a
provider's name, a part, a message, an answer and a usage, as text for a
terminal and as plain JSON values."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from typing_extensions import assert_never

from interlingua._cost import Cost
from interlingua._messages import Message
from interlingua._parts import (
    ContentPart,
    FilePart,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)
from interlingua._response import ChatResponse
from interlingua._usage import TokenUsage

__all__ = [
    "PROVIDER_NAMES",
    "clip",
    "cost_json",
    "describe_answer",
    "describe_message",
    "describe_part",
    "dollars",
    "provider_name",
    "usage_json",
    "usage_line",
]

PROVIDER_NAMES = {
    "anthropic": "Anthropic",
    "openai": "Chat Completions",
    "openai-responses": "Responses API",
    "mistral": "Mistral",
    "groq": "Groq",
    "google": "Gemini",
    "deepseek": "DeepSeek",
    "cerebras": "Cerebras",
    "ollama": "Ollama",
    "openai-compatible": "OpenAI-compatible",
    "bedrock": "Amazon Bedrock",
}
USAGE_FIELDS = (
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "total_tokens",
)


def provider_name(provider: str | None) -> str:
    if provider is None:
        return "unknown"
    return PROVIDER_NAMES.get(provider, provider)


def clip(text: str, width: int = 72) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def describe_part(part: ContentPart, width: int = 60) -> str:
    """A part in a few words: its kind and what tells it apart, its text cut
    to `width` characters (0: no text at all)."""
    match part:
        case TextPart():
            return _with_text("text", part.text, width) if part.text else "empty text"
        case ReasoningPart():
            return f"reasoning ({_reasoning_kind(part)})"
        case ToolCallPart():
            return f"tool call {part.name}" + (f" {clip(part.arguments, width)}" if width else "")
        case ToolResultPart():
            return _with_text("tool result", part.text, width)
        case FilePart():
            return f"file {part.media_type}"
        case RefusalPart():
            return _with_text("refusal", part.text, width)
        case OpaquePart():
            return f"opaque {part.provider} block {part.block_type or ''}".rstrip()
        case _:
            assert_never(part)


def _with_text(kind: str, text: str, width: int) -> str:
    return f"{kind} {clip(text, width)!r}" if width else kind


def _reasoning_kind(part: ReasoningPart) -> str:
    made = part.provider or "unknown"
    if part.redacted:
        return f"{made}, redacted"
    if part.signature and not part.text:
        return f"{made}, encrypted"
    return f"{made}, signed" if part.signature else made


def describe_message(message: Message, width: int = 50) -> str:
    """A message on one line: its role and parts, the same parts in a row
    counted (`tool call get_weather x2`); the text only of what people wrote."""
    shown = width if message.role in {"system", "user"} else 0
    labels = [describe_part(part, shown) for part in message.parts]
    runs: list[tuple[str, int]] = []
    for label in labels:
        if runs and runs[-1][0] == label:
            runs[-1] = (label, runs[-1][1] + 1)
        else:
            runs.append((label, 1))
    parts = ", ".join(label if n == 1 else f"{label} x{n}" for label, n in runs)
    return f"{message.role}: {parts or 'no parts'}"


def describe_answer(response: ChatResponse, width: int = 200) -> list[str]:
    """The answer's lines: each part, and why it finished."""
    lines = [describe_part(part, width) for part in response.message.parts]
    reason = response.finish_reason.value if response.finish_reason else "not said"
    raw = response.raw_finish_reason
    lines.append(f"finished: {reason}" + (f" ({raw})" if raw and raw != reason else ""))
    return lines


def usage_json(usage: TokenUsage) -> dict[str, Any]:
    return {name: getattr(usage, name) for name in USAGE_FIELDS}


def usage_line(usage: TokenUsage) -> str:
    line = f"{usage.input_tokens:,} in, {usage.output_tokens:,} out"
    extras = [
        f"{count:,} {label}"
        for count, label in (
            (usage.reasoning_tokens, "reasoning"),
            (usage.cache_read_tokens, "cache read"),
            (usage.cache_write_tokens, "cache write"),
        )
        if count
    ]
    return line + (f" ({', '.join(extras)})" if extras else "")


def dollars(amount: Decimal) -> str:
    """`Decimal("0.0000371")` -> `$0.0000371` (never in exponent form)."""
    return f"${amount:f}"


def cost_json(cost: Cost) -> dict[str, Any]:
    """A cost's prices in US dollars, as decimal strings (no float rounding)."""
    prices = {"input": cost.input_price, "output": cost.output_price, "total": cost.total_price}
    return {
        **{name: f"{price:f}" for name, price in prices.items()},
        "model": cost.model,
        "provider": cost.provider,
    }
