"""What a call cost: an answer's usage priced by genai-prices.

The `prices` extra (`pip install "interlingua[prices]"`) installs genai-prices,
whose price data and calculation are used as they are: interlingua keeps no
price table. genai-prices is imported on the first price asked for, never by
importing interlingua.

An adapter says how its answers are priced with its `PRICES`, a `PriceSource`:
the provider's id in genai-prices, the API flavor genai-prices reads its
answers as, and the counts its wire keeps in `TokenUsage.details` that are
priced apart (audio tokens, cache writes by lifetime). The core's own counts
go to genai-prices' usage the same way for every provider, as both count the
cache reads and writes inside the input and the reasoning inside the output
(where a provider counts otherwise, its usage decoder has made the core's
counts so, once, and tagged it):

    TokenUsage              genai_prices.Usage
    input_tokens            input_tokens
    cache_read_tokens       cache_read_tokens
    cache_write_tokens      cache_write_tokens
    output_tokens           output_tokens
    reasoning_tokens        output_reasoning_tokens
    details[key]            each of PriceSource.details[key] (counts summed)

Each token is so priced once: genai-prices prices a count given inside
another (a cache read inside the input) at its own price, and the rest of
the outer count at the outer price.

The prices are those in force when the answer was made: the time its wire
said (Chat Completions' `created`, the Responses API's `created_at`,
Gemini's `createTime`); else, for an answer of a history, its message's
time, and for `ChatResponse.cost()` the time of pricing.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any

from interlingua._adapter import get_adapter
from interlingua._errors import AdapterNotFoundError, CostError
from interlingua._usage import TokenUsage

if TYPE_CHECKING:
    from interlingua._base import ProviderData
    from interlingua._history import ChatHistory, TurnUsage
    from interlingua._response import ChatResponse

__all__ = [
    "Cost",
    "PriceSource",
    "answer_cost",
    "genai_usage",
    "history_cost",
    "price_context",
    "price_source",
    "ready_prices",
    "response_cost",
    "turn_cost",
    "usage_cost",
]

NOTHING = Decimal(0)


@dataclass(frozen=True, slots=True)
class PriceSource:
    """How genai-prices prices one adapter's answers.

    `provider_id`: the provider's id in genai-prices (`"anthropic"`, `"aws"`,
    `"x-ai"`); `api_flavor`: the flavor of its usage extractor that reads the
    adapter's answers (`genai_prices.extract_usage(body, provider_id=...,
    api_flavor=...)`), which the tests check each price against (pricing
    itself reads the core's usage); `details`: a `TokenUsage.details` key to
    the genai-prices usage keys its count goes to.
    """

    provider_id: str
    api_flavor: str = "default"
    details: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # genai-prices' price context (what picks a price's variant: `service_tier`) to
    # the answer's wire field that says it (OpenAI's `service_tier`: flex, priority).
    context: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Cost:
    """What one or more calls cost, in US dollars.

    `model` and `provider` are the ids genai-prices matched (None in a sum
    of calls to different ones); `calculation` is genai-prices'
    `PriceCalculation` of a single call (None in a sum).
    """

    input_price: Decimal
    output_price: Decimal
    total_price: Decimal
    model: str | None = None
    provider: str | None = None
    calculation: Any = field(default=None, compare=False, repr=False)

    def __add__(self, other: Cost) -> Cost:
        if not isinstance(other, Cost):
            return NotImplemented
        return Cost(
            input_price=self.input_price + other.input_price,
            output_price=self.output_price + other.output_price,
            total_price=self.total_price + other.total_price,
            model=self.model if self.model == other.model else None,
            provider=self.provider if self.provider == other.provider else None,
        )

    def __radd__(self, other: object) -> Cost:
        # `sum()` starts from 0.
        if other == 0:
            return self
        return NotImplemented


def price_source(provider: str | None) -> PriceSource:
    """The `PRICES` of the adapter named `provider`; `CostError` naming the
    provider when there is none (no adapter, or one genai-prices has no prices for)."""
    if provider is None:
        raise CostError("the answer names no provider, so it has no price")
    try:
        adapter = get_adapter(provider)
    except AdapterNotFoundError as exc:
        raise CostError(f"no price for provider {provider!r}: {exc}") from exc
    source = getattr(adapter, "PRICES", None)
    if not isinstance(source, PriceSource):
        raise CostError(f"no price for provider {provider!r}: genai-prices has none for it")
    return source


def genai_usage(usage: TokenUsage, source: PriceSource) -> dict[str, int | float]:
    """The keyword arguments of `genai_prices.Usage` for `usage` (see the table above)."""
    values: dict[str, int | float] = {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
    }
    counts = (
        ("cache_read_tokens", usage.cache_read_tokens),
        ("cache_write_tokens", usage.cache_write_tokens),
        ("output_reasoning_tokens", usage.reasoning_tokens),
    )
    values.update((key, count) for key, count in counts if count)
    for detail, keys in source.details.items():
        count = usage.details.get(detail)
        if not count:
            continue
        for key in keys:
            values[key] = values.get(key, 0) + count
    return values


def price_context(data: ProviderData, provider: str | None) -> dict[str, str]:
    """What an answer whose `provider_data` is `data` says of the prices it is
    charged at (`PriceSource.context`), for the adapter `provider`: its own wire
    fields, found under whichever adapter's data kept them."""
    try:
        source = price_source(provider)
    except CostError:
        return {}
    said = {}
    for key, name in source.context.items():
        values = (entry.get("fields", {}).get(name) for entry in data.values())
        if isinstance(value := next((v for v in values if v is not None), None), str):
            said[key] = value
    return said


def usage_cost(
    usage: TokenUsage,
    model: str,
    source: PriceSource,
    *,
    at: datetime | None = None,
    context: Mapping[str, str] | None = None,
) -> Cost:
    """What `usage` of `model` cost at `source`'s provider, at the time `at` (now
    if None), at the prices `context` picks (`price_context`)."""
    genai_prices = _genai_prices()
    # genai-prices before 0.2 (Python 3.10's) has one price per model: no context.
    chosen = {"price_context": context} if context and _takes_context(genai_prices) else {}
    try:
        priced = genai_prices.Usage(**genai_usage(usage, source))
        calculation = genai_prices.calc_price(
            priced, model, provider_id=source.provider_id, genai_request_timestamp=at, **chosen
        )
    except LookupError as exc:
        where = f"model {model!r} of provider {source.provider_id!r}"
        raise CostError(f"no price for {where} in genai-prices: {exc}") from exc
    except ValueError as exc:  # a usage it cannot take (a negative count), or take apart
        raise CostError(f"no price for this usage of model {model!r}: {exc}") from exc
    return Cost(
        input_price=calculation.input_price,
        output_price=calculation.output_price,
        total_price=calculation.total_price,
        model=calculation.model.id,
        provider=calculation.provider.id,
        calculation=calculation,
    )


def response_cost(response: ChatResponse, *, provider: str | None = None) -> Cost:
    """What the call that gave `response` cost (`ChatResponse.cost`), asked of
    the adapter `provider` (by default the response's)."""
    from interlingua._elsewhere import made_at

    provider = provider or response.provider
    context = price_context(response.provider_data, provider)
    return answer_cost(
        response.usage, response.model, provider, made_at(response.provider_data), context
    )


def turn_cost(turn: TurnUsage, *, at: datetime | None = None) -> Cost:
    """What one answer of a history cost, at its time (or `at`, its message's)."""
    return answer_cost(
        turn.usage, turn.model, turn.provider, turn.made_at or at, turn.price_context
    )


def history_cost(history: ChatHistory, *, skip_unknown: bool = False) -> Cost:
    """The sum of the costs of `history`'s answers (`ChatHistory.cost`)."""
    turns = {turn.message: turn for turn in history.turns}
    costs: list[Cost] = []
    for index, message in enumerate(history.messages):
        if message.role != "assistant":
            continue
        try:
            turn = turns.get(index)
            if turn is None:
                raise CostError("no usage is kept for it (`add_response` keeps it)")
            costs.append(turn_cost(turn, at=message.created_at))
        except CostError as exc:
            if not skip_unknown:
                raise CostError(f"messages[{index}] has no price: {exc}") from exc
    return sum(costs[1:], costs[0]) if costs else Cost(NOTHING, NOTHING, NOTHING)


def answer_cost(
    usage: TokenUsage,
    model: str | None,
    provider: str | None,
    at: datetime | None = None,
    context: Mapping[str, str] | None = None,
) -> Cost:
    """What an answer of `model` from the adapter `provider` that used `usage`
    cost, made at `at`, at the prices `context` picks."""
    source = price_source(provider)
    if not model:
        raise CostError("the answer names no model, so it has no price")
    if not (usage.total_tokens or usage.input_tokens or usage.output_tokens or usage.details):
        raise CostError("the answer says no usage, so it has no price")
    return usage_cost(usage, model, source, at=at, context=context)


def ready_prices() -> None:
    """genai-prices imported and its price data read, where it is installed: what
    the first price asked for would otherwise take (half a second), for a server
    to pay at start-up."""
    try:
        _genai_prices().data_snapshot.get_snapshot()
    except CostError:
        return


@cache
def _takes_context(genai_prices: Any) -> bool:
    return "price_context" in inspect.signature(genai_prices.calc_price).parameters


def _genai_prices() -> Any:
    try:
        import genai_prices
    except ImportError as exc:
        raise CostError('pricing needs genai-prices: pip install "interlingua[prices]"') from exc
    return genai_prices
