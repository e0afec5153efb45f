"""`DeconvInterleavePass`: a transposed convolution whose kernel equals its stride, with one input
channel a group, becomes a broadcast multiply and an interleave (a pointwise kernel Inductor
generates and fuses) instead of a cuDNN call.

Matches, in the post-grad graph::

    y = convolution(x, w, b, stride=s, padding=0, dilation=1, transposed=True,
                    output_padding=0, groups=C)        # x: (N, C, D...), w: (C, m, k...), k == s

This is the inverse Haar wavelet of diffusers' Cosmos decoder (`CosmosUnpatcher3d._idwt`: 28
`conv_transpose3d` calls a decode, each one channel a group, kernel 2 and stride 2 along one
dim), and the shape of any depthwise "pixel shuffle" upsampler written as a transposed conv.

Emits: with kernel == stride, the taps of neighbouring inputs never overlap, so each output
element is one product::

    y[n, c*m + j, s*i + t] = x[n, c, i] * w[c, j, t]   (+ b[c*m + j])

written as `x` unsqueezed to (N, C, 1, D1, 1, D2, 1, ...) times `w` unsqueezed to
(1, C, m, 1, k1, 1, k2, ...), viewed as (N, C*m, D1*k1, D2*k2, ...). Each output element is
one product, so there is no accumulation order to differ; Inductor forms it in fp32 and rounds
where it stores, as cuDNN does, but may carry it unrounded into an add it fuses (closer to
fp32, not further).

Why: cuDNN runs these calls on its legacy engines (`setTensor5d_kernel`,
`convolveNd_dgrad_float_engine`), whose time far exceeds the convolutions' own and changes with
the process's history. As pointwise work they fuse into Triton kernels, and no cuDNN engine is
chosen for them.

Skipped (counts in `PassResult.counts`): `skipped_shape` (padding, output padding or dilation
not trivial, a kernel that is not the stride, or sizes that are not static ints),
`skipped_groups` (more than one input channel a group: each output would be a sum, a matmul's
work), `skipped_layout` (the convolution's output strides are neither contiguous nor
channels-last, so the replacement could not keep them).

Opt-in (`PassConfig.enable_deconv_interleave`) and measured where it is on
(`measured_by`). Of the zoo it fires on Cosmos's decoder alone, whose form turns it on.

Measured: docs/results.md, "Never slower: the zoo".
"""

from __future__ import annotations

from typing import Any, ClassVar

import torch

from ..fx.nodes import clone_node, fake_call, fake_value
from .base import MagiPass, PassResult

aten = torch.ops.aten
CONV = aten.convolution.default
COUNT_KEYS = ("rewritten", "skipped_shape", "skipped_groups", "skipped_layout")


def _ints(values: Any) -> list[int] | None:
    """`values` as a list of static ints, or None (symbolic, or not a list)."""
    if not isinstance(values, (list, tuple)):
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    return list(values)


def interleave_output_shape(
    x: torch.Tensor, w: torch.Tensor, stride: list[int]
) -> list[int] | None:
    """The output's shape when `conv_transpose(x, w, stride)` (one input channel a group, no
    padding) is an interleaved product; None when the sizes are not static ints or the kernel
    is not the stride."""
    xs, ws = _ints(list(x.shape)), _ints(list(w.shape))
    if xs is None or ws is None or len(xs) != len(ws) or len(stride) != len(xs) - 2:
        return None
    if ws[2:] != stride:
        return None
    return [xs[0], xs[1] * ws[1], *(d * k for d, k in zip(xs[2:], stride, strict=True))]


def _layout_of(t: torch.Tensor) -> torch.memory_format | None:
    """The memory format whose strides `t` has (contiguous or channels-last), else None."""
    formats = [torch.contiguous_format]
    if t.dim() == 4:
        formats.append(torch.channels_last)
    elif t.dim() == 5:
        formats.append(torch.channels_last_3d)
    for fmt in formats:
        if t.is_contiguous(memory_format=fmt):
            return fmt
    return None


