"""The layout of `magi_passes` holds: no pass module imports another pass, no module is over
`MAX_LINES` lines (pure data tables excepted), and no module imports one that imports it back."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "magi_passes"
MAX_LINES = 600
#: modules that are pure data (recorded tables), exempt from the line limit
DATA_TABLES: frozenset[str] = frozenset()
#: modules under passes/ that passes may import: the base classes
PASS_BASES = frozenset({"magi_passes.passes.base"})


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path) -> set[str]:
    """The `magi_passes` modules `path` imports, at module level or inside functions."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("magi_passes"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            if not base.startswith("magi_passes"):
                continue
            found.add(base)
            # `from . import x`: x may be a module
            found.update(f"{base}.{a.name}" for a in node.names)
    modules = _modules()
    # a package above `name` is imported before `name` anyway (Python imports parents first)
    return {m for m in found if m in modules and m != name and not name.startswith(m + ".")}


def test_no_pass_imports_another_pass() -> None:
    passes = {n for n in _modules() if n.startswith("magi_passes.passes.")} - PASS_BASES
    bad = {
        name: sorted(_imports(name, path) & passes)
        for name, path in _modules().items()
        if name in passes
    }
    assert not {k: v for k, v in bad.items() if v}, bad


def test_fx_utilities_import_no_pass_and_no_compile_module() -> None:
    bad = {
        name: sorted(
            m
            for m in _imports(name, path)
            if m.startswith(("magi_passes.passes", "magi_passes.compile"))
        )
        for name, path in _modules().items()
        if name.startswith("magi_passes.fx")
    }
    assert not {k: v for k, v in bad.items() if v}, bad


def test_no_module_is_over_the_line_limit() -> None:
    long = {
        name: n
        for name, path in _modules().items()
        if (n := len(path.read_text().splitlines())) > MAX_LINES and name not in DATA_TABLES
    }
    assert not long, f"over {MAX_LINES} lines: {long}"


def test_no_import_cycle_within_magi_passes() -> None:
    graph = {name: _imports(name, path) for name, path in _modules().items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt) :] + [nxt]
                pytest.fail(f"import cycle: {' -> '.join(cycle)}")
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_each_module_imports_first_on_its_own() -> None:
    """Each module imported first, with no other `magi_passes` module loaded: no cycle hides
    behind the order the package's `__init__` imports them in (one interpreter, torch loaded
    once, `magi_passes` dropped from `sys.modules` before each)."""
    script = (
        "import importlib, sys, torch\n"
        f"for name in {sorted(_modules())!r}:\n"
        "    for loaded in [m for m in sys.modules if m.split('.')[0] == 'magi_passes']:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
