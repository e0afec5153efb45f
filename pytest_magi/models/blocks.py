"""The Wan 2.2 and VAE blocks that hold one measured pass each, and `PERF_PAIRS`: every perf pair
of the project's GPU suite (model, inputs, sides) as data, so the GPU test, its CPU budget twin
and the budget validation benchmark build the very same pairs.

Sizes: ``"540p"`` (the GPU suite's) and ``"tiny"`` (CPU tests). A pair's ``sides(cls)`` gives the
``baseline`` / ``candidate`` arguments of ``compiled_pair``: plain torch.compile against the magi
backend, or one measured pass alone (its `PassConfig` switch off in the baseline, decisions off
on both).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from .reference import GQAProjection, VAEDecoderLike, WanCausalStage


class NormProducer(nn.Module):
    """The Wan 2.2 decoder's conv-input producer: `WanRMS_norm` (F.normalize of the fp32 input,
    rounded, times scale and gamma), SiLU, the causal pad, written channels-last for the conv."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.scale = channels**0.5
        self.gamma = nn.Parameter(torch.randn(channels, 1, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.normalize(x.float(), dim=1).to(x.dtype) * self.scale * self.gamma + 0.0
        y = F.pad(F.silu(y), (1, 1, 1, 1, 2, 0))
        return y.contiguous(memory_format=torch.channels_last_3d)


class GroupNormBlock(nn.Module):
    """conv3d -> GroupNorm(32) -> SiLU -> conv3d: a VAE decoder's resnet half."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv3d(channels, channels, 3, padding=1)
        self.norm = nn.GroupNorm(32, channels)
        self.conv2 = nn.Conv3d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2(F.silu(self.norm(self.conv1(x))))


class CausalConv(nn.Module):
    """The Wan 2.2 decoder's steady-chunk causal conv: `WanRMS_norm`, SiLU, the previous chunk's
    two frames concatenated in front, the spatial zero pad, a 3x3x3 conv with padding=0."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.scale = channels**0.5
        self.gamma = nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.conv = nn.Conv3d(channels, channels, 3)

    def forward(self, x: torch.Tensor, cache: torch.Tensor) -> torch.Tensor:
        y = F.silu(F.normalize(x.float(), dim=1).to(x.dtype) * self.scale * self.gamma + 0.0)
        return self.conv(F.pad(torch.cat([cache, y], dim=2), (1, 1, 1, 1, 0, 0)))


Built = tuple[nn.Module, tuple[torch.Tensor, ...], dict[int, Any] | None]


@dataclass(frozen=True)
class PerfPair:
    """One perf pair of the GPU suite: ``build(size, device, dtype)`` -> (model, inputs,
    dynamic_dims); ``alone``: the measured pass timed alone (None: torch.compile vs magi)."""

    label: str
    build: Callable[[str, str, torch.dtype], Built]
    alone: str | None = None  # a PassConfig switch (MagiPass.measured_by)
    fires: str = "conv_channels_last"  # a pass that must fire on the candidate

    def sides(self) -> dict[str, Any]:
        """The ``baseline`` / ``candidate`` arguments of ``compiled_pair`` (none: the defaults)."""
        if self.alone is None:
            return {}
        from magi_passes import PassConfig

        candidate = PassConfig(measure_decisions=False)
        return {"baseline": candidate.replace(**{self.alone: False}), "candidate": candidate}


def _reference(cls: Any, dynamic: bool) -> Callable[[str, str, torch.dtype], Built]:
    def build(size: str, device: str, dtype: torch.dtype) -> Built:
        torch.manual_seed(0)
        model = cls(size).to(device=device, dtype=dtype).eval()
        x = model.example_input(device=device, dtype=dtype)
        return model, (x,), ({0: cls.DYNAMIC_HW} if dynamic else None)

    return build


def _gqa(size: str, device: str, dtype: torch.dtype) -> Built:
    preset = "h200" if size == "540p" else "tiny"
    x = GQAProjection.example_input(preset, device=device, dtype=dtype)
    return GQAProjection(kv_heads=4), (x,), {0: GQAProjection.DYNAMIC_DIMS}


# channels, frames, height, width of each block at each size
_BLOCK_SHAPES = {
    "norm": {"540p": (512, 5, 272, 480), "tiny": (32, 3, 8, 8)},
    "group_norm": {"540p": (256, 7, 136, 240), "tiny": (32, 3, 8, 8)},
    "causal": {"540p": (256, 5, 272, 480), "tiny": (32, 3, 8, 8)},
}


def _block(kind: str) -> Callable[[str, str, torch.dtype], Built]:
    def build(size: str, device: str, dtype: torch.dtype) -> Built:
        torch.manual_seed(0)
        c, t, h, w = _BLOCK_SHAPES[kind][size]
        cls = {"norm": NormProducer, "group_norm": GroupNormBlock, "causal": CausalConv}[kind]
        model = cls(c).to(device=device, dtype=dtype).eval()
        x = torch.randn(1, c, t, h, w, device=device, dtype=dtype)
        if kind != "causal":
            return model, (x,), None
        cache = torch.randn(1, c, 2, h, w, device=device, dtype=dtype)
        return model, (x, cache), None

    return build


PERF_PAIRS: dict[str, PerfPair] = {
    p.label: p
    for p in (
        PerfPair("vae-540p-static", _reference(VAEDecoderLike, False)),
        PerfPair("vae-540p-dynamic", _reference(VAEDecoderLike, True)),
        PerfPair("wan-540p-static", _reference(WanCausalStage, False)),
        PerfPair("wan-540p-dynamic", _reference(WanCausalStage, True)),
        PerfPair("gqa-dynamic", _gqa, fires="dynamic_reshape"),
        PerfPair("norm-producer-540p", _block("norm"), "enable_norm_rsqrt", "norm_rsqrt"),
        PerfPair(
            "group-norm-block-540p",
            _block("group_norm"),
            "enable_group_norm_stats",
            "group_norm_stats",
        ),
        PerfPair("conv-pad-fold-540p", _block("causal"), "enable_conv_pad_fold", "conv_pad_fold"),
    )
}
