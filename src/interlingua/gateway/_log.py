"""The one log line of each request: route, upstream, status, usage, cost, losses (each
`<path>: <kind> (<level>): <reason>`), the time in the gateway and upstream, and
the fallbacks taken. `gateway_ms` is the
time the gateway added until its answer's headers left (for a stream, its
first event), the upstream's left out; `upstream_ms` the upstream's until its
answer (a stream's first event) came; `total_ms` the request's whole time;
`cost` what the answer cost in US dollars, by genai-prices (`ChatResponse.cost`;
a decimal string, absent where it has no price). JSON (`log = "json"`)
or a line for people. No key of either side is ever in it: the line is built
from the route and the answer, never from the request's headers. At start-up,
one line (a warning) for each routed upstream whose client cannot be built,
naming its routes (`log_unready`).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field, fields
from typing import Literal

from interlingua._base import ProviderData
from interlingua._cost import answer_cost, price_context
from interlingua._elsewhere import made_at
from interlingua._errors import CostError, ProviderError
from interlingua._usage import TokenUsage

__all__ = ["LOGGER", "RequestLog", "log_unready"]

LOGGER = logging.getLogger("interlingua.gateway")


@dataclass
class RequestLog:
    """What one request did, written once when its answer is over."""

    method: str
    path: str
    api: str | None = None
    model: str | None = None
    upstream: str | None = None
    status: int | None = None
    usage: dict[str, int] | None = None
    cost: str | None = None
    losses: list[str] = field(default_factory=list)
    answer_losses: list[str] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)
    error: str | None = None
    gateway_ms: float | None = None
    upstream_ms: float = 0.0
    total_ms: float = 0.0
    started: float = field(default_factory=time.perf_counter, repr=False)
    # What the cost is of: the usage, the answer's model and its provider data (when
    # it was made, the prices it says it is charged at).
    token_usage: TokenUsage | None = field(default=None, repr=False)
    answer_model: str | None = field(default=None, repr=False)
    answer_data: ProviderData = field(default_factory=dict, repr=False)

    def note_usage(self, usage: TokenUsage) -> None:
        self.token_usage = usage
        self.usage = {
            name: value
            for name in ("input_tokens", "output_tokens", "total_tokens")
            if isinstance(value := getattr(usage, name), int)
        }

    def note_start(self, model: str | None, data: ProviderData) -> None:
        """The answer's model, and its provider data: when it says it was made, and
        the prices it says it is charged at."""
        self.answer_model = model or self.answer_model
        self.answer_data = data or self.answer_data

    def note_cost(self, model: str, provider: str) -> str | None:
        """The cost of the usage noted, of the answer's model (else `model`, the one
        asked for) from the adapter `provider`, in US dollars, noted (None where it has
        no price)."""
        try:
            usage = self.token_usage or TokenUsage()
            context = price_context(self.answer_data, provider)
            made = made_at(self.answer_data)
            cost = answer_cost(usage, self.answer_model or model, provider, made, context)
        except CostError:
            return None
        self.cost = f"{cost.total_price:f}"
        return self.cost

    def overhead_ms(self) -> float:
        """The time so far in the gateway, the upstream's left out."""
        return max(0.0, (time.perf_counter() - self.started) * 1000 - self.upstream_ms)

    def settle_overhead(self) -> float:
        """The time the gateway added, fixed now (its answer's headers leave)."""
        self.gateway_ms = round(self.overhead_ms(), 3)
        return self.gateway_ms

    def write(self, form: Literal["human", "json"]) -> None:
        self.total_ms = round((time.perf_counter() - self.started) * 1000, 3)
        if self.gateway_ms is None:
            self.settle_overhead()
        self.upstream_ms = round(self.upstream_ms, 3)
        LOGGER.info(self.json() if form == "json" else self.human())

    def json(self) -> str:
        # The line's fields are those shown: what the cost is of stays out, uncopied.
        written = {each.name: getattr(self, each.name) for each in fields(self) if each.repr}
        return json.dumps(written, ensure_ascii=False, separators=(",", ":"))

    def human(self) -> str:
        route = f"{self.model} -> {self.upstream}" if self.upstream else (self.model or "-")
        words = [f"{self.method} {self.path}", route, str(self.status)]
        if self.usage:
            words.append(" ".join(f"{k.split('_')[0]}={v}" for k, v in self.usage.items()))
        if self.cost is not None:
            words.append(f"cost=${self.cost}")
        words.append(
            f"gateway={self.gateway_ms or 0:.1f}ms upstream={self.upstream_ms:.1f}ms "
            f"total={self.total_ms:.1f}ms"
        )
        if self.fallbacks:
            words.append(f"fallbacks={len(self.fallbacks)} ({'; '.join(self.fallbacks)})")
        for name, losses in (("losses", self.losses), ("answer losses", self.answer_losses)):
            if losses:
                words.append(f"{name}: {'; '.join(losses)}")
        if self.error:
            words.append(f"error: {self.error}")
        return "  ".join(words)


def log_unready(
    upstream: str, routes: list[str], error: ProviderError, form: Literal["human", "json"]
) -> None:
    """The start-up's one line for an upstream whose client could not be built:
    its routes' requests are answered with `error`."""
    if form == "json":
        line = {"startup": "upstream unavailable", "upstream": upstream, "routes": routes}
        LOGGER.warning(json.dumps({**line, "error": str(error)}, ensure_ascii=False))
        return
    LOGGER.warning(
        f"start-up: upstream {upstream} unavailable ({error}); "
        f"its routes ({', '.join(routes)}) answer with this error"
    )
