"""2-D tiles for the pointwise kernels of static channels-last graphs: measured before built.

On fake CUDA, VAEDecoderLike's GroupNorm apply kernel (static 540p, channels-last) is 1-D over
the flat NDHWC index: every element loads its channel's bias, weight and shift and its group's
statistics through `x % C` (nine loads per element), and the profile put it at 32% of HBM against
71% for torch.compile's channels-first one. With `triton.prefer_nd_tiling` Inductor tiles it
(positions x channels): the per-channel loads become one row per tile. This probe times, per
module, magi as it is against magi with those keys (`--keys`, patched around the compile only),
decisions off on both, each beside torch.compile and each side's relative L2 from fp64.

Run: `python tools/probes/nd_tiling_cl_ab.py [--rounds 15] [--profile]`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gn_stats_ab import GroupNormBlock  # noqa: E402

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.models import VAEDecoderLike, WanCausalStage  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402

KEY_SETS = {
    "nd": {"triton.prefer_nd_tiling": True, "triton.max_tiles": 2},
    "nd+red": {
        "triton.prefer_nd_tiling": True,
        "triton.max_tiles": 2,
        "triton.tile_reductions": True,
    },
}


class RmsBlock(torch.nn.Module):
    """The Wan decoder's conv -> RMS norm (F.normalize) -> SiLU -> causal pad -> conv."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = torch.nn.Conv3d(channels, channels, 3, padding=(0, 1, 1))
        self.gamma = torch.nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.conv2 = torch.nn.Conv3d(channels, channels, 3)
        self.scale = channels**0.5

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.conv1(F.pad(x, (0, 0, 0, 0, 2, 0)))
        h = F.normalize(h.float(), dim=1).to(h.dtype) * self.scale * self.gamma
        return self.conv2(F.pad(F.silu(h), (1, 1, 1, 1, 2, 0)))


def compiled(
    model: torch.nn.Module, side: str, x: torch.Tensor
) -> tuple[Callable[[], object], float]:
    if side == "torch.compile":
        fn = torch.compile(model)
        keys: dict = {}
    else:
        fn = torch.compile(model, backend=MagiBackend(PassConfig(measure_decisions=False)))
        keys = KEY_SETS.get(side, {})
    start = time.perf_counter()
    with torch._inductor.config.patch(keys):
        fn(x)
    torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    fn(x)
    return (lambda f=fn, x=x: f(x)), seconds


def ab(label: str, model: torch.nn.Module, x: torch.Tensor, args: argparse.Namespace) -> None:
    with torch.no_grad():
        ref = model.double()(x.double())
        model.to(x.dtype)
        eager_err = _relative_l2(model(x), ref)
        names = ["torch.compile", "magi", *args.sides]
        runs, secs = {}, {}
        # one dynamo reset per module, none between its sides: a reset drops every side's
        # compiled code, and a side whose difference is a config patch around its compile would
        # recompile without it on its next call (the first version of this probe did, so its
        # "nd" rows were magi's own code); each side's backend is its own object
        torch._dynamo.reset()
        for side in names:
            runs[side], secs[side] = compiled(model, side, x)
        errs = {side: _relative_l2(run(), ref) for side, run in runs.items()}
        base = measure_pair((runs["torch.compile"], runs["magi"]), rounds=args.rounds)
        print(
            f"{label}: torch.compile {base.baseline_ms:.4f} ms, magi {base.candidate_ms:.4f} ms "
            f"({base.ratio:.3f}x); rel-L2 fp64 eager {eager_err:.3e} tc "
            f"{errs['torch.compile']:.3e} magi {errs['magi']:.3e}; compile s tc "
            f"{secs['torch.compile']:.1f} magi {secs['magi']:.1f}",
            flush=True,
        )
        for side in args.sides:
            share = measure_pair((runs["magi"], runs[side]), rounds=args.rounds)
            total = measure_pair((runs["torch.compile"], runs[side]), rounds=args.rounds)
            print(
                f"  magi+{side:<7} {share.candidate_ms:.4f} ms: vs magi {share.ratio:.3f}x "
                f"(spread {share.spread:.1%}), vs torch.compile {total.ratio:.3f}x; rel-L2 "
                f"{errs[side]:.3e}; compile {secs[side]:.1f} s",
                flush=True,
            )
        if args.profile:
            from pytest_magi.profiling import profile

            for side in ("magi", *args.sides):
                report = profile(runs[side], rounds=5, label=f"{label} {side}")
                print(f"\n### {label} {side}\n\n{report.table(top=args.top)}\n", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--sides", default="nd,nd+red")
    parser.add_argument("--models", default="vae,gn256,rms512,wan")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    args.sides = [s for s in args.sides.split(",") if s]
    print(f"device {device_name()}, torch {torch.__version__}", flush=True)
    dt = torch.bfloat16
    for name in args.models.split(","):
        torch.manual_seed(0)
        if name == "vae":
            model = VAEDecoderLike("540p").cuda().eval()
            x = model.example_input(device="cuda", dtype=dt)
            ab("VAEDecoderLike 540p static", model, x, args)
        elif name == "gn256":
            model = GroupNormBlock(256).cuda().eval()
            x = torch.randn(1, 256, 7, 136, 240, device="cuda", dtype=dt)
            ab("conv-GN-SiLU-conv 256x7x136x240", model, x, args)
        elif name == "rms512":
            model = RmsBlock(512).cuda().eval()
            x = torch.randn(1, 512, 3, 136, 240, device="cuda", dtype=dt)
            ab("conv-RMS-SiLU-pad-conv 512x3x136x240", model, x, args)
        elif name == "wan":
            model = WanCausalStage("540p").cuda().eval()
            x = model.example_input(device="cuda", dtype=dt)
            ab("WanCausalStage 540p static", model, x, args)
        else:
            raise SystemExit(f"unknown model {name!r}")


if __name__ == "__main__":
    main()
