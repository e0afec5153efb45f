"""What the magi passes do to the CUDA code of the models, told truly by a machine without a GPU.

    python benchmarks/cpu_codegen_report.py                  # every model below, tiny sizes
    python benchmarks/cpu_codegen_report.py --models vae-decoder-like,gqa-dynamic-hq-d --json report.json
    python benchmarks/cpu_codegen_report.py --health         # + compile health of the zoo decodes

A CPU cannot time CUDA kernels, so this prints no speed. It prints what a CPU can know exactly:
the CUDA Triton code Inductor generates for each model, plain (`torch.compile`) and with the magi
passes (fake-CUDA codegen, `pytest_magi.codegen.inductor_codegen`: generated, never compiled or
launched; byte-identical to a real H100's after normalisation), and per model

- kernels: Triton kernels plain -> magi;
- kernel diff: kernels the passes removed, added (or changed) and left as they were, matched by
  what they compute (`pytest_magi.kernels.kernel_diff`);
- passes: which magi pass fired and what it counted (`PassResult`);
- compile health: graphs, graph breaks and recompiles of the generated code's compilation;
- past a buffer: accesses of the generated code that reach past their buffer's storage, plain /
  magi (`pytest_magi.bounds`: a miscompile found without running it; 0 is right).

Models: the project's own (`pytest_magi.models`, tiny presets) and the real models of
`pytest_magi.zoo` that are installed (`zoo.names()`; each `.module` is generated for the call
`.run()` makes of it). A model fake CUDA cannot generate says why and the report goes on.
`--health` also compiles each zoo model's whole `.run()` for this CPU, plain vs magi
(`compiled_pair`), for graph breaks and recompiles of the real call (slow: minutes).
Speed is measured on a GPU: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magi_passes import PassConfig  # noqa: E402
from pytest_magi import zoo  # noqa: E402
from pytest_magi.bounds import out_of_bounds  # noqa: E402
from pytest_magi.codegen import GeneratedCode, inductor_codegen  # noqa: E402
from pytest_magi.kernels import KernelDiff, kernel_diff  # noqa: E402
from pytest_magi.models import GQAProjection, VAEDecoderLike, WanCausalStage  # noqa: E402

GPU_TABLES = "docs/benchmarks.md"


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


class _Call(torch.nn.Module):
    """``module(*args, **kwargs)`` as a module (so its parameters are swapped for fake CUDA)."""

    def __init__(self, module: torch.nn.Module, kwargs: dict[str, Any]) -> None:
        super().__init__()
        self.module = module
        self.kwargs = kwargs

    def forward(self, *args: Any) -> Any:
        fresh = {k: list(v) if isinstance(v, list) else v for k, v in self.kwargs.items()}
        return self.module(*args, **fresh)


def _first_call(model: zoo.ZooModel) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The arguments ``.run()`` gives ``.module`` first (recorded on an eager run)."""
    seen: dict[str, Any] = {}

    def hook(_module: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if not seen:
            seen["args"] = tuple(args)
            seen["kwargs"] = {k: list(v) if isinstance(v, list) else v for k, v in kwargs.items()}

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


def generate(case: Case, index: int, total: int) -> Row:
    row = Row(case.name)
    start = time.perf_counter()
    for side, config in (("plain", None), ("magi", PassConfig())):
        print(f"[{index}/{total}] {case.name}: generating CUDA code, {side} ...", flush=True)
        try:
            code = inductor_codegen(
                case.fn, *case.inputs, dynamic_dims=case.dynamic_dims, config=config
            )
        except Exception as exc:  # report and go on: one model must not hide the others
            row.error = f"fake CUDA cannot generate it here ({_first_line(exc)})"
            break
        setattr(row, side, code)
    row.seconds = time.perf_counter() - start
    if row.plain is not None and row.magi is not None:
        row.diff = kernel_diff(row.plain, row.magi)
    print(f"[{index}/{total}] {case.name}: done in {row.seconds:.1f} s", flush=True)
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


def summary_table(rows: list[Row]) -> str:
    head = [
        "model",
        "kernels plain -> magi",
        "removed",
        "added",
        "shared",
        "graphs / breaks",
        "past a buffer plain / magi",
    ]
    lines = [head]
    for r in rows:
        if r.error or r.diff is None or r.plain is None or r.magi is None:
            lines.append([r.name, "-", "-", "-", "-", "-", "-"])
            continue
        lines.append(
            [
                r.name,
                f"{r.plain.kernel_count} -> {r.magi.kernel_count}",
                str(len(r.diff.only_baseline)),
                str(len(r.diff.only_candidate)),
                str(len(r.diff.shared)),
                f"{r.magi.compile_stats.graphs} / {r.magi.compile_stats.graph_breaks}"
                if r.magi.compile_stats is not None
                else "-",
                f"{_past_buffers(r.plain)} / {_past_buffers(r.magi)}",
            ]
        )
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    out = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in lines]
    out.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(out)


def details(rows: list[Row], limit: int | None = 12) -> str:
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
    from pytest_magi.pair import CompiledPair

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


def to_json(rows: list[Row]) -> dict[str, Any]:
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
        "gpu_tables": GPU_TABLES,
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
                "health": r.health,
            }
            for r in rows
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    project = [c.name for c in project_cases(torch.float32)]
    parser.add_argument(
        "--models",
        default="",
        help=f"comma list (default: all): {', '.join(project + zoo.names())}",
    )
    parser.add_argument(
        "--dtype", default="bfloat16", help="bfloat16 (default, as on the GPU) or float32"
    )
    parser.add_argument(
        "--health", action="store_true", help="also compile each zoo model's .run() here"
    )
    parser.add_argument("--json", default=None, help="write the report to this path")
    parser.add_argument(
        "--all-kernels", action="store_true", help="list every changed kernel (default: 12 a model)"
    )
    args = parser.parse_args(argv)
    dtype = getattr(torch, args.dtype, None)
    if not isinstance(dtype, torch.dtype):
        parser.error(f"--dtype {args.dtype!r}: expected bfloat16 or float32")
    wanted = [m for m in args.models.split(",") if m] or project + zoo.names()
    unknown = [m for m in wanted if m not in project and m not in zoo.all_names()]
    if unknown:
        parser.error(f"--models: unknown {unknown}; choose from {project + zoo.all_names()}")
    missing = {m: why for m, why in zoo.unavailable().items() if m in wanted}
    zoo_names = [m for m in wanted if m in zoo.names()]
    cases = [c for c in project_cases(dtype) if c.name in wanted] + zoo_cases(zoo_names, dtype)
    print(
        f"CUDA code of {len(cases)} model(s), plain torch.compile vs the magi passes, generated "
        f"on fake CUDA (torch {torch.__version__}, {args.dtype}); no GPU, nothing launched",
        flush=True,
    )
    rows = [generate(c, i, len(cases)) for i, c in enumerate(cases, 1)]
    if args.health:
        run_health(rows, zoo_names)
    print()
    print(summary_table(rows))
    print()
    print(details(rows, None if args.all_kernels else 12))
    for name, why in missing.items():
        print(f"## {name}\n  not installed: {why}")
    print(
        f"\nSpeed: measured on a GPU only (a CPU timing of CUDA passes means nothing); the H200 "
        f"tables are in {GPU_TABLES}."
    )
    if args.json:
        Path(args.json).write_text(json.dumps(to_json(rows), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
