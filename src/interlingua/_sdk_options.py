"""What an application sets on an SDK client it builds (`ChatClient.connect`),
and how a Stainless-generated SDK (anthropic, openai, groq) names it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["SDKOptions", "stainless_options"]


@dataclass(frozen=True)
class SDKOptions:
    """What an application (the gateway) sets on an SDK client it builds; None
    leaves the SDK's own default, read from its environment variables
    (`OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`, ...) as the SDK reads them."""

    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None
    timeout: float | None = None  # seconds
    max_retries: int | None = None
    region: str | None = None  # where a provider serves from regions (Amazon Bedrock's)


def stainless_options(options: SDKOptions) -> dict[str, Any]:
    """`options` as the arguments of a Stainless-generated SDK's client (anthropic,
    openai, groq): `api_key`, `base_url`, `timeout`, `max_retries`."""
    given = {
        "api_key": options.api_key,
        "base_url": options.base_url,
        "timeout": options.timeout,
        "max_retries": options.max_retries,
    }
    return {name: value for name, value in given.items() if value is not None}
