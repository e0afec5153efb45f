"""The README's python examples run as written.

Every fenced ```python block of README.md is an example a reader copies. A block whose first line
is a file name comment (``# test_quickstart.py``) is a test file: it is written under that name
and run with pytest, and each of its tests must pass or be skipped for a stated reason (the
speed check without ``--magi-perf``). Any other block is a script, run in a fresh interpreter. A
block that names ``device="cuda"`` or starts with ``# needs: cuda`` is skipped where there is no
GPU. Each example runs in a process of its own so that no dynamo or Inductor state is shared with
this suite.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
FILE_NAME = re.compile(r"#\s*(test_\w+\.py)\s*$")


def python_blocks(path: Path) -> list[str]:
    """The fenced python blocks of a markdown file, in order."""
    return FENCE.findall(path.read_text())


def needs_cuda(block: str) -> bool:
    return block.lstrip().startswith("# needs: cuda") or 'device="cuda"' in block


README_BLOCKS = python_blocks(ROOT / "README.md")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env.setdefault("TORCHINDUCTOR_VEC_ISA_OK", "0")
    return env


def test_the_readme_has_a_quick_start_test_file_and_a_script() -> None:
    kinds = [bool(FILE_NAME.match(b.splitlines()[0])) for b in README_BLOCKS if b.strip()]
    assert True in kinds, "README.md: no ```python block starting with '# test_<name>.py'"
    assert False in kinds, "README.md: no ```python script block"


@pytest.mark.parametrize(
    "block", README_BLOCKS, ids=[f"readme-{i}" for i in range(len(README_BLOCKS))]
)
def test_a_readme_example_runs(block: str, tmp_path: Path) -> None:
    if needs_cuda(block) and not torch.cuda.is_available():
        pytest.skip("the example needs a CUDA GPU")
    first = block.splitlines()[0] if block.strip() else ""
    name = FILE_NAME.match(first)
    if name:
        (tmp_path / name.group(1)).write_text(block)
        argv = [sys.executable, "-m", "pytest", name.group(1), "-q", "-p", "no:cacheprovider"]
        argv += ["-p", "no:xdist", "--rootdir", str(tmp_path), "-rs"]
    else:
        (tmp_path / "example.py").write_text(block)
        argv = [sys.executable, "example.py"]
    done = subprocess.run(
        argv, cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"the README example failed:\n{block}\n--- output ---\n{output}"
    if name:
        assert " passed" in output and " failed" not in output, output
