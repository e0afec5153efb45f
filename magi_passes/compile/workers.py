"""Inductor's Triton compile workers, started before dynamo traces where CUDA is in use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch


def warm_compile_workers(inductor_patches: Mapping[str, Any] | None = None) -> bool:
    """Start Inductor's Triton compile workers now, where CUDA is in use; True if asked.

    torch's own registered ``"inductor"`` backend starts them when dynamo looks it up, but
    ``torch.compile(model)`` with its default backend, and a backend that calls ``compile_fx``
    itself, start them only when Inductor is entered, after dynamo has traced. Until the workers
    answer, Inductor compiles each Triton kernel in the process, one after another, while the
    generated module loads: a short compile reaches its kernels first, and its module load
    takes seconds longer on the side whose workers came up late.
    A `MagiBackend` starts them when it is made, so `magi_compile` has them up while dynamo
    traces (or, where CUDA was not in use yet then, at its first graph), and so does
    `inductor_options()` for ``backend="inductor"``. Nothing is started where this process has
    not initialised CUDA (the model not on a GPU yet: CUDA reads ``CUDA_VISIBLE_DEVICES`` once,
    when it initialises, and pytest-magi pins each xdist worker to its GPU so, so this never
    initialises it), with ``compile_threads`` 1 (in Inductor's config or in ``inductor_patches``,
    the backend's options), or with ``TORCH_WARM_POOL=0``, torch's own switch; the pool is
    torch's, one per process, and outlives the backend as it does there.

    Measured: docs/results.md, "Cold compile".
    """
    threads = (inductor_patches or {}).get("compile_threads")
    if isinstance(threads, int) and threads <= 1:
        return False
    if not _cuda_in_use():
        return False
    from torch._inductor.async_compile import maybe_warm_pool

    maybe_warm_pool()  # honours TORCH_WARM_POOL and Inductor's compile_threads
    return True


def _cuda_in_use() -> bool:
    """Whether this process has initialised CUDA; asks nothing that would initialise it.

    Its own name so that a test can say "in use" to `warm_compile_workers` alone: saying it to
    ``torch.cuda.is_initialized`` would also make Inductor's lowering ask the driver for its device.
    """
    return torch.cuda.is_initialized()
