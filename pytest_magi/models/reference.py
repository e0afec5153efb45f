"""Reference models the suite, the benchmarks and downstream projects compile.

- `VAEDecoderLike`: a conv3d-heavy video-VAE-decoder-like network (GroupNorm + SiLU + Conv3d
  residual blocks, 2x spatial nearest upsampling). Presets: "540p" (latent (1, 48, 7, 34, 60),
  width 128; the GPU benchmark shape) and "tiny" (for CPU tests and fake-CUDA codegen).
- `GQAProjection`: the grouped-query projection of pytorch#181108 (normalise, view to
  (B, T, Hkv, rep, D), sum over rep, view back), whose dynamic-shape kernel count regressed.
- `WanCausalStage`: a WAN-style causal decoder stage: temporal causal `F.pad` + `conv3d(padding=0)`,
  RMS norm over channels, SiLU, residual adds, and per-frame `conv2d` upsampling through a
  `(b t) c h w` reshape.

All are deterministic given `torch.manual_seed`, and every model has `example_input(...)`.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass(frozen=True)
class VAEPreset:
    latent_channels: int
    frames: int
    height: int
    width: int
    base_width: int
    blocks_per_stage: int
    upsample_stages: int
    groups: int


VAE_PRESETS: dict[str, VAEPreset] = {
    # latent (1, 48, 7, 34, 60), width 128: a 540p video latent with a 16x spatial VAE
    "540p": VAEPreset(48, 7, 34, 60, 128, 1, 2, 32),
    "tiny": VAEPreset(4, 2, 6, 8, 16, 1, 1, 4),
}


def _check_preset(preset: str, presets: dict[str, object]) -> None:
    if preset not in presets:
        raise ValueError(f"unknown preset {preset!r}; choose one of {sorted(presets)}")


class ResBlock3d(nn.Module):
    """GroupNorm -> SiLU -> Conv3d, twice, plus the identity."""

    def __init__(self, channels: int, groups: int) -> None:
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, channels)
        self.conv1 = nn.Conv3d(channels, channels, 3, padding=1)
        self.norm2 = nn.GroupNorm(groups, channels)
        self.conv2 = nn.Conv3d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.conv1(F.silu(self.norm1(x)))
        h = self.conv2(F.silu(self.norm2(h)))
        return x + h


class VAEDecoderLike(nn.Module):
    """conv_in -> [res blocks, 2x spatial nearest upsample + conv]* -> norm/SiLU -> conv_out."""

    def __init__(self, preset: str = "tiny") -> None:
        super().__init__()
        _check_preset(preset, VAE_PRESETS)  # type: ignore[arg-type]
        self.preset_name = preset
        p = VAE_PRESETS[preset]
        self.preset = p
        w = p.base_width
        self.conv_in = nn.Conv3d(p.latent_channels, w, 3, padding=1)
        stages: list[nn.Module] = []
        for _ in range(p.upsample_stages):
            stages.extend(ResBlock3d(w, p.groups) for _ in range(p.blocks_per_stage))
            stages.append(_Upsample2x(w))
        stages.extend(ResBlock3d(w, p.groups) for _ in range(p.blocks_per_stage))
        self.stages = nn.Sequential(*stages)
        self.norm_out = nn.GroupNorm(p.groups, w)
        self.conv_out = nn.Conv3d(w, 3, 3, padding=1)

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        h = self.conv_in(z)
        h = self.stages(h)
        return self.conv_out(F.silu(self.norm_out(h)))

    def example_input(
        self,
        batch: int = 1,
        *,
        device: str | torch.device = "cpu",
        dtype: torch.dtype = torch.float32,
        generator: torch.Generator | None = None,
    ) -> torch.Tensor:
        p = self.preset
        return torch.randn(
            batch, p.latent_channels, p.frames, p.height, p.width, generator=generator
        ).to(device=device, dtype=dtype)

    # the dims a dynamic-H/W benchmark marks dynamic: latent height and width
    DYNAMIC_HW: tuple[int, ...] = (3, 4)


class _Upsample2x(nn.Module):
    """Nearest 2x upsampling of H and W (frames kept), then a conv."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv = nn.Conv3d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(F.interpolate(x, scale_factor=(1.0, 2.0, 2.0), mode="nearest"))


@dataclass(frozen=True)
class GQAPreset:
    batch: int
    tokens: int
    q_heads: int
    kv_heads: int
    head_dim: int


GQA_PRESETS: dict[str, GQAPreset] = {
    "h200": GQAPreset(4, 4096, 32, 4, 64),  # the pytorch#181108 measurement
    "tiny": GQAPreset(2, 16, 8, 2, 8),
}


