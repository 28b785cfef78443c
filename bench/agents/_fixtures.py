"""The requests an agent sent the gateway, as the project's fixtures:
`fixtures/agents/<agent>/<case>.json`, in the recording format
(`interlingua.recording`, the request with its JSON body and the answer the
agent got, a stream as its events).

What the agent wrote at length is replaced, the shapes kept exactly:

- prose: a string of over `PROSE` characters under a key that holds text
  (system prompts, instructions, tool and schema descriptions, reminders,
  tool output) becomes a deterministic filler of the same length;
- what changes from run to run: UUIDs and long hex runs (session and device
  ids, the gateway's made-up ids) become counters in order of appearance,
  timestamps a fixed one, the scratch folder's path a fixed one;
- no key: the request's headers are kept by name (`KEPT_REQUEST`), never a
  credential.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from interlingua.testing import check_no_secrets

PROSE = 80
PROSE_KEYS = frozenset(
    {"text", "description", "instructions", "content", "system", "output", "prompt"}
)
FILLER = "Placeholder prose standing in for the agent's own words, of the same length. "
STEADY_TIME = 1767225600
TIME_KEYS = frozenset({"created", "created_at", "completed_at"})
# UUIDs, long hex runs, and times in milliseconds (2020 to 2033) inside a string.
VOLATILE = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|\b1[6-9]\d{11}\b",
    re.IGNORECASE,
)
# Made at random by the agent for each call it names (the AI SDK's Gemini call ids).
MADE_ID = re.compile(r"[A-Za-z0-9]{16}")
ID_KEYS = frozenset({"id", "call_id", "tool_call_id", "tool_use_id"})
# Written from a hash map, in another order each run (Codex's `client_metadata`).
UNORDERED = frozenset({"client_metadata"})
HOSTS = {
    "anthropic": "https://api.anthropic.com",
    "openai": "https://api.openai.com",
    "openai-responses": "https://api.openai.com",
    "google": "https://generativelanguage.googleapis.com",
}


def filler(length: int) -> str:
    return (FILLER * (length // len(FILLER) + 1))[:length]


class Steady:
    """Run-to-run values made the same in every run: each distinct one a counter."""

    def __init__(self, paths: dict[str, str]) -> None:
        self.paths = paths
        self.seen: dict[str, str] = {}

    def token(self, match: re.Match[str]) -> str:
        found = match.group(0)
        if found.isdigit() and len(found) == 13:
            return f"{STEADY_TIME}000"
        if found not in self.seen:
            number = f"{len(self.seen) + 1:x}"
            if "-" in found:
                self.seen[found] = f"00000000-0000-4000-8000-{number.zfill(12)}"
            elif re.fullmatch("[0-9a-f]+", found, re.IGNORECASE):
                self.seen[found] = number.zfill(len(found))
            else:
                self.seen[found] = f"made{number.zfill(len(found) - 4)}"
        return self.seen[found]

    def string(self, text: str, key: str | None) -> str:
        for path, placeholder in self.paths.items():
            text = text.replace(path, placeholder)
        if key in ID_KEYS and MADE_ID.fullmatch(text):
            return self.token(MADE_ID.fullmatch(text))  # type: ignore[arg-type]
        if key in PROSE_KEYS and len(text) > PROSE and not _is_json(text):
            return filler(len(text))
        return VOLATILE.sub(self.token, text)

    def value(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, str):
            return self.string(value, key)
        if isinstance(value, dict):
            if key in UNORDERED:
                value = dict(sorted(value.items()))
            return {
                name: STEADY_TIME
                if name in TIME_KEYS and isinstance(item, int)
                else self.value(item, name)
                for name, item in value.items()
            }
        if isinstance(value, list):
            return [self.value(item, key) for item in value]
        return value


def _is_json(text: str) -> bool:
    if text[:1] not in ("{", "["):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def sse_events(text: str) -> list[dict[str, Any]]:
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        name, data = None, []
        for line in block.splitlines():
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
        if data:
            payload = "\n".join(data)
            try:
                parsed: Any = json.loads(payload)
            except ValueError:
                parsed = payload
            events.append({"event": name, "data": parsed} if name else {"data": parsed})
    return events


def interaction(record: dict[str, Any], api: str, steady: Steady) -> dict[str, Any]:
    query = f"?{record['query']}" if record.get("query") else ""
    request: dict[str, Any] = {
        "method": record["method"],
        "url": f"{HOSTS[api]}{record['path']}{steady.string(query, None)}",
        "headers": record["headers"],
    }
    if record.get("json") is not None:
        request["json"] = steady.value(record["json"])
    headers = dict(record.get("answer_headers", {}))
    response: dict[str, Any] = {"status": record.get("status", 0), "headers": headers}
    answer = record.get("answer", "")
    if "event-stream" in headers.get("content-type", ""):
        response["sse"] = steady.value(sse_events(answer))
    else:
        try:
            response["json"] = steady.value(json.loads(answer))
        except ValueError:
            response["text"] = answer
    return {"request": request, "response": response}


def write_fixture(
    path: Path, description: str, records: list[dict[str, Any]], api: str, paths: dict[str, str]
) -> None:
    steady = Steady(paths)
    document = {
        "format": "interlingua.recording",
        "version": 1,
        "description": description,
        "interactions": [interaction(record, api, steady) for record in records],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    check_no_secrets(path)
