"""Loading the plugin imports no torch (torch costs seconds and hundreds of MiB). The modules it
does load are held in tests/test_compat.py; its startup time is measured, interleaved with
`-p no:magi`, by benchmarks/plugin_overhead.py (docs/results.md, "Plugin overhead")."""

from __future__ import annotations

import subprocess
import sys

import pytest

EMPTY_TEST = "def test_nothing_of_magi():\n    assert 1 + 1 == 2\n"


def test_loading_the_plugin_imports_no_torch(pytester: pytest.Pytester) -> None:
    """A whole session with the plugin (hooks, fixtures, snapshot extension, summary) on a test
    that uses none of it ends without torch in sys.modules; the first importer is named."""
    pytester.makepyfile(test_empty=EMPTY_TEST)
    probe = pytester.makepyfile(
        probe="""
import sys, traceback, builtins
import pytest

first = []
real_import = builtins.__import__

def spy(name, *args, **kwargs):
    if name.split(".")[0] == "torch" and "torch" not in sys.modules and not first:
        first.append("".join(traceback.format_stack(limit=25)))
    return real_import(name, *args, **kwargs)

builtins.__import__ = spy
code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "magi", "test_empty.py"])
assert code == 0, code
assert "pytest_magi.plugin" in sys.modules, "the plugin was not loaded"
print("TORCH-IMPORTED" if "torch" in sys.modules else "NO-TORCH")
print("".join(first))
"""
    )
    proc = subprocess.run(
        [sys.executable, str(probe)], cwd=pytester.path, capture_output=True, text=True
    )
    assert "NO-TORCH" in proc.stdout, f"torch was imported; first importer:\n{proc.stdout}"
