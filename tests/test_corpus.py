"""Robustness corpus: many small conv models through `backend="magi"`, each compared with eager.

Every case is compiled with a fresh `torch._dynamo.reset()` and a `magi_passes.MagiBackend`, so
what the passes did is read from the backend (`managers[0].history`) and asserted where it is
deterministic. Beyond numerics, every case checks:

- invariants of the post-pass graph, by a user post-grad pass that the `PassManager` chains after
  the magi passes (`InvariantCheck`): the graph lints, every channels-last clone's fake value is
  channels-last, every converted conv reads channels-last input and weight, and the Inductor
  config the passes set is in force while the graph is lowered. Its call count also proves that
  the user's pass was chained, on forward and backward graphs;
- nothing the passes set leaks into `torch._inductor.config` after the compiled calls;
- inference: the compiled model is called twice, then its conv weights are changed in place and
  the next call must see them (the backend converts weights to channels-last once per weight
  version outside the graph). Training: outputs and the gradients of inputs and parameters.

Inductor's FX graph cache and AOTAutograd's cache are off here: a cache hit skips the post-grad
passes altogether, and then there would be no `PassResult` to assert.

Also here: `test_corpus_weight_updates` (one compiled model, its weights updated every way users
do), and strict xfails pinning bugs found by the corpus (docs/reliability.md, "Known limitations").

Shapes are tiny: the corpus takes about 165 CPU-seconds (`TORCHINDUCTOR_VEC_ISA_OK=0`, cold cache),
about 1.5 minutes on 2 idle cores with `-n 2`. The same cases run on a CUDA GPU when there is one
(`requires_cuda`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch._inductor import config as inductor_config
from torch._inductor.custom_graph_pass import CustomGraphPass
from torch._prims_common import suggest_memory_format
from torch.utils._pytree import tree_leaves

from magi_passes import MagiBackend, PassConfig, PassResult
from magi_passes.fx.layout import channels_last_format
from magi_passes.passes.base import (
    config_differences,
    get_inductor_config_value,
    inductor_config_values,
)

aten = torch.ops.aten

DEVICES = [
    pytest.param("cpu", id="cpu"),
    pytest.param("cuda", id="cuda", marks=pytest.mark.requires_cuda),
]

# (atol, rtol) for outputs and for gradients, per dtype. fp32 differences come from the changed
# summation order of channels-last convolutions; half types from rounding of intermediates.
TOLERANCES: dict[torch.dtype, tuple[tuple[float, float], tuple[float, float]]] = {
    torch.float32: ((1e-4, 1e-4), (5e-4, 5e-4)),
    torch.float16: ((1e-2, 1e-2), (2e-2, 2e-2)),
    torch.bfloat16: ((3e-2, 3e-2), (8e-2, 5e-2)),
}
# weight updates: TF32 is off on the GPU (`_exact_cuda_convs`), so compiled and eager differ by
# fp32 summation order alone; a stale weight differs by O(1). With TF32 on they differed by up to
# 2.8e-3 after `w.data.add_(1)` (measured on an H200, torch 2.11).
UPDATE_TOL = {"atol": 1e-4, "rtol": 1e-4}
DTYPE_IDS = {torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16"}

# The contract (docs/reliability.md, "Facts the design rests on"), spelt out here rather than
# imported from magi_passes.nd_tiling, so a changed constant there is a failure here: 2 tiles,
# never 3 (CUDA's 65535 z-grid limit).
ND_TILING_CONTRACT: dict[str, Any] = {
    "triton.prefer_nd_tiling": True,
    "triton.max_tiles": 2,
    "triton.tile_reductions": True,
}

Inputs = Callable[[Callable[..., torch.Tensor]], tuple[torch.Tensor, ...]]


# --------------------------------------------------------------------------- models
class SharedWeight(nn.Module):
    """One conv weight used by two convolutions (in sequence: in == out channels)."""

    def __init__(self, dims: int = 2, channels: int = 4) -> None:
        super().__init__()
        k = (3,) * dims
        self.weight = nn.Parameter(torch.randn(channels, channels, *k) * 0.2)
        self.bias = nn.Parameter(torch.randn(channels) * 0.1)
        self.conv = F.conv2d if dims == 2 else F.conv3d

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x, self.weight, self.bias, padding=1)
        return self.conv(torch.relu(y), self.weight, None, padding=1)


class ConvThenViews(nn.Module):
    """conv2d followed by view / permute / reshape, the way attention blocks flatten features."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        y = self.conv(x)
        b, c, h, w = y.shape
        tokens = y.view(b, c, h * w).permute(0, 2, 1)  # (B, HW, C)
        mixed = tokens.reshape(b, h, w, c).permute(0, 3, 1, 2) * 2
        return tokens.contiguous(), mixed


