"""`DynamicCatTilingWorkaround`: in a dynamic CUDA graph where a convolution reads a concatenation,
the channels-last rewrite and ND tiling stand down, so the graph keeps Inductor's own layout and
tiling: the conv input's producer is never a 2-D tiled kernel there.

The bug (torch 2.11.0+cu130, Triton 3.6.0, H100 and H200): such a producer (the cached frames
and the new ones, selected per frame by two masked loads, written transposed into the
channels-last conv input) comes out wrong in graphs of the Wan 2.2 decode recompiled dynamic.
Triton's compiled code, not the kernel's source, is wrong for some tile shapes (Triton's CPU
interpreter runs them right), and which config the autotuner keeps varies by process. The kernel
is right with its runtime sizes 32-bit or constant, or with its store untransposed; Inductor
declares the sizes of a dynamic kernel 64-bit whatever `assume_32bit_indexing` says
(`signature_to_meta`), so no setting reaches that cure. No fixed version is known; the rule
applies on every torch until a GPU run shows one right (docs/reliability.md).

Why standing down and not 1-D tiles: `triton.max_tiles=1` is right too, but a 1-D kernel storing
channels-last reads the channels-first cache uncoalesced, many times slower than 2-D tiled.
Plain Inductor keeps a dynamic conv graph channels-first with 1-D kernels that store in the
layout they read (its own layout optimisation is off for dynamic shapes), and is right.

Matches: a dynamic post-grad graph (a placeholder with free symbols) on CUDA in which a
convolution's input is, through clones, pads and slices, an `aten.cat`. Static graphs keep the
rewrite and 2-D tiles: every static recompile of both graphs was right, and their producers are
where channels-last pays.

Emits: no graph change and no config change. It marks the graph (`nd_tiling.DYNAMIC_CAT_MARK` on
the output node), and `ConvChannelsLastPass` and `NdTilingPass`, which run after it, stand down
where the mark is, each saying so in its `PassResult`.

Skipped (the reason in its `PassResult`): static graphs, graphs not on CUDA, graphs where no
convolution reads a concatenation, and `PassConfig(work_around_inductor_bugs=False)`.

Measured: docs/results.md, "Wan 2.2 decode".
"""

from __future__ import annotations

from typing import ClassVar

import torch

from ..fx.marks import DYNAMIC_CAT_MARK
from ..fx.nodes import is_call
from ..fx.predicates import is_dynamic, on_cuda
from .base import MagiPass, PassResult

#: where the 2-D tiled fault was seen (no fixed version known, so no version gate)
TILES_OBSERVED_ON = "torch 2.11.0+cu130 with Triton 3.6.0 on H100 and H200"
_aten = torch.ops.aten
# single-input data movement between a concatenation and the convolution that reads it
_MOVES = (
    _aten.clone.default,
    _aten.constant_pad_nd.default,
    _aten.slice.Tensor,
    _aten.alias.default,
)


def reads_concatenation(conv: torch.fx.Node) -> bool:
    """Whether `conv`'s input is an `aten.cat` through clones, pads and slices."""
    node = conv.args[0]
    while is_call(node, *_MOVES):
        assert isinstance(node, torch.fx.Node)
        node = node.args[0]
    return is_call(node, _aten.cat.default)


class DynamicCatTilingWorkaround(MagiPass):
    """No channels-last rewrite and no ND tiling in dynamic CUDA graphs whose convolution reads
    a concatenation (module docstring)."""

    name: ClassVar[str] = "dynamic_cat_tiling_workaround"

    def enabled(self) -> bool:
        return self.config.work_around_inductor_bugs

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        result = PassResult(self.name, applied=False, reason="")
        convs = [
            n
            for n in graph.find_nodes(op="call_function", target=_aten.convolution.default)
            if reads_concatenation(n)
        ]
        result.counts["convolutions_reading_a_cat"] = len(convs)
        if not is_dynamic(graph):
            result.reason = "static shapes: their 2-D tiled producers were right"
        elif not on_cuda(graph):
            result.reason = "not a CUDA graph"
        elif not convs:
            result.reason = "no convolution reads a concatenation"
        else:
            graph.find_nodes(op="output")[0].meta[DYNAMIC_CAT_MARK] = len(convs)
            result.applied = True
            result.reason = (
                f"{len(convs)} convolution(s) read a concatenation in a dynamic graph, whose 2-D "
                f"tiled channels-last producer Triton miscompiled for some tile shapes "
                f"({TILES_OBSERVED_ON}): the channels-last rewrite and ND tiling stand down here"
            )
        return result
