"""`NdTilingPass`: Triton ND tiling for dynamic-shape, conv-heavy graphs.

Matches: a post-grad graph that is dynamic (`is_dynamic`: a placeholder carries free symbols) and
conv-heavy (`is_conv_heavy(graph, config.conv_heavy_ratio)`).

Emits: no graph change. It sets three Inductor config keys for the rest of this compilation:
`triton.prefer_nd_tiling=True`, `triton.max_tiles=2`, `triton.tile_reductions=True`. Under dynamic
shapes Inductor's coalescing tiling analysis bails out on symbolic numels (still true in torch
2.11 and 2.13, so there is no version gate) and the pointwise kernels around convolutions fall back
to 1-D tiles that read channels-strided data uncoalesced; ND tiling restores 2-D tiles.

Why 2 tiles and not 3: a third tile dimension maps onto CUDA's z grid, limited to 65535 blocks,
which large dynamic shapes overflow, and newer torch produced invalid 3-D reduction grids
(docs/reliability.md, "Facts the design rests on").

Why it is safe: tiling changes only how Inductor schedules the same loops; results are identical.
The keys are declared in `mutates_inductor_config`, and `magi_backend` / `inductor_options`
snapshot them into the compile's own `config.patch`, so nothing leaks past the compilation.

Skipped (with the reason in `PassResult`): static graphs (Inductor's static tiling analysis already
works), graphs `DynamicCatTilingWorkaround` marked (a Triton miscompile of 2-D tiled producers of
concatenated conv inputs in dynamic graphs), graphs that are not conv-heavy, and — unless
`config.nd_tiling_with_channels_last` — graphs on which `ConvChannelsLastPass` already converted
convolutions: channels-last removes the strided accesses ND tiling works around, and the
combination was no faster while ND tiling multiplied compile time.

Measured: docs/results.md, "VAEDecoderLike: where the time goes".
"""

from __future__ import annotations

from typing import Any, ClassVar

import torch

from ..fx.marks import channels_last_convs, dynamic_cat_convs
from ..fx.predicates import count_convolutions, is_conv_heavy, is_dynamic
from .base import MagiPass, PassResult

ND_TILING_SETTINGS: dict[str, Any] = {
    "triton.prefer_nd_tiling": True,
    "triton.max_tiles": 2,
    "triton.tile_reductions": True,
}


class NdTilingPass(MagiPass):
    name: ClassVar[str] = "nd_tiling"
    mutates_inductor_config: ClassVar[tuple[str, ...]] = tuple(ND_TILING_SETTINGS)
    measured_by: ClassVar[str | None] = "enable_nd_tiling"

    def enabled(self) -> bool:
        return self.config.enable_nd_tiling

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        result = PassResult(self.name, applied=False, reason="")
        n_convs = count_convolutions(graph)
        result.counts["convolutions"] = n_convs
        if not is_dynamic(graph):
            result.reason = "static shapes: Inductor's own tiling analysis applies"
            return result
        stood_down = dynamic_cat_convs(graph)
        if stood_down:
            result.reason = (
                f"DynamicCatTilingWorkaround: {stood_down} convolution(s) read a concatenation in "
                "this dynamic CUDA graph; its kernels keep Inductor's own (1-D) tiling"
            )
            return result
        if not is_conv_heavy(graph, self.config.conv_heavy_ratio):
            result.reason = (
                f"not conv-heavy: {len(graph.nodes)} nodes, {n_convs} convolutions, "
                f"ratio {self.config.conv_heavy_ratio}"
            )
            return result
        converted = channels_last_convs(graph)
        if converted and not self.config.nd_tiling_with_channels_last:
            result.reason = (
                f"channels-last already converted {converted} convolutions "
                f"(set nd_tiling_with_channels_last=True to tile anyway)"
            )
            return result
        for key, value in ND_TILING_SETTINGS.items():
            self.set_config(key, value, result)
        result.applied = True
        result.reason = (
            f"dynamic, conv-heavy graph ({len(graph.nodes)} nodes, {n_convs} convolutions)"
        )
        return result
