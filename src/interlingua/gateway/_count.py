"""Token counts, answered by an upstream of the client's own API (a count's
answer has no form in another's): Anthropic's `POST /v1/messages/count_tokens`
and Gemini's `:countTokens`. For a route to an upstream of another API, the
client's API's 404 says which upstream cannot count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interlingua._request import ChatRequest
from interlingua.gateway._errors import cannot_count
from interlingua.gateway._upstream import Target, Upstreams

__all__ = ["COUNTING_APIS", "count_tokens", "counted_request"]


@dataclass(frozen=True, slots=True)
class _Counting:
    """One API's count: its body as a request body (what `decode_request` reads),
    and the path and body of the count an upstream of that API is sent."""

    request_body: Callable[[dict[str, Any]], dict[str, Any]]
    path: Callable[[str, Target], str]  # the endpoint's path, the upstream
    body: Callable[[dict[str, Any], Target], dict[str, Any]]  # from the request's body


# What Anthropic's count takes of a request body; the rest (max_tokens, stream,
# sampling) it refuses.
_ANTHROPIC_COUNTED = (
    "model",
    "messages",
    "system",
    "tools",
    "tool_choice",
    "thinking",
    "mcp_servers",
)


def _anthropic_count(body: dict[str, Any], target: Target) -> dict[str, Any]:
    return {name: body[name] for name in _ANTHROPIC_COUNTED if name in body}


def _gemini_request(body: dict[str, Any]) -> dict[str, Any]:
    """A count's `generateContentRequest` is the whole request; else its `contents` are."""
    inner = body.get("generateContentRequest")
    return inner if isinstance(inner, dict) else body


def _gemini_count(body: dict[str, Any], target: Target) -> dict[str, Any]:
    """`contents` alone, or the whole request as `generateContentRequest`: Gemini
    takes one or the other ("Model + Contents or a generateContentRequest, but never both")."""
    if set(body) <= {"contents"}:
        return body
    # The upstream's model over the client's, which a body may keep (`models/<route>`).
    return {"generateContentRequest": {**body, "model": f"models/{target.model}"}}


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


async def count_tokens(upstreams: Upstreams, api: str, request: ChatRequest) -> tuple[Target, Any]:
    """The first upstream of the request's route, and its count."""
    target = upstreams.route(request.model)[0]
    if target.provider != api:
        raise cannot_count(target.name, api)
    counting = COUNTING_APIS[api]
    client = upstreams.client(target.provider)
    sent = request.model_copy(update={"model": target.model})
    body = client.endpoint.body(sent, None, stream=False)
    path = counting.path(client.endpoint.path, target)
    with client.binding.errors(target.provider):
        answer = await client.binding.post_async(
            client.sdk, path, counting.body(body, target), stream=False
        )
    return target, answer
