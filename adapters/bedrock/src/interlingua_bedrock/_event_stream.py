"""An AWS event stream's bytes read into the events boto3 yields.

Bedrock streams its answers as `application/vnd.amazon.eventstream`: binary
frames, each with its length, headers and two CRCs. botocore reads them
(`EventStreamBuffer` checks the framing and the CRCs) and its event-stream
parser reads each payload by the operation's output shape, which leaves out
what the shape does not have (Bedrock's random-length `"p"` padding) and
decodes a blob (`chunk.bytes`) to bytes. So these are the dicts a boto3
client's stream yields: `{"messageStart": {"role": "assistant"}}`,
`{"chunk": {"bytes": b"..."}}`.

An exception frame (`:message-type: exception`), which boto3 raises, is
yielded as the member of the stream's union it is, `{"throttlingException":
{"message": "..."}}`, so that a decoder sees where the stream broke. botocore
is imported on first use: importing the codec imports no SDK.

`write_event_stream` writes those events back as frames, one an event, with
AWS's own encoder of the format (`smithy-aws-event-stream`, from Python 3.12;
botocore has no writer): its member the `:event-type` header (or the
`:exception-type` of an exception frame: a member the operation models as an
exception), its value the JSON payload, a blob in base64 (`chunk.bytes`). The
testing kit answers boto3's streams with it, and the gateway Converse clients.
"""

from __future__ import annotations

import base64
import importlib.util
import json
from collections.abc import Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from botocore.model import StructureShape

__all__ = ["can_write_event_streams", "read_event_stream", "write_event_stream"]

_ENCODER = "smithy_aws_event_stream"


def read_event_stream(
    data: bytes | Iterable[bytes], operation: str = "ConverseStream"
) -> Iterator[dict[str, Any]]:
    """The events of `operation`'s answer (`ConverseStream`, or
    `InvokeModelWithResponseStream`), from its bytes whole or in pieces."""
    from botocore.eventstream import EventStreamBuffer
    from botocore.parsers import EventStreamJSONParser

    shape, parser, frames = _event_shape(operation), EventStreamJSONParser(), EventStreamBuffer()
    for piece in [data] if isinstance(data, bytes) else data:
        frames.add_data(piece)
        for frame in frames:
            event = frame.to_response_dict()
            headers = event["headers"]
            if headers.get(":message-type") == "exception":
                yield {str(headers[":exception-type"]): json.loads(event["body"])}
            else:
                yield parser.parse(event, shape)


def can_write_event_streams() -> bool:
    """Whether AWS's event-stream encoder is installed (it needs Python 3.12)."""
    return importlib.util.find_spec(_ENCODER) is not None


def write_event_stream(
    events: Iterable[dict[str, Any]], operation: str = "ConverseStream"
) -> Iterator[bytes]:
    """The frame of each event of `operation`'s answer, `{member: value}` as boto3
    yields it, lazily. Raises `ImportError` where AWS's encoder is not installed."""
    if not can_write_event_streams():
        raise ImportError(
            "writing Amazon's event stream takes AWS's encoder: "
            "pip install smithy-aws-event-stream (Python 3.12 or later)"
        )
    return _frames(events, _exceptions(operation))


def _frames(events: Iterable[dict[str, Any]], exceptions: frozenset[str]) -> Iterator[bytes]:
    from smithy_aws_event_stream.events import EventMessage

    for event in events:
        ((member, value),) = event.items()
        kind = "exception" if member in exceptions else "event"
        headers = {
            ":message-type": kind,
            f":{kind}-type": member,
            ":content-type": "application/json",
        }
        payload = json.dumps(value, separators=(",", ":"), default=_blob).encode()
        yield EventMessage(headers=headers, payload=payload).encode()


@cache
def _exceptions(operation: str) -> frozenset[str]:
    """The members of `operation`'s event union that botocore models as exceptions."""
    stream = _event_shape(operation)
    return frozenset(
        name for name, shape in stream.members.items() if shape.metadata.get("exception")
    )


def _blob(value: object) -> str:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"{type(value).__name__} is not JSON")


@cache
def _event_shape(operation: str) -> StructureShape:
    """The union of events `operation` streams, from botocore's model of Bedrock Runtime."""
    import botocore.session
    from botocore.model import StructureShape

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    output = model.operation_model(operation).output_shape
    assert output is not None
    (stream,) = (
        member for member in output.members.values() if member.serialization.get("eventstream")
    )
    assert isinstance(stream, StructureShape)  # a union, which botocore reads as a structure
    return stream
