"""Symbolic size facts proved without guards (`statically_known_true`), never `int(sym)`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy
import torch
from torch.fx.experimental.symbolic_shapes import statically_known_true


def known_equal(a: Any, b: Any) -> bool:
    """`a == b` for ints/SymInts, proved from static facts only (never adds a guard)."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return bool(statically_known_true(a == b))


def known_true(cond: Any) -> bool:
    """A bool or SymBool, proved from static facts only (never adds a guard)."""
    return bool(statically_known_true(cond))


def sym_expr(value: Any) -> sympy.Expr:
    """The sympy expression of an int or SymInt (no guard: reads the node's expression)."""
    if isinstance(value, torch.SymInt):
        return value.node.expr
    return sympy.Integer(value)


def canonical_sizes(shape: Sequence[Any]) -> list[Any]:
    """`shape` with every symbolic size that is provably a constant replaced by the constant.

    Fake values can carry roundabout expressions where Inductor's IR has a literal: the fake
    value of `x.view(b, t, c // 64, 64)` has the size `c // (c // 64)` for the 64. A product built
    from that would not be structurally the one Inductor indexes with. The constant candidate is
    the symbol's hint, and it is used only when `statically_known_true(size == hint)`: reading a
    hint adds no guard, and nothing is specialised that the ShapeEnv did not already prove.
    """
    out: list[Any] = []
    for size in shape:
        if isinstance(size, torch.SymInt):
            hint = getattr(size.node, "hint", None)
            if isinstance(hint, int) and known_equal(size, hint):
                out.append(hint)
                continue
        out.append(size)
    return out


def _is_max(expr: Any) -> bool:
    """Whether ``expr`` is a `Max` of two or more arguments."""
    return type(expr).__name__ == "Max" and len(getattr(expr, "args", ())) >= 2


def simplify_max(value: Any) -> Any:
    """`value` (int or SymInt) with every `Max(a, b, ...)` that provably equals one of its
    arguments replaced by that argument (`Max(1, s//4)` -> `s//4` when `s//4 >= 1` is known).

    Returns the same object when nothing changes. The proof is `statically_known_true` on
    `arg >= other` for every other argument; the new SymInt keeps the old hint.
    """
    if not isinstance(value, torch.SymInt):
        return value
    node = value.node
    expr = node.expr
    shape_env = node.shape_env
    if not any(_is_max(a) for a in sympy.preorder_traversal(expr)):
        return value

    def pick(m: Any) -> Any:
        for cand in m.args:
            if all(
                other is cand or known_true(shape_env.create_symboolnode(sympy.Ge(cand, other)))
                for other in m.args
            ):
                return cand
        return m

    new = expr.replace(_is_max, pick)
    if new == expr:
        return value
    if isinstance(new, sympy.Integer):
        return int(new)
    return shape_env.create_symintnode(new, hint=node.hint)
