"""boto3 calls made again from recorded Bedrock Runtime traffic, and the
recorded answers read without boto3, for the testing kit's boto3 tests.

`call(client, interaction)` sends a recorded request through a real boto3
`bedrock-runtime` client, its parameters read from the recorded body by the
operation's input shape (`parameters`); `check_answer` and `check_error`
compare what boto3 gives with the recorded answer: JSON parsed, an event
stream's frames read by botocore's framing alone (`frames`), each cut to what
botocore's model of the service holds (`modeled`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import boto3
from botocore import xform_name
from botocore.client import BaseClient
from botocore.eventstream import EventStreamBuffer
from botocore.exceptions import ClientError
from botocore.model import OperationModel, Shape
from botocore.parsers import RestJSONParser

from conftest import cassette
from interlingua.testing import Interaction, RecordedRequest
from interlingua_bedrock._event_stream import read_event_stream

# Bedrock Runtime's operations, by the last segment of `/model/{modelId}/...`.
OPERATIONS = {
    "converse": "Converse",
    "converse-stream": "ConverseStream",
    "invoke": "InvokeModel",
    "invoke-with-response-stream": "InvokeModelWithResponseStream",
}
# Made-up static credentials: no AWS account is reached.
CREDENTIALS = {"aws_access_key_id": "test-key-id", "aws_secret_access_key": "test-secret"}


def bedrock_calls(path: Path) -> list[Interaction]:
    """The calls of a corpus file to Bedrock Runtime (file downloads and others left out)."""
    return [call for call in cassette(path).interactions if call.provider == "bedrock"]


def client_for(url: str, endpoint_url: str | None = None) -> BaseClient:
    """A boto3 client as user code makes one, in the region of the recorded host."""
    region = (urlsplit(url).hostname or "").split(".")[1]
    return boto3.client(
        "bedrock-runtime", region_name=region, endpoint_url=endpoint_url, **CREDENTIALS
    )


def sent_path(request: RecordedRequest) -> str:
    """The path boto3 sends for a recorded request (botocore escapes the model id's `:`)."""
    _, model_id = operation_of(request)
    _, _, tail = urlsplit(request.url).path.rpartition("/")
    return f"/model/{quote(model_id, safe='')}/{tail}"


def operation_of(request: RecordedRequest) -> tuple[str, str]:
    """The operation and the model id (unescaped) of a recorded request's URL."""
    _, _, rest = urlsplit(request.url).path.partition("/model/")
    model_id, _, operation = rest.rpartition("/")
    return OPERATIONS[operation], unquote(model_id)


@cache
def operation_model(name: str) -> OperationModel:
    return (
        boto3.Session()
        .client("bedrock-runtime", "us-east-1")
        .meta.service_model.operation_model(name)
    )


def parameters(request: RecordedRequest, operation: str) -> dict[str, Any]:
    """What the user passes boto3 to send the recorded request: its body read by
    the operation's input shape (base64 blobs as bytes), by botocore's JSON reader."""
    shape = operation_model(operation).input_shape
    assert shape is not None
    headers = {name: ", ".join(values) for name, values in request.headers.items()}
    document = {"body": request.body or b"", "headers": headers, "status_code": 200}
    read = RestJSONParser().parse(document, shape)
    read.pop("ResponseMetadata", None)
    return read


def as_json(value: Any) -> Any:
    """boto3's answer as its JSON: bytes (a blob) as the base64 text the wire has."""
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    return value


def modeled(value: Any, shape: Shape) -> Any:
    """`value` (recorded JSON) as boto3 can give it: the members botocore's model
    of Bedrock Runtime has (a newer field, `usage.serverToolUsage` say, it leaves out)."""
    if shape.type_name == "structure" and not shape.is_document_type:
        members = shape.members  # type: ignore[attr-defined]
        return {key: modeled(item, members[key]) for key, item in value.items() if key in members}
    if shape.type_name == "list":
        return [modeled(item, shape.member) for item in value]  # type: ignore[attr-defined]
    if shape.type_name == "map":
        return {key: modeled(item, shape.value) for key, item in value.items()}  # type: ignore[attr-defined]
    return value


def stream_member(operation: str) -> tuple[str, Shape]:
    """The output member that is the event stream, and its union of events."""
    output = operation_model(operation).output_shape
    assert output is not None
    ((name, shape),) = (
        (name, shape)
        for name, shape in output.members.items()
        if shape.serialization.get("eventstream")
    )
    return name, shape


def frames(body: bytes) -> Iterator[tuple[str, Any]]:
    """Each frame of an event stream read by botocore's framing alone (CRCs
    checked): its `:event-type` and its payload parsed as JSON, padding left out."""
    buffer = EventStreamBuffer()
    buffer.add_data(body)
    for frame in buffer:
        message = frame.to_response_dict()
        payload = json.loads(message["body"])
        payload.pop("p", None)
        yield str(message["headers"][":event-type"]), payload


def framed_events(body: bytes, operation: str) -> list[dict[str, Any]]:
    """The events boto3 must yield, as JSON, from the frames (a blob, InvokeModel's
    chunk `bytes` or a redacted thinking, as its base64 text)."""
    _, events = stream_member(operation)
    members = events.members  # type: ignore[attr-defined]
    return [{kind: modeled(load, members[kind])} for kind, load in frames(body)]


def call(client: BaseClient, interaction: Interaction) -> dict[str, Any]:
    """The recorded request, made again through boto3."""
    assert interaction.request is not None
    operation, model_id = operation_of(interaction.request)
    method = getattr(client, xform_name(operation))
    answer: dict[str, Any] = method(modelId=model_id, **parameters(interaction.request, operation))
    return answer


def check_answer(answer: dict[str, Any], interaction: Interaction) -> None:
    """What boto3 gave equals the recorded answer read without it."""
    assert interaction.request is not None
    operation, _ = operation_of(interaction.request)
    recorded = interaction.response
    assert answer["ResponseMetadata"]["HTTPStatusCode"] == recorded.status
    if operation == "InvokeModel":
        body = answer["body"].read()
        assert body == recorded.body
        assert json.loads(body) == recorded.json
    elif operation == "Converse":
        parsed = {key: value for key, value in answer.items() if key != "ResponseMetadata"}
        shape = operation_model(operation).output_shape
        assert shape is not None
        assert as_json(parsed) == modeled(recorded.json, shape)
    else:
        events = list(answer[stream_member(operation)[0]])
        assert events == list(read_event_stream(recorded.body, operation))
        assert as_json(events) == framed_events(recorded.body, operation)
        assert len(events) == len(list(frames(recorded.body))) > 0


def check_error(error: ClientError, interaction: Interaction) -> None:
    recorded = interaction.response
    assert error.response["ResponseMetadata"]["HTTPStatusCode"] == recorded.status
    assert error.response["Error"]["Message"] == recorded.json["message"]
    kinds = [v for name, vs in recorded.headers.items() if name == "x-amzn-errortype" for v in vs]
    if kinds:
        assert error.response["Error"]["Code"] == kinds[0].partition(":")[0]
