"""interlingua adapter for Amazon Bedrock's Converse API (`"bedrock"`).

The module is the adapter (`interlingua.get_adapter("bedrock")` returns it):
`PROVIDER` and the pure codec functions; none of them imports boto3.
"""

from __future__ import annotations

from interlingua_bedrock._request import decode_request, encode_request
from interlingua_bedrock._wire import PROVIDER

__all__ = ["PROVIDER", "decode_request", "encode_request"]
