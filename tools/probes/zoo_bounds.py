"""Fake-CUDA code of zoo models at full size, bf16: accesses past a buffer, plain vs magi.

For each model (comma-separated names of `pytest_magi.zoo`), the whole decode's CUDA code is
generated without a GPU, plain Inductor and with the magi passes (decisions off), and
`pytest_magi.bounds.out_of_bounds` is run on every captured graph. Prints, per side, the graphs,
the accesses checked and those found past a buffer (the first three of them).
Run: `python tools/probes/zoo_bounds.py cogvideox-vae,mochi-vae` (30-80 s a side on 2 cores).
Session 28's run on torch 2.13: docs/results/session28/zoo_bounds_213.log.
"""

from __future__ import annotations

import sys
import time

import torch

from magi_passes import PassConfig
from pytest_magi import zoo
from pytest_magi.bounds import accesses_checked, out_of_bounds
from pytest_magi.codegen import inductor_codegen

print("torch", torch.__version__, flush=True)
for name in sys.argv[1].split(","):
    for side, cfg in (("plain", None), ("magi", PassConfig(measure_decisions=False))):
        t0 = time.time()
        try:
            model = zoo.load(name, "full", dtype=torch.bfloat16)
            with torch.no_grad():
                code = inductor_codegen(model.as_module(), *model.inputs, config=cfg)
        except Exception as exc:
            print(
                f"{name} {side}: cannot generate: {type(exc).__name__}: {str(exc)[:150]}",
                flush=True,
            )
            continue
        found = [f for g in code.captured for f in out_of_bounds(g)]
        checked = sum(accesses_checked(g) for g in code.captured)
        print(
            f"{name} {side}: graphs {len(code.captured)} checked {checked} past a buffer {len(found)} ({time.time() - t0:.0f} s)",
            flush=True,
        )
        for f in found[:3]:
            print("    ", str(f)[:260], flush=True)
