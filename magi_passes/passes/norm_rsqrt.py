"""`NormRsqrtPass`: a division by a clamped vector norm becomes a product with its reciprocal root.

Matches, in the post-grad graph, the apply half of an L2 normalisation (`F.normalize`, the RMS
norms of video VAEs such as diffusers' `WanRMS_norm`)::

    s    = sum(x * x, dims, keepdim=True)       # aten.pow(x, 2) or aten.mul(x, x), then aten.sum
    root = clamp_min(pow(s, 0.5), eps)           # or aten.sqrt(s)
    y    = div(a, expand(root, shape))           # the expand is optional (broadcasting div)

Emits, for each such `div`::

    y = mul(a, expand(rsqrt(clamp_min(s, eps * eps)), shape))

The reduction `s` is left exactly as it was, so Inductor schedules and fuses it as before; only
the pointwise arithmetic after it changes.

Why: Inductor inlines the root into every consumer kernel that does not also hold the reduction,
and a pointwise consumer then computes it once *per element*: `tl.sqrt_rn`, a maximum and an
IEEE division for each of the 512-1024 channels of a position, so conv-input producers (norm
apply + SiLU + causal pad or cache concatenation) are limited by that arithmetic, not by memory.
`rsqrt` is one special-function instruction and the division becomes a multiply.

Why it is exact enough, and where: for a sum of squares `s >= 0` (or NaN or +inf),
`max(sqrt(s), eps) == sqrt(max(s, eps**2))` because the square root is monotone, so the two
forms are the same function; NaN and infinity propagate the same way (`x / inf == x * 0`), and an
all-zero row still gives `0 * (1 / eps) == 0`. What differs is rounding: the precise root and
division round twice, to 0.5 ulp each; `rsqrt` is within about 2 ulp of fp32. The pass therefore
rewrites only where every use of the quotient rounds it to a 16-bit float (bf16 or fp16, 2**-8 or
2**-11 relative), which hides that difference ~2**13-2**16 times over. fp32 and fp64 results are
left alone (counted as `norms_skipped_precision`). The square sum and the root must be fp32, and
`eps * eps` a normal fp32 number (so the clamp keeps its meaning; 1e-12, F.normalize's default,
gives 1e-24); otherwise `norms_skipped_eps`.

Counts in `PassResult.counts`: `norms_rewritten`, `norms_skipped_precision`, `norms_skipped_eps`,
`norms_skipped_not_square_sum` (the root's argument is not provably a sum of squares, so it may be
negative and the two forms differ).

Measured (`measured_by = "enable_norm_rsqrt"`): the magi backend times a graph it changes with
and without the measured passes and keeps the faster (`magi_passes.compile.decisions`).

Measured: docs/results.md, "Wan 2.2 decode".
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import torch

from ..fx.nodes import fake_value, is_call, run_on_fake
from .base import MagiPass, PassResult

aten = torch.ops.aten
prims = torch.ops.prims

#: the dtypes whose rounding hides rsqrt's few ulp of fp32 error
NARROW_FLOATS = (torch.bfloat16, torch.float16)
_TINY_F32 = torch.finfo(torch.float32).tiny
COUNT_KEYS = (
    "norms_rewritten",
    "norms_skipped_precision",
    "norms_skipped_eps",
    "norms_skipped_not_square_sum",
)


def _dtype(node: Any) -> torch.dtype | None:
    val = fake_value(node)
    return val.dtype if isinstance(val, torch.Tensor) else None


def root_of(node: Any) -> torch.fx.Node | None:
    """The argument `s` of `node` when `node` is `pow(s, 0.5)` or `sqrt(s)`, else None."""
    if is_call(node, aten.sqrt.default):
        arg = node.args[0]
        return arg if isinstance(arg, torch.fx.Node) else None
    if is_call(node, aten.pow.Tensor_Scalar) and node.args[1] == 0.5:
        arg = node.args[0]
        return arg if isinstance(arg, torch.fx.Node) else None
    return None


def is_square_sum(node: torch.fx.Node) -> bool:
    """Whether `node` is `sum(x * x)` or `sum(x ** 2)`: never negative (or NaN, or +inf)."""
    if not is_call(node, aten.sum.dim_IntList, aten.sum.default):
        return False
    square = node.args[0]
    if is_call(square, aten.pow.Tensor_Scalar):
        exponent = square.args[1]
        return isinstance(exponent, (int, float)) and exponent == 2
    if is_call(square, aten.mul.Tensor):
        return square.args[0] is square.args[1] and isinstance(square.args[0], torch.fx.Node)
    return False


def _divisor_chain(div: torch.fx.Node) -> tuple[torch.fx.Node | None, torch.fx.Node | None]:
    """`(expand or None, clamp_min)` when `div`'s divisor is a (broadcast) clamped root."""
    divisor = div.args[1]
    expand = None
    if is_call(divisor, aten.expand.default):
        expand, divisor = divisor, divisor.args[0]
    if is_call(divisor, aten.clamp_min.default) and root_of(divisor.args[0]) is not None:
        return expand, divisor
    return None, None


