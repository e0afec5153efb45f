"""Codegen mode of the zoo benchmark: what the magi passes do to the CUDA code of the models, told
truly by a machine without a GPU.

    python benchmarks/zoo.py codegen                  # the project's models and three zoo decoders
    python benchmarks/zoo.py codegen --models all     # every model below (tens of minutes)
    python benchmarks/zoo.py codegen --models vae-decoder-like,gqa-dynamic-hq-d --kernels
    python benchmarks/zoo.py codegen --health         # + compile health of the zoo decodes

A CPU cannot time CUDA kernels, so this measures no speed. It prints what a CPU can know
exactly: the CUDA Triton code Inductor generates for each model, plain (`torch.compile`) and
with the magi passes (fake-CUDA codegen, `pytest_magi.codegen.inductor_codegen`: generated,
never compiled or launched; byte-identical to a real H100's after normalisation), one row per
model:

- kernels: Triton kernels of torch.compile and of magi;
- launches, MB moved, est ms: each side's budget (`pytest_magi.budget`, the h200 profile or
  `--profile`): launches per call, bytes moved by Inductor's own count, estimated time; the code
  is generated once, with the budget's accounting on (`pytest_magi.bench.codegen_budget`);
- est speedup: torch.compile's estimated ms over magi's (an estimate from the code);
- GPU ratio: magi over torch.compile as a GPU measured it for the same model, read from the
  GPU-ratio file (`--gpu-ratios`, `pytest_magi.bench.gpu_ratios`), with its device and date;
- compile health: graphs, graph breaks and recompiles of magi's compilation;
- past a buffer: accesses of the generated code that reach past their buffer's storage, plain /
  magi (`pytest_magi.capture.bounds`: a miscompile found without running it; 0 is right);
- passes: which magi passes fired, or why a side has no code or no budget.

`--kernels` adds, per model, what each pass counted and the kernels the passes removed, added
(or changed) and left as they were, matched by what they compute
(`pytest_magi.capture.kernel_diff.kernel_diff`).

Models: the project's own (`pytest_magi.models`, tiny presets) and the real models of
`pytest_magi.models.zoo` that are installed (`zoo.names()`, tiny sizes; each `.module` is generated for
the call `.run()` makes of it): by default `DEFAULT_ZOO`, every one with `--models all`. A model fake CUDA cannot generate says why and the report goes on.
`--health` also compiles each zoo model's whole `.run()` for this CPU, plain vs magi
(`compiled_pair`), for graph breaks and recompiles of the real call (slow: minutes).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from magi_passes import PassConfig
from pytest_magi import zoo
from pytest_magi.bench import codegen_budget, gpu_ratios
from pytest_magi.budget import PROFILES, Budget
from pytest_magi.capture.bounds import out_of_bounds
from pytest_magi.capture.codegen import GeneratedCode
from pytest_magi.capture.kernel_diff import KernelDiff, kernel_diff
from pytest_magi.models import GQAProjection, VAEDecoderLike, WanCausalStage

# the zoo models of a default run (a few minutes on 2 cores); `--models all` takes every one
DEFAULT_ZOO = ("wan2.2-vae", "sd-vae", "cogvideox-vae")


@dataclass
class Case:
    """One model call to generate: ``fn(*inputs)`` with ``dynamic_dims``."""

    name: str
    fn: Callable[..., Any]
    inputs: tuple[Any, ...]
    dynamic_dims: dict[int, Any] | None = None


@dataclass
class Row:
    name: str
    seconds: float = 0.0
    plain: GeneratedCode | None = None
    magi: GeneratedCode | None = None
    diff: KernelDiff | None = None
    error: str | None = None
    health: dict[str, str] = field(default_factory=dict)
    budgets: dict[str, Budget] = field(default_factory=dict)  # "plain", "magi"
    budget_error: str | None = None


class _Call(torch.nn.Module):
    """``module(*args, **kwargs)`` as a module (so its parameters are swapped for fake CUDA)."""

    def __init__(self, module: torch.nn.Module, kwargs: dict[str, Any]) -> None:
        super().__init__()
        self.module = module
        self.kwargs = kwargs

    def forward(self, *args: Any) -> Any:
        fresh = {k: list(v) if isinstance(v, list) else v for k, v in self.kwargs.items()}
        return self.module(*args, **fresh)


def _as_now(value: Any) -> Any:
    """``value`` as it is at this moment: its lists, tuples and dicts copied, its tensors cloned
    (the call fills a cache it is given, KVAE's and Kandinsky-6's dict of cached frames)."""
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if type(value) in (list, tuple):
        return type(value)(_as_now(v) for v in value)
    if type(value) is dict:
        return {k: _as_now(v) for k, v in value.items()}
    return value


def _first_call(model: zoo.ZooModel) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The arguments ``.run()`` gives ``.module`` first, as they are at that call (recorded on an
    eager run)."""
    seen: dict[str, Any] = {}

    def hook(_module: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if not seen:
            seen["args"] = _as_now(tuple(args))
            seen["kwargs"] = _as_now(dict(kwargs))

    handle = model.module.register_forward_pre_hook(hook, with_kwargs=True)
    try:
        model.run()
    finally:
        handle.remove()
    return seen["args"], seen["kwargs"]


def project_cases(dtype: torch.dtype) -> list[Case]:
    torch.manual_seed(0)
    vae = VAEDecoderLike("tiny").to(dtype).eval()
    wan = WanCausalStage("tiny").to(dtype).eval()
    gqa = GQAProjection(kv_heads=2)
    return [
        Case("vae-decoder-like", vae, (vae.example_input(dtype=dtype),)),
        Case(
            "vae-decoder-like-dynamic-hw",
            vae,
            (vae.example_input(dtype=dtype),),
            {0: VAEDecoderLike.DYNAMIC_HW},
        ),
        Case("wan-causal-stage", wan, (wan.example_input(dtype=dtype),)),
        Case("gqa-dynamic-hq-d", gqa, (GQAProjection.example_input(),), {0: (2, 3)}),
    ]


def zoo_cases(names: list[str], dtype: torch.dtype) -> list[Case]:
    cases = []
    for name in names:
        model = zoo.load(name, "tiny", dtype=dtype)
        args, kwargs = _first_call(model)
        cases.append(Case(name, _Call(model.module, kwargs).eval(), args))
    return cases


def _first_line(exc: BaseException) -> str:
    """The first lines of the error that say what failed (dynamo wraps the cause)."""
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    said = [ln for ln in lines if "got " in ln or "Error" in ln][:2] or lines[:1]
    return f"{type(exc).__name__}: {' / '.join(said)}"[:400]


def _reason(exc: BaseException) -> str:
    """Why a side's code cannot be generated, short enough for a cell."""
    from magi_passes.compile.sympy_retry import sympy_failure

    bug = sympy_failure(exc)
    if bug is not None:  # torch's own, which torch.compile meets on a GPU too
        return f"Inductor raises on a sympy bug of torch {torch.__version__}: {bug}, on a GPU too"
    return _first_line(exc)


def generate(
    case: Case, index: int, total: int, profile: str = codegen_budget.DEFAULT_PROFILE
) -> Row:
    """Both sides' code and budgets of ``case``; a side that cannot be generated says why (in
    ``row.error``) and the other side is still generated."""
    row = Row(case.name)
    start = time.perf_counter()
    errors: list[str] = []
    for side, config in (("plain", None), ("magi", PassConfig())):
        try:
            code, budget, why = codegen_budget.generate_side(
                case.fn,
                case.inputs,
                case.dynamic_dims,
                config,
                profile=profile,
                label=f"{case.name} {side}",
            )
        except Exception as exc:  # report and go on: one model must not hide the others
            name = "torch.compile" if side == "plain" else "magi"
            errors.append(f"{name}'s code cannot be generated here ({_reason(exc)})")
            continue
        setattr(row, side, code)
        if budget is not None:
            row.budgets[side] = budget
        row.budget_error = row.budget_error or why
    row.error = "; ".join(errors) or None
    row.seconds = time.perf_counter() - start
    if row.plain is not None and row.magi is not None:
        row.diff = kernel_diff(row.plain, row.magi)
    done = row.error or "generated"
    print(f"[{index}/{total}] {case.name}: {done} in {row.seconds:.1f} s", file=sys.stderr)
    return row


def _fired(code: GeneratedCode) -> str:
    fired: dict[str, dict[str, int]] = {}
    for r in code.pass_results:
        if r.applied:
            counts = fired.setdefault(r.name, {})
            for k, v in r.counts.items():
                counts[k] = counts.get(k, 0) + v
    return (
        "; ".join(
            name + (f" ({', '.join(f'{k}={v}' for k, v in c.items())})" if c else "")
            for name, c in fired.items()
        )
        or "none fired"
    )


def _health(code: GeneratedCode) -> str:
    stats = code.compile_stats
    return stats.summary() if stats is not None else "-"


def _past_buffers(code: GeneratedCode) -> int:
    return sum(len(out_of_bounds(g)) for g in code.captured)


def _passes(code: GeneratedCode) -> str:
    """The passes that fired in any graph, by name."""
    names = dict.fromkeys(r.name for r in code.pass_results if r.applied)
    return ", ".join(names) or "none"


def _compile_health(code: GeneratedCode) -> str:
    stats = code.compile_stats
    if stats is None:
        return "-"
    return f"{stats.graphs} / {stats.graph_breaks} / {stats.recompiles}"


def _sides(row: Row, cell: Callable[[GeneratedCode], str]) -> str:
    """``tc / magi`` of ``cell``, ``-`` for a side without code."""
    return " / ".join("-" if c is None else cell(c) for c in (row.plain, row.magi))


def summary_table(
    rows: list[Row],
    ratios: dict[str, gpu_ratios.GpuRatio] | None = None,
    profile: str = codegen_budget.DEFAULT_PROFILE,
) -> str:
    """One row per model: kernels, launches, MB moved and estimated ms (torch.compile / magi),
    estimated speedup, GPU ratio, compile health, past a buffer, passes fired. A model without
    code or budget has its reason in the last cell."""
    ratios = ratios or {}
    head: list[tuple[str, str]] = [
        ("model", ""),
        ("kernels", "tc / magi"),
        *codegen_budget.budget_header(profile),
        ("GPU", "ratio"),
        ("graphs / breaks", "/ recompiles"),
        ("past a", "buffer"),
        ("passes fired (magi)", ""),
    ]
    lines: list[list[str]] = [[h[0] for h in head], [h[1] for h in head]]
    for r in rows:
        ratio = ratios[r.name].cell() if r.name in ratios else "-"
        if r.plain is None and r.magi is None:
            none = ["-"] * len(codegen_budget.budget_header(profile))
            lines.append([r.name, "-", *none, ratio, "-", "-", r.error or "-"])
            continue
        budget = codegen_budget.budget_cells(r.budgets.get("plain"), r.budgets.get("magi"))
        last = r.error or (_passes(r.magi) if r.magi is not None else "-")
        lines.append(
            [
                r.name,
                _sides(r, lambda c: str(c.kernel_count)),
                *budget,
                ratio,
                _compile_health(r.magi) if r.magi is not None else "-",
                _sides(r, lambda c: str(_past_buffers(c))),
                last + (f"; {r.budget_error}" if r.budget_error else ""),
            ]
        )
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    out = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in lines
    ]
    out.insert(2, "  ".join("-" * w for w in widths))
    return "\n".join(out)