class DeconvInterleavePass(MagiPass):
    """Transposed convolutions with kernel == stride and one input channel a group, as products
    (module docstring)."""

    name: ClassVar[str] = "deconv_interleave"
    measured_by: ClassVar[str | None] = "enable_deconv_interleave"

    def enabled(self) -> bool:
        return self.config.enable_deconv_interleave

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        counts = dict.fromkeys(COUNT_KEYS, 0)
        result = PassResult(self.name, applied=False, reason="", counts=counts)
        convs = [n for n in graph.find_nodes(op="call_function", target=CONV) if n.args[6]]
        for conv in convs:
            self.rewrite(graph, conv, counts)
        if counts["rewritten"]:
            graph.lint()
            result.applied = True
            result.reason = (
                f"{counts['rewritten']} transposed convolution(s) with kernel == stride, one "
                f"input channel a group, as interleaved products"
            )
        elif convs:
            result.reason = "no transposed convolution qualifies (see counts)"
        else:
            result.reason = "no transposed convolution"
        return result

    def rewrite(self, graph: torch.fx.Graph, conv: torch.fx.Node, counts: dict[str, int]) -> None:
        # convolution(input, weight, bias, stride, padding, dilation, transposed,
        #             output_padding, groups)
        x, w, bias = conv.args[0], conv.args[1], conv.args[2]
        stride, padding, dilation = (_ints(conv.args[i]) for i in (3, 4, 5))
        output_padding, groups = _ints(conv.args[7]), conv.args[8]
        x_val, w_val, y_val = fake_value(x), fake_value(w), fake_value(conv)
        if not all(isinstance(v, torch.Tensor) for v in (x_val, w_val, y_val)):
            return
        assert isinstance(x, torch.fx.Node) and isinstance(w, torch.fx.Node)
        if (
            stride is None
            or padding is None
            or dilation is None
            or output_padding is None
            or any(padding)
            or any(output_padding)
            or any(d != 1 for d in dilation)
        ):
            counts["skipped_shape"] += 1
            return
        if not isinstance(groups, int) or groups != x_val.shape[1] or w_val.shape[0] != groups:
            counts["skipped_groups"] += 1
            return
        out_shape = interleave_output_shape(x_val, w_val, stride)
        if out_shape is None or list(y_val.shape) != out_shape:
            counts["skipped_shape"] += 1
            return
        layout = _layout_of(y_val)
        if layout is None:
            counts["skipped_layout"] += 1
            return
        with graph.inserting_before(conv):
            y = self._emit(graph, x, w, out_shape, layout)
            if isinstance(bias, torch.fx.Node):
                b_shape = [1, out_shape[1]] + [1] * (len(out_shape) - 2)
                b = fake_call(graph, aten.view.default, (bias, b_shape))
                y = fake_call(graph, aten.add.Tensor, (y, b))
        conv.replace_all_uses_with(y)
        graph.erase_node(conv)
        counts["rewritten"] += 1

    @staticmethod
    def _emit(
        graph: torch.fx.Graph,
        x: torch.fx.Node,
        w: torch.fx.Node,
        out_shape: list[int],
        layout: torch.memory_format,
    ) -> torch.fx.Node:
        """The product, viewed to the convolution's shape and laid out as its output was:
        `x` (N, C, D1, D2, ...) unsqueezed to (N, C, 1, D1, 1, D2, 1, ...) and `w`
        (C, m, k1, k2, ...) to (1, C, m, 1, k1, 1, k2, ...)."""
        spatial = len(out_shape) - 2
        xe = _unsqueezed(graph, x, [2, *(4 + 2 * i for i in range(spatial))])
        we = _unsqueezed(graph, w, [0, *(3 + 2 * i for i in range(spatial))])
        prod = fake_call(graph, aten.mul.Tensor, (xe, we))
        # the product's strides follow its inputs' order, which the passes after this one may
        # change (the layout pass re-lays out what produces `x`): made contiguous, always, so
        # that the view stays valid (Inductor computes the copy in the product's own kernel)
        prod = clone_node(graph, prod, torch.contiguous_format)
        y = fake_call(graph, aten.view.default, (prod, out_shape))
        return y if layout == torch.contiguous_format else clone_node(graph, y, layout)


def _unsqueezed(graph: torch.fx.Graph, node: torch.fx.Node, dims: list[int]) -> torch.fx.Node:
    """`node` with a size-1 dim inserted at each of `dims` in turn."""
    for dim in dims:
        node = fake_call(graph, aten.unsqueeze.default, (node, dim))
    return node
