"""InvocationContext: request-scoped, read-only, subclassable."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua import ChatRequest, InvocationContext


class TenantContext(InvocationContext):
    tenant: str = ""
    tags: list[str] | None = None

    def trace_attributes(self) -> dict[str, Any]:
        return {**super().trace_attributes(), "tags": self.tags}


def test_from_metadata_fills_fields_by_name_and_ignores_the_rest() -> None:
    context = TenantContext.from_metadata(
        session_id="s1",
        metadata={"user_id": "u1", "tenant": "acme", "session_id": "forged", "other": 1},
    )
    assert (context.session_id, context.user_id, context.tenant) == ("s1", "u1", "acme")
    assert not hasattr(context, "other")


def test_outbound_metadata_leaves_out_session_and_settings() -> None:
    context = InvocationContext(session_id="s", user_id="u", llm_settings={"temperature": 0})
    assert context.outbound_metadata() == {"user_id": "u"}
    assert context.trace_attributes() == {"session_id": "s", "user_id": "u"}


def test_a_context_is_read_only() -> None:
    context = InvocationContext(session_id="s")
    with pytest.raises(Exception, match="frozen"):
        context.user_id = "x"  # type: ignore[misc]


def test_a_request_carries_its_context_but_never_serializes_it() -> None:
    request = ChatRequest(model="m", context=InvocationContext(user_id="u1"))
    assert request.context is not None
    assert request.context.user_id == "u1"
    assert "context" not in request.model_dump()


def test_an_unknown_field_is_refused_and_a_wrong_type_named() -> None:
    from interlingua import InvalidDataError

    with pytest.raises(InvalidDataError, match="at user: extra inputs are not permitted"):
        InvocationContext(user="u1")  # type: ignore[call-arg]
    with pytest.raises(InvalidDataError, match="at user_id"):
        InvocationContext(user_id=5)  # type: ignore[arg-type]
