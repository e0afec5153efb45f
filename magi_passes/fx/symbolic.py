"""Symbolic size facts proved without guards (`statically_known_true`), never `int(sym)`."""

from __future__ import annotations

from typing import Any

from torch.fx.experimental.symbolic_shapes import statically_known_true


def known_equal(a: Any, b: Any) -> bool:
    """`a == b` for ints/SymInts, proved from static facts only (never adds a guard)."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return bool(statically_known_true(a == b))


def known_true(cond: Any) -> bool:
    """A bool or SymBool, proved from static facts only (never adds a guard)."""
    return bool(statically_known_true(cond))
