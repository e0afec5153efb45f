"""Why the Wan decode's looped RMS-norm kernels are looped (fake CUDA, no GPU; session 22).

A residual block shaped like the decoder's (RMS norm over channels, SiLU, 3x3x3 conv, residual
add, RMS norm, SiLU), bf16, compiled with the magi passes (decisions off) in fake CUDA, with its
input channels-first and then channels-last; prints each reduction kernel's size hints and
Inductor's reduction hint. At 512 x 4 x 136 x 240:
- input channels-first (the layout a graph hands the next one: outputs keep eager's strides):
  both norms are `triton_red_` kernels, `ReductionHint.DEFAULT`, `r0_numel = 512`. Inductor
  makes a reduction persistent (one read of its input) only up to 64 elements unless the hint is
  INNER, so each reads its input twice;
- input channels-last: both are `triton_per_` kernels with `ReductionHint.INNER`.
`--decode`: the zoo's full-size Wan 2.2 decode instead (T=2, random weights, one graph on torch
2.13), every norm reduction listed with its hint; about a minute.
Run: `python tools/probes/norm_reduction_hint.py [--decode]` (about two minutes on 2 cores).
"""

from __future__ import annotations

import sys

import torch
import torch.nn.functional as F
from torch import nn

from magi_passes import PassConfig
from pytest_magi.codegen import inductor_codegen

LAYOUTS = {"channels-first": torch.contiguous_format, "channels-last": torch.channels_last_3d}
SHAPES = [(512, 4, 136, 240)]  # channels, frames, height, width: the decoder's 512-wide stage


class RMSNorm(nn.Module):
    """WanRMS_norm's computation: L2-normalise over channels, scale by sqrt(C) and a gain."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(channels, 1, 1, 1))
        self.scale = channels**0.5

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.normalize(x, dim=1) * self.scale * self.gamma


class Block(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.norm1 = RMSNorm(channels)
        self.conv = nn.Conv3d(channels, channels, 3, padding=1)
        self.norm2 = RMSNorm(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.conv(F.silu(self.norm1(x))) + x
        return F.silu(self.norm2(h))


def reduction_facts(code: object) -> list[tuple[str, object, list[str]]]:
    """(name, size hints, hint and r0_numel lines) of each norm reduction kernel."""
    out = []
    for kernel in code.kernels:  # type: ignore[attr-defined]
        if "reduction" not in kernel.kind or "norm" not in kernel.name:
            continue
        facts = [
            line.strip()[:60]
            for line in kernel.source.splitlines()
            if "reduction_hint" in line or "r0_numel =" in line
        ][:2]
        out.append((kernel.name, kernel.size_hints, facts))
    return out


def whole_decode(frames: int) -> None:
    """The zoo's full-size Wan 2.2 decode (random weights), frames of their own as magi_compile
    gives them, generated for fake CUDA: every norm reduction with its hint."""
    from magi_passes.frames import isolate_forward_code
    from pytest_magi import zoo

    model = zoo.load("wan2.2-vae", "full", dtype=torch.bfloat16, frames=frames)
    module = model.as_module()
    isolate_forward_code(module, per="instance")
    with torch.no_grad():
        code = inductor_codegen(module, *model.inputs, config=PassConfig(measure_decisions=False))
    facts = reduction_facts(code)
    looped = [f for f in facts if f[0].startswith("triton_red_")]
    print(
        f"whole decode, T={frames}: {code.kernel_count} kernels, {len(facts)} norm reductions, "
        f"{len(looped)} looped"
    )
    for name, hints, lines in looped:
        print("   ", name, hints, lines)


def main() -> None:
    if "--decode" in sys.argv:
        whole_decode(frames=2)
        return
    for c, t, h, w in SHAPES:
        for layout_name, layout in LAYOUTS.items():
            block = Block(c).to(torch.bfloat16).eval()
            x = torch.empty(1, c, t, h, w, dtype=torch.bfloat16).to(memory_format=layout)
            with torch.no_grad():
                code = inductor_codegen(block, x, config=PassConfig(measure_decisions=False))
            print(f"{c} x {t} x {h} x {w}, input {layout_name}:")
            for name, hints, facts in reduction_facts(code):
                print("   ", name, hints, facts)


if __name__ == "__main__":
    main()
