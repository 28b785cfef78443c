"""A chat response in neutral form."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from pydantic import model_validator

from interlingua._base import CoreModel, ProviderData, empty_field, provider_data_field
from interlingua._errors import ToolArgumentsError
from interlingua._finish import FinishReason
from interlingua._messages import Message
from interlingua._parts import ToolCallPart
from interlingua._report import TranslationLoss
from interlingua._usage import TokenUsage

if TYPE_CHECKING:
    from interlingua._cost import Cost

__all__ = ["ChatResponse"]


class ChatResponse(CoreModel):
    """One answer: the assistant message, why it ended, and what it cost.

    `finish_reason` is None only for a stream that broke before it said.
    `alternatives` keeps the further choices of a call that asked for more
    than one (OpenAI's `n`); `warnings` what was kept although malformed
    (tool-call arguments that are not JSON, say).
    """

    id: str | None = None
    model: str | None = None
    provider: str | None = None
    message: Message = Message(role="assistant")
    finish_reason: FinishReason | None = None
    raw_finish_reason: str | None = None
    usage: TokenUsage = TokenUsage()
    alternatives: tuple[ChatResponse, ...] = empty_field(tuple)
    warnings: tuple[TranslationLoss, ...] = empty_field(tuple)
    provider_data: ProviderData = provider_data_field()

    @model_validator(mode="after")
    def _check(self) -> ChatResponse:
        if self.message.role != "assistant":
            raise ValueError(
                f"a response holds an assistant message, not a {self.message.role} one"
            )
        # However the response was made (decoded, accumulated, built by hand,
        # copied with changes), tool arguments that are not a JSON object are kept
        # as text and flagged: the flags are made anew from the message each time.
        others = tuple(w for w in self.warnings if not _is_argument_flag(w))
        found = tuple(_malformed_arguments(self.message))
        if found or len(others) != len(self.warnings):
            object.__setattr__(self, "warnings", (*others, *found))
        return self

    @property
    def text(self) -> str:
        return self.message.text

    def cost(self, *, provider: str | None = None) -> Cost:
        """What the call cost, by genai-prices (the `prices` extra): its `total_price`,
        `input_price` and `output_price` in US dollars. `provider` names the adapter
        that answered where the answer's `provider` is not it (Claude on Bedrock or
        Vertex AI answers as `"anthropic"`). `CostError` names what has no price
        (the provider, the model, the usage), or says genai-prices is not installed."""
        from interlingua._cost import response_cost

        return response_cost(self, provider=provider)


def _is_argument_flag(warning: TranslationLoss) -> bool:
    return warning.kind == "malformed" and warning.path.endswith(".arguments")


def _malformed_arguments(message: Message) -> Iterator[TranslationLoss]:
    for index, part in enumerate(message.parts):
        if not isinstance(part, ToolCallPart):
            continue
        try:
            part.parsed_arguments()
        except ToolArgumentsError as exc:
            path = f"message.parts[{index}].arguments"
            yield TranslationLoss(path, "malformed", f"{exc}; kept as text")
