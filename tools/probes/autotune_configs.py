"""Which Triton config each kernel of magi's static compile runs with, and its time, per option.

For one model (the 540p VAEDecoderLike or WanCausalStage, or the 256-channel GroupNorm block),
magi is compiled (decisions off, caches off) once per side: Inductor's heuristics as they are,
`max_autotune_pointwise`, `coordinate_descent_tuning`. After each side's first call the probe
reads the config every Triton kernel it loaded launches with (`CachingAutotuner.launchers`) and
times the side's kernels under the profiler (`pytest_magi.profiling.kernel_times`, 3 calls). The
table joins the sides by kernel name (the same graph generates the same names): per kernel its
config and microseconds per side, slowest first. It locates what `tools/probes/autotune_ab.py`
measures as a whole.

Run: `python tools/probes/autotune_configs.py [--model vae|wan|gn] [--top 25]`.
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import Any

import torch
from torch._inductor.runtime.triton_heuristics import CachingAutotuner

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gn_stats_ab import GroupNormBlock  # noqa: E402

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.models import VAEDecoderLike, WanCausalStage  # noqa: E402
from pytest_magi.profiling import kernel_times  # noqa: E402
from pytest_magi.timing import device_name  # noqa: E402

SIDES = {
    "heuristic": {},
    "autotune": {"max_autotune_pointwise": True},
    "coordesc": {"coordinate_descent_tuning": True},
}


def _autotuners() -> dict[int, Any]:
    """Every live `CachingAutotuner` (a generated kernel with its configs), by id."""
    # `type()`, not `isinstance`: a dead weak proxy among the objects raises on `isinstance`
    return {id(o): o for o in gc.get_objects() if issubclass(type(o), CachingAutotuner)}


def _text(config: Any) -> str:
    blocks = ",".join(f"{k}={v}" for k, v in config.kwargs.items())
    return f"{blocks} w{config.num_warps} s{config.num_stages}"


def _configs(tuners: list[Any]) -> dict[str, str]:
    """`{kernel name: the config it launches with}` for kernels that have launched."""
    out = {}
    for tuner in tuners:
        if not tuner.launchers:
            continue
        name = tuner.inductor_meta.get("kernel_name") or getattr(tuner.fn, "__name__", "?")
        try:
            out[name] = _text(tuner.launchers[0].config)
        except Exception as exc:  # a probe: report what could not be read, keep going
            out[name] = f"unreadable ({type(exc).__name__})"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("vae", "wan", "gn"), default="vae")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print(f"{device_name()}, torch {torch.__version__}, bf16, model {args.model}", flush=True)
    torch.manual_seed(0)
    if args.model == "gn":
        model = GroupNormBlock(256).cuda().eval().to(torch.bfloat16)
        x = torch.randn(1, 256, 7, 136, 240, device="cuda", dtype=torch.bfloat16)
    else:
        cls = {"vae": VAEDecoderLike, "wan": WanCausalStage}[args.model]
        model = cls("540p").cuda().eval().to(torch.bfloat16)
        x = model.example_input(device="cuda", dtype=torch.bfloat16)
    configs: dict[str, dict[str, str]] = {}
    times: dict[str, dict[str, float]] = {}
    with torch.no_grad():
        for side, options in SIDES.items():
            torch._dynamo.reset()
            before = _autotuners()
            fn = torch.compile(
                model, backend=MagiBackend(PassConfig(measure_decisions=False), options)
            )
            with torch._inductor.config.patch(force_disable_caches=True):
                fn(x)
            configs[side] = _configs([t for i, t in _autotuners().items() if i not in before])
            times[side] = {
                name: ms * 1e3 for name, (_, ms) in kernel_times(lambda f=fn: f(x)).items()
            }
            total = sum(times[side].values())
            print(
                f"{side}: {len(configs[side])} Triton kernels, all kernels {total:.1f} us",
                flush=True,
            )
    names = sorted(
        {n for side in SIDES for n in times[side] if n.startswith("triton_")},
        key=lambda n: -times["heuristic"].get(n, 0.0),
    )
    header = " | ".join(f"{side} us | {side} config" for side in SIDES)
    print(f"\n| kernel | {header} |", flush=True)
    for name in names[: args.top]:
        cells = " | ".join(
            f"{times[side].get(name, float('nan')):.1f} | {configs[side].get(name, '?')}"
            for side in SIDES
        )
        print(f"| {name} | {cells} |", flush=True)
    for side in SIDES:
        triton_us = sum(v for n, v in times[side].items() if n.startswith("triton_"))
        print(f"{side}: Triton kernels {triton_us:.1f} us per call", flush=True)


if __name__ == "__main__":
    main()
