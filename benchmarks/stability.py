"""Stability check of the timing engine (issue 3): the same pair measured twice in one run.

The pair is ``VAEDecoderLike`` compiled with plain Inductor (baseline) and with the magi passes
(candidate), static shapes. Both measurements use ``pytest_magi.timing.measure_pair`` with the same
settings; their ratios should agree within 2% on a quiet GPU.

    python benchmarks/stability.py                      # 540p, bf16 on CUDA; tiny, fp32 on CPU
    python benchmarks/stability.py --preset tiny --json stability.json
    python benchmarks/stability.py --check               # exit 1 when the ratios differ > 2%
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import torch

from pytest_magi.models import VAE_PRESETS, VAEDecoderLike
from pytest_magi.pair import CompiledPair
from pytest_magi.timing import DEFAULT_ROUNDS, Speedup, device_name, measure_pair

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
TARGET = 0.02


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    cuda = torch.cuda.is_available()
    parser = argparse.ArgumentParser(
        description="Measure one VAEDecoderLike pair (Inductor vs magi) twice and compare the ratios"
    )
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda" if cuda else "cpu")
    parser.add_argument(
        "--preset",
        choices=sorted(VAE_PRESETS),
        default=None,
        help="default: 540p on CUDA, tiny on CPU",
    )
    parser.add_argument(
        "--dtype", choices=sorted(DTYPES), default=None, help="default: bf16 on CUDA, fp32 on CPU"
    )
    parser.add_argument(
        "--rounds", type=int, default=DEFAULT_ROUNDS, help="interleaved rounds per measurement"
    )
    parser.add_argument("--target-ms", type=float, default=None, help="time per side per round")
    parser.add_argument(
        "--target", type=float, default=TARGET, help="allowed relative difference of the two ratios"
    )
    parser.add_argument(
        "--json", metavar="PATH", default=None, help="also write the results as JSON to PATH"
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when the ratios differ by more than --target"
    )
    args = parser.parse_args(argv)
    if args.device == "cuda" and not cuda:
        parser.error("--device cuda but torch.cuda.is_available() is False; use --device cpu")
    args.preset = args.preset or ("540p" if args.device == "cuda" else "tiny")
    args.dtype = args.dtype or ("bf16" if args.device == "cuda" else "fp32")
    return args


def relative_difference(a: float, b: float) -> float:
    """|a - b| over their mean."""
    return abs(a - b) / ((a + b) / 2)


def run(args: argparse.Namespace) -> dict[str, Any]:
    torch.manual_seed(0)
    dtype = DTYPES[args.dtype]
    model = VAEDecoderLike(args.preset).to(device=args.device, dtype=dtype).eval()
    x = model.example_input(device=args.device, dtype=dtype)
    label = f"VAEDecoderLike[{args.preset}, {args.dtype}, static]"
    start = time.perf_counter()
    pair = CompiledPair.build(model, x, label=label)
    compile_s = time.perf_counter() - start
    measurements: list[Speedup] = [
        measure_pair(pair, rounds=args.rounds, target_ms=args.target_ms) for _ in range(2)
    ]
    diff = relative_difference(measurements[0].ratio, measurements[1].ratio)
    return {
        "pair": label,
        "device": device_name(args.device),
        "torch_version": torch.__version__,
        "compile_s": compile_s,
        "kernel_counts": pair.kernel_counts,
        "measurements": [m.to_dict() for m in measurements],
        "relative_difference": diff,
        "target": args.target,
        "within_target": diff <= args.target,
    }


def format_table(result: dict[str, Any]) -> str:
    lines = [
        f"stability of {result['pair']} on {result['device']}, torch {result['torch_version']} "
        f"(compiled in {result['compile_s']:.1f} s, kernels {result['kernel_counts']})",
        f"{'measurement':<12} {'ratio':>8} {'baseline ms':>12} {'candidate ms':>13} "
        f"{'spread':>8} {'rounds':>7} {'reps':>6}",
    ]
    for i, m in enumerate(result["measurements"], 1):
        lines.append(
            f"{i:<12} {m['ratio']:>7.3f}x {m['baseline_ms']:>12.4f} {m['candidate_ms']:>13.4f} "
            f"{m['spread']:>8.1%} {m['rounds']:>7} {m['repetitions']:>6}"
        )
    verdict = "within target" if result["within_target"] else "OUTSIDE target"
    lines.append(
        f"relative difference of the ratios: {result['relative_difference']:.2%} "
        f"(target <= {result['target']:.0%}): {verdict}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = run(args)
    print(format_table(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
        print(f"wrote {args.json}")
    return 1 if args.check and not result["within_target"] else 0


if __name__ == "__main__":
    sys.exit(main())
