"""The gateway's configuration: a TOML file, validated, with the bad key named.

    keys = ["..."]                  # gateway keys a client presents (or INTERLINGUA_GATEWAY_KEYS)
    strict = false                  # refuse (400) a request the upstream cannot take whole:
                                    # true at any loss, "setting" at a setting or content
                                    # loss, "content" at a content loss alone
    max_body_bytes = 33554432       # larger bodies get the API's 413
    timeout = 600.0                 # seconds an upstream may take, unless its own says
    log = "human"                   # or "json": the line logged per request

    [models."claude-sonnet-4-5"]    # a model name clients ask for
    upstream = "groq:openai/gpt-oss-120b"
    fallbacks = ["openai:gpt-4.1-mini"]

    [upstreams.groq]                # per provider (an adapter's name)
    base_url = "https://api.groq.com"
    timeout = 30.0
    api_key_env = "GROQ_API_KEY"

Every name is checked against the installed adapters when the file is read. A
`provider:model` a client asks for needs no entry; the SDK then reads its own
environment variables (`OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`, ...).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from interlingua._adapter import available_adapters, split_model
from interlingua._report import Strictness

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

__all__ = ["KEYS_VARIABLE", "ConfigError", "GatewayConfig", "Route", "UpstreamOptions", "load"]

KEYS_VARIABLE = "INTERLINGUA_GATEWAY_KEYS"
_STRICT = ConfigDict(extra="forbid", frozen=True)


class ConfigError(ValueError):
    """A configuration that cannot be used, naming the file and the key."""


def _upstream_name(value: str) -> str:
    provider, _ = split_model(value)
    if provider is None:
        raise ValueError(f"{value!r} is no 'provider:model'")
    if provider not in available_adapters():
        raise ValueError(f"no adapter named {provider!r} is installed (in {value!r})")
    return value


UpstreamName = Annotated[str, AfterValidator(_upstream_name)]


class Route(BaseModel):
    """Where a model name a client asks for goes: `upstream`, then each fallback in turn."""

    model_config = _STRICT

    upstream: UpstreamName
    fallbacks: tuple[UpstreamName, ...] = ()

    @property
    def upstreams(self) -> tuple[str, ...]:
        return (self.upstream, *self.fallbacks)


class UpstreamOptions(BaseModel):
    """How one provider is reached; what is unset is the SDK's default."""

    model_config = _STRICT

    base_url: str | None = None
    timeout: float | None = Field(default=None, gt=0)
    api_key_env: str | None = None
    max_retries: int = Field(default=0, ge=0)  # the fallbacks retry; the client's SDK too


class GatewayConfig(BaseModel):
    """The whole configuration (module docstring)."""

    model_config = _STRICT

    keys: tuple[str, ...] = Field(default=(), repr=False)
    strict: Strictness = False
    max_body_bytes: int = Field(default=32 * 1024 * 1024, gt=0)
    timeout: float = Field(default=600.0, gt=0)
    log: Literal["human", "json"] = "human"
    models: dict[str, Route] = Field(default_factory=dict)
    upstreams: dict[str, UpstreamOptions] = Field(default_factory=dict)

    @field_validator("strict", mode="before")
    @classmethod
    def _check_strict(cls, value: Any) -> Any:
        if value not in (True, False, "setting", "content") or type(value) not in (bool, str):
            raise ValueError(f'true, false, "setting" or "content", not {value!r}')
        return value

    @field_validator("upstreams")
    @classmethod
    def _check_providers(cls, value: dict[str, UpstreamOptions]) -> dict[str, UpstreamOptions]:
        unknown = sorted(set(value) - set(available_adapters()))
        if unknown:
            raise ValueError(f"no adapter named {unknown[0]!r} is installed")
        return value

    def gateway_keys(self) -> tuple[str, ...]:
        """The keys clients may present: the file's and `INTERLINGUA_GATEWAY_KEYS`'s."""
        from_env = os.environ.get(KEYS_VARIABLE, "")
        return self.keys + tuple(key.strip() for key in from_env.split(",") if key.strip())


def load(path: str | os.PathLike[str] | None = None, **overrides: Any) -> GatewayConfig:
    """The configuration in the TOML file at `path` (none: the defaults), with `overrides`."""
    where = str(path) if path is not None else "the configuration"
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise ConfigError(f"{where}: {error.strerror or error}") from error
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{where}: not TOML: {error}") from error
    try:
        return GatewayConfig.model_validate({**data, **overrides})
    except ValidationError as error:
        first = error.errors()[0]
        raise ConfigError(f"{where}: {_key(first['loc'])}: {first['msg']}") from error


def _key(location: tuple[int | str, ...]) -> str:
    """A pydantic location as the TOML key it is (`models.claude.fallbacks[0]`)."""
    text = ""
    for piece in location:
        if isinstance(piece, int):
            text += f"[{piece}]"
        else:
            name = piece if piece.replace("_", "").replace("-", "").isalnum() else f'"{piece}"'
            text += f".{name}" if text else name
    return text or "<root>"