class Conv3dThenFlatten(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv3d(2, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)  # (B, C, T, H, W)
        return y.permute(0, 2, 1, 3, 4).flatten(0, 1)  # (B*T, C, H, W)


class CausalPad(nn.Module):
    """`F.pad` then `conv(padding=0)`: the causal padding of video VAEs (a single-user pad)."""

    def __init__(self, dims: int = 2) -> None:
        super().__init__()
        self.dims = dims
        self.conv = (nn.Conv2d if dims == 2 else nn.Conv3d)(3, 4, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pad = (1, 1, 2, 0) if self.dims == 2 else (1, 1, 1, 1, 2, 0)
        return self.conv(F.pad(torch.sin(x), pad))


class MultiUserPad(nn.Module):
    """A pad read by a conv and by something else: never hoisted over."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv3d(3, 3, 3, padding=0)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        p = F.pad(torch.sin(x), (1, 1, 1, 1, 2, 0))
        return self.conv(p), p.sum(dim=2)


class Mixed(nn.Module):
    """conv1d, conv2d and a transposed conv2d in one graph."""

    def __init__(self) -> None:
        super().__init__()
        self.c1 = nn.Conv1d(3, 3, 3, padding=1)
        self.c2 = nn.Conv2d(3, 4, 3, padding=1)
        self.t2 = nn.ConvTranspose2d(4, 3, 2, stride=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, c, h, w = x.shape
        rows = self.c1(x.permute(0, 2, 1, 3).reshape(b * h, c, w))  # conv1d along W
        x = rows.reshape(b, h, c, w).permute(0, 2, 1, 3)
        return self.t2(torch.relu(self.c2(x)))


class ResBlock3d(nn.Module):
    """A miniature VAE-decoder block: GroupNorm + SiLU + Conv3d, residual, 2x spatial upsample."""

    def __init__(self, channels: int = 4) -> None:
        super().__init__()
        self.norm = nn.GroupNorm(2, channels)
        self.conv = nn.Conv3d(channels, channels, 3, padding=1)
        self.up = nn.Conv3d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.conv(F.silu(self.norm(x)))
        x = F.interpolate(x, scale_factor=(1, 2, 2), mode="nearest")
        return self.up(x)


def frozen(model: nn.Module) -> nn.Module:
    for p in model.parameters():
        p.requires_grad_(False)
    return model


# --------------------------------------------------------------------------- the cases
@dataclass(frozen=True)
class Case:
    """One corpus entry. `expect`: exact `conv_channels_last` counts on the forward graph."""

    name: str
    model: Callable[[], nn.Module]
    inputs: Inputs
    train: bool = False
    dtype: torch.dtype = torch.float32
    # input index -> dims to `torch._dynamo.mark_dynamic`; `resized`: inputs of other sizes
    dynamic: tuple[tuple[int, tuple[int, ...]], ...] = ()
    resized: Inputs | None = None
    config: PassConfig | None = None
    channels_last: bool = True  # conv_channels_last applied on the forward graph
    expect: dict[str, int] = field(default_factory=dict)
    nd_tiling: str = "static shapes"  # "applied", or a substring of the skip reason
    hoisted: int = 0  # conv weights converted outside the graph (inference)

    @property
    def id(self) -> str:
        return f"{self.name}-{DTYPE_IDS[self.dtype]}-{'train' if self.train else 'infer'}"


def _c(n: int, **counts: int) -> dict[str, int]:
    """Counts of a case whose `n` conv2d/conv3d are all converted."""
    return {"convs_converted": n, "skipped_conv1d": 0, "skipped_transposed": 0, **counts}


CL = torch.channels_last
CL3 = torch.channels_last_3d
# the corpus exercises the rewrite's mechanics on conv2d as on conv3d, and the opt-in conversion
# of weights outside the graph; the defaults' gate is tested in tests/test_channels_last.py
# the passes' own behaviour: measured decisions (kept plain where plain was faster on a GPU) are
# tested in test_decisions.py
CORPUS_BASE = PassConfig(
    channels_last_conv2d_graphs=True, channels_last_weights_once=True, measure_decisions=False
)
NO_CL = CORPUS_BASE.replace(enable_conv_channels_last=False)
CL_CONVERTED = "channels-last already converted"

# fmt: off
CASES: list[Case] = [
    # --- conv2d: bias, groups, depthwise, dilation, stride, padding modes
    Case("conv2d-bias", lambda: nn.Conv2d(3, 4, 3, padding=1), lambda r: (r(2, 3, 6, 5),),
         expect=_c(1, clones_inserted=1, already_channels_last=1), hoisted=1),
    Case("conv2d-nobias", lambda: nn.Conv2d(3, 4, 3, bias=False), lambda r: (r(2, 3, 6, 5),),
         train=True, expect=_c(1, clones_inserted=2)),
    Case("conv2d-depthwise", lambda: nn.Conv2d(4, 4, 3, groups=4, padding=1),
         lambda r: (r(2, 4, 5, 6),), expect=_c(1)),
    Case("conv2d-depthwise-mult2", lambda: nn.Conv2d(3, 6, 3, groups=3, padding=1),
         lambda r: (r(2, 3, 5, 6),), train=True, expect=_c(1)),
    Case("conv2d-groups2-dilation2", lambda: nn.Conv2d(4, 6, 3, groups=2, dilation=2, padding=2),
         lambda r: (r(2, 4, 7, 6),), train=True, expect=_c(1, clones_inserted=2)),
    Case("conv2d-stride2-dilation2", lambda: nn.Conv2d(3, 4, 3, stride=2, dilation=2),
         lambda r: (r(2, 3, 9, 8),), expect=_c(1, clones_inserted=1), hoisted=1),
    Case("conv2d-pad-reflect", lambda: nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect"),
         lambda r: (r(2, 3, 5, 6),), train=True, expect=_c(1, clones_inserted=2, pads_hoisted=0)),
    Case("conv2d-pad-replicate", lambda: nn.Conv2d(3, 4, 3, padding=2, padding_mode="replicate"),
         lambda r: (r(2, 3, 5, 6),), expect=_c(1, clones_inserted=1, pads_hoisted=0), hoisted=1),
    Case("conv2d-pad-circular", lambda: nn.Conv2d(3, 4, 3, padding=1, padding_mode="circular"),
         lambda r: (r(2, 3, 5, 6),), expect=_c(1, clones_inserted=1), hoisted=1),
    Case("conv2d-pad-zeros-same", lambda: nn.Conv2d(3, 4, 4, padding="same", dilation=2),
         lambda r: (r(2, 3, 7, 8),), expect=_c(1, clones_inserted=1), hoisted=1),
    # --- conv1d: skipped, never converted
    Case("conv1d", lambda: nn.Sequential(nn.Conv1d(3, 4, 3), nn.Conv1d(4, 4, 3, padding=1)),
         lambda r: (r(2, 3, 9),), channels_last=False,
         expect={"convs_converted": 0, "skipped_conv1d": 2, "clones_inserted": 0}),
    Case("conv1d-groups-stride", lambda: nn.Conv1d(4, 6, 3, groups=2, stride=2),
         lambda r: (r(2, 4, 11),), train=True, channels_last=False,
         expect={"convs_converted": 0, "skipped_conv1d": 1, "clones_inserted": 0}),
    # --- conv3d
    Case("conv3d-bias", lambda: nn.Conv3d(3, 4, 3, padding=1), lambda r: (r(2, 3, 3, 4, 5),),
         expect=_c(1, clones_inserted=1, already_channels_last=1), hoisted=1),
    Case("conv3d-stride-dilation", lambda: nn.Conv3d(3, 4, 3, stride=(1, 2, 2), dilation=(1, 2, 1)),
         lambda r: (r(2, 3, 4, 7, 6),), train=True, expect=_c(1, clones_inserted=2)),
    Case("conv3d-depthwise", lambda: nn.Conv3d(4, 4, 3, groups=4, padding=1),
         lambda r: (r(1, 4, 3, 4, 5),), expect=_c(1)),
    # --- transposed: skipped
    Case("convtranspose2d", lambda: nn.ConvTranspose2d(4, 3, 3, stride=2, output_padding=1),
         lambda r: (r(2, 4, 3, 4),), channels_last=False,
         expect={"convs_converted": 0, "skipped_transposed": 1, "clones_inserted": 0}),
    Case("convtranspose2d-groups", lambda: nn.ConvTranspose2d(4, 6, 3, groups=2, padding=1),
         lambda r: (r(2, 4, 3, 4),), train=True, channels_last=False,
         expect={"convs_converted": 0, "skipped_transposed": 1, "clones_inserted": 0}),
    Case("convtranspose3d", lambda: nn.ConvTranspose3d(3, 2, 2, stride=2, bias=False),
         lambda r: (r(1, 3, 2, 3, 3),), train=True, channels_last=False,
         expect={"convs_converted": 0, "skipped_transposed": 1, "clones_inserted": 0}),
    # --- input layouts
    Case("conv2d-channels-last-input", lambda: nn.Conv2d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 6, 5).contiguous(memory_format=CL),),
         expect=_c(1, clones_inserted=0, already_channels_last=2), hoisted=1),
    Case("conv2d-transposed-hw-input", lambda: nn.Conv2d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 5, 6).transpose(2, 3),), train=True, expect=_c(1, clones_inserted=2)),
    Case("conv2d-sliced-input", lambda: nn.Conv2d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 10, 6)[:, :, ::2],), expect=_c(1, clones_inserted=1), hoisted=1),
    Case("conv3d-channels-last-3d-input", lambda: nn.Conv3d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 3, 4, 5).contiguous(memory_format=CL3),), train=True,
         expect=_c(1, clones_inserted=1, already_channels_last=1)),
    # --- shared weights: one clone per (tensor, format)
    Case("conv2d-shared-weight", SharedWeight, lambda r: (r(2, 4, 5, 6),),
         expect=_c(2, clones_shared=0), hoisted=1),
    Case("conv2d-shared-weight", SharedWeight, lambda r: (r(2, 4, 5, 6),), train=True,
         expect=_c(2, clones_inserted=3, clones_shared=1)),
    Case("conv3d-shared-weight", lambda: SharedWeight(dims=3), lambda r: (r(1, 4, 3, 4, 5),),
         expect=_c(2, clones_shared=0), hoisted=1),
    # --- views / permutes / reshapes after convs
    Case("conv2d-then-view-permute-reshape", ConvThenViews, lambda r: (r(2, 3, 4, 5),),
         train=True, expect=_c(1, clones_inserted=2)),
    Case("conv3d-then-permute-flatten", Conv3dThenFlatten, lambda r: (r(2, 2, 3, 4, 5),),
         expect=_c(1, clones_inserted=1), hoisted=1),
    # --- batch 1, odd sizes
    Case("conv2d-batch1-odd", lambda: nn.Sequential(nn.Conv2d(3, 5, 3), nn.ReLU(), nn.Conv2d(5, 3, 1)),
         lambda r: (r(1, 3, 7, 9),), expect=_c(2), hoisted=1),
    # --- dynamic batch / H / W
    Case("conv2d-dynamic-batch", lambda: nn.Conv2d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 5, 6),), dynamic=((0, (0,)),), resized=lambda r: (r(3, 3, 5, 6),),
         expect=_c(1, clones_inserted=1), nd_tiling=CL_CONVERTED, hoisted=1),
    Case("conv2d-dynamic-hw", lambda: nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.SiLU(),
                                                    nn.Conv2d(4, 4, 3, padding=1)),
         lambda r: (r(2, 3, 5, 6),), dynamic=((0, (2, 3)),), resized=lambda r: (r(2, 3, 7, 9),),
         expect=_c(2), nd_tiling=CL_CONVERTED, hoisted=2),
    # training with dynamic H/W specialises on CPU even under plain Inductor (conv backward):
    # training is dynamic in the batch
    Case("conv2d-dynamic-batch", lambda: nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.SiLU(),
                                                       nn.Conv2d(4, 4, 3, padding=1)),
         lambda r: (r(2, 3, 5, 6),), dynamic=((0, (0,)),), resized=lambda r: (r(3, 3, 5, 6),),
         train=True, expect=_c(2), nd_tiling=CL_CONVERTED),
    Case("conv3d-dynamic-thw", lambda: nn.Conv3d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 3, 4, 5),), dynamic=((0, (2, 3, 4)),),
         resized=lambda r: (r(2, 3, 2, 5, 7),), expect=_c(1, clones_inserted=1),
         nd_tiling=CL_CONVERTED, hoisted=1),
    # --- ND tiling decides on dynamic + conv-heavy graphs (channels-last off so it may fire)
    Case("conv2d-nd-tiling-dynamic", lambda: nn.Conv2d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 5, 6),), dynamic=((0, (2, 3)),), resized=lambda r: (r(2, 3, 6, 7),),
         config=NO_CL, channels_last=False, expect={}, nd_tiling="applied"),
    Case("conv2d-nd-tiling-static", lambda: nn.Conv2d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 5, 6),), config=NO_CL, channels_last=False, expect={},
         nd_tiling="static shapes"),
    # --- dtypes
    Case("conv2d", lambda: nn.Conv2d(3, 4, 3, padding=1), lambda r: (r(2, 3, 5, 6),),
         dtype=torch.float16, expect=_c(1, clones_inserted=1), hoisted=1),
    Case("conv2d", lambda: nn.Conv2d(3, 4, 3, padding=1), lambda r: (r(2, 3, 5, 6),),
         dtype=torch.bfloat16, expect=_c(1, clones_inserted=1), hoisted=1),
    Case("conv2d-groups2", lambda: nn.Conv2d(4, 4, 3, groups=2, padding=1),
         lambda r: (r(2, 4, 5, 6),), dtype=torch.bfloat16, train=True, expect=_c(1, clones_inserted=2)),
    Case("conv3d", lambda: nn.Conv3d(3, 4, 3, padding=1), lambda r: (r(1, 3, 3, 4, 5),),
         dtype=torch.bfloat16, expect=_c(1, clones_inserted=1), hoisted=1),
    # --- pads: single-user pads are hoisted over, multi-user pads are not
    Case("conv2d-causal-pad", CausalPad, lambda r: (r(2, 3, 5, 6),),
         expect=_c(1, clones_inserted=1, pads_hoisted=1), hoisted=1),
    Case("conv3d-causal-pad", lambda: CausalPad(dims=3), lambda r: (r(1, 3, 3, 4, 5),),
         expect=_c(1, clones_inserted=1, pads_hoisted=1), hoisted=1),
    # in training the pad is also saved for backward (a second user): not hoisted either
    Case("conv3d-causal-pad", lambda: CausalPad(dims=3), lambda r: (r(1, 3, 3, 4, 5),),
         train=True, expect=_c(1, clones_inserted=2, pads_hoisted=0)),
    Case("conv3d-multi-user-pad", MultiUserPad, lambda r: (r(1, 3, 3, 4, 5),),
         expect=_c(1, clones_inserted=1, pads_hoisted=0), hoisted=1),
    # --- several kinds in one graph; a conv-heavy VAE-like block
    Case("mixed-conv1d-conv2d-transposed", Mixed, lambda r: (r(2, 3, 4, 5),),
         expect={"convs_converted": 1, "skipped_conv1d": 1, "skipped_transposed": 1}, hoisted=1),
    Case("vae-resblock3d-upsample", ResBlock3d, lambda r: (r(1, 4, 2, 3, 4),), train=True,
         expect=_c(2)),
    # --- configs: weights kept in the graph, channels-last off; frozen weights in training
    Case("conv2d-weights-in-graph", lambda: nn.Conv2d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 5, 6),), config=CORPUS_BASE.replace(channels_last_weights_once=False),
         expect=_c(1, clones_inserted=2), hoisted=0),
    Case("conv2d-channels-last-off", lambda: nn.Conv2d(3, 4, 3, padding=1),
         lambda r: (r(2, 3, 5, 6),), config=NO_CL, channels_last=False, expect={}),
    Case("conv2d-frozen-weights", lambda: frozen(nn.Conv2d(3, 4, 3, padding=1)),
         lambda r: (r(2, 3, 5, 6),), train=True, expect=_c(1, clones_inserted=1), hoisted=1),
]
# fmt: on


# --------------------------------------------------------------------------- invariants
def _has_format_strides(val: torch.Tensor) -> bool:
    """The fake value's strides are exactly the channels-last(_3d) strides of its shape.

    Compared stride by stride (`statically_known_true`), not with `is_contiguous(memory_format=)`,
    which answers differently for symbolic sizes across torch versions.
    """
    from torch._prims_common import make_channels_last_strides_for
    from torch.fx.experimental.symbolic_shapes import statically_known_true

    expected = make_channels_last_strides_for(val.shape)
    return all(statically_known_true(a == b) for a, b in zip(val.stride(), expected, strict=True))


class InvariantCheck(CustomGraphPass):
    """A user post-grad pass, chained by the `PassManager` after the magi passes.

    Records violations of what the passes promise instead of raising, so a test reports all of
    them with the case that produced them.
    """

    def __init__(self, config: PassConfig) -> None:
        self.config = config
        self.graphs = 0
        self.errors: list[str] = []
        self.config_seen: list[dict[str, Any]] = []

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        self.graphs += 1
        graph.lint()
        for node in graph.find_nodes(op="call_function", target=aten.clone.default):
            fmt = node.kwargs.get("memory_format")
            if fmt in (CL, CL3) and not _has_format_strides(node.meta["val"]):
                self.errors.append(
                    f"{node.format_node()}: meta['val'] strides {node.meta['val'].stride()} "
                    f"are not {fmt}"
                )
        converted = 0
        if self.config.enable_conv_channels_last:
            for conv in graph.find_nodes(op="call_function", target=aten.convolution.default):
                inp, weight, transposed = conv.args[0], conv.args[1], conv.args[6]
                assert isinstance(inp, torch.fx.Node) and isinstance(weight, torch.fx.Node)
                fmt = channels_last_format(weight.meta["val"].dim())
                if fmt is None or transposed:
                    continue
                converted += 1
                for what, arg in (("input", inp), ("weight", weight)):
                    if suggest_memory_format(arg.meta["val"]) != fmt:
                        self.errors.append(
                            f"{conv.format_node()}: {what} {arg.name} is not {fmt} "
                            f"(strides {arg.meta['val'].stride()})"
                        )
        if converted and inductor_config.layout_optimization:
            self.errors.append(
                "layout_optimization is still True while a channels-last graph is lowered"
            )
        self.config_seen.append({k: get_inductor_config_value(k) for k in ND_TILING_CONTRACT})

    def uuid(self) -> str:
        return "magi-corpus-invariant-check-v1"


# --------------------------------------------------------------------------- running a case
@pytest.fixture(autouse=True)
def _exact_cuda_convs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Eager and compiled must not differ by TF32 rounding: cuDNN's TF32 convolutions off
    (restored by monkeypatch; nothing changes where there is no GPU)."""
    monkeypatch.setattr(torch.backends.cudnn, "allow_tf32", False)


@pytest.fixture(autouse=True)
def _fresh_dynamo(config_patch: Any) -> Iterator[None]:
    torch._dynamo.reset()
    config_patch(fx_graph_cache=False)
    with torch._functorch.config.patch(enable_autograd_cache=False):
        yield
    torch._dynamo.reset()


def _randn_factory(device: str, dtype: torch.dtype) -> Callable[..., torch.Tensor]:
    gen = torch.Generator().manual_seed(1234)

    def randn(*shape: int) -> torch.Tensor:
        return torch.randn(shape, generator=gen).to(device=device, dtype=dtype)

    return randn


def _exact_copy(t: torch.Tensor) -> torch.Tensor:
    """A detached copy with the same sizes and strides (`clone` would densify sliced views)."""
    out = torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device=t.device)
    return out.copy_(t.detach())


def _forward_results(backend: MagiBackend) -> dict[str, PassResult]:
    assert backend.managers, "the magi backend was never called"
    history = backend.managers[0].history
    assert history, "the PassManager never ran (an FX graph cache hit?)"
    return {r.name: r for r in history[0]}


def _conv_weights(model: nn.Module) -> list[torch.Tensor]:
    return [p for p in model.parameters() if p.dim() >= 3]


def _assert_close(actual: Any, expected: Any, tol: tuple[float, float], what: str) -> None:
    atol, rtol = tol
    torch.testing.assert_close(actual, expected, atol=atol, rtol=rtol, msg=lambda m: f"{what}: {m}")


def _check_pass_results(case: Case, backend: MagiBackend) -> None:
    results = _forward_results(backend)
    cl, nd = results["conv_channels_last"], results["nd_tiling"]
    assert cl.applied is case.channels_last, str(cl)
    actual = {k: cl.counts.get(k) for k in case.expect}
    assert actual == case.expect, f"{cl}; expected counts {case.expect}"
    if case.channels_last:
        assert cl.config_changes == {"layout_optimization": False}, str(cl)
    if case.nd_tiling == "applied":
        assert nd.applied, str(nd)
        assert nd.config_changes == ND_TILING_CONTRACT, str(nd)
    else:
        assert not nd.applied and case.nd_tiling in nd.reason, str(nd)
        assert nd.config_changes == {}, str(nd)
    assert backend.hoisted_weights[0] == case.hoisted, (
        f"expected {case.hoisted} conv weights converted outside the graph, "
        f"got {backend.hoisted_weights}"
    )


def _check_invariants(case: Case, check: InvariantCheck, n_graphs: int) -> None:
    assert check.graphs == n_graphs, (
        f"the chained user pass ran on {check.graphs} graphs, expected {n_graphs}"
    )
    assert not check.errors, "\n".join(check.errors)
    defaults = {k: get_inductor_config_value(k) for k in ND_TILING_CONTRACT}
    expected = ND_TILING_CONTRACT if case.nd_tiling == "applied" else defaults
    assert check.config_seen[0] == expected, "Inductor config while lowering the forward graph"


def _mark_dynamic(case: Case, inputs: Any) -> None:
    for index, dims in case.dynamic:
        torch._dynamo.mark_dynamic(inputs[index], dims)


def _run_inference(
    case: Case,
    model: nn.Module,
    compiled: Any,
    inputs: tuple[Any, ...],
    resized: tuple[Any, ...] | None,
    backend: MagiBackend,
) -> None:
    tol = TOLERANCES[case.dtype][0]
    _mark_dynamic(case, inputs)
    with torch.no_grad():
        ref = model(*inputs)
        out1 = compiled(*inputs)
        out2 = compiled(*inputs)
        _assert_close(out1, ref, tol, "first call")
        _assert_close(out2, ref, tol, "second call")
        for o, r in zip(tree_leaves(out1), tree_leaves(ref), strict=True):
            # user code after the compiled region may `.view()` an output: eager's layout it is
            assert o.stride() == r.stride(), f"output strides {o.stride()}, eager {r.stride()}"
        if resized is not None:
            _assert_close(compiled(*resized), model(*resized), tol, "resized inputs")
        # the weights change in place: the next call must see them (no stale converted copy)
        for w in _conv_weights(model):
            w.add_(1)
        out3 = compiled(*inputs)
        ref3 = model(*inputs)
    _assert_close(out3, ref3, tol, "after conv.weight.add_(1)")
    assert not torch.allclose(tree_leaves(out3)[0], tree_leaves(out1)[0]), "weights had no effect"
    assert len(backend.managers) == 1, f"recompiled: {len(backend.managers)} compilations"


def _run_training(
    case: Case,
    model: nn.Module,
    compiled: Any,
    inputs: tuple[Any, ...],
    resized: tuple[Any, ...] | None,
    backend: MagiBackend,
) -> None:
    out_tol, grad_tol = TOLERANCES[case.dtype]
    reference = copy.deepcopy(model)
    batches = [inputs] if resized is None else [inputs, resized]
    for batch in batches:
        xs = [_exact_copy(x).requires_grad_() for x in batch]
        xs_ref = [_exact_copy(x).requires_grad_() for x in batch]
        if batch is inputs:
            _mark_dynamic(case, xs)
        out, ref = compiled(*xs), reference(*xs_ref)
        _assert_close(out, ref, out_tol, "output")
        grads = [torch.randn_like(r) for r in tree_leaves(ref)]
        torch.autograd.backward(tree_leaves(out), grads)
        torch.autograd.backward(tree_leaves(ref), grads)
        for i, (x, x_ref) in enumerate(zip(xs, xs_ref, strict=True)):
            _assert_close(x.grad, x_ref.grad, grad_tol, f"grad of input {i}")
        for (name, p), p_ref in zip(model.named_parameters(), reference.parameters(), strict=True):
            if p_ref.grad is None:
                assert p.grad is None, f"{name} got a gradient; eager gave none"
                continue
            _assert_close(p.grad, p_ref.grad, grad_tol, f"grad of {name}")
    assert len(backend.managers) == 1, f"recompiled: {len(backend.managers)} compilations"


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_corpus(case: Case, device: str) -> None:
    torch.manual_seed(0)
    model = case.model().to(device=device, dtype=case.dtype)
    randn = _randn_factory(device, case.dtype)
    inputs = case.inputs(randn)
    resized = case.resized(randn) if case.resized is not None else None

    config = case.config or CORPUS_BASE
    check = InvariantCheck(config)
    backend = MagiBackend(config)
    before = inductor_config_values()
    with inductor_config.patch(post_grad_custom_post_pass=check):
        compiled = torch.compile(model, backend=backend)
        if case.train:
            _run_training(case, model, compiled, inputs, resized, backend)
        else:
            _run_inference(case, model, compiled, inputs, resized, backend)
    leaked = config_differences(before, inductor_config_values())
    assert not leaked, f"Inductor config leaked out of the compilation: {leaked}"

    _check_pass_results(case, backend)
    n_graphs = 2 if case.train else 1  # training: the backward graph goes through the passes too
    assert len(backend.managers[0].history) == n_graphs
    _check_invariants(case, check, n_graphs)


def test_corpus_size() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) >= 25 and len(set(ids)) == len(ids), sorted(ids)


