"""Amazon's event stream written from the events boto3 yields: how the testing
kit answers a streamed Bedrock call (`converse_stream`,
`invoke_model_with_response_stream`) with what a recording of another API, a
neutral recording or the fake provider gives.

`interlingua_bedrock.read_event_stream` reads the frames (botocore's reader);
this writes them, with AWS's own encoder of the format
(`smithy-aws-event-stream`, on Python 3.12 and later, which the `testing`
extra installs there): each event `{member: value}` one frame, its member the
`:event-type` header (an event) or the `:exception-type` (a member the
operation models as an exception, which boto3 raises), and its value the JSON
payload, blobs as base64 (as `chunk.bytes`). botocore's model of Bedrock
Runtime says which members are exceptions; the events come from an
adapter's `encode_stream`, so they are the union's members already.
"""

from __future__ import annotations

import base64
import importlib.util
import json
from collections.abc import Iterable
from functools import cache
from typing import Any

__all__ = ["can_write_event_streams", "event_stream_body"]

# The operation of each streamed Bedrock path, by its last segment.
_OPERATIONS = {
    "converse-stream": "ConverseStream",
    "invoke-with-response-stream": "InvokeModelWithResponseStream",
}


def can_write_event_streams() -> bool:
    """Whether AWS's event-stream encoder is installed (it needs Python 3.12)."""
    return importlib.util.find_spec("smithy_aws_event_stream") is not None


def event_stream_body(events: Iterable[dict[str, Any]], path: str) -> bytes:
    """The frames of `events`, each `{member: value}` as boto3 yields it, for the
    operation of a streamed Bedrock `path` segment (`converse-stream`)."""
    from smithy_aws_event_stream.events import EventMessage

    exceptions = _exceptions(_OPERATIONS[path])
    frames = []
    for event in events:
        ((member, value),) = event.items()
        kind = "exception" if member in exceptions else "event"
        headers = {
            ":message-type": kind,
            f":{kind}-type": member,
            ":content-type": "application/json",
        }
        payload = json.dumps(value, separators=(",", ":"), default=_blob).encode()
        frames.append(EventMessage(headers=headers, payload=payload).encode())
    return b"".join(frames)


@cache
def _exceptions(operation: str) -> frozenset[str]:
    """The members of `operation`'s event union that botocore models as exceptions."""
    import botocore.session
    from botocore.model import StructureShape

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    output = model.operation_model(operation).output_shape
    assert output is not None
    (stream,) = (
        member for member in output.members.values() if member.serialization.get("eventstream")
    )
    assert isinstance(stream, StructureShape)
    return frozenset(
        name for name, shape in stream.members.items() if shape.metadata.get("exception")
    )


def _blob(value: object) -> str:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"{type(value).__name__} is not JSON")
