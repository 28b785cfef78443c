"""Finding an adapter's clients over its SDK by the adapter's name, for the
applications built on the library (the command line, the gateway), which reach
providers through the registry only and so name no adapter.

An adapter lists its `ChatClient` and `AsyncChatClient` in its `__all__` (the
skeleton's `_client.py`, loaded lazily by `__init__`); `get_client_class` finds
them there by type, so a third-party adapter built the same way is found too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

from interlingua._adapter import get_adapter
from interlingua._errors import AdapterNotFoundError

if TYPE_CHECKING:
    from interlingua.client import AsyncChatClient, ChatClient

__all__ = ["get_client_class"]


@overload
def get_client_class(name: str, *, asynchronous: Literal[False] = False) -> type[ChatClient]: ...


@overload
def get_client_class(name: str, *, asynchronous: Literal[True]) -> type[AsyncChatClient]: ...


def get_client_class(name: str, *, asynchronous: bool = False) -> type[Any]:
    """The client class over the SDK of the adapter registered as `name`: the
    `ChatClient` (or, `asynchronous`, the `AsyncChatClient`) its `__all__` names
    whose endpoint is the adapter's API. Loading it imports the SDK."""
    from interlingua.client import AsyncChatClient, ChatClient

    adapter = get_adapter(name)
    kind: type[Any] = AsyncChatClient if asynchronous else ChatClient
    for attribute in getattr(adapter, "__all__", ()):
        if not attribute.endswith("Client"):
            continue
        found: Any = getattr(adapter, attribute)
        if not (isinstance(found, type) and issubclass(found, kind)):
            continue
        client: type[ChatClient] = found  # or AsyncChatClient: both have `endpoint`
        if client.endpoint.provider == adapter.PROVIDER:
            return client
    which = "an async client" if asynchronous else "a client"
    raise AdapterNotFoundError(f"the {name!r} adapter has {which} over no SDK (none in __all__)")
