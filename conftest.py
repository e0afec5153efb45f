"""Root conftest of the pytest-magi repository.

The magi plugin itself is loaded through its `pytest11` entry point (installed with
`pip install -e .`), exactly as downstream projects load it; `pytester` tests the plugin.

Dynamo's backends and Inductor are imported here, before any test runs. An in-process
`pytester` run drops the modules first imported inside it when it ends, and modules that
register something once per process then fail on their second import: "duplicate name:
dynamo_minifier_backend" (torch 2.13, here) or "Only a single TORCH_LIBRARY can be used to
register the namespace quantized_decomposed" (torch 2.11, on the GPU machine), whenever such a
run was the first to compile in an xdist worker.
"""

from __future__ import annotations

import torch._dynamo
import torch._inductor.compile_fx
import torch._inductor.graph  # noqa: F401 - see the docstring

torch._dynamo.list_backends(exclude_tags=())  # imports every registered backend's module

pytest_plugins = ["pytester"]
