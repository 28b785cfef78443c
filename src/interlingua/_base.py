"""The base of every core value: pydantic models that raise interlingua errors.

Whatever way a value is made (built, validated from data or JSON, copied with
changes, or, for the mutable `ChatHistory`, changed in place), it is checked
against the same rules, and a broken one raises `InvalidDataError` naming the
path of what is wrong.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from interlingua._errors import InvalidDataError
from interlingua._provider_data import ProviderData

if sys.version_info >= (3, 11):
    from typing import Self
else:  # pragma: no cover
    from typing_extensions import Self

__all__ = [
    "CoreModel",
    "MutableCoreModel",
    "ProviderData",
    "empty_field",
    "invalid_data",
    "provider_data_field",
    "type_tag",
    "union_tags",
    "validate",
]

M = TypeVar("M", bound=BaseModel)


def _is_empty(value: object) -> bool:
    return not value


def type_tag(value: Any) -> Any:
    """The `type` tag of a value or of its data: the discriminator of every union
    of core values. A callable one, as pydantic's own lookup is slow for values
    already built (a part passed to a message)."""
    return value.get("type") if isinstance(value, dict) else getattr(value, "type", None)


def empty_field(default_factory: Callable[[], Any] = dict) -> Any:
    """A field empty by default and left out of dumps while it stays empty."""
    return Field(default_factory=default_factory, exclude_if=_is_empty)


def provider_data_field() -> Any:
    """An empty-by-default `provider_data` mapping, left out of dumps while empty."""
    return empty_field(dict)


@cache
def union_tags(model: type[BaseModel]) -> frozenset[str]:
    """The tags of every discriminated union a model's validation goes through."""
    found: set[str] = set()
    pending: list[Any] = [model.__pydantic_core_schema__]
    while pending:
        schema = pending.pop()
        if isinstance(schema, dict):
            if schema.get("type") == "tagged-union":
                found.update(tag for tag in schema["choices"] if isinstance(tag, str))
            pending.extend(schema.values())
        elif isinstance(schema, list | tuple):
            pending.extend(schema)
    return frozenset(found)


def invalid_data(
    exc: ValidationError,
    model: type[BaseModel],
    *,
    subject: str,
    prefix: tuple[str | int, ...] = (),
) -> InvalidDataError:
    """pydantic's error while validating `model`, as `InvalidDataError`."""
    return InvalidDataError.from_validation(
        exc, subject=subject, prefix=prefix, union_tags=union_tags(model)
    )


@contextmanager
def _ours(model: type[BaseModel]) -> Iterator[None]:
    """pydantic's ValidationError, raised in the block, as `InvalidDataError`."""
    try:
        yield
    except ValidationError as exc:
        raise invalid_data(exc, model, subject=model.__name__) from None


class _Checked(BaseModel):
    """Turns pydantic's ValidationError into `InvalidDataError` at every entry."""

    def __init__(self, /, **data: Any) -> None:
        # BaseModel.__init__ without its wrapper around the validator: the
        # one call every core value is built through.
        try:
            self.__pydantic_validator__.validate_python(data, self_instance=self)
        except ValidationError as exc:
            raise invalid_data(exc, type(self), subject=type(self).__name__) from None

    # Tells pydantic this __init__ only wraps the base one, so nested values are
    # validated in core without a Python call per part.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @classmethod
    def model_validate(cls, *args: Any, **kwargs: Any) -> Self:
        with _ours(cls):
            return super().model_validate(*args, **kwargs)

    @classmethod
    def model_validate_json(cls, *args: Any, **kwargs: Any) -> Self:
        with _ours(cls):
            return super().model_validate_json(*args, **kwargs)

    @classmethod
    def model_validate_strings(cls, *args: Any, **kwargs: Any) -> Self:
        with _ours(cls):
            return super().model_validate_strings(*args, **kwargs)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy; with `update`, checked like a new value (nested values already
        checked are taken as they are)."""
        if not update:
            return super().model_copy(deep=deep)
        fields = {name: getattr(self, name) for name in type(self).model_fields}
        copy = type(self).model_validate({**fields, **update})
        return copy.model_copy(deep=True) if deep else copy


class CoreModel(_Checked):
    """A frozen value. Invalid input raises `InvalidDataError` naming the field."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class MutableCoreModel(_Checked):
    """A container changed in place; every assignment is checked."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    def __setattr__(self, name: str, value: Any) -> None:
        with _ours(type(self)):
            super().__setattr__(name, value)


def validate(model: type[M], data: Any, *, subject: str, prefix: tuple[str | int, ...] = ()) -> M:
    """`model.model_validate(data)`, raising `InvalidDataError` with the full path."""
    try:
        return model.__pydantic_validator__.validate_python(data)  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise invalid_data(exc, model, subject=subject, prefix=prefix) from None
