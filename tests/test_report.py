"""Translation reports: every loss recorded, warned about, or raised in strict mode."""

from __future__ import annotations

import pytest

from interlingua import TranslationError, TranslationLoss, TranslationReport, TranslationWarning
from interlingua.codec import resolve_report


def test_a_report_collects_losses_in_order() -> None:
    report = TranslationReport()
    encoder_report = resolve_report(report, "mistral")
    encoder_report.dropped("messages[1].parts[0]", "reasoning from anthropic", "setting")
    encoder_report.transformed("messages[2].parts[1].id", "tool-call id rewritten", "hint")

    assert encoder_report is report
    assert report.target == "mistral"
    assert len(report) == 2
    assert report.losses == [
        TranslationLoss("messages[1].parts[0]", "dropped", "reasoning from anthropic", "setting"),
        TranslationLoss("messages[2].parts[1].id", "transformed", "tool-call id rewritten", "hint"),
    ]
    assert str(report.losses[0]) == "messages[1].parts[0]: dropped: reasoning from anthropic"
    assert report.losses[0].described() == (
        "messages[1].parts[0]: dropped (setting): reasoning from anthropic"
    )


def test_a_loss_no_call_classified_counts_as_content() -> None:
    report = TranslationReport()
    report.dropped("messages[0].parts[1]", "a part of a kind the target has not")
    assert report.losses[0].level == "content"


def test_strict_mode_raises_on_the_first_loss() -> None:
    report = resolve_report(TranslationReport(strict=True), "groq")
    with pytest.raises(TranslationError, match=r"messages\[0\].parts\[2\]: cannot send to groq"):
        report.dropped("messages[0].parts[2]", "audio")


def test_without_a_report_every_loss_is_a_warning() -> None:
    report = resolve_report(None, "openai")
    with pytest.warns(TranslationWarning, match=r"openai: messages\[0\]: dropped \(hint\): why"):
        report.dropped("messages[0]", "why", "hint")
    assert not report


def test_a_warning_names_the_callers_line() -> None:
    import interlingua_anthropic
    from interlingua import ChatRequest, FilePart, Message

    request = ChatRequest(
        model="m", messages=(Message.user("hi", FilePart(media_type="audio/wav", data="AAAA")),)
    )
    with pytest.warns(TranslationWarning) as caught:
        interlingua_anthropic.encode_request(request)
    assert caught[0].filename == __file__
