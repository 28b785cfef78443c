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
    max_output_tokens = 32768       # caps the max_tokens a client asks for

    [models."claude-*"]             # a pattern: `*` any characters, `?` one
    upstream = "anthropic:*"        # `*` as a model: the name the client asked for

    [models."*"]                    # the default route
    upstream = "openai:gpt-4.1"

    [upstreams.groq]                # per provider (an adapter's name)
    base_url = "https://api.groq.com"
    timeout = 30.0
    api_key_env = "GROQ_API_KEY"
    max_output_tokens = 65536

    [upstreams.bedrock]             # Amazon Bedrock: AWS credentials as boto3 finds them
    region = "us-east-1"            # (else AWS_REGION); a key of api_key_env is a Bedrock API key

Every name is checked against the installed adapters when the file is read.
A model name is routed by its own entry; else, as `provider:model`, to that
provider (the SDK then reads its own environment variables, `OPENAI_API_KEY`,
`ANTHROPIC_BASE_URL`, ...); else by the most specific pattern it matches (the
one with the most characters besides `*` and `?`; of two alike, the first in
the file), `"*"` last of all.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from interlingua._adapter import available_adapters, split_model
from interlingua._report import Strictness

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

__all__ = [
    "ASKED",
    "KEYS_VARIABLE",
    "ConfigError",
    "GatewayConfig",
    "Route",
    "UpstreamOptions",
    "load",
]

KEYS_VARIABLE = "INTERLINGUA_GATEWAY_KEYS"
ASKED = "*"  # an upstream's model that stands for the name the client asked for
_WILDCARDS = "*?"
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
    max_output_tokens: int | None = Field(default=None, gt=0)

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
    max_output_tokens: int | None = Field(default=None, gt=0)
    region: str | None = None  # a provider's region (Amazon Bedrock's), else as its SDK finds it


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

    def model_names(self) -> list[str]:
        """The model names routed by name (not by a pattern), sorted."""
        return sorted(name for name in self.models if not any(m in name for m in _WILDCARDS))

    def route_for(self, model: str) -> Route | None:
        """The route of the name `model`, or else of the most specific pattern it
        matches (module docstring); None when none does. A `provider:model` name
        the caller routes itself first."""
        route = self.models.get(model)
        if route is not None:
            return route
        return next((route for pattern, route in self._patterns if pattern.fullmatch(model)), None)

    @cached_property
    def _patterns(self) -> list[tuple[re.Pattern[str], Route]]:
        """The routes named by a pattern, the most specific first."""
        named = [name for name in self.models if any(mark in name for mark in _WILDCARDS)]
        named.sort(key=lambda name: -sum(char not in _WILDCARDS for char in name))
        return [(_compiled(name), self.models[name]) for name in named]

    def gateway_keys(self) -> tuple[str, ...]:
        """The keys clients may present: the file's and `INTERLINGUA_GATEWAY_KEYS`'s."""
        from_env = os.environ.get(KEYS_VARIABLE, "")
        return self.keys + tuple(key.strip() for key in from_env.split(",") if key.strip())


def _compiled(pattern: str) -> re.Pattern[str]:
    """`*` any characters and `?` one; every other character itself (`[1m]` too)."""
    wild = {"*": ".*", "?": "."}
    return re.compile("".join(wild.get(char, re.escape(char)) for char in pattern), re.DOTALL)


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
