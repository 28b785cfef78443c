"""Tools the model may call, and how it is told to choose among them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from interlingua._base import CoreModel, ProviderData, provider_data_field
from interlingua._provider_data import OwnedJSON

__all__ = ["ToolChoice", "ToolSpec"]


def _empty_object_schema() -> dict[str, Any]:
    return {"type": "object", "properties": {}}


class ToolSpec(CoreModel):
    """A tool's name, what it does, and the JSON Schema of its arguments."""

    name: str
    description: str | None = None
    parameters: OwnedJSON = Field(default_factory=_empty_object_schema)
    strict: bool | None = None
    provider_data: ProviderData = provider_data_field()


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
