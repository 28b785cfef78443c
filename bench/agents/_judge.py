"""A lane's verdict, from what arrived: the agent's outcome, the requests it
sent the gateway (with the answers it got), and the requests the scripted
upstream got. `PASS`, or what went wrong in a few words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bench.agents._agents import FORECAST, Outcome
from bench.agents._script import FINAL_TEXT, TOOL_WORD, fill
from bench.agents._stage import SEEN

PASS = "pass"
EXPECTED_OBJECT = fill(FORECAST)


@dataclass(frozen=True)
class Records:
    """A lane's traffic: the agent's side (`proxy`) and the upstream's."""

    proxy: list[dict[str, Any]]
    upstream: list[dict[str, Any]]
    outside: list[str]


def short(text: str, limit: int = 90) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def gateway_refusal(records: Records, allowed: int | None = None) -> str | None:
    """The first error the gateway answered the agent with (other than `allowed`)."""
    for record in records.proxy:
        status = record.get("status", 0)
        if status >= 400 and status != allowed:
            message = _error_message(record.get("answer", ""))
            if STRICT_REFUSAL in message:
                return f"strict refused: {_losses(message.split(STRICT_REFUSAL, 1)[1])}"
            return f"gateway {status}: {short(message, 120)}"
    return None


STRICT_REFUSAL = "cannot take it all:"


def _losses(described: str) -> str:
    """`<path>: <kind> (<level>): <reason>; ...` as `<path> (<level>), ...`, the
    provider options' prefix left out."""
    found = []
    for loss in described.split("; "):
        path, _, rest = loss.strip().partition(": ")
        level = rest.partition("(")[2].partition(")")[0]
        found.append(f"{path.split('provider_options.')[-1]} ({level})")
    return short(", ".join(found), 150)


def _error_message(answer: str) -> str:
    try:
        body = json.loads(answer)
    except ValueError:
        return answer
    error = body.get("error", body) if isinstance(body, dict) else body
    return str(error.get("message", error)) if isinstance(error, dict) else str(error)


def tool_result_arrived(records: Records) -> str | None:
    results = [text for record in records.upstream for text in record.get("results", [])]
    if not results:
        return "the upstream got no tool result"
    if not any(TOOL_WORD in text for text in results):
        return f"the tool result lacks the tool's output: {short(results[-1], 60)}"
    return None


def same_api_kept(records: Records, api: str) -> str | None:
    """A request to an upstream of its own API goes as it came: its headers of
    interest forwarded, its body unchanged but for the model."""
    answered = [record for record in records.upstream if record["api"] == api]
    for sent, got in zip(records.proxy, answered, strict=False):
        for name in SEEN:
            if name in sent["headers"] and got["headers"].get(name) != sent["headers"][name]:
                return f"same API: {name} not forwarded"
        body = sent.get("json") or {}
        if {**body, "model": None} != {**got["body"], "model": None}:
            changed = sorted(
                key
                for key in set(body) | set(got["body"])
                if key != "model" and body.get(key) != got["body"].get(key)
            )
            return f"same API: the body was re-encoded ({', '.join(changed[:3]) or 'order'})"
    return None


def judge(
    case: str, api: str, upstream: str, outcome: Outcome, records: Records, *, timed_out: bool
) -> str:
    if records.outside:
        return f"tried to reach {short(records.outside[0], 60)}"
    if timed_out:
        return "timed out"
    if not records.proxy:
        return f"no request reached the gateway ({short(outcome.error, 70) or 'no error'})"
    check = {
        "tool": _tool,
        "stream": _stream,
        "structured": _structured,
        "429": _rate_limited,
        "broken": _broken,
    }[case]
    verdict = check(outcome, records) or (same_api_kept(records, api) if api == upstream else None)
    return verdict or PASS


def _finished(outcome: Outcome, records: Records, allowed: int | None = None) -> str | None:
    if refused := gateway_refusal(records, allowed):
        return refused
    if outcome.error:
        return f"agent error: {short(outcome.error)}"
    return None


def _tool(outcome: Outcome, records: Records, allowed: int | None = None) -> str | None:
    if failed := _finished(outcome, records, allowed):
        return failed
    if missing := tool_result_arrived(records):
        return missing
    if FINAL_TEXT not in outcome.text:
        return f"final text missing: {short(outcome.text, 60)!r}"
    return None


def _stream(outcome: Outcome, records: Records) -> str | None:
    if not any((record.get("json") or {}).get("stream") or _gemini_stream(record)
               for record in records.proxy):  # fmt: skip
        return "the agent did not stream"
    return _tool(outcome, records)


def _gemini_stream(record: dict[str, Any]) -> bool:
    return str(record.get("path", "")).endswith(":streamGenerateContent")


def _structured(outcome: Outcome, records: Records) -> str | None:
    if failed := _finished(outcome, records):
        return failed
    value = outcome.object
    if value is None:
        try:
            value = json.loads(outcome.text)
        except ValueError:
            return f"no JSON answer: {short(outcome.text, 60)!r}"
    if value != EXPECTED_OBJECT:
        return f"a different object: {short(json.dumps(value), 60)}"
    return None


def _rate_limited(outcome: Outcome, records: Records) -> str | None:
    if refused := gateway_refusal(records, 429):
        return refused
    limited = [record for record in records.proxy if record.get("status") == 429]
    if not any(record.get("answered") == "429" for record in records.upstream):
        return "the upstream was not asked"
    if not limited:
        return "the 429 did not reach the agent"
    if "retry-after" not in limited[0]["answer_headers"]:
        return "429 reached the agent without retry-after"
    return _tool(outcome, records, allowed=429)  # then asked again, after the wait


def _broken(outcome: Outcome, records: Records) -> str | None:
    if refused := gateway_refusal(records):
        return refused
    if not any(r.get("answered", "").endswith(", cut") for r in records.upstream):
        return "no stream was cut (the agent did not stream)"
    answers = [record.get("answer", "") for record in records.proxy if record.get("status") == 200]
    if not any("error" in answer for answer in answers):
        return "the cut stream ended without an error event"
    if outcome.error or FINAL_TEXT in outcome.text:
        return None  # told of the error, or recovered by asking again
    return f"a cut answer taken as whole: {short(outcome.text, 60)!r}"