# --------------------------------------------------------------------------- weight updates
WEIGHT_MODES = [
    pytest.param(False, id="default"),  # weights converted in the graph: nothing to go stale
    pytest.param(True, id="weights-once"),  # the opt-in cache outside the graph
]


def _compile_conv_inference(
    device: str, weights_once: bool = True
) -> tuple[nn.Module, Any, torch.Tensor, MagiBackend]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv3d(3, 4, 3, padding=1), nn.SiLU(), nn.Conv3d(4, 4, 3)).to(device)
    x = torch.randn(2, 3, 4, 6, 5, device=device)
    backend = MagiBackend(
        PassConfig(channels_last_weights_once=weights_once, measure_decisions=False)
    )
    compiled = torch.compile(model, backend=backend)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), **UPDATE_TOL)
    assert backend.hoisted_weights == [2 if weights_once else 0], backend.hoisted_weights
    return model, compiled, x, backend


def _sgd_step(model: nn.Module, x: torch.Tensor) -> None:
    with torch.enable_grad():
        model(x).square().mean().backward()
    torch.optim.SGD(model.parameters(), lr=0.5).step()


def _load_shifted_state(model: nn.Module, x: torch.Tensor) -> None:
    model.load_state_dict({k: v * -1.5 for k, v in model.state_dict().items()})


