"""Why a model stopped, in one vocabulary for every provider."""

from __future__ import annotations

from enum import Enum

__all__ = ["FinishReason"]


class FinishReason(str, Enum):
    """The unified finish reason; the provider's own value is kept beside it
    as `raw_finish_reason`."""

    STOP = "stop"
    LENGTH = "length"
    TOOL_CALLS = "tool_calls"
    CONTENT_FILTER = "content_filter"
    PAUSE = "pause"
    ERROR = "error"
    OTHER = "other"

    def __str__(self) -> str:
        return self.value
