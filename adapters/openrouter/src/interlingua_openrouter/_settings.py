"""OpenRouter's reasoning setting: the request's `reasoning` object, read and
written in `reasoning_effort`'s place (OpenRouter's docs, "Reasoning Tokens").

    reasoning                         core
    {"effort": "high"}                ReasoningConfig(effort="high"); "none" turns it off
    {"max_tokens": 2000}              ReasoningConfig(budget_tokens=2000)
    {"enabled": true}                 ReasoningConfig(enabled=True): the model's defaults
    {"exclude": true, ...}            `provider_options["openrouter"]["reasoning"]`

The object holds one of `effort` and `max_tokens`, not both; `enabled`
defaults to what they imply (on, unless the effort is "none"), and one
written where they already imply it is the form `reasoning_enabled`. Its
other fields (`exclude`) stay in the request's options, laid over the object
when it goes back to OpenRouter and reported for any other provider. An
object the core cannot hold exactly (both an effort and a budget, a value of
another type, no effort, budget or switch at all, a switch off beside an
effort or budget that would turn it on) is kept whole there, as sent. A
`reasoning_effort` sent to OpenRouter goes back as it came.

Going out, a budget beside an effort is left out (OpenRouter takes one), and
so is a summary: both reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ReasoningConfig, TranslationReport
from interlingua.codec import copy_json
from interlingua_chat_completions._wire import RequestForms

__all__ = ["REASONING", "ReasoningObject"]

# The object's fields the core models, and the type each takes.
_MODELLED: dict[str, type[Any]] = {"effort": str, "max_tokens": int, "enabled": bool}


class ReasoningObject:
    """OpenRouter's `reasoning` request field (a `ReasoningSetting`)."""

    field = "reasoning"

    def decode(
        self, wire: Mapping[str, Any], options: dict[str, Any], forms: RequestForms
    ) -> ReasoningConfig | None:
        said = {key: value for key, value in wire.items() if key in _MODELLED}
        if not _holds(said):
            options[self.field] = copy_json(dict(wire))
            return None
        if other := {key: value for key, value in wire.items() if key not in _MODELLED}:
            options[self.field] = copy_json(other)
        effort, budget = said.get("effort"), said.get("max_tokens")
        implied = effort != "none"
        enabled = said.get("enabled", implied)
        if "enabled" in said and enabled == implied and len(said) > 1:
            forms["reasoning_enabled"] = True
        return ReasoningConfig(enabled=enabled, effort=effort, budget_tokens=budget)

    def encode(
        self, config: ReasoningConfig, forms: Mapping[str, Any], report: TranslationReport
    ) -> dict[str, Any]:
        wire: dict[str, Any] = {}
        if config.effort is not None:
            wire["effort"] = config.effort
            if config.budget_tokens is not None:
                reason = (
                    "OpenRouter takes an effort or a token budget, not both: the effort is sent"
                )
                report.dropped("reasoning.budget_tokens", reason, "setting")
        elif config.budget_tokens is not None:
            wire["max_tokens"] = config.budget_tokens
        implied = config.effort != "none"
        if not wire or config.enabled != implied or forms.get("reasoning_enabled"):
            wire["enabled"] = config.enabled
        if config.summary is not None:
            report.dropped(
                "reasoning.summary", "OpenRouter's reasoning setting takes no summary", "hint"
            )
        return wire


def _holds(said: Mapping[str, Any]) -> bool:
    """Whether the core holds the modelled fields `said` exactly."""
    typed = all(
        isinstance(value, _MODELLED[key]) and (key == "enabled" or not isinstance(value, bool))
        for key, value in said.items()
    )
    return typed and bool(said) and not {"effort", "max_tokens"} <= said.keys() and _one_way(said)


def _one_way(said: Mapping[str, Any]) -> bool:
    """Whether the switch and the effort or budget say one thing: reasoning off
    says no budget and no effort but "none", and "none" is off."""
    effort, enabled = said.get("effort"), said.get("enabled")
    if enabled is False:
        return "max_tokens" not in said and effort in (None, "none")
    return not (enabled is True and effort == "none")


REASONING = ReasoningObject()