def _copy_into(model: nn.Module, x: torch.Tensor) -> None:
    with torch.no_grad():
        model[0].weight.copy_(torch.randn_like(model[0].weight))


def _assign_data(model: nn.Module, x: torch.Tensor) -> None:
    # a new storage under the same Parameter: same identity and version, new data_ptr
    model[2].weight.data = model[2].weight.data * 3


def _add_in_place(model: nn.Module, x: torch.Tensor) -> None:
    with torch.no_grad():
        model[2].weight.add_(1)


WEIGHT_UPDATES: list[tuple[str, Callable[[nn.Module, torch.Tensor], None]]] = [
    ("add_", _add_in_place),
    ("copy_", _copy_into),
    ("load_state_dict", _load_shifted_state),
    ("optimizer-step", _sgd_step),
    ("data-assign", _assign_data),
]


@pytest.mark.parametrize("weights_once", WEIGHT_MODES)
@pytest.mark.parametrize("device", DEVICES)
def test_corpus_weight_updates(device: str, weights_once: bool) -> None:
    """One compiled inference model, its weights updated every way users update them."""
    model, compiled, x, backend = _compile_conv_inference(device, weights_once)
    previous = model(x).detach()
    for name, update in WEIGHT_UPDATES:
        update(model, x)
        with torch.no_grad():
            out, ref = compiled(x), model(x)
        torch.testing.assert_close(out, ref, **UPDATE_TOL, msg=lambda m, n=name: f"{n}: {m}")
        assert not torch.allclose(ref, previous), f"{name} did not change the model"
        previous = ref
    assert len(backend.managers) == 1, "recompiled: the weight cache was not exercised"


