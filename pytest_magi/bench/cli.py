"""`benchmarks/zoo.py MODE [options]`: one command line over the zoo benchmark's modes."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path

# mode -> (module of pytest_magi.bench, arguments put in front of the user's, what it does)
MODES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "codegen": ("codegen", (), "what the passes do to the CUDA code of every model (any machine)"),
    "timing": ("timing", (), "eager, torch.compile and magi variants timed side by side (GPU)"),
    "profile": ("timing", ("--profile",), "timing, and each variant's time per kernel class"),
    "numerics": ("numerics", (), "each stage of torch.compile against a higher-precision run"),
    "locate": ("numerics", ("--locate",), "where a compiled model's numbers go wrong"),
    "never-slower": ("never_slower", (), "magi with measured decisions vs torch.compile"),
    "compile-time": ("compile_time", (), "where a model's compile time goes (fake CUDA)"),
    "cold-compile": ("cold_compile", (), "each first compile in a fresh process, and warm starts"),
    "budget-check": ("budget_check", (), "perf budget estimates against the GPU, pair by pair"),
    "census": ("census", (), "the Wan decoder's form chunk by chunk: launches, bytes (fake CUDA)"),
    "passes": ("passes", (), "the project's own models, static and dynamic, each pass alone"),
    "conv": ("conv", (), "a model's convolutions: kernels, clocks, cudnn.benchmark (GPU)"),
    "conv-layout": ("conv_layout", (), "conv3d time by input layout on the Wan shapes (GPU)"),
}


def usage() -> str:
    width = max(map(len, MODES))
    lines = [f"  {name:<{width}}  {help_}" for name, (_, _, help_) in MODES.items()]
    return (
        "usage: zoo.py MODE [options]   (zoo.py MODE --help: the mode's options)\n\nmodes:\n"
        + "\n".join(lines)
    )


def main(argv: list[str] | None = None, *, gpu_ratio_file: Path | None = None) -> int:
    """Run mode ``argv[0]`` with the rest of ``argv``; ``gpu_ratio_file`` is the codegen mode's
    default GPU-ratio file."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    mode, rest = argv[0], argv[1:]
    if mode not in MODES:
        print(f"zoo.py: unknown mode {mode!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module_name, front, _ = MODES[mode]
    module = importlib.import_module(f"pytest_magi.bench.{module_name}")
    run: Callable[..., int] = module.main
    if module_name == "codegen":
        return int(run(rest, gpu_ratio_file=gpu_ratio_file))
    if module_name == "timing":
        return int(run([*front, *rest], prog=f"zoo.py {mode}"))
    return int(run([*front, *rest]))
