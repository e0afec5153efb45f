"""Which of the Wan 2.2 decode's ops run outside every compiled graph (CPU, no GPU; session 23).

The decode as `magi_compile` isolates it (a dynamo frame per module instance), tiny size, T
latent frames, compiled with a recording backend whose graphs run inside a
`## Call CompiledFxGraph` range (Inductor's own name, so `pytest_magi.profiling` places them
the same way). One decode runs under the CPU profiler; each top-level ATen op is counted as
in a graph, in a compiled frame outside its graphs ("frame"), or outside compiled frames
("eager"). Twice: as `magi_passes.frames` isolates today (torch's own modules reached from
eagerly run code get frames of their own), and with that off (`--before`, torch's files kept).

On torch 2.11 the upsamplers' `if feat_cache[idx] == "Rep":` is a graph break dynamo cannot
resume from ("skipping the rest of the function"). The rest of `WanResample.forward` then runs
eagerly, and its `nn.Sequential`/`nn.Conv2d`, whose frames dynamo skips by file, ran eagerly
too: on an H100, 5.2 ms of every further latent frame, 1.3 ms of it the separate bias kernel
and cuDNN's layout transposes (docs/benchmarks.md, "Session 23").
Torch 2.13 traces the comparison without a break: there every op is in a graph either way.
`--dynamo-fix` runs the decode inside `magi_passes.dynamo_fixes.tensor_constant_compare` (what
`magi_compile` does since session 24): on torch 2.11, 3 graphs for T=4 instead of 35.
Run: `python tools/probes/eager_rest_frames.py [--frames 4] [--before] [--dynamo-fix]`; with
torch 2.11 installed beside the project (e.g. a venv), `TORCH_LOGS=graph_breaks` shows the break.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import sys
from pathlib import Path
from typing import Any

import torch
from torch.profiler import ProfilerActivity, profile, record_function

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from magi_passes import dynamo_fixes, frames  # noqa: E402
from pytest_magi import zoo  # noqa: E402

OPS = ("aten::conv2d", "aten::conv3d", "aten::silu", "aten::add", "aten::add_", "aten::cat")


def count_ops(
    frames_count: int, dynamo_fix: bool = False
) -> tuple[collections.Counter[tuple[str, str, str]], int]:
    """{(where, op, first input shape): calls} over one decode, and the graphs compiled."""
    model = zoo.load("wan2.2-vae", "tiny", frames=frames_count)
    frames.isolate_forward_code(model.module, per="instance")
    graphs: list[torch.fx.GraphModule] = []

    def backend(gm: torch.fx.GraphModule, inputs: list[Any]) -> Any:
        graphs.append(gm)
        name = f"## Call CompiledFxGraph probe{len(graphs)} ##"

        def run(*args: Any) -> Any:
            with record_function(name):
                return gm.forward(*args)

        return run

    model.module.forward = torch.compile(model.module.forward, backend=backend)
    torch._dynamo.reset()
    fix = dynamo_fixes.tensor_constant_compare() if dynamo_fix else contextlib.nullcontext()
    with torch.no_grad(), fix:
        model.run()
        model.run()  # the second call compiles the paths the first chunk did not take
        with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
            model.run()
    events = prof.events()
    graph_ranges = [
        (e.time_range.start, e.time_range.end)
        for e in events
        if e.name.startswith("## Call CompiledFxGraph")
    ]
    frame_ranges = [
        (e.time_range.start, e.time_range.end)
        for e in events
        if e.name.startswith("Torch-Compiled Region")
    ]

    def inside(t: float, ranges: list[tuple[float, float]]) -> bool:
        return any(a <= t <= b for a, b in ranges)

    counts: collections.Counter[tuple[str, str, str]] = collections.Counter()
    for e in events:
        if e.name not in OPS:
            continue
        parent = e.cpu_parent
        if parent is not None and parent.name.startswith("aten::"):
            continue  # called by another ATen op (conv2d's convolution, say)
        t = e.time_range.start
        where = (
            "graph" if inside(t, graph_ranges) else "frame" if inside(t, frame_ranges) else "eager"
        )
        shape = str(e.input_shapes[0]) if e.input_shapes else ""
        counts[(where, e.name, shape)] += 1
    torch._dynamo.reset()
    return counts, len(graphs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=4, help="latent frames of the decode")
    parser.add_argument(
        "--before", action="store_true", help="also run with torch's files kept (the old frames)"
    )
    parser.add_argument(
        "--dynamo-fix",
        action="store_true",
        help="trace inside magi_passes.dynamo_fixes.tensor_constant_compare (as magi_compile)",
    )
    args = parser.parse_args(argv)
    print(f"torch {torch.__version__}; tiny Wan 2.2 decode, T={args.frames}")
    runs = [("frames for torch.nn modules (today)", None)]
    if args.before:
        runs.append(("torch's files kept (before session 23)", lambda filename: filename))
    original = frames.frame_filename
    for label, replacement in runs:
        if replacement is not None:
            frames.frame_filename = replacement  # type: ignore[assignment]
        try:
            counts, graphs = count_ops(args.frames, args.dynamo_fix)
        finally:
            frames.frame_filename = original  # type: ignore[assignment]
        print(f"\n{label}: {graphs} graphs compiled")
        outside = {k: v for k, v in counts.items() if k[0] != "graph"}
        inside = sum(v for k, v in counts.items() if k[0] == "graph")
        print(f"  {inside} of the listed ops ran in graphs; outside them:")
        for (where, op, shape), n in sorted(outside.items()):
            print(f"  {n:3d} x {op:<14} {where:<6} {shape}")
        if not outside:
            print("  none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
