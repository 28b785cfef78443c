"""interlingua adapter for Amazon Bedrock's Converse API (`"bedrock"`)."""

from __future__ import annotations

from interlingua_bedrock._wire import PROVIDER

__all__ = ["PROVIDER"]
