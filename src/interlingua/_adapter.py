"""The adapter protocol, and finding an adapter by provider name.

An adapter is any object (usually a module) with the six pure codec
functions below. Installed adapters register under the entry-point group
`interlingua.adapters`; `register_adapter` adds one by hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from interlingua._errors import AdapterNotFoundError, ProviderError

if TYPE_CHECKING:
    from interlingua._report import TranslationReport
    from interlingua._request import ChatRequest
    from interlingua._response import ChatResponse
    from interlingua._stream import StreamEvent

__all__ = [
    "ENTRY_POINT_GROUP",
    "Adapter",
    "ErrorDecoder",
    "available_adapters",
    "get_adapter",
    "register_adapter",
    "route",
    "split_model",
]

ENTRY_POINT_GROUP = "interlingua.adapters"

_PREFIX = re.compile(r"([a-z][a-z0-9_-]*):(?=.)")

_registered: dict[str, Adapter] = {}


@runtime_checkable
class Adapter(Protocol):
    """What every provider adapter offers. All six functions are pure."""

    PROVIDER: str

    def encode_request(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> dict[str, Any]: ...

    def decode_request(self, body: dict[str, Any]) -> ChatRequest: ...

    def encode_response(
        self, response: ChatResponse, *, report: TranslationReport | None = None
    ) -> dict[str, Any]: ...

    def decode_response(self, body: Any) -> ChatResponse: ...

    def decode_stream(self, events: Iterable[Any]) -> Iterator[StreamEvent]: ...

    def decode_error(
        self, status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
    ) -> ProviderError: ...


class ErrorDecoder(Protocol):
    """An adapter's `decode_error`: an error answer's HTTP status (None inside
    a stream), its body, and its headers where the caller has them (names in
    any case), to the typed error."""

    def __call__(
        self, status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
    ) -> ProviderError: ...


def register_adapter(name: str, adapter: Adapter) -> None:
    """Make `adapter` available as `name`, ahead of any installed one."""
    _registered[name] = adapter


def available_adapters() -> list[str]:
    """The names of the registered and installed adapters."""
    installed = {ep.name for ep in _entry_points(group=ENTRY_POINT_GROUP)}
    return sorted(installed | _registered.keys())


def get_adapter(name: str) -> Adapter:
    """The adapter registered as `name` (`"anthropic"`, `"openai"`, ...)."""
    if name in _registered:
        return _registered[name]
    for entry_point in _entry_points(group=ENTRY_POINT_GROUP, name=name):
        adapter: Adapter = entry_point.load()
        _registered[name] = adapter
        return adapter
    known = ", ".join(available_adapters()) or "none installed"
    raise AdapterNotFoundError(
        f"no interlingua adapter named {name!r} (available: {known}); "
        f"install interlingua-{name} or call register_adapter()"
    )


def split_model(model: str) -> tuple[str | None, str]:
    """`"anthropic:claude-sonnet-4-5"` -> `("anthropic", "claude-sonnet-4-5")`.

    A model string without a provider prefix gives `(None, model)`. Only the
    first colon splits, so model ids with colons of their own survive.
    """
    match = _PREFIX.match(model)
    if match is None:
        return None, model
    return match.group(1), model[match.end() :]


def route(request: ChatRequest, *, default: str | None = None) -> tuple[Adapter, ChatRequest]:
    """The adapter named by the request's `provider:model` string, and the request
    with the bare model id. `default` names the adapter for an unprefixed model."""
    provider, model = split_model(request.model)
    if provider is not None and default is not None and provider not in available_adapters():
        # Not a provider prefix after all: a model id with a colon ("ft:gpt-4o:org::id").
        provider, model = None, request.model
    name = provider or default
    if name is None:
        raise AdapterNotFoundError(
            f"model {request.model!r} names no provider: write it as 'provider:model'"
        )
    return get_adapter(name), request.model_copy(update={"model": model})


def _entry_points(**selection: str) -> Any:
    # importlib.metadata costs a codec's import a third of its time: read on first look-up.
    from importlib.metadata import entry_points

    return entry_points(**selection)
