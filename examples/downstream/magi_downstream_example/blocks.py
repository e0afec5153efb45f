"""Two small blocks: an attention head merge and a tiny conv net."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class HeadMerge(nn.Module):
    """Attention output (B, H, T, D) -> merged heads (B, T, H*D) -> projection, residual, RMS norm.

    What a fusing compiler should do: one copy for the head transpose (the matmul needs it
    contiguous), the projection as a library matmul, and residual add + RMS norm + scale in a
    single reduction kernel.
    """

    def __init__(self, heads: int = 4, head_dim: int = 16, eps: float = 1e-6) -> None:
        super().__init__()
        width = heads * head_dim
        self.heads, self.head_dim, self.eps = heads, head_dim, eps
        self.proj = nn.Linear(width, width, bias=False)
        self.scale = nn.Parameter(torch.ones(width))

    def forward(self, attn: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        b, h, t, d = attn.shape
        merged = attn.transpose(1, 2).reshape(b, t, h * d)
        out = residual + self.proj(merged)
        out = out * torch.rsqrt(out.float().pow(2).mean(-1, keepdim=True) + self.eps).to(out.dtype)
        return out * self.scale

    def example_inputs(
        self, batch: int = 2, tokens: int = 32, *, dtype: torch.dtype = torch.float32
    ) -> tuple[torch.Tensor, torch.Tensor]:
        attn = torch.randn(batch, self.heads, tokens, self.head_dim, dtype=dtype)
        residual = torch.randn(batch, tokens, self.heads * self.head_dim, dtype=dtype)
        return attn, residual


class TinyConvNet(nn.Module):
    """conv -> SiLU -> conv, plus the input: a residual conv block."""

    def __init__(self, channels: int = 8) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.conv2(F.silu(self.conv1(x)))

    def example_input(self, batch: int = 2, size: int = 16) -> torch.Tensor:
        return torch.randn(batch, self.conv1.in_channels, size, size)
