"""`benchmarks/zoo.py budget-check`: the perf budget's estimate against the GPU, pair by pair.

On a GPU, each perf pair of the suite (`pytest_magi.models.blocks.PERF_PAIRS`, 540p bf16) and
each zoo model asked for (`--models`, "full" size, its first decoder call, magi in the model's
compile form) is compiled both ways, checked (`assert_close`), timed side by side
(`measure_pair`), profiled kernel by kernel (`kernel_times`) and budgeted from its own generated
code (`pair.budget`). The table sets the estimated ratio beside the measured one; the targets
(right direction past 3%, within 15% on 80% of pairs, every kernel over 100 us within 2x) are
each said met or missed with its number. `--json PATH` writes the rows.

Without a GPU (`--estimate-only`, implied there): the estimates only, beside the ratios recorded
in `benchmarks/results/gpu_ratios.json` (measured on another torch, not side by side: a preview
of the check, never the check itself).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DIRECTION_BAND = 0.03  # a measured ratio within 3% of 1 has no direction to get right
RATIO_BAND = 0.15  # an estimated ratio within 15% of the measured one
RATIO_SHARE = 0.80  # ... on at least 80% of the pairs
KERNEL_FLOOR_MS = 0.1  # kernels over 100 us are checked one by one
KERNEL_FACTOR = 2.0  # ... within 2x of their measured time
# a suite pair's entry in benchmarks/results/gpu_ratios.json
RECORDED_AS = {
    "vae-540p-static": "vae-decoder-like",
    "vae-540p-dynamic": "vae-decoder-like-dynamic-hw",
    "wan-540p-static": "wan-causal-stage",
    "wan-540p-dynamic": "wan-causal-stage-dynamic-hw",
    "gqa-dynamic": "gqa-dynamic-hq-d",
}


@dataclass
class KernelCheck:
    """One kernel of one side: measured and estimated ms per call."""

    side: str
    name: str
    measured_ms: float
    estimated_ms: float

    @property
    def factor(self) -> float:
        return max(self.measured_ms, self.estimated_ms) / max(
            min(self.measured_ms, self.estimated_ms), 1e-9
        )


@dataclass
class Row:
    label: str
    estimated: float | None = None  # baseline / candidate estimated ms
    estimated_ms: tuple[float, float] | None = None
    measured: float | None = None  # median of interleaved round ratios
    measured_ms: tuple[float, float] | None = None
    measured_by: str = ""  # "side by side" or where a recorded ratio comes from
    numerics: str = ""
    kernels: list[KernelCheck] = field(default_factory=list)
    error: str | None = None

    @property
    def error_ratio(self) -> float | None:
        if self.estimated is None or self.measured is None:
            return None
        return self.estimated / self.measured - 1.0


# --------------------------------------------------------------------------- targets
def targets(rows: Sequence[Row]) -> list[tuple[str, bool, str]]:
    """The three targets as (what, met, the number that says so)."""
    both = [r for r in rows if r.error_ratio is not None]
    out: list[tuple[str, bool, str]] = []
    directed = [r for r in both if abs((r.measured or 1.0) - 1.0) > DIRECTION_BAND]
    wrong = [
        r.label for r in directed if ((r.estimated or 1.0) - 1.0) * ((r.measured or 1.0) - 1.0) <= 0
    ]
    out.append(
        (
            f"right direction on every pair measured more than {DIRECTION_BAND:.0%} from 1",
            not wrong and bool(directed),
            f"{len(directed) - len(wrong)}/{len(directed)}"
            + (f" (wrong: {', '.join(wrong)})" if wrong else ""),
        )
    )
    close = [r for r in both if abs(r.error_ratio or 0.0) <= RATIO_BAND]
    share = len(close) / len(both) if both else 0.0
    out.append(
        (
            f"estimated ratio within {RATIO_BAND:.0%} of the measured on {RATIO_SHARE:.0%} of pairs",
            share >= RATIO_SHARE,
            f"{len(close)}/{len(both)} = {share:.0%}",
        )
    )
    checked = [k for r in rows for k in r.kernels if k.measured_ms > KERNEL_FLOOR_MS]
    off = [k for k in checked if k.factor > KERNEL_FACTOR]
    out.append(
        (
            f"every kernel over {KERNEL_FLOOR_MS * 1e3:.0f} us estimated within {KERNEL_FACTOR:g}x",
            bool(checked) and not off,
            f"{len(checked) - len(off)}/{len(checked)}" if checked else "no kernel measured",
        )
    )
    return out


def table(rows: Sequence[Row]) -> str:
    header = (
        "pair",
        "measured",
        "estimated",
        "est/measured",
        "measured ms b->c",
        "est ms b->c",
        "by",
    )
    body = []
    for r in rows:
        if r.error:
            body.append((r.label, "-", "-", "-", "-", "-", r.error))
            continue
        body.append(
            (
                r.label,
                "-" if r.measured is None else f"{r.measured:.3f}x",
                "-" if r.estimated is None else f"{r.estimated:.3f}x",
                "-" if r.error_ratio is None else f"{r.error_ratio:+.1%}",
                "-" if r.measured_ms is None else f"{r.measured_ms[0]:.3f}->{r.measured_ms[1]:.3f}",
                "-"
                if r.estimated_ms is None
                else f"{r.estimated_ms[0]:.3f}->{r.estimated_ms[1]:.3f}",
                r.measured_by,
            )
        )
    widths = [max(len(str(x[i])) for x in (header, *body)) for i in range(len(header))]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
        for line in (header, *body)
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def kernel_table(rows: Sequence[Row], top: int = 40) -> str:
    checked = sorted(
        (k for r in rows for k in r.kernels if k.measured_ms > KERNEL_FLOOR_MS),
        key=lambda k: -k.factor,
    )
    lines = [
        f"kernels over {KERNEL_FLOOR_MS * 1e3:.0f} us, worst first (measured vs estimated ms per call):"
    ]
    for k in checked[:top]:
        lines.append(
            f"  {k.factor:6.2f}x  {k.measured_ms:9.4f}  {k.estimated_ms:9.4f}  {k.side:<9} {k.name}"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- building pairs
Built = tuple[Any, tuple[Any, ...], Any, dict[str, Any]]


def _suite_builders(device: str) -> dict[str, Callable[[], Built]]:
    import torch

    from ..models.blocks import PERF_PAIRS

    def builder(label: str) -> Callable[[], Built]:
        def build() -> Built:
            spec = PERF_PAIRS[label]
            model, inputs, dynamic_dims = spec.build("540p", device, torch.bfloat16)
            return model, inputs, dynamic_dims, spec.sides()

        return build

    return {label: builder(label) for label in PERF_PAIRS}


def _zoo_builder(name: str, device: str) -> Callable[[], Built]:
    def build() -> Built:
        import torch

        from magi_passes import PassConfig
        from magi_passes.forms import form_for

        from .. import zoo
        from .codegen import _Call, _first_call

        model = zoo.load(name, "full", device=device, dtype=torch.bfloat16)
        args, kwargs = _first_call(model)
        form = form_for(model.module)
        config = form.config() if form is not None else PassConfig()
        return _Call(model.module, kwargs).eval(), tuple(args), None, {"candidate": config}

    return build


# --------------------------------------------------------------------------- measuring
def _kernel_checks(side: str, fn: Callable[[], Any], budget: Any) -> list[KernelCheck]:
    from ..measure.profiling import kernel_times

    estimated: dict[str, float] = {}
    for graph in budget.graphs:
        for launch in graph.launches:
            if launch.is_kernel:
                estimated[launch.name] = (
                    estimated.get(launch.name, 0.0) + launch.estimated_s(budget.profile) * 1e3
                )
    measured = kernel_times(fn)
    return [
        KernelCheck(side, name, measured[name][1], ms)
        for name, ms in estimated.items()
        if name in measured
    ]


def measure_row(label: str, build: Callable[[], Built], rounds: int) -> Row:
    """On the GPU: the pair compiled, checked, timed, profiled and budgeted."""
    from ..numerics.judgment import BaselineMiscompiled
    from ..pairs.compiled import CompiledPair
    from ..timing import measure_pair

    row = Row(label, measured_by="side by side")
    model, inputs, dynamic_dims, sides = build()
    pair = CompiledPair.build(model, *inputs, dynamic_dims=dynamic_dims, label=label, **sides)
    try:
        pair.assert_close()
        row.numerics = "both sides within bound"
    except BaselineMiscompiled:
        row.numerics = "baseline miscompiled (candidate within bound)"
    speedup = measure_pair(pair, rounds=rounds)
    row.measured = float(speedup.ratio)
    row.measured_ms = (float(speedup.baseline_ms), float(speedup.candidate_ms))
    budgets = pair.budget("h200")
    row.estimated = float(budgets.estimated_speedup)
    row.estimated_ms = (budgets.baseline.estimated_ms, budgets.candidate.estimated_ms)
    baseline_fn, candidate_fn = pair.timing_callables()
    row.kernels = _kernel_checks("baseline", baseline_fn, budgets.baseline) + _kernel_checks(
        "candidate", candidate_fn, budgets.candidate
    )
    return row


def estimate_row(label: str, build: Callable[[], Built], recorded: dict[str, Any]) -> Row:
    """Without a GPU: both sides' budgets from fake CUDA, beside a recorded GPU ratio."""
    from magi_passes import PassConfig

    from ..budget import budget

    model, inputs, dynamic_dims, sides = build()
    b = budget(model, *inputs, dynamic_dims=dynamic_dims, config=sides.get("baseline"))
    c = budget(
        model, *inputs, dynamic_dims=dynamic_dims, config=sides.get("candidate", PassConfig())
    )
    row = Row(label, estimated=b.estimated_ms / c.estimated_ms)
    row.estimated_ms = (b.estimated_ms, c.estimated_ms)
    entry = recorded.get(RECORDED_AS.get(label, label))
    if entry is not None:
        row.measured = float(entry["ratio"])
        row.measured_by = f"recorded {entry.get('date', '')} ({entry.get('measured_by', '')})"
    return row


