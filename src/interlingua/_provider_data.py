"""What an adapter keeps on a core value to give back to its provider.

Every core value that came from a provider's wire carries `provider_data`,
keyed by provider name; each entry has up to three sections, never another
key, and a section is left out while it is empty:

    {"anthropic": {"fields": {...}, "forms": {...}, "echo": {...}}}

- ``fields``: the wire object's own fields that the core does not model,
  verbatim (`cache_control`, `citations`, an explicit null). They are wire
  data: an encoder lays them over the object it builds for the value
  (`interlingua.codec.overlay`), and they go nowhere else.
- ``forms``: how the wire wrote what the core holds (a lone string or a
  one-block list, a field left out or sent as null, which of two names a
  setting had). Markers, never sent: the encoder reads them to write the
  value back in the same form.
- ``echo``: data the provider needs back that has no core field and is not a
  field of the value's own wire object (the output item a text part came
  from, an audio answer's id, a whole tool call of a kind the core does not
  model). The encoder that knows where it goes puts it there.

Each adapter types its sections (TypedDicts in its `_wire` module); this
module only fixes the three names. The layout is part of the saved history
format (`interlingua.chat_history` since version 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, TypeVar, cast

from pydantic import AfterValidator, ConfigDict
from typing_extensions import TypedDict

__all__ = [
    "PROVIDER_DATA_SECTIONS",
    "OwnedJSON",
    "ProviderData",
    "ProviderEntry",
    "copy_json",
    "keep",
    "kept",
    "merge_provider_data",
    "wire_fields",
]

T = TypeVar("T")


def copy_json(value: T) -> T:
    """A deep copy of a JSON value: new dicts and lists, the same immutable leaves
    (a leaf is not even looked at twice: only containers are recursed into)."""
    if isinstance(value, dict):
        copied: Any = {
            key: copy_json(item) if isinstance(item, dict | list) else item
            for key, item in value.items()
        }
        return cast(T, copied)
    if isinstance(value, list):
        items: Any = [copy_json(item) if isinstance(item, dict | list) else item for item in value]
        return cast(T, items)
    return value


# A JSON object a core value owns: copied when the value is made, so the value
# shares nothing mutable with the body (or the dict) it was made from.
OwnedJSON = Annotated[dict[str, Any], AfterValidator(copy_json)]


class ProviderEntry(TypedDict, total=False):
    """One provider's data on a value: its three sections (see the module doc)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]

    fields: OwnedJSON
    forms: OwnedJSON
    echo: OwnedJSON


ProviderData = dict[str, ProviderEntry]

PROVIDER_DATA_SECTIONS = ("fields", "forms", "echo")

_EMPTY: ProviderEntry = {}
_NO_DATA: ProviderData = {}


def kept(owner: Any, provider: str) -> ProviderEntry:
    """What `owner` keeps for `provider` (empty when nothing, or when `owner` has
    no `provider_data`). Read only: the entry belongs to a frozen value."""
    data: Mapping[str, ProviderEntry] = getattr(owner, "provider_data", _NO_DATA)
    return data.get(provider, _EMPTY)


def wire_fields(owner: Any, provider: str) -> dict[str, Any]:
    """A copy of the `fields` `owner` keeps for `provider`: what an encoder lays
    over the object it builds (a copy, so the body shares nothing with the value)."""
    fields = kept(owner, provider).get("fields")
    return copy_json(fields) if fields else {}


def keep(
    provider: str,
    *,
    fields: Mapping[str, Any] | None = None,
    forms: Mapping[str, Any] | None = None,
    echo: Mapping[str, Any] | None = None,
) -> ProviderData:
    """`provider_data` holding the sections that say something (the value it is
    given to copies them: `OwnedJSON`).

    `fields` are kept whole (a null there is a null on the wire); in `forms`
    and `echo` a None says nothing and is left out.
    """
    entry: ProviderEntry = {}
    if fields:
        entry["fields"] = dict(fields)
    if forms and (said := {key: value for key, value in forms.items() if value is not None}):
        entry["forms"] = said
    if echo and (said := {key: value for key, value in echo.items() if value is not None}):
        entry["echo"] = said
    return {provider: entry} if entry else {}


def merge_provider_data(
    base: Mapping[str, ProviderEntry], more: Mapping[str, ProviderEntry]
) -> ProviderData:
    """`base` with `more` laid over it, section by section (`more` wins a key)."""
    merged = {
        provider: cast("dict[str, dict[str, Any]]", dict(entry)) for provider, entry in base.items()
    }
    for provider, entry in more.items():
        target = merged.setdefault(provider, {})
        for section, values in entry.items():
            target[section] = {**target.get(section, {}), **cast("dict[str, Any]", values)}
    return cast("ProviderData", merged)
