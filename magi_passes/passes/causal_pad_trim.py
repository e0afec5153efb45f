"""`CausalPadTrimPass`: a convolution whose one output frame sees zero padding through some of
its taps drops those taps instead of multiplying zeros.

Matches, in the post-grad graph::

    P = constant_pad_nd(x, pads, 0)                 # P's only user is the convolution
    y = convolution(P, w, b, stride, padding, dilation, transposed=False, ...)

where, along a spatial dim of size `X` (static) padded by `B` zeros before and `A` after, the
convolution has stride 1, dilation 1, no padding of its own, and a kernel of `K = B + X + A`
taps: the dim has exactly one output position, and its taps `0..B-1` and `B+X..K-1` read only
the pad's zeros. This is a causal video conv at the start of a decode: diffusers' Wan 2.x
decoder runs its first latent frame through `conv3d(F.pad(x, (1, 1, 1, 1, 2, 0)))` with 3 frame
taps and one frame (`B=2, X=1`), and its second chunk with one cached frame in front
(`B=1, X=2`), so two thirds and one third of those convolutions' multiply-adds are zeros.

Emits: the weight sliced to the taps that see `x` (`aten.slice` of `w` along the dim, `B` to
`B+X`), and the dim's pad taken off (`(B, A)` becomes `(0, 0)`); the rest of the pad stays (a
symmetric spatial pad, which `ConvPadFoldPass`, running next, folds into the convolution's
padding), and the pad disappears when nothing is left. The convolution's output, its size and
its fake value are unchanged.

Why it is exact: the output position sums `w[k] * P[k]` over the dim's taps `k`; `P[k]` is zero
for `k < B` and `k >= B + X` and `x[k - B]` otherwise, so the sum is the convolution of `x` with
`w[B:B+X]`, whatever the other dims, stride, padding, dilation and groups do. Only the order of
the floating-point additions may change, as it does between convolution algorithms.

Why it is safe: the new `aten.slice` is a view of the weight (a graph input or constant) that
nothing writes to, with a fake value computed by the same op under the graph's fake mode; the
convolution's lowering copies it into the layout it needs (the channels-last rewrite, which runs
later, clones it like any weight). Only static sizes and pad amounts qualify: a symbolic one is
skipped, never forced to an int.

Why: on the Wan 2.2 decode the graphs of the first two chunks run once per decode (the fixed part
of its cost); their convolutions multiply zero frames and their producers write the zero frames
too (`constant_pad_nd` kernels). Both go: fewer FLOPs, and no padded copy is written. The gain is
a fixed amount a decode, so it shrinks as the decode grows. On by default
(`PassConfig.enable_causal_pad_trim`), and measured like the other rewrites (`measured_by`).
Measured: docs/results.md, "Wan 2.2 decode".

Skipped (counts in `PassResult.counts`):
- `skipped_value`: the pad value is not zero.
- `skipped_other_users`: the padded tensor has another user.
- `skipped_transposed`: a transposed convolution.
- `skipped_symbolic`: the dim's size or pad amounts are symbolic (a dynamic graph's frames).
- `skipped_more_outputs`: every padded dim has more than one output position, or the
  convolution strides, dilates or pads it itself.
Graphs without a padded convolution input are left alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import torch

from ..fx.nodes import fake_value, run_on_fake
from ..fx.padded_conv import padded_conv_operands, replace_conv_input, static_int
from .base import PaddedConvPass

aten = torch.ops.aten
COUNT_KEYS = (
    "convolutions_trimmed",
    "taps_dropped",
    "pads_removed",
    "skipped_value",
    "skipped_other_users",
    "skipped_transposed",
    "skipped_symbolic",
    "skipped_more_outputs",
)


def _at(values: Any, index: int, default: int) -> Any:
    """`values[index]` of a conv's stride/padding/dilation list (a single value broadcasts)."""
    if isinstance(values, (list, tuple)):
        return values[index] if len(values) > 1 else (values[0] if values else default)
    return values


