"""Content parts: values, validation, and their JSON round trip."""

from __future__ import annotations

import base64

import pytest

from interlingua import (
    FilePart,
    InvalidDataError,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolArgumentsError,
    ToolCallPart,
    ToolResultPart,
)

PARTS = [
    TextPart(
        text="hello",
        provider_data={"anthropic": {"fields": {"cache_control": {"type": "ephemeral"}}}},
    ),
    FilePart.from_bytes(b"\x89PNG...", "image/png", filename="dot.png"),
    FilePart(media_type="application/pdf", url="https://example.com/a.pdf", detail="high"),
    FilePart(media_type="image/jpeg", file_id="file_011"),
    ReasoningPart(text="Let me think.", signature="EqQBCkYI", provider="anthropic"),
    ReasoningPart(redacted_data="EmwKAhgBEgy", provider="anthropic"),
    ToolCallPart(id="call_1", name="get_weather", arguments='{"city": "Paris"}'),
    ToolResultPart(
        tool_call_id="call_1",
        name="get_weather",
        content=(TextPart(text="12 C"), FilePart(media_type="image/png", url="https://x/y.png")),
        is_error=False,
    ),
    RefusalPart(text="I can't help with that."),
    OpaquePart(provider="anthropic", data={"type": "server_tool_use", "id": "srvtoolu_1"}),
]


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.type)
def test_every_part_round_trips_through_json(part: object) -> None:
    cls = type(part)
    dumped = part.model_dump_json()  # type: ignore[attr-defined]
    assert cls.model_validate_json(dumped) == part  # type: ignore[attr-defined]


def test_parts_are_frozen_values_compared_by_content() -> None:
    assert TextPart(text="a") == TextPart(text="a")
    assert TextPart(text="a") != TextPart(text="b")
    with pytest.raises(Exception, match="frozen"):
        TextPart(text="a").text = "b"  # type: ignore[misc]


def test_empty_provider_data_is_left_out_of_the_json() -> None:
    assert TextPart(text="a").model_dump() == {"type": "text", "text": "a"}


def test_a_file_part_needs_exactly_one_source() -> None:
    with pytest.raises(InvalidDataError, match="exactly one of data, url, file_id") as caught:
        FilePart(media_type="image/png", data="aGk=", url="https://example.com/x.png")
    assert "data, url" in str(caught.value)
    with pytest.raises(InvalidDataError, match=r"\(got none\)"):
        FilePart(media_type="image/png")


def test_a_file_part_gives_its_bytes_and_kind() -> None:
    part = FilePart.from_bytes(b"abc", "audio/wav")
    assert part.data == base64.b64encode(b"abc").decode()
    assert part.content() == b"abc"
    assert part.kind == "audio"
    with pytest.raises(ValueError, match="by reference"):
        FilePart(media_type="image/png", url="https://example.com/x.png").content()


def test_a_file_part_repr_does_not_spill_its_data() -> None:
    part = FilePart.from_bytes(b"x" * 3000, "image/png")
    assert part.data is not None
    assert part.data not in repr(part)
    assert "<4000 base64 characters>" in repr(part)


def test_tool_arguments_parse_to_an_object() -> None:
    part = ToolCallPart(id="c1", name="f", arguments='{"a": [1, 2]}')
    assert part.parsed_arguments() == {"a": [1, 2]}
    assert ToolCallPart(id="c2", name="f", arguments="").parsed_arguments() == {}


def test_malformed_tool_arguments_are_kept_and_raise_with_the_raw_text() -> None:
    raw = '{"city": "Par'
    part = ToolCallPart(id="c1", name="f", arguments=raw)
    assert part.arguments == raw
    with pytest.raises(ToolArgumentsError) as caught:
        part.parsed_arguments()
    assert caught.value.arguments == raw
    assert caught.value.tool_call_id == "c1"
    assert "'c1'" in str(caught.value)


def test_tool_arguments_that_are_not_an_object_raise() -> None:
    with pytest.raises(ToolArgumentsError, match="got a JSON list"):
        ToolCallPart(id="c1", name="f", arguments="[1]").parsed_arguments()


def test_tool_arguments_given_as_a_mapping_become_json_text() -> None:
    part = ToolCallPart(id="c1", name="f", arguments={"city": "Zürich"})  # type: ignore[arg-type]
    assert part.arguments == '{"city":"Zürich"}'


def test_reasoning_knows_when_it_is_redacted() -> None:
    assert ReasoningPart(redacted_data="xyz", provider="anthropic").redacted
    assert not ReasoningPart(text="plain").redacted


def test_tool_result_text_joins_its_text_parts() -> None:
    part = ToolResultPart(
        tool_call_id="c1",
        content=(TextPart(text="a"), FilePart(media_type="image/png", url="u"), TextPart(text="b")),
    )
    assert part.text == "ab"


def test_opaque_part_names_its_block_type() -> None:
    assert OpaquePart(provider="p", data={"type": "web_search_tool_result"}).block_type == (
        "web_search_tool_result"
    )
    assert OpaquePart(provider="p", data={}).block_type is None


def test_a_tool_result_may_hold_a_provider_block() -> None:
    block = OpaquePart(provider="anthropic", data={"type": "search_result", "source": "s"})
    part = ToolResultPart(tool_call_id="c1", content=(TextPart(text="found"), block))
    assert ToolResultPart.model_validate_json(part.model_dump_json()) == part
    assert part.text == "found"


def test_arguments_nested_beyond_reason_are_malformed_not_a_crash() -> None:
    with pytest.raises(ToolArgumentsError, match="nested too deeply"):
        ToolCallPart(id="c", name="f", arguments="[" * 200_000).parsed_arguments()


def test_nan_is_not_json() -> None:
    with pytest.raises(ToolArgumentsError, match="NaN is not JSON"):
        ToolCallPart(id="c", name="f", arguments='{"a": NaN}').parsed_arguments()
    with pytest.raises(InvalidDataError, match="at arguments: the arguments are not JSON data"):
        ToolCallPart(id="c", name="f", arguments={"a": float("nan")})  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError, match="at arguments"):
        ToolCallPart(id="c", name="f", arguments={"a": object()})  # type: ignore[arg-type]


def test_file_content_errors_name_the_data() -> None:
    with pytest.raises(InvalidDataError, match="at data: the file is given by reference"):
        FilePart(media_type="image/png", url="https://example.com/x.png").content()
    with pytest.raises(InvalidDataError, match="at data: not base64"):
        FilePart(media_type="image/png", data="not base64!").content()
