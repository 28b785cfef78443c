"""Token counts, answered by an upstream of the client's own API (a count's
answer has no form in another's): Anthropic's `POST /v1/messages/count_tokens`
and Gemini's `:countTokens`, by the first upstream of the model's route. The
client's count goes as it came, as a body to its own API does
(`_upstream.ClientBody`): on the route's model, with the client's API headers
(Claude Code's `anthropic-beta`, without which its tools of a beta are not
counted), the request decoded only to be routed.

Where no count can be made here, the answer is one error, whatever the reason
(`cannot_count`): a 404 (Anthropic's `not_found_error`, Google's `NOT_FOUND`)
whose message begins "tokens cannot be counted for '<model>' here: " and
names the reason:

- the model has no route (nor a `provider:model` name of an installed adapter);
- its upstream is of another API (an OpenAI model cannot count Anthropic's way);
- its upstream cannot be used (its key's variable is not set);
- its upstream has no count to give: it answered 404, 405 or 501 (an
  Anthropic-compatible server without the endpoint, a model it does not know).

A 404 is what a server without the endpoint answers, and what Claude Code
(which counts before it compacts) meets at proxies without one, and then
estimates instead: "no count here". It is no server failure, which the SDKs
would retry (408, 409, 429 and 5xx: 501 among them), nor a malformed request
(400), which the same body, sent for an answer, is not.
Any other error of the upstream's (a 400 naming a bad field, a 429 with its
retry-after) is answered as it came: it says why this count failed, not that
none can be made here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interlingua._errors import ProviderError
from interlingua._request import ChatRequest
from interlingua.gateway._errors import cannot_count
from interlingua.gateway._upstream import ClientBody, Target, Upstreams

__all__ = ["COUNTING_APIS", "count_tokens", "counted_request"]


@dataclass(frozen=True, slots=True)
class _Counting:
    """One API's count: its body as a request body (what `decode_request` reads),
    and the path and body of the count an upstream of that API is sent."""

    request_body: Callable[[dict[str, Any]], dict[str, Any]]
    path: Callable[[str, Target], str]  # the endpoint's path, the upstream
    body: Callable[[dict[str, Any], Target], dict[str, Any]]  # from the client's count


def _anthropic_count(body: dict[str, Any], target: Target) -> dict[str, Any]:
    return {**body, "model": target.model}


def _gemini_request(body: dict[str, Any]) -> dict[str, Any]:
    """A count's `generateContentRequest` is the whole request; else its `contents` are."""
    inner = body.get("generateContentRequest")
    return inner if isinstance(inner, dict) else body


def _gemini_count(body: dict[str, Any], target: Target) -> dict[str, Any]:
    """`contents` alone, or the whole request as `generateContentRequest`: Gemini
    takes one or the other ("Model + Contents or a generateContentRequest, but never both")."""
    inner = body.get("generateContentRequest")
    if not isinstance(inner, dict):
        return body
    # The upstream's model over the client's, which the request names (`models/<route>`).
    return {**body, "generateContentRequest": {**inner, "model": f"models/{target.model}"}}


COUNTING_APIS: dict[str, _Counting] = {
    # A count's body has no max_tokens, which a request needs: the count leaves it out.
    "anthropic": _Counting(
        request_body=lambda body: {"max_tokens": 1, **body},
        path=lambda path, target: f"{path}/count_tokens",
        body=_anthropic_count,
    ),
    "google": _Counting(
        request_body=_gemini_request,
        path=lambda path, target: f"{target.model}:countTokens",
        body=_gemini_count,
    ),
}


def counted_request(api: str, body: Any) -> Any:
    """A count's body, as the request body of `api` that `decode_request` reads."""
    return COUNTING_APIS[api].request_body(body) if isinstance(body, dict) else body


# The statuses of an upstream that has no count to give (not found, method not
# allowed, not implemented).
_NO_COUNT = frozenset({404, 405, 501})


async def count_tokens(
    upstreams: Upstreams, request: ChatRequest, asked: ClientBody
) -> tuple[Target, Any]:
    """The first upstream of the request's route, and its count of the client's
    body `asked`."""
    api = asked.api
    model = request.model
    try:
        target = upstreams.route(model)[0]
        client = upstreams.client(target.provider) if target.provider == api else None
    except ProviderError as error:  # no route; an upstream that cannot be used
        raise cannot_count(model, error.message) from error
    if client is None:
        reason = f"its upstream {target.name} is not of the {api} API, which alone counts"
        raise cannot_count(model, reason)
    counting = COUNTING_APIS[api]
    path = counting.path(client.endpoint.path, target)
    headers = asked.headers_for(client.endpoint.api_headers)
    try:
        with client.binding.errors(target.provider):
            answer = await client.binding.post_async(
                client.sdk, path, counting.body(asked.body, target), stream=False, headers=headers
            )
    except ProviderError as error:
        if error.status not in _NO_COUNT:
            raise
        raise cannot_count(model, f"its upstream {target.name} answered {error}") from error
    return target, answer