def write_json(path: Path, where: str, rows: Sequence[Row]) -> None:
    """The rows, the targets and the median estimate error, as JSON at ``path``."""
    data = {
        "where": where,
        "rows": [asdict(r) for r in rows],
        "targets": [{"target": w, "met": m, "number": n} for w, m, n in targets(rows)],
        "median_error": statistics.median(
            [abs(r.error_ratio) for r in rows if r.error_ratio is not None] or [0.0]
        ),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="zoo.py budget-check", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--models",
        default="",
        help="zoo models to add, comma-separated ('all': every zoo model built here)",
    )
    parser.add_argument("--no-suite", action="store_true", help="leave out the GPU suite's pairs")
    parser.add_argument("--only", default="", help="only these pairs (labels, comma-separated)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved timing rounds per pair")
    parser.add_argument(
        "--estimate-only", action="store_true", help="no GPU: estimates beside recorded ratios"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the rows and targets here")
    args = parser.parse_args(argv)
    import torch

    from .. import zoo

    gpu = torch.cuda.is_available() and not args.estimate_only
    device = "cuda" if gpu else "cpu"
    builders = {} if args.no_suite else _suite_builders(device)
    names = zoo.names() if args.models == "all" else [n for n in args.models.split(",") if n]
    unknown = sorted(set(names) - set(zoo.all_names()))
    if unknown:
        parser.error(
            f"--models: unknown zoo model(s) {', '.join(unknown)}; known: {', '.join(zoo.all_names())}"
        )
    builders.update({name: _zoo_builder(name, device) for name in names})
    if args.only:
        wanted = [w for w in args.only.split(",") if w]
        missing = sorted(set(wanted) - set(builders))
        if missing:
            parser.error(f"--only: no pair {', '.join(missing)}; pairs: {', '.join(builders)}")
        builders = {k: v for k, v in builders.items() if k in wanted}
    recorded = {}
    if not gpu:
        path = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "gpu_ratios.json"
        if path.is_file():
            recorded = json.loads(path.read_text()).get("models", {})
    where = (
        f"{torch.cuda.get_device_name()}, torch {torch.__version__}, side by side"
        if gpu
        else f"estimates on fake CUDA (torch {torch.__version__}) beside ratios recorded on a GPU"
    )
    rows: list[Row] = []
    for i, (label, build) in enumerate(builders.items(), 1):
        start = time.perf_counter()
        try:
            row = (
                measure_row(label, build, args.rounds)
                if gpu
                else estimate_row(label, build, recorded)
            )
        except Exception as exc:  # one pair must not hide the others
            row = Row(
                label,
                error=f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}",
            )
        rows.append(row)
        print(
            f"[{i}/{len(builders)}] {label}: {row.error or 'done'} in {time.perf_counter() - start:.1f} s",
            file=sys.stderr,
        )
        if args.json is not None:  # after every pair: a run cut off keeps what it measured
            write_json(args.json, where, rows)
    print(f"budget-check: {where}, profile h200\n")
    print(table(rows))
    if any(r.kernels for r in rows):
        print("\n" + kernel_table(rows))
    print("\ntargets:")
    results = targets(rows)
    for what, met, number in results:
        print(f"  {'met   ' if met else 'MISSED'} {what}: {number}")
    if not gpu:
        print("  (a preview: the check itself is this command on a GPU)")
    return 0
