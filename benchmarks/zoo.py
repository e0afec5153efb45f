"""The zoo benchmark: eager, torch.compile and magi on real models, side by side in one process.

    python benchmarks/zoo.py                                   # every zoo model, full size, bf16, GPU
    python benchmarks/zoo.py --models wan2.2-vae --wan-frames 2,3,5 --json out.json
    python benchmarks/zoo.py --models efficientnet_b0 --variants magi,magi-no-cl --profile

For each model (`pytest_magi.zoo`, random weights, `.compile()` compiles `.module` in place on a
copy, as users do) every variant is compiled by its first call (compile time: that call,
synchronised; graphs, graph breaks, recompiles and frames that fell back to eager from dynamo's
counters), then timed against torch.compile with `pytest_magi.timing.measure_pair` (interleaved
rounds, CUDA events, L2 flushed, median of per-round ratios, IQR spread). Each row carries the
model's FLOPs (`torch.utils.flop_counter` on a meta copy), its floor at `--peak-tflops` and the
distance from it. For the Wan 2.2 decode, `--wan-frames` times the whole decode at several latent
frame counts and fits the cost of one more latent frame (least-squares slope), against the FLOP
floor of one more frame.

Variants: `torch.compile` (the baseline: `torch.compile(module)` as users write it), `magi`
(`magi_compile(module)`: the passes plus a dynamo frame of its own for every module instance,
`magi_passes.frames`), `magi-backend` (`torch.compile(module, backend="magi")`: the passes
alone), and diagnostic ones: `torch.compile+frames` (frames of their own, no passes: what the
isolation alone buys), `magi-no-cl` (channels-last rewrite off), `magi-cl-always` (the rewrite
forced on conv2d-only graphs too), `magi-weights-once` (weights converted once outside the graph,
the opt-in `channels_last_weights_once`; the default converts them in the graph).
Every compiled copy has code objects of its own, so variants never share dynamo's frames.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi import zoo  # noqa: E402
from pytest_magi.compile_stats import _LIMIT_MARK, LIMIT_LOGGER, _captured  # noqa: E402
from pytest_magi.numerics import (  # noqa: E402
    _relative_l2,
    bound_for,
    reference_outputs,
)
from pytest_magi.pair import _profile_rows  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402

# name -> (PassConfig overrides, or None for plain Inductor; frame isolation of the copy)
VARIANTS: dict[str, tuple[dict[str, Any] | None, str]] = {
    "torch.compile": (None, "class"),
    "torch.compile+frames": (None, "instance"),
    "magi": ({}, "instance"),
    "magi-backend": ({}, "class"),
    "magi-no-cl": ({"enable_conv_channels_last": False}, "instance"),
    "magi-cl-always": ({"channels_last_conv2d_graphs": True}, "class"),
    "magi-cl-always-weights-once": (
        {"channels_last_conv2d_graphs": True, "channels_last_weights_once": True},
        "class",
    ),
    "magi-weights-once": ({"channels_last_weights_once": True}, "instance"),
    "magi-no-workaround": ({"work_around_inductor_bugs": False}, "instance"),
}
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


@dataclass
class Row:
    model: str
    variant: str
    inputs: str
    ms: float
    ratio_vs_compile: float | None
    spread: float | None
    compile_s: float | None
    graphs: int | None
    graph_breaks: int | None
    recompiles: int | None
    flops: int
    floor_ms: float
    passes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def floor_distance(self) -> float:
        return self.ms / self.floor_ms if self.floor_ms else float("nan")


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _compile_stats() -> dict[str, int]:
    from torch._dynamo.utils import counters

    return {
        "graphs": int(counters["stats"].get("unique_graphs", 0)),
        "graph_breaks": int(sum(counters["graph_break"].values())),
        "recompiles": int(counters["recompiles"].get("total", 0))
        if "recompiles" in counters
        else 0,
    }


def _build_variant(model: zoo.ZooModel, variant: str) -> tuple[zoo.ZooModel, MagiBackend | None]:
    overrides, isolate = VARIANTS[variant]
    if overrides is None:
        return model.compile(backend="inductor", isolate=isolate), None
    config = PassConfig.from_env().replace(**overrides) if overrides else PassConfig.from_env()
    backend = MagiBackend(config)
    return model.compile(backend=backend, isolate=isolate), backend


def _first_call(compiled: zoo.ZooModel) -> tuple[float, dict[str, int]]:
    from torch._dynamo.utils import counters

    counters.clear()
    # dynamo's "hit config.recompile_limit" warnings: frames that then run eagerly
    with _captured(LIMIT_LOGGER, _LIMIT_MARK, logging.WARNING) as limit_hits:
        _sync()
        start = time.perf_counter()
        compiled.run()
        _sync()
        seconds = time.perf_counter() - start
    return seconds, {**_compile_stats(), "eager_fallbacks": len(limit_hits.messages)}


def _passes_summary(backend: MagiBackend | None) -> str:
    if backend is None:
        return ""
    fired: dict[str, int] = {}
    for manager in backend.managers:
        for result in manager.results:
            if result.applied:
                fired[result.name] = fired.get(result.name, 0) + 1
    graphs = len(backend.managers)
    return ", ".join(f"{k} {v}/{graphs}" for k, v in fired.items()) or f"none fired ({graphs})"


def bench_model(name: str, args: argparse.Namespace, log: Callable[[str], None]) -> list[Row]:
    dtype = DTYPES[args.dtype]
    device = "cuda" if torch.cuda.is_available() else "cpu"
    options: dict[str, int] = (
        {"frames": args.frames} if args.frames and name == "wan2.2-vae" else {}
    )
    if args.batch and name in ("resnet50", "efficientnet_b0"):
        options["batch"] = args.batch
    model = zoo.load(name, args.size, device=device, dtype=dtype, **options)
    flops = model.flops()
    floor_ms = flops / (args.peak_tflops * 1e12) * 1e3
    shapes = "x".join(str(s) for s in model.inputs[0].shape)
    log(
        f"== {name} ({args.size}, {args.dtype}, input {shapes}): {flops / 1e12:.3f} TFLOP, "
        f"floor {floor_ms:.3f} ms at {args.peak_tflops:g} TFLOP/s"
    )
    with torch.no_grad():
        eager_out = model.run()
    # the numerics every speed number stands beside: each run's distance from a higher-precision
    # run of the same model, held to max(2 x eager's, the dtype's floor) (pytest_magi.numerics)
    high = torch.float64 if dtype == torch.float32 else torch.float32
    reference = reference_outputs(model.as_module(), model.inputs, high, True)
    eager_err = _relative_l2(eager_out, reference)
    bound = bound_for(eager_err, dtype)
    del eager_out
    log(f"  eager: rel-L2 vs {high} {eager_err:.2e}; bound for compiled runs {bound:.2e}")
    rows: list[Row] = []
    compiled: dict[str, zoo.ZooModel] = {}
    for variant in ["torch.compile", *[v for v in args.variants if v != "torch.compile"]]:
        cm, backend = _build_variant(model, variant)
        seconds, stats = _first_call(cm)
        compiled[variant] = cm
        err = _relative_l2(cm.run(), reference)
        verdict = "ok" if err <= bound else "WRONG"
        log(
            f"  {variant:<22} compiled in {seconds:6.1f} s; {stats}; rel-L2 vs {high} {err:.2e} "
            f"({verdict}); {_passes_summary(backend)}"
        )
        rows.append(
            Row(
                name,
                variant,
                shapes,
                0.0,
                None,
                None,
                seconds,
                stats["graphs"],
                stats["graph_breaks"],
                stats["recompiles"],
                flops,
                floor_ms,
                _passes_summary(backend),
                {"rel_l2_vs_reference": err, "eager_rel_l2": eager_err, "numerics": verdict},
            )
        )
    base = compiled["torch.compile"]
    eager_vs = measure_pair((model.run, base.run), rounds=args.rounds)
    rows.insert(
        0,
        Row(
            name,
            "eager",
            shapes,
            eager_vs.baseline_ms,
            1.0 / eager_vs.ratio,
            eager_vs.spread,
            None,
            None,
            None,
            None,
            flops,
            floor_ms,
        ),
    )
    rows[1].ms = eager_vs.candidate_ms
    rows[1].ratio_vs_compile = 1.0
    for row in rows[2:]:
        sp = measure_pair((base.run, compiled[row.variant].run), rounds=args.rounds)
        row.ms, row.ratio_vs_compile, row.spread = sp.candidate_ms, sp.ratio, sp.spread
        row.extra["baseline_ms_same_run"] = sp.baseline_ms
        log(f"  {row.variant:<22} {sp}")
    if args.profile:
        for variant, cm in compiled.items():
            log(profile_breakdown(f"{name} {variant}", cm.run))
    if name == "wan2.2-vae" and args.wan_frames:
        rows.extend(wan_frames(model, compiled, args, log))
    return rows


def wan_frames(
    model: zoo.ZooModel,
    compiled: dict[str, zoo.ZooModel],
    args: argparse.Namespace,
    log: Callable[[str], None],
) -> list[Row]:
    """The decode at several latent frame counts: each variant's cost of one more frame."""
    frames = [int(t) for t in args.wan_frames.split(",")]
    z = model.inputs[0]
    per_frame_flops = model.flops(frames=3) - model.flops(frames=2)
    floor = per_frame_flops / (args.peak_tflops * 1e12) * 1e3
    times: dict[str, list[float]] = {v: [] for v in ["eager", *compiled]}
    rows: list[Row] = []
    for t in frames:
        zt = torch.randn(z.shape[0], z.shape[1], t, *z.shape[3:], device=z.device, dtype=z.dtype)
        runs = {
            "eager": model.with_inputs(zt),
            **{v: m.with_inputs(zt) for v, m in compiled.items()},
        }
        base = runs["torch.compile"]
        for variant, m in runs.items():
            if variant == "torch.compile":
                continue
            sp = measure_pair((base.run, m.run), rounds=args.rounds)
            times[variant].append(sp.candidate_ms)
            if (
                variant == "eager"
                or not times["torch.compile"]
                or len(times["torch.compile"]) < len(times[variant])
            ):
                times["torch.compile"].append(sp.baseline_ms)
            log(
                f"  T={t:>2} {variant:<22} {sp.candidate_ms:9.2f} ms vs torch.compile "
                f"{sp.baseline_ms:9.2f} ms: {sp.ratio:.3f}x (spread {sp.spread:.1%})"
            )
    for variant, ms in times.items():
        if len(ms) >= 2:
            slope = _slope(frames, ms)
            log(
                f"  per further latent frame: {variant:<22} {slope:8.2f} ms "
                f"({slope / floor:.2f}x the {floor:.1f} ms floor of {per_frame_flops / 1e12:.1f} TFLOP)"
            )
            rows.append(
                Row(
                    "wan2.2-vae per frame",
                    variant,
                    f"T={args.wan_frames}",
                    slope,
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                    per_frame_flops,
                    floor,
                )
            )
    return rows


