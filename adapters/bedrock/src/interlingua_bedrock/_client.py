"""Calling Amazon Bedrock's Converse API: `complete` and `stream` (and their
async twins) over the user's boto3 `bedrock-runtime` client, through
`interlingua.client`.

Pass your own client (`boto3.client("bedrock-runtime", region_name=...)`:
its credentials, region, endpoint, retries and timeouts are yours), or the
options to build one (`BedrockClient(region_name="us-east-1")`). The body
sent is exactly `encode_request(request)`, the model in the URL
(`/model/{modelId}/converse`, `/converse-stream`); the answer is read as the
JSON Bedrock sent, and a stream's events as boto3 yields them.

Quirk: boto3 has no call that posts a JSON body as it is: `converse(**params)`
serializes typed parameters, whose blobs (an image's `source.bytes`) are
bytes it base64-encodes itself, where the JSON body has the base64 text. So
the body's blobs are turned into bytes, by the operation's own shapes in
botocore's model of Bedrock Runtime, and nothing else changes. boto3 reads an
answer into the shapes it knows (fields it does not know are dropped): the
client keeps the answer's bytes as Bedrock sent them through botocore's
`before-parse` event, the hook botocore gives for a response dict of one's own,
and only inside this adapter's calls.

The async client runs the boto3 client's calls, and each read of a stream, in
a worker thread (`asyncio.to_thread`): boto3 has no async client, and the
event loop never waits on the network.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import AsyncIterator, Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

import boto3
import botocore.session
from botocore import UNSIGNED
from botocore.config import Config
from botocore.exceptions import ClientError, EventStreamError, HTTPClientError
from botocore.exceptions import ConnectionError as BotoConnectionError

from interlingua import ChatRequest
from interlingua.client import (
    AsyncChatClient,
    ChatClient,
    Endpoint,
    SDKBinding,
    SDKOptions,
    sdk_client,
    set_stream,
)
from interlingua_bedrock._errors import decode_error
from interlingua_bedrock._request import encode_request
from interlingua_bedrock._response import decode_response
from interlingua_bedrock._stream import BedrockStreamDecoder
from interlingua_bedrock._wire import CONVERSE, CONVERSE_STREAM, OUTPUT_LIMITS, PROVIDER

if TYPE_CHECKING:
    from botocore.model import Shape
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

__all__ = ["AsyncBedrockClient", "BedrockClient"]

# Inside one of this adapter's calls: the answer's body is kept as Bedrock sent it.
_KEEP_BODY: ContextVar[bool] = ContextVar("interlingua_bedrock_keep_body", default=False)
# The headers a caller gives beside boto3's own, inside one of this adapter's calls.
_HEADERS: ContextVar[Mapping[str, str] | None] = ContextVar(
    "interlingua_bedrock_headers", default=None
)
# Where the `before-parse` handler puts the body in boto3's parsed answer.
_BODY = "interlingua:body"


def _target(request: ChatRequest, stream: bool) -> str:
    """The operation's path, the model id in it as botocore writes it (`:` and `/` encoded)."""
    return (CONVERSE_STREAM if stream else CONVERSE).format(model_id=quote(request.model, safe=""))


CONVERSE_ENDPOINT = Endpoint(
    provider=PROVIDER,
    path=CONVERSE,
    encode_request=encode_request,
    decode_response=decode_response,
    stream_decoder=BedrockStreamDecoder,
    limits=OUTPUT_LIMITS,
    # A Converse body has no `stream`: the operation says it.
    prepare=lambda request, stream: set_stream(request, False),
    last_payload=lambda event: isinstance(event, dict) and "metadata" in event,
    target=_target,
)


def _keep_body(
    operation_model: Any,
    response_dict: dict[str, Any],
    customized_response_dict: dict[str, Any],
    **_: Any,
) -> None:
    """botocore's `before-parse` handler: a whole answer's bytes, as they came
    (an error's too, whose body is JSON whatever the operation streams)."""
    whole = response_dict["status_code"] >= 300 or not operation_model.has_event_stream_output
    if _KEEP_BODY.get() and whole:
        customized_response_dict[_BODY] = response_dict["body"]


def _add_headers(request: Any, **_: Any) -> None:
    """botocore's `before-sign` handler: the caller's headers, signed with the rest."""
    for name, value in (_HEADERS.get() or {}).items():
        request.headers[name] = value