def rounds_to_narrow_float(node: torch.fx.Node) -> bool:
    """Whether every use of `node` converts it to bf16 or fp16 (and it has a use)."""
    users = list(node.users)
    return bool(users) and all(
        is_call(u, prims.convert_element_type.default)
        and u.args[0] is node
        and u.args[1] in NARROW_FLOATS
        for u in users
    )


def eps_squared(eps: Any) -> float | None:
    """`eps * eps` when it is a normal fp32 number (eps a finite positive Python number)."""
    if isinstance(eps, bool) or not isinstance(eps, (int, float)):
        return None
    if not math.isfinite(eps) or eps <= 0:
        return None
    squared = float(torch.tensor(float(eps), dtype=torch.float32).square())
    return squared if math.isfinite(squared) and squared >= _TINY_F32 else None


class NormRsqrtPass(MagiPass):
    """`a / clamp_min(sqrt(sum(x*x)), eps)` -> `a * rsqrt(clamp_min(sum(x*x), eps*eps))` where the
    quotient is rounded to bf16/fp16 (module docstring)."""

    name: ClassVar[str] = "norm_rsqrt"
    measured_by: ClassVar[str | None] = "enable_norm_rsqrt"

    def enabled(self) -> bool:
        return self.config.enable_norm_rsqrt

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        counts = dict.fromkeys(COUNT_KEYS, 0)
        result = PassResult(self.name, applied=False, reason="", counts=counts)
        # one new (rsqrt, expand) per (clamp, shape): divisions sharing a norm share its root
        made: dict[tuple[torch.fx.Node, Any], torch.fx.Node] = {}
        found = 0
        orphans: set[torch.fx.Node] = set()
        # in graph order, so a shared factor is placed before every division that uses it
        divisions = [n for n in graph.nodes if is_call(n, aten.div.Tensor)]
        for div in divisions:
            expand, clamp = _divisor_chain(div)
            if clamp is None:
                continue
            found += 1
            square_sum = root_of(clamp.args[0])
            assert square_sum is not None
            if not is_square_sum(square_sum):
                counts["norms_skipped_not_square_sum"] += 1
                continue
            squared = eps_squared(clamp.args[1])
            fp32 = (_dtype(square_sum), _dtype(clamp), _dtype(div)) == (torch.float32,) * 3
            if squared is None or not fp32:
                counts["norms_skipped_eps"] += 1
                continue
            if not rounds_to_narrow_float(div):
                counts["norms_skipped_precision"] += 1
                continue
            sizes: Any = expand.args[1] if expand is not None else None
            key = (clamp, tuple(sizes) if sizes is not None else None)
            factor = made.get(key)
            if factor is None:
                factor = self._reciprocal_root(graph, square_sum, squared, expand, div)
                made[key] = factor
            div.target = aten.mul.Tensor
            div.args = (div.args[0], factor)
            orphans.update(
                n for n in (expand, clamp, clamp.args[0]) if isinstance(n, torch.fx.Node)
            )
            counts["norms_rewritten"] += 1
        # the old root, clamp and broadcast, where nothing else reads them (users before producers)
        for node in reversed(list(graph.nodes)):
            if node in orphans and not node.users:
                graph.erase_node(node)
        if counts["norms_rewritten"]:
            result.applied = True
            result.reason = (
                f"{counts['norms_rewritten']} division(s) by a clamped vector norm now multiply "
                f"by its rsqrt"
            )
        elif found:
            result.reason = "no norm division qualifies (see counts)"
        else:
            result.reason = "no division by a clamped vector norm"
        return result

    @staticmethod
    def _reciprocal_root(
        graph: torch.fx.Graph,
        square_sum: torch.fx.Node,
        squared: float,
        expand: torch.fx.Node | None,
        before: torch.fx.Node,
    ) -> torch.fx.Node:
        """`[expand(] rsqrt(clamp_min(square_sum, squared)) [, shape)]`, inserted before `before`."""
        with graph.inserting_before(before):
            clamp = graph.call_function(aten.clamp_min.default, (square_sum, squared))
            clamp.meta["val"] = run_on_fake(fake_value(square_sum), lambda t: t.clamp_min(squared))
            factor = graph.call_function(aten.rsqrt.default, (clamp,))
            factor.meta["val"] = run_on_fake(clamp.meta["val"], torch.rsqrt)
            if expand is None:
                return factor
            shape = expand.args[1]
            broadcast = graph.call_function(aten.expand.default, (factor, shape))
            # under dynamic shapes the sizes are nodes (`sym_size`): their SymInts build the value
            sizes = torch.fx.node.map_arg(shape, lambda n: n.meta["val"])
            broadcast.meta["val"] = run_on_fake(factor.meta["val"], lambda t: t.expand(sizes))
            return broadcast
