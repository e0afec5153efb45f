"""Where the Wan 2.2 decode's compile time goes, magi against torch.compile (GPU probe, issue 18).

For each side: the first call (the compile users wait for) and the second call timed, with every
graph its backend compiled recorded per call, Inductor's FX-graph-cache hits and misses, and
dynamo's own phase table (`torch._dynamo.utils.compile_times`). On the magi side each graph's
record says how it was decided and how long each part took (the variant that runs, the variant
compiled only to be timed, the timing). Then the two sides timed on the device side by side,
each beside its relative L2 from an fp32 decode and eager's.
Run: `python tools/probes/wan_compile_time.py --frames 3`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi import zoo  # noqa: E402
from pytest_magi.numerics import _relative_l2, bound_for, reference_outputs  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402


def fx_cache_counts() -> dict[str, int]:
    from torch._dynamo.utils import counters

    return {k: int(v) for k, v in counters["inductor"].items() if k.startswith("fxgraph_cache")}


class InductorCounter:
    """Counts and times the graphs a plain Inductor side compiles."""

    def __init__(self) -> None:
        self.graphs: list[float] = []

    def __call__(self, gm: torch.fx.GraphModule, inputs: list) -> object:
        from torch._inductor.compile_fx import compile_fx

        started = time.perf_counter()
        out = compile_fx(gm, inputs)
        self.graphs.append(time.perf_counter() - started)
        return out


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def timed_call(model: zoo.ZooModel) -> float:
    _sync()
    started = time.perf_counter()
    model.run()
    _sync()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sides", default="torch.compile,magi")
    parser.add_argument("--size", default="full", help="tiny: a dry run on the CPU")
    args = parser.parse_args()
    torch._logging.set_logs(recompiles=True)  # why a later call compiles again
    from torch._dynamo.utils import compilation_time_metrics, counters

    device = "cuda" if torch.cuda.is_available() else "cpu"

    print(f"{device_name()}, torch {torch.__version__}, bf16, T={args.frames}", flush=True)
    model = zoo.load(
        "wan2.2-vae", args.size, device=device, dtype=torch.bfloat16, frames=args.frames
    )
    reference = reference_outputs(model.as_module(), model.inputs, torch.float32, True)
    eager_err = _relative_l2(model.run(), reference)
    print(f"eager rel-L2 vs fp32 {eager_err:.3e}; bound {bound_for(eager_err, torch.bfloat16):.3e}")
    compiled = {}
    for side in args.sides.split(","):
        counters.clear()
        compilation_time_metrics.clear()
        if side == "magi":
            backend = MagiBackend(PassConfig.from_env())
            cm = model.compile(backend=backend, isolate="instance")
        else:
            backend = InductorCounter()
            cm = model.compile(backend=backend, isolate="class")
        first = timed_call(cm)
        graphs_first = len(backend.managers if side == "magi" else backend.graphs)
        text_first = backend.seconds_text() if side == "magi" else ""
        cache_first = fx_cache_counts()
        second = timed_call(cm)
        graphs_second = len(backend.managers if side == "magi" else backend.graphs)
        third = timed_call(cm)
        graphs_third = len(backend.managers if side == "magi" else backend.graphs)
        err = _relative_l2(cm.run(), reference)
        print(
            f"== {side}: first call {first:.1f} s ({graphs_first} graphs compiled); second "
            f"call {second:.2f} s ({graphs_second - graphs_first} more graphs); third {third:.2f} s "
            f"({graphs_third - graphs_second} more); rel-L2 {err:.3e}"
        )
        print(
            f"   fx graph cache after the first call: {cache_first}; recompiles "
            f"{dict(counters['recompiles'])}"
        )
        if side == "magi":
            print(f"   first call: {text_first}")
            print(f"   three calls: {backend.seconds_text()}")
            print(f"   decisions: {Counter((d.source, d.choice) for d in backend.decisions)}")
            for i, (d, m) in enumerate(zip(backend.decisions, backend.managers, strict=True)):
                fired = [r.name for rs in m.history for r in rs if r.applied]
                times = f"magi {d.magi_ms:.3f} plain {d.plain_ms:.3f} ms" if d.magi_ms else ""
                print(
                    f"   graph {i:2d}: {d.source:8s} {d.choice:5s} {times:30s} "
                    f"history {len(m.history)} fired {sorted(set(fired))}"
                )
        else:
            print(f"   per-graph compile s: {[round(s, 1) for s in backend.graphs]}")
        phases = sorted(((sum(v), k) for k, v in compilation_time_metrics.items()), reverse=True)[
            :25
        ]
        print("   dynamo/inductor phases (s): " + "; ".join(f"{k} {t:.1f}" for t, k in phases))
        compiled[side] = cm
    if len(compiled) == 2:
        base, cand = (compiled[s] for s in args.sides.split(","))
        sp = measure_pair((base.run, cand.run), rounds=args.rounds)
        print(f"timing: {sp}", flush=True)


if __name__ == "__main__":
    main()
