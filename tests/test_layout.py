"""The layout holds: no pass module of `magi_passes` imports another pass, and in both packages no
module is over `MAX_LINES` lines (pure data tables excepted), no module imports one that imports
it back, and each module imports first on its own."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("magi_passes", "pytest_magi")
MAX_LINES = 600
#: modules that are pure data (recorded tables), exempt from the line limit
DATA_TABLES: frozenset[str] = frozenset({"pytest_magi.models.zoo_specs"})
#: modules over the limit that are no data table: a benchmark mode's options, runs and report in
#: one file (`benchmarks/zoo.py timing`)
LONG_BENCH_MODES: frozenset[str] = frozenset({"pytest_magi.bench.timing"})
#: modules under passes/ that passes may import: the base classes
PASS_BASES = frozenset({"magi_passes.passes.base"})


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(package: str = "magi_passes") -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}


def _imports(name: str, path: Path) -> set[str]:
    """The modules of `name`'s package that `path` imports, at module level or inside functions
    (imports for type checking only, under `if TYPE_CHECKING:`, never run and are left out)."""
    top = name.split(".")[0]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == top)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".")[0] != top:
                continue
            found.add(base)
            # `from . import x`: x may be a module
            found.update(f"{base}.{a.name}" for a in node.names)
    modules = _modules(top)
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


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_the_line_limit(package: str) -> None:
    exempt = DATA_TABLES | LONG_BENCH_MODES
    long = {
        name: n
        for name, path in _modules(package).items()
        if (n := len(path.read_text().splitlines())) > MAX_LINES and name not in exempt
    }
    assert not long, f"over {MAX_LINES} lines: {long}"


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_within_the_package(package: str) -> None:
    graph = {name: _imports(name, path) for name, path in _modules(package).items()}
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


@pytest.mark.parametrize("package", PACKAGES)
def test_each_module_imports_first_on_its_own(package: str) -> None:
    """Each module imported first, with no other module of its package loaded: no cycle hides
    behind the order the package's `__init__` imports them in (one interpreter, torch loaded
    once, the package dropped from `sys.modules` before each)."""
    names = sorted(n for n in _modules(package) if not n.endswith("__main__"))
    script = (
        "import importlib, sys, torch\n"
        f"for name in {names!r}:\n"
        f"    for loaded in [m for m in sys.modules if m.split('.')[0] == {package!r}]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
