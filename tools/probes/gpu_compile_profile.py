"""Where a zoo model's cold compile spends its time on the GPU, one side per process (session 34).

On an H100 (torch 2.11, session 34) HunyuanVideo's decoder compiled cold in its magi form in
45.4 and 48.1 s against torch.compile's 36.2 and 36.5 s, and Inductor's fusion phase
(`Scheduler.__init__`) took 9.5-11.4 s under magi against 7.6-7.8 s; in fake CUDA on torch 2.13
(`frame_compile_time.py`) both sides' fusion took 3.5 s. This compiles the model's full-size
decode (bf16, random weights) on the GPU as one side (`torch.compile` or `magi_compile`, as
users call them) under cProfile and prints the first call's wall time, dynamo's phases and the
functions that took the most time, by cumulative and by own time. Give
each side a process and an empty cache of its own (TORCHINDUCTOR_CACHE_DIR, TRITON_CACHE_DIR).

Session 35 (H100, torch 2.11): magi's frame compile spent 2.2-2.4 s more than torch.compile's
outside dynamo's tracing, AOT dispatch and Inductor, with or without cProfile (so not Python
work that the profiler slows), and fake CUDA does not show it (`frame_compile_time.py`:
0.1-0.9 s on either side, torch 2.11 and 2.13). A third listing therefore shows dynamo's, AOT
autograd's, the backend's and the caches' functions, and ``--stats FILE`` keeps the whole
profile (`pstats`) for reading after the GPU machine is gone; the phases line includes the
garbage collector's pauses.

Run: `python tools/probes/gpu_compile_profile.py hunyuanvideo-vae magi`.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import pstats
import sys
import time
from pathlib import Path

import torch

from pytest_magi import zoo
from pytest_magi.compile_phases import compile_phases, summary

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frame_compile_time import compiled_owner  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("side", choices=("torch.compile", "magi"))
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--size", default="full")
    parser.add_argument("--device", default="cuda", help="cpu: to try the probe itself")
    parser.add_argument("--stats", help="write the whole profile here (pstats.Stats reads it)")
    args = parser.parse_args()
    model = zoo.load(args.model, args.size, device=args.device, dtype=torch.bfloat16)
    sync = torch.cuda.synchronize if args.device == "cuda" else (lambda: None)
    # Inductor imported first: torch.compile(module) imports it itself, magi_compile at the first
    # call (session 36: 158 modules, 2.2-2.9 s of magi's "rest of the frame compiles" here)
    importlib.import_module("torch._inductor.compile_fx")

    owner, _ = compiled_owner(model, model.owner, args.side)
    profiler = cProfile.Profile()
    sync()
    started = time.perf_counter()
    with torch.no_grad(), compile_phases() as spent:
        profiler.enable()
        try:
            model.spec.run(owner, model.inputs)
            sync()
        finally:
            profiler.disable()
    took = time.perf_counter() - started
    print(f"{args.model} {args.side}: first call {took:.1f} s under cProfile; {summary(spent)}")
    name = torch.cuda.get_device_name() if args.device == "cuda" else args.device
    print(f"torch {torch.__version__}, {name}")
    if args.stats:
        profiler.dump_stats(args.stats)
    listings = (
        # Inductor's, Triton's and the passes' own functions (the wrappers above them say little)
        ("cumulative", r"_inductor|magi_passes|triton|sympy"),
        ("tottime", r"_inductor|magi_passes|triton|sympy"),
        # the frame compile outside Inductor: dynamo, AOT autograd, the backend, the caches
        ("cumulative", r"_dynamo|_functorch|_guards|magi_passes/backend|codecache|pickle"),
    )
    for sort, functions in listings:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats(sort)
        stats.print_stats(functions, args.lines)
        print(f"== by {sort}, {functions}\n{out.getvalue()}")


if __name__ == "__main__":
    main()
