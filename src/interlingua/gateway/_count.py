"""`POST /v1/messages/count_tokens`: Anthropic's token count, answered by an
upstream of the client's own API (the only one with such an endpoint); for a
route to any other, the client's API's 404 says which upstream cannot count.
"""

from __future__ import annotations

from typing import Any

from interlingua._request import ChatRequest
from interlingua.gateway._errors import cannot_count
from interlingua.gateway._upstream import Target, Upstreams

__all__ = ["count_tokens"]

# What a count takes of a request body: the rest (max_tokens, stream, sampling) it refuses.
_COUNTED = ("model", "messages", "system", "tools", "tool_choice", "thinking", "mcp_servers")


async def count_tokens(upstreams: Upstreams, api: str, request: ChatRequest) -> tuple[Target, Any]:
    """The first upstream of the request's route, and its count."""
    target = upstreams.route(request.model)[0]
    if target.provider != api:
        raise cannot_count(target.name, api)
    client = upstreams.client(target.provider)
    body = client.endpoint.body(
        request.model_copy(update={"model": target.model}), None, stream=False
    )
    counted = {name: body[name] for name in _COUNTED if name in body}
    path = f"{client.endpoint.path}/count_tokens"
    with client.binding.errors(target.provider):
        answer = await client.binding.post_async(client.sdk, path, counted, stream=False)
    return target, answer
