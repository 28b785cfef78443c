"""The READMEs' Python examples run as written, and print what they say they print.

Each README (the project's and each adapter's) runs its examples in order, in
one namespace, from a scratch folder that sees the repository's fixtures. A
`print(...)` whose line ends in a comment shows its output there:
`print(usage.input_tokens)  # 1014`; each line it prints must be that comment.
"""

from __future__ import annotations

import ast
import functools
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT

READMES = [ROOT / "README.md", *sorted((ROOT / "adapters").glob("*/README.md"))]


def readme_id(readme: Path) -> str:
    return readme.relative_to(ROOT).as_posix()


def examples(readme: Path) -> list[str]:
    """The README's Python blocks, each behind blank lines so that its line
    numbers are the README's."""
    text = readme.read_text(encoding="utf-8")
    return [
        "\n" * text.count("\n", 0, block.start(1)) + block[1]
        for block in re.finditer(r"```python\n(.*?)```", text, re.DOTALL)
    ]


@dataclass(frozen=True)
class Print:
    """A `print(...)` statement of a README, and the comment at its end."""

    line: int
    comment: str | None


def print_statements(readme: Path) -> dict[int, Print]:
    """Each README line of a `print(...)` statement, mapped to the statement."""
    statements = {}
    for code in examples(readme):
        comments = {
            token.start[0]: token.string.removeprefix("#").strip()
            for token in tokenize.generate_tokens(io.StringIO(code).readline)
            if token.type == tokenize.COMMENT
        }
        for node in ast.walk(ast.parse(code)):
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
                continue
            if isinstance(node.value.func, ast.Name) and node.value.func.id == "print":
                assert node.end_lineno is not None
                statement = Print(node.lineno, comments.get(node.end_lineno))
                statements.update(dict.fromkeys(range(node.lineno, node.end_lineno + 1), statement))
    return statements


def run_examples(readme: Path) -> list[tuple[Print, str]]:
    """Runs the examples in order: each line printed, with the statement that printed it."""
    statements = print_statements(readme)
    printed: list[tuple[Print, str]] = []

    def recording_print(*values: Any, sep: str | None = " ", end: str | None = "\n") -> None:
        statement = statements[sys._getframe(1).f_lineno]
        text = (" " if sep is None else sep).join(map(str, values)) + ("\n" if end is None else end)
        printed.extend((statement, line) for line in text.splitlines())

    namespace: dict[str, Any] = {"__name__": "readme", "print": recording_print}
    for code in examples(readme):
        exec(compile(code, str(readme), "exec"), namespace)
    return printed


# Run by `run_apart`, in an interpreter of its own: each README's examples, in a
# scratch folder that sees the repository's fixtures, as the root does.
_APART = """
import json, sys, traceback
from pathlib import Path
from test_readme import run_examples
ran = {}
for readme in sys.argv[1:]:
    try:
        ran[readme] = [[s.line, s.comment, line] for s, line in run_examples(Path(readme))]
    except BaseException:
        ran[readme] = traceback.format_exc()
print(json.dumps(ran))
"""


@functools.cache
def run_apart() -> dict[str, list[tuple[Print, str]] | str]:
    """`run_examples` of every README, in a fresh interpreter, as a user runs
    them: none sees what the tests before it set (OpenTelemetry's providers,
    which can be set once). Each README's lines printed, or the error it raised."""
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "fixtures").symlink_to(ROOT / "fixtures")
        path = os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])
        result = subprocess.run(
            [sys.executable, "-c", _APART, *map(str, READMES)],
            capture_output=True,
            text=True,
            cwd=scratch,
            env={**os.environ, "PYTHONPATH": path},
            check=False,
        )
    assert result.returncode == 0, result.stderr
    ran = json.loads(result.stdout.splitlines()[-1])
    return {
        readme: found if isinstance(found, str) else [(Print(n, c), line) for n, c, line in found]
        for readme, found in ran.items()
    }


@pytest.mark.parametrize("readme", READMES, ids=readme_id)
def test_the_readme_has_examples(readme: Path) -> None:
    assert examples(readme)


@pytest.mark.parametrize("readme", READMES, ids=readme_id)
def test_the_examples_run_in_order_and_print_what_their_comments_show(readme: Path) -> None:
    ran = run_apart()[str(readme)]
    assert not isinstance(ran, str), ran  # the error an example raised
    printed = [(statement, line) for statement, line in ran if statement.comment]

    shown = [(f"line {statement.line}", statement.comment) for statement, _ in printed]
    assert [(f"line {statement.line}", line) for statement, line in printed] == shown
    commented = {statement for statement in print_statements(readme).values() if statement.comment}
    assert commented == {statement for statement, _ in printed}, "a commented print never ran"


@pytest.mark.parametrize("readme", READMES, ids=readme_id)
def test_every_print_shows_its_output_in_a_comment(readme: Path) -> None:
    silent = sorted({s.line for s in print_statements(readme).values() if not s.comment})
    assert silent == [], f"{readme_id(readme)}: the prints on these lines show no output"
