"""GroupNorm's apply kernel alone, channels-last: which form of it reaches HBM bandwidth.

The VAEDecoderLike profile (docs/benchmarks.md, "Session 13") puts magi's GroupNorm + SiLU apply
kernel at 32% of HBM, torch.compile's channels-first one at 71%, and 2-D tiles did not move it.
Each form below is one Inductor pointwise kernel over a (1, C, T, H, W) bf16 activation, its
statistics given as inputs (realized, as a reduction kernel leaves them):

- `cf-group`: channels-first, group mean/var per element (torch.compile's kernel);
- `cl-group`: channels-last, the same loads (two gathers through `c // (C/G)`);
- `cl-chan4`: channels-last, the group mean rebuilt from the channel means per element (what
  GroupNormStatsPass leaves: C/G more gathers);
- `cl-affine`: channels-last, `x * scale[c] + shift[c]` with scale/shift realized per channel.

Each kernel is timed with the device-side timer (`pytest_magi.timing.measure_pair` against
`cf-group`); GB/s from the bytes it must move (read and write the activation once).

Run: `python tools/probes/gn_apply_micro.py [--rounds 15]`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pytest_magi.timing import device_name, measure_pair  # noqa: E402

EPS = 1e-5


def forms(c: int, g: int):
    def bcast(v: torch.Tensor) -> torch.Tensor:
        return v.view(1, -1, 1, 1, 1)

    def group(x, b, w, beta, mean_g, var_g):
        xf = (x + bcast(b)).float()
        n, _, t, h, ww = x.shape
        xg = xf.view(n, g, c // g, t, h, ww)
        y = (xg - mean_g.view(1, g, 1, 1, 1, 1)) * torch.rsqrt(var_g.view(1, g, 1, 1, 1, 1) + EPS)
        y = y.view(n, c, t, h, ww) * bcast(w.float()) + bcast(beta.float())
        return F.silu(y).to(x.dtype)

    def chan4(x, b, w, beta, mean_c, var_g):
        mean_g = mean_c.view(g, c // g).mean(1)
        return group(x, b, w, beta, mean_g, var_g)

    def affine(x, scale, shift):
        y = x.float() * bcast(scale) + bcast(shift)
        return F.silu(y).to(x.dtype)

    return group, chan4, affine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    print(f"device {device_name()}, torch {torch.__version__}", flush=True)
    for c, g, t, h, w in ((128, 32, 7, 136, 240), (256, 32, 7, 136, 240), (512, 32, 3, 68, 120)):
        one_shape(c, g, (t, h, w), args.rounds)


def one_shape(c: int, g: int, thw: tuple[int, int, int], rounds: int) -> None:
    dt, dev = torch.bfloat16, "cuda"
    t, h, w = thw
    torch.manual_seed(0)
    group, chan4, affine = forms(c, g)
    cf = torch.randn(1, c, t, h, w, device=dev, dtype=dt)
    cl = cf.contiguous(memory_format=torch.channels_last_3d)
    b, wt, beta = (torch.randn(c, device=dev, dtype=dt) for _ in range(3))
    mean_g, var_g = torch.randn(g, device=dev), torch.rand(g, device=dev) + 0.5
    mean_c = torch.randn(c, device=dev)
    scale, shift = torch.randn(c, device=dev), torch.randn(c, device=dev)
    torch._dynamo.reset()
    cg, c4, ca = (torch.compile(f) for f in (group, chan4, affine))
    runs = {
        "cf-group": lambda: cg(cf, b, wt, beta, mean_g, var_g),
        "cl-group": lambda: cg(cl, b, wt, beta, mean_g, var_g),
        "cl-chan4": lambda: c4(cl, b, wt, beta, mean_c, var_g),
        "cl-affine": lambda: ca(cl, scale, shift),
    }
    with torch.no_grad():
        for fn in runs.values():
            fn()
            fn()
        ref = runs["cf-group"]()
        assert torch.allclose(runs["cl-group"]().float(), ref.float(), atol=1e-2, rtol=1e-2)
        moved = 2 * cf.numel() * cf.element_size()
        for name, fn in runs.items():
            m = measure_pair((runs["cf-group"], fn), rounds=rounds)
            gbs = moved / (m.candidate_ms * 1e-3) / 1e9
            print(
                f"C={c} G={g} {t}x{h}x{w} {name:<10} {m.candidate_ms * 1e3:8.1f} us "
                f"{gbs:7.0f} GB/s ({gbs / 4800:.0%} of 4.8 TB/s); vs cf-group {m.ratio:.3f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
