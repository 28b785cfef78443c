"""A chat response in neutral form."""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import model_validator

from interlingua._base import CoreModel, ProviderData, empty_field, provider_data_field
from interlingua._errors import ToolArgumentsError
from interlingua._finish import FinishReason
from interlingua._messages import Message
from interlingua._parts import ToolCallPart
from interlingua._report import TranslationLoss
from interlingua._usage import TokenUsage

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
    def _flag_malformed_arguments(self) -> ChatResponse:
        # However the response was made (decoded, accumulated, built by hand), tool
        # arguments that are not a JSON object are kept as text and flagged.
        flagged = {warning.path for warning in self.warnings}
        found = tuple(w for w in _malformed_arguments(self.message) if w.path not in flagged)
        if found:
            object.__setattr__(self, "warnings", (*self.warnings, *found))
        return self

    @property
    def text(self) -> str:
        return self.message.text


def _malformed_arguments(message: Message) -> Iterator[TranslationLoss]:
    for index, part in enumerate(message.parts):
        if not isinstance(part, ToolCallPart):
            continue
        try:
            part.parsed_arguments()
        except ToolArgumentsError as exc:
            path = f"message.parts[{index}].arguments"
            yield TranslationLoss(path, "malformed", f"{exc}; kept as text")
