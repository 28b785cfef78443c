"""MessageTemplate: placeholders, paths, and what happens to the unmatched."""

from __future__ import annotations

from pathlib import Path

import pytest

from interlingua import InvalidDataError, Message, MessageTemplate, TextPart


def test_placeholders_are_filled_from_a_mapping() -> None:
    template = MessageTemplate.from_string("Hello {name}, you are {age}.")
    assert template.render({"name": "Ada", "age": 36}) == "Hello Ada, you are 36."


def test_keyword_values_fill_too_and_win_over_the_mapping() -> None:
    template = MessageTemplate("{greeting} {name}")
    assert template.render({"greeting": "Hi", "name": "x"}, name="Bo") == "Hi Bo"


def test_a_path_reads_nested_mappings() -> None:
    results = {"outputs": {"draft": "The draft."}, "inputs": {"audience": "children"}}
    template = MessageTemplate.from_string("Revise {outputs/draft} for {inputs/audience}")
    assert template.render(results) == "Revise The draft. for children"


def test_a_bare_unmatched_name_is_blanked_and_its_own_line_dropped() -> None:
    template = MessageTemplate("Intro\n{notes}\nTopic: {topic}{suffix}\nEnd")
    assert template.render({"topic": "cats"}) == "Intro\nTopic: cats\nEnd"


def test_none_counts_as_absent() -> None:
    template = MessageTemplate("A{x}B\n  {y}  \nC {data/value}")
    assert template.render({"x": None, "y": None, "data": {"value": None}}) == "AB\nC {data/value}"


def test_an_unresolved_path_is_left_verbatim() -> None:
    template = MessageTemplate("keep {a/b} and {outputs/missing} and {n/deeper}")
    assert template.render({"outputs": {}, "n": 5}) == (
        "keep {a/b} and {outputs/missing} and {n/deeper}"
    )


def test_doubled_braces_are_literal_and_json_is_left_alone() -> None:
    template = MessageTemplate('{{name}} is {name}; reply as {"ok": true}')
    assert template.render(name="Ada") == '{name} is Ada; reply as {"ok": true}'


def test_blank_lines_the_template_wrote_are_kept() -> None:
    assert MessageTemplate("a\n\nb {x}").render() == "a\n\nb "


def test_fields_lists_the_placeholders_in_order() -> None:
    template = MessageTemplate("{b} {a/c} {b} {{d}}")
    assert template.fields == ("b", "a/c")


def test_a_template_makes_a_message(tmp_path: Path) -> None:
    path = tmp_path / "prompt.txt"
    path.write_text("You are {persona}.", encoding="utf-8")
    template = MessageTemplate.from_file(path)
    assert template.message("system", persona="terse") == Message(
        role="system", parts=(TextPart(text="You are terse."),)
    )
    assert template.message(persona="kind") == Message.user("You are kind.")
    with pytest.raises(InvalidDataError, match="not allowed in a tool message"):
        template.message("tool", persona="x")


def test_names_may_be_in_any_script() -> None:
    assert MessageTemplate("{名前} / {données/clé}").render(
        {"名前": "Ada", "données": {"clé": 1}}
    ) == ("Ada / 1")


def test_a_line_stays_when_a_given_value_is_only_whitespace() -> None:
    assert MessageTemplate("a\n{x}{y}\nb").render(x=None, y="  ") == "a\n  \nb"
    assert MessageTemplate("a\n{x} {z}\nb").render() == "a\nb"
