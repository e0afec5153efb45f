"""Root conftest of the pytest-magi repository.

The magi plugin itself is loaded through its `pytest11` entry point (installed with
`pip install -e .`), exactly as downstream projects load it; `pytester` tests the plugin.

Dynamo's backends and Inductor are imported here, before any test runs. An in-process
`pytester` run drops the modules first imported inside it when it ends, and modules that
register something once per process then fail on their second import: "duplicate name:
dynamo_minifier_backend" (torch 2.13, here) or "Only a single TORCH_LIBRARY can be used to
register the namespace quantized_decomposed" (torch 2.11, on the GPU machine), whenever such a
run was the first to compile in an xdist worker.

Tests marked `slow` (15 s or more on 2 cores: real and full-size models) are deselected unless
`--run-slow` is given: the README's test command is the fast tier CI runs.
"""

from __future__ import annotations

import pytest
import torch._dynamo
import torch._inductor.compile_fx
import torch._inductor.graph  # noqa: F401 - see the docstring

torch._dynamo.list_backends(exclude_tags=())  # imports every registered backend's module

pytest_plugins = ["pytester"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (real and full-size models: about 40 more minutes "
        "on 2 cores)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The README's test command is the fast tier; `--run-slow` adds the slow one.

    No test with a snapshot is marked slow: syrupy, merging the reports of xdist workers, counts
    the snapshots of tests a run leaves out (skipped or deselected) as unused, and fails it."""
    if config.getoption("--run-slow"):
        return
    kept, slow = [], []
    for item in items:
        (slow if item.get_closest_marker("slow") is not None else kept).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = kept
