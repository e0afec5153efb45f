"""torch's own Min and Max in Inductor's index propagation, on the torch versions that build SymPy's.

The slowness (torch 2.11, and 2.12 by the dates: pytorch#184589 fixed it in May 2026, after 2.12's
April branch cut and before 2.13's): Inductor's index propagation (`torch._inductor.index_propagation.SymPyOps`) turns a
kernel's ``ops.minimum`` / ``ops.maximum`` of index values into ``sympy.Min`` / ``sympy.Max``
terms of the load's index. A replicate pad is such a clamp on every padded dim, and a video
decoder pads every causal convolution's input that way. Each time Inductor substitutes into
such an index (``sympy_subs`` in loop merging, dependency normalisation, tiling; tens of
thousands of times for one decoder), SymPy rebuilds the terms with its general constructor,
which compares every pair of arguments symbolically (``_find_localzeros`` / ``_is_connected``).
torch's own `torch.utils._sympy.functions.Min` / `Max`, which the shape environment and torch
2.13's index propagation use, keep the numeric and zero/one cases and skip the pairwise
comparison.

On a video decoder SymPy's Min/Max constructor takes about a quarter of the frame compile.
With torch's Min/Max the generated code is the same, line for line but for the comments that
print graph nodes (`python benchmarks/zoo.py compile-time MODEL` shows where the time goes).

How: `torch_index_min_max` makes `SymPyOps.minimum` / `maximum` build torch's Min / Max for a
block, where this torch's build SymPy's (`builds_sympy_min_max`), and restores the two methods
when the block ends; elsewhere (torch 2.13, or inside an enclosing block) it changes nothing.
The magi backend and `pytest_magi.inductor_codegen(config=...)` enter it around each graph's
compile with `PassConfig.torch_index_min_max` (on by default); a backward graph that
AOTAutograd compiles lazily, at the first backward call, compiles without it.

Measured: docs/results.md, "Cold compile".
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import sympy
import torch


def _sym_ops() -> Any:
    from torch._inductor.index_propagation import SymPyOps

    return SymPyOps


def builds_sympy_min_max() -> bool:
    """Whether this torch's index propagation builds ``sympy.Min`` for ``ops.minimum`` (torch
    2.11; 2.12 by the dates of the fix), rather than torch's own `Min` (2.13)."""
    from torch._inductor.index_propagation import TypedExpr

    x, y = sympy.symbols("x y", integer=True)
    made = _sym_ops().minimum(TypedExpr(x, torch.int64), TypedExpr(y, torch.int64))
    return type(made.expr) is sympy.Min


def _minimum(x: Any, y: Any) -> Any:
    from torch._inductor.index_propagation import TypedExpr
    from torch.utils._sympy.functions import Min

    return TypedExpr(Min(x.expr, y.expr), torch.promote_types(x.dtype, y.dtype))


def _maximum(x: Any, y: Any) -> Any:
    from torch._inductor.index_propagation import TypedExpr
    from torch.utils._sympy.functions import Max

    return TypedExpr(Max(x.expr, y.expr), torch.promote_types(x.dtype, y.dtype))


@contextlib.contextmanager
def torch_index_min_max(enabled: bool = True) -> Iterator[bool]:
    """For the block, Inductor's index propagation builds torch's Min / Max where this torch's
    builds SymPy's and ``enabled``; yields whether it changed them (module docstring)."""
    if not enabled or not builds_sympy_min_max():
        # off, a torch that builds its own already, or inside an enclosing block
        yield False
        return
    ops = _sym_ops()
    saved = {name: ops.__dict__[name] for name in ("minimum", "maximum")}
    ops.minimum = staticmethod(_minimum)
    ops.maximum = staticmethod(_maximum)
    try:
        yield True
    finally:
        for name, method in saved.items():
            setattr(ops, name, method)