def _hooked(sdk: BedrockRuntimeClient) -> BedrockRuntimeClient:
    """The user's client with this adapter's two handlers (once each; idle
    outside this adapter's calls)."""
    events = sdk.meta.events
    events.register("before-parse.bedrock-runtime.*", _keep_body, unique_id="interlingua-body")
    events.register("before-sign.bedrock-runtime.*", _add_headers, unique_id="interlingua-headers")
    return sdk


@cache
def _input_shape(operation: str) -> Shape:
    """The input shape of `operation` in botocore's model of Bedrock Runtime."""
    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    found = model.operation_model(operation).input_shape
    assert found is not None
    return found


def _with_bytes(value: Any, shape: Shape) -> Any:
    """`value` with each blob of `shape` (base64 text in the JSON body) as bytes."""
    kind = shape.type_name
    if kind == "blob":
        return base64.b64decode(value) if isinstance(value, str) else value
    if not _has_blob(shape):
        return value
    if kind == "structure" and isinstance(value, dict):
        members = shape.members  # type: ignore[attr-defined]
        return {
            key: _with_bytes(item, members[key]) if key in members else item
            for key, item in value.items()
        }
    if kind == "list" and isinstance(value, list):
        return [_with_bytes(item, shape.member) for item in value]  # type: ignore[attr-defined]
    if kind == "map" and isinstance(value, dict):
        return {key: _with_bytes(item, shape.value) for key, item in value.items()}  # type: ignore[attr-defined]
    return value


