"""Inductor's own bugs a generation can meet, said as what they are and the way out.

`known_bug` names a failed generation that is one of torch's sympy bugs in Inductor's index
simplification (`magi_passes.compile.sympy_retry`: a pointwise concatenation of a clamped input,
as a causal conv's cached frames beside a replicate-padded clip). Plain torch.compile raises the
same on a GPU, so no change of the model or of fake CUDA helps; the magi passes compile such a
graph again around the bug (``PassConfig.work_around_inductor_bugs``). Where the passes did that
and it still failed, the error is left as it is.
"""

from __future__ import annotations

from typing import Any

import torch


def known_bug(exc: BaseException, config: Any) -> str | None:
    """A one-line message for ``exc`` when it is one of the sympy bugs and ``config`` (a
    ``PassConfig`` or None) did not work around it; else None."""
    from magi_passes.compile.sympy_retry import sympy_failure

    bug = sympy_failure(exc)
    if bug is None or (config is not None and config.work_around_inductor_bugs):
        return None
    fix = (
        "generate with config=PassConfig(), whose work_around_inductor_bugs compiles the graph "
        "again around the bug"
        if config is None
        else "the PassConfig has work_around_inductor_bugs=False: set it True (it compiles the "
        "graph again around the bug)"
    )
    said = next((line.strip() for line in str(exc).splitlines() if line.strip()), "").rstrip(".")
    return (
        f"inductor_codegen: Inductor's index simplification raised on a sympy bug of torch "
        f"{torch.__version__} ({bug}; magi_passes.compile.sympy_retry says where it is met), "
        f"which plain torch.compile raises on a GPU too. Fix: {fix}, or use a torch without "
        f"the bug. Inductor said: {type(exc).__name__}: {said}"
    )