def trimmable_dims(
    pads: list[Any],
    x_shape: tuple[Any, ...],
    kernel: tuple[Any, ...],
    stride: Any,
    padding: Any,
    dilation: Any,
) -> tuple[list[tuple[int, int, int, int]], bool]:
    """The spatial dims a convolution of `kernel` (its spatial sizes) over
    `constant_pad_nd(x, pads)` can be trimmed in: `(tensor dim, before, size, taps)` for each dim
    with one output position whose outer taps read only the pad. Second value: whether a padded
    dim was passed over for a symbolic size or amount."""
    ndim, spatial = len(x_shape), len(kernel)
    dims: list[tuple[int, int, int, int]] = []
    symbolic = False
    for i in range(len(pads) // 2):
        dim = ndim - 1 - i
        s = dim - (ndim - spatial)
        if s < 0:
            continue
        before, after, size = (
            static_int(pads[2 * i]),
            static_int(pads[2 * i + 1]),
            static_int(x_shape[dim]),
        )
        taps = static_int(kernel[s])
        if before is None or after is None or size is None or taps is None:
            symbolic = symbolic or not (pads[2 * i] == 0 and pads[2 * i + 1] == 0)
            continue
        if before <= 0 and after <= 0:
            continue
        if (_at(stride, s, 1), _at(padding, s, 0), _at(dilation, s, 1)) != (1, 0, 1):
            continue
        if before < 0 or after < 0 or size < 1 or before + size + after != taps:
            continue
        dims.append((dim, before, size, taps))
    return dims, symbolic


def _slicer(dim: int, start: int, size: int) -> Callable[[Any], Any]:
    """`t -> t[..., start:start + size, ...]` along `dim`, as the graph's `aten.slice` node."""

    def slice_(t: Any) -> Any:
        return aten.slice.Tensor(t, dim, start, start + size)

    return slice_


class CausalPadTrimPass(PaddedConvPass):
    """Zero-padded taps of a one-position conv dim dropped from the weight (module docstring)."""

    name: ClassVar[str] = "causal_pad_trim"
    measured_by: ClassVar[str | None] = "enable_causal_pad_trim"
    count_keys: ClassVar[tuple[str, ...]] = COUNT_KEYS
    done_key: ClassVar[str] = "convolutions_trimmed"

    def enabled(self) -> bool:
        return self.config.enable_causal_pad_trim

    def describe(self, counts: dict[str, int]) -> str:
        return (
            f"{counts['convolutions_trimmed']} convolution(s) dropped "
            f"{counts['taps_dropped']} zero-padded tap(s) of a one-position dim "
            f"({counts['pads_removed']} pad(s) removed whole)"
        )

    def rewrite(
        self,
        graph: torch.fx.Graph,
        conv: torch.fx.Node,
        pad: torch.fx.Node,
        counts: dict[str, int],
    ) -> None:
        operands = padded_conv_operands(conv, pad, counts)
        if operands is None:
            return
        source, pads, x_val, w_val = operands
        if x_val.dim() != w_val.dim():
            return
        dims, symbolic = trimmable_dims(
            pads, tuple(x_val.shape), tuple(w_val.shape[2:]), *conv.args[3:6]
        )
        if not dims:
            counts["skipped_symbolic" if symbolic else "skipped_more_outputs"] += 1
            return
        left = list(pads)
        sliced = conv.args[1]
        for dim, before, size, taps in dims:
            i = x_val.dim() - 1 - dim
            left[2 * i] = left[2 * i + 1] = 0
            with graph.inserting_before(conv):
                node = graph.call_function(aten.slice.Tensor, (sliced, dim, before, before + size))
            node.meta["val"] = run_on_fake(fake_value(sliced), _slicer(dim, before, size))
            sliced = node
            counts["taps_dropped"] += taps - size
        conv_args = list(conv.args)
        conv_args[1] = sliced
        if replace_conv_input(graph, conv, pad, source, left, conv_args):
            counts["pads_removed"] += 1
        counts["convolutions_trimmed"] += 1
