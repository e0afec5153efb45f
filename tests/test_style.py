"""House style held by CI: the packages type-check (mypy, with the configuration in
pyproject.toml) and the Python code is ruff clean and formatted. Each check skips where its tool
is not installed; both are in the `test` extra, pinned, so that a new release's rules never turn
CI red on unchanged code."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYTHON_DIRS = ("magi_passes", "pytest_magi", "tests", "tools", "benchmarks", "examples")


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_the_packages_type_check() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    # (no cache written into the checkout)
    proc = _run(sys.executable, "-m", "mypy", "--no-incremental", f"--cache-dir={os.devnull}")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


@pytest.mark.parametrize("check", ["lint", "format"])
def test_the_code_is_ruff_clean(check: str) -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    args = ("check",) if check == "lint" else ("format", "--check")
    proc = _run(ruff, *args, *PYTHON_DIRS)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
