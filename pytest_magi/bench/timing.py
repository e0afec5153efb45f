"""Timing mode of the zoo benchmark: eager, torch.compile and magi on real models, side by side
in one process.

    python benchmarks/zoo.py timing                          # every zoo model, full size, bf16, GPU
    python benchmarks/zoo.py timing --models wan2.2-vae --wan-frames 2,3,5 --json out.json
    python benchmarks/zoo.py timing --models sd-vae --size tiny --dtype fp32 --rounds 3  # CPU
    python benchmarks/zoo.py profile --models wan2.2-vae --frames 3 --variants magi

For each model (`pytest_magi.models.zoo`, random weights, `.compile()` compiles `.module` in place on a
copy, as users do) every variant (`pytest_magi.bench.variants`) is compiled by its first two
calls (compile time: the first call plus the second call's time beyond a steady call's,
synchronised: a video decode's second call can compile graphs the first did not; graphs, graph
breaks, recompiles and frames that fell back to eager are the first call's, from dynamo's
counters; where the compile time went: dynamo's phase timers, `pytest_magi.measure.compile_phases`),
then timed against `--baseline` (torch.compile) with `pytest_magi.timing.measure_pair`
(interleaved rounds, CUDA events, L2 flushed, median of per-round ratios, IQR spread). Every
run is checked against a higher-precision run (`pytest_magi.numerics.judgment`: within max(2 x eager's
distance, the dtype's floor), else WRONG). Each row carries the model's FLOPs
(`torch.utils.flop_counter`), its floor at `--peak-tflops` and the distance from it.

`--wan-frames a,b,...` times the whole Wan 2.2 decode at several latent frame counts and fits
the cost of one more latent frame (least-squares slope) against the FLOP floor of one more
frame, and the fixed part of a decode (the intercept), every count checked for numerics.

The variants share the process, and so what the process keeps from a variant's first calls
(cuDNN's and the caching allocator's state): where two variants' ratio decides something, list
them in both orders, in two processes. `torch.compile-copy` (an A/A pair) measures the harness's
own error beside them.

The passes' own share: when `torch.compile+frames`, `torch.compile+limit` or `torch.compile+fix`
ran, each magi variant is also timed against the fastest of them whose output is right and the
ratio printed: what the passes buy beyond what frames of their own, a higher recompile limit or
the dynamo fixes give plain torch.compile (with `--wan-frames`, per further latent frame too).

`--profile` (the `profile` mode): every variant, eager too, is profiled with
`pytest_magi.measure.profiling.profile` and its table printed: time per kernel class (conv/matmul, each
Triton kernel pattern, layout copies, eager ATen kernels, launch gaps) beside the floor (FLOPs at
`--peak-tflops`, bytes at `--hbm-gbps`), each Triton kernel with Inductor's own byte count. With
`--wan-frames a,...,b` also each variant's profile per further latent frame.

`--no-eager-timing`: eager runs once, for the numerics' bound, and is not timed (a process that
is there for its cold compile); the baseline's time is then the one of its pair with the first
other variant, and blank (null in `--json`) with none.

`--record-ratios PATH` writes each model's measured `magi` ratio into the GPU-ratio file the
`codegen` mode prints beside its kernel counts (`pytest_magi.bench.gpu_ratios`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import logging
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from pytest_magi import zoo
from pytest_magi.bench import gpu_ratios
from pytest_magi.bench.variants import (
    FAIR_BASELINES,
    VARIANTS,
    Runnable,
    build_variant,
    passes_summary,
    variant_changes,
    variant_form,
)
from pytest_magi.capture.compile_stats import _LIMIT_MARK, LIMIT_LOGGER, _captured
from pytest_magi.measure import profiling
from pytest_magi.measure.compile_phases import compile_phases
from pytest_magi.measure.compile_phases import shown as phases_shown
from pytest_magi.measure.compile_phases import summary as phases_summary
from pytest_magi.measure.timing import MIN_ROUNDS, device_name, measure_pair
from pytest_magi.models.zoo_specs import SIZES
from pytest_magi.numerics.judgment import _relative_l2, bound_for, reference_outputs

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


def _first_call(compiled: Runnable) -> tuple[float, dict[str, int]]:
    from torch._dynamo.utils import counters

    counters.clear()
    # dynamo's "hit config.recompile_limit" warnings: frames that then run eagerly
    with _captured(LIMIT_LOGGER, _LIMIT_MARK, logging.WARNING) as limit_hits:
        seconds = _timed_call(compiled)
    return seconds, {**_compile_stats(), "eager_fallbacks": len(limit_hits.messages)}


def _timed_call(compiled: Runnable) -> float:
    _sync()
    start = time.perf_counter()
    compiled.run()
    _sync()
    return time.perf_counter() - start


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
    # run of the same model, held to max(2 x eager's, the dtype's floor) (pytest_magi.numerics.judgment)
    high = torch.float64 if dtype == torch.float32 else torch.float32
    reference = reference_outputs(model.as_module(), model.inputs, high, True)
    eager_err = _relative_l2(eager_out, reference)
    bound = bound_for(eager_err, dtype)
    del eager_out
    log(f"  eager: rel-L2 vs {high} {eager_err:.2e}; bound for compiled runs {bound:.2e}")
    rows: list[Row] = []
    compiled: dict[str, Runnable] = {}
    # Inductor's modules imported before any variant is built: `torch.compile(module)` imports
    # them itself (1.9 s on a CPU, more on a GPU host), `magi_compile(module)` at its first
    # call, so a cold process would count them in magi's compile and not in torch.compile's
    importlib.import_module("torch._inductor.compile_fx")
    for variant in [args.baseline, *[v for v in args.variants if v != args.baseline]]:
        cm, backend = build_variant(model, variant, args.recompile_limit)
        with compile_phases() as spent:
            first, stats = _first_call(cm)
            second = _timed_call(cm)
        steady = _timed_call(cm)
        seconds = first + max(0.0, second - steady)
        compiled[variant] = cm
        err = _relative_l2(cm.run(), reference)
        verdict = "ok" if err <= bound else "WRONG"
        log(
            f"  {variant:<22} compiled in {seconds:6.1f} s (first call {first:.1f} s, second "
            f"{second:.1f} s, steady {steady:.2f} s); {stats}; rel-L2 vs {high} {err:.2e} "
            f"({verdict}); {passes_summary(backend)}"
        )
        if backend is not None:
            log(f"  {'':<22} {backend.seconds_text()}")
        log(f"  {'':<22} phases: {phases_summary(spent)}")
        form = variant_form(model, variant)
        if form is not None:
            changes = variant_changes(variant, form)
            log(f"  {'':<22} form {form.describe()}{changes}")
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
                passes_summary(backend),
                {
                    "rel_l2_vs_reference": err,
                    "eager_rel_l2": eager_err,
                    "numerics": verdict,
                    **({"compile_seconds": dict(backend.seconds)} if backend else {}),
                    "compile_phases": phases_shown(spent),
                },
            )
        )
    base = compiled[args.baseline]
    if not args.no_eager_timing:
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
    first = 0 if args.no_eager_timing else 1  # the baseline's row
    rows[first].ratio_vs_compile = 1.0
    for row in rows[first + 1 :]:
        sp = measure_pair((base.run, compiled[row.variant].run), rounds=args.rounds)
        row.ms, row.ratio_vs_compile, row.spread = sp.candidate_ms, sp.ratio, sp.spread
        row.extra["baseline_ms_same_run"] = sp.baseline_ms
        log(f"  {row.variant:<22} {sp}")
    if not args.no_eager_timing:
        rows[first].ms = eager_vs.candidate_ms
    elif len(rows) > 1:  # the baseline as timed beside the first other variant
        rows[0].ms = rows[1].extra["baseline_ms_same_run"]
    else:
        rows[0].ms = math.nan  # nothing timed it
    passes_share(rows, compiled, args, log)
    if args.profile:
        for row in rows:
            runner = model if row.variant == "eager" else compiled[row.variant]
            report = profile_variant(runner, flops, f"{name} {row.variant}", args)
            log(show_profile(report, args))
            row.extra["profile"] = report.to_dict()
    if name == "wan2.2-vae" and args.wan_frames:
        rows.extend(wan_frames(model, compiled, args, log))
    return rows


def passes_share(
    rows: list[Row],
    compiled: dict[str, Runnable],
    args: argparse.Namespace,
    log: Callable[[str], None],
) -> None:
    """Each magi variant timed against the faster fair baseline that ran (see the docstring)."""
    magi = [r for r in rows if r.variant.startswith("magi")]
    fair = [r for r in rows if r.variant in FAIR_BASELINES]
    if not magi:
        return
    if not fair:
        log(
            "  passes' own share: not measured; add torch.compile+frames,torch.compile+limit to "
            "--variants (magi is then timed against the faster of the two)"
        )
        return
    wrong = [r.variant for r in fair if r.extra.get("numerics") == "WRONG"]
    fair = [r for r in fair if r.variant not in wrong]
    if not fair:
        log(f"  passes' own share: not measured; every fair baseline's output is wrong ({wrong})")
        return
    best = min(fair, key=lambda r: r.ms)
    for row in magi:
        sp = measure_pair(
            (compiled[best.variant].run, compiled[row.variant].run), rounds=args.rounds
        )
        row.extra["passes_share"] = {
            "baseline": best.variant,
            "baseline_ms": sp.baseline_ms,
            "ms": sp.candidate_ms,
            "ratio": sp.ratio,
            "spread": sp.spread,
        }
        log(
            f"  passes' own share: {row.variant} {sp.candidate_ms:.3f} ms vs {best.variant} "
            f"{sp.baseline_ms:.3f} ms (the faster fair baseline): {sp.ratio:.3f}x "
            f"(spread {sp.spread:.1%})"
        )


def profile_variant(
    runner: Runnable, flops: int, label: str, args: argparse.Namespace
) -> profiling.ProfileReport:
    return profiling.profile(
        runner.run,
        rounds=args.profile_rounds,
        flops=flops,
        peak_tflops=args.peak_tflops,
        hbm_gbps=args.hbm_gbps,
        label=label,
    )


def show_profile(report: profiling.ProfileReport, args: argparse.Namespace) -> str:
    top = args.profile_top or None
    origins = report.origin_table(top=top)
    where = (
        f"\nwhere the kernels outside Inductor's own work came from:\n\n{origins}\n"
        if origins
        else ""
    )
    return f"\n{report.summary()}\n\n{report.table(top=top)}\n{where}"


def wan_frames(
    model: zoo.ZooModel,
    compiled: dict[str, Runnable],
    args: argparse.Namespace,
    log: Callable[[str], None],
) -> list[Row]:
    """The decode at several latent frame counts: each variant's cost of one more frame, and
    with ``--profile`` its profile per further frame (last count's minus first count's)."""
    frames = [int(t) for t in args.wan_frames.split(",")]
    per_frame_flops = model.flops(frames=3) - model.flops(frames=2)
    floor = per_frame_flops / (args.peak_tflops * 1e12) * 1e3
    baseline = args.baseline
    times: dict[str, list[float]] = {v: [] for v in ["eager", *compiled]}
    profiled = (min(frames), max(frames)) if args.profile and len(set(frames)) >= 2 else ()
    reports: dict[str, dict[int, profiling.ProfileReport]] = {v: {} for v in times}
    rows: list[Row] = []
    wrong: set[str] = set()  # variants wrong at some count: no fair baseline
    for t in frames:
        (zt,) = model.with_frames(t).inputs
        runs: dict[str, Runnable] = {
            "eager": model.with_inputs(zt),
            **{v: m.with_inputs(zt) for v, m in compiled.items()},
        }
        numerics, wrong_at_t = frames_numerics(runs, zt)
        wrong |= wrong_at_t
        log(f"  T={t:>2} numerics: {numerics}")
        base = runs[baseline]
        for variant, m in runs.items():
            if variant == baseline:
                continue
            sp = measure_pair((base.run, m.run), rounds=args.rounds)
            times[variant].append(sp.candidate_ms)
            if (
                variant == "eager"
                or not times[baseline]
                or len(times[baseline]) < len(times[variant])
            ):
                times[baseline].append(sp.baseline_ms)
            log(
                f"  T={t:>2} {variant:<22} {sp.candidate_ms:9.2f} ms vs {baseline} "
                f"{sp.baseline_ms:9.2f} ms: {sp.ratio:.3f}x (spread {sp.spread:.1%})"
            )
        if t in profiled and t not in reports["eager"]:
            flops_t = model.flops(frames=t)
            for variant, m in runs.items():
                reports[variant][t] = profile_variant(
                    m, flops_t, f"wan2.2-vae T={t} {variant}", args
                )
    slopes: dict[str, float] = {}
    fixed: dict[str, float] = {}
    for variant, ms in times.items():
        if len(ms) >= 2:
            slope = slopes[variant] = _slope(frames, ms)
            fixed[variant] = statistics.fmean(ms) - slope * statistics.fmean(frames)
            log(
                f"  per further latent frame: {variant:<22} {slope:8.2f} ms "
                f"({slope / floor:.2f}x the {floor:.1f} ms floor of {per_frame_flops / 1e12:.1f} TFLOP); "
                f"fixed part of a decode {fixed[variant]:.2f} ms"
            )
            row = Row(
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
            if profiled:
                lo, hi = profiled
                diff = reports[variant][hi].minus(
                    reports[variant][lo], divide_by=hi - lo, unit="further latent frame"
                )
                diff.label = f"wan2.2-vae {variant}, T={hi} minus T={lo}"
                log(show_profile(diff, args))
                row.extra["profile"] = diff.to_dict()
            row.extra["fixed_ms"] = fixed[variant]
            rows.append(row)
    fair = {v: slopes[v] for v in FAIR_BASELINES if v in slopes and v not in wrong}
    if fair:
        best = min(fair, key=lambda v: fair[v])
        for variant in (v for v in slopes if v.startswith("magi")):
            log(
                f"  passes' own share per further latent frame: {variant} {slopes[variant]:.2f} ms "
                f"vs {best} {fair[best]:.2f} ms (the faster fair baseline): "
                f"{fair[best] / slopes[variant]:.3f}x; fixed part of a decode "
                f"{fixed[variant]:.2f} vs {fixed[best]:.2f} ms "
                f"({fixed[variant] - fixed[best]:+.2f} ms; an intercept, so compared by difference)"
            )
    return rows


def frames_numerics(runs: dict[str, Runnable], z: torch.Tensor) -> tuple[str, set[str]]:
    """Each run's rel-L2 from a higher-precision decode of ``z``, with eager's bound: the
    numerics every per-frame time stands beside; and the runs beyond the bound."""
    high = torch.float64 if z.dtype == torch.float32 else torch.float32
    eager = runs["eager"]
    assert isinstance(eager, zoo.ZooModel)
    reference = reference_outputs(eager.as_module(), (z,), high, True)
    errors = {v: _relative_l2(m.run(), reference) for v, m in runs.items()}
    bound = bound_for(errors["eager"], z.dtype)
    parts = [f"eager {errors.pop('eager'):.2e} (bound {bound:.2e})"]
    parts += [f"{v} {e:.2e} ({'ok' if e <= bound else 'WRONG'})" for v, e in errors.items()]
    del reference
    wrong = {v for v, e in errors.items() if e > bound}
    return "rel-L2 vs " + str(high).replace("torch.", "") + ": " + ", ".join(parts), wrong


def _slope(xs: list[int], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def format_table(rows: list[Row], device: str, baseline: str = "torch.compile") -> str:
    head = (
        f"device: {device}; torch {torch.__version__}\n\n"
        f"| model | variant | inputs | ms | vs {baseline} | spread | rel-L2 (numerics) "
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
            f"| {r.model} | {r.variant} | {r.inputs} | {_ms(r.ms)} | {ratio} | {spread} | "
            f"{numerics} | {comp} | {r.graphs if r.graphs is not None else ''} | "
            f"{r.graph_breaks if r.graph_breaks is not None else ''} | {r.flops / 1e12:.2f} | "
            f"{r.floor_ms:.2f} | {_ms(r.floor_distance, 2)} |"
        )
    return "\n".join(out)


def _json_row(row: Row) -> dict[str, Any]:
    """``row`` for the JSON file, a time not measured (NaN) as null."""
    out = asdict(row) | {"floor_distance": row.floor_distance}
    return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in out.items()}


def _ms(value: float, digits: int = 3) -> str:
    """A table cell: ``value`` to ``digits`` places, empty where it was not timed (NaN)."""
    return "" if math.isnan(value) else f"{value:.{digits}f}"


def _rate(text: str) -> float | str:
    if text == profiling.MEASURE:
        return text
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number > 0 or 'measure'")
    return value


def main(argv: list[str] | None = None, *, prog: str = "zoo.py timing") -> int:
    """The timing mode's command line (``profile``: the same with ``--profile``)."""
    parser = argparse.ArgumentParser(
        prog=prog, description="eager, torch.compile and magi on the zoo's models, timed"
    )
    parser.add_argument(
        "--models",
        default=",".join(zoo.names()),
        help=f"comma-separated zoo names (here: {', '.join(zoo.names())})",
    )
    parser.add_argument("--size", default="full", choices=SIZES)
    parser.add_argument("--dtype", default="bf16", choices=sorted(DTYPES))
    parser.add_argument(
        "--variants",
        default="torch.compile,magi",
        help=f"comma-separated, from {', '.join(VARIANTS)}",
    )
    parser.add_argument(
        "--baseline",
        default="torch.compile",
        help="the variant every other one is timed against (e.g. magi-no-state: one pass's "
        "own share; --wan-frames needs torch.compile)",
    )
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument(
        "--batch", type=int, default=0, help="timm batch (default the zoo's 16; 128 is GPU-bound)"
    )
    parser.add_argument(
        "--peak-tflops",
        type=_rate,
        default=profiling.DEFAULT_PEAK_TFLOPS,
        help="the FLOP floor's throughput (H200/H100 bf16 matmul: ~790), or 'measure'",
    )
    parser.add_argument(
        "--hbm-gbps",
        type=_rate,
        default=profiling.DEFAULT_HBM_GBPS,
        help="the memory floor's bandwidth for --profile (H200: 4800), or 'measure'",
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
    parser.add_argument(
        "--profile",
        action="store_true",
        help="each variant's time per kernel class and Triton pattern beside its floor",
    )
    parser.add_argument(
        "--profile-rounds", type=int, default=3, help="profiled calls per variant (--profile)"
    )
    parser.add_argument(
        "--profile-top",
        type=int,
        default=15,
        help="patterns shown per class in --profile tables (0: all; the rest folded in a row)",
    )
    parser.add_argument(
        "--recompile-limit",
        type=int,
        default=64,
        help="dynamo's recompile limit for the torch.compile+limit variant",
    )
    parser.add_argument(
        "--no-eager-timing",
        action="store_true",
        help="run eager once, for the numerics' bound, but do not time it (a cold-compile "
        "process: Allegro's eager decode takes 5.6 s a call on an H100); the baseline's time is "
        "then its pair's with the first other variant, none without one",
    )
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--record-ratios",
        type=Path,
        default=None,
        metavar="PATH",
        help="write each model's magi / baseline ratio into this GPU-ratio file (codegen reads it)",
    )
    args = parser.parse_args(argv)
    args.variants = [v for v in args.variants.split(",") if v]
    if args.recompile_limit < 1 or args.profile_rounds < 1 or args.profile_top < 0:
        parser.error(
            f"--recompile-limit {args.recompile_limit} and --profile-rounds "
            f"{args.profile_rounds} must be >= 1, --profile-top {args.profile_top} >= 0"
        )
    if args.rounds < MIN_ROUNDS:
        # checked before anything compiles: the timing refuses it only after every variant
        # has compiled
        parser.error(
            f"--rounds {args.rounds}: the timing needs at least {MIN_ROUNDS} interleaved rounds "
            f"(one round is never a verdict); pass --rounds {MIN_ROUNDS} or more"
        )
    bad = [v for v in [*args.variants, args.baseline] if v not in VARIANTS]
    if bad:
        parser.error(f"unknown variant(s) {bad}; choose from {list(VARIANTS)}")
    missing = zoo.unavailable()
    models = [m for m in args.models.split(",") if m]
    if not torch.cuda.is_available() and args.size == "full":
        print(
            "no CUDA GPU: full-size zoo timings are GPU numbers; pass --size tiny to time the "
            "tiny models on this CPU, or run `python benchmarks/zoo.py codegen` for what a CPU "
            "can say about the CUDA code",
            file=sys.stderr,
        )
        return 2
    device = device_name("cuda" if torch.cuda.is_available() else "cpu")
    print(f"device: {device}; torch {torch.__version__}; python {platform.python_version()}")
    if args.peak_tflops == profiling.MEASURE:
        args.peak_tflops = profiling.measure_peak_tflops()
        print(f"measured bf16 matmul peak: {args.peak_tflops:.0f} TFLOP/s")
    if args.hbm_gbps == profiling.MEASURE:
        args.hbm_gbps = profiling.measure_hbm_gbps()
        print(f"measured device-to-device copy: {args.hbm_gbps:.0f} GB/s")
    rows: list[Row] = []
    for name in models:
        if name in missing:
            print(f"== {name}: skipped: {missing[name]}")
            continue
        # --profile: Triton kernels carry Inductor's own byte counts (no kernel changes)
        counting = profiling.inductor_byte_counts() if args.profile else contextlib.nullcontext()
        with counting:
            rows.extend(bench_model(name, args, lambda s: print(s, flush=True)))
        torch._dynamo.reset()
        torch.cuda.empty_cache() if torch.cuda.is_available() else None
    print()
    print(format_table(rows, device, args.baseline))
    if args.record_ratios is not None:
        measured = {
            r.model: r.ratio_vs_compile
            for r in rows
            if r.variant == "magi" and r.ratio_vs_compile is not None and " " not in r.model
        }
        gpu_ratios.record(
            args.record_ratios,
            measured,
            device=device,
            torch_version=torch.__version__,
            measured_by=f"benchmarks/zoo.py timing, {args.size} size, {args.dtype}, "
            f"vs {args.baseline}",
        )
        print(f"recorded {len(measured)} ratio(s) in {args.record_ratios}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "device": device,
                    "torch": torch.__version__,
                    "rows": [_json_row(r) for r in rows],
                },
                indent=1,
            )
        )
    return 0
