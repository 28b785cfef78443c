"""The base of every core value: frozen pydantic models that raise interlingua errors."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from interlingua._errors import InvalidDataError

if sys.version_info >= (3, 11):
    from typing import Self
else:  # pragma: no cover
    from typing_extensions import Self

__all__ = ["CoreModel", "ProviderData", "empty_field", "provider_data_field", "validate"]

# Data one provider needs echoed back to it alone (a signature, a cache marker,
# a citation list), keyed by provider name: {"anthropic": {"cache_control": {...}}}.
ProviderData = dict[str, dict[str, Any]]

M = TypeVar("M", bound=BaseModel)


def _is_empty(value: object) -> bool:
    return not value


def empty_field(default_factory: Callable[[], Any] = dict) -> Any:
    """A field empty by default and left out of dumps while it stays empty."""
    return Field(default_factory=default_factory, exclude_if=_is_empty)


def provider_data_field() -> Any:
    """An empty-by-default `provider_data` mapping, left out of dumps while empty."""
    return empty_field(dict)


class CoreModel(BaseModel):
    """A frozen value. Invalid input raises `InvalidDataError` naming the field."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise InvalidDataError.from_validation(exc, subject=type(self).__name__) from None

    # Tells pydantic this __init__ only wraps the base one, so nested values are
    # validated in core without a Python call per part.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @classmethod
    def model_validate(cls, *args: Any, **kwargs: Any) -> Self:
        try:
            return super().model_validate(*args, **kwargs)
        except ValidationError as exc:
            raise InvalidDataError.from_validation(exc, subject=cls.__name__) from None

    @classmethod
    def model_validate_json(cls, *args: Any, **kwargs: Any) -> Self:
        try:
            return super().model_validate_json(*args, **kwargs)
        except ValidationError as exc:
            raise InvalidDataError.from_validation(exc, subject=cls.__name__) from None


def validate(model: type[M], data: Any, *, subject: str, prefix: tuple[str | int, ...] = ()) -> M:
    """`model.model_validate(data)`, raising `InvalidDataError` with the full path."""
    try:
        return model.__pydantic_validator__.validate_python(data)  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise InvalidDataError.from_validation(exc, subject=subject, prefix=prefix) from None
