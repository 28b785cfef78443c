"""Amazon Bedrock's Converse wire: its name, its paths, and its shapes.

The model id is in the URL, not the body: `POST /model/{modelId}/converse`,
and `/converse-stream` for a stream, whose answer is an AWS event stream
(`application/vnd.amazon.eventstream`), each event one member of
`ConverseStreamOutput` (`{"messageStart": {...}}`, `{"contentBlockDelta":
{...}}`, ...).
"""

from __future__ import annotations

__all__ = ["CONVERSE", "CONVERSE_STREAM", "PROVIDER"]

PROVIDER = "bedrock"

CONVERSE = "/model/{model_id}/converse"
CONVERSE_STREAM = "/model/{model_id}/converse-stream"