@cache
def _has_blob(shape: Shape, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a blob is anywhere under `shape` (a document's members are JSON, not shapes)."""
    if shape.type_name == "blob":
        return True
    if shape.name in seen or getattr(shape, "is_document_type", False):
        return False
    inner = seen | {shape.name}
    if shape.type_name == "structure":
        return any(_has_blob(member, inner) for member in shape.members.values())  # type: ignore[attr-defined]
    if shape.type_name == "list":
        return _has_blob(shape.member, inner)  # type: ignore[attr-defined]
    if shape.type_name == "map":
        return _has_blob(shape.value, inner)  # type: ignore[attr-defined]
    return False


def _call(sdk: BedrockRuntimeClient, path: str, body: dict[str, Any], stream: bool) -> Any:
    """The boto3 call for `body` posted to `path`: the model id from the path."""
    model_id = unquote(path.split("/")[2])
    operation = "ConverseStream" if stream else "Converse"
    params = _with_bytes(body, _input_shape(operation))
    if stream:
        return _Events(sdk.converse_stream(modelId=model_id, **params)["stream"])
    answer: Any = sdk.converse(modelId=model_id, **params)
    return json.loads(answer[_BODY])


class _Events:
    """A stream's events as boto3 yields them, with its `close()`."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[Any]:
        return iter(self._stream)

    def close(self) -> None:
        self._stream.close()


class _AsyncEvents:
    """`_Events` read in a worker thread, one event at a time."""

    def __init__(self, events: _Events) -> None:
        self._events = events

    async def __aiter__(self) -> AsyncIterator[Any]:
        events = iter(self._events)
        end = object()
        while (event := await asyncio.to_thread(next, events, end)) is not end:
            yield event

    async def close(self) -> None:
        await asyncio.to_thread(self._events.close)


class _Boto3Calls:
    """`interlingua.client.SDKTransport` over a boto3 `bedrock-runtime` client."""

    def send(
        self,
        sdk: BedrockRuntimeClient,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any:
        kept, sent = _KEEP_BODY.set(True), _HEADERS.set(headers)
        try:
            return _call(sdk, path, body, stream)
        finally:
            _KEEP_BODY.reset(kept)
            _HEADERS.reset(sent)

    async def send_async(
        self,
        sdk: BedrockRuntimeClient,
        path: str,
        body: dict[str, Any],
        *,
        stream: bool,
        headers: Mapping[str, str],
    ) -> Any:
        answer = await asyncio.to_thread(self.send, sdk, path, body, stream=stream, headers=headers)
        return _AsyncEvents(answer) if stream else answer

    def close(self, sdk: BedrockRuntimeClient) -> None:
        sdk.close()

    async def close_async(self, sdk: BedrockRuntimeClient) -> None:
        await asyncio.to_thread(sdk.close)


def _error_body(exc: Exception) -> Any:
    """The error's body as Bedrock sent it (`{"message": ...}`), else what boto3 read of it."""
    answer: Any = getattr(exc, "response", {})
    if (body := answer.get(_BODY)) is not None:
        return json.loads(body) if body else {}
    return {"message": answer.get("Error", {}).get("Message", str(exc))}


def _status(exc: Exception) -> int | None:
    status = getattr(exc, "response", {}).get("ResponseMetadata", {}).get("HTTPStatusCode")
    return status if isinstance(status, int) else None


def _error_headers(exc: Exception) -> Mapping[str, str]:
    """The error answer's headers, which name its type (`x-amzn-ErrorType`)."""
    headers = getattr(exc, "response", {}).get("ResponseMetadata", {}).get("HTTPHeaders")
    return headers if isinstance(headers, Mapping) else {}


def _in_stream_payload(exc: Exception) -> Any | None:
    """An exception event boto3 raises inside a stream, as the stream's union
    member it was (`{"throttlingException": {"message": ...}}`)."""
    if not isinstance(exc, EventStreamError):
        return None
    error = exc.response.get("Error", {})
    return {error.get("Code", "internalServerException"): {"message": error.get("Message", "")}}


def _options(options: SDKOptions) -> dict[str, Any]:
    """`SDKOptions` as `BedrockClient`'s: a Bedrock API key, the region, the
    endpoint URL, the timeouts and the attempts (one more than the retries) in
    the boto3 client's `Config`; credentials as boto3 finds them (its
    environment, profile, role) where no key is given."""
    config: dict[str, Any] = {}
    if options.timeout is not None:
        config.update(connect_timeout=options.timeout, read_timeout=options.timeout)
    if options.max_retries is not None:
        config["retries"] = {"total_max_attempts": options.max_retries + 1, "mode": "standard"}
    given = {
        "api_key": options.api_key,
        "region_name": options.region,
        "endpoint_url": options.base_url,
        "config": Config(**config) if config else None,
    }
    return {name: value for name, value in given.items() if value is not None}


SDK = SDKBinding(
    status_error=ClientError,
    connection_error=(HTTPClientError, BotoConnectionError),
    decode_error=decode_error,
    error_body=_error_body,
    in_stream_payload=_in_stream_payload,
    transport=_Boto3Calls(),
    options=_options,
    status_code=_status,
    error_headers=_error_headers,
)


def _bedrock_runtime(*, api_key: str | None = None, **options: Any) -> BedrockRuntimeClient:
    """A boto3 client of `options`; with a Bedrock API key, one that sends it as
    its bearer token instead of signing with AWS credentials.

    Quirk: boto3 reads a Bedrock API key from `AWS_BEARER_TOKEN_BEDROCK` alone,
    and the API takes it as `Authorization: Bearer <key>` ("Use an Amazon Bedrock
    API key", AWS's user guide): given here, the client goes unsigned and carries it.
    """
    if api_key is None:
        return boto3.client("bedrock-runtime", **options)
    unsigned = Config(signature_version=UNSIGNED)
    config = options.pop("config", None)
    client = boto3.client(
        "bedrock-runtime", config=unsigned if config is None else config.merge(unsigned), **options
    )
    bearer = f"Bearer {api_key}"

    def authorize(request: Any, **_: Any) -> None:
        request.headers["Authorization"] = bearer

    client.meta.events.register("before-sign.bedrock-runtime.*", authorize)
    return client


class BedrockClient(ChatClient):
    endpoint = CONVERSE_ENDPOINT
    binding = SDK

    def __init__(self, client: BedrockRuntimeClient | None = None, **options: Any) -> None:
        """Over `client`, or one built from `options`: boto3's (`region_name`,
        `endpoint_url`, `config`, credentials), or `api_key`, a Bedrock API key."""
        super().__init__(_hooked(sdk_client(client, options, _bedrock_runtime)))


class AsyncBedrockClient(AsyncChatClient):
    """`BedrockClient` awaited: each boto3 call, and each read of a stream, in a worker thread."""

    endpoint = CONVERSE_ENDPOINT
    binding = SDK

    def __init__(self, client: BedrockRuntimeClient | None = None, **options: Any) -> None:
        super().__init__(_hooked(sdk_client(client, options, _bedrock_runtime)))
