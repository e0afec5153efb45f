"""Conv mode of the zoo benchmark (GPU): why a zoo model's convolutions take longer under one
side than the other, in the real decode.

    python benchmarks/zoo.py conv --models wan2.2-vae --frames 3

Both sides' convolutions run in cuDNN; the same FLOPs can take different times by the engine
cuDNN picks for each layout, or by the clock the GPU holds. Per side (``torch.compile`` and
``magi``):

1. the conv/matmul kernels by their **full** names (the tile configuration is in the name, cut off
   in profile tables), launches and ms per call: a different cuDNN engine shows up here;
2. the SM clock and power while the side runs (`pytest_magi.measure.clocks`): a lower clock under magi's
   back-to-back convolutions shows up here;
3. each side timed against itself with ``torch.backends.cudnn.benchmark`` on (cuDNN times its
   engines instead of its heuristic; scoped by ``torch.backends.cudnn.flags`` around every call)
   with `pytest_magi.timing.measure_pair`: whether a better engine exists for that side's layout.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable
from typing import Any

import torch

from magi_passes import MagiBackend, PassConfig
from pytest_magi import zoo
from pytest_magi.measure import profiling
from pytest_magi.measure.clocks import GpuClocks
from pytest_magi.measure.timing import device_name, measure_pair
from pytest_magi.numerics.judgment import _relative_l2, bound_for, reference_outputs


def cudnn_benchmark() -> contextlib.AbstractContextManager[Any]:
    """cuDNN picks engines by timing them (cudnn.benchmark), restored on exit."""
    return torch.backends.cudnn.flags(
        enabled=True,
        benchmark=True,
        deterministic=torch.backends.cudnn.deterministic,
        allow_tf32=torch.backends.cudnn.allow_tf32,
    )


def scoped(fn: Callable[[], Any], scope: Callable[[], Any]) -> Callable[[], Any]:
    def call() -> Any:
        with scope():
            return fn()

    return call


def conv_kernels(fn: Callable[[], Any], calls: int) -> dict[str, tuple[float, float]]:
    """Full conv/matmul kernel name -> (launches, ms) per call, from ``calls`` profiled calls."""
    times = profiling.kernel_times(fn, calls)
    return {name: t for name, t in times.items() if profiling.classify(name)[0] == profiling.CONV}


def clocked(fn: Callable[[], Any], calls: int) -> tuple[float, str]:
    fn()
    torch.cuda.synchronize()
    with GpuClocks() as clocks:
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        ms = (time.perf_counter() - start) * 1e3 / calls
    reading = clocks.result()
    return ms, reading.describe() if reading is not None else "no NVML"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="zoo.py conv", description="a zoo model's convolutions, side by side (GPU)"
    )
    parser.add_argument("--models", default="wan2.2-vae")
    parser.add_argument("--frames", type=int, default=3, help="latent frames (Wan)")
    parser.add_argument("--size", default="full")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--calls", type=int, default=3, help="profiled / clocked calls per side")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("conv_gap: needs a CUDA GPU (cuDNN kernels are what it compares)", file=sys.stderr)
        return 2
    print(
        f"# {device_name('cuda')}, torch {torch.__version__}, cuDNN "
        f"{torch.backends.cudnn.version()}, bf16"
    )
    for name in args.models.split(","):
        options = {"frames": args.frames} if name == "wan2.2-vae" else {}
        model = zoo.load(name, args.size, device="cuda", dtype=torch.bfloat16, **options)
        reference = reference_outputs(model.as_module(), model.inputs, torch.float32, True)
        bound = bound_for(_relative_l2(model.run(), reference), torch.bfloat16)
        sides = {
            "torch.compile": model.compile(backend="inductor", isolate="class"),
            "magi": model.compile(backend=MagiBackend(PassConfig.from_env()), isolate="instance"),
        }
        print(f"\n## {name} {tuple(model.inputs[0].shape)}; numerics bound {bound:.2e}")
        for side, compiled in sides.items():
            start = time.perf_counter()
            compiled.run()
            torch.cuda.synchronize()
            err = _relative_l2(compiled.run(), reference)
            print(
                f"{side}: compiled in {time.perf_counter() - start:.1f} s; rel-L2 {err:.2e} "
                f"({'ok' if err <= bound else 'WRONG'})",
                flush=True,
            )
        print("\n| side | cudnn.benchmark | ms per call (clocked) | clock |")
        print("| --- | --- | ---: | --- |")
        tables = {}
        for side, compiled in sides.items():
            for bench in (False, True):
                fn = scoped(compiled.run, cudnn_benchmark) if bench else compiled.run
                ms, clock = clocked(fn, args.calls)
                print(f"| {side} | {bench} | {ms:.2f} | {clock} |", flush=True)
                tables[side, bench] = conv_kernels(fn, args.calls)
        names = sorted({k for t in tables.values() for k in t})
        print("\nconv/matmul kernels, launches / ms per call:")
        cols = list(tables)
        print("| kernel | " + " | ".join(f"{s} bench={b}" for s, b in cols) + " |")
        print("| --- |" + " ---: |" * len(cols))
        for kernel in names:
            cells = []
            for col in cols:
                n, ms = tables[col].get(kernel, (0, 0.0))
                cells.append(f"{n:g} / {ms:.2f}" if n else "")
            print(f"| {kernel[:200]} | " + " | ".join(cells) + " |")
        totals = [sum(ms for _, ms in tables[c].values()) for c in cols]
        print("| **total** | " + " | ".join(f"{t:.2f}" for t in totals) + " |", flush=True)
        print("\nside by side (measure_pair, interleaved, median):")
        tc, magi = sides["torch.compile"].run, sides["magi"].run
        pairs = {
            "torch.compile vs magi": (tc, magi),
            "magi vs magi+cudnn.benchmark": (magi, scoped(magi, cudnn_benchmark)),
            "torch.compile vs torch.compile+cudnn.benchmark": (tc, scoped(tc, cudnn_benchmark)),
            "torch.compile vs magi+cudnn.benchmark": (tc, scoped(magi, cudnn_benchmark)),
        }
        for label, pair in pairs.items():
            print(f"  {label}: {measure_pair(pair, rounds=args.rounds)}", flush=True)
    return 0
