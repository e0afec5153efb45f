"""Passes mode of the zoo benchmark: the project's own models (`pytest_magi.models`), static and
dynamic H/W, eager vs torch.compile vs magi vs each pass alone.

    python benchmarks/zoo.py passes                      # VAEDecoderLike 540p bf16 on a GPU
    python benchmarks/zoo.py passes --model wan --modes dynamic --breakdown
    python benchmarks/zoo.py passes --preset tiny --device cpu --rounds 3 --json out.json

For each mode (static shapes; dynamic latent H/W) every variant is compiled once (compile time =
first call, synchronised, with Inductor's and Triton's caches off so no variant reuses another's
kernels; `--warm-compile` keeps them), then each variant is timed against `torch.compile` of the
same mode with `pytest_magi.timing.measure_pair` (interleaved rounds, L2 flushed between
repetitions on CUDA; the protocol of `--magi-perf`). A variant's time is its median over rounds;
its speedup the median of the per-round ratios. `torch.compile-copy`, a second torch.compile
copy, is the A/A pair: the harness's own error, which must read 1.00. Kernel counts are the
kernels defined in the code each variant generated (`pytest_magi.capture.core.capture_output_code`,
`pytest_magi.capture.kernels.count_kernels`: Triton kernels on CUDA, C++ kernels on CPU).

`--breakdown` (GPU) also profiles 10 calls of torch.compile and magi per mode and prints their
top kernels by device time with their share of the total.

A CPU timing says little about passes that rewrite CUDA code; on a machine without a GPU it
needs `--device cpu`, and `codegen` is the mode that says what a CPU can say truly.
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from magi_passes import MagiBackend, PassConfig
from pytest_magi.capture.core import capture_output_code
from pytest_magi.capture.kernels import count_kernels
from pytest_magi.measure.timing import measure_pair
from pytest_magi.models import VAEDecoderLike, WanCausalStage

_ALL_OFF = dict(
    enable_conv_channels_last=False,
    enable_nd_tiling=False,
    enable_dynamic_reshape=False,
)
# each pass alone: every enable_* flag off but its own
ONLY: dict[str, dict[str, Any]] = {
    "channels-last": {**_ALL_OFF, "enable_conv_channels_last": True},
    "nd-tiling": {**_ALL_OFF, "enable_nd_tiling": True},
    "dynamic-reshape": {**_ALL_OFF, "enable_dynamic_reshape": True},
}


@dataclass
class Variant:
    name: str
    mode: str
    make: Callable[[torch.nn.Module], Callable[..., Any]]
    fn: Callable[..., Any] | None = None
    compile_s: float = 0.0
    kernels: int | None = None
    times: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    backend: MagiBackend | None = None
    max_abs_err: float = 0.0


def variants_for(mode: str, selected: set[str] | None) -> list[Variant]:
    def magi(config: PassConfig) -> Callable[[torch.nn.Module], Callable[..., Any]]:
        def make(model: torch.nn.Module) -> Callable[..., Any]:
            backend = MagiBackend(config)
            fn = torch.compile(model, backend=backend)
            fn.magi_backend = backend  # type: ignore[attr-defined]
            return fn

        return make

    out = [
        Variant("eager", mode, lambda m: m),
        Variant("torch.compile", mode, lambda m: torch.compile(m, backend="inductor")),
        Variant("torch.compile-copy", mode, lambda m: torch.compile(m, backend="inductor")),
        Variant("magi", mode, magi(PassConfig())),
    ]
    for name, fields_ in ONLY.items():
        out.append(Variant(f"magi[{name}]", mode, magi(PassConfig(**fields_))))
    if mode == "dynamic":
        out.append(
            Variant(
                "magi[+nd-tiling]",
                mode,
                magi(PassConfig(nd_tiling_with_channels_last=True)),
            )
        )
    if selected:
        out = [v for v in out if v.name in selected or v.name == "torch.compile"]
    return out


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def run_mode(
    model: torch.nn.Module,
    make_input: Callable[[], torch.Tensor],
    dynamic_dims: tuple[int, ...],
    mode: str,
    args: argparse.Namespace,
    device: torch.device,
) -> list[Variant]:
    variants = variants_for(mode, set(args.variants.split(",")) if args.variants else None)
    x = make_input()
    if mode == "dynamic":
        for d in dynamic_dims:
            torch._dynamo.mark_dynamic(x, d)
    with torch.no_grad():
        reference = model(x).float()
        for v in variants:
            torch._dynamo.reset()
            sync(device)
            t0 = time.perf_counter()
            cold = torch._inductor.config.patch(force_disable_caches=args.cold_compile)
            sources: list[str] = []
            with capture_output_code(sources.append), cold:
                v.fn = v.make(model)
                out = v.fn(x)
                sync(device)
            v.compile_s = time.perf_counter() - t0
            v.kernels = None if v.name == "eager" else sum(count_kernels(s) for s in sources)
            v.backend = getattr(v.fn, "magi_backend", None)
            v.max_abs_err = float((out.float() - reference).abs().max())
            print(
                f"  compiled {mode:8s} {v.name:32s} {v.compile_s:7.1f} s  kernels={v.kernels}",
                flush=True,
            )
        # all variants stay alive; each is timed against torch.compile with measure_pair
        base = next(v for v in variants if v.name == "torch.compile")
        for v in variants:
            base_fn, v_fn = base.fn, v.fn
            assert base_fn is not None and v_fn is not None
            sp = measure_pair(
                (lambda f=base_fn: f(x), lambda f=v_fn: f(x)),
                rounds=args.rounds,
                device=device,
                flush_l2=device.type == "cuda",
            )
            v.times = list(sp.candidate_round_ms)
            v.ratios = list(sp.round_ratios)
            print(f"  timed    {mode:8s} {v.name:32s} {sp}", flush=True)
        if args.breakdown:
            for v in variants:
                if v.name in ("torch.compile", "magi") and v.fn is not None:
                    print(f"\n== {mode} {v.name}: {breakdown(v.fn, x, args.top)}", flush=True)
    return variants


def table(rows: list[Variant]) -> str:
    head = f"{'mode':8s} {'variant':32s} {'median ms':>10s} {'speedup':>8s} {'spread':>7s} {'compile s':>9s} {'kernels':>7s} {'max|err|':>9s}"
    lines = [head, "-" * len(head)]
    for v in rows:
        med = statistics.median(v.times)
        ratio = statistics.median(v.ratios)
        spread = (max(v.ratios) - min(v.ratios)) / ratio if ratio else 0.0
        lines.append(
            f"{v.mode:8s} {v.name:32s} {med:10.3f} {ratio:7.2f}x {spread:6.1%} {v.compile_s:9.1f} "
            f"{'-' if v.kernels is None else v.kernels:>7} {v.max_abs_err:9.2e}"
        )
    return "\n".join(lines)


def breakdown(fn: Callable[..., Any], x: torch.Tensor, top: int, calls: int = 10) -> str:
    """``fn(x)``'s top kernels by device time per call (torch.profiler), with their share."""
    from torch.profiler import ProfilerActivity, profile

    for _ in range(3):
        fn(x)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn(x)
        torch.cuda.synchronize()
    totals: dict[str, float] = collections.defaultdict(float)
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            totals[e.name] += e.device_time_total / calls / 1e3  # ms per call
    total = sum(totals.values())
    rows = sorted(totals.items(), key=lambda kv: -kv[1])[:top]
    lines = [f"{total:.3f} ms of kernels per call"]
    lines += [f"  {ms:7.3f} ms {ms / total:6.1%}  {name[:110]}" for name, ms in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="zoo.py passes",
        description="the project's own models, static and dynamic, each pass alone",
    )
    parser.add_argument("--model", choices=["vae", "wan"], default="vae")
    parser.add_argument("--preset", default=None, help="540p (CUDA default) or tiny (CPU default)")
    parser.add_argument("--modes", default="static,dynamic", help="comma list: static,dynamic")
    parser.add_argument("--variants", default="", help="comma list of variant names to keep")
    parser.add_argument("--rounds", type=int, default=8, help="interleaved timing rounds (>= 3)")
    parser.add_argument("--device", default=None, help="cuda or cpu (default: cuda if available)")
    parser.add_argument("--dtype", default=None, help="bfloat16 (CUDA default) or float32")
    parser.add_argument("--json", default=None, help="write all numbers to this path")
    parser.add_argument(
        "--warm-compile",
        dest="cold_compile",
        action="store_false",
        help="let variants reuse each other's cached kernels (compile times then favour later variants)",
    )
    parser.add_argument(
        "--breakdown", action="store_true", help="top kernels of torch.compile and magi (GPU)"
    )
    parser.add_argument("--top", type=int, default=12, help="kernels a --breakdown table shows")
    args = parser.parse_args(argv)
    if args.rounds < 3:
        parser.error(f"--rounds must be >= 3 (one round is never a verdict), got {args.rounds}")
    if args.device is None and not torch.cuda.is_available():
        parser.error(
            "no CUDA GPU: pass --device cpu to time on this CPU (it says little about passes "
            "that rewrite CUDA code), or run `benchmarks/zoo.py codegen`"
        )
    if args.breakdown and (args.device or "cuda") != "cuda":
        parser.error("--breakdown profiles CUDA kernels; it needs a GPU")
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    preset = args.preset or ("540p" if device.type == "cuda" else "tiny")
    dtype = (
        getattr(torch, args.dtype)
        if args.dtype
        else (torch.bfloat16 if device.type == "cuda" else torch.float32)
    )
    torch.manual_seed(0)
    model_cls = VAEDecoderLike if args.model == "vae" else WanCausalStage
    model = model_cls(preset).to(device=device, dtype=dtype).eval()

    def make_input() -> torch.Tensor:
        torch.manual_seed(1)
        return model.example_input(device=device, dtype=dtype)

    device_name = (
        torch.cuda.get_device_name(device)
        if device.type == "cuda"
        else platform.processor() or platform.machine()
    )
    print(
        f"{args.model} preset={preset} dtype={dtype} device={device_name} torch={torch.__version__}",
        flush=True,
    )
    rows: list[Variant] = []
    # one throwaway compile so CUDA/cuDNN/Triton start-up is not charged to the first variant
    with torch.no_grad():
        torch.compile(lambda t: (t * 2).sum())(torch.ones(8, device=device))
    torch._dynamo.reset()
    with torch._dynamo.config.patch(recompile_limit=64, accumulated_recompile_limit=512):
        for mode in args.modes.split(","):
            if mode not in ("static", "dynamic"):
                parser.error(f"--modes: unknown mode {mode!r}; use static and/or dynamic")
            rows += run_mode(
                copy.deepcopy(model), make_input, model_cls.DYNAMIC_HW, mode, args, device
            )
    print(table(rows))
    gaps = {}
    for name in ("torch.compile", "magi"):
        s = [v for v in rows if v.mode == "static" and v.name == name]
        d = [v for v in rows if v.mode == "dynamic" and v.name == name]
        if s and d:
            gaps[name] = statistics.median(d[0].times) / statistics.median(s[0].times)
            print(f"dynamic / static time, {name}: {gaps[name]:.2f}x")
    if args.json:
        payload = {
            "model": args.model,
            "preset": preset,
            "dtype": str(dtype),
            "device": device_name,
            "torch": torch.__version__,
            "rounds": args.rounds,
            "dynamic_over_static": gaps,
            "rows": [
                {
                    **{
                        k: getattr(v, k)
                        for k in (
                            "name",
                            "mode",
                            "compile_s",
                            "kernels",
                            "times",
                            "ratios",
                            "max_abs_err",
                        )
                    },
                    "median_ms": statistics.median(v.times),
                    "speedup": statistics.median(v.ratios),
                    "pass_results": [
                        str(r) for m in (v.backend.managers if v.backend else []) for r in m.results
                    ],
                }
                for v in rows
            ],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2))
    return 0
