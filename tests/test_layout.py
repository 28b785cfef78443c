"""The shape of the code that `adapters/README.md` asks for, checked.

- No circle of runtime imports anywhere in the project: every `import` counts,
  those inside functions included; only `if TYPE_CHECKING:` blocks do not.
- Every adapter package has the same modules for the same concepts.
- No module is over 450 lines, no function over 60.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE_ROOTS = [ROOT / "src", *sorted((ROOT / "adapters").glob("*/src"))]

SKELETON = frozenset(
    {
        "__init__",
        "_wire",
        "_errors",
        "_rules",
        "_finish",
        "_usage",
        "_parts",
        "_tools",
        "_settings",
        "_request",
        "_response",
        "_stream",
        "_client",
    }
)
# Package -> the modules it has beyond the skeleton, and why.
EXTRA_MODULES = {
    # The stream encoder (gateways): `_stream` holds the decoder, and both do not fit in 450 lines;
    # the turn rules (tool pairs, results first, whitespace), beside `_rules`, which they outgrew;
    # Claude on Amazon Bedrock and Vertex AI, Anthropic's codec in an envelope: the two
    # adapters (`bedrock`, `vertex`), the envelope's codec, its streams and its clients.
    "interlingua_anthropic": frozenset(
        {
            "_stream_encoder",
            "_turns",
            "bedrock",
            "vertex",
            "_envelope",
            "_envelope_stream",
            "_envelope_client",
        }
    ),
    # The stream encoder, apart as above; Google's OpenAPI schema subset read as JSON Schema.
    "interlingua_google": frozenset({"_stream_encoder", "_schema"}),
    # The one Chat Completions codec: a dialect servers configure, and the codec bound to one;
    # `<think>` tags split from content; tool calls in streams, read and written (numbered, or
    # whole); the stream encoder, apart as above, and the chunks it writes (their frame, and
    # the last ones: finish and usage), which it outgrew; the values its decoders build as
    # data; and tool calls and tool messages, beside `_tools` (the tools), which they outgrew.
    "interlingua_chat_completions": frozenset(
        {
            "_dialect",
            "_codec",
            "_think",
            "_stream_calls",
            "_stream_encoder",
            "_stream_chunks",
            "_data",
            "_calls",
        }
    ),
    # The stream encoder, apart as above, and the output items it writes; reasoning items,
    # whose text is their summary or their `reasoning_text` content; call items, beside
    # `_parts`, which they outgrew.
    "interlingua_openai.responses": frozenset(
        {"_stream_encoder", "_stream_items", "_reasoning", "_calls"}
    ),
    # The stream encoder, apart as above; an AWS event stream's bytes read by botocore.
    "interlingua_bedrock": frozenset({"_stream_encoder", "_event_stream"}),
}
# A Chat Completions server's package: its name in `_wire`, its dialect and codec
# in `_dialect`, its client, and only the skeleton modules where it adds to the
# wire (package -> those).
DIALECT_MODULES = {
    "interlingua_cerebras": frozenset({"_errors", "_parts", "_rules"}),
    "interlingua_deepseek": frozenset({"_rules", "_usage"}),
    "interlingua_groq": frozenset({"_errors", "_finish", "_rules", "_usage"}),
    "interlingua_mistral": frozenset({"_errors", "_rules", "_finish", "_usage", "_parts"}),
    "interlingua_ollama": frozenset(),
    "interlingua_openai": frozenset(),
    "interlingua_openai_compatible": frozenset(),
    "interlingua_openrouter": frozenset({"_errors", "_parts", "_settings", "_usage"}),
    "interlingua_perplexity": frozenset({"_rules", "_usage"}),
    "interlingua_xai": frozenset({"_errors", "_rules", "_usage"}),
}
DIALECT_SKELETON = frozenset({"__init__", "_wire", "_dialect", "_client"})
MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 60


def modules() -> dict[str, Path]:
    """Every module of the project by dotted name."""
    found = {}
    for root in SOURCE_ROOTS:
        for path in sorted(root.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = modules()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                yield from _runtime_imports(ast.Module(body=[child], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _runtime_imports(node)


def _resolve(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The project modules an import statement loads."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = node.module or ""
        if node.level:
            base = f"{package}.{base}" if base else package
        names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
    for name in names:
        # Importing a.b.c runs a, a.b and a.b.c.
        pieces = name.split(".")
        for end in range(1, len(pieces) + 1):
            candidate = ".".join(pieces[:end])
            if candidate in MODULES and candidate != module:
                yield candidate


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text())
        graph[module] = {
            target for node in _runtime_imports(tree) for target in _resolve(module, path, node)
        }
    return graph


def _is_package_of(package: str, module: str) -> bool:
    return module.startswith(f"{package}.")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan).

    A package importing its own submodules (an `__init__` re-exporting them)
    is not a circle: the edge from a submodule to its package only runs the
    package's `__init__` first, which Python does anyway.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def edges(node: str) -> set[str]:
        return {t for t in graph[node] if not _is_package_of(t, node)}

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges(node):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_in_a_circle() -> None:
    assert cycles(import_graph()) == []


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_imports_inside_functions_count() -> None:
    tree = ast.parse("def f():\n    from interlingua import _parts\n")
    found = [
        target
        for node in _runtime_imports(tree)
        for target in _resolve("interlingua._errors", MODULES["interlingua._errors"], node)
    ]
    assert "interlingua._parts" in found


@pytest.mark.parametrize("package", sorted(EXTRA_MODULES))
def test_every_adapter_has_the_skeleton_modules(package: str) -> None:
    folder = MODULES[package].parent
    names = {path.stem for path in folder.glob("*.py")}
    assert names == SKELETON | EXTRA_MODULES[package]


@pytest.mark.parametrize("package", sorted(DIALECT_MODULES))
def test_every_dialect_has_its_skeleton_and_only_skeleton_modules(package: str) -> None:
    folder = MODULES[package].parent
    names = {path.stem for path in folder.glob("*.py")}
    assert DIALECT_MODULES[package] <= SKELETON - DIALECT_SKELETON
    assert names == DIALECT_SKELETON | DIALECT_MODULES[package]


def test_every_adapter_package_is_listed() -> None:
    packages = {
        name
        for name, path in MODULES.items()
        if path.name == "__init__.py" and "adapters" in path.parts
    }
    assert packages == set(EXTRA_MODULES) | set(DIALECT_MODULES)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_and_functions_are_short(module: str) -> None:
    path = MODULES[module]
    text = path.read_text()
    assert len(text.splitlines()) <= MAX_MODULE_LINES, f"{path} is too long"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"  # type: ignore[operator]
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES  # type: ignore[operator]
    ]
    assert not long, f"{path}: {', '.join(long)}"