class GQAProjection(nn.Module):
    """Grouped RMS normalisation of query heads: the pytorch#181108 shape.

    `x` (B, T, Hq, D) is viewed as (B, T, Hkv, Hq // Hkv, D), normalised with a sum of squares over
    D, scaled, and viewed back with `view_as(x)`. With Hq and D dynamic, Inductor cannot prove
    that the view back (merging Hkv * (Hq // Hkv) into Hq) is a reinterpretation, and copies the
    graph output in an extra kernel.
    """

    def __init__(self, kv_heads: int = 4, eps: float = 1e-6) -> None:
        super().__init__()
        self.kv_heads = kv_heads
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, hq, d = x.shape
        grouped = x.view(b, t, self.kv_heads, hq // self.kv_heads, d).float()
        sum_sq = grouped.pow(2).sum(-1, keepdim=True)
        normed = grouped * torch.rsqrt(sum_sq / d + self.eps)
        return normed.to(x.dtype).view_as(x)

    @staticmethod
    def example_input(
        preset: str = "tiny",
        *,
        device: str | torch.device = "cpu",
        dtype: torch.dtype = torch.float32,
        requires_grad: bool = False,
    ) -> torch.Tensor:
        _check_preset(preset, GQA_PRESETS)  # type: ignore[arg-type]
        p = GQA_PRESETS[preset]
        x = torch.randn(p.batch, p.tokens, p.q_heads, p.head_dim).to(device=device, dtype=dtype)
        return x.requires_grad_(requires_grad)

    # Hq and D are the dims pytorch#181108 marks dynamic
    DYNAMIC_DIMS: tuple[int, ...] = (2, 3)


class RMSNormChannels(nn.Module):
    """RMS norm over the channel dim (dim 1) of (B, C, ...) tensors, with a learned scale."""

    def __init__(self, channels: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(channels))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        normed = xf * torch.rsqrt(xf.pow(2).mean(1, keepdim=True) + self.eps)
        shape = (1, -1) + (1,) * (x.dim() - 2)
        return (normed * self.weight.view(shape)).to(x.dtype)


class CausalConv3d(nn.Module):
    """`F.pad` with (kt - 1) frames in front only, then `conv3d(padding=0)`."""

    def __init__(self, cin: int, cout: int, kernel: int = 3) -> None:
        super().__init__()
        self.pad = (kernel // 2, kernel // 2, kernel // 2, kernel // 2, kernel - 1, 0)
        self.conv = nn.Conv3d(cin, cout, kernel, padding=0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(F.pad(x, self.pad))


class WanResBlock(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.norm1 = RMSNormChannels(channels)
        self.conv1 = CausalConv3d(channels, channels)
        self.norm2 = RMSNormChannels(channels)
        self.conv2 = CausalConv3d(channels, channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.conv1(F.silu(self.norm1(x)))
        h = self.conv2(F.silu(self.norm2(h)))
        return x + h


@dataclass(frozen=True)
class WanPreset:
    channels: int
    frames: int
    height: int
    width: int
    blocks: int


WAN_PRESETS: dict[str, WanPreset] = {
    "540p": WanPreset(128, 7, 34, 60, 2),
    "tiny": WanPreset(8, 3, 6, 8, 1),
}


class WanCausalStage(nn.Module):
    """Causal res blocks, then per-frame 2x upsampling with conv2d over `(b t) c h w`."""

    def __init__(self, preset: str = "tiny") -> None:
        super().__init__()
        _check_preset(preset, WAN_PRESETS)  # type: ignore[arg-type]
        p = WAN_PRESETS[preset]
        self.preset = p
        self.blocks = nn.Sequential(*(WanResBlock(p.channels) for _ in range(p.blocks)))
        self.up_conv = nn.Conv2d(p.channels, p.channels, 3, padding=1)
        self.out_norm = RMSNormChannels(p.channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.blocks(x)
        b, c, t, hh, ww = h.shape
        frames = h.permute(0, 2, 1, 3, 4).reshape(b * t, c, hh, ww)
        frames = F.interpolate(frames, scale_factor=2.0, mode="nearest")
        frames = self.up_conv(frames)
        h = frames.reshape(b, t, c, 2 * hh, 2 * ww).permute(0, 2, 1, 3, 4)
        return F.silu(self.out_norm(h))

    def example_input(
        self,
        batch: int = 1,
        *,
        device: str | torch.device = "cpu",
        dtype: torch.dtype = torch.float32,
    ) -> torch.Tensor:
        p = self.preset
        return torch.randn(batch, p.channels, p.frames, p.height, p.width).to(
            device=device, dtype=dtype
        )

    DYNAMIC_HW: tuple[int, ...] = (3, 4)
