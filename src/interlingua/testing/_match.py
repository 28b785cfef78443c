"""Matching a request sent against the recorded ones, and telling how they differ.

A request matches a recorded one when every part named in `match_on` agrees:
vcrpy's names, `method`, `scheme`, `host`, `port`, `path`, `query` (the
parameters, in any order), `uri` (all five of those) and `body`. Bodies are
compared as JSON values (key order never counts; `1`, `1.0` and `true` are
three values, as on the wire); a body that is not JSON is compared byte for
byte. `ignore` names body fields left out of the comparison and `unordered`
names lists whose items may come in any order, each as a path:
`temperature`, `metadata.user_id`, `messages[*].id`, `tools`.

A query parameter that an SDK adds by itself and that does not change the
request (`SDK_QUERY_PARAMETERS`: the anthropic SDK's `?beta=true`) does not
count, so a cassette recorded by another release of the SDK still matches;
`strict_query=True` counts it. A path is compared with its percent-escapes
decoded, all but an escaped `/` (`%2F`, which would move the segments'
bounds): botocore escapes a Bedrock model id's `:`
(`/model/us.amazon.nova-micro-v1%3A0/converse`), the anthropic SDK does not.

`differences(sent, recorded)` lists each field that differs, by path, so an
error can say `messages[0].content: 'hi' != 'hello'`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from interlingua._errors import CassetteError, format_path

__all__ = ["DEFAULT_MATCH_ON", "SDK_QUERY_PARAMETERS", "Difference", "Matcher", "SentRequest"]

DEFAULT_MATCH_ON = ("method", "uri", "body")
SDK_QUERY_PARAMETERS: frozenset[tuple[str, str]] = frozenset(
    {
        # The anthropic SDK's beta client sends `?beta=true` on `/v1/messages`
        # (its older releases for every call; pydantic-ai's recordings have it).
        ("beta", "true"),
    }
)
_URI_PARTS = ("scheme", "host", "port", "path", "query")
_KNOWN = frozenset({"method", "uri", "body", *_URI_PARTS})
_SEGMENT = re.compile(r"\[(\d+|\*)\]|([^.\[\]]+)")
_DEFAULT_PORTS = {"http": 80, "https": 443}
_ESCAPED_SLASH = re.compile("%2f", re.IGNORECASE)
_MISSING: Any = type("Missing", (), {"__repr__": lambda self: "missing"})()


@dataclass(frozen=True, slots=True)
class SentRequest:
    """What a client sent, read once: method, URL and body (and its JSON, if any)."""

    method: str
    url: str
    body: bytes
    json: Any

    @classmethod
    def of(cls, request: Any) -> SentRequest:
        """From an httpx or httpx2 request whose body has been read."""
        body = bytes(request.content)
        return cls(request.method.upper(), str(request.url), body, _json_or_missing(body))


@dataclass(frozen=True, slots=True)
class Difference:
    """One field, by path, whose sent value is not the recorded one."""

    field: str
    sent: Any
    recorded: Any

    def __str__(self) -> str:
        return f"{self.field}: {_show(self.sent)} != {_show(self.recorded)}"


@dataclass(frozen=True)
class Matcher:
    """The rules that make a sent request the same as a recorded one."""

    match_on: tuple[str, ...] = DEFAULT_MATCH_ON
    ignore: tuple[tuple[str, ...], ...] = ()
    unordered: tuple[tuple[str, ...], ...] = ()
    strict_query: bool = False

    @classmethod
    def build(
        cls,
        match_on: Iterable[str],
        ignore: Iterable[str],
        unordered: Iterable[str],
        *,
        strict_query: bool = False,
    ) -> Matcher:
        """Checks each name and parses each path; a `CassetteError` names a wrong one."""
        if isinstance(match_on, str):
            raise CassetteError(f"match_on: expected a list of names, got the string {match_on!r}")
        names = tuple(match_on)
        unknown = [name for name in names if name not in _KNOWN]
        if unknown:
            known = ", ".join(sorted(_KNOWN))
            raise CassetteError(f"match_on: unknown {', '.join(unknown)}; known: {known}")
        return cls(names, _paths(ignore, "ignore"), _paths(unordered, "unordered"), strict_query)

    def target_differences(self, sent: SentRequest, method: str, url: str) -> list[Difference]:
        """The parts of method and URL in `match_on` that differ."""
        found = []
        if "method" in self.match_on and sent.method != method.upper():
            found.append(Difference("method", sent.method, method.upper()))
        mine, theirs = self._uri_parts(sent.url), self._uri_parts(url)
        for part in _URI_PARTS:
            if (part in self.match_on or "uri" in self.match_on) and mine[part] != theirs[part]:
                found.append(Difference(part, mine[part], theirs[part]))
        return found

    def _uri_parts(self, url: str) -> dict[str, Any]:
        parts = _uri_parts(url)
        if not self.strict_query:
            parts["query"] = [pair for pair in parts["query"] if pair not in SDK_QUERY_PARAMETERS]
        return parts

    def body_differences(self, sent: SentRequest, body: bytes | None) -> list[Difference]:
        """The body fields that differ, or none when `body` is not matched on."""
        if "body" not in self.match_on:
            return []
        recorded_body = body or b""
        recorded = _json_or_missing(recorded_body)
        if sent.json is _MISSING or recorded is _MISSING:
            if sent.body.strip() == recorded_body.strip():
                return []
            return [Difference("<body>", _text(sent.body), _text(recorded_body))]
        return list(self.differences(sent.json, recorded))

    def differences(
        self, sent: Any, recorded: Any, loc: tuple[str | int, ...] = ()
    ) -> Iterator[Difference]:
        """Each field where `sent` differs from `recorded`, as JSON values."""
        if _covers(self.ignore, loc):
            return
        if isinstance(sent, dict) and isinstance(recorded, dict):
            for key in [*sent, *(key for key in recorded if key not in sent)]:
                yield from self.differences(
                    sent.get(key, _MISSING), recorded.get(key, _MISSING), (*loc, key)
                )
        elif isinstance(sent, list) and isinstance(recorded, list):
            if _covers(self.unordered, loc):
                if not self._same_items(sent, recorded, loc):
                    yield Difference(format_path(loc) + " (in any order)", sent, recorded)
                return
            for index in range(max(len(sent), len(recorded))):
                yield from self.differences(
                    sent[index] if index < len(sent) else _MISSING,
                    recorded[index] if index < len(recorded) else _MISSING,
                    (*loc, index),
                )
        elif not _same_scalar(sent, recorded):
            yield Difference(format_path(loc), sent, recorded)

    def _same_items(self, sent: list[Any], recorded: list[Any], loc: tuple[str | int, ...]) -> bool:
        if len(sent) != len(recorded):
            return False
        left = list(recorded)
        for item in sent:
            match = next(
                (
                    i
                    for i, other in enumerate(left)
                    if not any(self.differences(item, other, (*loc, 0)))
                ),
                None,
            )
            if match is None:
                return False
            del left[match]
        return True


def _paths(raw: Iterable[str], option: str) -> tuple[tuple[str, ...], ...]:
    if isinstance(raw, str):
        raise CassetteError(f"{option}: expected a list of paths, got the string {raw!r}")
    return tuple(_path(path, option) for path in raw)


def _path(text: str, option: str) -> tuple[str, ...]:
    """`messages[*].id` -> `("messages", "*", "id")`; indices stay text to compare."""
    segments = [number or name for number, name in _SEGMENT.findall(text)]
    rebuilt = "".join(f"[{s}]" if s.isdigit() or s == "*" else f".{s}" for s in segments)
    if not segments or rebuilt.lstrip(".") != text:
        raise CassetteError(f"{option}: {text!r} is not a field path such as 'messages[*].id'")
    return tuple(segments)


def _covers(paths: Sequence[tuple[str, ...]], loc: tuple[str | int, ...]) -> bool:
    return any(
        len(path) == len(loc)
        and all(want in {"*", str(got)} for want, got in zip(path, loc, strict=True))
        for path in paths
    )


def _same_scalar(a: Any, b: Any) -> bool:
    """Equal as JSON: `True`, `1` and `1.0` differ, as their JSON texts do."""
    return type(a) is type(b) and a == b


def _uri_parts(url: str) -> dict[str, Any]:
    split = urlsplit(url)
    scheme = split.scheme.lower()
    return {
        "scheme": scheme,
        "host": (split.hostname or "").lower(),
        "port": split.port or _DEFAULT_PORTS.get(scheme),
        "path": "%2F".join(map(unquote, _ESCAPED_SLASH.split(split.path or "/"))),
        "query": sorted(parse_qsl(split.query, keep_blank_values=True)),
    }


def _json_or_missing(body: bytes) -> Any:
    if not body.strip():
        return _MISSING
    try:
        return json.loads(body)
    except ValueError:
        return _MISSING


def _text(body: bytes) -> str:
    return body.decode("utf-8", "replace")


def _show(value: Any) -> str:
    text = repr(value) if value is _MISSING else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."
