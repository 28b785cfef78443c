"""The helpers adapters share: wire readers, SDK objects, tool-call ids."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from interlingua import DecodeError, TextDelta
from interlingua.codec import (
    WireReader,
    as_wire_dict,
    copy_json,
    created_time,
    decode_events,
    dump_arguments,
    fit_tool_call_id,
    json_or_text,
    leftover,
    overlay,
    wire_model,
)

read = WireReader("acme")


def test_a_required_field_is_read_and_checked() -> None:
    body = {"model": "m", "max_tokens": 5, "flag": True}
    assert read.field(body, "model", "", str) == "m"
    assert read.field(body, "max_tokens", "", int) == 5
    assert read.field(body, "absent", "", str, None) is None


def test_a_missing_field_names_its_path() -> None:
    with pytest.raises(DecodeError) as caught:
        read.field({}, "id", "content[2]", str)
    assert caught.value.path == "content[2].id"
    assert caught.value.provider == "acme"
    assert "required field is missing" in str(caught.value)


def test_a_field_of_the_wrong_type_names_both_types() -> None:
    with pytest.raises(DecodeError, match=r"at max_tokens: expected an integer, got a boolean"):
        read.field({"max_tokens": True}, "max_tokens", "", int)
    with pytest.raises(DecodeError, match=r"at messages: expected an array, got an object"):
        read.array({}, "messages")
    with pytest.raises(DecodeError, match=r"at messages\[0\]: expected an object, got null"):
        read.object(None, "messages[0]")


class _SdkLike(BaseModel):
    id: str
    stop_sequence: str | None = None
    text: str = ""


def test_an_sdk_object_gives_back_only_what_was_sent() -> None:
    obj = _SdkLike.model_validate({"id": "x", "stop_sequence": None})
    assert as_wire_dict(obj) == {"id": "x", "stop_sequence": None}
    assert as_wire_dict({"a": 1}) == {"a": 1}
    with pytest.raises(TypeError, match="got int"):
        as_wire_dict(3)


def test_arguments_are_dumped_compactly_without_escaping() -> None:
    assert dump_arguments({"city": "Zürich", "n": [1, 2]}) == '{"city":"Zürich","n":[1,2]}'


def test_a_fitting_id_is_kept() -> None:
    assert fit_tool_call_id("toolu_01A-b", allowed="a-zA-Z0-9_-") == "toolu_01A-b"
    assert fit_tool_call_id("abcXYZ123", allowed="a-zA-Z0-9", length=9) == "abcXYZ123"


def test_an_unfitting_id_is_rewritten_deterministically() -> None:
    rewritten = fit_tool_call_id("call:1.a", allowed="a-zA-Z0-9_-")
    assert re.fullmatch(r"[a-zA-Z0-9_-]+", rewritten)
    assert rewritten.startswith("call1a_")
    assert rewritten == fit_tool_call_id("call:1.a", allowed="a-zA-Z0-9_-")


def _mistral(raw: str) -> str:
    return fit_tool_call_id(raw, allowed="a-zA-Z0-9", length=9)


@given(st.text(min_size=1, max_size=60), st.text(min_size=1, max_size=60))
def test_mistral_ids_are_nine_alphanumerics_and_distinct_ids_stay_distinct(a: str, b: str) -> None:
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", _mistral(a))
    assert _mistral(a) == _mistral(a)
    if a != b and _mistral(a) != a and _mistral(b) != b:
        assert _mistral(a) != _mistral(b)


def test_a_maximum_length_is_honoured() -> None:
    long_id = "call_" + "x" * 60
    fitted = fit_tool_call_id(long_id, allowed="a-zA-Z0-9_-", max_length=40)
    assert len(fitted) <= 40
    assert fitted != fit_tool_call_id(long_id + "y", allowed="a-zA-Z0-9_-", max_length=40)


def test_a_number_field_takes_a_json_integer_but_not_a_boolean() -> None:
    assert read.field({"temperature": 1}, "temperature", "", float) == 1
    assert read.field({"temperature": 0.5}, "temperature", "", float) == 0.5
    with pytest.raises(DecodeError, match="expected a number, got a boolean"):
        read.field({"temperature": False}, "temperature", "", float)


class _Block(BaseModel):
    type: str


class _LenientMessage(BaseModel):
    content: list[_Block]


def test_an_sdk_object_holding_an_unknown_block_dumps_without_warnings() -> None:
    # SDKs build leniently: an unknown block sits where a known one was expected.
    unknown = {"type": "mystery_block", "payload": [1, 2]}
    message = _LenientMessage.model_construct(content=[unknown])  # type: ignore[list-item]
    assert as_wire_dict(message) == {"content": [unknown]}


def test_copy_json_shares_no_object_or_array() -> None:
    original = {"a": [{"b": 1}], "c": "text"}
    copied = copy_json(original)
    assert copied == original
    copied["a"][0]["b"] = 2
    assert original == {"a": [{"b": 1}], "c": "text"}


def test_a_decoded_body_is_a_fresh_copy() -> None:
    body = {"content": [{"type": "text"}]}
    wire = as_wire_dict(body)
    wire["content"][0]["type"] = "changed"
    assert body == {"content": [{"type": "text"}]}


def test_leftover_and_overlay_give_back_the_wire() -> None:
    wire = {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}, "n": {"a": 1}}
    modeled = {"type": "text", "text": "hi", "n": {}}
    extras = leftover(wire, modeled)
    assert extras == {"cache_control": {"type": "ephemeral"}, "n": {"a": 1}}
    assert overlay(modeled, extras) == wire


def test_the_core_value_wins_where_both_give_a_field() -> None:
    assert leftover({"text": "old"}, {"text": "new"}) == {}
    assert overlay({"text": "new"}, {"text": "old", "extra": 1}) == {"text": "new", "extra": 1}


def test_a_body_that_is_not_an_object_is_a_decode_error() -> None:
    assert read.body({"a": 1}) == {"a": 1}
    with pytest.raises(DecodeError, match=r"at <root>: expected an object, got an array"):
        read.body([1, 2])
    with pytest.raises(DecodeError, match=r"at events\[0\]: expected an object, got a string"):
        read.body("[DONE]", "events[0]")


def test_an_id_holding_a_lone_surrogate_is_rewritten_not_refused() -> None:
    fitted = fit_tool_call_id("call_\ud800", allowed="a-zA-Z0-9_-")
    assert re.fullmatch(r"[a-zA-Z0-9_-]+", fitted)


def test_the_model_sent_loses_its_own_routing_prefix_only() -> None:
    assert wire_model("anthropic:claude-sonnet-4-5", "anthropic") == "claude-sonnet-4-5"
    assert wire_model("claude-sonnet-4-5", "anthropic") == "claude-sonnet-4-5"
    assert wire_model("ft:gpt-4o:org::x", "openai") == "ft:gpt-4o:org::x"


def test_an_error_body_is_json_when_it_can_be_and_text_otherwise() -> None:
    assert json_or_text(b'{"error": {"message": "m"}}') == {"error": {"message": "m"}}
    assert json_or_text("<html>Bad gateway</html>") == "<html>Bad gateway</html>"
    assert json_or_text({"already": "parsed"}) == {"already": "parsed"}


def test_decode_events_feeds_every_payload_then_finishes() -> None:
    class Echo:
        provider = "echo"

        def __init__(self) -> None:
            self.seen: list[int] = []

        def feed(self, payload: int) -> list[TextDelta]:
            self.seen.append(payload)
            return [TextDelta(text=str(payload))]

        def finish(self) -> list[TextDelta]:
            return [TextDelta(text=f"end after {len(self.seen)}")]

    texts = [event.text for event in decode_events(Echo(), [1, 2])]  # type: ignore[attr-defined]
    assert texts == ["1", "2", "end after 2"]


def test_when_an_answer_was_made_is_read_from_any_provider_s_wire_field() -> None:
    vertex = "2026-05-27T16:41:09.262118Z"
    made = int(datetime.fromisoformat(vertex.replace("Z", "+00:00")).timestamp())
    assert created_time({"openai": {"fields": {"object": "chat.completion", "created": 1780}}}) == (
        1780
    )
    assert created_time({"google": {"fields": {"createTime": vertex}}}) == made
    assert created_time({"google": {"fields": {"create_time": "2026-05-27T18:41:09+02:00"}}}) == (
        made
    )
    # A field that says nothing of when: none is made up.
    assert created_time({"anthropic": {"fields": {"stop_sequence": None}}}) is None
    assert created_time({"openai": {"fields": {"created": 0}}}) is None
    assert created_time({"openai": {"fields": {"created": True}}}) is None
    assert created_time({"google": {"fields": {"createTime": "yesterday"}}}) is None
