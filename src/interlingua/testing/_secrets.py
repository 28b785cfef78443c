"""Finding credentials left in a cassette.

`find_secrets(cassette)` lists each place of a cassette (a file any format
`load_cassette` reads, or a `Cassette`) that holds a secret: an API key of
OpenAI (`sk-...`), Anthropic (`sk-ant-...`), Groq (`gsk_...`), Google
(`AIza...`) or Amazon Bedrock (`ABSK...`, `bedrock-api-key-...`), an AWS
access key id (`AKIA...`, `ASIA...`), an AWS session token or a SigV4
signature (`Signature=<hex>`) anywhere in a URL, a header or a body; a
bearer token; a credential header (`authorization`, `x-api-key`, `api-key`,
`x-goog-api-key`: the only place a Mistral key, which has no prefix, can be
told; `x-amz-security-token`), a `key` in
a URL's query (the Gemini API's) or a cookie (`cookie`, `set-cookie`) with a
value that is not a placeholder. `check_no_secrets(*cassettes)` raises
`CassetteError` listing every finding.

A placeholder is a value that says it is one (`test-key`, `REDACTED`,
`<masked>`, `sk-test...`, `xxxx`, ...) or is too short to be a key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from interlingua._errors import CassetteError
from interlingua._sdk_errors import CREDENTIAL_HEADERS, CREDENTIAL_PARAMS
from interlingua.testing._cassette import load_cassette
from interlingua.testing._records import Cassette, Headers

__all__ = ["SecretFinding", "check_no_secrets", "find_secrets"]

# Most specific first: an Anthropic key also starts with `sk-`.
# Google's API keys: `AIza` and 35 more characters of [0-9A-Za-z_-].
_GOOGLE_KEY = re.compile(r"AIza[0-9A-Za-z_-]{35}")
_KEYS = (
    ("an Anthropic API key", re.compile(r"sk-ant-[A-Za-z0-9_-]{20,}")),
    ("an OpenAI API key", re.compile(r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    ("a Groq API key", re.compile(r"gsk_[A-Za-z0-9]{20,}")),
    ("a Google API key", _GOOGLE_KEY),
    # Amazon Bedrock's long-term API keys, and its short-term ones (a presigned URL in base64).
    ("an Amazon Bedrock API key", re.compile(r"\b(?:ABSK|bedrock-api-key-)[A-Za-z0-9+/=]{20,}")),
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b")),
    # STS session tokens: base64 of their binary form, whose first bytes are alike.
    ("an AWS session token", re.compile(r"\b(?:IQoJb3JpZ2lu|F[Qw]oGZXIvYXdz)[A-Za-z0-9+/=]{40,}")),
    ("a SigV4 signature", re.compile(r"\bSignature=([0-9a-f]{64})\b")),
    ("a bearer token", re.compile(r"\bBearer\s+([A-Za-z0-9._~+/=-]{12,})", re.IGNORECASE)),
)
# What each header the SDKs send a key in (`CREDENTIAL_HEADERS`), or a cookie, holds.
_CREDENTIAL_HEADERS = {
    **{name: "an API key" if "key" in name else "a credential" for name in CREDENTIAL_HEADERS},
    "cookie": "a cookie value",
    "set-cookie": "a cookie value",
}
_PLACEHOLDER = re.compile(
    r"redacted|masked|filtered|dummy|placeholder|fake|test|example|your[-_]|xxxx|\*\*\*|<[^>]*>",
    re.IGNORECASE,
)
_SHORTEST_SECRET = 12


@dataclass(frozen=True, slots=True)
class SecretFinding:
    """A secret in `path`, at `place` (`interactions[0].request.headers.authorization`)."""

    path: str
    place: str
    kind: str

    def __str__(self) -> str:
        return f"{self.path}: {self.place}: {self.kind}"


def find_secrets(cassette: str | os.PathLike[str] | Cassette) -> list[SecretFinding]:
    """Every place of `cassette` that holds a key, a bearer token or a cookie value."""
    if not isinstance(cassette, Cassette):
        cassette = load_cassette(cassette)
    path = str(cassette.path)
    findings: list[SecretFinding] = []
    for index, interaction in enumerate(cassette.interactions):
        where = f"interactions[{index}]"
        if interaction.request is not None:
            request = interaction.request
            findings += _in_text(path, f"{where}.request.url", request.url)
            findings += _in_query(path, f"{where}.request.url", request.url)
            findings += _in_headers(path, f"{where}.request.headers", request.headers)
            findings += _in_text(path, f"{where}.request.body", _text(request.body))
        response = interaction.response
        findings += _in_headers(path, f"{where}.response.headers", response.headers)
        findings += _in_text(path, f"{where}.response.body", _text(response.body))
    return findings


def check_no_secrets(*cassettes: str | os.PathLike[str] | Cassette) -> None:
    """Raises `CassetteError` listing every secret found in `cassettes`."""
    findings = [finding for cassette in cassettes for finding in find_secrets(cassette)]
    if findings:
        listed = "\n  ".join(map(str, findings))
        raise CassetteError(f"{len(findings)} secrets found in cassettes:\n  {listed}")


def _in_headers(path: str, where: str, headers: Headers) -> Iterator[SecretFinding]:
    for name, values in headers.items():
        for value in values:
            kind = _CREDENTIAL_HEADERS.get(name)
            if kind is not None and _is_secret(_credential(value)):
                yield SecretFinding(path, f"{where}.{name}", kind)
            else:
                yield from _in_text(path, f"{where}.{name}", value)


def _in_query(path: str, where: str, url: str) -> Iterator[SecretFinding]:
    """A key in the URL's query (`?key=...`), whatever its shape (one shaped like
    Google's is found in the URL's text already)."""
    for name, value in parse_qsl(urlsplit(url).query):
        if name in CREDENTIAL_PARAMS and _is_secret(value) and not _GOOGLE_KEY.search(value):
            yield SecretFinding(path, f"{where}.query.{name}", "an API key")


def _in_text(path: str, where: str, text: str) -> Iterable[SecretFinding]:
    found = []
    for kind, pattern in _KEYS:
        for match in pattern.finditer(text):
            secret = match.group(match.lastindex or 0)
            if _is_secret(secret):
                found.append(SecretFinding(path, where, kind))
                break
        if found:  # one finding a place: a key is also a bearer token
            break
    return found


def _credential(value: str) -> str:
    """The secret part of a header value: after `Bearer `, or the cookie's value."""
    scheme, _, rest = value.strip().partition(" ")
    if rest and scheme.lower() in {"bearer", "basic", "token"}:
        return rest.strip()
    name, equals, cookie = value.partition("=")
    return cookie.partition(";")[0].strip() if equals and " " not in name.strip() else value.strip()


def _is_secret(value: str) -> bool:
    return len(value) >= _SHORTEST_SECRET and _PLACEHOLDER.search(value) is None


def _text(body: bytes | None) -> str:
    return (body or b"").decode("utf-8", "replace")
