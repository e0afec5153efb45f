"""Inductor's kernel autotuning as a lever for magi's static graphs, A/B on the GPU.

With its "outer" reduction hint (the channels-last GroupNorm statistics, per channel over
positions), Inductor's default heuristics give a reduction ONE config and never benchmark
another: on the 540p VAEDecoderLike that is XBLOCK=64 x R0_BLOCK=8 over 224 positions, 1 KB per
load per program (fake CUDA, torch 2.13), and the profile measured those kernels at ~30% of HBM
(docs/benchmarks.md, sessions 13-14). `max_autotune_pointwise` makes Inductor benchmark six
reduction configs and more pointwise ones at the first call; `coordinate_descent_tuning` walks
the block sizes from the heuristic's config. Both cost compile time (the first call).

Sides per model, decisions off on every magi side (each compiles exactly its passes and its
options): torch.compile; magi with `group_norm_kernel_configs` off, alone and with each option
set; magi as it is (`magi+configs`: the fixed configs that session 15 built from these
measurements, `magi_passes.kernel_configs`). `--pairs configs` times only the configs' A/B. One dynamo reset per model; a backend
object per side; caches off for the first calls (the sides share graphs). Printed: each side's
first-call seconds (compile + autotune), its relative L2 from an fp64 run beside eager's, and
`measure_pair` ratios (device-side, interleaved rounds, L2 flushed), `--repeats` times.

Run: `python tools/probes/autotune_ab.py [--models vae,wan,gn] [--pairs all|configs]
[--rounds 15] [--repeats 2]`. Its first runs (`docs/results/session15/autotune_ab_*.log`) predate
`magi+configs`; their "magi" side is today's `group_norm_kernel_configs=False`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gn_stats_ab import GroupNormBlock  # noqa: E402

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.models import VAEDecoderLike, WanCausalStage  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402

STATIC = PassConfig(measure_decisions=False)
# side -> (magi's PassConfig, Inductor options), or None for torch.compile
SIDES: dict[str, tuple[PassConfig, dict[str, object]] | None] = {
    "torch.compile": None,
    "magi": (STATIC.replace(group_norm_kernel_configs=False), {}),
    "magi+autotune": (
        STATIC.replace(group_norm_kernel_configs=False),
        {"max_autotune_pointwise": True},
    ),
    "magi+coordesc": (
        STATIC.replace(group_norm_kernel_configs=False),
        {"coordinate_descent_tuning": True},
    ),
    "magi+configs": (STATIC, {}),
}
PAIRS = {
    "all": (
        ("magi", "magi+autotune"),
        ("magi", "magi+coordesc"),
        ("magi", "magi+configs"),
        ("torch.compile", "magi"),
        ("torch.compile", "magi+configs"),
    ),
    "configs": (
        ("magi", "magi+configs"),
        ("torch.compile", "magi+configs"),
        ("torch.compile", "magi"),
    ),
}


def ab(label: str, model: torch.nn.Module, x: torch.Tensor, args: argparse.Namespace) -> None:
    with torch.no_grad():
        ref = model.double()(x.double())
        model.to(x.dtype)
        eager_err = _relative_l2(model(x), ref)
        torch._dynamo.reset()
        sides = {a for pair in PAIRS[args.pairs] for a in pair}
        fns = {
            side: torch.compile(model)
            if spec is None
            else torch.compile(model, backend=MagiBackend(*spec))
            for side, spec in SIDES.items()
            if side in sides
        }
        seconds, errs = {}, {}
        with torch._inductor.config.patch(force_disable_caches=True):
            for side, fn in fns.items():
                torch.cuda.synchronize()
                start = time.perf_counter()
                out = fn(x)
                torch.cuda.synchronize()
                seconds[side] = time.perf_counter() - start
                errs[side] = _relative_l2(out, ref)
        runs = {side: (lambda f=fn: f(x)) for side, fn in fns.items()}
        for _ in range(args.repeats):
            pairs = {
                f"{a} -> {b}": measure_pair((runs[a], runs[b]), rounds=args.rounds)
                for a, b in PAIRS[args.pairs]
            }
            text = "; ".join(
                f"{name} {p.baseline_ms:.4f} -> {p.candidate_ms:.4f} ms {p.ratio:.3f}x "
                f"(spread {p.spread:.1%})"
                for name, p in pairs.items()
            )
            print(f"{label}: {text}", flush=True)
        print(
            f"{label}: first call (s): "
            + ", ".join(f"{side} {s:.1f}" for side, s in seconds.items())
            + f"; rel-L2 fp64: eager {eager_err:.3e}, "
            + ", ".join(f"{side} {err:.3e}" for side, err in errs.items()),
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--models", default="vae,wan,gn")
    parser.add_argument("--pairs", choices=sorted(PAIRS), default="all")
    args = parser.parse_args()
    print(f"{device_name()}, torch {torch.__version__}, bf16", flush=True)
    for key in args.models.split(","):
        torch.manual_seed(0)
        if key == "gn":
            x = torch.randn(1, 256, 7, 136, 240, device="cuda", dtype=torch.bfloat16)
            ab("conv-GN-SiLU-conv C=256 T=7 136x240", GroupNormBlock(256).cuda().eval(), x, args)
            continue
        cls = {"vae": VAEDecoderLike, "wan": WanCausalStage}[key]
        model = cls("540p").cuda().eval()
        x = model.example_input(device="cuda", dtype=torch.bfloat16)
        ab(f"{cls.__name__} 540p static", model, x, args)


if __name__ == "__main__":
    main()
