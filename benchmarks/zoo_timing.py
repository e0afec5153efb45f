"""Is a zoo pair's timing true? The same model compiled several ways, each timed against one
reference copy, side by side in one process (GPU).

    python benchmarks/zoo_timing.py --models resnet50,efficientnet_b0

Rows (every row is a separately compiled copy of the model, timed against the copy `ref`,
`torch.compile(module)` as `benchmarks/zoo.py` builds it: backend given by name, frames per class):

- `A/A`: a second copy built the same way: the harness's own error (must read 1.00).
- `inductor, counted`: the backend object `ZooPair` gives its baseline (`lookup_backend("inductor")`
  wrapped to count graphs) instead of the name.
- `inductor, frames per instance`: what `magi_compile`'s frame isolation alone changes.
- `magi`: `magi_compile`-style (the passes and frames per instance).
- `ZooPair A/A` / `ZooPair magi`: `pytest_magi.zoo.ZooPair` itself, as the zoo tests build it,
  timed with `measure_pair(pair)` (its own two sides; not against `ref`).

For each copy it also prints the median wall time of a synchronised call, the host (CPU) time of
a call while the GPU is kept busy, the CUDA kernel time per call from `torch.profiler` and the idle
share (wall minus kernels): a launch-bound model shows where per-call CPU work, not kernels,
decides the ratio. `--host-profile` adds cProfile's view of where the host spends a call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magi_passes import MagiBackend  # noqa: E402
from pytest_magi import zoo  # noqa: E402
from pytest_magi.pair import _profile_rows  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402


def _sync() -> None:
    torch.cuda.synchronize()


def wall_ms(fn: Callable[[], Any], calls: int = 30) -> float:
    """Median wall time of one synchronised call."""
    times = []
    for _ in range(calls):
        _sync()
        start = time.perf_counter()
        fn()
        _sync()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def host_ms(fn: Callable[[], Any], calls: int = 20) -> float:
    """Median host (CPU) time of one call while the GPU is kept busy, so no launch waits."""
    times = []
    for _ in range(calls):
        _sync()
        torch.cuda._sleep(100_000_000)  # tens of ms of GPU work queued ahead of the call
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    _sync()
    return statistics.median(times)


def host_profile(fn: Callable[[], Any], calls: int = 20, top: int = 8) -> str:
    """The functions the host spends one call in (cProfile, by own time)."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        fn()
    profiler.disable()
    _sync()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    lines = [x for x in out.getvalue().splitlines() if x.strip()]
    return "\n".join("    " + x for x in lines[-(top + 1) :])


def kernel_ms(fn: Callable[[], Any], calls: int = 5) -> float:
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        _sync()
    return sum(us for _, us, _ in _profile_rows(prof.key_averages(), cuda=True)) / 1e3 / calls


def copies(model: zoo.ZooModel) -> dict[str, Callable[[], Any]]:
    from pytest_magi.compile_stats import CompileStatsCollector
    from pytest_magi.zoo import _counted

    counted = _counted("inductor", CompileStatsCollector(), {})
    built = {
        "ref": model.compile(backend="inductor", isolate="class"),
        "A/A": model.compile(backend="inductor", isolate="class"),
        "inductor, counted": model.compile(backend=counted, isolate="class"),
        "inductor, frames per instance": model.compile(backend="inductor", isolate="instance"),
        "magi": model.compile(backend=MagiBackend(), isolate="instance"),
    }
    return {name: m.run for name, m in built.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default="resnet50,efficientnet_b0")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--batch", type=int, default=0, help="timm batch (default: the zoo's)")
    parser.add_argument("--host-profile", action="store_true", help="cProfile of ref and magi")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("zoo_timing.py times on a GPU; none here")
        return 0
    print(f"device: {device_name('cuda')}, torch {torch.__version__}")
    for name in args.models.split(","):
        options = {"batch": args.batch} if args.batch else {}
        model = zoo.load(name, "full", device="cuda", dtype=torch.bfloat16, **options)
        fns = copies(model)
        for fn in fns.values():  # compile every copy first
            fn()
        _sync()
        print(f"\n{name}: each copy against `ref` (measure_pair, {args.rounds} rounds)")
        print(
            f"{'copy':<32} {'ratio':>7} {'spread':>7} {'wall ms':>8} {'host ms':>8} "
            f"{'kernel ms':>9} {'idle':>6}"
        )
        for label, fn in fns.items():
            ratio = spread = float("nan")
            if label != "ref":
                s = measure_pair((fns["ref"], fn), rounds=args.rounds, device="cuda")
                ratio, spread = s.ratio, s.spread
            wall, host, kern = wall_ms(fn), host_ms(fn), kernel_ms(fn)
            print(
                f"{label:<32} {ratio:>7.3f} {spread:>7.1%} {wall:>8.3f} {host:>8.3f} "
                f"{kern:>9.3f} {max(0.0, 1 - kern / wall):>6.0%}",
                flush=True,
            )
        if args.host_profile:
            for label in ("ref", "magi"):
                print(f"  host profile of {label} (20 calls, by own time):")
                print(host_profile(fns[label]), flush=True)
        del fns
        for label, candidate in (("ZooPair A/A", "inductor"), ("ZooPair magi", "magi")):
            pair = zoo.ZooPair(model, candidate=candidate)
            s = measure_pair(pair, rounds=args.rounds)
            print(
                f"{label:<32} {s.ratio:>7.3f} {s.spread:>7.1%}  baseline {s.baseline_ms:.3f} ms, "
                f"candidate {s.candidate_ms:.3f} ms",
                flush=True,
            )
            del pair
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