@pytest.mark.parametrize(
    "weights_once",
    [
        pytest.param(False, id="default"),
        pytest.param(
            True,
            id="weights-once",
            marks=pytest.mark.xfail(
                strict=True,
                reason="documented semantics of the opt-in PassConfig.channels_last_weights_once: "
                "`.data` has its own version counter, so `w.data.add_()` is not seen (as with "
                "Inductor's freezing, weights must not change that way after the first call)",
            ),
        ),
    ],
)
@pytest.mark.parametrize("device", DEVICES)
def test_corpus_weight_update_through_data(device: str, weights_once: bool) -> None:
    model, compiled, x, _ = _compile_conv_inference(device, weights_once)
    model[0].weight.data.add_(1)  # old-style in-place update (EMA, weight surgery)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), **UPDATE_TOL)


@pytest.mark.parametrize("device", DEVICES)
def test_corpus_inference_mode_weights(device: str) -> None:
    with torch.inference_mode():
        torch.manual_seed(0)
        model = nn.Conv2d(3, 4, 3, padding=1).to(device)
        x = torch.randn(2, 3, 6, 5, device=device)
        out = torch.compile(model, backend=MagiBackend())(x)
        torch.testing.assert_close(out, model(x), atol=1e-4, rtol=1e-4)


# --------------------------------------------------------------------------- output layout
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(
    "weights_once",
    [
        pytest.param(False, id="weights-in-graph"),
        pytest.param(True, id="weights-once"),
    ],
)
def test_corpus_output_strides_match_eager(device: str, weights_once: bool) -> None:
    model = nn.Conv2d(3, 4, 3, padding=1).to(device)
    x = torch.randn(2, 3, 6, 5, device=device)
    config = PassConfig(
        channels_last_weights_once=weights_once,
        channels_last_conv2d_graphs=True,
        measure_decisions=False,
    )
    compiled = torch.compile(model, backend=MagiBackend(config))
    with torch.no_grad():
        out, ref = compiled(x), model(x)
    assert out.stride() == ref.stride(), f"compiled {out.stride()} vs eager {ref.stride()}"
    out.view(2, -1)  # what user code after the compiled region may do


