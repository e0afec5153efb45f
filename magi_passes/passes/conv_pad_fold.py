"""`ConvPadFoldPass`: a zero pad in front of a convolution becomes the convolution's own padding,
wherever it is the same on both sides of a dim.

Matches, in the post-grad graph::

    P = constant_pad_nd(x, pads, 0)                 # P's only user is the convolution
    y = convolution(P, w, b, stride, padding, dilation, transposed=False, ...)

This is how video VAEs (diffusers' Wan 2.x, HunyuanVideo, Mochi, LTX) run a causal conv:
`conv3d(F.pad(x, (1, 1, 1, 1, 2, 0)), padding=0)`, the spatial pad symmetric, the frame pad
causal (all in front).

Emits: for each spatial dim whose pad is a static integer on both sides, `min(before, after)` is
taken off both sides of the pad and added to the convolution's `padding` of that dim; what is
left (the causal frame pad, any one-sided remainder, a symbolic amount) stays a
`constant_pad_nd`, which disappears when nothing is left. `(1, 1, 1, 1, 2, 0)` becomes a frame
pad `(0, 0, 0, 0, 2, 0)` and `padding=(0, 1, 1)`; with the cache concatenated in front,
`(1, 1, 1, 1, 0, 0)` leaves no pad at all.

Why: the kernel that produces a conv input (norm, SiLU, cache frames, pad, channels-last) writes
the padded domain. With a spatial pad every row of its output is shifted by one element and its
index wraps every W + 2 positions, so its loads are masked and misaligned and Triton cannot
vectorise them; a frame pad in front only offsets whole planes. The convolution (cuDNN) pads by
itself without writing the zeros. The conv input is also smaller by the pad's bytes.

Why it is safe: a convolution with `padding=p` is defined as the convolution of the input padded
with p zeros on both sides, for any stride, dilation and groups; a zero `constant_pad_nd` of k on
both sides followed by `padding=p` is the same as `padding=p + k`. The convolution's output, its
size and its fake value are unchanged; the pad left behind gets a recomputed fake value; no new
tensor aliases another.

Skipped (counts in `PassResult.counts`):
- `skipped_value`: the pad value is not zero (a convolution pads with zeros only).
- `skipped_other_users`: the padded tensor has another user (in training, the forward saves it
  for the backward convolution, which was traced with `padding` as it was).
- `skipped_transposed`: a transposed convolution (its `padding` crops the output instead).
- `skipped_asymmetric`: no spatial dim has a static pad on both sides (a causal frame pad alone,
  or symbolic amounts).
Graphs without a padded convolution input are left alone.

Measured (`measured_by = "enable_conv_pad_fold"`): where it would change a graph on a CUDA device,
the magi backend times the graph with and without the measured passes and keeps the faster
(`magi_passes.compile.decisions`). Every output's distance from a high-precision run is
unchanged.

Measured: docs/results.md, "GPU suite".
"""

from __future__ import annotations

from typing import Any, ClassVar

import torch

from ..fx.padded_conv import padded_conv_operands, replace_conv_input, static_int
from .base import PaddedConvPass

aten = torch.ops.aten
COUNT_KEYS = (
    "pads_folded",
    "pads_removed",
    "skipped_value",
    "skipped_other_users",
    "skipped_transposed",
    "skipped_asymmetric",
)


def split_pads(pads: list[Any], spatial: int, ndim: int) -> tuple[list[Any], list[int]]:
    """Split `constant_pad_nd`'s `pads` (last dim first, (before, after) pairs) over a tensor of
    `ndim` dims, whose last `spatial` dims a convolution slides over, into the pads left behind
    and the amount folded into the convolution's `padding` of each spatial dim (first dim first)."""
    left = list(pads)
    folded = [0] * spatial
    for i in range(len(pads) // 2):
        dim = ndim - 1 - i
        spatial_index = dim - (ndim - spatial)
        if spatial_index < 0:
            continue  # a pad of the channel or batch dim is not the conv's to make
        before, after = static_int(pads[2 * i]), static_int(pads[2 * i + 1])
        if before is None or after is None:
            continue
        k = min(before, after)
        if k <= 0:
            continue
        left[2 * i], left[2 * i + 1] = before - k, after - k
        folded[spatial_index] = k
    return left, folded


class ConvPadFoldPass(PaddedConvPass):
    """Symmetric zero pads of a conv input folded into the convolution's padding (module
    docstring)."""

    name: ClassVar[str] = "conv_pad_fold"
    measured_by: ClassVar[str | None] = "enable_conv_pad_fold"
    count_keys: ClassVar[tuple[str, ...]] = COUNT_KEYS
    done_key: ClassVar[str] = "pads_folded"

    def enabled(self) -> bool:
        return self.config.enable_conv_pad_fold

    def describe(self, counts: dict[str, int]) -> str:
        return (
            f"{counts['pads_folded']} conv input pad(s) folded into the convolution's "
            f"padding ({counts['pads_removed']} removed whole)"
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
        source, pads, x_val, weight_val = operands
        padding = conv.args[4]
        if not isinstance(padding, (list, tuple)) or any(static_int(p) is None for p in padding):
            return
        spatial = weight_val.dim() - 2
        if len(padding) != spatial or x_val.dim() != spatial + 2:
            return
        left, folded = split_pads(list(pads), spatial, x_val.dim())
        if not any(folded):
            counts["skipped_asymmetric"] += 1
            return
        conv_args = list(conv.args)
        conv_args[4] = [int(p) + k for p, k in zip(padding, folded, strict=True)]
        if replace_conv_input(graph, conv, pad, source, left, conv_args):
            counts["pads_removed"] += 1
        counts["pads_folded"] += 1
