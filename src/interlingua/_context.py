"""The request-scoped context a call may carry."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict

from interlingua._base import CoreModel

if sys.version_info >= (3, 11):
    from typing import Self
else:  # pragma: no cover
    from typing_extensions import Self

__all__ = ["InvocationContext"]


class InvocationContext(CoreModel):
    """Who a call is made for, read-only for the length of a request.

    Adapters send `user_id` as the provider's own end-user field (OpenAI's
    `safety_identifier`/`user`, Anthropic's `metadata.user_id`). Subclass to
    carry fields of your own; `from_metadata` fills them by name.
    """

    # Subclasses may add fields; an unknown keyword is refused, not ignored.
    model_config = ConfigDict(frozen=True, extra="forbid")

    session_id: str | None = None
    user_id: str | None = None
    llm_settings: dict[str, Any] | None = None
    workflow_settings: dict[str, Any] | None = None

    @classmethod
    def from_metadata(
        cls, *, session_id: str | None, metadata: Mapping[str, Any] | None = None
    ) -> Self:
        """A context from request metadata. Fields are matched by name and
        unknown keys ignored; `session_id` comes from the argument alone."""
        known = {k: v for k, v in (metadata or {}).items() if k in cls.model_fields}
        return cls.model_validate({**known, "session_id": session_id})

    def outbound_metadata(self) -> dict[str, Any]:
        """What this context forwards to a downstream service: every set field
        but `session_id` and the settings, which belong to the callee."""
        return self.model_dump(
            exclude={"session_id", "llm_settings", "workflow_settings"}, exclude_none=True
        )

    def trace_attributes(self) -> dict[str, Any]:
        """Fields to bind to a trace. Keep secrets out: these reach whatever
        observability backend is configured."""
        return {"session_id": self.session_id, "user_id": self.user_id}
