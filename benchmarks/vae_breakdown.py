"""Per-kernel breakdown of VAEDecoderLike: where torch.compile and magi spend their time.

    python benchmarks/vae_breakdown.py [--preset 540p] [--top 12] [--cudnn-benchmark]

Compiles torch.compile and magi for static and dynamic H/W, profiles 10 calls of each with
torch.profiler, and prints the top kernels by device time with their share of the total.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magi_passes import MagiBackend  # noqa: E402
from pytest_magi.models import VAEDecoderLike  # noqa: E402


def kernel_table(fn, x, top: int, calls: int = 10) -> tuple[float, list[tuple[str, float]]]:
    from torch.profiler import ProfilerActivity, profile

    for _ in range(3):
        fn(x)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn(x)
        torch.cuda.synchronize()
    totals: dict[str, float] = collections.defaultdict(float)
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            totals[e.name] += e.device_time_total / calls / 1e3  # ms per call
    total = sum(totals.values())
    return total, sorted(totals.items(), key=lambda kv: -kv[1])[:top]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", default="540p")
    p.add_argument("--top", type=int, default=12)
    p.add_argument("--cudnn-benchmark", action="store_true")
    args = p.parse_args()
    torch.backends.cudnn.benchmark = args.cudnn_benchmark
    torch.manual_seed(0)
    model = VAEDecoderLike(args.preset).cuda().to(torch.bfloat16).eval()
    print(
        f"device={torch.cuda.get_device_name()} torch={torch.__version__} cudnn.benchmark={args.cudnn_benchmark}"
    )
    with torch.no_grad(), torch._dynamo.config.patch(recompile_limit=64):
        for mode in ("static", "dynamic"):
            for name in ("torch.compile", "magi"):
                torch._dynamo.reset()
                x = model.example_input(device="cuda", dtype=torch.bfloat16)
                if mode == "dynamic":
                    for d in model.DYNAMIC_HW:
                        torch._dynamo.mark_dynamic(x, d)
                backend = "inductor" if name == "torch.compile" else MagiBackend()
                fn = torch.compile(model, backend=backend)
                total, rows = kernel_table(fn, x, args.top)
                print(f"\n== {mode} {name}: {total:.3f} ms of kernels per call")
                for kname, ms in rows:
                    print(f"  {ms:7.3f} ms {ms / total:6.1%}  {kname[:110]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
