"""Lint, format and strict type checks run with the tests, so one command proves all."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def tool(name: str) -> str:
    path = shutil.which(name, path=str(Path(sys.executable).parent))
    if path is None:
        pytest.fail(f"{name} is not installed next to {sys.executable}: run `uv sync`")
    return path


def test_ruff_finds_nothing() -> None:
    result = run(tool("ruff"), "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_formatted() -> None:
    result = run(tool("ruff"), "format", "--check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_passes() -> None:
    result = run(tool("mypy"))
    assert result.returncode == 0, result.stdout + result.stderr


def declared_pythons(pyproject: Path) -> list[str]:
    """The Python versions a pyproject's classifiers name (`3.10`, ...), in order."""
    found = re.findall(r'"Programming Language :: Python :: (3\.\d+)"', pyproject.read_text())
    return sorted(found, key=lambda version: int(version.split(".")[1]))


def test_ci_runs_the_oldest_and_the_newest_python_every_package_declares() -> None:
    pyprojects = [ROOT / "pyproject.toml", *sorted(ROOT.glob("adapters/*/pyproject.toml"))]
    declared = {str(path.relative_to(ROOT)): declared_pythons(path) for path in pyprojects}
    versions = declared["pyproject.toml"]
    assert versions == ["3.10", "3.11", "3.12", "3.13"]
    assert all(found == versions for found in declared.values()), declared
    for path in pyprojects:
        assert f'requires-python = ">={versions[0]}"' in path.read_text(), path
    ci = (ROOT / ".ci" / "run").read_text()
    assert f"PYTHONS=({versions[0]} {versions[-1]})" in ci
