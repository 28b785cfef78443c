"""Shared test fixtures: where the recorded corpus and the project's fixtures live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
CORPUS = Path(os.environ.get("INTERLINGUA_CORPUS", ROOT.parent / "shared" / "corpus"))


def corpus_files(provider_dir: str = "", pattern: str = "*") -> list[Path]:
    """The corpus files below `provider_dir`, sorted; empty when the corpus is absent."""
    base = CORPUS / provider_dir
    if not base.is_dir():
        return []
    return sorted(p for p in base.rglob(pattern) if p.is_file() and p.name != "INDEX.md")


def require_corpus() -> Path:
    """The corpus folder. In CI a missing corpus fails the test; elsewhere it skips."""
    if CORPUS.is_dir():
        return CORPUS
    if os.environ.get("CI"):
        pytest.fail(f"the recorded corpus is required in CI and is missing at {CORPUS}")
    pytest.skip(f"the recorded corpus is not at {CORPUS}")


@pytest.fixture
def corpus() -> Path:
    return require_corpus()
