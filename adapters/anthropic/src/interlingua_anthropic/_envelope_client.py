"""Calling Claude on Amazon Bedrock and Vertex AI: `complete` and `stream` (and
their async twins) over the anthropic SDK's `AnthropicBedrock` and
`AnthropicVertex`, as `AnthropicClient` does over `Anthropic` (`_client`).

The SDK keeps the credentials (Bedrock: AWS keys, a profile or a Bedrock API
key, each request signed with SigV4; Vertex AI: Google credentials or an
access token), the region and project, retries and timeouts. The body sent is
exactly the envelope's `encode_request(request)`, posted to the model's path
(`Endpoint.target`): the SDKs rewrite only a body posted to `/v1/messages`, so
this one goes as it is. Bedrock's SDK reads its event stream into Anthropic's
events (its `AWSEventStreamDecoder`), which the stream decoder takes as they
are; Vertex AI streams server-sent events. Vertex AI's path begins with the
SDK client's project and location, which its transport puts in front.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import anthropic

from interlingua.client import (
    AsyncChatClient,
    ChatClient,
    Endpoint,
    SDKOptions,
    sdk_client,
    stainless_options,
)
from interlingua_anthropic import _client, bedrock, vertex
from interlingua_anthropic._wire import OUTPUT_LIMITS

__all__ = [
    "AnthropicBedrockClient",
    "AnthropicVertexClient",
    "AsyncAnthropicBedrockClient",
    "AsyncAnthropicVertexClient",
]

# The betas a client's body may use go with it; its version is in the body.
_API_HEADERS = ("anthropic-beta",)


def _endpoint(adapter: ModuleType, path: str) -> Endpoint:
    """The endpoint of an envelope's adapter (`bedrock`, `vertex`): its codec, and
    the model's path (`path` is how every one ends)."""
    return Endpoint(
        provider=adapter.PROVIDER,
        path=path,
        encode_request=adapter.encode_request,
        decode_response=adapter.decode_response,
        stream_decoder=adapter.STREAMS.decoder,
        limits=OUTPUT_LIMITS,
        api_headers=_API_HEADERS,
        last_payload=_client.MESSAGES.last_payload,
        target=adapter.CODEC.target,
    )


INVOKE = _endpoint(bedrock, "/invoke")
RAW_PREDICT = _endpoint(vertex, ":rawPredict")


class _VertexPaths:
    """Posts through the SDK's generic `post`, to the path under the SDK client's
    project and location (`/projects/{project}/locations/{location}/...`)."""

    def send(
        self,
        sdk: Any,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any:
        extra = {"stream": True, "stream_cls": anthropic.Stream[object]} if stream else {}
        options = {"headers": dict(headers)} if headers else {}
        return sdk.post(_located(sdk, path), body=body, cast_to=object, options=options, **extra)

    async def send_async(
        self,
        sdk: Any,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any:
        extra = {"stream": True, "stream_cls": anthropic.AsyncStream[object]} if stream else {}
        options = {"headers": dict(headers)} if headers else {}
        located = _located(sdk, path)
        return await sdk.post(located, body=body, cast_to=object, options=options, **extra)

    def close(self, sdk: Any) -> None:
        sdk.close()

    async def close_async(self, sdk: Any) -> None:
        await sdk.close()


def _located(sdk: Any, path: str) -> str:
    project = sdk.project_id
    if not project:
        raise ValueError(
            "no Vertex AI project: pass `project_id` to AnthropicVertex, "
            "or set ANTHROPIC_VERTEX_PROJECT_ID"
        )
    return f"/projects/{project}/locations/{sdk.region}/{path}"


def _bedrock_options(options: SDKOptions) -> dict[str, Any]:
    """`SDKOptions` as `AnthropicBedrock`'s arguments: its key is a Bedrock API key."""
    return _given(stainless_options(options), aws_region=options.region)


def _vertex_options(options: SDKOptions) -> dict[str, Any]:
    """`SDKOptions` as `AnthropicVertex`'s arguments: its key is an access token."""
    given = stainless_options(dataclasses.replace(options, api_key=None))
    return _given(given, access_token=options.api_key, region=options.region)


def _given(options: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {**options, **{name: value for name, value in more.items() if value is not None}}


BEDROCK_SDK = dataclasses.replace(
    _client.SDK, decode_error=bedrock.decode_error, options=_bedrock_options
)
VERTEX_SDK = dataclasses.replace(
    _client.SDK,
    decode_error=vertex.decode_error,
    transport=_VertexPaths(),
    options=_vertex_options,
)


class AnthropicBedrockClient(ChatClient):
    """Chat calls to Claude on Amazon Bedrock (InvokeModel)."""

    endpoint = INVOKE
    binding = BEDROCK_SDK

    def __init__(self, client: anthropic.AnthropicBedrock | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, anthropic.AnthropicBedrock))


class AsyncAnthropicBedrockClient(AsyncChatClient):
    """Chat calls to Claude on Amazon Bedrock (InvokeModel), awaited."""

    endpoint = INVOKE
    binding = BEDROCK_SDK

    def __init__(
        self, client: anthropic.AsyncAnthropicBedrock | None = None, **options: Any
    ) -> None:
        super().__init__(sdk_client(client, options, anthropic.AsyncAnthropicBedrock))


class AnthropicVertexClient(ChatClient):
    """Chat calls to Claude on Vertex AI (rawPredict)."""

    endpoint = RAW_PREDICT
    binding = VERTEX_SDK

    def __init__(self, client: anthropic.AnthropicVertex | None = None, **options: Any) -> None:
        super().__init__(sdk_client(client, options, anthropic.AnthropicVertex))


class AsyncAnthropicVertexClient(AsyncChatClient):
    """Chat calls to Claude on Vertex AI (rawPredict), awaited."""

    endpoint = RAW_PREDICT
    binding = VERTEX_SDK

    def __init__(
        self, client: anthropic.AsyncAnthropicVertex | None = None, **options: Any
    ) -> None:
        super().__init__(sdk_client(client, options, anthropic.AsyncAnthropicVertex))
