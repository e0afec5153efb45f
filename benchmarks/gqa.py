"""GQA projection benchmark (pytorch#181108): static vs dynamic (Hq, D) vs dynamic + magi passes.

    python benchmarks/gqa.py                         # h200 shape, bf16, on CUDA; tiny fp32 on CPU
    python benchmarks/gqa.py --models xsa --modes inference --rounds 8 --json gqa.json
    python benchmarks/gqa.py --variants static,dynamic,magi

Shape (preset "h200"): B=4, T=4096, Hq=32, Hkv=4, D=64. Models (`--models`, both by default):

- `gqa`: `pytest_magi.models.GQAProjection` (grouped RMS normalisation of query heads);
- `xsa`: the function of the pytorch#181108 report itself (normalised `xv`, projection of the
  grouped `output` on it, three outputs), inputs `output` (B, T, Hq, D) and `xv` (B, T, Hkv, D);
  the issue's 2.11/H200 numbers (inference 3 kernels vs 2 static) are for this one.

Variants, each compiled once:

- `static`: `torch.compile`, static shapes;
- `dynamic`: `torch.compile` with Hq and D marked dynamic (`torch._dynamo.mark_dynamic`);
- `magi`: the same dynamic input through `backend=MagiBackend()` (DynamicReshapePass on);
- `magi+bucket`: also the opt-in `bucket_dynamic_reductions` (D guarded into its power-of-two
  bucket so the reduction over D is persistent, as for static shapes; recompiles outside it).

Modes: `inference` (under `torch.no_grad()`) and `training` (forward + backward with a fixed
random gradient for every output; input gradients checked). Every variant compiles its own entry function
(a fresh code object) with its own backend object, so no variant can reuse another's Dynamo cache
entry; Inductor's caches are off during compilation (`force_disable_caches`) so every variant
generates its own kernels. Kernel counts are the kernels defined in each generated module (Triton
on CUDA, C++ on CPU), per graph (forward, backward). Outputs (and input gradients) are checked
against eager before timing.

Timing: all variants of a mode stay alive; each is timed against the first variant with
`pytest_magi.timing.measure_pair` (the protocol of `--magi-perf`: interleaved rounds, L2 flushed
between repetitions on CUDA, `--rep` ms per side per round). A variant's time is the median of its
round medians; speedups are medians of per-round ratios. One round is never a verdict
(`--rounds >= 3`). Entry functions, code capture and kernel counting are the plugin's capture core
(`pytest_magi.capture.core`, `pytest_magi.capture.kernels`).

Runs on Python 3.11/3.12 with torch 2.11 or newer; uses only torch, triton and this repository.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.capture.core import capture_output_code, fresh_entry  # noqa: E402
from pytest_magi.capture.kernels import count_kernels  # noqa: E402
from pytest_magi.measure.timing import measure_pair  # noqa: E402
from pytest_magi.models import GQAProjection
from pytest_magi.models.reference import GQA_PRESETS

VARIANTS = ("static", "dynamic", "magi", "magi+bucket")
MODES = ("inference", "training")
MODELS = ("gqa", "xsa")


def bucketing_config() -> PassConfig:
    return PassConfig(bucket_dynamic_reductions=True)


@dataclass
class Row:
    mode: str
    variant: str
    fn: Callable[[], Any] | None = None
    backend: Any = None
    compile_s: float = 0.0
    kernels: list[int] = field(default_factory=list)  # per generated graph: [fwd] or [fwd, bwd]
    times: list[float] = field(default_factory=list)
    vs_first: list[float] = field(default_factory=list)  # per round: first variant ms / this ms
    max_abs_err: float = 0.0
    grad_max_abs_err: float | None = None

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times)

    def pass_results(self) -> list[str]:
        managers = getattr(self.backend, "managers", []) or []
        return [
            str(r) for m in managers for rs in m.history for r in rs if r.name == "dynamic_reshape"
        ]


def xsa_projection(output: torch.Tensor, xv: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """The function of pytorch#181108 ("XSA projection"), as the report writes it."""
    head_dim, n_kv, n_heads = xv.shape[-1], xv.shape[2], output.shape[2]
    torch._check(output.shape[3] == head_dim)
    torch._check(n_heads % n_kv == 0)
    vn = F.normalize(xv, dim=-1, eps=1e-6).unsqueeze(3)
    y = output.view(*output.shape[:2], n_kv, n_heads // n_kv, head_dim)
    ps = (y * vn).sum(dim=-1, keepdim=True)
    cos_sim = ps.squeeze(-1).abs()
    proj_frac = cos_sim / y.norm(dim=-1).clamp(min=1e-6)
    return (y - ps * vn).view_as(output), cos_sim, proj_frac


@dataclass
class Workload:
    name: str
    fn: Callable[..., Any]
    inputs: tuple[torch.Tensor, ...]
    dynamic_dims: dict[int, tuple[int, ...]]


def workload(
    name: str, preset: str, kv_heads: int, device: torch.device, dtype: torch.dtype
) -> Workload:
    p = GQA_PRESETS[preset]
    torch.manual_seed(0)
    if name == "gqa":
        x = GQAProjection.example_input(preset, device=device, dtype=dtype)
        model = GQAProjection(kv_heads=kv_heads).to(device)
        return Workload(name, model, (x,), {0: GQAProjection.DYNAMIC_DIMS})
    output = torch.randn(p.batch, p.tokens, p.q_heads, p.head_dim, device=device, dtype=dtype)
    xv = torch.randn(p.batch, p.tokens, kv_heads, p.head_dim, device=device, dtype=dtype)
    return Workload(name, xsa_projection, (output, xv), {0: (2, 3), 1: (3,)})


def _as_tuple(out: Any) -> tuple[torch.Tensor, ...]:
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def _max_err(a: tuple[torch.Tensor, ...], b: tuple[torch.Tensor, ...]) -> float:
    return max(
        float((x.detach().float() - y.detach().float()).abs().max())
        for x, y in zip(a, b, strict=True)
    )


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def compile_variant(variant: str, fn: Callable[..., Any], tag: str) -> tuple[Any, Any]:
    entry = fresh_entry(fn, f"gqa_{variant}_{tag}")
    if variant == "static":
        return torch.compile(entry, backend="inductor", dynamic=False), None
    if variant == "dynamic":
        return torch.compile(entry, backend="inductor"), None
    backend = MagiBackend(PassConfig() if variant == "magi" else bucketing_config())
    return torch.compile(entry, backend=backend), backend


def run_mode(
    mode: str,
    variants: list[str],
    work: Workload,
    args: argparse.Namespace,
    device: torch.device,
) -> list[Row]:
    training = mode == "training"
    torch.manual_seed(2)
    ref_in = tuple(t.detach().clone().requires_grad_(training) for t in work.inputs)
    with torch.set_grad_enabled(training):
        reference = _as_tuple(work.fn(*ref_in))
        grads = tuple(torch.randn_like(r) for r in reference)
        if training:
            torch.autograd.backward(reference, grads)
    label = f"{work.name}/{mode}"
    rows: list[Row] = []
    for variant in variants:
        row = Row(label, variant)
        xs = tuple(t.detach().clone().requires_grad_(training) for t in work.inputs)
        if variant != "static":
            for i, dims in work.dynamic_dims.items():
                torch._dynamo.mark_dynamic(xs[i], list(dims))
        compiled, row.backend = compile_variant(variant, work.fn, f"{work.name}_{mode}")

        def step(compiled: Any = compiled, xs: tuple[torch.Tensor, ...] = xs) -> Any:
            if not training:
                with torch.no_grad():
                    return compiled(*xs)
            for x in xs:
                x.grad = None
            out = _as_tuple(compiled(*xs))
            torch.autograd.backward(out, grads)
            return out

        sync(device)
        t0 = time.perf_counter()
        sources: list[str] = []
        cold = torch._inductor.config.patch(force_disable_caches=True)
        with capture_output_code(sources.append), cold:
            out = _as_tuple(step())
            sync(device)
        row.compile_s = time.perf_counter() - t0
        row.kernels = [count_kernels(src) for src in sources]
        row.max_abs_err = _max_err(out, reference)
        if training:
            got = tuple(x.grad for x in xs)
            want = tuple(x.grad for x in ref_in)
            assert all(g is not None for g in got + want)
            row.grad_max_abs_err = _max_err(got, want)  # type: ignore[arg-type]
        tol = 5e-2 if work.inputs[0].dtype in (torch.bfloat16, torch.float16) else 1e-3
        worst = max(row.max_abs_err, row.grad_max_abs_err or 0.0)
        if worst > tol:
            raise SystemExit(
                f"{label}/{variant}: max |compiled - eager| = {worst:.3g} > {tol}; not timing a "
                f"wrong result"
            )
        if variant.startswith("magi") and not any("applied" in r for r in row.pass_results()):
            raise SystemExit(
                f"{label}/{variant}: DynamicReshapePass did not fire ({row.pass_results()}); the "
                f"variant would time plain Inductor"
            )
        row.fn = step
        rows.append(row)
        print(
            f"  compiled {label:15s} {variant:12s} {row.compile_s:6.1f} s  kernels={row.kernels}",
            flush=True,
        )
    # every variant against the first one, with the protocol of --magi-perf (measure_pair)
    first = rows[0]
    for row in rows:
        assert first.fn is not None and row.fn is not None
        sp = measure_pair(
            (first.fn, row.fn), rounds=args.rounds, device=device, target_ms=float(args.rep)
        )
        row.times = list(sp.candidate_round_ms)
        row.vs_first = list(sp.round_ratios)
    return rows


def median_ratio(rows: list[Row], num: str, den: str, mode: str) -> float | None:
    """Median over rounds of time(`num`) / time(`den`) within `mode` (None if one is missing),
    each round normalised by the first variant timed in the same round (``vs_first``)."""
    a = next((r for r in rows if r.mode == mode and r.variant == num), None)
    b = next((r for r in rows if r.mode == mode and r.variant == den), None)
    if a is None or b is None:
        return None
    return statistics.median(y / x for x, y in zip(a.vs_first, b.vs_first, strict=True))


def table(rows: list[Row]) -> str:
    """speedup = dynamic time / this time; x static = this time / static time."""
    head = (
        f"{'mode':15s} {'variant':12s} {'median ms':>10s} {'spread':>7s} {'kernels':>9s} "
        f"{'speedup':>8s} {'x static':>8s} {'compile s':>9s} {'max|err|':>9s}"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        med = row.median_ms
        spread = (max(row.times) - min(row.times)) / med if med else 0.0
        speedup = median_ratio(rows, "dynamic", row.variant, row.mode)
        over_static = median_ratio(rows, row.variant, "static", row.mode)
        kernels = "+".join(str(k) for k in row.kernels) or "-"
        err = max(row.max_abs_err, row.grad_max_abs_err or 0.0)
        lines.append(
            f"{row.mode:15s} {row.variant:12s} {med:10.3f} {spread:6.1%} {kernels:>9s} "
            f"{_fmt_x(speedup):>8s} {_fmt_x(over_static):>8s} {row.compile_s:9.1f} {err:9.2e}"
        )
    return "\n".join(lines)


def _fmt_x(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default=None, help="h200 (CUDA default) or tiny (CPU default)")
    parser.add_argument(
        "--modes", default="inference,training", help="comma list of " + ",".join(MODES)
    )
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help="comma list of " + ",".join(VARIANTS)
    )
    parser.add_argument(
        "--models", default=",".join(MODELS), help="comma list of " + ",".join(MODELS)
    )
    parser.add_argument("--rounds", type=int, default=8, help="interleaved timing rounds (>= 3)")
    parser.add_argument("--rep", type=int, default=100, help="ms per side per timing round")
    parser.add_argument("--kv-heads", type=int, default=None, help="Hkv (default: the preset's)")
    parser.add_argument("--device", default=None, help="cuda or cpu (default: cuda if available)")
    parser.add_argument(
        "--dtype", default=None, help="bfloat16 (CUDA default) or float32 (CPU default)"
    )
    parser.add_argument("--json", default=None, help="write every number to this path")
    args = parser.parse_args(argv)
    if args.rounds < 3:
        parser.error(f"--rounds must be >= 3 (one round is never a verdict), got {args.rounds}")
    modes = [m for m in args.modes.split(",") if m]
    variants = [v for v in args.variants.split(",") if v]
    models = [m for m in args.models.split(",") if m]
    for name, given, known in (
        ("--modes", modes, MODES),
        ("--variants", variants, VARIANTS),
        ("--models", models, MODELS),
    ):
        bad = [g for g in given if g not in known]
        if bad or not given:
            parser.error(
                f"{name}: unknown or empty {bad or given!r}; choose from {', '.join(known)}"
            )
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    preset = args.preset or ("h200" if device.type == "cuda" else "tiny")
    if preset not in GQA_PRESETS:
        parser.error(f"--preset: unknown {preset!r}; choose from {', '.join(sorted(GQA_PRESETS))}")
    dtype = (
        getattr(torch, args.dtype)
        if args.dtype
        else (torch.bfloat16 if device.type == "cuda" else torch.float32)
    )
    p = GQA_PRESETS[preset]
    kv_heads = args.kv_heads or p.kv_heads
    device_name = (
        torch.cuda.get_device_name(device)
        if device.type == "cuda"
        else platform.processor() or platform.machine()
    )
    print(
        f"GQA B={p.batch} T={p.tokens} Hq={p.q_heads} Hkv={kv_heads} D={p.head_dim} {dtype} "
        f"on {device_name}, torch {torch.__version__}, python {platform.python_version()}",
        flush=True,
    )
    # one throwaway compile so CUDA/Triton start-up is not charged to the first variant
    torch._dynamo.reset()
    with torch.no_grad():
        torch.compile(lambda t: (t * 2).sum())(torch.ones(8, device=device))
    rows: list[Row] = []
    # every variant of every model compiles the same frames: never fall back to eager silently
    limits = {"recompile_limit": 256, "accumulated_recompile_limit": 4096}
    with torch._dynamo.config.patch(automatic_dynamic_shapes=False, **limits):
        for name in models:
            work = workload(name, preset, kv_heads, device, dtype)
            for mode in modes:
                rows += run_mode(mode, variants, work, args, device)
    print(table(rows))
    if args.json:
        payload = {
            "benchmark": "gqa",
            "models": models,
            "preset": preset,
            "shape": {
                "batch": p.batch,
                "tokens": p.tokens,
                "q_heads": p.q_heads,
                "kv_heads": kv_heads,
                "head_dim": p.head_dim,
            },
            "dtype": str(dtype),
            "device": device_name,
            "torch": torch.__version__,
            "python": platform.python_version(),
            "rounds": args.rounds,
            "rows": [
                {
                    "model": r.mode.split("/")[0],
                    "mode": r.mode.split("/")[1],
                    "variant": r.variant,
                    "median_ms": r.median_ms,
                    "round_medians_ms": r.times,
                    "kernels": r.kernels,
                    "speedup_vs_dynamic": median_ratio(rows, "dynamic", r.variant, r.mode),
                    "time_over_static": median_ratio(rows, r.variant, "static", r.mode),
                    "compile_s": r.compile_s,
                    "max_abs_err": r.max_abs_err,
                    "grad_max_abs_err": r.grad_max_abs_err,
                    "pass_results": r.pass_results(),
                }
                for r in rows
            ],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
