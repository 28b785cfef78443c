"""A chat request in neutral form: what any adapter can encode for its provider."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from interlingua._base import CoreModel, ProviderData, empty_field, provider_data_field
from interlingua._context import InvocationContext
from interlingua._messages import Message
from interlingua._provider_data import OwnedJSON
from interlingua._tools import ToolChoice, ToolSpec

__all__ = ["ChatRequest", "ReasoningConfig", "ResponseFormat"]

# The effort that turns reasoning off (OpenAI's since gpt-5.1, Groq's, Cerebras', Mistral's).
_OFF_EFFORT = "none"
_OFF_EFFORTS = (None, _OFF_EFFORT)


class ReasoningConfig(CoreModel):
    """Whether and how hard the model should think before answering.

    `budget_tokens` (Anthropic, Mistral) and `effort` (OpenAI's `low`, `medium`,
    `high`...) are each used where the target understands them. `enabled`
    with neither lets the provider decide (Anthropic's adaptive thinking).

    `enabled=False` turns reasoning off, and then says nothing of how much: no
    budget, and no effort but `"none"`, the word OpenAI's and others' efforts
    have for off (`ReasoningConfig(effort="none")` is off), kept so that a body
    says it back as it came. Each encoder sends the least reasoning the
    target's model has, reporting what is not off (`interlingua.codec.ReasoningOff`).
    """

    enabled: bool = True
    budget_tokens: int | None = None
    effort: str | None = None
    summary: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _effort_none_is_off(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("effort") == _OFF_EFFORT and "enabled" not in data:
            return {**data, "enabled": False}
        return data

    @model_validator(mode="after")
    def _off_says_no_more(self) -> ReasoningConfig:
        if self.enabled and self.effort == _OFF_EFFORT:
            raise ValueError(f"effort {_OFF_EFFORT!r} turns reasoning off: enabled must be False")
        if not self.enabled and (self.budget_tokens is not None or self.effort not in _OFF_EFFORTS):
            raise ValueError(
                f"reasoning turned off takes no budget, and no effort but {_OFF_EFFORT!r}"
            )
        return self


class ResponseFormat(CoreModel):
    """Free text, any JSON object, or JSON matching `json_schema`."""

    type: Literal["text", "json_object", "json_schema"]
    name: str | None = None
    description: str | None = None
    json_schema: OwnedJSON | None = None
    strict: bool | None = None

    @model_validator(mode="after")
    def _schema_with_json_schema(self) -> ResponseFormat:
        if self.type == "json_schema" and self.json_schema is None:
            raise ValueError("a json_schema response format needs its json_schema")
        return self


class ChatRequest(CoreModel):
    """Everything a chat call sends.

    `model` may carry a provider prefix (`"anthropic:claude-sonnet-4-5"`) for
    routing. `provider_options` holds, per provider name, the body fields that
    provider alone has; they are sent to it and reported as dropped elsewhere.
    `provider_data` holds, per provider name, the `forms` a decoded request was
    written in on that provider's wire (which of two names a field had, a lone
    string for a list): reused when it goes back there, no loss anywhere else.

    `foreign_reasoning` says what an encoder does with reasoning another
    provider made: `"drop"` leaves it out, `"text"` sends its readable text as
    a text part marked `<reasoning provider="...">`; either is reported. It is
    never sent as reasoning (`interlingua._elsewhere`).
    """

    model: str
    messages: tuple[Message, ...] = ()
    tools: tuple[ToolSpec, ...] = ()
    tool_choice: ToolChoice | None = None
    parallel_tool_calls: bool | None = None
    max_tokens: int | None = None
    # A number stays as written (`1` is not `1.0`), so bodies round-trip byte for byte.
    temperature: int | float | None = None
    top_p: int | float | None = None
    top_k: int | None = None
    stop: tuple[str, ...] = ()
    seed: int | None = None
    reasoning: ReasoningConfig | None = None
    response_format: ResponseFormat | None = None
    stream: bool = False
    foreign_reasoning: Literal["drop", "text"] = "drop"
    context: InvocationContext | None = Field(default=None, exclude=True)
    provider_options: dict[str, OwnedJSON] = empty_field()
    provider_data: ProviderData = provider_data_field()

    @property
    def system(self) -> str:
        """The text of the system messages, joined by blank lines."""
        return "\n\n".join(m.text for m in self.messages if m.role == "system")

    def options_for(self, provider: str) -> dict[str, Any]:
        return self.provider_options.get(provider, {})