def _slope(xs: list[int], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


KINDS = (
    ("triton", ("triton_",)),
    ("layout (cuDNN)", ("nchwToNhwc", "nhwcToNchw", "ncdhwToNdhwc", "ndhwcToNcdhw")),
    ("conv", ("conv", "cudnn", "xmma", "implicit", "fprop", "winograd", "gemm", "nvjet")),
    ("eager copy", ("direct_copy", "copy_kernel", "transpose")),
    ("cat", ("CatArray",)),
    ("eager pointwise", ("elementwise_kernel", "vectorized_", "reduce_kernel", "norm")),
)


def _kind(kernel: str) -> str:
    lowered = kernel.lower()
    for kind, marks in KINDS:
        if any(m.lower() in lowered for m in marks):
            return kind
    return "other"


def profile_breakdown(label: str, fn: Callable[[], Any], iterations: int = 3) -> str:
    """Kernel time by kind, the top kernels, and the idle share (wall minus kernel time)."""
    from torch.profiler import ProfilerActivity, profile

    fn()
    _sync()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        start = time.perf_counter()
        for _ in range(iterations):
            fn()
        _sync()
        wall_ms = (time.perf_counter() - start) * 1e3 / iterations
    by_kind: dict[str, float] = {}
    kernels: list[tuple[float, int, str]] = []
    for key, us, calls in _profile_rows(prof.key_averages(), cuda=True):
        ms = us / 1e3 / iterations
        by_kind[_kind(key)] = by_kind.get(_kind(key), 0.0) + ms
        kernels.append((ms, calls // iterations, key))
    total = sum(by_kind.values())
    lines = [
        f"  profile {label}: wall {wall_ms:.2f} ms, kernels {total:.2f} ms, "
        f"idle {max(0.0, wall_ms - total):.2f} ms; "
        + ", ".join(f"{k} {v:.2f}" for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1]))
    ]
    for ms, calls, key in sorted(kernels, reverse=True)[:12]:
        lines.append(f"    {ms:8.3f} ms {calls:5d}x  {_kind(key):<11} {key[:110]}")
    return "\n".join(lines)


def format_table(rows: list[Row], device: str) -> str:
    head = (
        f"device: {device}; torch {torch.__version__}\n\n"
        "| model | variant | inputs | ms | vs torch.compile | spread | rel-L2 (numerics) "
        "| compile s | graphs | breaks | TFLOP | floor ms | x floor |\n| --- | --- | --- | ---: "
        "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    out = [head]
    for r in rows:
        ratio = f"{r.ratio_vs_compile:.3f}x" if r.ratio_vs_compile is not None else ""
        spread = f"{r.spread:.1%}" if r.spread is not None else ""
        comp = f"{r.compile_s:.1f}" if r.compile_s is not None else ""
        err = r.extra.get("rel_l2_vs_reference")
        numerics = f"{err:.2e} ({r.extra['numerics']})" if err is not None else ""
        out.append(
            f"| {r.model} | {r.variant} | {r.inputs} | {r.ms:.3f} | {ratio} | {spread} | "
            f"{numerics} | {comp} | {r.graphs if r.graphs is not None else ''} | "
            f"{r.graph_breaks if r.graph_breaks is not None else ''} | {r.flops / 1e12:.2f} | "
            f"{r.floor_ms:.2f} | {r.floor_distance:.2f} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--models",
        default=",".join(zoo.names()),
        help=f"comma-separated zoo names (here: {', '.join(zoo.names())})",
    )
    parser.add_argument("--size", default="full", choices=zoo.SIZES)
    parser.add_argument("--dtype", default="bf16", choices=sorted(DTYPES))
    parser.add_argument(
        "--variants",
        default="torch.compile,magi",
        help=f"comma-separated, from {', '.join(VARIANTS)}",
    )
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument(
        "--batch", type=int, default=0, help="timm batch (default the zoo's 16; 128 is GPU-bound)"
    )
    parser.add_argument(
        "--peak-tflops",
        type=float,
        default=790.0,
        help="the floor's throughput (H200/H100 bf16 matmul: ~790)",
    )
    parser.add_argument(
        "--frames",
        type=int,
        default=0,
        help="latent frames of the Wan decode (default: the size's, 21 at full)",
    )
    parser.add_argument(
        "--wan-frames", default="", help="e.g. 2,3,5: per-frame cost of the Wan decode"
    )
    parser.add_argument("--profile", action="store_true", help="kernel time by kind per variant")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    args.variants = [v for v in args.variants.split(",") if v]
    bad = [v for v in args.variants if v not in VARIANTS]
    if bad:
        parser.error(f"unknown variant(s) {bad}; choose from {list(VARIANTS)}")
    missing = zoo.unavailable()
    models = [m for m in args.models.split(",") if m]
    if not torch.cuda.is_available() and args.size == "full":
        print(
            "no CUDA GPU: full-size zoo timings are GPU numbers; see docs/benchmarks.md, or run "
            "`python benchmarks/cpu_codegen_report.py` for what a CPU can say",
            file=sys.stderr,
        )
        return 2
    device = device_name("cuda" if torch.cuda.is_available() else "cpu")
    print(f"device: {device}; torch {torch.__version__}; python {platform.python_version()}")
    rows: list[Row] = []
    for name in models:
        if name in missing:
            print(f"== {name}: skipped: {missing[name]}")
            continue
        rows.extend(bench_model(name, args, lambda s: print(s, flush=True)))
        torch._dynamo.reset()
        torch.cuda.empty_cache() if torch.cuda.is_available() else None
    print()
    print(format_table(rows, device))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "device": device,
                    "torch": torch.__version__,
                    "rows": [asdict(r) | {"floor_distance": r.floor_distance} for r in rows],
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
