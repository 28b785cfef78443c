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
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from botocore.model import Shape

__all__ = ["read_event_stream"]


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


@cache
def _event_shape(operation: str) -> Shape:
    """The union of events `operation` streams, from botocore's model of Bedrock Runtime."""
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    output = model.operation_model(operation).output_shape
    assert output is not None
    (stream,) = (
        member for member in output.members.values() if member.serialization.get("eventstream")
    )
    return stream
