"""`examples/downstream` is a separate project using pytest-magi: its own tests must pass.

It runs in a subprocess, as its users run it: `python -m pytest examples/downstream` from the
repository root, the plugin loaded through the installed `magi` entry point, the example's own
`pyproject.toml` as rootdir and config, its own `__snapshots__` compared (never updated).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from pytest_magi.snapshots import torch_version_dirname

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "downstream"


def _files() -> list[Path]:
    return sorted(
        p.relative_to(EXAMPLE)
        for p in EXAMPLE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )


def test_downstream_example_project_passes() -> None:
    assert (EXAMPLE / "pyproject.toml").is_file()
    version = torch_version_dirname()
    if not (EXAMPLE / "tests" / "__snapshots__" / version).is_dir():
        pytest.skip(
            f"examples/downstream has no snapshots or kernel counts for {version} (torch "
            f"{torch.__version__}): generate them there with `python -m pytest --snapshot-update` "
            "and add the counts to EXPECTED in its tests/test_fusion.py"
        )
    # an outer xdist worker's variables would make the inner syrupy act as a worker
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    before = _files()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "examples/downstream", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert f"rootdir: {EXAMPLE}" in out, out  # its own pyproject.toml, not this repository's
    assert "8 passed" in out, out
    assert "2 snapshots passed." in out, out
    for problem in ("unused", "generated", "skipped", "error"):
        assert problem not in out.lower().split("snapshot report summary")[-1], out
    assert _files() == before, "running the example must not write into it"