def ratio_note(rows: list[Row], ratios: dict[str, gpu_ratios.GpuRatio], path: Path) -> str:
    """Where the GPU ratios of the table were measured (device, torch, dates), and the file."""
    if path.is_absolute() and path.is_relative_to(Path.cwd()):
        path = path.relative_to(Path.cwd())
    shown = [ratios[r.name] for r in rows if r.name in ratios]
    if not shown:
        return f"GPU ratio: none recorded in {path} for these models"
    where = sorted({f"{g.device}, torch {g.torch}" for g in shown})
    dates = sorted({g.date for g in shown})
    when = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
    return (
        f"GPU ratio: magi over torch.compile as measured on {'; '.join(where)}, {when} "
        f"({path}); this machine measured no speed"
    )


def details(rows: list[Row], limit: int | None = 12) -> str:
    """Per model: what each pass counted, compile health of both sides and the kernel diff
    (``limit`` changed kernels a model; ``None``: all)."""
    out: list[str] = []
    for r in rows:
        out.append(f"## {r.name}")
        if r.error:
            out.append(f"  {r.error}")
            continue
        assert r.plain is not None and r.magi is not None and r.diff is not None
        out.append(f"  passes: {_fired(r.magi)}")
        out.append(f"  compile health: plain {_health(r.plain)}; magi {_health(r.magi)}")
        lines = [ln for ln in str(r.diff).splitlines() if not ln.startswith("  = ")]
        shown = lines if limit is None else lines[: limit + 1]
        out.extend("  " + line for line in shown)
        if len(shown) < len(lines):
            out.append(f"    ... {len(lines) - len(shown)} more (--all-kernels, or --json)")
        if r.health:
            out.append(f"  whole .run() on this CPU: {r.health}")
    return "\n".join(out)


