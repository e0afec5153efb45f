"""Which step of `MagiBackend.__call__` slows Inductor's pattern matcher (session 43).

MiniMax-H3's decoder compiled in fake CUDA on the CPU (`frame_compile_time.py`'s setup: full
size, bf16, generate only), the collector off, under cProfile, once per named variant in one
process; each prints the own time of the pattern matcher's ``MatchContext.match`` (the same
352,351 calls in every variant) beside the dynamo phases. Each variant is a plain function
that does part of what ``MagiBackend.__call__`` does and then calls `MagiBackend._compile`:
- ``A``: `_split_options`, `_plain_config`;
- ``B``: `_split_options`, a `Decider`'s ``training`` and ``blocked``, `_device_name`,
  ``decided_for`` / ``decided_plain_for``;
- ``C``: `_split_options`, `_check_one_device`, `warm_compile_workers`;
- ``D``: `_split_options`, the read of ``triton.cudagraphs`` from Inductor's config;
- ``E``: `_split_options`, then ``_keep(_compile(...))``;
- ``magi``: the backend itself, called from the function.
Session 43 (torch 2.13): A-E 0.31-0.33 s, ``magi`` 1.03 s (and a `MagiBackend` handed to
torch.compile 0.70-0.73 s against `_compile`'s 0.32-0.34 in four processes): docs/benchmarks.md
"Session 43".

Run: ``python tools/probes/backend_call_bisect.py A,B,C,D,E,magi`` (about 70 s a variant).
"""

from __future__ import annotations

import argparse
import gc
import os
import pstats
import sys
from collections.abc import Callable
from typing import Any

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import frame_compile_time  # noqa: E402  (this folder's probe)

from magi_passes import backend as magi_backend  # noqa: E402
from magi_passes.decisions import Decider  # noqa: E402
from pytest_magi import zoo  # noqa: E402

NAMES = ("A", "B", "C", "D", "E", "magi")


def variant(name: str) -> Callable[..., Any]:
    made = magi_backend.MagiBackend()

    def compile_(gm: torch.fx.GraphModule, inputs: list[Any]) -> Any:
        inputs = list(inputs)
        config, extra = magi_backend._split_options({}, None)
        if name == "A":
            magi_backend._plain_config(config)
        elif name == "B":
            decider = Decider()
            device = magi_backend._device_name(inputs)
            decider.training(inputs)
            config.decided_for(device)
            config.decided_plain_for(device)
            decider.blocked(inputs, {"triton.cudagraphs": False})
        elif name == "C":
            magi_backend._check_one_device(inputs)
            magi_backend.warm_compile_workers(extra)
        elif name == "D":
            extra.get("triton.cudagraphs", torch._inductor.config.triton.cudagraphs)
        elif name == "E":
            return made._keep(made._compile(gm, inputs, config, extra), "probe")
        elif name == "magi":
            return made(gm, inputs)
        return made._compile(gm, inputs, config, extra).fn

    return compile_


def match_seconds(stats: str) -> float:
    """Own time of the pattern matcher's `MatchContext.match` in a saved profile."""
    from torch._inductor.pattern_matcher import MatchContext

    line = MatchContext.match.__code__.co_firstlineno
    return sum(
        row[2]
        for (path, first, function), row in pstats.Stats(stats).stats.items()  # type: ignore[attr-defined]
        if function == "match" and first == line and path.endswith("pattern_matcher.py")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", help=f"comma-separated, each of {', '.join(NAMES)}")
    parser.add_argument("--stats", default="/tmp", help="folder for each variant's profile")
    args = parser.parse_args()
    variants = args.variants.split(",")
    unknown = [v for v in variants if v not in NAMES]
    if unknown:
        parser.error(f"unknown variants {unknown}; give names from {', '.join(NAMES)}")
    model = zoo.load("minimax-h3-vae", "full", dtype=torch.bfloat16)
    print(f"torch {torch.__version__}; fake CUDA, generate only; minimax-h3-vae full, bf16")
    for i, name in enumerate(variants):
        compiling = variant(name)
        stats = os.path.join(args.stats, f"backend_call_{i}_{name}.pstats")
        gc.disable()
        try:
            text = frame_compile_time.compile_once(model, name, False, stats, compiling)
        finally:
            gc.enable()
        print(f"{name:<5} match own time {match_seconds(stats):.2f} s\n{text}", flush=True)


if __name__ == "__main__":
    main()
