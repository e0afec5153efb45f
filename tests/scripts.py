"""Load a script of `benchmarks/` or `tools/probes/` as a module, for tests that call it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
PROBES = Path(__file__).resolve().parents[1] / "tools" / "probes"


def load_benchmark(name: str) -> Any:
    """`benchmarks/<name>.py` imported afresh as module `<name>`."""
    return _load(name, BENCHMARKS / f"{name}.py")


def load_probe(name: str) -> Any:
    """`tools/probes/<name>.py` imported afresh as module `<name>`."""
    return _load(name, PROBES / f"{name}.py")


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
