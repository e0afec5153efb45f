"""House style held by CI: the packages type-check (mypy, with the configuration in
pyproject.toml) and the Python code is ruff clean and formatted. Each check skips where its tool
is not installed; both are in the `test` extra, pinned, so that a new release's rules never turn
CI red on unchanged code. And the suite collects with xdist off, every marker it uses
registered."""

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


def test_the_suite_collects_without_xdist_and_every_marker_is_registered() -> None:
    """The GPU machine ran the suites with `-p no:xdist`, and its pytest refused
    the `xdist_group` marker as unknown at collection; pyproject.toml registers it. Collected
    here with xdist off and unknown markers as errors (`--strict-markers` is in addopts).
    Collecting runs no test, so syrupy finds every snapshot of the collected modules unused and
    exits 1 (depending on whether the modules' bytecode was
    cached); `--snapshot-warn-unused` keeps that out of this check's exit status."""
    proc = _run(
        sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist",
        "-p", "no:cacheprovider", "-W", "error::pytest.PytestUnknownMarkWarning",
        "--snapshot-warn-unused",
        "tests/test_zoo_gpu.py", "tests/test_perf_gpu.py", "tests/test_snapshot_suite.py",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "tests collected" in proc.stdout