def run_health(rows: list[Row], names: list[str]) -> None:
    """Compile health of each zoo model's whole ``.run()``: plain Inductor vs magi on this CPU."""
    from pytest_magi.pairs.compiled import CompiledPair

    for i, name in enumerate(names, 1):
        print(f"[health {i}/{len(names)}] {name}: compiling .run() for this CPU ...", flush=True)
        model = zoo.load(name, "tiny")
        run = _Call(model.owner, {})
        run.forward = lambda *inputs, m=model: m.spec.run(m.owner, inputs)  # type: ignore[method-assign]
        try:
            pair = CompiledPair.build(run, *model.inputs, label=name)
        except Exception as exc:
            health = {"error": _first_line(exc)}
        else:
            health = {s: st.summary() for s, st in pair.compile_stats.items()}
            if pair.compile_note:
                health["note"] = pair.compile_note
        row = next((r for r in rows if r.name == name), None)
        if row is not None:
            row.health = health


def to_json(rows: list[Row], ratios: dict[str, gpu_ratios.GpuRatio]) -> dict[str, Any]:
    def code(c: GeneratedCode | None) -> dict[str, Any] | None:
        if c is None:
            return None
        stats = c.compile_stats.to_dict() if c.compile_stats is not None else None
        return {
            "kernels": [k.name for k in c.kernels],
            "compile_stats": stats,
            "past_a_buffer": [str(f) for g in c.captured for f in out_of_bounds(g)],
        }

    return {
        "torch": torch.__version__,
        "device": "fake CUDA (sm90, H100-like); nothing compiled or launched",
        "models": [
            {
                "name": r.name,
                "seconds": r.seconds,
                "error": r.error,
                "plain": code(r.plain),
                "magi": code(r.magi),
                "removed": [k.name for k in r.diff.only_baseline] if r.diff else None,
                "added": [k.name for k in r.diff.only_candidate] if r.diff else None,
                "shared": len(r.diff.shared) if r.diff else None,
                "passes": _fired(r.magi) if r.magi else None,
                "budget": {s: codegen_budget.totals(r.budgets.get(s)) for s in ("plain", "magi")},
                "budget_error": r.budget_error,
                "estimated_speedup": (
                    round(
                        codegen_budget.estimated_speedup(r.budgets["plain"], r.budgets["magi"]), 6
                    )
                    if len(r.budgets) == 2
                    else None
                ),
                "health": r.health,
                "gpu_ratio": asdict(ratios[r.name]) if r.name in ratios else None,
            }
            for r in rows
        ],
    }


