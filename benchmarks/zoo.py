"""The zoo benchmark: torch.compile and magi on the project's and the zoo's models, by mode.

    python benchmarks/zoo.py codegen          # any machine: kernels, passes, compile health, GPU ratio
    python benchmarks/zoo.py timing           # a GPU: every variant timed against torch.compile
    python benchmarks/zoo.py --help           # every mode; zoo.py MODE --help: its options

The modes live in `pytest_magi.bench` (one module each, usable without this script). The GPU
ratios `codegen` prints beside each model are `benchmarks/results/gpu_ratios.json`, which
`timing --record-ratios benchmarks/results/gpu_ratios.json` rewrites on a GPU.
"""

from __future__ import annotations

from pathlib import Path

from pytest_magi.bench.cli import main

GPU_RATIOS = Path(__file__).resolve().parent / "results" / "gpu_ratios.json"

if __name__ == "__main__":
    raise SystemExit(main(gpu_ratio_file=GPU_RATIOS))