# --------------------------------------------------------------------------- FX graph cache
def test_corpus_fx_graph_cache_keeps_configs_apart(
    config_patch: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Two PassConfigs never share a cached graph; the same PassConfig does (the cache works)."""
    from torch._dynamo.utils import counters

    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))  # an empty, private cache
    config_patch(fx_graph_cache=True)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.SiLU())
    x = torch.randn(2, 3, 6, 5)

    def compile_with(config: PassConfig) -> tuple[int, int, MagiBackend]:
        torch._dynamo.reset()
        counters.clear()
        backend = MagiBackend(config)
        with torch.no_grad():
            torch.testing.assert_close(torch.compile(model, backend=backend)(x), model(x))
        return (
            counters["inductor"]["fxgraph_cache_hit"],
            counters["inductor"]["fxgraph_cache_miss"],
            backend,
        )

    # weights stay in the graph in both, so the graphs reaching Inductor are identical and only
    # the passes' uuid() can tell the two compilations apart
    first = PassConfig(channels_last_weights_once=False, measure_decisions=False)
    hits, misses, _ = compile_with(first)
    assert (hits, misses) == (0, 1)
    hits, misses, other = compile_with(first.replace(enable_conv_channels_last=False))
    assert (hits, misses) == (0, 1), "a graph compiled for another PassConfig was reused"
    assert not _forward_results(other)["conv_channels_last"].applied
    hits, misses, _ = compile_with(first)
    assert (hits, misses) == (1, 0), "the FX graph cache did not work: this test proves nothing"