def main(argv: list[str] | None = None, *, gpu_ratio_file: Path | None = None) -> int:
    """The codegen mode's command line; ``gpu_ratio_file`` is the default of ``--gpu-ratios``."""
    parser = argparse.ArgumentParser(
        prog="zoo.py codegen",
        description="what the magi passes do to the CUDA code of the models (fake CUDA, no GPU): "
        "per model, torch.compile (tc) / magi: Triton kernels, launches, MB moved and estimated "
        "ms of each side's budget, the estimated speedup (tc est ms / magi est ms) beside the "
        "measured GPU ratio, compile health, accesses past a buffer, passes fired",
    )
    project = [c.name for c in project_cases(torch.float32)]
    parser.add_argument(
        "--models",
        default="",
        help=f"comma list, or all (default: the project's and {', '.join(DEFAULT_ZOO)}): "
        f"{', '.join(project + zoo.names())}",
    )
    parser.add_argument(
        "--dtype", default="bfloat16", help="bfloat16 (default, as on the GPU) or float32"
    )
    parser.add_argument(
        "--health", action="store_true", help="also compile each zoo model's .run() here"
    )
    parser.add_argument(
        "--kernels",
        action="store_true",
        help="per model, the pass counts and the kernels removed, added and shared",
    )
    parser.add_argument(
        "--all-kernels", action="store_true", help="with --kernels: every changed kernel, not 12"
    )
    parser.add_argument(
        "--gpu-ratios",
        type=Path,
        default=gpu_ratio_file,
        help="the JSON file of measured GPU ratios shown beside each model",
    )
    parser.add_argument(
        "--profile",
        default=codegen_budget.DEFAULT_PROFILE,
        choices=sorted(PROFILES),
        help=f"the GPU profile of the estimated ms (default {codegen_budget.DEFAULT_PROFILE})",
    )
    parser.add_argument("--json", default=None, help="write the report to this path")
    args = parser.parse_args(argv)
    dtype = getattr(torch, args.dtype, None)
    if not isinstance(dtype, torch.dtype):
        parser.error(f"--dtype {args.dtype!r}: expected bfloat16 or float32")
    wanted = [m for m in args.models.split(",") if m] or project + [
        m for m in DEFAULT_ZOO if m in zoo.all_names()
    ]
    if wanted == ["all"]:
        wanted = project + zoo.all_names()
    unknown = [m for m in wanted if m not in project and m not in zoo.all_names()]
    if unknown:
        parser.error(f"--models: unknown {unknown}; choose from {project + zoo.all_names()}")
    ratios = gpu_ratios.load(args.gpu_ratios) if args.gpu_ratios is not None else {}
    missing = {m: why for m, why in zoo.unavailable().items() if m in wanted}
    zoo_names = [m for m in wanted if m in zoo.names()]
    cases = [c for c in project_cases(dtype) if c.name in wanted] + zoo_cases(zoo_names, dtype)
    print(
        f"CUDA code of {len(cases)} model(s), torch.compile (tc) vs magi, generated on fake CUDA "
        f"(torch {torch.__version__}, {args.dtype}); nothing compiled or launched",
        flush=True,
    )
    rows = [generate(c, i, len(cases), args.profile) for i, c in enumerate(cases, 1)]
    if args.health:
        run_health(rows, zoo_names)
    print()
    print(summary_table(rows, ratios, args.profile))
    unaccounted = any(b.unaccounted for r in rows for b in r.budgets.values())
    print(codegen_budget.budget_note(args.profile, "tiny", unaccounted))
    for name, why in missing.items():
        print(f"{name}: not installed: {why}")
    if args.gpu_ratios is not None:
        print(ratio_note(rows, ratios, args.gpu_ratios))
    if args.kernels:
        print()
        print(details(rows, None if args.all_kernels else 12))
    elif args.health:
        for r in rows:
            if r.health:
                print(f"{r.name}: whole .run() on this CPU: {r.health}")
    if args.json:
        Path(args.json).write_text(json.dumps(to_json(rows, ratios), indent=2))
    return 0
