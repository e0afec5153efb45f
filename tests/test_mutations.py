"""The mutation check's faults still fit the code: each edit's text occurs once where it points.

`tools/mutations.py` names, for every deliberate fault, a file in `magi_passes/` and the exact
text it replaces. A move or a rewrite of that code makes the fault "not applied" in
`tools/mutation_check.py`; these tests fail at once instead, without compiling anything.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "magi_passes"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


mutations = _load("mutations")
mutation_check = _load("mutation_check")
MUTATIONS = mutations.MUTATIONS
EDITS = [(m.name, i, e) for m in MUTATIONS for i, e in enumerate(m.edits)]


def test_mutation_names_are_unique() -> None:
    names = [m.name for m in MUTATIONS]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


@pytest.mark.parametrize(("name", "index", "edit"), EDITS, ids=[f"{n}-{i}" for n, i, _ in EDITS])
def test_edit_target_occurs_once(name: str, index: int, edit: Any) -> None:
    path = PACKAGE / edit.file
    assert path.is_file(), f"{name}: edit {index} names magi_passes/{edit.file}, which is gone"
    count = path.read_text().count(edit.old)
    assert count == 1, (
        f"{name}: edit {index} expects {edit.old!r} exactly once in magi_passes/{edit.file}, "
        f"found {count}; grep magi_passes for the code and update tools/mutations.py"
    )
    assert edit.new != edit.old, f"{name}: edit {index} changes nothing"


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m.name for m in MUTATIONS])
def test_mutation_applies_and_parses(mutation: Any) -> None:
    assert mutation_check.apply_problem(mutation) == ""


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m.name for m in MUTATIONS])
def test_mutation_tests_exist(mutation: Any) -> None:
    for test in mutation.tests:
        assert (ROOT / test.split("::")[0]).is_file(), f"{mutation.name}: no file for {test}"
