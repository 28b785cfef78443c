"""The README's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


def test_the_readme_has_examples() -> None:
    assert BLOCKS


def test_the_readme_examples_run_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Run from a scratch folder that sees the repository's fixtures, as from the root.
    (tmp_path / "fixtures").symlink_to(README.parent / "fixtures")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "readme"}
    for index, block in enumerate(BLOCKS):
        exec(compile(block, f"README.md example {index + 1}", "exec"), namespace)
